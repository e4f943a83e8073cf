#include "compiler/passes/call_inliner.h"

#include <set>

#include "compiler/hlo/hlo_parser.h"
#include "compiler/verifier/hlo_verifier.h"
#include "gtest/gtest.h"

namespace aot {
namespace {

constexpr char kSharedBranches[] = R"(
HloModule shared

inner_t {
  p = (f32[2]) parameter(0)
  ROOT x = f32[2] get-tuple-element(p), index=0
}

inner_f {
  p = (f32[2]) parameter(0)
  x = f32[2] get-tuple-element(p), index=0
  ROOT n = f32[2] negate(x)
}

outer {
  p = (f32[2]) parameter(0)
  x = f32[2] get-tuple-element(p), index=0
  c = pred[] constant(true)
  t = (f32[2]) tuple(x)
  ROOT r = f32[2] conditional(c, t, t), true_computation=inner_t, false_computation=inner_f
}

ENTRY main {
  x = f32[2] parameter(0)
  i = s32[] parameter(1)
  t = (f32[2]) tuple(x)
  a = f32[2] conditional(i, t, t), branch_computations={outer, outer}
  b = f32[2] conditional(i, t, t), branch_computations={outer, inner_f}
  ROOT r = (f32[2], f32[2]) tuple(a, b)
})";

TEST(FlattenCallGraphTest, EveryControlFlowSiteGetsItsOwnComputation) {
  auto module = ParseHloModule(kSharedBranches);
  ASSERT_TRUE(module.ok()) << module.status();
  auto changed = FlattenCallGraph(module->get());
  ASSERT_TRUE(changed.ok()) << changed.status();
  EXPECT_TRUE(*changed);
  ASSERT_TRUE(VerifyHloModule(**module).ok()) << VerifyHloModule(**module);
  std::set<const HloComputation*> seen;
  int sites = 0;
  for (const HloComputation* c : (*module)->computations()) {
    for (const HloInstruction* i : c->instructions()) {
      if (i->opcode() != HloOpcode::kConditional) continue;
      for (const HloComputation* callee : i->called_computations()) {
        EXPECT_TRUE(seen.insert(callee).second) << callee->name() << " runs at two sites";
        ++sites;
      }
    }
  }
  // main's 4 branch slots, and each of the 3 copies of `outer` holds a
  // conditional of 2 branches.
  EXPECT_EQ(sites, 4 + 3 * 2);
  // A second run finds nothing to copy.
  auto again = FlattenCallGraph(module->get());
  ASSERT_TRUE(again.ok());
  EXPECT_FALSE(*again);
}

TEST(FlattenCallGraphTest, ModulesWithoutSharingAreUnchanged) {
  auto module = ParseHloModule(R"(
HloModule single
t {
  p = (f32[2]) parameter(0)
  ROOT x = f32[2] get-tuple-element(p), index=0
}
f {
  p = (f32[2]) parameter(0)
  x = f32[2] get-tuple-element(p), index=0
  ROOT n = f32[2] negate(x)
}
ENTRY main {
  x = f32[2] parameter(0)
  c = pred[] parameter(1)
  tx = (f32[2]) tuple(x)
  ROOT r = f32[2] conditional(c, tx, tx), true_computation=t, false_computation=f
})");
  ASSERT_TRUE(module.ok()) << module.status();
  const std::string before = (*module)->ToString();
  auto changed = FlattenCallGraph(module->get());
  ASSERT_TRUE(changed.ok());
  EXPECT_FALSE(*changed);
  EXPECT_EQ((*module)->ToString(), before);
}

}  // namespace
}  // namespace aot
