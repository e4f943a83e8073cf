// A steady-state host execution (PreparedExecution::Run, i.e.
// Executable::ExecuteInto with buffers made once) allocates no heap memory,
// on the calling thread or on the pool's workers: its arena, allocation
// table, stream and kernel arguments are all reused. Counted by replacing
// the global operator new in this test binary (skipped in sanitized builds,
// whose runtimes own operator new).
#include <atomic>
#include <cstdlib>
#include <new>

#include "compiler/backend/compiler.h"
#include "compiler/bench/bench_programs.h"
#include "compiler/hlo/hlo_parser.h"
#include "compiler/target/target_config.h"
#include "compiler/tooling/literal_execution.h"
#include "compiler/tooling/random_literal.h"
#include "gtest/gtest.h"
#include "runtime/executable/client.h"

#ifndef AOT_SANITIZED
namespace {
std::atomic<bool> counting{false};
std::atomic<int64_t> allocations{0};

void* Allocate(size_t size, size_t alignment) {
  if (counting.load(std::memory_order_relaxed)) allocations.fetch_add(1);
  size = size == 0 ? 1 : size;
  void* p = alignment <= alignof(std::max_align_t)
                ? std::malloc(size)
                : std::aligned_alloc(alignment, (size + alignment - 1) / alignment * alignment);
  if (p == nullptr) throw std::bad_alloc();
  return p;
}
}  // namespace

void* operator new(size_t size) { return Allocate(size, 0); }
void* operator new[](size_t size) { return Allocate(size, 0); }
void* operator new(size_t size, std::align_val_t a) {
  return Allocate(size, static_cast<size_t>(a));
}
void* operator new[](size_t size, std::align_val_t a) {
  return Allocate(size, static_cast<size_t>(a));
}
void operator delete(void* p) noexcept { std::free(p); }
void operator delete[](void* p) noexcept { std::free(p); }
void operator delete(void* p, size_t) noexcept { std::free(p); }
void operator delete[](void* p, size_t) noexcept { std::free(p); }
void operator delete(void* p, std::align_val_t) noexcept { std::free(p); }
void operator delete[](void* p, std::align_val_t) noexcept { std::free(p); }
void operator delete(void* p, size_t, std::align_val_t) noexcept { std::free(p); }
void operator delete[](void* p, size_t, std::align_val_t) noexcept { std::free(p); }
#endif

namespace aot {
namespace {

// One kernel (a kernel thunk), and several (a command buffer).
const std::string& Program(bool command_buffer) {
  static const std::string elementwise = bench::Elementwise(256, 1024);
  static const std::string softmax = bench::Softmax(512, 256);
  return command_buffer ? softmax : elementwise;
}

class SteadyStateAllocationTest : public ::testing::TestWithParam<bool> {};

TEST_P(SteadyStateAllocationTest, ExecuteIntoAllocatesNothing) {
#ifdef AOT_SANITIZED
  GTEST_SKIP() << "the sanitizer runtime owns operator new";
#else
  auto module = ParseHloModule(Program(GetParam()));
  ASSERT_TRUE(module.ok()) << module.status();
  auto target = ShippedTargetConfig("host-x86-64-v2");
  ASSERT_TRUE(target.ok());
  auto compiled = Compile(**module, *target);
  ASSERT_TRUE(compiled.ok()) << compiled.status();
  auto client = Client::Create("host");
  ASSERT_TRUE(client.ok());
  auto executable = (*client)->DeserializeExecutable((*compiled)->SerializeAsString());
  ASSERT_TRUE(executable.ok()) << executable.status();
  std::vector<Literal> args = RandomArguments(**module, 3);
  auto prepared = PreparedExecution::Create(**executable, args);
  ASSERT_TRUE(prepared.ok()) << prepared.status();
  // The first runs make the arena and warm the pools.
  for (int i = 0; i < 2; ++i) ASSERT_TRUE(prepared->Run().ok());
  allocations = 0;
  counting = true;
  absl::Status status;
  for (int i = 0; i < 5 && status.ok(); ++i) status = prepared->Run();
  counting = false;
  ASSERT_TRUE(status.ok()) << status;
  EXPECT_EQ(allocations.load(), 0) << "heap allocations in 5 steady-state executions";
#endif
}

INSTANTIATE_TEST_SUITE_P(Programs, SteadyStateAllocationTest, ::testing::Bool(),
                         [](const ::testing::TestParamInfo<bool>& info) {
                           return info.param ? std::string("CommandBuffer")
                                             : std::string("KernelThunk");
                         });

}  // namespace
}  // namespace aot
