// Collectives across replicas and partitions: EvaluateReplicated runs one
// evaluator per participant; every expectation is computed by hand.

#include "compiler/interpreter/replicated_evaluator.h"

#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/time/clock.h"
#include "compiler/interpreter/test_util.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "support/status_macros.h"

namespace aot {
namespace interpreter_test {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;
using ::testing::StartsWith;

constexpr char kSumF32[] = R"(
sum_f32 {
  a = f32[] parameter(0)
  b = f32[] parameter(1)
  ROOT r = f32[] add(a, b)
}
)";
constexpr char kSumS32[] = R"(
sum_s32 {
  a = s32[] parameter(0)
  b = s32[] parameter(1)
  ROOT r = s32[] add(a, b)
}
)";

// "HloModule m, replica_count=R[, num_partitions=P]" around an entry body.
std::string Replicated(int64_t replicas, absl::string_view body,
                       absl::string_view computations = "", int64_t partitions = 1) {
  return absl::StrCat("HloModule m, replica_count=", replicas,
                      partitions == 1 ? "" : absl::StrCat(", num_partitions=", partitions), "\n",
                      computations, "\nENTRY main {\n", body, "\n}\n");
}

absl::StatusOr<std::vector<Literal>> TryRunReplicated(
    absl::string_view hlo, const std::vector<std::vector<Literal>>& args,
    const ReplicatedEvaluationOptions& options = {}) {
  auto module = ParseHloModule(hlo);
  AOT_RETURN_IF_ERROR(module);
  return EvaluateReplicated(**module, args, options);
}

std::vector<Literal> RunReplicated(absl::string_view hlo,
                                   const std::vector<std::vector<Literal>>& args,
                                   const ReplicatedEvaluationOptions& options = {}) {
  auto results = TryRunReplicated(hlo, args, options);
  EXPECT_TRUE(results.ok()) << results.status() << "\n" << hlo;
  if (!results.ok()) return {};
  EXPECT_EQ(results->size(), args.size());
  return *std::move(results);
}

// One argument per participant: f(participant) as a literal of `shape`.
template <typename F>
std::vector<std::vector<Literal>> PerParticipant(int64_t count, absl::string_view shape, F f) {
  std::vector<std::vector<Literal>> args;
  for (int64_t r = 0; r < count; ++r) {
    std::vector<Literal> one;
    one.push_back(LI(shape, f(r)));
    args.push_back(std::move(one));
  }
  return args;
}

std::vector<std::vector<Literal>> NoArguments(int64_t count) {
  return std::vector<std::vector<Literal>>(count);
}

TEST(ReplicatedEvaluatorTest, AllReduceSumsOverEveryReplica) {
  for (int64_t replicas : {2, 4, 8}) {
    std::string hlo = Replicated(replicas, R"(
  p = s32[3] parameter(0)
  ROOT ar = s32[3] all-reduce(p), replica_groups={}, to_apply=sum_s32)",
                                 kSumS32);
    auto args = PerParticipant(replicas, "s32[3]", [](int64_t r) {
      return std::vector<int64_t>{r, 10 * r, 100 * r};
    });
    std::vector<Literal> results = RunReplicated(hlo, args);
    ASSERT_EQ(results.size(), static_cast<size_t>(replicas));
    const int64_t s = replicas * (replicas - 1) / 2;
    for (const Literal& r : results) {
      EXPECT_THAT(Ints(r), ElementsAre(s, 10 * s, 100 * s)) << replicas << " replicas";
    }
  }
}

TEST(ReplicatedEvaluatorTest, AllReduceOverExplicitAndIotaGroups) {
  std::vector<Literal> results = RunReplicated(
      Replicated(4, R"(
  p = f32[] parameter(0)
  ROOT ar = f32[] all-reduce(p), replica_groups={{0,1},{3,2}}, to_apply=sum_f32)",
                 kSumF32),
      PerParticipant(4, "f32[]", [](int64_t r) { return std::vector<int64_t>{r + 1}; }));
  ASSERT_EQ(results.size(), 4u);
  EXPECT_THAT(Doubles(results[0]), ElementsAre(3));
  EXPECT_THAT(Doubles(results[1]), ElementsAre(3));
  EXPECT_THAT(Doubles(results[2]), ElementsAre(7));
  EXPECT_THAT(Doubles(results[3]), ElementsAre(7));
  // [2,4]<=[4,2]T(1,0) is {{0,2,4,6},{1,3,5,7}}.
  results =
      RunReplicated(Replicated(8, R"(
  p = s32[] parameter(0)
  ROOT ar = s32[] all-reduce(p), replica_groups=[2,4]<=[4,2]T(1,0), to_apply=sum_s32)",
                               kSumS32),
                    PerParticipant(8, "s32[]", [](int64_t r) { return std::vector<int64_t>{r}; }));
  ASSERT_EQ(results.size(), 8u);
  for (int64_t r = 0; r < 8; ++r) {
    EXPECT_THAT(Ints(results[r]), ElementsAre(r % 2 == 0 ? 12 : 16)) << r;
  }
}

TEST(ReplicatedEvaluatorTest, AllReduceWithOtherReductions) {
  // maximum.
  std::vector<Literal> results =
      RunReplicated(Replicated(4, R"(
  p = f32[2] parameter(0)
  ROOT ar = f32[2] all-reduce(p), replica_groups={}, to_apply=max_f32)",
                               kMaxF32),
                    PerParticipant(4, "f32[2]", [](int64_t r) {
                      return std::vector<int64_t>{-(r * r) + 4 * r + 1, -r};
                    }));
  ASSERT_EQ(results.size(), 4u);
  for (const Literal& r : results) EXPECT_THAT(Doubles(r), ElementsAre(5, 0));
  // f(a, b) = 2a + b folded in group order: 8 v0 + 4 v1 + 2 v2 + v3, and
  // the group order is the order replica_groups lists.
  constexpr char kTwiceAPlusB[] = R"(
twice_a_plus_b {
  a = s32[] parameter(0)
  b = s32[] parameter(1)
  two = s32[] constant(2)
  a2 = s32[] multiply(a, two)
  ROOT r = s32[] add(a2, b)
}
)";
  results = RunReplicated(
      Replicated(4, R"(
  p = s32[] parameter(0)
  ROOT ar = s32[] all-reduce(p), replica_groups={{3,1,0,2}}, to_apply=twice_a_plus_b)",
                 kTwiceAPlusB),
      PerParticipant(4, "s32[]", [](int64_t r) { return std::vector<int64_t>{r + 1}; }));
  ASSERT_EQ(results.size(), 4u);
  // v = (4, 2, 1, 3): 32 + 8 + 2 + 3.
  for (const Literal& r : results) EXPECT_THAT(Ints(r), ElementsAre(45));
}

TEST(ReplicatedEvaluatorTest, VariadicAllReduce) {
  std::vector<std::vector<Literal>> args;
  for (int64_t r = 0; r < 2; ++r) {
    std::vector<Literal> one;
    one.push_back(LI("s32[2]", {r, r + 1}));
    one.push_back(LI("s32[]", {10 * (r + 1)}));
    args.push_back(std::move(one));
  }
  std::vector<Literal> results = RunReplicated(Replicated(2, R"(
  p = s32[2] parameter(0)
  q = s32[] parameter(1)
  ROOT ar = (s32[2], s32[]) all-reduce(p, q), replica_groups={}, to_apply=sum_s32)",
                                                          kSumS32),
                                               args);
  ASSERT_EQ(results.size(), 2u);
  for (const Literal& r : results) {
    ASSERT_TRUE(r.shape().IsTuple());
    EXPECT_THAT(Ints(r.tuple_element(0)), ElementsAre(1, 3));
    EXPECT_THAT(Ints(r.tuple_element(1)), ElementsAre(30));
  }
}

TEST(ReplicatedEvaluatorTest, AllGatherConcatenatesInGroupOrder) {
  for (int64_t replicas : {2, 4, 8}) {
    std::vector<Literal> results = RunReplicated(
        Replicated(replicas, absl::StrCat(R"(
  p = s32[2] parameter(0)
  ROOT ag = s32[)",
                                          2 * replicas,
                                          R"(] all-gather(p), replica_groups={}, dimensions={0})")),
        PerParticipant(replicas, "s32[2]", [](int64_t r) {
          return std::vector<int64_t>{r, 10 * r};
        }));
    ASSERT_EQ(results.size(), static_cast<size_t>(replicas));
    std::vector<int64_t> expected;
    for (int64_t r = 0; r < replicas; ++r) {
      expected.push_back(r);
      expected.push_back(10 * r);
    }
    for (const Literal& r : results) EXPECT_EQ(Ints(r), expected) << replicas;
  }
  // Along dimension 1, groups {1,0} and {2,3}.
  std::vector<Literal> results = RunReplicated(Replicated(4, R"(
  p = s32[2,1] parameter(0)
  ROOT ag = s32[2,2] all-gather(p), replica_groups={{1,0},{2,3}}, dimensions={1})"),
                                               PerParticipant(4, "s32[2,1]", [](int64_t r) {
                                                 return std::vector<int64_t>{r, 10 * r};
                                               }));
  ASSERT_EQ(results.size(), 4u);
  EXPECT_THAT(Ints(results[0]), ElementsAre(1, 0, 10, 0));
  EXPECT_THAT(Ints(results[1]), ElementsAre(1, 0, 10, 0));
  EXPECT_THAT(Ints(results[3]), ElementsAre(2, 3, 20, 30));
}

TEST(ReplicatedEvaluatorTest, ReduceScatterKeepsTheMembersBlock) {
  for (int64_t replicas : {2, 4, 8}) {
    // Element i of replica r is 8r + i; the sum over replicas is
    // 8 * R(R-1)/2 + R i; replica k keeps elements [2k, 2k + 2).
    std::vector<Literal> results = RunReplicated(
        Replicated(replicas,
                   absl::StrCat(R"(
  p = s32[)",
                                2 * replicas, R"(] parameter(0)
  ROOT rs = s32[2] reduce-scatter(p), replica_groups={}, dimensions={0}, to_apply=sum_s32)"),
                   kSumS32),
        PerParticipant(replicas, absl::StrCat("s32[", 2 * replicas, "]"), [&](int64_t r) {
          std::vector<int64_t> v;
          for (int64_t i = 0; i < 2 * replicas; ++i) v.push_back(8 * r + i);
          return v;
        }));
    ASSERT_EQ(results.size(), static_cast<size_t>(replicas));
    const int64_t base = 8 * replicas * (replicas - 1) / 2;
    for (int64_t k = 0; k < replicas; ++k) {
      EXPECT_THAT(Ints(results[k]),
                  ElementsAre(base + replicas * 2 * k, base + replicas * (2 * k + 1)))
          << replicas << " replicas, replica " << k;
    }
  }
}

TEST(ReplicatedEvaluatorTest, AllToAllArrayForm) {
  for (int64_t replicas : {2, 4, 8}) {
    // Replica r holds 100r + i; chunk j (2 elements) goes to member j.
    std::vector<Literal> results = RunReplicated(
        Replicated(replicas, absl::StrCat(R"(
  p = s32[)",
                                          2 * replicas, R"(] parameter(0)
  ROOT a = s32[)",
                                          2 * replicas,
                                          R"(] all-to-all(p), replica_groups={}, dimensions={0})")),
        PerParticipant(replicas, absl::StrCat("s32[", 2 * replicas, "]"), [&](int64_t r) {
          std::vector<int64_t> v;
          for (int64_t i = 0; i < 2 * replicas; ++i) v.push_back(100 * r + i);
          return v;
        }));
    ASSERT_EQ(results.size(), static_cast<size_t>(replicas));
    for (int64_t k = 0; k < replicas; ++k) {
      std::vector<int64_t> expected;
      for (int64_t r = 0; r < replicas; ++r) {
        expected.push_back(100 * r + 2 * k);
        expected.push_back(100 * r + 2 * k + 1);
      }
      EXPECT_EQ(Ints(results[k]), expected) << replicas << " replicas, replica " << k;
    }
  }
}

TEST(ReplicatedEvaluatorTest, AllToAllTupleForm) {
  std::vector<std::vector<Literal>> args;
  for (int64_t r = 0; r < 2; ++r) {
    std::vector<Literal> one;
    one.push_back(LI("s32[1]", {10 * r}));
    one.push_back(LI("s32[1]", {10 * r + 1}));
    args.push_back(std::move(one));
  }
  std::vector<Literal> results = RunReplicated(Replicated(2, R"(
  a = s32[1] parameter(0)
  b = s32[1] parameter(1)
  ROOT t = (s32[1], s32[1]) all-to-all(a, b), replica_groups={{0,1}})"),
                                               args);
  ASSERT_EQ(results.size(), 2u);
  // Result i of member k is member i's operand k.
  EXPECT_THAT(Ints(results[0].tuple_element(0)), ElementsAre(0));
  EXPECT_THAT(Ints(results[0].tuple_element(1)), ElementsAre(10));
  EXPECT_THAT(Ints(results[1].tuple_element(0)), ElementsAre(1));
  EXPECT_THAT(Ints(results[1].tuple_element(1)), ElementsAre(11));
}

TEST(ReplicatedEvaluatorTest, CollectivePermuteAndBroadcast) {
  for (int64_t replicas : {2, 4, 8}) {
    // A shift by one, except into replica 0, which gets zeros.
    std::string pairs;
    for (int64_t r = 0; r + 1 < replicas; ++r) {
      absl::StrAppend(&pairs, r == 0 ? "" : ",", "{", r, ",", r + 1, "}");
    }
    std::vector<Literal> results = RunReplicated(Replicated(replicas, absl::StrCat(R"(
  p = s32[2] parameter(0)
  ROOT cp = s32[2] collective-permute(p), source_target_pairs={)",
                                                                                   pairs, "}")),
                                                 PerParticipant(replicas, "s32[2]", [](int64_t r) {
                                                   return std::vector<int64_t>{r + 1, -(r + 1)};
                                                 }));
    ASSERT_EQ(results.size(), static_cast<size_t>(replicas));
    EXPECT_THAT(Ints(results[0]), ElementsAre(0, 0));
    for (int64_t r = 1; r < replicas; ++r) {
      EXPECT_THAT(Ints(results[r]), ElementsAre(r, -r)) << replicas << " replicas, replica " << r;
    }
  }
  std::vector<Literal> results = RunReplicated(
      Replicated(4, R"(
  p = s32[] parameter(0)
  ROOT cb = s32[] collective-broadcast(p), replica_groups={{1,0},{3,2}})"),
      PerParticipant(4, "s32[]", [](int64_t r) { return std::vector<int64_t>{10 + r}; }));
  ASSERT_EQ(results.size(), 4u);
  EXPECT_THAT(Ints(results[0]), ElementsAre(11));
  EXPECT_THAT(Ints(results[1]), ElementsAre(11));
  EXPECT_THAT(Ints(results[2]), ElementsAre(13));
  EXPECT_THAT(Ints(results[3]), ElementsAre(13));
}

TEST(ReplicatedEvaluatorTest, ReplicaAndPartitionIdsAndCrossPartitionModes) {
  // 2 replicas x 2 partitions; each participant's value is its id
  // replica * 2 + partition, computed in HLO.
  constexpr char kId[] = R"(
  rid = u32[] replica-id()
  pid = u32[] partition-id()
  two = u32[] constant(2)
  r2 = u32[] multiply(rid, two)
  id.u = u32[] add(r2, pid)
  id = s32[] convert(id.u)
  v = s32[1] reshape(id)
)";
  std::vector<Literal> results = RunReplicated(Replicated(2, absl::StrCat(kId, R"(
  cross_replica = s32[1] all-reduce(v), replica_groups={}, to_apply=sum_s32
  cross_both = s32[1] all-reduce(v), channel_id=1, replica_groups={{0},{1}}, to_apply=sum_s32
  flattened = s32[2] all-gather(v), channel_id=2, replica_groups={{3,0},{1,2}}, use_global_device_ids=true, dimensions={0}
  cross_partition = s32[2] all-to-all(v), channel_id=3, replica_groups={{1,0}}, dimensions={0}
  swapped = s32[1] collective-permute(v), channel_id=4, source_target_pairs={{0,1},{1,0}}
  ROOT t = (s32[1], s32[1], s32[1], s32[2], s32[1], s32[1]) tuple(v, cross_replica, cross_both, flattened, swapped, swapped))"),
                                                          kSumS32, /*partitions=*/2),
                                               NoArguments(4));
  ASSERT_EQ(results.size(), 4u);
  for (int64_t id = 0; id < 4; ++id) {
    const Literal& t = results[id];
    const int64_t partition = id % 2;
    EXPECT_THAT(Ints(t.tuple_element(0)), ElementsAre(id));
    // Cross-replica: the replicas of my partition, {p, 2 + p}.
    EXPECT_THAT(Ints(t.tuple_element(1)), ElementsAre(2 * partition + 2)) << id;
    // Cross-replica-and-partition: both partitions of my replica.
    EXPECT_THAT(Ints(t.tuple_element(2)), ElementsAre(id < 2 ? 1 : 5)) << id;
    // Flattened ids, in group order.
    if (id == 0 || id == 3) {
      EXPECT_THAT(Ints(t.tuple_element(3)), ElementsAre(3, 0)) << id;
    } else {
      EXPECT_THAT(Ints(t.tuple_element(3)), ElementsAre(1, 2)) << id;
    }
    // The other partition of my replica.
    EXPECT_THAT(Ints(t.tuple_element(4)), ElementsAre(id ^ 1)) << id;
  }
  // The all-to-all over partitions {1,0} of each replica; checked alone
  // (its result is the group-ordered chunks: partition 1's first).
  results = RunReplicated(Replicated(2, absl::StrCat(kId, R"(
  w = s32[2] concatenate(v, v), dimensions={0}
  ROOT a = s32[2] all-to-all(w), channel_id=3, replica_groups={{1,0}}, dimensions={0})"),
                                     "", /*partitions=*/2),
                          NoArguments(4));
  ASSERT_EQ(results.size(), 4u);
  for (int64_t id = 0; id < 4; ++id) {
    const int64_t replica = id / 2;
    EXPECT_THAT(Ints(results[id]), ElementsAre(2 * replica + 1, 2 * replica)) << id;
  }
}

TEST(ReplicatedEvaluatorTest, CollectivesInsideAWhileLoop) {
  // x <- all-reduce(x) three times over 2 replicas: (1 + 2) * 2 * 2.
  std::string hlo = Replicated(2, R"(
  x = f32[] parameter(0)
  zero = s32[] constant(0)
  init = (s32[], f32[]) tuple(zero, x)
  loop = (s32[], f32[]) while(init), condition=cond, body=body
  ROOT r = f32[] get-tuple-element(loop), index=1)",
                               absl::StrCat(kSumF32, R"(
cond {
  s = (s32[], f32[]) parameter(0)
  i = s32[] get-tuple-element(s), index=0
  n = s32[] constant(3)
  ROOT lt = pred[] compare(i, n), direction=LT
}

body {
  s = (s32[], f32[]) parameter(0)
  i = s32[] get-tuple-element(s), index=0
  x = f32[] get-tuple-element(s), index=1
  one = s32[] constant(1)
  i1 = s32[] add(i, one)
  ar = f32[] all-reduce(x), replica_groups={}, to_apply=sum_f32
  ROOT t = (s32[], f32[]) tuple(i1, ar)
}
)"));
  std::vector<Literal> results = RunReplicated(
      hlo, PerParticipant(2, "f32[]", [](int64_t r) { return std::vector<int64_t>{r + 1}; }));
  ASSERT_EQ(results.size(), 2u);
  EXPECT_THAT(Doubles(results[0]), ElementsAre(12));
  EXPECT_THAT(Doubles(results[1]), ElementsAre(12));
}

TEST(ReplicatedEvaluatorTest, AsyncFormsMeanTheirSynchronousOps) {
  std::vector<Literal> results = RunReplicated(Replicated(4, R"(
  p = s32[2] parameter(0)
  ars = s32[2] all-reduce-start(p), replica_groups={{0,1},{2,3}}, to_apply=sum_s32
  ard = s32[2] all-reduce-done(ars)
  ags = (s32[2], s32[8]) all-gather-start(p), replica_groups={}, dimensions={0}
  agd = s32[8] all-gather-done(ags)
  ag.in = s32[2] get-tuple-element(ags), index=0
  cps = (s32[2], s32[2], u32[], u32[]) collective-permute-start(p), source_target_pairs={{0,3},{3,0}}
  cpd = s32[2] collective-permute-done(cps)
  ROOT t = (s32[2], s32[8], s32[2], s32[2]) tuple(ard, agd, ag.in, cpd))",
                                                          kSumS32),
                                               PerParticipant(4, "s32[2]", [](int64_t r) {
                                                 return std::vector<int64_t>{r, 2 * r};
                                               }));
  ASSERT_EQ(results.size(), 4u);
  for (int64_t r = 0; r < 4; ++r) {
    const Literal& t = results[r];
    const int64_t s = r < 2 ? 1 : 5;
    EXPECT_THAT(Ints(t.tuple_element(0)), ElementsAre(s, 2 * s)) << r;
    EXPECT_THAT(Ints(t.tuple_element(1)), ElementsAre(0, 0, 1, 2, 2, 4, 3, 6)) << r;
    EXPECT_THAT(Ints(t.tuple_element(2)), ElementsAre(r, 2 * r)) << r;
    const int64_t from = r == 0 ? 3 : r == 3 ? 0 : -1;
    if (from < 0) {
      EXPECT_THAT(Ints(t.tuple_element(3)), ElementsAre(0, 0)) << r;
    } else {
      EXPECT_THAT(Ints(t.tuple_element(3)), ElementsAre(from, 2 * from)) << r;
    }
  }
}

TEST(ReplicatedEvaluatorTest, AFailingReplicaIsNamedAndStopsTheOthers) {
  std::string hlo = Replicated(4, R"(
  p = f32[2] parameter(0)
  ROOT ar = f32[2] all-reduce(p), replica_groups={}, to_apply=sum_f32)",
                               kSumF32);
  std::vector<std::vector<Literal>> args;
  for (int64_t r = 0; r < 4; ++r) {
    std::vector<Literal> one;
    one.push_back(r == 2 ? L("f32[3]", {1, 2, 3}) : L("f32[2]", {1, 2}));
    args.push_back(std::move(one));
  }
  const absl::Time start = absl::Now();
  auto results = TryRunReplicated(hlo, args);  // the default 60 s timeout
  ASSERT_FALSE(results.ok());
  EXPECT_LT(absl::Now() - start, absl::Seconds(20)) << "the others waited for the timeout";
  EXPECT_EQ(results.status().code(), absl::StatusCode::kInvalidArgument) << results.status();
  EXPECT_THAT(std::string(results.status().message()),
              StartsWith("replica 2: argument 0 does not match parameter 'p'"));
}

TEST(ReplicatedEvaluatorTest, AReplicaThatNeverArrivesTimesOut) {
  // Replica 0 takes the branch without the all-reduce.
  std::string hlo = Replicated(4, R"(
  p = f32[] parameter(0)
  rid = u32[] replica-id()
  zero = u32[] constant(0)
  is_zero = pred[] compare(rid, zero), direction=EQ
  ROOT c = f32[] conditional(is_zero, p, p), true_computation=skip, false_computation=reduce)",
                               absl::StrCat(kSumF32, R"(
skip {
  ROOT x = f32[] parameter(0)
}

reduce {
  x = f32[] parameter(0)
  ROOT ar = f32[] all-reduce(x), replica_groups={}, to_apply=sum_f32
}
)"));
  ReplicatedEvaluationOptions options;
  options.timeout = absl::Milliseconds(300);
  auto results = TryRunReplicated(
      hlo, PerParticipant(4, "f32[]", [](int64_t r) { return std::vector<int64_t>{r}; }), options);
  ASSERT_FALSE(results.ok());
  EXPECT_EQ(results.status().code(), absl::StatusCode::kDeadlineExceeded) << results.status();
  EXPECT_THAT(std::string(results.status().message()),
              HasSubstr("instruction 'ar' (all-reduce): collective call #0: replica 0 of group "
                        "[0, 1, 2, 3] did not arrive within 300ms"));
}

TEST(ReplicatedEvaluatorTest, BadGroupsAndArgumentCountsAreErrors) {
  auto results = TryRunReplicated(
      Replicated(4, R"(
  p = f32[] parameter(0)
  ROOT ar = f32[] all-reduce(p), replica_groups={{0,1}}, to_apply=sum_f32)",
                 kSumF32),
      PerParticipant(4, "f32[]", [](int64_t r) { return std::vector<int64_t>{r}; }));
  ASSERT_FALSE(results.ok());
  EXPECT_THAT(std::string(results.status().message()),
              HasSubstr("instruction 'ar' (all-reduce): replica_groups {{0,1}} (cross-replica, "
                        "4 replicas x 1 partition): replica 2 is in no group"));
  EXPECT_THAT(std::string(results.status().message()), StartsWith("replica "));
  results = TryRunReplicated(Replicated(4, "  ROOT r = u32[] replica-id()"), NoArguments(3));
  ASSERT_FALSE(results.ok());
  EXPECT_THAT(std::string(results.status().message()),
              HasSubstr("4 argument lists are needed, got 3"));
}

TEST(ReplicatedEvaluatorTest, ReplicaCountOptionOverridesTheModule) {
  ReplicatedEvaluationOptions options;
  options.replica_count = 3;
  std::vector<Literal> results = RunReplicated(R"(
ENTRY main {
  rid = u32[] replica-id()
  r1 = u32[1] reshape(rid)
  ROOT ag = u32[3] all-gather(r1), replica_groups={}, dimensions={0}
})",
                                               NoArguments(3), options);
  ASSERT_EQ(results.size(), 3u);
  for (const Literal& r : results) EXPECT_THAT(Ints(r), ElementsAre(0, 1, 2));
}

TEST(ReplicatedEvaluatorTest, PlainEvaluateRefusesManyParticipantsAndRunsOne) {
  auto refused = TryRun(Replicated(2, R"(
  p = f32[] parameter(0)
  ROOT ar = f32[] all-reduce(p), replica_groups={}, to_apply=sum_f32)",
                                   kSumF32),
                        {L("f32[]", {1})});
  ASSERT_FALSE(refused.ok());
  EXPECT_EQ(refused.status().code(), absl::StatusCode::kFailedPrecondition);
  EXPECT_THAT(std::string(refused.status().message()), HasSubstr("EvaluateReplicated"));
  // One participant: collectives over groups of one.
  Literal t = RunHlo(absl::StrCat(kSumF32, R"(
ENTRY main {
  p = f32[2] parameter(0)
  ar = f32[2] all-reduce(p), replica_groups={}, to_apply=sum_f32
  ag = f32[2] all-gather(p), replica_groups={{0}}, dimensions={0}
  cp = f32[2] collective-permute(p), source_target_pairs={{0,0}}
  rid = u32[] replica-id()
  ROOT t = (f32[2], f32[2], f32[2], u32[]) tuple(ar, ag, cp, rid)
})"),
                     {L("f32[2]", {1.5, -2})});
  ASSERT_TRUE(t.shape().IsTuple());
  EXPECT_THAT(Doubles(t.tuple_element(0)), ElementsAre(1.5, -2));
  EXPECT_THAT(Doubles(t.tuple_element(1)), ElementsAre(1.5, -2));
  EXPECT_THAT(Doubles(t.tuple_element(2)), ElementsAre(1.5, -2));
  EXPECT_THAT(Ints(t.tuple_element(3)), ElementsAre(0));
}

}  // namespace
}  // namespace interpreter_test
}  // namespace aot
