#include "compiler/passes/collective_async_to_sync.h"

#include <memory>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "compiler/interpreter/replicated_evaluator.h"
#include "compiler/passes/test_util.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace aot {
namespace {

using ::testing::HasSubstr;
using ::testing::Not;
using testing_util::Canonical;
using testing_util::ExpectNoChange;
using testing_util::ExpectWellFormed;
using testing_util::Parse;
using testing_util::RunPass;

constexpr char kSum[] = R"(
sum {
  a = s32[] parameter(0)
  b = s32[] parameter(1)
  ROOT r = s32[] add(a, b)
}
)";

// Runs both modules on 4 replicas (replica r's argument is {r, 10r}) and
// expects the same results.
void ExpectSameReplicatedResults(const HloModule& before, const HloModule& after) {
  std::vector<std::vector<Literal>> args;
  for (int64_t r = 0; r < 4; ++r) {
    std::vector<Literal> one;
    one.push_back(Literal::FromInt64s(Shape(S32, {2}), {r, 10 * r}));
    args.push_back(std::move(one));
  }
  auto want = EvaluateReplicated(before, args);
  ASSERT_TRUE(want.ok()) << want.status();
  auto got = EvaluateReplicated(after, args);
  ASSERT_TRUE(got.ok()) << got.status() << "\n" << after.ToString();
  ASSERT_EQ(want->size(), got->size());
  for (size_t i = 0; i < want->size(); ++i) {
    EXPECT_EQ((*want)[i], (*got)[i]) << "replica " << i << ": want " << (*want)[i].ToString()
                                     << ", got " << (*got)[i].ToString();
  }
}

void ExpectRewrite(absl::string_view before, absl::string_view after) {
  std::unique_ptr<HloModule> original = Parse(before);
  ASSERT_NE(original, nullptr);
  CollectiveAsyncToSync pass;
  bool changed = false;
  std::unique_ptr<HloModule> m = RunPass(pass, before, &changed);
  ASSERT_NE(m, nullptr);
  EXPECT_TRUE(changed);
  ExpectWellFormed(*m);
  EXPECT_EQ(m->ToString(), Canonical(after));
  EXPECT_THAT(m->ToString(), Not(HasSubstr("-start")));
  EXPECT_THAT(m->ToString(), Not(HasSubstr("-done")));
  ExpectSameReplicatedResults(*original, *m);
}

TEST(CollectiveAsyncToSyncTest, AllReduceStartDoneBecomesAllReduce) {
  ExpectRewrite(absl::StrCat("HloModule m, replica_count=4\n", kSum, R"(
ENTRY main {
  p = s32[2] parameter(0)
  s = s32[2] all-reduce-start(p), channel_id=5, replica_groups={{0,1},{2,3}}, to_apply=sum
  d = s32[2] all-reduce-done(s)
  ROOT n = s32[2] negate(d)
})"),
                absl::StrCat("HloModule m, replica_count=4\n", kSum, R"(
ENTRY main {
  p = s32[2] parameter(0)
  all-reduce = s32[2] all-reduce(p), channel_id=5, replica_groups={{0,1},{2,3}}, to_apply=sum
  ROOT n = s32[2] negate(all-reduce)
})"));
}

TEST(CollectiveAsyncToSyncTest, AllGatherStartAndItsOtherUsers) {
  ExpectRewrite(R"(HloModule m, replica_count=4
ENTRY main {
  p = s32[2] parameter(0)
  s = (s32[2], s32[8]) all-gather-start(p), replica_groups={}, dimensions={0}
  in = s32[2] get-tuple-element(s), index=0
  d = s32[8] all-gather-done(s)
  ROOT t = (s32[8], s32[2]) tuple(d, in)
})",
                R"(HloModule m, replica_count=4
ENTRY main {
  p = s32[2] parameter(0)
  all-gather = s32[8] all-gather(p), replica_groups={}, dimensions={0}
  ROOT t = (s32[8], s32[2]) tuple(all-gather, p)
})");
  // Variadic, done as the root.
  ExpectRewrite(R"(HloModule m, replica_count=4
ENTRY main {
  p = s32[2] parameter(0)
  q = s32[2] negate(p)
  s = ((s32[2], s32[2]), (s32[8], s32[8])) all-gather-start(p, q), replica_groups={}, dimensions={0}
  ROOT d = (s32[8], s32[8]) all-gather-done(s)
})",
                R"(HloModule m, replica_count=4
ENTRY main {
  p = s32[2] parameter(0)
  q = s32[2] negate(p)
  ROOT all-gather = (s32[8], s32[8]) all-gather(p, q), replica_groups={}, dimensions={0}
})");
}

TEST(CollectiveAsyncToSyncTest, CollectivePermuteStartUsedAsATuple) {
  ExpectRewrite(R"(HloModule m, replica_count=4
ENTRY main {
  p = s32[2] parameter(0)
  s = (s32[2], s32[2], u32[], u32[]) collective-permute-start(p), source_target_pairs={{0,1},{1,0}}
  d = s32[2] collective-permute-done(s)
  c = u32[] get-tuple-element(s), index=2
  ROOT t = (s32[2], (s32[2], s32[2], u32[], u32[]), u32[]) tuple(d, s, c)
})",
                R"(HloModule m, replica_count=4
ENTRY main {
  p = s32[2] parameter(0)
  collective-permute = s32[2] collective-permute(p), source_target_pairs={{0,1},{1,0}}
  constant = u32[] constant(0)
  constant.1 = u32[] constant(0)
  tuple = (s32[2], s32[2], u32[], u32[]) tuple(p, collective-permute, constant, constant.1)
  ROOT t = (s32[2], (s32[2], s32[2], u32[], u32[]), u32[]) tuple(collective-permute, tuple, constant)
})");
}

TEST(CollectiveAsyncToSyncTest, InsideAWhileBody) {
  std::string before = absl::StrCat("HloModule m, replica_count=4\n", kSum, R"(
cond {
  s = (s32[], s32[2]) parameter(0)
  i = s32[] get-tuple-element(s), index=0
  n = s32[] constant(2)
  ROOT lt = pred[] compare(i, n), direction=LT
}

body {
  s = (s32[], s32[2]) parameter(0)
  i = s32[] get-tuple-element(s), index=0
  x = s32[2] get-tuple-element(s), index=1
  one = s32[] constant(1)
  i1 = s32[] add(i, one)
  ars = s32[2] all-reduce-start(x), replica_groups={}, to_apply=sum
  ard = s32[2] all-reduce-done(ars)
  ROOT t = (s32[], s32[2]) tuple(i1, ard)
}

ENTRY main {
  p = s32[2] parameter(0)
  zero = s32[] constant(0)
  init = (s32[], s32[2]) tuple(zero, p)
  loop = (s32[], s32[2]) while(init), condition=cond, body=body
  ROOT r = s32[2] get-tuple-element(loop), index=1
})");
  std::unique_ptr<HloModule> original = Parse(before);
  ASSERT_NE(original, nullptr);
  CollectiveAsyncToSync pass;
  bool changed = false;
  std::unique_ptr<HloModule> m = RunPass(pass, before, &changed);
  ASSERT_NE(m, nullptr);
  EXPECT_TRUE(changed);
  ExpectWellFormed(*m);
  EXPECT_THAT(m->ToString(), HasSubstr("all-reduce(%x), replica_groups={}, to_apply=%sum"));
  ExpectSameReplicatedResults(*original, *m);
}

TEST(CollectiveAsyncToSyncTest, ModulesWithoutAsyncCollectivesAreUntouched) {
  CollectiveAsyncToSync pass;
  ExpectNoChange(pass, absl::StrCat("HloModule m, replica_count=4\n", kSum, R"(
ENTRY main {
  p = s32[2] parameter(0)
  ROOT ar = s32[2] all-reduce(p), replica_groups={}, to_apply=sum
})"));
  // Not even reordered: an out-of-order computation stays as it is.
  std::unique_ptr<HloModule> m = Parse(R"(
ENTRY main {
  p = f32[2] parameter(0)
  ROOT n = f32[2] negate(p)
})");
  ASSERT_NE(m, nullptr);
  const std::string before = m->ToString();
  absl::StatusOr<bool> changed = pass.Run(m.get());
  ASSERT_TRUE(changed.ok()) << changed.status();
  EXPECT_FALSE(*changed);
  EXPECT_EQ(m->ToString(), before);
}

TEST(CollectiveAsyncToSyncTest, IsFirstInTheDefaultPipeline) {
  HloPassPipeline pipeline = DefaultPipeline();
  ASSERT_FALSE(pipeline.PassNamesInStage("simplify").empty());
  EXPECT_EQ(pipeline.PassNamesInStage("simplify")[0], "collective-async-to-sync");
  std::unique_ptr<HloPass> pass = CreatePassByName("collective-async-to-sync");
  ASSERT_NE(pass, nullptr);
  EXPECT_EQ(pass->name(), CollectiveAsyncToSync::kName);
}

}  // namespace
}  // namespace aot
