#ifndef AOT_SUPPORT_TESTING_TEMP_DIR_H_
#define AOT_SUPPORT_TESTING_TEMP_DIR_H_

#include <stdlib.h>

#include <filesystem>
#include <string>

namespace aot {
namespace testing {

// A fresh directory under /tmp, removed with everything in it when the
// object goes out of scope.
class TempDir {
 public:
  explicit TempDir(const std::string& prefix = "aot_test") {
    std::string tmpl = "/tmp/" + prefix + "_XXXXXX";
    if (::mkdtemp(tmpl.data()) != nullptr) path_ = tmpl;
  }
  ~TempDir() {
    std::error_code ec;
    if (!path_.empty()) std::filesystem::remove_all(path_, ec);
  }
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;

  // Empty when the directory could not be created.
  const std::string& path() const { return path_; }

 private:
  std::string path_;
};

}  // namespace testing
}  // namespace aot

#endif  // AOT_SUPPORT_TESTING_TEMP_DIR_H_
