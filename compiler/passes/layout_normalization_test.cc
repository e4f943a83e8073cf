#include "compiler/passes/layout_normalization.h"

#include <set>
#include <vector>

#include "compiler/passes/test_util.h"
#include "gtest/gtest.h"

namespace aot {
namespace {

using testing_util::ExpectNoChange;
using testing_util::ExpectRewrite;

// Every instruction except the entry parameters ends up with the default
// layout; `true` if so.
bool AllDefaultExceptEntryBoundary(const HloModule& module) {
  // The result's tuples of boundary copies (nested ones too) have the
  // result's layouts.
  std::set<const HloInstruction*> boundary_tuples;
  std::vector<const HloInstruction*> pending = {module.entry_computation()->root_instruction()};
  while (!pending.empty()) {
    const HloInstruction* h = pending.back();
    pending.pop_back();
    if (h->opcode() != HloOpcode::kTuple || !boundary_tuples.insert(h).second) continue;
    for (const HloInstruction* op : h->operands()) pending.push_back(op);
  }
  for (const HloComputation* c : module.computations()) {
    for (const HloInstruction* h : c->instructions()) {
      const bool entry_parameter =
          c == module.entry_computation() && h->opcode() == HloOpcode::kParameter;
      const bool boundary_copy = c == module.entry_computation() && h->opcode() == HloOpcode::kCopy;
      const bool boundary_tuple = boundary_tuples.count(h) > 0;
      // A tuple parameter's elements read before their copies.
      const HloInstruction* source = h;
      while (source->opcode() == HloOpcode::kGetTupleElement) source = source->operand(0);
      const bool parameter_element = c == module.entry_computation() && source != h &&
                                     source->opcode() == HloOpcode::kParameter;
      if (entry_parameter || boundary_copy || boundary_tuple || parameter_element) continue;
      if (!HasDefaultLayoutEverywhere(h->shape())) return false;
    }
  }
  return true;
}

TEST(LayoutNormalizationTest, ParameterCopyAndDefaultLayouts) {
  LayoutNormalization pass;
  ExpectRewrite(pass, R"(
HloModule m
ENTRY %main (x: f32[3,5]) -> f32[3,5] {
  %x = f32[3,5]{0,1} parameter(0)
  %iota = f32[3,5]{0,1} iota(), iota_dimension=1
  %mul = f32[3,5]{0,1} multiply(%x, %iota)
  %copy = f32[3,5]{1,0} copy(%mul)
  ROOT %neg = f32[3,5]{1,0} negate(%copy)
}
)",
                R"(
HloModule m, entry_computation_layout={(f32[3,5]{0,1})->f32[3,5]{1,0}}
ENTRY %main (x: f32[3,5]) -> f32[3,5] {
  %x = f32[3,5]{0,1} parameter(0)
  %iota = f32[3,5]{1,0} iota(), iota_dimension=1
  %x.copy = f32[3,5]{1,0} copy(%x)
  %mul = f32[3,5]{1,0} multiply(%x.copy, %iota)
  %copy = f32[3,5]{1,0} copy(%mul)
  ROOT %neg = f32[3,5]{1,0} negate(%copy)
}
)");
}

TEST(LayoutNormalizationTest, RootWithNonDefaultLayoutGetsFinalCopy) {
  LayoutNormalization pass;
  ExpectRewrite(pass, R"(
HloModule m
ENTRY %main (a: f32[2,3]) -> f32[2,3] {
  %a = f32[2,3]{1,0} parameter(0)
  %c = f32[2,3]{0,1} constant({ {1, 2, 3}, {4, 5, 6} })
  ROOT %n = f32[2,3]{0,1} add(%a, %c)
}
)",
                R"(
HloModule m, entry_computation_layout={(f32[2,3]{1,0})->f32[2,3]{0,1}}
ENTRY %main (a: f32[2,3]) -> f32[2,3] {
  %a = f32[2,3]{1,0} parameter(0)
  %c = f32[2,3]{1,0} constant({ {1, 2, 3}, {4, 5, 6} })
  %n = f32[2,3]{1,0} add(%a, %c)
  ROOT %n.copy = f32[2,3]{0,1} copy(%n)
}
)");
}

// The header's entry_computation_layout is the ABI: it wins over the
// parameter instruction's own layout.
TEST(LayoutNormalizationTest, EntryComputationLayoutIsTheAbi) {
  LayoutNormalization pass;
  ExpectRewrite(pass, R"(
HloModule m, entry_computation_layout={(f32[2,3]{0,1})->f32[2,3]{0,1}}
ENTRY %main (a: f32[2,3]) -> f32[2,3] {
  %a = f32[2,3]{1,0} parameter(0)
  ROOT %n = f32[2,3]{1,0} negate(%a)
}
)",
                R"(
HloModule m, entry_computation_layout={(f32[2,3]{0,1})->f32[2,3]{0,1}}
ENTRY %main (a: f32[2,3]) -> f32[2,3] {
  %a = f32[2,3]{0,1} parameter(0)
  %a.copy = f32[2,3]{1,0} copy(%a)
  %n = f32[2,3]{1,0} negate(%a.copy)
  ROOT %n.copy = f32[2,3]{0,1} copy(%n)
}
)");
}

TEST(LayoutNormalizationTest, TupleParameterAndResult) {
  LayoutNormalization pass;
  ExpectRewrite(pass, R"(
HloModule m
ENTRY %main (p: (f32[2,3], s32[4])) -> (f32[2,3], s32[4]) {
  %p = (f32[2,3]{0,1}, s32[4]{0}) parameter(0)
  %a = f32[2,3]{0,1} get-tuple-element(%p), index=0
  %b = s32[4]{0} get-tuple-element(%p), index=1
  %n = f32[2,3]{0,1} negate(%a)
  ROOT %t = (f32[2,3]{0,1}, s32[4]{0}) tuple(%n, %b)
}
)",
                R"(
HloModule m, entry_computation_layout={((f32[2,3]{0,1}, s32[4]{0}))->(f32[2,3]{0,1}, s32[4]{0})}
ENTRY %main (p: (f32[2,3], s32[4])) -> (f32[2,3], s32[4]) {
  %p = (f32[2,3]{0,1}, s32[4]{0}) parameter(0)
  %p.element0 = f32[2,3]{0,1} get-tuple-element(%p), index=0
  %p.0.copy = f32[2,3]{1,0} copy(%p.element0)
  %p.element1 = s32[4]{0} get-tuple-element(%p), index=1
  %p.tuple = (f32[2,3]{1,0}, s32[4]{0}) tuple(%p.0.copy, %p.element1)
  %a = f32[2,3]{1,0} get-tuple-element(%p.tuple), index=0
  %b = s32[4]{0} get-tuple-element(%p.tuple), index=1
  %n = f32[2,3]{1,0} negate(%a)
  %t = (f32[2,3]{1,0}, s32[4]{0}) tuple(%n, %b)
  %t.element0 = f32[2,3]{1,0} get-tuple-element(%t), index=0
  %t.0.copy = f32[2,3]{0,1} copy(%t.element0)
  %t.element1 = s32[4]{0} get-tuple-element(%t), index=1
  ROOT %t.tuple = (f32[2,3]{0,1}, s32[4]{0}) tuple(%t.0.copy, %t.element1)
}
)");
}

constexpr char kWhileWithLayouts[] = R"(
HloModule m
%body (s: (s32[], f32[2,2])) -> (s32[], f32[2,2]) {
  %s = (s32[], f32[2,2]{0,1}) parameter(0)
  %i = s32[] get-tuple-element(%s), index=0
  %v = f32[2,2]{0,1} get-tuple-element(%s), index=1
  %one = s32[] constant(1)
  %next = s32[] add(%i, %one)
  %t = f32[2,2]{0,1} transpose(%v), dimensions={1,0}
  ROOT %r = (s32[], f32[2,2]{0,1}) tuple(%next, %t)
}
%cond (s: (s32[], f32[2,2])) -> pred[] {
  %s = (s32[], f32[2,2]{0,1}) parameter(0)
  %i = s32[] get-tuple-element(%s), index=0
  %n = s32[] constant(3)
  ROOT %lt = pred[] compare(%i, %n), direction=LT
}
ENTRY %main (x: f32[2,2]) -> f32[2,2] {
  %x = f32[2,2]{1,0} parameter(0)
  %zero = s32[] constant(0)
  %init = (s32[], f32[2,2]{0,1}) tuple(%zero, %x)
  %w = (s32[], f32[2,2]{0,1}) while(%init), condition=%cond, body=%body
  ROOT %out = f32[2,2]{1,0} get-tuple-element(%w), index=1
}
)";

TEST(LayoutNormalizationTest, NestedComputationsGetDefaultLayouts) {
  LayoutNormalization pass;
  bool changed = false;
  auto m = testing_util::RunPass(pass, kWhileWithLayouts, &changed);
  ASSERT_NE(m, nullptr);
  EXPECT_TRUE(changed);
  testing_util::ExpectWellFormed(*m);
  EXPECT_TRUE(AllDefaultExceptEntryBoundary(*m)) << m->ToString();
  // No copies needed: the entry boundary was default already.
  EXPECT_EQ(testing_util::CountOpcode(*m->entry_computation(), HloOpcode::kCopy), 0);
  // The while loop still computes the same.
  auto original = testing_util::Parse(kWhileWithLayouts);
  ASSERT_NE(original, nullptr);
  testing_util::ExpectSameResults(*original, *m);
}

TEST(LayoutNormalizationTest, AlreadyNormalIsUnchanged) {
  LayoutNormalization pass;
  ExpectNoChange(pass, R"(
HloModule m, entry_computation_layout={(f32[2,3]{1,0})->f32[3,2]{1,0}}
ENTRY %main (a: f32[2,3]) -> f32[3,2] {
  %a = f32[2,3]{1,0} parameter(0)
  ROOT %t = f32[3,2]{1,0} transpose(%a), dimensions={1,0}
}
)");
}

TEST(LayoutNormalizationTest, CorpusInvariant) {
  for (const std::string& path : testing_util::CorpusFiles()) {
    SCOPED_TRACE(path);
    auto original = testing_util::ParseFile(path);
    ASSERT_NE(original, nullptr);
    auto m = testing_util::ParseStaticFile(path);
    LayoutNormalization pass;
    absl::StatusOr<bool> changed = pass.Run(m.get());
    ASSERT_TRUE(changed.ok()) << changed.status();
    testing_util::ExpectWellFormed(*m);
    EXPECT_TRUE(AllDefaultExceptEntryBoundary(*m)) << m->ToString();
    // The ABI is unchanged.
    EXPECT_EQ(m->EntryProgramShape().ToString(), original->EntryProgramShape().ToString());
    testing_util::ExpectSameResults(*original, *m);
  }
}

}  // namespace
}  // namespace aot
