// The host platform's allocator: large freed blocks are reused for the
// same size (a fresh one page-faults on first touch), from any thread.
#include "runtime/platform/host/host_platform.h"

#include <cstdint>
#include <cstring>
#include <thread>
#include <vector>

#include "gtest/gtest.h"

namespace aot {
namespace {

TEST(HostPlatformTest, LargeFreedBlocksAreReusedForTheSameSize) {
  auto platform = CreateHostPlatform();
  ASSERT_TRUE(platform.ok()) << platform.status();
  const int64_t size = 4 * kHostCachedBlockMin + 100;
  auto a = (*platform)->Allocate(size);
  ASSERT_TRUE(a.ok());
  EXPECT_EQ(reinterpret_cast<uintptr_t>(a->ptr) % 64, 0u);
  std::memset(a->ptr, 0x5a, static_cast<size_t>(size));
  void* first = a->ptr;
  (*platform)->Free(*a);
  auto b = (*platform)->Allocate(size);
  ASSERT_TRUE(b.ok());
  EXPECT_EQ(b->ptr, first);
  EXPECT_EQ(b->size, size);
  // Held: another block of that size is a new one.
  auto c = (*platform)->Allocate(size);
  ASSERT_TRUE(c.ok());
  EXPECT_NE(c->ptr, b->ptr);
  std::memset(c->ptr, 0, static_cast<size_t>(size));
  (*platform)->Free(*b);
  (*platform)->Free(*c);
  (*platform)->Free(DeviceMemory{});  // a null block is ignored
}

TEST(HostPlatformTest, ConcurrentAllocationsNeverShareABlock) {
  auto platform = CreateHostPlatform();
  ASSERT_TRUE(platform.ok());
  constexpr int kThreads = 4;
  std::vector<std::thread> threads;
  std::vector<int> failures(kThreads, 0);
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([&, t] {
      for (int i = 0; i < 50; ++i) {
        auto m = (*platform)->Allocate(kHostCachedBlockMin * (1 + i % 3));
        if (!m.ok()) {
          ++failures[t];
          continue;
        }
        auto* bytes = static_cast<uint8_t*>(m->ptr);
        std::memset(bytes, t, static_cast<size_t>(m->size));
        for (int64_t j = 0; j < m->size; j += 4096) failures[t] += bytes[j] != t;
        (*platform)->Free(*m);
      }
    });
  }
  for (std::thread& t : threads) t.join();
  for (int t = 0; t < kThreads; ++t) EXPECT_EQ(failures[t], 0) << "thread " << t;
}

}  // namespace
}  // namespace aot
