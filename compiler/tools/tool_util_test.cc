#include "compiler/tools/tool_util.h"

#include <unistd.h>

#include <filesystem>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "compiler/hlo/hlo_parser.h"
#include "compiler/target/target_config.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "proto/executable.pb.h"
#include "runtime/support/file_io.h"

namespace aot {
namespace {

using ::testing::ElementsAre;
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

Literal F32Vector(std::vector<double> values) {
  return Literal::FromDoubles(Shape(F32, {static_cast<int64_t>(values.size())}),
                              values);
}

// A fresh empty directory under the test's temporary directory, removed
// when the test ends.
class ScratchDir {
 public:
  explicit ScratchDir(absl::string_view name)
      : path_(std::filesystem::path(::testing::TempDir()) /
              absl::StrCat("tool_util_test_", getpid(), "_", name)) {
    std::filesystem::remove_all(path_);
    std::filesystem::create_directories(path_);
  }
  ~ScratchDir() {
    std::error_code ignored;
    std::filesystem::remove_all(path_, ignored);
  }
  const std::filesystem::path& path() const { return path_; }

 private:
  std::filesystem::path path_;
};

void Touch(const std::filesystem::path& path,
           absl::string_view contents = "x") {
  std::filesystem::create_directories(path.parent_path());
  ASSERT_TRUE(WriteFileAtomically(path.string(), contents).ok()) << path;
}

TEST(ToolUtilTest, RecognizesHloText) {
  EXPECT_TRUE(LooksLikeHloText(kModule));
  EXPECT_TRUE(
      LooksLikeHloText("\n  // a comment\n/* block\n comment */\nHloModule m, "
                       "entry_computation_layout={()->f32[]}\n"));
  EXPECT_TRUE(LooksLikeHloText("HloModule m\n"));
  EXPECT_FALSE(LooksLikeHloText("HloModuleX m\n"));
  EXPECT_FALSE(LooksLikeHloText("name: \"m\"\nthunks {\n}\n"));
  EXPECT_FALSE(
      LooksLikeHloText(std::string("\x0a\x03"
                                   "abc",
                                   5)));
  EXPECT_FALSE(LooksLikeHloText(""));
}

TEST(ToolUtilTest, DetectsRunInputsByNameAndContent) {
  EXPECT_EQ(DetectRunInputKind("m.hlo", "garbage"), InputKind::kHloText);
  EXPECT_EQ(DetectRunInputKind("m.pb", kModule), InputKind::kHloText);
  EXPECT_EQ(DetectRunInputKind("m.pb", std::string("\x0a\x03"
                                                   "abc",
                                                   5)),
            InputKind::kExecutableBinary);
  EXPECT_EQ(DetectRunInputKind("m.pbtxt", "name: \"m\"\n"),
            InputKind::kExecutableText);
  // No telling extension: the content decides.
  EXPECT_EQ(DetectRunInputKind("artifact", "name: \"m\"\n"),
            InputKind::kExecutableText);
  EXPECT_EQ(DetectRunInputKind("artifact", std::string("\x0a\x03"
                                                       "abc",
                                                       5)),
            InputKind::kExecutableBinary);
  EXPECT_EQ(DetectRunInputKind("module.txt", kModule), InputKind::kHloText);
}

TEST(ToolUtilTest, DetectsModuleInputs) {
  EXPECT_EQ(DetectModuleInputKind("m.hlo", kModule), InputKind::kHloText);
  EXPECT_EQ(DetectModuleInputKind("m.pb", "\x0a\x01m"),
            InputKind::kHloProtoBinary);
  EXPECT_EQ(DetectModuleInputKind("m.pbtxt", "name: \"m\""),
            InputKind::kHloProtoText);
  EXPECT_EQ(DetectModuleInputKind("m.pbtxt", kModule), InputKind::kHloText);
  EXPECT_EQ(DetectModuleInputKind("m.txt", "anything"), InputKind::kHloText);
}

TEST(ToolUtilTest, HloProtoRoundTripsInBothFormats) {
  auto module = ParseHloModule(kModule);
  ASSERT_TRUE(module.ok()) << module.status();
  const std::string text = (*module)->ToString();
  for (bool as_text : {false, true}) {
    SCOPED_TRACE(as_text ? "text" : "binary");
    std::string bytes = SerializeHloModuleProto((*module)->ToProto(), as_text);
    // Deterministic.
    EXPECT_EQ(bytes, SerializeHloModuleProto((*module)->ToProto(), as_text));
    const char* path = as_text ? "m.pbtxt" : "m.pb";
    auto loaded =
        ParseHloModuleBytes(bytes, path, DetectModuleInputKind(path, bytes));
    ASSERT_TRUE(loaded.ok()) << loaded.status();
    EXPECT_EQ(loaded->module->ToString(), text);
  }
}

TEST(ToolUtilTest, ParseErrorsNameThePathAndPosition) {
  auto loaded = ParseHloModuleBytes(
      "HloModule m\nENTRY e {\n  ROOT x = f32[] bogus()\n}\n", "dir/m.hlo",
      InputKind::kHloText);
  ASSERT_FALSE(loaded.ok());
  EXPECT_EQ(loaded.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(std::string(loaded.status().message()),
              StartsWith("dir/m.hlo: 3:"));

  auto text_proto = ParseHloModuleBytes("name: \"m\"\nbogus_field: 1\n",
                                        "m.pbtxt", InputKind::kHloProtoText);
  ASSERT_FALSE(text_proto.ok());
  EXPECT_THAT(
      std::string(text_proto.status().message()),
      MatchesRegex(
          "m.pbtxt: not a valid text-format HloModuleProto: 2:[0-9]+: .*"));

  auto binary = ParseHloModuleBytes(std::string("\xff\xff\xff", 3), "m.pb",
                                    InputKind::kHloProtoBinary);
  ASSERT_FALSE(binary.ok());
  EXPECT_THAT(std::string(binary.status().message()),
              HasSubstr("m.pb: not a valid binary"));

  auto empty = ParseHloModuleBytes("", "m.pb", InputKind::kHloProtoBinary);
  ASSERT_FALSE(empty.ok());
  EXPECT_THAT(std::string(empty.status().message()),
              HasSubstr("no computations"));

  auto executable =
      ParseHloModuleBytes("", "e.pb", InputKind::kExecutableBinary);
  ASSERT_FALSE(executable.ok());
  EXPECT_THAT(std::string(executable.status().message()),
              HasSubstr("serialized executable"));
}

TEST(ToolUtilTest, SerializedExecutableIsNotAModule) {
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
    auto loaded =
        ParseHloModuleBytes(bytes, path, DetectModuleInputKind(path, bytes));
    ASSERT_FALSE(loaded.ok()) << path;
    EXPECT_THAT(
        std::string(loaded.status().message()),
        HasSubstr(
            "is a serialized executable (ExecutableProto), not an HLO module"))
        << path;
  }
}

TEST(ToolUtilTest, LoadHloModuleFileReportsMissingFiles) {
  auto loaded = LoadHloModuleFile("/nonexistent/dir/m.hlo");
  ASSERT_FALSE(loaded.ok());
  EXPECT_THAT(std::string(loaded.status().message()),
              HasSubstr("/nonexistent/dir/m.hlo"));
}

TEST(ToolUtilTest, ExpandsDirectoriesRecursivelyAndSorted) {
  ScratchDir scratch("expand");
  const std::filesystem::path& dir = scratch.path();
  Touch(dir / "b.hlo");
  Touch(dir / "a.pbtxt");
  Touch(dir / "sub" / "c.pb");
  Touch(dir / "notes.txt");
  Touch(dir / "inputs.json");
  auto files = ExpandFileArguments({dir.string()});
  ASSERT_TRUE(files.ok()) << files.status();
  EXPECT_THAT(*files,
              ElementsAre((dir / "a.pbtxt").string(), (dir / "b.hlo").string(),
                          (dir / "sub" / "c.pb").string()));
}

TEST(ToolUtilTest, ExpandsGlobsAndKeepsPlainPaths) {
  ScratchDir scratch("glob");
  const std::filesystem::path& dir = scratch.path();
  Touch(dir / "x2.hlo");
  Touch(dir / "x1.hlo");
  Touch(dir / "y.hlo");
  auto files =
      ExpandFileArguments({(dir / "x*.hlo").string(), (dir / "y.hlo").string(),
                           (dir / "missing.hlo").string()});
  ASSERT_TRUE(files.ok()) << files.status();
  EXPECT_THAT(
      *files,
      ElementsAre((dir / "x1.hlo").string(), (dir / "x2.hlo").string(),
                  (dir / "y.hlo").string(), (dir / "missing.hlo").string()));

  auto none = ExpandFileArguments({(dir / "z*.hlo").string()});
  ASSERT_FALSE(none.ok());
  EXPECT_THAT(std::string(none.status().message()),
              HasSubstr("matches no file"));

  ScratchDir empty_scratch("empty");
  const std::filesystem::path& empty = empty_scratch.path();
  Touch(empty / "readme.md");
  auto nothing = ExpandFileArguments({empty.string()});
  ASSERT_FALSE(nothing.ok());
  EXPECT_THAT(std::string(nothing.status().message()),
              HasSubstr("no *.hlo, *.pb or *.pbtxt"));
}

TEST(ToolUtilTest, PlatformNames) {
  EXPECT_EQ(*ParsePlatformName("host"), PLATFORM_HOST);
  EXPECT_EQ(*ParsePlatformName("cuda"), PLATFORM_CUDA);
  EXPECT_EQ(*ParsePlatformName("gpu"), PLATFORM_CUDA);
  EXPECT_FALSE(ParsePlatformName("tpu").ok());
  EXPECT_EQ(PlatformName(PLATFORM_CUDA), "cuda");
}

TEST(ToolUtilTest, DefaultTargets) {
  EXPECT_EQ(DefaultTargetName(PLATFORM_CUDA, {}), "h100");
  EXPECT_EQ(DefaultTargetName(PLATFORM_HOST, {}), "host-x86-64-v2");
  std::set<std::string> v2 = {"sse4.2", "popcnt", "ssse3", "sse4.1",
                              "sse3",   "cx16",   "sahf"};
  std::set<std::string> v3 = v2;
  for (const char* f : {"avx", "avx2", "fma", "bmi", "bmi2", "f16c", "lzcnt",
                        "movbe", "xsave"}) {
    v3.insert(f);
  }
  // Whatever the exact lists, a richer feature set never picks a lower level.
  std::string low = DefaultTargetName(PLATFORM_HOST, v2);
  std::string high = DefaultTargetName(PLATFORM_HOST, v3);
  EXPECT_THAT(low, MatchesRegex("host-x86-64-v[234]"));
  EXPECT_GE(high, low);
  // Every default is a shipped spec.
  for (const std::string& name :
       {low, high, DefaultTargetName(PLATFORM_CUDA, {})}) {
    EXPECT_TRUE(ShippedTargetConfig(name).ok()) << name;
  }
}

TEST(ToolUtilTest, SelectTargetChecksThePlatform) {
  auto host = SelectTarget(PLATFORM_HOST, "");
  ASSERT_TRUE(host.ok()) << host.status();
  EXPECT_EQ(host->platform(), PLATFORM_HOST);
  auto cuda = SelectTarget(PLATFORM_CUDA, "");
  ASSERT_TRUE(cuda.ok()) << cuda.status();
  EXPECT_EQ(cuda->name(), "h100");
  auto a100 = SelectTarget(PLATFORM_CUDA, "a100");
  ASSERT_TRUE(a100.ok());
  EXPECT_EQ(a100->name(), "a100");

  auto mismatch = SelectTarget(PLATFORM_HOST, "a100");
  ASSERT_FALSE(mismatch.ok());
  EXPECT_EQ(mismatch.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(std::string(mismatch.status().message()),
              HasSubstr("target config 'a100' is for platform cuda, not host"));
  EXPECT_FALSE(SelectTarget(PLATFORM_HOST, "no-such-target").ok());
}

TEST(ToolUtilTest, StageTable) {
  std::vector<std::string> names;
  for (const StageInfo& s : CompilerStages()) {
    names.emplace_back(s.name);
    EXPECT_NE(std::string(s.description), "");
  }
  EXPECT_THAT(names, ElementsAre("hlo", "hlo-optimized", "hlo-fused",
                                 "buffer-assignment", "thunks", "llvm", "ptx"));
  EXPECT_NE(FindCompilerStage("llvm"), nullptr);
  EXPECT_EQ(FindCompilerStage("asm"), nullptr);
  EXPECT_THAT(ListCompilerStages(), HasSubstr("  buffer-assignment  "));
}

TEST(ToolUtilTest, Median) {
  EXPECT_EQ(MedianMs({}), 0);
  EXPECT_EQ(MedianMs({5}), 5);
  EXPECT_EQ(MedianMs({9, 1, 5}), 5);
  EXPECT_EQ(MedianMs({4, 1, 3, 2}), 2.5);
}

TEST(ToolUtilTest, ToleranceDescription) {
  EXPECT_EQ(DescribeDefaultTolerance(Shape(F32, {2})),
            "f32: atol=1e-05 rtol=0.0001");
  EXPECT_EQ(DescribeDefaultTolerance(Shape::Tuple(
                {Shape(S32, {}), Shape(F32, {3}), Shape(S32, {2})})),
            "s32: bitwise; f32: atol=1e-05 rtol=0.0001");
}

TEST(ToolUtilTest, ReferenceMatchWithinTolerance) {
  ReferenceOutcome r =
      CompareWithReference(F32Vector({1, 2}), F32Vector({1, 2.0000001}));
  EXPECT_EQ(r.result, ReferenceResult::kMatch);
  EXPECT_EQ(r.tolerance, "f32: atol=1e-05 rtol=0.0001");
}

TEST(ToolUtilTest, ReferenceMismatchNamesFirstElementAndCount) {
  ReferenceOutcome r =
      CompareWithReference(F32Vector({1, 2, 3, 4}), F32Vector({1, 2.5, 3, 5}));
  EXPECT_EQ(r.result, ReferenceResult::kMismatch);
  EXPECT_THAT(r.detail, HasSubstr("2 of 4 elements differ"));
  EXPECT_THAT(r.detail, HasSubstr("element 1: 2.5 vs expected 2"));

  const std::string line =
      FormatRunSummary("m.hlo", Shape(F32, {4}), RunTiming{1, 2, 3}, r);
  EXPECT_THAT(
      line,
      MatchesRegex("m.hlo: f32\\[4\\] load 1.000 ms, first 2.000 ms, steady "
                   "3.000 ms, reference: mismatch \\(2 of 4 elements differ; "
                   "first at element 1: 2.5 vs expected 2; tolerance f32: "
                   "atol=1e-05 rtol=0.0001\\)"));

  ReferenceOutcome shape =
      CompareWithReference(F32Vector({1, 2}), F32Vector({1, 2, 3}));
  EXPECT_EQ(shape.result, ReferenceResult::kMismatch);
  EXPECT_THAT(shape.detail, HasSubstr("shape"));
}

TEST(ToolUtilTest, SummaryLines) {
  ReferenceOutcome match = CompareWithReference(F32Vector({1}), F32Vector({1}));
  EXPECT_EQ(FormatRunSummary("dir/m.pb", Shape(F32, {1}),
                             RunTiming{0.25, 1.5, 0.125}, match),
            "dir/m.pb: f32[1] load 0.250 ms, first 1.500 ms, steady 0.125 ms, "
            "reference: match (tolerance f32: atol=1e-05 rtol=0.0001)");
  EXPECT_EQ(
      FormatRunSummary("m.hlo", Shape::Tuple({Shape(S32, {}), Shape(F32, {2})}),
                       RunTiming{1, 2, 3}, SkippedReference("")),
      "m.hlo: (s32[], f32[2]) load 1.000 ms, first 2.000 ms, steady 3.000 ms, "
      "reference: skipped");
  EXPECT_EQ(FormatRunSummary("m.pb", Shape(F32, {1}), RunTiming{1, 2, 3},
                             SkippedReference("no module")),
            "m.pb: f32[1] load 1.000 ms, first 2.000 ms, steady 3.000 ms, "
            "reference: skipped (no module)");
  EXPECT_EQ(
      FormatSkippedRunSummary("m.pb", Shape(F32, {1}), 4,
                              "platform 'cuda' cannot execute\nkernels here"),
      "m.pb: f32[1] load 4.000 ms, execution skipped (platform 'cuda' cannot "
      "execute "
      "kernels here), reference: skipped");
}

TEST(ToolUtilTest, CannotExecuteIsRecognized) {
  EXPECT_TRUE(IsCannotExecute(absl::FailedPreconditionError(
      "platform 'cuda' cannot execute kernels on this machine")));
  EXPECT_TRUE(IsCannotExecute(absl::FailedPreconditionError(
      "CUDA platform cannot execute here: no driver")));
  EXPECT_FALSE(
      IsCannotExecute(absl::FailedPreconditionError("capability mismatch")));
  EXPECT_FALSE(IsCannotExecute(absl::InvalidArgumentError("cannot execute")));
  EXPECT_FALSE(IsCannotExecute(absl::OkStatus()));
}

TEST(ToolUtilTest, OutputPaths) {
  EXPECT_EQ(OutputPathFor("out.json", 0, 1), "out.json");
  EXPECT_EQ(OutputPathFor("out.json", 1, 3), "out.1.json");
  EXPECT_EQ(OutputPathFor("out", 2, 3), "out.2.json");
}

TEST(ToolUtilTest, WithPathKeepsTheCode) {
  absl::Status s = WithPath("a.hlo", absl::UnimplementedError("no"));
  EXPECT_EQ(s.code(), absl::StatusCode::kUnimplemented);
  EXPECT_EQ(s.message(), "a.hlo: no");
}

}  // namespace
}  // namespace aot
