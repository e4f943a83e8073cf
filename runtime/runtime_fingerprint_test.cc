#include "runtime/runtime_fingerprint.h"

#include <dlfcn.h>
#include <fcntl.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace aot {
namespace {

using ::testing::HasSubstr;
using ::testing::Not;

bool IsHex64(const std::string& s) {
  return s.size() == 64 && s.find_first_not_of("0123456789abcdef") == std::string::npos;
}

std::string SelfPath() {
  char buffer[4096];
  ssize_t n = readlink("/proc/self/exe", buffer, sizeof(buffer) - 1);
  return n > 0 ? std::string(buffer, static_cast<size_t>(n)) : "";
}

TEST(RuntimeFingerprintTest, IsHexAndStableWithinTheProcess) {
  const std::string fingerprint = RuntimeFingerprint();
  EXPECT_TRUE(IsHex64(fingerprint)) << fingerprint;
  EXPECT_EQ(RuntimeFingerprint(), fingerprint);
  // Nothing was mapped in between: computed now, it is the same.
  EXPECT_EQ(CurrentRuntimeFingerprint(), fingerprint);
}

TEST(RuntimeFingerprintTest, BuildHalfCoversTheRuntimeSources) {
  EXPECT_TRUE(IsHex64(RuntimeBuildFingerprint())) << RuntimeBuildFingerprint();
  // support/, proto/ and runtime/ hold well over a hundred source files;
  // a glob that matched nothing (or only a directory) would say so here.
  EXPECT_GT(RuntimeBuildFingerprintSourceCount(), 100);
}

TEST(RuntimeFingerprintTest, ListsTheMappedSharedLibrariesButNotTheExecutable) {
  const std::string libraries = MappedSharedLibraries();
  EXPECT_THAT(libraries, HasSubstr("/libc.so.6 "));
  const std::string self = SelfPath();
  ASSERT_FALSE(self.empty());
  EXPECT_THAT(libraries, Not(HasSubstr(self)));
  const std::vector<MappedLibrary> list = MappedSharedLibraryList();
  ASSERT_FALSE(list.empty());
  for (size_t i = 0; i < list.size(); ++i) {
    EXPECT_EQ(list[i].path[0], '/') << list[i].path;
    EXPECT_THAT(list[i].path, HasSubstr(".so"));
    EXPECT_EQ(list[i].state, SharedLibraryState(list[i].path));
    if (i > 0) {
      EXPECT_LT(list[i - 1].path, list[i].path) << "sorted, each once";
    }
  }
}

TEST(RuntimeFingerprintTest, CoversEachLibraryItsStateAndTheSearchPath) {
  const std::vector<MappedLibrary> none;
  const std::vector<MappedLibrary> one = {{"/lib/libx.so.1", "100 5.000000000"}};
  const std::vector<MappedLibrary> newer = {{"/lib/libx.so.1", "100 6.000000000"}};
  const std::vector<MappedLibrary> moved = {{"/opt/libx.so.1", "100 5.000000000"}};
  const std::string base = RuntimeFingerprintOf(none);
  EXPECT_TRUE(IsHex64(base));
  EXPECT_EQ(RuntimeFingerprintOf(none), base);
  EXPECT_NE(RuntimeFingerprintOf(one), base);
  EXPECT_NE(RuntimeFingerprintOf(newer), RuntimeFingerprintOf(one));
  EXPECT_NE(RuntimeFingerprintOf(moved), RuntimeFingerprintOf(one));

  const char* saved = getenv("LD_LIBRARY_PATH");
  const std::string saved_value = saved ? saved : "";
  setenv("LD_LIBRARY_PATH", "/somewhere/else", 1);
  EXPECT_NE(RuntimeFingerprintOf(none), base);
  if (saved) {
    setenv("LD_LIBRARY_PATH", saved_value.c_str(), 1);
  } else {
    unsetenv("LD_LIBRARY_PATH");
  }
  EXPECT_EQ(RuntimeFingerprintOf(none), base);
}

TEST(RuntimeFingerprintTest, StateIsSizeAndModificationTime) {
  EXPECT_EQ(SharedLibraryState("/no/such/libfile.so"), "unreadable");
  char path[] = "/tmp/aot_fingerprint_XXXXXX";
  int fd = mkstemp(path);
  ASSERT_GE(fd, 0);
  ASSERT_EQ(write(fd, "abc", 3), 3);
  close(fd);
  struct timespec times[2] = {{1000, 5}, {2000, 7}};  // atime, mtime
  ASSERT_EQ(utimensat(AT_FDCWD, path, times, 0), 0);
  EXPECT_EQ(SharedLibraryState(path), "3 2000.000000007");
  unlink(path);
}

TEST(RuntimeFingerprintTest, ALibraryMappedLaterChangesTheCurrentFingerprintOnly) {
  const std::string kept = RuntimeFingerprint();
  const std::string before = CurrentRuntimeFingerprint();
  const std::string mapped = MappedSharedLibraries();
  void* handle = nullptr;
  std::string loaded;
  for (const char* name : {"libanl.so.1", "libutil.so.1", "libBrokenLocale.so.1"}) {
    if (mapped.find(absl::StrCat("/", name, " ")) != std::string::npos) continue;
    handle = dlopen(name, RTLD_NOW | RTLD_LOCAL);
    if (handle != nullptr) {
      loaded = name;
      break;
    }
  }
  if (handle == nullptr) GTEST_SKIP() << "no unmapped library to load";
  EXPECT_THAT(MappedSharedLibraries(), HasSubstr(absl::StrCat("/", loaded, " ")));
  EXPECT_NE(CurrentRuntimeFingerprint(), before);
  EXPECT_EQ(RuntimeFingerprint(), kept);
  dlclose(handle);
}

}  // namespace
}  // namespace aot
