#ifndef AOT_RUNTIME_PLATFORM_HOST_THREAD_POOL_H_
#define AOT_RUNTIME_PLATFORM_HOST_THREAD_POOL_H_

#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <deque>
#include <functional>
#include <memory>
#include <mutex>
#include <thread>
#include <vector>

namespace aot {

// A fixed pool of worker threads running index ranges. ParallelFor may be
// called from several threads at once; the calling thread works too.
// Hand-written: Abseil has no public thread pool, and the runtime links no
// other (LLVM's ThreadPool cannot run one loop's chunks on the caller too).
class ThreadPool {
 public:
  explicit ThreadPool(int num_threads);
  ~ThreadPool();
  ThreadPool(const ThreadPool&) = delete;
  ThreadPool& operator=(const ThreadPool&) = delete;

  int num_threads() const { return static_cast<int>(workers_.size()); }
  // Runs fn(i) for every i in [0, n) and returns when all are done.
  void ParallelFor(int64_t n, const std::function<void(int64_t)>& fn);

 private:
  struct Job {
    const std::function<void(int64_t)>* fn = nullptr;
    int64_t n = 0;
    std::atomic<int64_t> next{0};
    std::atomic<int64_t> done{0};
    std::mutex mu;
    std::condition_variable finished;
  };
  static void RunSome(Job& job);
  void WorkerLoop();

  std::mutex mu_;
  std::condition_variable work_;
  std::deque<std::shared_ptr<Job>> jobs_;
  bool stop_ = false;
  std::vector<std::thread> workers_;
};

}  // namespace aot

#endif  // AOT_RUNTIME_PLATFORM_HOST_THREAD_POOL_H_
