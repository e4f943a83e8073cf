#include "support/file_io.h"

#include <filesystem>
#include <fstream>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "support/testing/temp_dir.h"

namespace aot {
namespace {

namespace fs = std::filesystem;
using ::testing::HasSubstr;

class FileIoTest : public ::testing::Test {
 protected:
  void SetUp() override { ASSERT_FALSE(temp_.path().empty()); }
  testing::TempDir temp_{"aot_file_io_test"};
  fs::path dir_{temp_.path()};
};

TEST_F(FileIoTest, WriteThenReadRoundTrips) {
  std::string path = (dir_ / "a.bin").string();
  std::string payload("x\0y\xff", 4);
  ASSERT_TRUE(WriteFileAtomically(path, payload).ok());
  auto read = ReadFileToString(path);
  ASSERT_TRUE(read.ok()) << read.status();
  EXPECT_EQ(*read, payload);
  // Overwrite replaces the whole file and leaves no temporary behind.
  ASSERT_TRUE(WriteFileAtomically(path, "second").ok());
  EXPECT_EQ(*ReadFileToString(path), "second");
  int entries = 0;
  for (const auto& e : fs::directory_iterator(dir_)) {
    (void)e;
    ++entries;
  }
  EXPECT_EQ(entries, 1);
}

TEST_F(FileIoTest, MissingFileIsNotFoundAndNamesPath) {
  auto read = ReadFileToString((dir_ / "nope").string());
  ASSERT_FALSE(read.ok());
  EXPECT_EQ(read.status().code(), absl::StatusCode::kNotFound);
  EXPECT_THAT(read.status().message(), HasSubstr("nope"));
}

TEST_F(FileIoTest, DirectoryAndOversizeAreRejected) {
  EXPECT_EQ(ReadFileToString(dir_.string()).status().code(), absl::StatusCode::kInvalidArgument);
  std::string path = (dir_ / "big").string();
  ASSERT_TRUE(WriteFileAtomically(path, std::string(100, 'z')).ok());
  auto read = ReadFileToString(path, /*max_bytes=*/10);
  ASSERT_FALSE(read.ok());
  EXPECT_THAT(read.status().message(), HasSubstr("over the limit"));
}

TEST_F(FileIoTest, WriteIntoMissingDirectoryFailsCleanly) {
  std::string path = (dir_ / "no_such_dir" / "f").string();
  absl::Status s = WriteFileAtomically(path, "data");
  EXPECT_FALSE(s.ok());
  EXPECT_FALSE(fs::exists(path));
}

TEST_F(FileIoTest, SyncDirectoryNamesWhatItCannotSync) {
  EXPECT_TRUE(SyncDirectory(dir_.string()).ok());
  absl::Status missing = SyncDirectory((dir_ / "missing").string());
  EXPECT_EQ(missing.code(), absl::StatusCode::kNotFound);
  EXPECT_THAT(std::string(missing.message()), HasSubstr("missing"));
  // A regular file is not a directory: O_DIRECTORY refuses it.
  ASSERT_TRUE(WriteFileAtomically((dir_ / "file").string(), "x").ok());
  absl::Status file = SyncDirectory((dir_ / "file").string());
  EXPECT_FALSE(file.ok());
  EXPECT_THAT(std::string(file.message()), HasSubstr("cannot open directory"));
}

}  // namespace
}  // namespace aot
