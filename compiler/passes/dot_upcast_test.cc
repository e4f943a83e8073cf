#include "compiler/passes/dot_upcast.h"

#include "compiler/passes/test_util.h"
#include "gtest/gtest.h"

namespace aot {
namespace {

using testing_util::ExpectNoChange;
using testing_util::Parse;

// 64 * 64 * 32 = 128K multiply-adds: upcast. The f32 dot is then bitwise
// the elemental one only up to summation order, so this checks the form
// (ExpectRewrite's bitwise check does not apply); compiler tests compare
// the compiled results with the interpreter.
TEST(DotUpcastTest, LargeBf16DotBecomesAnF32DotBetweenConverts) {
  std::unique_ptr<HloModule> m = Parse(R"(
HloModule m
ENTRY %main (a: bf16[64,32], b: bf16[32,64]) -> bf16[64,64] {
  %a = bf16[64,32]{1,0} parameter(0)
  %b = bf16[32,64]{1,0} parameter(1)
  ROOT %d = bf16[64,64]{1,0} dot(%a, %b), lhs_contracting_dims={1}, rhs_contracting_dims={0}
}
)");
  ASSERT_NE(m, nullptr);
  DotUpcast pass;
  auto changed = pass.Run(m.get());
  ASSERT_TRUE(changed.ok()) << changed.status();
  EXPECT_TRUE(*changed);
  EXPECT_EQ(m->entry_computation()->ToString(),
            R"(%main (a: bf16[64,32]{1,0}, b: bf16[32,64]{1,0}) -> bf16[64,64]{1,0} {
  %a = bf16[64,32]{1,0} parameter(0)
  %b = bf16[32,64]{1,0} parameter(1)
  %d.f32_0 = f32[64,32]{1,0} convert(%a)
  %d.f32_1 = f32[32,64]{1,0} convert(%b)
  %d.f32 = f32[64,64]{1,0} dot(%d.f32_0, %d.f32_1), lhs_contracting_dims={1}, rhs_contracting_dims={0}
  ROOT %d.narrow = bf16[64,64]{1,0} convert(%d.f32)
}
)");
}

TEST(DotUpcastTest, SmallF32AndIntegerDotsAreLeftAlone) {
  DotUpcast pass;
  ExpectNoChange(pass, R"(
HloModule m
ENTRY %main (a: bf16[16,32], b: bf16[32,8], c: f32[64,64], e: s8[64,64]) -> (f32[16,8], f32[64,64], s32[64,64]) {
  %a = bf16[16,32]{1,0} parameter(0)
  %b = bf16[32,8]{1,0} parameter(1)
  %c = f32[64,64]{1,0} parameter(2)
  %e = s8[64,64]{1,0} parameter(3)
  %small = f32[16,8]{1,0} dot(%a, %b), lhs_contracting_dims={1}, rhs_contracting_dims={0}
  %wide = f32[64,64]{1,0} dot(%c, %c), lhs_contracting_dims={1}, rhs_contracting_dims={0}
  %int = s32[64,64]{1,0} dot(%e, %e), lhs_contracting_dims={1}, rhs_contracting_dims={0}
  ROOT %t = (f32[16,8]{1,0}, f32[64,64]{1,0}, s32[64,64]{1,0}) tuple(%small, %wide, %int)
}
)");
}

}  // namespace
}  // namespace aot
