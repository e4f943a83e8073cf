#include "compiler/passes/rng_expansion.h"

#include "compiler/passes/test_util.h"
#include "compiler/tooling/literal_execution.h"
#include "compiler/tooling/random_literal.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace aot {
namespace {

using testing_util::ExpectExpansionKeepsValues;

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

}  // namespace
}  // namespace aot
