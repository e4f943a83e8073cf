#include "compiler/passes/narrow_type_expansion.h"

#include "compiler/passes/test_util.h"
#include "compiler/tooling/literal_execution.h"
#include "compiler/tooling/random_literal.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace aot {
namespace {

using ::testing::HasSubstr;
using testing_util::ExpectExpansionKeepsValues;
using testing_util::Parse;

// Expands `text`; expects every instruction that still touches a narrow
// type to be one that hands values on, a convert or a bitcast-convert, and
// the interpreter's value unchanged, bit for bit: the interpreter rounds
// once per instruction, as the expansion does.
void ExpectExpands(absl::string_view text) {
  SCOPED_TRACE(text);
  std::unique_ptr<HloModule> m =
      ExpectExpansionKeepsValues(text, ExpandNarrowTypes, Tolerance{0, 0}, {}, 5);
  ASSERT_NE(m, nullptr);
  for (const HloComputation* c : m->computations()) {
    for (const HloInstruction* h : c->instructions()) {
      bool narrow = HasNarrowLeaf(h->shape());
      for (const HloInstruction* op : h->operands()) narrow |= HasNarrowLeaf(op->shape());
      if (narrow) {
        EXPECT_TRUE(PassesValuesOn(h->opcode()) || h->opcode() == HloOpcode::kConvert ||
                    h->opcode() == HloOpcode::kBitcastConvert)
            << h->ToString();
      }
    }
  }
}

TEST(NarrowTypeExpansionTest, FloatArithmeticRunsInF32AndRoundsOncePerInstruction) {
  ExpectExpands(R"(
HloModule f8
ENTRY e {
  a = f8e4m3fn[16] parameter(0)
  b = f8e4m3fn[16] parameter(1)
  m = f8e4m3fn[16] multiply(a, b)
  s = f8e4m3fn[16] add(m, a)
  c = pred[16] compare(s, b), direction=GT
  r = f8e4m3fn[16] select(c, s, b)
  e2 = f8e5m2[16] convert(r)
  x = f8e5m2[16] exponential(e2)
  ROOT t = (f8e4m3fn[16], f8e5m2[16]) tuple(r, x)
})");
}

TEST(NarrowTypeExpansionTest, ScaledMatmulAndNarrowIntegers) {
  ExpectExpands(R"(
HloModule scaled
ENTRY e {
  a = f8e4m3fn[8,16] parameter(0)
  b = f8e5m2[16,4] parameter(1)
  d = f32[8,4] dot(a, b), lhs_contracting_dims={1}, rhs_contracting_dims={0}
  i = s4[8,4] parameter(2)
  j = s4[8,4] parameter(3)
  k = s4[8,4] add(i, j)
  u = u4[8,4] convert(k)
  n = s4[8,4] negate(k)
  io = f4e2m1fn[8,4] iota(), iota_dimension=1
  ROOT t = (f32[8,4], s4[8,4], u4[8,4], s4[8,4], f4e2m1fn[8,4]) tuple(d, k, u, n, io)
})");
}

TEST(NarrowTypeExpansionTest, LoopStateAndValuesThatOnlyMoveStayNarrow) {
  const char* text = R"(
HloModule loop
cond {
  s = (s32[], f8e4m3fnuz[4]) parameter(0)
  i = s32[] get-tuple-element(s), index=0
  n = s32[] constant(3)
  ROOT c = pred[] compare(i, n), direction=LT
}
body {
  s = (s32[], f8e4m3fnuz[4]) parameter(0)
  i = s32[] get-tuple-element(s), index=0
  x = f8e4m3fnuz[4] get-tuple-element(s), index=1
  one = s32[] constant(1)
  j = s32[] add(i, one)
  h = f8e4m3fnuz[] constant(0.5)
  hb = f8e4m3fnuz[4] broadcast(h), dimensions={}
  y = f8e4m3fnuz[4] add(x, hb)
  r = f8e4m3fnuz[4] reverse(y), dimensions={0}
  ROOT t = (s32[], f8e4m3fnuz[4]) tuple(j, r)
}
ENTRY e {
  x = f8e4m3fnuz[4] parameter(0)
  zero = s32[] constant(0)
  s = (s32[], f8e4m3fnuz[4]) tuple(zero, x)
  w = (s32[], f8e4m3fnuz[4]) while(s), condition=cond, body=body
  ROOT r = f8e4m3fnuz[4] get-tuple-element(w), index=1
})";
  ExpectExpands(text);
  std::unique_ptr<HloModule> m = Parse(text);
  ASSERT_TRUE(ExpandNarrowTypes(m.get()).ok());
  // The loop still carries the narrow value; only the add computes wider.
  EXPECT_THAT(m->ToString(), HasSubstr("(s32[], f8e4m3fnuz[4]{0}) while("));
  EXPECT_THAT(m->ToString(), HasSubstr("f32[4]{0} add("));
}

TEST(NarrowTypeExpansionTest, CalledComputationsWidenWithTheirOps) {
  // reduce, reduce-window, scatter and sort on widened values, their
  // computations converting back to the narrow type and rounding once per
  // instruction: bit for bit the interpreter's per-element calls.
  const char* kText = R"(
HloModule calls
add8 {
  x = f8e5m2[] parameter(0)
  y = f8e5m2[] parameter(1)
  ROOT s = f8e5m2[] add(x, y)
}
mx {
  x = f8e4m3fn[] parameter(0)
  y = f8e4m3fn[] parameter(1)
  ROOT m = f8e4m3fn[] maximum(x, y)
}
add4 {
  x = s4[] parameter(0)
  y = s4[] parameter(1)
  ROOT s = s4[] add(x, y)
}
gt {
  a = f8e4m3fn[] parameter(0)
  b = f8e4m3fn[] parameter(1)
  c = s32[] parameter(2)
  d = s32[] parameter(3)
  ROOT g = pred[] compare(a, b), direction=GT
}
ENTRY e {
  a = f8e5m2[4,16] parameter(0)
  z = f8e5m2[] constant(0)
  sums = f8e5m2[4] reduce(a, z), dimensions={1}, to_apply=add8
  w = f8e4m3fn[4,16] parameter(1)
  lo = f8e4m3fn[] constant(-448)
  amax = f8e4m3fn[4,4] reduce-window(w, lo), window={size=1x4 stride=1x4}, to_apply=mx
  q = s4[6,4] parameter(2)
  i = s32[3,1] constant({{1},{4},{1}})
  u = s4[3,4] parameter(3)
  sc = s4[6,4] scatter(q, i, u), update_window_dims={1}, inserted_window_dims={0}, scatter_dims_to_operand_dims={0}, index_vector_dim=1, to_apply=add4
  ix = s32[4,16] iota(), iota_dimension=1
  top = (f8e4m3fn[4,16], s32[4,16]) sort(w, ix), dimensions={1}, to_apply=gt, is_stable=true
  ROOT t = (f8e5m2[4], f8e4m3fn[4,4], s4[6,4], (f8e4m3fn[4,16], s32[4,16])) tuple(sums, amax, sc, top)
})";
  ExpectExpands(kText);
  std::unique_ptr<HloModule> m = Parse(kText);
  ASSERT_NE(m, nullptr);
  ASSERT_TRUE(ExpandNarrowTypes(m.get()).ok());
  int widened = 0;
  for (const HloInstruction* h : m->entry_computation()->instructions()) {
    for (const HloComputation* callee : h->called_computations()) {
      ++widened;
      EXPECT_THAT(callee->name(), HasSubstr("_widened"));
      for (int64_t p = 0; p < callee->num_parameters(); ++p) {
        EXPECT_FALSE(HasNarrowLeaf(callee->parameter_instruction(p)->shape())) << callee->name();
      }
      EXPECT_FALSE(HasNarrowLeaf(callee->root_instruction()->shape())) << callee->name();
    }
  }
  EXPECT_EQ(widened, 4);
}

TEST(NarrowTypeExpansionTest, RefusesWhatTheInterpreterRefuses) {
  struct Case {
    const char* text;
    const char* message;
  } cases[] = {
      {R"(
HloModule select_and_scatter
ge {
  a = f8e5m2[] parameter(0)
  b = f8e5m2[] parameter(1)
  ROOT g = pred[] compare(a, b), direction=GE
}
add {
  a = f8e5m2[] parameter(0)
  b = f8e5m2[] parameter(1)
  ROOT s = f8e5m2[] add(a, b)
}
ENTRY e {
  x = f8e5m2[8] parameter(0)
  src = f8e5m2[4] parameter(1)
  z = f8e5m2[] constant(0)
  ROOT r = f8e5m2[8] select-and-scatter(x, src, z), window={size=2 stride=2}, select=ge, scatter=add
})",
       "instruction 'r' (select-and-scatter) on f8e5m2[8]: an op with a called computation over "
       "the narrow element types"},
      {R"(
HloModule pack
ENTRY e {
  x = s4[8,2] parameter(0)
  ROOT r = s8[8] bitcast-convert(x)
})",
       "instruction 'r' (bitcast-convert) on s8[8]: bitcast-convert from or to a type narrower "
       "than a byte"},
      {R"(
HloModule shift
ENTRY e {
  x = u4[8] parameter(0)
  ROOT r = u4[8] shift-right-logical(x, x)
})",
       "a bit-level op on an integer narrower than a byte"},
  };
  for (const Case& c : cases) {
    std::unique_ptr<HloModule> m = Parse(c.text);
    ASSERT_NE(m, nullptr) << c.text;
    absl::StatusOr<bool> changed = ExpandNarrowTypes(m.get());
    ASSERT_FALSE(changed.ok()) << c.text;
    EXPECT_EQ(changed.status().code(), absl::StatusCode::kUnimplemented);
    EXPECT_THAT(std::string(changed.status().message()), HasSubstr(c.message));
  }
}

TEST(NarrowTypeExpansionTest, ModulesWithoutNarrowTypesAreLeftAlone) {
  std::unique_ptr<HloModule> m = Parse(R"(
HloModule plain
ENTRY e {
  a = f32[4] parameter(0)
  b = bf16[4] convert(a)
  ROOT r = bf16[4] multiply(b, b)
})");
  ASSERT_NE(m, nullptr);
  const std::string before = m->ToString();
  absl::StatusOr<bool> changed = ExpandNarrowTypes(m.get());
  ASSERT_TRUE(changed.ok()) << changed.status();
  EXPECT_FALSE(*changed);
  EXPECT_EQ(m->ToString(), before);
}

}  // namespace
}  // namespace aot
