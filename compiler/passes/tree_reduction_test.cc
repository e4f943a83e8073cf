#include "compiler/passes/tree_reduction.h"

#include "compiler/passes/test_util.h"
#include "gtest/gtest.h"

namespace aot {
namespace {

using testing_util::ExpectNoChange;
using testing_util::ExpectRewrite;

TEST(TreeReductionTest, FullReductionOfALargeOperandBecomesTwoStages) {
  TreeReduction pass;
  // 256 * 1024 = 2^18 elements: 256 rows of 1024 (the most rows with rows
  // of at least 1024). Integer addition, so the two-stage sum is bitwise
  // the serial one (ExpectRewrite checks); float sums differ by rounding
  // (differential_test compares them with the interpreter).
  ExpectRewrite(pass, R"(
HloModule m
%add (a: s32[], b: s32[]) -> s32[] {
  %a = s32[] parameter(0)
  %b = s32[] parameter(1)
  ROOT %s = s32[] add(%a, %b)
}
ENTRY %main (x: s32[64,4096]) -> s32[] {
  %x = s32[64,4096]{1,0} parameter(0)
  %z = s32[] constant(0)
  ROOT %r = s32[] reduce(%x, %z), dimensions={0,1}, to_apply=%add
}
)",
                R"(
HloModule m
%add (a: s32[], b: s32[]) -> s32[] {
  %a = s32[] parameter(0)
  %b = s32[] parameter(1)
  ROOT %s = s32[] add(%a, %b)
}
ENTRY %main (x: s32[64,4096]) -> s32[] {
  %x = s32[64,4096]{1,0} parameter(0)
  %z = s32[] constant(0)
  %r.rows = s32[256,1024]{1,0} reshape(%x)
  %r.partial = s32[256]{0} reduce(%r.rows, %z), dimensions={1}, to_apply=%add
  ROOT %r.total = s32[] reduce(%r.partial, %z), dimensions={0}, to_apply=%add
}
)");
}

TEST(TreeReductionTest, SmallPartialAndVariadicReductionsAreLeftAlone) {
  TreeReduction pass;
  ExpectNoChange(pass, R"(
HloModule m
%add (a: f32[], b: f32[]) -> f32[] {
  %a = f32[] parameter(0)
  %b = f32[] parameter(1)
  ROOT %s = f32[] add(%a, %b)
}
%argmax (a: f32[], i: s32[], b: f32[], j: s32[]) -> (f32[], s32[]) {
  %a = f32[] parameter(0)
  %i = s32[] parameter(1)
  %b = f32[] parameter(2)
  %j = s32[] parameter(3)
  %gt = pred[] compare(%a, %b), direction=GT
  %v = f32[] select(%gt, %a, %b)
  %k = s32[] select(%gt, %i, %j)
  ROOT %t = (f32[], s32[]) tuple(%v, %k)
}
ENTRY %main (x: f32[64,4096], y: f32[100], w: s32[64,4096]) -> (f32[], f32[64], f32[], (f32[], s32[])) {
  %x = f32[64,4096]{1,0} parameter(0)
  %y = f32[100]{0} parameter(1)
  %w = s32[64,4096]{1,0} parameter(2)
  %z = f32[] constant(0)
  %iz = s32[] constant(0)
  %small = f32[] reduce(%y, %z), dimensions={0}, to_apply=%add
  %rows = f32[64]{0} reduce(%x, %z), dimensions={1}, to_apply=%add
  %prime = f32[] reduce(%y, %z), dimensions={0}, to_apply=%add
  %pair = (f32[], s32[]) reduce(%x, %w, %z, %iz), dimensions={0,1}, to_apply=%argmax
  ROOT %t = (f32[], f32[64], f32[], (f32[], s32[])) tuple(%small, %rows, %prime, %pair)
}
)");
}

}  // namespace
}  // namespace aot
