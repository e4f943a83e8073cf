#include "compiler/passes/constant_folding.h"

#include "compiler/passes/test_util.h"
#include "gtest/gtest.h"

namespace aot {
namespace {

using testing_util::ExpectNoChange;
using testing_util::ExpectRewrite;

TEST(ConstantFoldingTest, FoldsChainsOfConstants) {
  ConstantFolding pass;
  ExpectRewrite(pass, R"(
HloModule m
ENTRY %main (x: f32[3]) -> f32[3] {
  %x = f32[3]{0} parameter(0)
  %a = f32[3]{0} constant({1, 2, 3})
  %b = f32[3]{0} constant({0.5, 0.25, -1})
  %s = f32[3]{0} add(%a, %b)
  %e = f32[3]{0} negate(%s)
  ROOT %r = f32[3]{0} multiply(%x, %e)
}
)",
                R"(
HloModule m
ENTRY %main (x: f32[3]) -> f32[3] {
  %x = f32[3]{0} parameter(0)
  %constant.1 = f32[3]{0} constant({-1.5, -2.25, -2})
  ROOT %r = f32[3]{0} multiply(%x, %constant.1)
}
)");
}

TEST(ConstantFoldingTest, FoldsReduceAndConvertBitExactly) {
  ConstantFolding pass;
  ExpectRewrite(pass, R"(
HloModule m
%add (x: f32[], y: f32[]) -> f32[] {
  %x = f32[] parameter(0)
  %y = f32[] parameter(1)
  ROOT %s = f32[] add(%x, %y)
}
ENTRY %main (p: bf16[]) -> bf16[] {
  %p = bf16[] parameter(0)
  %c = f32[4]{0} constant({0.1, 0.2, 0.3, 0.4})
  %z = f32[] constant(0)
  %r = f32[] reduce(%c, %z), dimensions={0}, to_apply=%add
  %cv = bf16[] convert(%r)
  ROOT %m = bf16[] multiply(%p, %cv)
}
)",
                R"(
HloModule m
%add (x: f32[], y: f32[]) -> f32[] {
  %x = f32[] parameter(0)
  %y = f32[] parameter(1)
  ROOT %s = f32[] add(%x, %y)
}
ENTRY %main (p: bf16[]) -> bf16[] {
  %p = bf16[] parameter(0)
  %constant.1 = bf16[] constant(1)
  ROOT %m = bf16[] multiply(%p, %constant.1)
}
)");
}

TEST(ConstantFoldingTest, DoesNotMaterializeBroadcastsOrIotas) {
  ConstantFolding pass;
  ExpectNoChange(pass, R"(
HloModule m
ENTRY %main (x: f32[1000]) -> f32[1000] {
  %x = f32[1000]{0} parameter(0)
  %c = f32[] constant(2)
  %b = f32[1000]{0} broadcast(%c), dimensions={}
  %i = f32[1000]{0} iota(), iota_dimension=0
  %m = f32[1000]{0} multiply(%x, %b)
  ROOT %a = f32[1000]{0} add(%m, %i)
}
)");
}

TEST(ConstantFoldingTest, SkipsLargeResults) {
  ConstantFoldingOptions options;
  options.max_result_elements = 2;
  ConstantFolding pass(options);
  ExpectNoChange(pass, R"(
HloModule m
ENTRY %main (x: f32[3]) -> f32[3] {
  %x = f32[3]{0} parameter(0)
  %a = f32[3]{0} constant({1, 2, 3})
  %n = f32[3]{0} negate(%a)
  ROOT %r = f32[3]{0} add(%x, %n)
}
)");
}

TEST(ConstantFoldingTest, SkipsCustomCallsAndElidedConstants) {
  ConstantFolding pass;
  ExpectNoChange(pass, R"(
HloModule m
ENTRY %main () -> (f32[4], f32[4]) {
  %a = f32[4]{0} constant({1, 2, 3, 4})
  %g = f32[4]{0} custom-call(%a), custom_call_target="aot.gelu", api_version=API_VERSION_TYPED_FFI
  %e = f32[4]{0} constant({...})
  %n = f32[4]{0} negate(%e)
  ROOT %t = (f32[4]{0}, f32[4]{0}) tuple(%g, %n)
}
)");
}

}  // namespace
}  // namespace aot
