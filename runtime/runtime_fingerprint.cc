#include "runtime/runtime_fingerprint.h"

#include <sys/stat.h>
#include <unistd.h>

#include <cstdlib>
#include <fstream>
#include <set>
#include <sstream>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "support/sha256.h"

namespace aot {
namespace {

// The path of the main executable (empty when /proc is not mounted).
std::string SelfExecutable() {
  char buffer[4096];
  ssize_t n = ::readlink("/proc/self/exe", buffer, sizeof(buffer) - 1);
  if (n <= 0) return "";
  return std::string(buffer, static_cast<size_t>(n));
}

// Whether a mapped file is a shared object ("libfoo.so", "libfoo.so.1.2",
// "ld-linux-x86-64.so.2", a Python extension "*.cpython-311-...so"): other
// file mappings (locale archives, data files mmap'ed by a test, device
// nodes) say nothing about the code that runs.
bool IsSharedObject(const std::string& path) {
  size_t slash = path.rfind('/');
  std::string base = slash == std::string::npos ? path : path.substr(slash + 1);
  size_t so = base.find(".so");
  return so != std::string::npos &&
         (so + 3 == base.size() || base[so + 3] == '.' || base[so + 3] == ' ');
}

}  // namespace

std::string SharedLibraryState(const std::string& path) {
  struct stat st;
  if (::stat(path.c_str(), &st) != 0) return "unreadable";
  return absl::StrFormat("%d %d.%09d", static_cast<int64_t>(st.st_size),
                         static_cast<int64_t>(st.st_mtim.tv_sec),
                         static_cast<int64_t>(st.st_mtim.tv_nsec));
}

std::vector<MappedLibrary> MappedSharedLibraryList() {
  const std::string self = SelfExecutable();
  std::set<std::string> paths;
  std::ifstream maps("/proc/self/maps");
  std::string line;
  while (std::getline(maps, line)) {
    // "address perms offset dev inode   pathname": the path is whatever
    // follows the fifth field (it may contain spaces; a library deleted
    // since it was mapped ends in " (deleted)" and reads as unreadable).
    std::istringstream fields(line);
    std::string address, perms, offset, dev, inode;
    if (!(fields >> address >> perms >> offset >> dev >> inode)) continue;
    std::string path;
    std::getline(fields >> std::ws, path);
    if (path.empty() || path[0] != '/' || path == self) continue;
    if (!IsSharedObject(path)) continue;
    paths.insert(path);
  }
  std::vector<MappedLibrary> libraries;
  for (const std::string& path : paths) libraries.push_back({path, SharedLibraryState(path)});
  return libraries;
}

std::string MappedSharedLibraries() {
  std::string out;
  for (const MappedLibrary& library : MappedSharedLibraryList()) {
    absl::StrAppend(&out, library.path, " ", library.state, "\n");
  }
  return out;
}

std::string RuntimeFingerprintOf(const std::vector<MappedLibrary>& libraries) {
  const char* search_path = std::getenv("LD_LIBRARY_PATH");
  std::string text = absl::StrCat("xla-aot runtime fingerprint v1\nbuild ",
                                  RuntimeBuildFingerprint(), "\nLD_LIBRARY_PATH ",
                                  search_path == nullptr ? "" : search_path, "\nlibraries\n");
  for (const MappedLibrary& library : libraries) {
    absl::StrAppend(&text, library.path, " ", library.state, "\n");
  }
  return Sha256Hex(text);
}

std::string CurrentRuntimeFingerprint() { return RuntimeFingerprintOf(MappedSharedLibraryList()); }

std::string RuntimeFingerprint() {
  static const std::string* fingerprint = new std::string(CurrentRuntimeFingerprint());
  return *fingerprint;
}

}  // namespace aot
