// The conditional thunk (with copy and memset thunks as its branches)
// executed on the host platform, and its FromProto -> ToProto round trip.
#include <cstdint>
#include <vector>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "runtime/testing/executable_builder.h"

namespace aot {
namespace {

using ::aot::testing::As;
using ::aot::testing::Builder;
using ::aot::testing::Bytes;
using ::aot::testing::Load;
using ::aot::testing::Shape;
using ::testing::ElementsAre;

TEST(ThunksTest, CopyMemsetAndConditional) {
  Builder b;
  int index = b.Parameter(Shape(S32, {}));
  int x = b.Parameter(Shape(S32, {4}));
  int out = b.Allocation(16, BufferAllocationProto::OUTPUT);
  // branch 0: copy x; branch 1: fill with 7; out of range -> last (branch 1).
  ConditionalThunkProto* c = b.Thunk("cond")->mutable_conditional();
  *c->mutable_branch_index() = Builder::Slice(index, 0, 4);
  ThunkProto* copy = c->add_branches()->add_thunks();
  copy->mutable_info()->set_name("copy");
  *copy->mutable_copy()->mutable_source() = Builder::Slice(x, 0, 16);
  *copy->mutable_copy()->mutable_destination() = Builder::Slice(out, 0, 16);
  ThunkProto* fill = c->add_branches()->add_thunks();
  fill->mutable_info()->set_name("fill");
  *fill->mutable_memset()->mutable_destination() = Builder::Slice(out, 0, 16);
  fill->mutable_memset()->set_pattern(7);
  b.Result({{Shape(S32, {4}), Builder::Slice(out, 0, 16)}});
  auto executable = Load(b.Build());
  ASSERT_NE(executable, nullptr);
  std::vector<int32_t> values = {10, 20, 30, 40};
  for (int32_t i : {0, 1, 5, -1}) {
    std::vector<int32_t> selector = {i};
    auto results = executable->Execute({Bytes(selector), Bytes(values)});
    ASSERT_TRUE(results.ok()) << results.status();
    if (i == 0) {
      EXPECT_THAT(As<int32_t>((*results)[0]), ElementsAre(10, 20, 30, 40));
    } else {
      EXPECT_THAT(As<int32_t>((*results)[0]), ElementsAre(7, 7, 7, 7)) << i;
    }
  }
}

}  // namespace
}  // namespace aot
