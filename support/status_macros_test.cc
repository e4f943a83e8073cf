#include "support/status_macros.h"

#include <memory>
#include <string>
#include <utility>

#include "gtest/gtest.h"

namespace aot {
namespace {

absl::Status Fails() { return absl::NotFoundError("missing"); }
absl::StatusOr<int> Value(bool ok) {
  if (!ok) return absl::InvalidArgumentError("bad");
  return 7;
}
absl::StatusOr<std::unique_ptr<std::string>> Owned() {
  return std::make_unique<std::string>("moved");
}

absl::Status ReturnIfError(bool fail, int* reached) {
  AOT_RETURN_IF_ERROR(fail ? Fails() : absl::OkStatus());
  *reached += 1;
  AOT_RETURN_IF_ERROR(Value(true));  // a StatusOr's status
  *reached += 1;
  return absl::OkStatus();
}

absl::StatusOr<int> AssignOrReturn(bool ok) {
  AOT_ASSIGN_OR_RETURN(int v, Value(ok));
  AOT_ASSIGN_OR_RETURN(auto owned, Owned());  // move-only values move out
  // Two in one scope, and an expression with commas.
  AOT_ASSIGN_OR_RETURN(auto pair, absl::StatusOr<std::pair<int, int>>(std::make_pair(1, 2)));
  return v + static_cast<int>(owned->size()) + pair.first + pair.second;
}

// An exit code from a status, as a tool's verb returns one.
int ExitCode(const absl::Status& s, int code) { return s.ok() ? 0 : code; }
int ReturnIfErrorAnd(bool fail, std::string* message) {
  AOT_RETURN_IF_ERROR_AND(Value(true), ExitCode(_, 3));
  AOT_RETURN_IF_ERROR_AND(fail ? Fails() : absl::OkStatus(),
                          (*message = std::string(_.message()), ExitCode(_, 2)));
  *message = "reached";
  return 0;
}

TEST(StatusMacrosTest, ReturnIfErrorAndReturnsItsResultWithTheStatus) {
  std::string message;
  EXPECT_EQ(ReturnIfErrorAnd(true, &message), 2);
  EXPECT_EQ(message, "missing");
  EXPECT_EQ(ReturnIfErrorAnd(false, &message), 0);
  EXPECT_EQ(message, "reached");
}

TEST(StatusMacrosTest, ReturnIfErrorStopsAtTheFirstError) {
  int reached = 0;
  absl::Status s = ReturnIfError(true, &reached);
  EXPECT_EQ(s.code(), absl::StatusCode::kNotFound);
  EXPECT_EQ(reached, 0);
  EXPECT_TRUE(ReturnIfError(false, &reached).ok());
  EXPECT_EQ(reached, 2);
}

TEST(StatusMacrosTest, AssignOrReturnPassesTheValueOrTheError) {
  EXPECT_EQ(*AssignOrReturn(true), 7 + 5 + 3);
  absl::StatusOr<int> failed = AssignOrReturn(false);
  EXPECT_EQ(failed.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(failed.status().message(), "bad");
}

}  // namespace
}  // namespace aot
