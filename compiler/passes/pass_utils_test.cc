#include "compiler/passes/pass_utils.h"

#include "compiler/passes/test_util.h"
#include "gtest/gtest.h"

namespace aot {
namespace {

TEST(PassUtilsTest, EnsureDefinitionOrderMovesLateDefinitions) {
  auto m = testing_util::Parse(R"(
HloModule m
ENTRY %main (a: f32[2]) -> f32[2] {
  %a = f32[2]{0} parameter(0)
  %n = f32[2]{0} negate(%a)
  ROOT %e = f32[2]{0} exponential(%n)
}
)");
  ASSERT_NE(m, nullptr);
  HloComputation* entry = m->entry_computation();
  HloInstruction* n = entry->FindInstruction("n");
  // A new instruction appended at the end takes over %n's uses.
  auto abs = HloInstruction::Create(HloOpcode::kAbs, n->shape(), {n});
  abs->set_name("abs");
  HloInstruction* added = AddWithNewId(entry, std::move(abs));
  entry->FindInstruction("e")->ReplaceOperandWith(0, added);
  EXPECT_FALSE(IsInDefinitionOrder(*entry));
  absl::StatusOr<bool> moved = EnsureDefinitionOrder(entry);
  ASSERT_TRUE(moved.ok()) << moved.status();
  EXPECT_TRUE(*moved);
  EXPECT_TRUE(IsInDefinitionOrder(*entry));
  EXPECT_EQ(m->ToString(), testing_util::Canonical(R"(
HloModule m, entry_computation_layout={(f32[2]{0})->f32[2]{0}}
ENTRY %main (a: f32[2]) -> f32[2] {
  %a = f32[2]{0} parameter(0)
  %n = f32[2]{0} negate(%a)
  %abs = f32[2]{0} abs(%n)
  ROOT %e = f32[2]{0} exponential(%abs)
}
)"));
  // Already in order: nothing moves.
  moved = EnsureDefinitionOrder(entry);
  ASSERT_TRUE(moved.ok());
  EXPECT_FALSE(*moved);
}

TEST(PassUtilsTest, NameUniquer) {
  NameUniquer names;
  names.Add("fusion");
  EXPECT_EQ(names.GetUniqueName("add"), "add");
  EXPECT_EQ(names.GetUniqueName("add"), "add.1");
  EXPECT_EQ(names.GetUniqueName("fusion"), "fusion.1");
  EXPECT_TRUE(names.Contains("fusion.1"));
}

TEST(PassUtilsTest, Layouts) {
  Shape s(F32, {2, 3});
  s.set_minor_to_major({0, 1});
  Shape t = Shape::Tuple({s, Shape(S32, {4})});
  EXPECT_FALSE(HasDefaultLayoutEverywhere(t));
  Shape d = WithDefaultLayout(t);
  EXPECT_TRUE(HasDefaultLayoutEverywhere(d));
  EXPECT_EQ(d.ToString(), "(f32[2,3]{1,0}, s32[4]{0})");
  EXPECT_FALSE(SameShapeAndLayout(t, d));
  EXPECT_TRUE(SameShapeAndLayout(d, WithDefaultLayout(d)));
}

TEST(PassUtilsTest, EmbeddedComputations) {
  auto m = testing_util::ParseFile("golden/modules/control_flow/while_loop.hlo");
  ASSERT_NE(m, nullptr);
  auto embedded = EmbeddedComputations(*m);
  EXPECT_TRUE(embedded.empty());
  auto m2 = testing_util::ParseFile("golden/modules/normalization/softmax.hlo");
  ASSERT_NE(m2, nullptr);
  embedded = EmbeddedComputations(*m2);
  EXPECT_TRUE(embedded.contains(m2->FindComputation("max")));
  EXPECT_TRUE(embedded.contains(m2->FindComputation("add")));
  EXPECT_FALSE(embedded.contains(m2->entry_computation()));
}

}  // namespace
}  // namespace aot
