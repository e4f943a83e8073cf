#include "compiler/tooling/input_files.h"

#include <filesystem>
#include <string>

#include "absl/strings/string_view.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "support/file_io.h"
#include "support/testing/temp_dir.h"

namespace aot {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;

// Enough of a module for detection: the header line decides.
constexpr char kModule[] = "HloModule m\n\nENTRY e {\n  ROOT p = f32[] parameter(0)\n}\n";

void Touch(const std::filesystem::path& path, absl::string_view contents = "x") {
  std::filesystem::create_directories(path.parent_path());
  ASSERT_TRUE(WriteFileAtomically(path.string(), contents).ok()) << path;
}

TEST(InputFilesTest, DetectsRunInputsByNameAndContent) {
  EXPECT_EQ(DetectRunInputKind("m.hlo", "garbage"), InputKind::kHloText);
  EXPECT_EQ(DetectRunInputKind("m.pb", kModule), InputKind::kHloText);
  EXPECT_EQ(DetectRunInputKind("m.pb", std::string("\x0a\x03"
                                                   "abc",
                                                   5)),
            InputKind::kExecutableBinary);
  EXPECT_EQ(DetectRunInputKind("m.pbtxt", "name: \"m\"\n"), InputKind::kExecutableText);
  // No telling extension: the content decides.
  EXPECT_EQ(DetectRunInputKind("artifact", "name: \"m\"\n"), InputKind::kExecutableText);
  EXPECT_EQ(DetectRunInputKind("artifact", std::string("\x0a\x03"
                                                       "abc",
                                                       5)),
            InputKind::kExecutableBinary);
  EXPECT_EQ(DetectRunInputKind("module.txt", kModule), InputKind::kHloText);
}

TEST(InputFilesTest, ExpandsDirectoriesRecursivelyAndSorted) {
  testing::TempDir scratch("input_files_test_expand");
  const std::filesystem::path dir = scratch.path();
  Touch(dir / "b.hlo");
  Touch(dir / "a.pbtxt");
  Touch(dir / "sub" / "c.pb");
  Touch(dir / "notes.txt");
  Touch(dir / "inputs.json");
  auto files = ExpandFileArguments({dir.string()});
  ASSERT_TRUE(files.ok()) << files.status();
  EXPECT_THAT(*files, ElementsAre((dir / "a.pbtxt").string(), (dir / "b.hlo").string(),
                                  (dir / "sub" / "c.pb").string()));
}

TEST(InputFilesTest, ExpandsGlobsAndKeepsPlainPaths) {
  testing::TempDir scratch("input_files_test_glob");
  const std::filesystem::path dir = scratch.path();
  Touch(dir / "x2.hlo");
  Touch(dir / "x1.hlo");
  Touch(dir / "y.hlo");
  auto files = ExpandFileArguments(
      {(dir / "x*.hlo").string(), (dir / "y.hlo").string(), (dir / "missing.hlo").string()});
  ASSERT_TRUE(files.ok()) << files.status();
  EXPECT_THAT(*files, ElementsAre((dir / "x1.hlo").string(), (dir / "x2.hlo").string(),
                                  (dir / "y.hlo").string(), (dir / "missing.hlo").string()));

  auto none = ExpandFileArguments({(dir / "z*.hlo").string()});
  ASSERT_FALSE(none.ok());
  EXPECT_THAT(std::string(none.status().message()), HasSubstr("matches no file"));

  testing::TempDir empty_scratch("input_files_test_empty");
  const std::filesystem::path empty = empty_scratch.path();
  Touch(empty / "readme.md");
  auto nothing = ExpandFileArguments({empty.string()});
  ASSERT_FALSE(nothing.ok());
  EXPECT_THAT(std::string(nothing.status().message()), HasSubstr("no *.hlo, *.pb or *.pbtxt"));
}

}  // namespace
}  // namespace aot
