#ifndef AOT_RUNTIME_PLATFORM_HOST_THREAD_POOL_H_
#define AOT_RUNTIME_PLATFORM_HOST_THREAD_POOL_H_

#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <mutex>
#include <thread>
#include <vector>

#include "absl/functional/function_ref.h"

namespace aot {

// A fixed pool of worker threads running index ranges. ParallelFor may be
// called from several threads at once; the calling thread works too.
// Hand-written: Abseil has no public thread pool, and the runtime links no
// other (LLVM's ThreadPool cannot run one loop's chunks on the caller too,
// and allocates per task).
//
// A loop's indices are split into a few contiguous chunks per thread
// (kChunksPerThread), claimed dynamically, so each thread streams through
// contiguous memory and one atomic is paid per chunk, not per index.
// ParallelFor allocates nothing: the job lives on the caller's stack and
// is queued intrusively.
class ThreadPool {
 public:
  static constexpr int64_t kChunksPerThread = 4;

  explicit ThreadPool(int num_threads);
  ~ThreadPool();
  ThreadPool(const ThreadPool&) = delete;
  ThreadPool& operator=(const ThreadPool&) = delete;

  int num_threads() const { return static_cast<int>(workers_.size()); }
  // Runs fn(i) for every i in [0, n) and returns when all are done.
  void ParallelFor(int64_t n, absl::FunctionRef<void(int64_t)> fn);
  // The chunk size ParallelFor uses for n indices (at least 1).
  int64_t ChunkSize(int64_t n) const;

 private:
  struct Job {
    explicit Job(absl::FunctionRef<void(int64_t)> f) : fn(f) {}
    absl::FunctionRef<void(int64_t)> fn;
    int64_t n = 0;
    int64_t chunk = 1;
    std::atomic<int64_t> next{0};  // first unclaimed index
    std::atomic<int64_t> done{0};  // indices run
    int active = 0;                // workers inside RunSome; guarded by mu_
    Job* queue_next = nullptr;     // guarded by mu_
  };
  static void RunSome(Job& job);
  void WorkerLoop();
  void Unlink(Job* job);  // requires mu_

  std::mutex mu_;
  std::condition_variable work_;      // a job was queued, or stop_
  std::condition_variable finished_;  // a worker left a job
  Job* head_ = nullptr;
  Job* tail_ = nullptr;
  bool stop_ = false;
  std::vector<std::thread> workers_;
};

}  // namespace aot

#endif  // AOT_RUNTIME_PLATFORM_HOST_THREAD_POOL_H_
