// The while thunk (kernel thunks as its condition and body) executed on the
// host platform, and its FromProto -> ToProto round trip.
#include <atomic>
#include <chrono>
#include <cstdint>
#include <string>
#include <thread>
#include <vector>

#include "absl/strings/string_view.h"
#include "absl/time/time.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "proto/executable.pb.h"
#include "runtime/testing/executable_builder.h"
#include "runtime/testing/test_kernels.h"

namespace aot {
namespace {

using ::aot::testing::As;
using ::aot::testing::Builder;
using ::aot::testing::Bytes;
using ::aot::testing::Load;
using ::aot::testing::Shape;
using ::testing::HasSubstr;

ThunkProto KernelThunk(absl::string_view name, const std::string& object,
                       std::vector<BufferSliceProto> args, int64_t blocks, int64_t threads,
                       std::vector<bool> written) {
  ThunkProto t;
  t.mutable_info()->set_name(std::string(name));
  KernelThunkProto* k = t.mutable_kernel();
  k->set_kernel_name(std::string(name));
  auto* d = k->mutable_launch_dimensions();
  d->set_block_count_x(blocks);
  d->set_block_count_y(1);
  d->set_block_count_z(1);
  d->set_threads_per_block_x(threads);
  d->set_threads_per_block_y(1);
  d->set_threads_per_block_z(1);
  for (size_t i = 0; i < args.size(); ++i) {
    *k->add_arguments() = args[i];
    k->add_written(written[i]);
  }
  k->mutable_binary()->set_format(KernelBinaryProto::HOST_ELF_OBJECT);
  k->mutable_binary()->set_object(object);
  return t;
}

TEST(ThunksTest, WhileLoopRunsTheBodyCounterTimes) {
  auto countdown = testing::CompileIrToObject(testing::CountdownKernelIr());
  ASSERT_TRUE(countdown.ok()) << countdown.status();
  auto add = testing::CompileIrToObject(testing::BinaryF32KernelIr("acc", "fadd"));
  ASSERT_TRUE(add.ok()) << add.status();
  Builder b;
  int n = b.Parameter(Shape(S32, {}));
  int x = b.Parameter(Shape(F32, {64}));
  int state = b.Allocation(8, BufferAllocationProto::TEMP);  // counter @0, pred @4
  int out = b.Allocation(256, BufferAllocationProto::OUTPUT);
  *b.Thunk("zero")->mutable_memset()->mutable_destination() = Builder::Slice(out, 0, 256);
  ThunkProto* init = b.Thunk("init");
  *init->mutable_copy()->mutable_source() = Builder::Slice(n, 0, 4);
  *init->mutable_copy()->mutable_destination() = Builder::Slice(state, 0, 4);
  ThunkProto* loop = b.Thunk("loop");
  WhileThunkProto* w = loop->mutable_while_loop();
  *w->mutable_predicate() = Builder::Slice(state, 4, 1);
  *w->mutable_condition()->add_thunks() =
      KernelThunk("countdown", *countdown,
                  {Builder::Slice(state, 0, 4), Builder::Slice(state, 4, 1)}, 1, 1, {true, true});
  *w->mutable_body()->add_thunks() = KernelThunk(
      "acc", *add,
      {Builder::Slice(out, 0, 256), Builder::Slice(x, 0, 256), Builder::Slice(out, 0, 256)}, 4, 16,
      {false, false, true});
  b.Result({{Shape(F32, {64}), Builder::Slice(out, 0, 256)}});
  auto executable = Load(b.Build());
  ASSERT_NE(executable, nullptr);
  std::vector<float> xs(64);
  for (int i = 0; i < 64; ++i) xs[i] = static_cast<float>(i);
  for (int32_t count : {0, 1, 3}) {
    std::vector<int32_t> counter = {count};
    auto results = executable->Execute({Bytes(counter), Bytes(xs)});
    ASSERT_TRUE(results.ok()) << results.status();
    std::vector<float> got = As<float>((*results)[0]);
    for (int i = 0; i < 64; ++i) ASSERT_EQ(got[i], count * xs[i]) << count << " " << i;
  }
}

// A loop whose condition always holds (a memset writes pred = 1) runs
// until the execution's deadline or cancellation stops it, between thunks.
TEST(ThunksTest, EndlessWhileLoopStopsAtTheDeadlineOrWhenCancelled) {
  Builder b;
  int x = b.Parameter(Shape(F32, {4}));
  int state = b.Allocation(4, BufferAllocationProto::TEMP);
  int out = b.Allocation(16, BufferAllocationProto::OUTPUT);
  ThunkProto* loop = b.Thunk("forever");
  WhileThunkProto* w = loop->mutable_while_loop();
  *w->mutable_predicate() = Builder::Slice(state, 0, 1);
  ThunkProto* condition = w->mutable_condition()->add_thunks();
  condition->mutable_info()->set_name("true");
  MemsetThunkProto* truth = condition->mutable_memset();
  *truth->mutable_destination() = Builder::Slice(state, 0, 4);
  truth->set_pattern(1);
  w->mutable_body();  // empty: the loop only spins
  ThunkProto* copy = b.Thunk("copy");
  *copy->mutable_copy()->mutable_source() = Builder::Slice(x, 0, 16);
  *copy->mutable_copy()->mutable_destination() = Builder::Slice(out, 0, 16);
  b.Result({{Shape(F32, {4}), Builder::Slice(out, 0, 16)}});
  auto executable = Load(b.Build());
  ASSERT_NE(executable, nullptr);
  std::vector<float> xs = {1, 2, 3, 4};

  ExecuteOptions deadline;
  deadline.deadline = absl::Now() + absl::Milliseconds(50);
  auto timed_out = executable->Execute({Bytes(xs)}, deadline);
  ASSERT_FALSE(timed_out.ok());
  EXPECT_EQ(timed_out.status().code(), absl::StatusCode::kDeadlineExceeded);
  EXPECT_THAT(std::string(timed_out.status().message()),
              HasSubstr("while_loop thunk 'forever': execution passed its deadline"));

  std::atomic<bool> cancelled{false};
  ExecuteOptions cancellable;
  cancellable.cancelled = &cancelled;
  std::thread canceller([&] {
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
    cancelled = true;
  });
  auto stopped = executable->Execute({Bytes(xs)}, cancellable);
  canceller.join();
  ASSERT_FALSE(stopped.ok());
  EXPECT_EQ(stopped.status().code(), absl::StatusCode::kCancelled);

  // An already-passed deadline stops before the first thunk runs.
  ExecuteOptions past;
  past.deadline = absl::Now() - absl::Seconds(1);
  auto before_start = executable->Execute({Bytes(xs)}, past);
  ASSERT_FALSE(before_start.ok());
  EXPECT_THAT(std::string(before_start.status().message()),
              HasSubstr("deadline before while_loop thunk 'forever'"));
}

}  // namespace
}  // namespace aot
