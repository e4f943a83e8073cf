#include "runtime/platform/host/thread_pool.h"

#include <atomic>
#include <cstdint>
#include <thread>
#include <vector>

#include "gtest/gtest.h"

namespace aot {
namespace {

TEST(ThreadPoolTest, ParallelForRunsEveryIndexOnce) {
  ThreadPool pool(4);
  for (int64_t n : {0, 1, 3, 1000, 100000}) {
    std::vector<std::atomic<int>> hits(static_cast<size_t>(n));
    pool.ParallelFor(n, [&](int64_t i) { hits[static_cast<size_t>(i)].fetch_add(1); });
    for (int64_t i = 0; i < n; ++i) ASSERT_EQ(hits[static_cast<size_t>(i)].load(), 1) << i;
  }
}

// Several threads share one pool at once, as concurrent executions of one
// executable do; each sees exactly its own indices (run under TSan by
// scripts/test.sh --tsan).
TEST(ThreadPoolTest, ConcurrentParallelForsFromSeveralThreads) {
  ThreadPool pool(3);
  constexpr int kCallers = 8;
  constexpr int64_t kN = 5000;
  std::vector<int64_t> sums(kCallers, 0);
  std::vector<std::thread> callers;
  for (int c = 0; c < kCallers; ++c) {
    callers.emplace_back([&, c] {
      for (int round = 0; round < 20; ++round) {
        std::vector<int64_t> values(kN, 0);
        pool.ParallelFor(kN, [&](int64_t i) { values[static_cast<size_t>(i)] = i + c; });
        int64_t sum = 0;
        for (int64_t v : values) sum += v;
        sums[c] = sum;
      }
    });
  }
  for (std::thread& t : callers) t.join();
  for (int c = 0; c < kCallers; ++c) EXPECT_EQ(sums[c], kN * (kN - 1) / 2 + kN * c) << c;
}

// Each thread runs contiguous chunks (a kernel's blocks stream through
// memory), at most kChunksPerThread per thread: the owner of consecutive
// indices changes only at chunk boundaries.
TEST(ThreadPoolTest, ParallelForRunsContiguousChunks) {
  ThreadPool pool(3);
  constexpr int64_t kN = 100000;
  const int64_t chunk = pool.ChunkSize(kN);
  EXPECT_EQ(chunk,
            (kN + 4 * ThreadPool::kChunksPerThread - 1) / (4 * ThreadPool::kChunksPerThread));
  std::vector<std::thread::id> owner(kN);
  pool.ParallelFor(kN,
                   [&](int64_t i) { owner[static_cast<size_t>(i)] = std::this_thread::get_id(); });
  for (int64_t i = 1; i < kN; ++i) {
    if (i % chunk != 0) {
      ASSERT_EQ(owner[i], owner[i - 1]) << "index " << i << " left its chunk";
    }
  }
  EXPECT_EQ(pool.ChunkSize(3), 1);
}

TEST(ThreadPoolTest, AZeroThreadPoolRunsOnTheCaller) {
  ThreadPool pool(0);
  int64_t sum = 0;
  pool.ParallelFor(100, [&](int64_t i) { sum += i; });
  EXPECT_EQ(sum, 4950);
}

}  // namespace
}  // namespace aot
