#ifndef AOT_SUPPORT_PROGRESS_H_
#define AOT_SUPPORT_PROGRESS_H_

// Progress of long work (generate, replay, old builds, the report) on
// stderr, when stderr is a terminal: one line rewritten in place,
//   [  12.3 s] replay host-x86-64-v3 v2: add_mul (3/40)
// and kept lines for finished steps; while a step runs (an old commit
// building for minutes) the elapsed time keeps ticking once a second.
// Quiet otherwise (CI logs, pipes), so tools print only their results
// there. Thread-safe.

#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <cstdio>
#include <mutex>
#include <string>
#include <thread>

#include "absl/strings/string_view.h"

namespace aot {

class Progress {
 public:
  // Enabled when `out` is stderr and stderr is a terminal.
  Progress();
  // For tests: enabled or not, writing to `out`; `tick` is how often the
  // open line is redrawn with a fresh elapsed time (0: never).
  Progress(bool enabled, FILE* out,
           std::chrono::milliseconds tick = std::chrono::milliseconds(1000));
  ~Progress();  // ends a line left open
  Progress(const Progress&) = delete;
  Progress& operator=(const Progress&) = delete;

  bool enabled() const { return enabled_; }

  // Rewrites the current line: "<what> (<done>/<total>)" (without the
  // count when total <= 0), after the elapsed time.
  void Update(absl::string_view what, int64_t done = 0, int64_t total = 0);
  // A line of its own (a finished step), after the elapsed time.
  void Line(absl::string_view line);
  // Erases the open line (before a tool prints its results).
  void Clear();

 private:
  std::string Elapsed() const;
  void DrawLocked();  // the open line, with a fresh elapsed time
  void Tick();

  bool enabled_;
  FILE* out_;
  std::chrono::milliseconds tick_;
  std::chrono::steady_clock::time_point start_;
  std::mutex mu_;
  std::condition_variable stop_cv_;
  bool stop_ = false;
  bool open_line_ = false;
  std::string current_;  // the open line's text, after the elapsed time
  std::thread ticker_;
};

}  // namespace aot

#endif  // AOT_SUPPORT_PROGRESS_H_
