// A steady-state host execution (PreparedExecution::Run, i.e.
// Executable::ExecuteInto with buffers made once) allocates no heap memory,
// on the calling thread or on the pool's workers: its arena, allocation
// table, stream and kernel arguments are all reused. And a load keeps one
// copy of the constants and peaks under 1.5x (artifact + buffers). Counted
// by replacing the global operator new in this test binary (skipped in
// sanitized builds, whose runtimes own operator new).
#include <malloc.h>

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
// Bytes operator new holds now, and the most it held since the last reset.
std::atomic<int64_t> live{0}, peak{0};

void* Allocate(size_t size, size_t alignment) {
  if (counting.load(std::memory_order_relaxed)) allocations.fetch_add(1);
  size = size == 0 ? 1 : size;
  void* p = alignment <= alignof(std::max_align_t)
                ? std::malloc(size)
                : std::aligned_alloc(alignment, (size + alignment - 1) / alignment * alignment);
  if (p == nullptr) throw std::bad_alloc();
  const int64_t now = live.fetch_add(static_cast<int64_t>(malloc_usable_size(p))) +
                      static_cast<int64_t>(malloc_usable_size(p));
  int64_t seen = peak.load();
  while (now > seen && !peak.compare_exchange_weak(seen, now)) {
  }
  return p;
}
void Free(void* p) {
  if (p == nullptr) return;
  live.fetch_sub(static_cast<int64_t>(malloc_usable_size(p)));
  std::free(p);
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
void operator delete(void* p) noexcept { Free(p); }
void operator delete[](void* p) noexcept { Free(p); }
void operator delete(void* p, size_t) noexcept { Free(p); }
void operator delete[](void* p, size_t) noexcept { Free(p); }
void operator delete(void* p, std::align_val_t) noexcept { Free(p); }
void operator delete[](void* p, std::align_val_t) noexcept { Free(p); }
void operator delete(void* p, size_t, std::align_val_t) noexcept { Free(p); }
void operator delete[](void* p, size_t, std::align_val_t) noexcept { Free(p); }
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

// Loading an artifact whose bulk is a 16 MiB constant (once, in `binary`:
// the embedded HLO's literal holds only its shape). Afterwards the executable holds no
// copy of `binary` (the constant lives in its buffer, which the platform
// allocates outside operator new; the proto's copy is dropped), only the
// embedded HLO and small tables; while loading, operator new holds at most
// the parsed proto (about the artifact) on top: no zero-filled or second
// copy of the constant. A round trip through ToProto gives back the
// artifact's bytes.
TEST(LoadMemoryTest, LoadedExecutableHoldsNoCopyOfTheConstants) {
#ifdef AOT_SANITIZED
  GTEST_SKIP() << "the sanitizer runtime owns operator new";
#else
  constexpr int64_t kRows = 2048, kCols = 2048;
  std::string text = "HloModule big_constant\nENTRY e {\n  x = f32[2048,2048] parameter(0)\n";
  text += "  w = f32[2048,2048] constant({";
  for (int64_t r = 0; r < kRows; ++r) {
    text += r == 0 ? "{" : ",{";
    for (int64_t c = 0; c < kCols; ++c) {
      if (c > 0) text += ",";
      text += std::to_string((r * 7 + c) % 13);
    }
    text += "}";
  }
  text += "})\n  ROOT r = f32[2048,2048] add(x, w)\n}\n";
  auto module = ParseHloModule(text);
  ASSERT_TRUE(module.ok()) << module.status();
  auto compiled = Compile(**module, *ShippedTargetConfig("host-x86-64-v2"));
  ASSERT_TRUE(compiled.ok()) << compiled.status();
  const std::string artifact = (*compiled)->SerializeAsString();
  module->reset();
  compiled->reset();
  const int64_t constant_bytes = kRows * kCols * 4;
  const int64_t artifact_bytes = static_cast<int64_t>(artifact.size());
  ASSERT_GT(artifact_bytes, constant_bytes);
  ExecutableProto parsed;
  ASSERT_TRUE(parsed.ParseFromString(artifact));
  const int64_t embedded_hlo_bytes = static_cast<int64_t>(parsed.hlo_module().ByteSizeLong());
  ASSERT_GE(artifact_bytes, embedded_hlo_bytes + constant_bytes);
  parsed.Clear();
  auto client = Client::Create("host");
  ASSERT_TRUE(client.ok());
  const int64_t before = live.load();
  peak = before;
  auto executable = (*client)->DeserializeExecutable(artifact);
  ASSERT_TRUE(executable.ok()) << executable.status();
  const int64_t held = live.load() - before;
  const int64_t peak_extra = peak.load() - before;
  // The embedded HLO, kernel objects and tables: not `binary`.
  EXPECT_LT(held, embedded_hlo_bytes + constant_bytes / 8)
      << "the loaded executable keeps a copy of the constants";
  EXPECT_LT(peak_extra, artifact_bytes + constant_bytes / 8)
      << "peak " << peak_extra << " bytes above the artifact's " << artifact_bytes;
  // The constant is stored once (the embedded literal is its shape), and
  // the load's peak is the parsed copy alone: with the caller's bytes and
  // the constant's buffer, 1.5x (artifact + buffers).
  EXPECT_LT(embedded_hlo_bytes, constant_bytes / 1000);
  EXPECT_LT(artifact_bytes, constant_bytes + constant_bytes / 100);
  EXPECT_LT(peak_extra, artifact_bytes + artifact_bytes / 100);
  EXPECT_EQ((*executable)->SerializeExecutable(), artifact);
#endif
}

}  // namespace
}  // namespace aot
