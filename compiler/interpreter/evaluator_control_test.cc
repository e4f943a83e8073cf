// Control flow and structure: while, conditional, call, fusion, tuples,
// parameters and argument checking, replica/partition ids, error reporting.

#include "absl/strings/str_replace.h"
#include "compiler/interpreter/test_util.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace aot {
namespace interpreter_test {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;

TEST(ControlFlowTest, WhileLoopCounts) {
  Literal r = RunHlo(R"(
HloModule loop

cond {
  s = (s32[], f32[]) parameter(0)
  i = s32[] get-tuple-element(s), index=0
  n = s32[] constant(10)
  ROOT lt = pred[] compare(i, n), direction=LT
}

body {
  s = (s32[], f32[]) parameter(0)
  i = s32[] get-tuple-element(s), index=0
  x = f32[] get-tuple-element(s), index=1
  one = s32[] constant(1)
  i1 = s32[] add(i, one)
  two = f32[] constant(2)
  x2 = f32[] multiply(x, two)
  ROOT t = (s32[], f32[]) tuple(i1, x2)
}

ENTRY main {
  zero = s32[] constant(0)
  x = f32[] parameter(0)
  init = (s32[], f32[]) tuple(zero, x)
  w = (s32[], f32[]) while(init), condition=cond, body=body
  ROOT r = f32[] get-tuple-element(w), index=1
})",
                     {L("f32[]", {1})});
  EXPECT_THAT(Doubles(r), ElementsAre(1024));
}

TEST(ControlFlowTest, WhileThatNeverRuns) {
  Literal r = RunHlo(R"(
HloModule loop
cond {
  s = s32[] parameter(0)
  ROOT f = pred[] constant(false)
}
body {
  s = s32[] parameter(0)
  ROOT n = s32[] negate(s)
}
ENTRY main {
  x = s32[] constant(7)
  ROOT w = s32[] while(x), condition=cond, body=body
})");
  EXPECT_THAT(Ints(r), ElementsAre(7));
}

constexpr char kBranches[] = R"(
neg {
  x = f32[] parameter(0)
  ROOT r = f32[] negate(x)
}
ident {
  x = f32[] parameter(0)
  ROOT r = f32[] copy(x)
}
twice {
  x = f32[] parameter(0)
  ROOT r = f32[] add(x, x)
}
)";

TEST(ControlFlowTest, ConditionalWithPred) {
  const std::string hlo = Module(R"(
  p = pred[] parameter(0)
  x = f32[] constant(3)
  ROOT c = f32[] conditional(p, x, x), true_computation=neg, false_computation=ident)",
                                 kBranches);
  EXPECT_THAT(Doubles(RunHlo(hlo, {LI("pred[]", {1})})), ElementsAre(-3));
  EXPECT_THAT(Doubles(RunHlo(hlo, {LI("pred[]", {0})})), ElementsAre(3));
}

TEST(ControlFlowTest, ConditionalWithIndexOutOfRangeTakesTheLastBranch) {
  const std::string hlo = Module(R"(
  i = s32[] parameter(0)
  a = f32[] constant(3)
  b = f32[] constant(4)
  c = f32[] constant(5)
  ROOT r = f32[] conditional(i, a, b, c), branch_computations={neg, ident, twice})",
                                 kBranches);
  EXPECT_THAT(Doubles(RunHlo(hlo, {LI("s32[]", {0})})), ElementsAre(-3));
  EXPECT_THAT(Doubles(RunHlo(hlo, {LI("s32[]", {1})})), ElementsAre(4));
  EXPECT_THAT(Doubles(RunHlo(hlo, {LI("s32[]", {2})})), ElementsAre(10));
  EXPECT_THAT(Doubles(RunHlo(hlo, {LI("s32[]", {7})})), ElementsAre(10));
  EXPECT_THAT(Doubles(RunHlo(hlo, {LI("s32[]", {-1})})), ElementsAre(10));
}

TEST(ControlFlowTest, CallAndFusion) {
  EXPECT_THAT(Doubles(RunHlo(Module(R"(
  x = f32[2] constant({1, 2})
  y = f32[2] constant({10, 20})
  c = f32[2] call(x, y), to_apply=fma
  ROOT f = f32[2] fusion(c, x), kind=kLoop, calls=fused)",
                                    R"(
fma {
  a = f32[2] parameter(0)
  b = f32[2] parameter(1)
  m = f32[2] multiply(a, b)
  ROOT s = f32[2] add(m, a)
}
fused {
  p0 = f32[2] parameter(0)
  p1 = f32[2] parameter(1)
  ROOT d = f32[2] subtract(p0, p1)
})"))),
              ElementsAre(10, 40));
}

TEST(StructureTest, TuplesAndGetTupleElement) {
  Literal r = RunHlo(Module(R"(
  a = f32[2] parameter(0)
  b = s32[] parameter(1)
  ba = (s32[], f32[2]) tuple(b, a)
  t = (f32[2], (s32[], f32[2])) tuple(a, ba)
  inner = (s32[], f32[2]) get-tuple-element(t), index=1
  first = s32[] get-tuple-element(inner), index=0
  ROOT r = (s32[], (s32[], f32[2])) tuple(first, inner))"),
                     {L("f32[2]", {1, 2}), LI("s32[]", {7})});
  ASSERT_TRUE(r.shape().IsTuple());
  EXPECT_THAT(Ints(r.tuple_element(0)), ElementsAre(7));
  EXPECT_THAT(Doubles(r.tuple_element(1).tuple_element(1)), ElementsAre(1, 2));
}

TEST(StructureTest, ReplicaAndPartitionIdAreZero) {
  Literal r = RunHlo(Module(R"(
  r = u32[] replica-id()
  p = u32[] partition-id()
  ROOT t = (u32[], u32[]) tuple(r, p))"));
  EXPECT_THAT(Ints(r.tuple_element(0)), ElementsAre(0));
  EXPECT_THAT(Ints(r.tuple_element(1)), ElementsAre(0));
}

TEST(StructureTest, TupleParameter) {
  auto shape = ParseShape("(f32[2], s32[])");
  ASSERT_TRUE(shape.ok());
  std::vector<Literal> elements;
  elements.push_back(L("f32[2]", {1, 2}));
  elements.push_back(LI("s32[]", {3}));
  Literal r = RunHlo(Module(R"(
  p = (f32[2], s32[]) parameter(0)
  ROOT x = f32[2] get-tuple-element(p), index=0)"),
                     {Literal::Tuple(std::move(elements))});
  EXPECT_THAT(Doubles(r), ElementsAre(1, 2));
}

TEST(StructureTest, ElidedConstantsAreFilledBySeed) {
  Literal r = RunHlo(Module(R"(
  c = f32[4] constant({...})
  ROOT n = f32[4] negate(c))"));
  EXPECT_EQ(r.element_count(), 4);
}

TEST(ArgumentTest, WrongCountAndShapeNameTheParameter) {
  const std::string hlo = Module(R"(
  x = f32[2,3] parameter(0)
  y = f32[2,3] parameter(1)
  ROOT r = f32[2,3] add(x, y))");
  auto count = TryRun(hlo, {L("f32[2,3]", {1, 2, 3, 4, 5, 6})});
  ASSERT_FALSE(count.ok());
  EXPECT_THAT(std::string(count.status().message()), HasSubstr("takes 2 argument(s), got 1"));
  auto shape = TryRun(hlo, {L("f32[2,3]", {1, 2, 3, 4, 5, 6}), L("f32[3]", {1, 2, 3})});
  ASSERT_FALSE(shape.ok());
  EXPECT_THAT(std::string(shape.status().message()),
              HasSubstr("argument 1 does not match parameter 'y'"));
  EXPECT_THAT(std::string(shape.status().message()), HasSubstr("expected f32[2,3], got f32[3]"));
  // Layouts of arguments do not matter.
  Literal transposed_layout = L("f32[2,3]", {1, 2, 3, 4, 5, 6});
  transposed_layout.set_layout({0, 1});
  EXPECT_THAT(Doubles(RunHlo(hlo, {transposed_layout, L("f32[2,3]", {1, 1, 1, 1, 1, 1})})),
              ElementsAre(2, 3, 4, 5, 6, 7));
}

TEST(ErrorTest, UnknownCustomCallTargetIsNamed) {
  auto r = TryRun(Module(R"(
  x = f32[2] parameter(0)
  ROOT c = f32[2] custom-call(x), custom_call_target="my.secret_op")"),
                  {L("f32[2]", {1, 2})});
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().code(), absl::StatusCode::kNotFound);
  EXPECT_THAT(std::string(r.status().message()),
              HasSubstr("instruction 'c' (custom-call): custom-call target 'my.secret_op'"));
}

TEST(ErrorTest, ErrorsInsideCalledComputationsSayWhere) {
  auto r = TryRun(Module(R"(
  x = f32[2] parameter(0)
  ROOT c = f32[2] call(x), to_apply=inner)",
                         R"(
inner {
  p = f32[2] parameter(0)
  ROOT bad = f32[2] custom-call(p), custom_call_target="nope"
})"),
                  {L("f32[2]", {1, 2})});
  ASSERT_FALSE(r.ok());
  EXPECT_THAT(std::string(r.status().message()),
              HasSubstr("instruction 'c' (call): in computation 'inner': instruction 'bad' "
                        "(custom-call)"));
}

TEST(ErrorTest, MismatchedShapesAreErrorsNotCrashes) {
  // The verifier would reject these; the interpreter must not crash on them.
  auto r = TryRun(Module(R"(
  x = f32[2] parameter(0)
  y = f32[3] parameter(1)
  ROOT r = f32[2] add(x, y))"),
                  {L("f32[2]", {1, 2}), L("f32[3]", {1, 2, 3})});
  ASSERT_FALSE(r.ok());
  EXPECT_THAT(std::string(r.status().message()), HasSubstr("instruction 'r' (add)"));
  auto s = TryRun(Module(R"(
  x = f32[4] parameter(0)
  ROOT r = f32[9] slice(x), slice={[0:9]})"),
                  {L("f32[4]", {1, 2, 3, 4})});
  ASSERT_FALSE(s.ok());
  EXPECT_THAT(std::string(s.status().message()), HasSubstr("instruction 'r' (slice)"));
  auto g = TryRun(Module(R"(
  o = f32[3,3] parameter(0)
  i = s32[2] parameter(1)
  ROOT g = f32[2,3] gather(o, i), offset_dims={1}, collapsed_slice_dims={0}, start_index_map={0}, index_vector_dim=1, slice_sizes={1,4})"),
                  {L("f32[3,3]", {1, 2, 3, 4, 5, 6, 7, 8, 9}), LI("s32[2]", {0, 1})});
  ASSERT_FALSE(g.ok());
  EXPECT_THAT(std::string(g.status().message()), HasSubstr("instruction 'g' (gather)"));
}

TEST(EvaluatorTest, EvaluateComputationDirectly) {
  auto module = ParseHloModule(Module("  ROOT r = f32[] constant(0)", kAddF32));
  ASSERT_TRUE(module.ok()) << module.status();
  const HloComputation* add = (*module)->FindComputation("add_f32");
  ASSERT_NE(add, nullptr);
  Literal a = L("f32[]", {1.5});
  Literal b = L("f32[]", {2});
  HloEvaluator evaluator;
  std::vector<const Literal*> args = {&a, &b};
  auto r = evaluator.EvaluateComputation(*add, args);
  ASSERT_TRUE(r.ok()) << r.status();
  EXPECT_THAT(Doubles(*r), ElementsAre(3.5));
  // The same evaluator can run again (and on another module).
  auto again = evaluator.EvaluateComputation(*add, args);
  ASSERT_TRUE(again.ok());
  EXPECT_EQ(*again, *r);
}

// scan: a running sum (its output is each step's carry), forward and
// reversed.
TEST(ScanTest, RunningSumForwardAndReversed) {
  const char* text = R"(HloModule scan
sum {
  x = f32[] parameter(0)
  c = f32[] parameter(1)
  s = f32[] add(c, x)
  ROOT t = (f32[], f32[]) tuple(s, s)
}
ENTRY e {
  x = f32[4] parameter(0)
  z = f32[] constant(0)
  ROOT r = (f32[4], f32[]) scan(x, z), dimensions={0}, num_carries=1%s, to_apply=sum
})";
  Literal forward = RunHlo(absl::StrReplaceAll(text, {{"%s", ""}}), {L("f32[4]", {1, 2, 3, 4})});
  ASSERT_TRUE(forward.shape().IsTuple());
  EXPECT_THAT(Doubles(forward.tuple_element(0)), ElementsAre(1, 3, 6, 10));
  EXPECT_THAT(Doubles(forward.tuple_element(1)), ElementsAre(10));
  Literal reversed =
      RunHlo(absl::StrReplaceAll(text, {{"%s", ", is_reverse=true"}}), {L("f32[4]", {1, 2, 3, 4})});
  ASSERT_TRUE(reversed.shape().IsTuple());
  EXPECT_THAT(Doubles(reversed.tuple_element(0)), ElementsAre(10, 9, 7, 4));
  EXPECT_THAT(Doubles(reversed.tuple_element(1)), ElementsAre(10));
}

}  // namespace
}  // namespace interpreter_test
}  // namespace aot
