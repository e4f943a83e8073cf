#ifndef AOT_SUPPORT_TESTING_STATUS_TESTING_H_
#define AOT_SUPPORT_TESTING_STATUS_TESTING_H_

#include <utility>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "gtest/gtest.h"

namespace aot {
namespace testing {

// The value of `status_or`; when it holds an error, records a test failure
// naming the error (after `context`, when given) and returns T{}. For the
// test helpers that return a value, where ASSERT_* cannot be used: the
// caller's test has failed already and sees an empty value.
template <typename T>
T ValueOrFailure(absl::StatusOr<T> status_or, absl::string_view context = "") {
  if (status_or.ok()) return *std::move(status_or);
  ADD_FAILURE() << context << (context.empty() ? "" : "\n") << status_or.status();
  return T{};
}

}  // namespace testing
}  // namespace aot

#endif  // AOT_SUPPORT_TESTING_STATUS_TESTING_H_
