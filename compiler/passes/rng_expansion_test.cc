#include "compiler/passes/rng_expansion.h"

#include "compiler/passes/constant_folding.h"
#include "compiler/passes/hlo_cse.h"
#include "compiler/passes/test_util.h"
#include "compiler/tooling/literal_execution.h"
#include "compiler/tooling/random_literal.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace aot {
namespace {

using testing_util::ExpectExpansionKeepsValues;
using testing_util::RunPass;

// Expands `text`; expects no rng-bit-generator left and the interpreter's
// result on `state` unchanged, bit for bit.
void ExpectExpands(const std::string& text, const std::vector<uint64_t>& state) {
  SCOPED_TRACE(text);
  Literal s(Shape(U64, {static_cast<int64_t>(state.size())}));
  for (size_t i = 0; i < state.size(); ++i) s.SetFromUint64(static_cast<int64_t>(i), state[i]);
  std::vector<Literal> args;
  args.push_back(std::move(s));
  std::unique_ptr<HloModule> m =
      ExpectExpansionKeepsValues(text, ExpandRngBitGenerators, Tolerance{0, 0}, std::move(args));
  ASSERT_NE(m, nullptr);
  for (const HloComputation* c : m->computations()) {
    for (const HloInstruction* h : c->instructions()) {
      EXPECT_NE(h->opcode(), HloOpcode::kRngBitGenerator) << h->ToString();
    }
  }
}

TEST(RngExpansionTest, EveryAlgorithmStateAndValueWidthMatchesTheInterpreter) {
  struct Variant {
    const char* algorithm;
    const char* state_shape;
    std::vector<uint64_t> state;
  } variants[] = {
      {"rng_default", "u64[2]", {0x0123456789abcdefull, 0xfffffffffffffffeull}},
      {"rng_philox", "u64[3]", {7, 11, 0xdeadbeefcafef00dull}},
      {"rng_three_fry", "u64[2]", {0xfedcba9876543210ull, 3}},
  };
  for (const Variant& v : variants) {
    for (const char* values : {"u32[5,3]", "u64[7]", "s16[2,2,3]", "s64[3]", "u8[9]", "s32[0]"}) {
      ExpectExpands(absl::StrCat("HloModule rng\nENTRY e {\n  s = ", v.state_shape,
                                 " parameter(0)\n  ROOT r = (", v.state_shape, ", ", values,
                                 ") rng-bit-generator(s), algorithm=", v.algorithm, "\n}\n"),
                    v.state);
    }
  }
}

TEST(RngExpansionTest, InsideALoopWithTheStateCarried) {
  ExpectExpands(R"(HloModule loop
cond {
  t = (s32[], u64[2], u32[8]) parameter(0)
  i = s32[] get-tuple-element(t), index=0
  n = s32[] constant(3)
  ROOT c = pred[] compare(i, n), direction=LT
}
body {
  t = (s32[], u64[2], u32[8]) parameter(0)
  i = s32[] get-tuple-element(t), index=0
  s = u64[2] get-tuple-element(t), index=1
  acc = u32[8] get-tuple-element(t), index=2
  one = s32[] constant(1)
  j = s32[] add(i, one)
  g = (u64[2], u32[8]) rng-bit-generator(s), algorithm=rng_three_fry
  ns = u64[2] get-tuple-element(g), index=0
  bits = u32[8] get-tuple-element(g), index=1
  x = u32[8] xor(acc, bits)
  ROOT r = (s32[], u64[2], u32[8]) tuple(j, ns, x)
}
ENTRY e {
  s = u64[2] parameter(0)
  z = s32[] constant(0)
  zero = u32[] constant(0)
  zeros = u32[8] broadcast(zero), dimensions={}
  t = (s32[], u64[2], u32[8]) tuple(z, s, zeros)
  ROOT w = (s32[], u64[2], u32[8]) while(t), condition=cond, body=body
}
)",
                {42, 0});
}

// Expands every rng of `text`; expects only rng-get-and-update-state and
// rng-bit-generator left of them and the interpreter's result (from the
// state 0 of a fresh evaluator) unchanged, bit for bit.
void ExpectRngsExpand(const std::string& text) {
  SCOPED_TRACE(text);
  std::unique_ptr<HloModule> m = ExpectExpansionKeepsValues(text, ExpandRngs, Tolerance{0, 0});
  ASSERT_NE(m, nullptr);
  int states = 0;
  for (const HloComputation* c : m->computations()) {
    for (const HloInstruction* h : c->instructions()) {
      EXPECT_NE(h->opcode(), HloOpcode::kRng) << h->ToString();
      if (h->opcode() == HloOpcode::kRngGetAndUpdateState) ++states;
    }
    // One take per computation with draws, before anything but parameters.
    for (const HloInstruction* h : c->instructions()) {
      if (h->opcode() == HloOpcode::kParameter) continue;
      bool draws = false;
      for (const HloInstruction* g : c->instructions()) {
        draws |= g->opcode() == HloOpcode::kRngBitGenerator;
      }
      if (draws) EXPECT_EQ(h->opcode(), HloOpcode::kRngGetAndUpdateState) << c->name();
      break;
    }
  }
  EXPECT_GE(states, 1);
}

TEST(RngExpansionTest, RngMatchesTheInterpreterForEveryTypeAndDistribution) {
  struct Case {
    const char* type;
    const char* distribution;
    const char* a;
    const char* b;
  } cases[] = {
      {"f32", "rng_uniform", "-1.5", "4"},
      {"f64", "rng_uniform", "0", "1"},
      {"f16", "rng_uniform", "-3", "3"},
      {"bf16", "rng_uniform", "2", "10"},
      {"s8", "rng_uniform", "-100", "100"},
      {"u8", "rng_uniform", "7", "200"},
      {"s16", "rng_uniform", "-3", "4"},
      {"u16", "rng_uniform", "0", "60000"},
      {"s32", "rng_uniform", "-9", "9"},
      {"u32", "rng_uniform", "5", "5"},
      {"s64", "rng_uniform", "-1000000000000", "1000000000000"},
      {"u64", "rng_uniform", "1", "1000000000000000"},
      {"f32", "rng_normal", "3", "2"},
      {"f64", "rng_normal", "-1", "0.5"},
      {"f16", "rng_normal", "0", "1"},
      {"bf16", "rng_normal", "10", "3"},
  };
  for (const Case& c : cases) {
    ExpectRngsExpand(absl::StrCat("HloModule rng\nENTRY e {\n  a = ", c.type, "[] constant(", c.a,
                                  ")\n  b = ", c.type, "[] constant(", c.b,
                                  ")\n  ROOT r = ", c.type,
                                  "[5,7] rng(a, b), distribution=", c.distribution, "\n}\n"));
  }
}

TEST(RngExpansionTest, ParameterBoundsEmptyShapesAndTwoDrawsInOrder) {
  // Bounds from parameters; the second draw depends on the first, so both
  // the interpreter and a compiled program take the state in this order.
  ExpectRngsExpand(R"(HloModule rng
add {
  x = f32[] parameter(0)
  y = f32[] parameter(1)
  ROOT s = f32[] add(x, y)
}
ENTRY e {
  a = f32[] parameter(0)
  b = f32[] parameter(1)
  none = f32[0,3] rng(a, b), distribution=rng_uniform
  first = f32[9] rng(a, b), distribution=rng_normal
  z = f32[] constant(0)
  m = f32[] reduce(first, z), dimensions={0}, to_apply=add
  second = f32[2,2] rng(m, b), distribution=rng_uniform
  ROOT t = (f32[0,3], f32[9], f32[2,2]) tuple(none, first, second)
})");
}

TEST(RngExpansionTest, InsideALoopEachIterationDrawsAfresh) {
  ExpectRngsExpand(R"(HloModule loop
cond {
  t = (s32[], s32[4,3]) parameter(0)
  i = s32[] get-tuple-element(t), index=0
  n = s32[] constant(4)
  ROOT c = pred[] compare(i, n), direction=LT
}
body {
  t = (s32[], s32[4,3]) parameter(0)
  i = s32[] get-tuple-element(t), index=0
  one = s32[] constant(1)
  j = s32[] add(i, one)
  acc = s32[4,3] get-tuple-element(t), index=1
  a = s32[] constant(-1000)
  b = s32[] constant(1000)
  u = s32[1,3] rng(a, b), distribution=rng_uniform
  z = s32[] constant(0)
  next = s32[4,3] dynamic-update-slice(acc, u, i, z)
  ROOT o = (s32[], s32[4,3]) tuple(j, next)
}
ENTRY main {
  z = s32[] constant(0)
  acc = s32[4,3] broadcast(z), dimensions={}
  init = (s32[], s32[4,3]) tuple(z, acc)
  ROOT w = (s32[], s32[4,3]) while(init), condition=cond, body=body
}
)");
}

TEST(RngExpansionTest, CseAndConstantFoldingLeaveDrawsAlone) {
  // Two identical draws are two draws, and constant bounds fold nothing.
  constexpr char kText[] = R"(HloModule twice
ENTRY e {
  a = f32[] constant(0)
  b = f32[] constant(1)
  x = f32[4] rng(a, b), distribution=rng_uniform
  y = f32[4] rng(a, b), distribution=rng_uniform
  s = u64[2] rng-get-and-update-state(), delta=1
  t = u64[2] rng-get-and-update-state(), delta=1
  ROOT r = (f32[4], f32[4], u64[2], u64[2]) tuple(x, y, s, t)
})";
  HloCse cse;
  ConstantFolding folding;
  for (HloPass* pass : std::vector<HloPass*>{&cse, &folding}) {
    bool changed = true;
    std::unique_ptr<HloModule> m = RunPass(*pass, kText, &changed);
    ASSERT_NE(m, nullptr);
    EXPECT_FALSE(changed) << pass->name();
  }
}

}  // namespace
}  // namespace aot
