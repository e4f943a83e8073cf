// The passes leave collectives, replica-id and partition-id alone: their
// values depend on the other participants (or on who runs them).

#include <memory>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "compiler/hlo/collective_ops.h"
#include "compiler/interpreter/replicated_evaluator.h"
#include "compiler/passes/algebraic_simplifier.h"
#include "compiler/passes/constant_folding.h"
#include "compiler/passes/fusion.h"
#include "compiler/passes/hlo_cse.h"
#include "compiler/passes/hlo_dce.h"
#include "compiler/passes/test_util.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace aot {
namespace {

using ::testing::HasSubstr;
using testing_util::CountOpcode;
using testing_util::ExpectNoChange;
using testing_util::ExpectWellFormed;
using testing_util::Parse;
using testing_util::RunPass;

constexpr char kSum[] = R"(
sum {
  a = f32[] parameter(0)
  b = f32[] parameter(1)
  ROOT r = f32[] add(a, b)
}
)";

std::string Replicated(absl::string_view body) {
  return absl::StrCat("HloModule m, replica_count=2\n", kSum, "\nENTRY main {\n", body, "\n}\n");
}

TEST(CollectivePassesTest, ConstantFoldingNeverFoldsCollectivesOrIds) {
  ConstantFolding pass;
  ExpectNoChange(pass, Replicated(R"(
  c = f32[2] constant({1, 2})
  ar = f32[2] all-reduce(c), replica_groups={}, to_apply=sum
  ag = f32[4] all-gather(c), replica_groups={}, dimensions={0}
  cp = f32[2] collective-permute(c), source_target_pairs={{0,1}}
  rid = u32[] replica-id()
  pid = u32[] partition-id()
  ROOT t = (f32[2], f32[4], f32[2], u32[], u32[]) tuple(ar, ag, cp, rid, pid))"));
}

TEST(CollectivePassesTest, CseNeverMergesCollectives) {
  HloCse pass;
  bool changed = true;
  std::unique_ptr<HloModule> m = RunPass(pass, Replicated(R"(
  p = f32[2] parameter(0)
  a = f32[2] all-reduce(p), replica_groups={}, to_apply=sum
  b = f32[2] all-reduce(p), replica_groups={}, to_apply=sum
  ROOT t = (f32[2], f32[2]) tuple(a, b))"),
                                         &changed);
  ASSERT_NE(m, nullptr);
  EXPECT_FALSE(changed);
  EXPECT_EQ(CountOpcode(*m->entry_computation(), HloOpcode::kAllReduce), 2);
}

TEST(CollectivePassesTest, DceKeepsUnusedCollectives) {
  HloDce pass;
  bool changed = false;
  std::unique_ptr<HloModule> m = RunPass(pass, Replicated(R"(
  p = f32[2] parameter(0)
  unused = f32[2] all-reduce(p), replica_groups={}, to_apply=sum
  dead = f32[2] negate(p)
  ROOT n = f32[2] negate(p))"),
                                         &changed);
  ASSERT_NE(m, nullptr);
  EXPECT_TRUE(changed);  // `dead` went
  EXPECT_EQ(m->entry_computation()->FindInstruction("dead"), nullptr);
  EXPECT_NE(m->entry_computation()->FindInstruction("unused"), nullptr);
  ExpectWellFormed(*m);
}

TEST(CollectivePassesTest, AlgebraicSimplifierLeavesCollectivesAlone) {
  AlgebraicSimplifier pass;
  bool changed = false;
  std::unique_ptr<HloModule> m = RunPass(pass, Replicated(R"(
  p = f32[2] parameter(0)
  one = f32[] constant(1)
  ones = f32[2] broadcast(one), dimensions={}
  x = f32[2] multiply(p, ones)
  ar = f32[2] all-reduce(x), replica_groups={}, to_apply=sum
  ag = f32[2] all-gather(ar), replica_groups={{0},{1}}, dimensions={0}
  ROOT cb = f32[2] collective-broadcast(ag), replica_groups={})"),
                                         &changed);
  ASSERT_NE(m, nullptr);
  EXPECT_TRUE(changed);  // x * 1
  ExpectWellFormed(*m);
  const std::string printed = m->ToString();
  EXPECT_THAT(printed, HasSubstr("all-reduce(%p), replica_groups={}, to_apply=%sum"));
  EXPECT_THAT(printed, HasSubstr("all-gather(%ar), replica_groups={{0},{1}}, dimensions={0}"));
  EXPECT_THAT(printed, HasSubstr("collective-broadcast(%ag), replica_groups={}"));
}

TEST(CollectivePassesTest, FusionNeverFusesCollectivesOrIds) {
  InstructionFusion pass;
  bool changed = false;
  std::unique_ptr<HloModule> m = RunPass(pass, Replicated(R"(
  p = f32[4] parameter(0)
  rid = u32[] replica-id()
  r = f32[] convert(rid)
  rb = f32[4] broadcast(r), dimensions={}
  x = f32[4] multiply(p, rb)
  e = f32[4] exponential(x)
  ar = f32[4] all-reduce(e), replica_groups={}, to_apply=sum
  n = f32[4] negate(ar)
  ROOT a = f32[4] add(n, p))"),
                                         &changed);
  ASSERT_NE(m, nullptr);
  EXPECT_TRUE(changed);
  ExpectWellFormed(*m);
  for (const HloComputation* c : m->computations()) {
    if (!c->is_fusion_computation()) continue;
    for (const HloInstruction* i : c->instructions()) {
      EXPECT_FALSE(IsCollectiveOpcode(i->opcode())) << c->name() << ": " << i->name();
      EXPECT_NE(i->opcode(), HloOpcode::kReplicaId) << c->name() << ": " << i->name();
    }
  }
  EXPECT_EQ(CountOpcode(*m->entry_computation(), HloOpcode::kAllReduce), 1);
  EXPECT_EQ(CountOpcode(*m->entry_computation(), HloOpcode::kReplicaId), 1);
}

TEST(CollectivePassesTest, DefaultPipelineKeepsWhatTheReplicasCompute) {
  const std::string text = Replicated(R"(
  p = f32[4] parameter(0)
  c = f32[4] constant({1, 2, 3, 4})
  rid = u32[] replica-id()
  r = f32[] convert(rid)
  rb = f32[4] broadcast(r), dimensions={}
  x = f32[4] add(p, rb)
  s = f32[4] all-reduce-start(x), replica_groups={}, to_apply=sum
  d = f32[4] all-reduce-done(s)
  e = f32[4] multiply(d, c)
  ar2 = f32[4] all-reduce(c), replica_groups={}, to_apply=sum
  ROOT t = (f32[4], f32[4]) tuple(e, ar2))");
  std::unique_ptr<HloModule> original = Parse(text);
  std::unique_ptr<HloModule> m = Parse(text);
  ASSERT_NE(m, nullptr);
  HloPassPipeline pipeline = DefaultPipeline();
  pipeline.set_verifier([](const HloModule& module) { return VerifyHloModule(module); });
  absl::StatusOr<bool> changed = pipeline.Run(m.get());
  ASSERT_TRUE(changed.ok()) << changed.status();
  ExpectWellFormed(*m);
  EXPECT_THAT(m->ToString(), ::testing::Not(HasSubstr("all-reduce-start")));
  std::vector<std::vector<Literal>> args;
  for (int64_t r = 0; r < 2; ++r) {
    std::vector<Literal> one;
    one.push_back(Literal::FromDoubles(Shape(F32, {4}), {1.0 + r, 2, 3, 4}));
    args.push_back(std::move(one));
  }
  auto want = EvaluateReplicated(*original, args);
  ASSERT_TRUE(want.ok()) << want.status();
  auto got = EvaluateReplicated(*m, args);
  ASSERT_TRUE(got.ok()) << got.status() << "\n" << m->ToString();
  ASSERT_EQ(want->size(), got->size());
  for (size_t i = 0; i < want->size(); ++i) {
    EXPECT_EQ((*want)[i], (*got)[i]) << (*want)[i].ToString() << " vs " << (*got)[i].ToString();
  }
}

}  // namespace
}  // namespace aot
