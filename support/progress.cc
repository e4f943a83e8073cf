#include "support/progress.h"

#include <unistd.h>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"

namespace aot {

Progress::Progress() : Progress(::isatty(STDERR_FILENO) == 1, stderr) {}

Progress::Progress(bool enabled, FILE* out, std::chrono::milliseconds tick)
    : enabled_(enabled), out_(out), tick_(tick), start_(std::chrono::steady_clock::now()) {
  if (enabled_ && tick_.count() > 0) ticker_ = std::thread([this] { Tick(); });
}

Progress::~Progress() {
  {
    std::lock_guard<std::mutex> lock(mu_);
    stop_ = true;
  }
  stop_cv_.notify_all();
  if (ticker_.joinable()) ticker_.join();
  if (enabled_ && open_line_) {
    std::fputs("\n", out_);
    std::fflush(out_);
  }
}

std::string Progress::Elapsed() const {
  double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
  return absl::StrFormat("[%6.1f s] ", seconds);
}

void Progress::DrawLocked() {
  // "\r" back to the start, "\033[K" clears the rest of the old line.
  std::fprintf(out_, "\r%s%s\033[K", Elapsed().c_str(), current_.c_str());
  std::fflush(out_);
}

void Progress::Tick() {
  std::unique_lock<std::mutex> lock(mu_);
  while (!stop_cv_.wait_for(lock, tick_, [this] { return stop_; })) {
    if (open_line_) DrawLocked();
  }
}

void Progress::Update(absl::string_view what, int64_t done, int64_t total) {
  if (!enabled_) return;
  std::lock_guard<std::mutex> lock(mu_);
  current_ = std::string(what);
  if (total > 0) absl::StrAppend(&current_, " (", done, "/", total, ")");
  open_line_ = true;
  DrawLocked();
}

void Progress::Clear() {
  if (!enabled_) return;
  std::lock_guard<std::mutex> lock(mu_);
  if (open_line_) {
    std::fputs("\r\033[K", out_);
    std::fflush(out_);
  }
  open_line_ = false;
}

void Progress::Line(absl::string_view line) {
  if (!enabled_) return;
  std::lock_guard<std::mutex> lock(mu_);
  std::fprintf(out_, "%s%s%s\n", open_line_ ? "\r\033[K" : "", Elapsed().c_str(),
               std::string(line).c_str());
  std::fflush(out_);
  open_line_ = false;
}

}  // namespace aot
