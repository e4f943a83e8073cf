#ifndef AOT_SUPPORT_RENDEZVOUS_H_
#define AOT_SUPPORT_RENDEZVOUS_H_

#include <algorithm>
#include <condition_variable>
#include <cstdint>
#include <map>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/string_view.h"
#include "absl/time/clock.h"
#include "absl/time/time.h"
#include "absl/types/span.h"
#include "support/status_macros.h"

namespace aot {

// The meeting point of the participants of collective operations that run
// as threads of one process (the interpreter's replicas, the host
// platform's replicas): each participant of a group brings a value to a
// meeting and gets every member's value back, in group order, once all
// have arrived. A participant that does not arrive within the timeout
// fails every member that waits for it with DeadlineExceeded naming the
// operation and the missing participants: a collective never hangs.
//
// A meeting is named by a key the caller builds so that the members of one
// group agree on it without talking (this project uses the participant's
// count of collective calls so far plus the group's first member: SPMD
// programs make the same sequence of collective calls on every
// participant). Header-only and written here rather than taken from a
// library: Abseil's Barrier/Notification neither carry values nor time
// out, and the std::mutex keeps ThreadSanitizer's view (see executable.h).
template <typename T>
class Rendezvous {
 public:
  explicit Rendezvous(absl::Duration timeout) : timeout_(timeout) {}
  Rendezvous(const Rendezvous&) = delete;
  Rendezvous& operator=(const Rendezvous&) = delete;

  absl::Duration timeout() const { return timeout_; }

  // `me` (one of `members`) brings `value` to meeting `key` of the group
  // `members`. Returns the members' values in the order of `members`.
  // `what` names the operation in errors ("all-reduce 'ar.1'").
  absl::StatusOr<std::vector<T>> Exchange(const std::string& key, absl::Span<const int64_t> members,
                                          int64_t me, T value, absl::string_view what) {
    auto position = std::find(members.begin(), members.end(), me);
    if (position == members.end()) {
      return absl::InvalidArgumentError(absl::StrCat(what, ": participant ", me,
                                                     " is not a member of its group [",
                                                     absl::StrJoin(members, ", "), "]"));
    }
    const size_t rank = position - members.begin();
    std::unique_lock<std::mutex> lock(mu_);
    AOT_RETURN_IF_ERROR(aborted_);
    Meeting& meeting = meetings_[key];
    if (meeting.values.empty()) {
      meeting.members.assign(members.begin(), members.end());
      meeting.values.resize(members.size());
    } else if (meeting.members != std::vector<int64_t>(members.begin(), members.end())) {
      return absl::InternalError(absl::StrCat(
          what, ": participant ", me, " meets group [", absl::StrJoin(members, ", "), "] at '", key,
          "' where others meet group [", absl::StrJoin(meeting.members, ", "), "]"));
    }
    AOT_RETURN_IF_ERROR_AND(meeting.failure, Leave(key, meeting, _));
    meeting.values[rank] = std::move(value);
    ++meeting.arrived;
    cv_.notify_all();
    const absl::Time deadline = absl::Now() + timeout_;
    while (meeting.arrived < meeting.members.size() && meeting.failure.ok() && aborted_.ok()) {
      const absl::Duration left = deadline - absl::Now();
      if (left <= absl::ZeroDuration()) break;
      cv_.wait_for(lock, absl::ToChronoNanoseconds(std::min(left, absl::Seconds(1))));
    }
    AOT_RETURN_IF_ERROR_AND(aborted_, Leave(key, meeting, _));
    if (meeting.arrived < meeting.members.size() && meeting.failure.ok()) {
      std::vector<int64_t> missing;
      for (size_t i = 0; i < meeting.members.size(); ++i) {
        if (!meeting.values[i].has_value()) missing.push_back(meeting.members[i]);
      }
      meeting.failure = absl::DeadlineExceededError(absl::StrCat(
          what, ": replica", missing.size() == 1 ? " " : "s ", absl::StrJoin(missing, ", "),
          " of group [", absl::StrJoin(meeting.members, ", "), "] did not arrive within ",
          absl::FormatDuration(timeout_)));
      cv_.notify_all();
    }
    AOT_RETURN_IF_ERROR_AND(meeting.failure, Leave(key, meeting, _));
    std::vector<T> values;
    values.reserve(meeting.values.size());
    for (const std::optional<T>& v : meeting.values) values.push_back(*v);
    return Leave(key, meeting, std::move(values));
  }

  // Every waiting and later Exchange fails with `status` (a participant
  // failed and will not come; the others need not wait for the timeout).
  void Abort(absl::Status status) {
    std::lock_guard<std::mutex> lock(mu_);
    if (aborted_.ok()) aborted_ = std::move(status);
    cv_.notify_all();
  }

 private:
  struct Meeting {
    std::vector<int64_t> members;
    std::vector<std::optional<T>> values;
    size_t arrived = 0;
    size_t left = 0;
    absl::Status failure;
  };

  // The caller is done with `meeting`; the last member to leave removes it
  // (a failed meeting stays, so that late arrivals fail at once).
  template <typename R>
  R Leave(const std::string& key, Meeting& meeting, R result) {
    if (++meeting.left == meeting.members.size() && meeting.failure.ok()) meetings_.erase(key);
    return result;
  }

  const absl::Duration timeout_;
  std::mutex mu_;
  std::condition_variable cv_;
  std::map<std::string, Meeting> meetings_;
  absl::Status aborted_;
};

}  // namespace aot

#endif  // AOT_SUPPORT_RENDEZVOUS_H_
