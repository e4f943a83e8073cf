#include "compiler/hlo/hlo_module_loader.h"

#include <string>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "compiler/hlo/hlo_parser.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "proto/executable.pb.h"
#include "support/file_io.h"

namespace aot {
namespace {

using ::testing::HasSubstr;
using ::testing::MatchesRegex;
using ::testing::StartsWith;

constexpr char kModule[] = R"(HloModule add_one

ENTRY main {
  x = f32[2] parameter(0)
  one = f32[] constant(1)
  b = f32[2] broadcast(one), dimensions={}
  ROOT y = f32[2] add(x, b)
}
)";

TEST(HloModuleLoaderTest, RecognizesHloText) {
  EXPECT_TRUE(LooksLikeHloText(kModule));
  EXPECT_TRUE(
      LooksLikeHloText("\n  // a comment\n/* block\n comment */\nHloModule m, "
                       "entry_computation_layout={()->f32[]}\n"));
  EXPECT_TRUE(LooksLikeHloText("HloModule m\n"));
  EXPECT_TRUE(LooksLikeHloText("// headerless\nENTRY main {\n}"));
  EXPECT_FALSE(LooksLikeHloText("ENTRYPOINT: 3"));
  EXPECT_FALSE(LooksLikeHloText("HloModuleX m\n"));
  EXPECT_FALSE(LooksLikeHloText("name: \"m\"\nthunks {\n}\n"));
  EXPECT_FALSE(
      LooksLikeHloText(std::string("\x0a\x03"
                                   "abc",
                                   5)));
  EXPECT_FALSE(LooksLikeHloText(""));
}

TEST(HloModuleLoaderTest, DetectsModuleInputs) {
  EXPECT_EQ(DetectModuleInputKind("m.hlo", kModule), InputKind::kHloText);
  EXPECT_EQ(DetectModuleInputKind("m.pb", "\x0a\x01m"), InputKind::kHloProtoBinary);
  EXPECT_EQ(DetectModuleInputKind("m.pbtxt", "name: \"m\""), InputKind::kHloProtoText);
  EXPECT_EQ(DetectModuleInputKind("m.pbtxt", kModule), InputKind::kHloText);
  EXPECT_EQ(DetectModuleInputKind("m.txt", "anything"), InputKind::kHloText);
}

TEST(HloModuleLoaderTest, HloProtoRoundTripsInBothFormats) {
  auto module = ParseHloModule(kModule);
  ASSERT_TRUE(module.ok()) << module.status();
  const std::string text = (*module)->ToString();
  for (bool as_text : {false, true}) {
    SCOPED_TRACE(as_text ? "text" : "binary");
    std::string bytes = SerializeHloModuleProto((*module)->ToProto(), as_text);
    // Deterministic.
    EXPECT_EQ(bytes, SerializeHloModuleProto((*module)->ToProto(), as_text));
    const char* path = as_text ? "m.pbtxt" : "m.pb";
    auto loaded = ParseHloModuleBytes(bytes, path, DetectModuleInputKind(path, bytes));
    ASSERT_TRUE(loaded.ok()) << loaded.status();
    EXPECT_EQ(loaded->module->ToString(), text);
  }
}

TEST(HloModuleLoaderTest, ParseErrorsNameThePathAndPosition) {
  auto loaded = ParseHloModuleBytes("HloModule m\nENTRY e {\n  ROOT x = f32[] bogus()\n}\n",
                                    "dir/m.hlo", InputKind::kHloText);
  ASSERT_FALSE(loaded.ok());
  EXPECT_EQ(loaded.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(std::string(loaded.status().message()), StartsWith("dir/m.hlo: 3:"));

  auto text_proto =
      ParseHloModuleBytes("name: \"m\"\nbogus_field: 1\n", "m.pbtxt", InputKind::kHloProtoText);
  ASSERT_FALSE(text_proto.ok());
  EXPECT_THAT(std::string(text_proto.status().message()),
              MatchesRegex("m.pbtxt: not a valid text-format HloModuleProto: 2:[0-9]+: .*"));

  auto binary =
      ParseHloModuleBytes(std::string("\xff\xff\xff", 3), "m.pb", InputKind::kHloProtoBinary);
  ASSERT_FALSE(binary.ok());
  EXPECT_THAT(std::string(binary.status().message()), HasSubstr("m.pb: not a valid binary"));

  auto empty = ParseHloModuleBytes("", "m.pb", InputKind::kHloProtoBinary);
  ASSERT_FALSE(empty.ok());
  EXPECT_THAT(std::string(empty.status().message()), HasSubstr("no computations"));

  auto executable = ParseHloModuleBytes("", "e.pb", InputKind::kExecutableBinary);
  ASSERT_FALSE(executable.ok());
  EXPECT_THAT(std::string(executable.status().message()), HasSubstr("serialized executable"));
}

TEST(HloModuleLoaderTest, SerializedExecutableIsNotAModule) {
  ExecutableProto executable;
  executable.set_name("e");
  executable.add_thunks()->mutable_info()->set_name("k");
  executable.mutable_result()->mutable_shape();
  for (bool as_text : {false, true}) {
    std::string bytes;
    if (as_text) {
      bytes = "name: \"e\"\nresult { }\n";
    } else {
      bytes = executable.SerializeAsString();
    }
    const char* path = as_text ? "e.pbtxt" : "e.pb";
    auto loaded = ParseHloModuleBytes(bytes, path, DetectModuleInputKind(path, bytes));
    ASSERT_FALSE(loaded.ok()) << path;
    EXPECT_THAT(std::string(loaded.status().message()),
                HasSubstr("is a serialized executable (ExecutableProto), not an HLO module"))
        << path;
  }
}

TEST(HloModuleLoaderTest, LoadHloModuleFileReportsMissingFiles) {
  auto loaded = LoadHloModuleFile("/nonexistent/dir/m.hlo");
  ASSERT_FALSE(loaded.ok());
  EXPECT_THAT(std::string(loaded.status().message()), HasSubstr("/nonexistent/dir/m.hlo"));
}

TEST(HloModuleLoaderTest, WithPathKeepsTheCode) {
  absl::Status s = WithPath("a.hlo", absl::UnimplementedError("no"));
  EXPECT_EQ(s.code(), absl::StatusCode::kUnimplemented);
  EXPECT_EQ(s.message(), "a.hlo: no");
}

}  // namespace
}  // namespace aot
