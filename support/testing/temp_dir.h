#ifndef AOT_SUPPORT_TESTING_TEMP_DIR_H_
#define AOT_SUPPORT_TESTING_TEMP_DIR_H_

#include <string>

#include "support/scratch_dir.h"

namespace aot {
namespace testing {

// A test's scratch directory (support/scratch_dir.h), "aot_test_*" unless
// named otherwise.
class TempDir : public ScratchDir {
 public:
  explicit TempDir(const std::string& prefix = "aot_test") : ScratchDir(prefix) {}
};

}  // namespace testing
}  // namespace aot

#endif  // AOT_SUPPORT_TESTING_TEMP_DIR_H_
