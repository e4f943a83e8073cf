// The while thunk (kernel thunks as its condition and body) executed on the
// host platform, and its FromProto -> ToProto round trip.
#include <cstdint>
#include <string>
#include <vector>

#include "absl/strings/string_view.h"
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

}  // namespace
}  // namespace aot
