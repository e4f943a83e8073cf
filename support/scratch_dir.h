#ifndef AOT_SUPPORT_SCRATCH_DIR_H_
#define AOT_SUPPORT_SCRATCH_DIR_H_

#include <stdlib.h>

#include <filesystem>
#include <string>

namespace aot {

// A fresh directory under the system's temporary directory ($TMPDIR, else
// /tmp), removed with everything in it when the object goes out of scope.
class ScratchDir {
 public:
  explicit ScratchDir(const std::string& prefix) {
    std::error_code ec;
    std::filesystem::path base = std::filesystem::temp_directory_path(ec);
    if (ec) base = "/tmp";
    std::string tmpl = (base / (prefix + "_XXXXXX")).string();
    if (::mkdtemp(tmpl.data()) != nullptr) path_ = tmpl;
  }
  ~ScratchDir() {
    std::error_code ec;
    if (!path_.empty()) std::filesystem::remove_all(path_, ec);
  }
  ScratchDir(const ScratchDir&) = delete;
  ScratchDir& operator=(const ScratchDir&) = delete;

  // Empty when the directory could not be created.
  const std::string& path() const { return path_; }

 private:
  std::string path_;
};

}  // namespace aot

#endif  // AOT_SUPPORT_SCRATCH_DIR_H_
