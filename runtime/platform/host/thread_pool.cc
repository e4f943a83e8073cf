#include "runtime/platform/host/thread_pool.h"

#include <algorithm>

namespace aot {

ThreadPool::ThreadPool(int num_threads) {
  for (int i = 0; i < num_threads; ++i) {
    workers_.emplace_back([this] { WorkerLoop(); });
  }
}

ThreadPool::~ThreadPool() {
  {
    std::lock_guard<std::mutex> lock(mu_);
    stop_ = true;
  }
  work_.notify_all();
  for (std::thread& t : workers_) t.join();
}

int64_t ThreadPool::ChunkSize(int64_t n) const {
  const int64_t chunks = (static_cast<int64_t>(workers_.size()) + 1) * kChunksPerThread;
  return std::max<int64_t>(1, (n + chunks - 1) / chunks);
}

void ThreadPool::RunSome(Job& job) {
  while (true) {
    const int64_t begin = job.next.fetch_add(job.chunk, std::memory_order_relaxed);
    if (begin >= job.n) return;
    const int64_t end = std::min(job.n, begin + job.chunk);
    for (int64_t i = begin; i < end; ++i) job.fn(i);
    job.done.fetch_add(end - begin, std::memory_order_acq_rel);
  }
}

void ThreadPool::Unlink(Job* job) {
  Job* prev = nullptr;
  for (Job* j = head_; j != nullptr; prev = j, j = j->queue_next) {
    if (j != job) continue;
    (prev == nullptr ? head_ : prev->queue_next) = j->queue_next;
    if (tail_ == j) tail_ = prev;
    j->queue_next = nullptr;
    return;
  }
}

void ThreadPool::WorkerLoop() {
  std::unique_lock<std::mutex> lock(mu_);
  while (true) {
    work_.wait(lock, [&] { return stop_ || head_ != nullptr; });
    if (head_ == nullptr) return;  // stop_, nothing queued
    Job* job = head_;
    if (job->next.load(std::memory_order_relaxed) >= job->n) {
      Unlink(job);  // every chunk claimed; its caller waits for the rest
      continue;
    }
    ++job->active;
    lock.unlock();
    RunSome(*job);
    lock.lock();
    // The caller may return (and its stack frame, the job, go) as soon as
    // active is 0 and every index is done: touch the job no more after this.
    --job->active;
    finished_.notify_all();
  }
}

void ThreadPool::ParallelFor(int64_t n, absl::FunctionRef<void(int64_t)> fn) {
  if (n <= 0) return;
  if (n == 1 || workers_.empty()) {
    for (int64_t i = 0; i < n; ++i) fn(i);
    return;
  }
  Job job(fn);
  job.n = n;
  job.chunk = ChunkSize(n);
  {
    std::lock_guard<std::mutex> lock(mu_);
    (tail_ == nullptr ? head_ : tail_->queue_next) = &job;
    tail_ = &job;
  }
  work_.notify_all();
  RunSome(job);
  std::unique_lock<std::mutex> lock(mu_);
  Unlink(&job);  // no worker joins it from now on
  finished_.wait(lock,
                 [&] { return job.active == 0 && job.done.load(std::memory_order_acquire) == n; });
}

}  // namespace aot
