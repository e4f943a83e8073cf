#include "compiler/passes/hlo_cse.h"

#include "compiler/passes/test_util.h"
#include "gtest/gtest.h"

namespace aot {
namespace {

using testing_util::ExpectNoChange;
using testing_util::ExpectRewrite;

TEST(HloCseTest, MergesIdenticalInstructions) {
  HloCse pass;
  ExpectRewrite(pass, R"(
HloModule m
ENTRY %main (a: f32[4], b: f32[4]) -> f32[4] {
  %a = f32[4]{0} parameter(0)
  %b = f32[4]{0} parameter(1)
  %x = f32[4]{0} add(%a, %b)
  %y = f32[4]{0} add(%a, %b)
  %ex = f32[4]{0} exponential(%x)
  %ey = f32[4]{0} exponential(%y), metadata={op_name="other"}
  ROOT %m = f32[4]{0} multiply(%ex, %ey)
}
)",
                R"(
HloModule m
ENTRY %main (a: f32[4], b: f32[4]) -> f32[4] {
  %a = f32[4]{0} parameter(0)
  %b = f32[4]{0} parameter(1)
  %x = f32[4]{0} add(%a, %b)
  %ex = f32[4]{0} exponential(%x)
  ROOT %m = f32[4]{0} multiply(%ex, %ex)
}
)");
}

TEST(HloCseTest, ConstantsEqualByValue) {
  HloCse pass;
  ExpectRewrite(pass, R"(
HloModule m
ENTRY %main (a: f32[2]) -> (f32[2], f32[2], f32[2]) {
  %a = f32[2]{0} parameter(0)
  %c1 = f32[2]{0} constant({1, 2})
  %c2 = f32[2]{0} constant({1, 2})
  %c3 = f32[2]{0} constant({1, 3})
  %x = f32[2]{0} add(%a, %c1)
  %y = f32[2]{0} add(%a, %c2)
  %z = f32[2]{0} add(%a, %c3)
  ROOT %t = (f32[2]{0}, f32[2]{0}, f32[2]{0}) tuple(%x, %y, %z)
}
)",
                R"(
HloModule m
ENTRY %main (a: f32[2]) -> (f32[2], f32[2], f32[2]) {
  %a = f32[2]{0} parameter(0)
  %c1 = f32[2]{0} constant({1, 2})
  %c3 = f32[2]{0} constant({1, 3})
  %x = f32[2]{0} add(%a, %c1)
  %z = f32[2]{0} add(%a, %c3)
  ROOT %t = (f32[2]{0}, f32[2]{0}, f32[2]{0}) tuple(%x, %x, %z)
}
)");
}

TEST(HloCseTest, DoesNotMergeDifferentAttributesShapesOrZeros) {
  HloCse pass;
  ExpectNoChange(pass, R"(
HloModule m
ENTRY %main (a: f32[2,3], b: f32[3]) -> (f32[2,3], f32[2,3], f32[3,2], f32[3,2], f32[], f32[], pred[3], pred[3]) {
  %a = f32[2,3]{1,0} parameter(0)
  %b = f32[3]{0} parameter(1)
  %c1 = f32[2,3]{1,0} copy(%a)
  %c2 = f32[2,3]{0,1} copy(%a)
  %t1 = f32[3,2]{1,0} transpose(%a), dimensions={1,0}
  %r1 = f32[3,2]{1,0} reshape(%a)
  %z = f32[] constant(0)
  %nz = f32[] constant(-0)
  %lt = pred[3]{0} compare(%b, %b), direction=LT
  %gt = pred[3]{0} compare(%b, %b), direction=GT
  ROOT %t = (f32[2,3]{1,0}, f32[2,3]{0,1}, f32[3,2]{1,0}, f32[3,2]{1,0}, f32[], f32[], pred[3]{0}, pred[3]{0}) tuple(%c1, %c2, %t1, %r1, %z, %nz, %lt, %gt)
}
)");
}

TEST(HloCseTest, ParametersAndCustomCallsAreNotMerged) {
  HloCse pass;
  ExpectNoChange(pass, R"(
HloModule m
ENTRY %main (a: f32[2], b: f32[2]) -> (f32[2], f32[2]) {
  %a = f32[2]{0} parameter(0)
  %b = f32[2]{0} parameter(1)
  %c1 = f32[2]{0} custom-call(%a), custom_call_target="aot.gelu"
  %c2 = f32[2]{0} custom-call(%a), custom_call_target="aot.gelu"
  %x = f32[2]{0} add(%a, %c1)
  %y = f32[2]{0} add(%b, %c2)
  ROOT %t = (f32[2]{0}, f32[2]{0}) tuple(%x, %y)
}
)");
}

TEST(HloCseTest, CalledComputationsByIdentity) {
  HloCse pass;
  ExpectRewrite(pass, R"(
HloModule m
%add (x: f32[], y: f32[]) -> f32[] {
  %x = f32[] parameter(0)
  %y = f32[] parameter(1)
  ROOT %s = f32[] add(%x, %y)
}
%add2 (x: f32[], y: f32[]) -> f32[] {
  %x = f32[] parameter(0)
  %y = f32[] parameter(1)
  ROOT %s = f32[] add(%x, %y)
}
ENTRY %main (a: f32[4]) -> (f32[], f32[], f32[]) {
  %a = f32[4]{0} parameter(0)
  %z = f32[] constant(0)
  %r1 = f32[] reduce(%a, %z), dimensions={0}, to_apply=%add
  %r2 = f32[] reduce(%a, %z), dimensions={0}, to_apply=%add
  %r3 = f32[] reduce(%a, %z), dimensions={0}, to_apply=%add2
  ROOT %t = (f32[], f32[], f32[]) tuple(%r1, %r2, %r3)
}
)",
                R"(
HloModule m
%add (x: f32[], y: f32[]) -> f32[] {
  %x = f32[] parameter(0)
  %y = f32[] parameter(1)
  ROOT %s = f32[] add(%x, %y)
}
%add2 (x: f32[], y: f32[]) -> f32[] {
  %x = f32[] parameter(0)
  %y = f32[] parameter(1)
  ROOT %s = f32[] add(%x, %y)
}
ENTRY %main (a: f32[4]) -> (f32[], f32[], f32[]) {
  %a = f32[4]{0} parameter(0)
  %z = f32[] constant(0)
  %r1 = f32[] reduce(%a, %z), dimensions={0}, to_apply=%add
  %r3 = f32[] reduce(%a, %z), dimensions={0}, to_apply=%add2
  ROOT %t = (f32[], f32[], f32[]) tuple(%r1, %r1, %r3)
}
)");
}

}  // namespace
}  // namespace aot
