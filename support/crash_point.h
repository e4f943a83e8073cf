#ifndef AOT_SUPPORT_CRASH_POINT_H_
#define AOT_SUPPORT_CRASH_POINT_H_

// Fault injection for the crash-safety tests (harness/testing/
// crash_safety_test.cc), in the manner of SQLite's crash tests: the writes
// that must leave the golden corpus either old or new (files, directory
// renames and syncs) call CrashPoint() at each step. Two environment
// variables drive it; with neither set a call costs one branch.
//   AOT_CRASH_AT=N            the N-th call (1-based) kills the process
//                             with SIGKILL: no destructor, no flush.
//   AOT_CRASH_POINTS_LOG=F    each call appends "<n> <label>" to F (how a
//                             test learns how many points a command has).

namespace aot {

void CrashPoint(const char* label);

}  // namespace aot

#endif  // AOT_SUPPORT_CRASH_POINT_H_
