#ifndef AOT_HARNESS_SCHEMA_SCHEMA_TEST_UTIL_H_
#define AOT_HARNESS_SCHEMA_SCHEMA_TEST_UTIL_H_

// The schema guard's tests: edited copies of a tree of .proto files compiled
// with protoc on the fly, and `buf breaking` as the peer to cross-check.

#include <sys/wait.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "gtest/gtest.h"
#include "support/file_io.h"

namespace aot {
namespace schema_testing {

inline int RunShell(const std::string& command) {
  int rc = std::system(command.c_str());
  return WIFEXITED(rc) ? WEXITSTATUS(rc) : -1;
}

// One textual edit of a file of the tree (a path relative to its root). An
// empty `from` creates the file with `to` as its whole text.
struct TreeEdit {
  std::string file;
  std::string from;
  std::string to;
};

// Copies `files` (relative paths) from `source_root` to `work/label/`,
// applies `edits` in order (each must match once), compiles `compile` (the
// files protoc is given; default: all of `files` and created ones) with
// --include_imports (and --include_source_info when asked) and returns the
// descriptor set's path, `work/label.binpb`.
inline std::string CompileEditedTree(const std::filesystem::path& source_root,
                                     const std::vector<std::string>& files,
                                     const std::vector<TreeEdit>& edits,
                                     const std::filesystem::path& work, const std::string& label,
                                     bool source_info = false,
                                     std::vector<std::string> compile = {}) {
  namespace fs = std::filesystem;
  fs::path dir = work / label;
  std::vector<std::string> all = files;
  for (const TreeEdit& e : edits) {
    if (e.from.empty()) all.push_back(e.file);
  }
  for (const std::string& file : all) {
    std::string text;
    if (fs::exists(source_root / file)) {
      auto read = ReadFileToString((source_root / file).string());
      EXPECT_TRUE(read.ok()) << read.status();
      text = read.value_or("");
    }
    for (const TreeEdit& e : edits) {
      if (e.file != file) continue;
      if (e.from.empty()) {
        text = e.to;
        continue;
      }
      size_t at = text.find(e.from);
      EXPECT_NE(at, std::string::npos)
          << label << ": edit does not match in " << file << ": " << e.from;
      if (at != std::string::npos) text.replace(at, e.from.size(), e.to);
    }
    fs::create_directories((dir / file).parent_path());
    std::ofstream(dir / file) << text;
  }
  if (compile.empty()) compile = all;
  std::string out = (work / absl::StrCat(label, ".binpb")).string();
  std::string cmd = absl::StrCat("cd '", dir.string(), "' && '", AOT_PROTOC,
                                 "' -I. -I/usr/include --include_imports",
                                 source_info ? " --include_source_info" : "",
                                 " --descriptor_set_out='", out, "' ", absl::StrJoin(compile, " "));
  EXPECT_EQ(RunShell(cmd), 0) << cmd;
  return out;
}

// How to run `buf` here ("" when it is not installed).
inline std::string FindBuf() {
  if (RunShell("command -v buf > /dev/null 2>&1") == 0) return "buf";
  if (RunShell("npx --no-install buf --version > /dev/null 2>&1") == 0) {
    return "npx --no-install buf";
  }
  return "";
}

// What `buf breaking HEAD --against BASE` (category WIRE_JSON) says.
struct BufVerdict {
  bool ran = false;     // exit 0 (no breaking change) or 100 (some)
  bool breaks = false;  // exit 100
  std::string output;   // its lines, or why it failed to run
};
inline BufVerdict BufBreaking(const std::string& buf, const std::string& head,
                              const std::string& base, const std::string& log) {
  std::string config = R"({"version":"v1","breaking":{"use":["WIRE_JSON"]}})";
  int rc = RunShell(absl::StrCat(buf, " breaking '", head, "' --against '", base, "' --config '",
                                 config, "' > '", log, "' 2>&1"));
  BufVerdict v;
  v.ran = rc == 0 || rc == 100;  // anything else is buf failing, not a verdict
  v.breaks = rc == 100;
  v.output = absl::StrCat(v.ran ? "" : absl::StrCat("buf exit ", rc, ": "),
                          ReadFileToString(log).value_or(""));
  return v;
}

}  // namespace schema_testing
}  // namespace aot

#endif  // AOT_HARNESS_SCHEMA_SCHEMA_TEST_UTIL_H_
