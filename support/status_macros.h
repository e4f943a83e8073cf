#ifndef AOT_SUPPORT_STATUS_MACROS_H_
#define AOT_SUPPORT_STATUS_MACROS_H_

// Early-return helpers for absl::Status / absl::StatusOr, the project's
// spelling of the macros XLA (TF_RETURN_IF_ERROR) and Abseil-internal code
// use. Abseil 20220623 ships none; protobuf 3.21 has unprefixed ones in its
// internal stubs, hence the AOT_ prefix.
//
//   AOT_RETURN_IF_ERROR(DoThing());            // Status or StatusOr<T>
//   AOT_ASSIGN_OR_RETURN(auto value, Make());   // StatusOr<T> -> T
//   AOT_ASSIGN_OR_RETURN(std::unique_ptr<Foo> foo, MakeFoo());
//   AOT_RETURN_IF_ERROR_AND(parsed, Fail(WithPath(path, _), 1));
//
// AOT_RETURN_IF_ERROR_AND(expr, result...) is for a function whose result
// is not the status itself (a tool's exit code, an error rewritten with
// its position or path): on error it returns `result`, in which `_` names
// a copy of the failed absl::Status, the role `_` has in the status
// builders of XLA and Abseil-internal code.
//
// Both may only be used in a function returning absl::Status or
// absl::StatusOr<U>. The expression of AOT_ASSIGN_OR_RETURN may contain
// commas; its left-hand side may not (use `auto` there).

#include <utility>

#include "absl/status/status.h"
#include "absl/status/statusor.h"

namespace aot::status_macros_internal {

inline const absl::Status& AsStatus(const absl::Status& status) { return status; }
template <typename T>
const absl::Status& AsStatus(const absl::StatusOr<T>& status_or) {
  return status_or.status();
}

}  // namespace aot::status_macros_internal

#define AOT_STATUS_MACROS_CONCAT_INNER_(a, b) a##b
#define AOT_STATUS_MACROS_CONCAT_(a, b) AOT_STATUS_MACROS_CONCAT_INNER_(a, b)

#define AOT_RETURN_IF_ERROR(...)                                  \
  do {                                                            \
    if (::absl::Status aot_status_macros_status_ =                \
            ::aot::status_macros_internal::AsStatus(__VA_ARGS__); \
        !aot_status_macros_status_.ok()) {                        \
      return aot_status_macros_status_;                           \
    }                                                             \
  } while (false)

#define AOT_RETURN_IF_ERROR_AND(expr, ...)                                           \
  do {                                                                               \
    if (::absl::Status _ = ::aot::status_macros_internal::AsStatus(expr); !_.ok()) { \
      return __VA_ARGS__;                                                            \
    }                                                                                \
  } while (false)

#define AOT_ASSIGN_OR_RETURN(lhs, ...)                                                 \
  AOT_ASSIGN_OR_RETURN_IMPL_(AOT_STATUS_MACROS_CONCAT_(aot_status_or_, __LINE__), lhs, \
                             (__VA_ARGS__))
#define AOT_ASSIGN_OR_RETURN_IMPL_(status_or, lhs, rexpr)    \
  auto status_or = rexpr;                                    \
  if (!status_or.ok()) return std::move(status_or).status(); \
  lhs = std::move(status_or).value()

#endif  // AOT_SUPPORT_STATUS_MACROS_H_
