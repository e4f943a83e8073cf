#include "compiler/verifier/shape_inference.h"

#include <string>

#include "absl/strings/str_cat.h"
#include "compiler/verifier/test_util.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace aot {
namespace {

using verifier_test::FailsWith;
using verifier_test::FindInstruction;
using verifier_test::Infers;
using verifier_test::kAddF32;
using verifier_test::kAddS32;
using verifier_test::kArgmax;
using verifier_test::kGeF32;
using verifier_test::kLtF32;
using verifier_test::Module;
using verifier_test::Verifies;

// ---------------------------------------------------------------------------
// Leaves: parameter, constant, iota, replica-id, partition-id, custom-call.

TEST(ShapeInferenceTest, LeavesTakeTheirDeclaredShapes) {
  EXPECT_TRUE(Infers(Module(R"(
  p = (f32[2,3]{0,1}, s32[]) parameter(0)
  c = f32[2] constant({1, 2})
  i = s32[4,5] iota(), iota_dimension=1
  r = u32[] replica-id()
  pid = u32[] partition-id()
  cc = f32[7] custom-call(c), custom_call_target="foo"
  ROOT t = (f32[2], s32[4,5], u32[], u32[], f32[7]) tuple(c, i, r, pid, cc))"),
                     "p", "(f32[2,3], s32[])"));
  EXPECT_TRUE(Infers(Module(R"(
  ROOT c = f32[2] constant({1, 2}))"),
                     "c", "f32[2]"));
  EXPECT_TRUE(Infers(Module(R"(
  ROOT i = s32[4,5] iota(), iota_dimension=1)"),
                     "i", "s32[4,5]"));
  EXPECT_TRUE(Infers(Module(R"(
  ROOT r = u32[] replica-id())"),
                     "r", "u32[]"));
  EXPECT_TRUE(Infers(Module(R"(
  ROOT s = pred[] constant(true))"),
                     "s", "pred[]"));
}

// ---------------------------------------------------------------------------
// Bounded dynamic dimensions: the shapes keep their bounds.

TEST(ShapeInferenceTest, SetDimensionSizeTakesAnS32SizeOfOneDimension) {
  EXPECT_TRUE(Infers(Module(R"(
  p = f32[4,3] parameter(0)
  n = s32[] parameter(1)
  ROOT d = f32[<=4,3] set-dimension-size(p, n), dimensions={0})"),
                     "d", "f32[4,3]"));
  EXPECT_TRUE(FailsWith(Module(R"(
  p = f32[4,3] parameter(0)
  n = s64[] parameter(1)
  ROOT d = f32[<=4,3] set-dimension-size(p, n), dimensions={0})"),
                        {"instruction 'd' (set-dimension-size)", "must be s32[]"}));
  EXPECT_TRUE(FailsWith(Module(R"(
  p = f32[4,3] parameter(0)
  n = s32[] parameter(1)
  ROOT d = f32[4,3] set-dimension-size(p, n), dimensions={2})"),
                        {"instruction 'd' (set-dimension-size)", "out of range"}));
}

TEST(ShapeInferenceTest, DynamicReshapeTakesOneSizePerResultDimension) {
  EXPECT_TRUE(Infers(Module(R"(
  p = f32[2,3] parameter(0)
  n = s32[] parameter(1)
  ROOT r = f32[<=6] dynamic-reshape(p, n))"),
                     "r", "f32[6]"));
  EXPECT_TRUE(FailsWith(Module(R"(
  p = f32[2,3] parameter(0)
  n = s32[] parameter(1)
  ROOT r = f32[2,<=3] dynamic-reshape(p, n))"),
                        {"instruction 'r' (dynamic-reshape)",
                         "one size operand per result "
                         "dimension: 2",
                         "got 1"}));
}

TEST(ShapeInferenceTest, ShuffleKeepsItsOperandsShapeAndChecksItsMode) {
  EXPECT_TRUE(Infers(Module(R"(
  p = f32[3,2] parameter(0)
  ROOT s = f32[3,2]{0,1} shuffle(p), dimensions={1,0}, mode=rotate, shifts={1,-7})"),
                     "s", "f32[3,2]"));
  EXPECT_TRUE(Infers(Module(R"(
  p = s8[2,2,3] parameter(0)
  ROOT s = s8[2,2,3] shuffle(p), dimensions={0,2}, mode=permute, indices=u8[2,1,3,2]{3,2,1,0} { { {{1,2},{0,0},{1,1}} }, { {{0,1},{1,0},{0,2}} } })"),
                     "s", "s8[2,2,3]"));
  const struct {
    const char* attributes;
    const char* message;
  } bad[] = {
      {"dimensions={0}", "needs the attribute mode=<one of rotate, permute, multi_rotate>"},
      {"dimensions={0}, mode=reverse", "mode=reverse of 's': expected one of rotate"},
      {"dimensions={0,0}, mode=rotate, shifts={1,1}", "repeats dimension 0"},
      {"dimensions={2}, mode=rotate, shifts={1}", "dimension 2 out of range [0, 2)"},
      {"dimensions={0,1}, mode=rotate, shifts={1}", "has 1 shifts for 2 dimensions"},
      {"dimensions={0}, mode=rotate, shifts={1}, indices=s32[3]{0} {0,1,2}",
       "attribute indices= belongs to mode=permute, not mode=rotate"},
      {"dimensions={0}, mode=permute", "mode=permute needs the attribute indices="},
      {"dimensions={0}, mode=permute, indices=f32[3]{0} {0,1,2}", "expected an integer type"},
      {"dimensions={0}, mode=permute, indices=s32[3,2,2]{2,1,0} "
       "{{{0,0},{0,0}},{{1,1},{1,1}},{{2,2},{2,2}}}",
       "its last dimension must be 1"},
      {"dimensions={0,1}, mode=permute, indices=s32[3,2]{1,0} {{0,0},{1,1},{2,0}}",
       "expected rank 3"},
      {"dimensions={1}, mode=permute, indices=s32[2,2]{1,0} {{0,1},{1,0}}",
       "dimension 0 must be 3 (the operand's) or 1 (shared)"},
      {"dimensions={0}, mode=permute, indices=s32[3,1]{1,0} {{0},{3},{1}}",
       "indices hold 3 for dimension 0, out of range [0, 3)"},
      {"dimensions={1}, mode=multi_rotate, multi_shifts=pred[3,1]{1,0} {{1},{0},{1}}",
       "multi_shifts has shape pred[3,1]; expected an integer type"},
  };
  for (const auto& c : bad) {
    EXPECT_TRUE(FailsWith(Module(absl::StrCat(R"(
  p = f32[3,2] parameter(0)
  ROOT s = f32[3,2] shuffle(p), )",
                                              c.attributes)),
                          {"instruction 's' (shuffle)", c.message}))
        << c.attributes;
  }
}

TEST(ShapeInferenceTest, IotaNeedsOneInRangeDimension) {
  EXPECT_TRUE(FailsWith(Module(R"(
  ROOT i = s32[4,5] iota(), iota_dimension=2)"),
                        {"instruction 'i' (iota)", "iota_dimension 2", "out of range"}));
  EXPECT_TRUE(FailsWith(Module(R"(
  ROOT i = s32[4,5] iota())"),
                        {"instruction 'i' (iota)", "exactly one"}));
  EXPECT_TRUE(FailsWith(Module(R"(
  ROOT i = s32[] iota(), iota_dimension=0)"),
                        {"instruction 'i' (iota)", "scalars"}));
}

TEST(ShapeInferenceTest, ReplicaIdIsU32Scalar) {
  EXPECT_TRUE(
      FailsWith(Module(R"(
  ROOT r = s32[] replica-id())"),
                {"instruction 'r' (replica-id)", "declared shape s32[]", "inferred shape u32[]"}));
  EXPECT_TRUE(FailsWith(Module(R"(
  p = f32[] parameter(0)
  ROOT r = u32[] partition-id(p))"),
                        {"instruction 'r' (partition-id)", "expects 0 operands but has 1"}));
}

TEST(ShapeInferenceTest, ConstantLiteralMustMatchDeclaredShape) {
  auto module = ParseHloModule(Module(R"(
  ROOT c = f32[2] constant({1, 2}))"));
  ASSERT_TRUE(module.ok()) << module.status();
  HloInstruction* c = (*module)->entry_computation()->root_instruction();
  *c->mutable_shape() = Shape(F32, {3});
  EXPECT_TRUE(FailsWith(**module, {"instruction 'c' (constant)", "literal has shape f32[2]",
                                   "declared shape is f32[3]"}));
  c->mutable_attrs()->literal.reset();
  EXPECT_TRUE(FailsWith(**module, {"instruction 'c' (constant)", "no literal"}));
}

// ---------------------------------------------------------------------------
// Tuples.

TEST(ShapeInferenceTest, TupleAndGetTupleElement) {
  const std::string text = Module(R"(
  a = f32[2]{0} parameter(0)
  b = s32[] parameter(1)
  t = (f32[2], s32[]) tuple(a, b)
  e = () tuple()
  n = ((f32[2], s32[]), ()) tuple(t, e)
  g = s32[] get-tuple-element(t), index=1
  ROOT g2 = () get-tuple-element(n), index=1)");
  EXPECT_TRUE(Infers(text, "t", "(f32[2], s32[])"));
  EXPECT_TRUE(Infers(text, "e", "()"));
  EXPECT_TRUE(Infers(text, "n", "((f32[2], s32[]), ())"));
  EXPECT_TRUE(Infers(text, "g", "s32[]"));
  EXPECT_TRUE(Infers(text, "g2", "()"));
}

TEST(ShapeInferenceTest, TupleIndexOutOfRange) {
  EXPECT_TRUE(FailsWith(
      Module(R"(
  a = f32[2] parameter(0)
  t = (f32[2], f32[2]) tuple(a, a)
  ROOT g = f32[2] get-tuple-element(t), index=2)"),
      {"instruction 'g' (get-tuple-element)", "tuple index 2 is out of range", "2 elements"}));
  EXPECT_TRUE(FailsWith(Module(R"(
  a = f32[2] parameter(0)
  ROOT g = f32[2] get-tuple-element(a), index=0)"),
                        {"instruction 'g' (get-tuple-element)", "expected a tuple"}));
  EXPECT_TRUE(FailsWith(Module(R"(
  a = f32[2] parameter(0)
  ROOT t = (f32[2], s32[2]) tuple(a, a))"),
                        {"instruction 't' (tuple)", "declared shape (f32[2], s32[2])",
                         "inferred shape (f32[2], f32[2])"}));
}

// ---------------------------------------------------------------------------
// Elementwise unary.

TEST(ShapeInferenceTest, UnaryOpsKeepTheOperandShape) {
  const std::string text = Module(R"(
  f = f32[2,3] parameter(0)
  s = s32[2,3] parameter(1)
  u = u8[2,3] parameter(2)
  p = pred[2,3] parameter(3)
  h = bf16[] parameter(4)
  exp = f32[2,3] exponential(f)
  log = f32[2,3] log(f)
  sin = f32[2,3] sine(f)
  cos = f32[2,3] cosine(f)
  tan = f32[2,3] tan(f)
  tanh = f32[2,3] tanh(f)
  logistic = f32[2,3] logistic(f)
  sqrt = f32[2,3] sqrt(f)
  rsqrt = f32[2,3] rsqrt(f)
  cbrt = f32[2,3] cbrt(f)
  erf = f32[2,3] erf(f)
  expm1 = f32[2,3] exponential-minus-one(f)
  log1p = f32[2,3] log-plus-one(f)
  floor = f32[2,3] floor(f)
  ceil = f32[2,3] ceil(f)
  rafz = f32[2,3] round-nearest-afz(f)
  reven = bf16[] round-nearest-even(h)
  absf = f32[2,3] abs(f)
  abss = s32[2,3] abs(s)
  negs = s32[2,3] negate(s)
  negu = u8[2,3] negate(u)
  sign = s32[2,3] sign(s)
  nots = s32[2,3] not(s)
  notp = pred[2,3] not(p)
  popcnt = u8[2,3] popcnt(u)
  clz = s32[2,3] count-leading-zeros(s)
  fin = pred[2,3] is-finite(f)
  copy = pred[2,3] copy(p)
  rp = f32[2,3] reduce-precision(f), exponent_bits=5, mantissa_bits=10
  ROOT t = (f32[2,3], pred[2,3]) tuple(rp, fin))");
  for (const char* name :
       {"exp", "log", "sin", "cos", "tan", "tanh", "logistic", "sqrt", "rsqrt", "cbrt", "erf",
        "expm1", "log1p", "floor", "ceil", "rafz", "absf", "rp"}) {
    EXPECT_TRUE(Infers(text, name, "f32[2,3]")) << name;
  }
  EXPECT_TRUE(Infers(text, "reven", "bf16[]"));
  EXPECT_TRUE(Infers(text, "abss", "s32[2,3]"));
  EXPECT_TRUE(Infers(text, "negs", "s32[2,3]"));
  EXPECT_TRUE(Infers(text, "negu", "u8[2,3]"));
  EXPECT_TRUE(Infers(text, "sign", "s32[2,3]"));
  EXPECT_TRUE(Infers(text, "nots", "s32[2,3]"));
  EXPECT_TRUE(Infers(text, "notp", "pred[2,3]"));
  EXPECT_TRUE(Infers(text, "popcnt", "u8[2,3]"));
  EXPECT_TRUE(Infers(text, "clz", "s32[2,3]"));
  EXPECT_TRUE(Infers(text, "fin", "pred[2,3]"));
  EXPECT_TRUE(Infers(text, "copy", "pred[2,3]"));
}

TEST(ShapeInferenceTest, UnaryOpsRejectWrongElementTypes) {
  struct Case {
    const char* instruction;
    const char* expected;
  };
  const Case cases[] = {
      {"ROOT x = s32[2] exponential(s)", "expected a floating-point or complex type"},
      {"ROOT x = s32[2] floor(s)", "expected a floating-point type"},
      {"ROOT x = s32[2] round-nearest-even(s)", "expected a floating-point type"},
      {"ROOT x = s32[2] sqrt(s)", "expected a floating-point or complex type"},
      {"ROOT x = u32[2] abs(u)", "expected a signed integer, floating-point or complex type"},
      {"ROOT x = u32[2] sign(u)", "expected a signed integer, floating-point or complex type"},
      {"ROOT x = pred[2] negate(p)", "expected an integer, floating-point or complex type"},
      {"ROOT x = f32[2] not(f)", "expected pred or an integer type"},
      {"ROOT x = f32[2] popcnt(f)", "expected an integer type"},
      {"ROOT x = pred[2] count-leading-zeros(p)", "expected an integer type"},
      {"ROOT x = pred[2] is-finite(s)", "expected a floating-point type"},
      {"ROOT x = s32[2] reduce-precision(s), exponent_bits=5, mantissa_bits=2",
       "expected a floating-point type"},
  };
  for (const Case& c : cases) {
    const std::string text = Module(absl::StrCat(R"(
  f = f32[2] parameter(0)
  s = s32[2] parameter(1)
  u = u32[2] parameter(2)
  p = pred[2] parameter(3)
  )",
                                                 c.instruction));
    EXPECT_TRUE(FailsWith(text, {"instruction 'x' (", "operand 0 '", c.expected})) << c.instruction;
  }
}

TEST(ShapeInferenceTest, UnaryOpsNeedArraysAndKeepDims) {
  EXPECT_TRUE(
      FailsWith(Module(R"(
  a = f32[2] parameter(0)
  t = (f32[2]) tuple(a)
  ROOT x = f32[2] exponential(t))"),
                {"instruction 'x' (exponential)", "has shape (f32[2])", "expected an array"}));
  EXPECT_TRUE(
      FailsWith(Module(R"(
  a = f32[2] parameter(0)
  ROOT x = f32[3] negate(a))"),
                {"instruction 'x' (negate)", "declared shape f32[3]", "inferred shape f32[2]"}));
  EXPECT_TRUE(FailsWith(Module(R"(
  a = f32[2] parameter(0)
  ROOT x = pred[2] is-finite(a, a))"),
                        {"instruction 'x' (is-finite)", "expects 1 operand but has 2"}));
  // copy takes tuples.
  EXPECT_TRUE(Infers(Module(R"(
  a = f32[2] parameter(0)
  t = (f32[2], f32[2]) tuple(a, a)
  ROOT x = (f32[2], f32[2]) copy(t))"),
                     "x", "(f32[2], f32[2])"));
}

TEST(ShapeInferenceTest, ReducePrecisionBits) {
  EXPECT_TRUE(FailsWith(Module(R"(
  a = f32[2] parameter(0)
  ROOT x = f32[2] reduce-precision(a), exponent_bits=0, mantissa_bits=3)"),
                        {"instruction 'x' (reduce-precision)", "exponent_bits=0"}));
  EXPECT_TRUE(FailsWith(Module(R"(
  a = f32[2] parameter(0)
  ROOT x = f32[2] reduce-precision(a), exponent_bits=8, mantissa_bits=-1)"),
                        {"instruction 'x' (reduce-precision)", "mantissa_bits=-1"}));
  EXPECT_TRUE(Verifies(Module(R"(
  a = bf16[2] parameter(0)
  ROOT x = bf16[2] reduce-precision(a), exponent_bits=8, mantissa_bits=0)")));
}

// ---------------------------------------------------------------------------
// Elementwise binary and compare.

TEST(ShapeInferenceTest, BinaryOpsOnMatchingShapes) {
  const std::string text = Module(R"(
  f = f32[2,0] parameter(0)
  s = s32[] parameter(1)
  p = pred[3] parameter(2)
  u = u16[4] parameter(3)
  add = f32[2,0] add(f, f)
  sub = f32[2,0] subtract(f, f)
  mul = s32[] multiply(s, s)
  div = s32[] divide(s, s)
  rem = f32[2,0] remainder(f, f)
  pow = f32[2,0] power(f, f)
  max = u16[4] maximum(u, u)
  min = pred[3] minimum(p, p)
  padd = pred[3] add(p, p)
  atan2 = f32[2,0] atan2(f, f)
  and = pred[3] and(p, p)
  or = u16[4] or(u, u)
  xor = s32[] xor(s, s)
  shl = u16[4] shift-left(u, u)
  sra = s32[] shift-right-arithmetic(s, s)
  srl = u16[4] shift-right-logical(u, u)
  ROOT t = (f32[2,0]) tuple(add))");
  for (const char* name : {"add", "sub", "rem", "pow", "atan2"}) {
    EXPECT_TRUE(Infers(text, name, "f32[2,0]")) << name;
  }
  for (const char* name : {"mul", "div", "xor", "sra"}) {
    EXPECT_TRUE(Infers(text, name, "s32[]")) << name;
  }
  for (const char* name : {"max", "or", "shl", "srl"}) {
    EXPECT_TRUE(Infers(text, name, "u16[4]")) << name;
  }
  for (const char* name : {"min", "padd", "and"}) {
    EXPECT_TRUE(Infers(text, name, "pred[3]")) << name;
  }
}

TEST(ShapeInferenceTest, BinaryOpsRejectMismatches) {
  const char* params = R"(
  f = f32[2] parameter(0)
  g = f32[3] parameter(1)
  s = s32[2] parameter(2)
  p = pred[2] parameter(3)
  c = f32[] parameter(4)
  )";
  EXPECT_TRUE(
      FailsWith(Module(absl::StrCat(params, "ROOT x = f32[2] add(f, s)")),
                {"instruction 'x' (add)", "operand 1 has shape s32[2] but operand 0 has f32[2]"}));
  EXPECT_TRUE(FailsWith(
      Module(absl::StrCat(params, "ROOT x = f32[2] multiply(f, g)")),
      {"instruction 'x' (multiply)", "operand 1 has shape f32[3] but operand 0 has f32[2]"}));
  // No implicit broadcast of scalars in HLO.
  EXPECT_TRUE(FailsWith(
      Module(absl::StrCat(params, "ROOT x = f32[2] maximum(f, c)")),
      {"instruction 'x' (maximum)", "operand 1 has shape f32[] but operand 0 has f32[2]"}));
  EXPECT_TRUE(FailsWith(Module(absl::StrCat(params, "ROOT x = f32[2] and(f, f)")),
                        {"instruction 'x' (and)", "pred or an integer type"}));
  EXPECT_TRUE(FailsWith(Module(absl::StrCat(params, "ROOT x = f32[2] shift-left(f, f)")),
                        {"instruction 'x' (shift-left)", "expected an integer type"}));
  EXPECT_TRUE(FailsWith(Module(absl::StrCat(params, "ROOT x = s32[2] atan2(s, s)")),
                        {"instruction 'x' (atan2)", "expected a floating-point type"}));
  EXPECT_TRUE(FailsWith(Module(absl::StrCat(params, "ROOT x = pred[2] subtract(p, p)")),
                        {"instruction 'x' (subtract)", "has element type pred"}));
  EXPECT_TRUE(FailsWith(Module(absl::StrCat(params, "ROOT x = pred[2] divide(p, p)")),
                        {"instruction 'x' (divide)", "has element type pred"}));
  EXPECT_TRUE(FailsWith(Module(absl::StrCat(params, "ROOT x = f32[2] add(f)")),
                        {"instruction 'x' (add)", "expects 2 operands but has 1"}));
  EXPECT_TRUE(FailsWith(Module(absl::StrCat(params, "ROOT x = f32[2] add(f, f, f)")),
                        {"instruction 'x' (add)", "expects 2 operands but has 3"}));
  EXPECT_TRUE(
      FailsWith(Module(absl::StrCat(params, "ROOT x = f32[3] add(f, f)")),
                {"instruction 'x' (add)", "declared shape f32[3]", "inferred shape f32[2]"}));
}

TEST(ShapeInferenceTest, Compare) {
  const char* params = R"(
  f = f32[2] parameter(0)
  s = s32[2] parameter(1)
  u = u32[2] parameter(2)
  p = pred[2] parameter(3)
  )";
  const std::string ok = Module(absl::StrCat(params, R"(
  a = pred[2] compare(f, f), direction=LT
  b = pred[2] compare(f, f), direction=EQ, type=TOTALORDER
  c = pred[2] compare(s, s), direction=GE, type=SIGNED
  d = pred[2] compare(u, u), direction=NE, type=UNSIGNED
  e = pred[2] compare(p, p), direction=EQ, type=UNSIGNED
  ROOT g = pred[2] compare(f, f), direction=GT, type=FLOAT)"));
  for (const char* name : {"a", "b", "c", "d", "e", "g"}) {
    EXPECT_TRUE(Infers(ok, name, "pred[2]")) << name;
  }
  EXPECT_TRUE(FailsWith(Module(absl::StrCat(params, "ROOT x = pred[2] compare(f, f)")),
                        {"instruction 'x' (compare)", "missing comparison direction"}));
  EXPECT_TRUE(FailsWith(
      Module(absl::StrCat(params, "ROOT x = pred[2] compare(f, s), direction=EQ")),
      {"instruction 'x' (compare)", "operand 1 has shape s32[2] but operand 0 has f32[2]"}));
  EXPECT_TRUE(FailsWith(
      Module(absl::StrCat(params,
                          "ROOT x = pred[2] compare(u, u), direction=LT, "
                          "type=SIGNED")),
      {"instruction 'x' (compare)", "comparison type SIGNED is not valid for element type u32"}));
  EXPECT_TRUE(FailsWith(Module(absl::StrCat(params,
                                            "ROOT x = pred[2] compare(s, s), direction=LT, "
                                            "type=FLOAT")),
                        {"instruction 'x' (compare)", "FLOAT is not valid for element type s32"}));
  EXPECT_TRUE(
      FailsWith(Module(absl::StrCat(params, "ROOT x = f32[2] compare(f, f), direction=LT")),
                {"instruction 'x' (compare)", "declared shape f32[2]", "inferred shape pred[2]"}));
}

TEST(ShapeInferenceTest, SelectAndClamp) {
  const char* params = R"(
  p = pred[2] parameter(0)
  ps = pred[] parameter(1)
  f = f32[2] parameter(2)
  s = s32[2] parameter(3)
  c = f32[] parameter(4)
  p3 = pred[3] parameter(5)
  )";
  const std::string ok = Module(absl::StrCat(params, R"(
  a = f32[2] select(p, f, f)
  b = s32[2] select(ps, s, s)
  cl = f32[2] clamp(c, f, c)
  cl2 = f32[2] clamp(f, f, f)
  ROOT t = (f32[2], s32[2], f32[2], f32[2]) tuple(a, b, cl, cl2))"));
  EXPECT_TRUE(Infers(ok, "a", "f32[2]"));
  EXPECT_TRUE(Infers(ok, "b", "s32[2]"));
  EXPECT_TRUE(Infers(ok, "cl", "f32[2]"));
  EXPECT_TRUE(Infers(ok, "cl2", "f32[2]"));

  EXPECT_TRUE(FailsWith(Module(absl::StrCat(params, "ROOT x = f32[2] select(s, f, f)")),
                        {"instruction 'x' (select)", "expected element type pred"}));
  EXPECT_TRUE(FailsWith(
      Module(absl::StrCat(params, "ROOT x = f32[2] select(p, f, s)")),
      {"instruction 'x' (select)", "operand 2 has shape s32[2] but operand 1 has f32[2]"}));
  EXPECT_TRUE(FailsWith(Module(absl::StrCat(params, "ROOT x = f32[2] select(p3, f, f)")),
                        {"instruction 'x' (select)", "predicate has shape pred[3]"}));
  EXPECT_TRUE(FailsWith(Module(absl::StrCat(params, "ROOT x = f32[2] clamp(c, f, p3)")),
                        {"instruction 'x' (clamp)", "element types must match"}));
  EXPECT_TRUE(FailsWith(Module(absl::StrCat(params, R"(
  g = f32[3] parameter(6)
  ROOT x = f32[2] clamp(g, f, c))")),
                        {"instruction 'x' (clamp)", "min (operand 0 'g') has shape f32[3]",
                         "must be a scalar or the same shape"}));
}

// ---------------------------------------------------------------------------
// Conversions.

TEST(ShapeInferenceTest, ConvertAndBitcastConvert) {
  const std::string ok = Module(R"(
  f = f32[2,3] parameter(0)
  u8s = u8[2,4] parameter(1)
  h = f16[5,2] parameter(2)
  c = bf16[2,3] convert(f)
  c2 = pred[2,3] convert(f)
  b = s32[2,3] bitcast-convert(f)
  narrow = u8[2,3,4] bitcast-convert(f)
  wide = f32[2] bitcast-convert(u8s)
  wide2 = s32[5] bitcast-convert(h)
  ROOT t = (bf16[2,3]) tuple(c))");
  EXPECT_TRUE(Infers(ok, "c", "bf16[2,3]"));
  EXPECT_TRUE(Infers(ok, "c2", "pred[2,3]"));
  EXPECT_TRUE(Infers(ok, "b", "s32[2,3]"));
  EXPECT_TRUE(Infers(ok, "narrow", "u8[2,3,4]"));
  EXPECT_TRUE(Infers(ok, "wide", "f32[2]"));
  EXPECT_TRUE(Infers(ok, "wide2", "s32[5]"));

  EXPECT_TRUE(FailsWith(
      Module(R"(
  f = f32[2,3] parameter(0)
  ROOT c = s32[3,2] convert(f))"),
      {"instruction 'c' (convert)", "declared shape s32[3,2]", "inferred shape s32[2,3]"}));
  EXPECT_TRUE(FailsWith(Module(R"(
  f = s16[3] parameter(0)
  ROOT c = f32[3] bitcast-convert(f))"),
                        {"instruction 'c' (bitcast-convert)", "minor-most dimension of size 2"}));
  EXPECT_TRUE(FailsWith(
      Module(R"(
  f = f32[3] parameter(0)
  ROOT c = u8[3] bitcast-convert(f))"),
      {"instruction 'c' (bitcast-convert)", "declared shape u8[3]", "inferred shape u8[3,4]"}));
  EXPECT_TRUE(FailsWith(Module(R"(
  f = f32[3] parameter(0)
  t = (f32[3]) tuple(f)
  ROOT c = (f32[3]) convert(t))"),
                        {"instruction 'c' (convert)", "expected an array"}));
}

// ---------------------------------------------------------------------------
// Shape manipulation.

TEST(ShapeInferenceTest, Broadcast) {
  const std::string ok = Module(R"(
  v = f32[3] parameter(0)
  s = f32[] parameter(1)
  m = f32[2,3] parameter(2)
  a = f32[2,3] broadcast(v), dimensions={1}
  b = f32[4,0] broadcast(s), dimensions={}
  c = f32[2,5,3] broadcast(m), dimensions={0,2}
  ROOT t = (f32[2,3]) tuple(a))");
  EXPECT_TRUE(Infers(ok, "a", "f32[2,3]"));
  EXPECT_TRUE(Infers(ok, "b", "f32[4,0]"));
  EXPECT_TRUE(Infers(ok, "c", "f32[2,5,3]"));

  const char* params = R"(
  v = f32[3] parameter(0)
  m = f32[2,3] parameter(1)
  )";
  EXPECT_TRUE(FailsWith(
      Module(absl::StrCat(params, "ROOT x = f32[3,2] broadcast(v), dimensions={1}")),
      {"instruction 'x' (broadcast)", "operand dimension 0 has size 3", "result dimension 1"}));
  EXPECT_TRUE(
      FailsWith(Module(absl::StrCat(params, "ROOT x = f32[2,3] broadcast(v), dimensions={2}")),
                {"instruction 'x' (broadcast)", "broadcast dimension 2", "out of range"}));
  EXPECT_TRUE(FailsWith(
      Module(absl::StrCat(params, "ROOT x = f32[2,3] broadcast(v), dimensions={0,1}")),
      {"instruction 'x' (broadcast)", "has 2 entries but the operand f32[3] has rank 1"}));
  EXPECT_TRUE(
      FailsWith(Module(absl::StrCat(params, "ROOT x = f32[3,2] broadcast(m), dimensions={1,0}")),
                {"instruction 'x' (broadcast)", "strictly increasing"}));
  EXPECT_TRUE(FailsWith(
      Module(absl::StrCat(params, "ROOT x = s32[2,3] broadcast(v), dimensions={1}")),
      {"instruction 'x' (broadcast)", "declared shape s32[2,3]", "inferred shape f32[2,3]"}));
}

TEST(ShapeInferenceTest, ReshapeBitcastTranspose) {
  const std::string ok = Module(R"(
  m = f32[2,3,4] parameter(0)
  s = f32[] parameter(1)
  z = f32[0,3] parameter(2)
  r = f32[6,4] reshape(m)
  r1 = f32[1,1] reshape(s)
  rz = f32[3,0,7] reshape(z)
  bc = s32[24] bitcast(m)
  t = f32[4,2,3] transpose(m), dimensions={2,0,1}
  ROOT tt = (f32[6,4]) tuple(r))");
  EXPECT_TRUE(Infers(ok, "r", "f32[6,4]"));
  EXPECT_TRUE(Infers(ok, "r1", "f32[1,1]"));
  EXPECT_TRUE(Infers(ok, "rz", "f32[3,0,7]"));
  EXPECT_TRUE(Infers(ok, "bc", "s32[24]"));
  EXPECT_TRUE(Infers(ok, "t", "f32[4,2,3]"));

  const char* params = "\n  m = f32[2,3,4] parameter(0)\n";
  EXPECT_TRUE(FailsWith(Module(absl::StrCat(params, "ROOT x = f32[5,5] reshape(m)")),
                        {"instruction 'x' (reshape)", "24 elements", "25 elements"}));
  EXPECT_TRUE(
      FailsWith(Module(absl::StrCat(params, "ROOT x = s32[24] reshape(m)")),
                {"instruction 'x' (reshape)", "declared shape s32[24]", "inferred shape f32[24]"}));
  EXPECT_TRUE(FailsWith(Module(absl::StrCat(params, "ROOT x = f64[24] bitcast(m)")),
                        {"instruction 'x' (bitcast)", "96 bytes", "192 bytes"}));
  EXPECT_TRUE(FailsWith(
      Module(absl::StrCat(params, "ROOT x = f32[2,3,4] transpose(m), dimensions={0,0,1}")),
      {"instruction 'x' (transpose)", "repeats dimension 0"}));
  EXPECT_TRUE(
      FailsWith(Module(absl::StrCat(params, "ROOT x = f32[2,3] transpose(m), dimensions={0,1}")),
                {"instruction 'x' (transpose)", "not a permutation"}));
  EXPECT_TRUE(FailsWith(Module(absl::StrCat(params,
                                            "ROOT x = f32[2,3,4] transpose(m), dimensions={0,1,2}\n"
                                            "  y = f32[2,3,4] transpose(m), dimensions={0,1,3}")),
                        {"instruction 'y' (transpose)", "dimension 3 out of range"}));
}

TEST(ShapeInferenceTest, Slice) {
  const std::string ok = Module(R"(
  m = f32[10,4] parameter(0)
  a = f32[4,4] slice(m), slice={[2:6], [0:4]}
  b = f32[3,2] slice(m), slice={[0:10:4], [1:4:2]}
  c = f32[0,4] slice(m), slice={[5:5], [0:4]}
  d = f32[1,1] slice(m), slice={[9:10:7], [3:4:100]}
  ROOT t = (f32[4,4]) tuple(a))");
  EXPECT_TRUE(Infers(ok, "a", "f32[4,4]"));
  EXPECT_TRUE(Infers(ok, "b", "f32[3,2]"));
  EXPECT_TRUE(Infers(ok, "c", "f32[0,4]"));
  EXPECT_TRUE(Infers(ok, "d", "f32[1,1]"));

  const char* params = "\n  m = f32[10,4] parameter(0)\n";
  EXPECT_TRUE(FailsWith(
      Module(absl::StrCat(params, "ROOT x = f32[4,4] slice(m), slice={[8:12], [0:4]}")),
      {"instruction 'x' (slice)", "slice dimension 0 [8:12:1] is out of range", "size 10"}));
  EXPECT_TRUE(
      FailsWith(Module(absl::StrCat(params, "ROOT x = f32[4,4] slice(m), slice={[6:2], [0:4]}")),
                {"instruction 'x' (slice)", "out of range"}));
  EXPECT_TRUE(
      FailsWith(Module(absl::StrCat(params, "ROOT x = f32[4,4] slice(m), slice={[0:4:0], [0:4]}")),
                {"instruction 'x' (slice)", "stride 0"}));
  EXPECT_TRUE(FailsWith(Module(absl::StrCat(params, "ROOT x = f32[4] slice(m), slice={[0:4]}")),
                        {"instruction 'x' (slice)", "1 dimension specs", "rank 2"}));
  EXPECT_TRUE(FailsWith(Module(absl::StrCat(params, "ROOT x = f32[10,4] slice(m)")),
                        {"instruction 'x' (slice)", "0 dimension specs"}));
}

TEST(ShapeInferenceTest, DynamicSliceAndUpdate) {
  const char* params = R"(
  m = f32[10,4] parameter(0)
  i = s32[] parameter(1)
  j = s32[] parameter(2)
  k = s64[] parameter(3)
  u = f32[3,4] parameter(4)
  v = s32[1] parameter(5)
  )";
  const std::string ok = Module(absl::StrCat(params, R"(
  ds = f32[3,2] dynamic-slice(m, i, j), dynamic_slice_sizes={3,2}
  ds0 = f32[0,4] dynamic-slice(m, i, j), dynamic_slice_sizes={0,4}
  dus = f32[10,4] dynamic-update-slice(m, u, k, k)
  ROOT t = (f32[3,2]) tuple(ds))"));
  EXPECT_TRUE(Infers(ok, "ds", "f32[3,2]"));
  EXPECT_TRUE(Infers(ok, "ds0", "f32[0,4]"));
  EXPECT_TRUE(Infers(ok, "dus", "f32[10,4]"));

  EXPECT_TRUE(
      FailsWith(Module(absl::StrCat(
                    params, "ROOT x = f32[3,2] dynamic-slice(m, i), dynamic_slice_sizes={3,2}")),
                {"instruction 'x' (dynamic-slice)", "expects 2 start indices", "has 1"}));
  EXPECT_TRUE(FailsWith(Module(absl::StrCat(params,
                                            "ROOT x = f32[3,2] dynamic-slice(m, i, k), "
                                            "dynamic_slice_sizes={3,2}")),
                        {"instruction 'x' (dynamic-slice)", "same type"}));
  EXPECT_TRUE(FailsWith(Module(absl::StrCat(params,
                                            "ROOT x = f32[3,2] dynamic-slice(m, i, v), "
                                            "dynamic_slice_sizes={3,2}")),
                        {"instruction 'x' (dynamic-slice)", "start index operand 2 'v'",
                         "expected an integer scalar"}));
  EXPECT_TRUE(
      FailsWith(Module(absl::StrCat(params,
                                    "ROOT x = f32[3,2] dynamic-slice(m, i, j), "
                                    "dynamic_slice_sizes={3,5}")),
                {"instruction 'x' (dynamic-slice)", "dynamic slice size 5 in dimension 1"}));
  EXPECT_TRUE(FailsWith(Module(absl::StrCat(params, "ROOT x = f32[3,2] dynamic-slice(m, i, j)")),
                        {"instruction 'x' (dynamic-slice)", "dynamic_slice_sizes={}"}));
  EXPECT_TRUE(FailsWith(Module(absl::StrCat(params, R"(
  big = f32[11,4] parameter(6)
  ROOT x = f32[10,4] dynamic-update-slice(m, big, i, j))")),
                        {"instruction 'x' (dynamic-update-slice)", "larger than the operand"}));
  EXPECT_TRUE(FailsWith(Module(absl::StrCat(params, R"(
  su = s32[3,4] parameter(6)
  ROOT x = f32[10,4] dynamic-update-slice(m, su, i, j))")),
                        {"instruction 'x' (dynamic-update-slice)", "element types must match"}));
  EXPECT_TRUE(FailsWith(Module(absl::StrCat(params, R"(
  ROOT x = f32[10,4] dynamic-update-slice(m, v, i, j))")),
                        {"instruction 'x' (dynamic-update-slice)"}));
}

TEST(ShapeInferenceTest, Concatenate) {
  const char* params = R"(
  a = f32[2,3] parameter(0)
  b = f32[2,5] parameter(1)
  z = f32[2,0] parameter(2)
  c = f32[4,3] parameter(3)
  s = s32[2,3] parameter(4)
  )";
  const std::string ok = Module(absl::StrCat(params, R"(
  x = f32[2,8] concatenate(a, b, z), dimensions={1}
  y = f32[6,3] concatenate(a, c), dimensions={0}
  one = f32[2,3] concatenate(a), dimensions={1}
  ROOT t = (f32[2,8]) tuple(x))"));
  EXPECT_TRUE(Infers(ok, "x", "f32[2,8]"));
  EXPECT_TRUE(Infers(ok, "y", "f32[6,3]"));
  EXPECT_TRUE(Infers(ok, "one", "f32[2,3]"));

  EXPECT_TRUE(
      FailsWith(Module(absl::StrCat(params, "ROOT x = f32[2,8] concatenate(a, b), dimensions={0}")),
                {"instruction 'x' (concatenate)", "operand 1 has shape f32[2,5]",
                 "all dimensions except 0 must be equal"}));
  EXPECT_TRUE(
      FailsWith(Module(absl::StrCat(params, "ROOT x = f32[2,6] concatenate(a, s), dimensions={1}")),
                {"instruction 'x' (concatenate)", "element types must match"}));
  EXPECT_TRUE(FailsWith(Module(absl::StrCat(params, "ROOT x = f32[2,8] concatenate(a, b)")),
                        {"instruction 'x' (concatenate)", "exactly one concatenate dimension"}));
  EXPECT_TRUE(
      FailsWith(Module(absl::StrCat(params, "ROOT x = f32[2,8] concatenate(a, b), dimensions={2}")),
                {"instruction 'x' (concatenate)", "dimension 2 is out of range"}));
  EXPECT_TRUE(
      FailsWith(Module(absl::StrCat(params, "ROOT x = f32[2,8] concatenate(), dimensions={0}")),
                {"instruction 'x' (concatenate)", "at least one operand"}));
}

TEST(ShapeInferenceTest, Pad) {
  const char* params = R"(
  m = f32[4,3] parameter(0)
  z = f32[0] parameter(1)
  c = f32[] parameter(2)
  )";
  const std::string ok = Module(absl::StrCat(params, R"(
  a = f32[7,3] pad(m, c), padding=1_2x0_0
  b = f32[10,3] pad(m, c), padding=0_0_2x-1_-1_1
  e = f32[5] pad(z, c), padding=2_3_4
  n = f32[0,3] pad(m, c), padding=-2_-2x0_0
  ROOT t = (f32[7,3]) tuple(a))"));
  EXPECT_TRUE(Infers(ok, "a", "f32[7,3]"));
  // 4 + 3 * 2 = 10 and -1 - 1 + 3 + 2 * 1 = 3.
  EXPECT_TRUE(Infers(ok, "b", "f32[10,3]"));
  EXPECT_TRUE(Infers(ok, "e", "f32[5]"));
  EXPECT_TRUE(Infers(ok, "n", "f32[0,3]"));

  EXPECT_TRUE(
      FailsWith(Module(absl::StrCat(params, "ROOT x = f32[1,3] pad(m, c), padding=-3_-2x0_0")),
                {"instruction 'x' (pad)", "negative size -1"}));
  EXPECT_TRUE(
      FailsWith(Module(absl::StrCat(params, "ROOT x = f32[4,3] pad(m, m), padding=0_0x0_0")),
                {"instruction 'x' (pad)", "padding value (operand 1 'm') must be a scalar"}));
  EXPECT_TRUE(
      FailsWith(Module(absl::StrCat(params, "ROOT x = f32[4] pad(z, c), padding=0_0x0_0")),
                {"instruction 'x' (pad)", "2 dimensions but the operand f32[0] has rank 1"}));
  EXPECT_TRUE(FailsWith(Module(absl::StrCat(params, "ROOT x = f32[4,3] pad(m, c)")),
                        {"instruction 'x' (pad)", "missing padding config"}));
  EXPECT_TRUE(FailsWith(Module(absl::StrCat(params, R"(
  i = s32[] parameter(3)
  ROOT x = f32[4,3] pad(m, i), padding=0_0x0_0)")),
                        {"instruction 'x' (pad)", "element types must match"}));
}

TEST(ShapeInferenceTest, Reverse) {
  EXPECT_TRUE(Infers(Module(R"(
  m = f32[4,3] parameter(0)
  ROOT r = f32[4,3] reverse(m), dimensions={1,0})"),
                     "r", "f32[4,3]"));
  EXPECT_TRUE(FailsWith(Module(R"(
  m = f32[4,3] parameter(0)
  ROOT r = f32[4,3] reverse(m), dimensions={2})"),
                        {"instruction 'r' (reverse)", "out of range"}));
  EXPECT_TRUE(FailsWith(Module(R"(
  m = f32[4,3] parameter(0)
  ROOT r = f32[4,3] reverse(m), dimensions={1,1})"),
                        {"instruction 'r' (reverse)", "repeats dimension 1"}));
}

// ---------------------------------------------------------------------------
// Gather and scatter.

TEST(ShapeInferenceTest, Gather) {
  const std::string ok = Module(R"(
  op = f32[3,3] parameter(0)
  idx = s32[2] parameter(1)
  op3 = f32[3,4,5] parameter(2)
  idx3 = s64[2,6,2] parameter(3)
  bop = f32[5,4] parameter(4)
  bidx = s32[5,1] parameter(5)
  rows = f32[2,3] gather(op, idx), offset_dims={1}, collapsed_slice_dims={0}, start_index_map={0}, index_vector_dim=1, slice_sizes={1,3}
  g3 = f32[2,6,2,3] gather(op3, idx3), offset_dims={2,3}, collapsed_slice_dims={0}, start_index_map={0,2}, index_vector_dim=2, slice_sizes={1,2,3}
  g3b = f32[2,2,6,3] gather(op3, idx3), offset_dims={0,3}, collapsed_slice_dims={0}, start_index_map={0,2}, index_vector_dim=2, slice_sizes={1,2,3}
  g3c = f32[1,2,3,2,6] gather(op3, idx3), offset_dims={0,1,2}, collapsed_slice_dims={}, start_index_map={0,2}, index_vector_dim=2, slice_sizes={1,2,3}
  bat = f32[5] gather(bop, bidx), offset_dims={}, collapsed_slice_dims={1}, start_index_map={1}, operand_batching_dims={0}, start_indices_batching_dims={0}, index_vector_dim=1, slice_sizes={1,1}
  ROOT t = (f32[2,3]) tuple(rows))");
  EXPECT_TRUE(Infers(ok, "rows", "f32[2,3]"));
  EXPECT_TRUE(Infers(ok, "g3", "f32[2,6,2,3]"));
  EXPECT_TRUE(Infers(ok, "g3b", "f32[2,2,6,3]"));
  EXPECT_TRUE(Infers(ok, "g3c", "f32[1,2,3,2,6]"));
  EXPECT_TRUE(Infers(ok, "bat", "f32[5]"));

  const char* params = R"(
  op = f32[3,3] parameter(0)
  idx = s32[2] parameter(1)
  fidx = f32[2] parameter(2)
  )";
  auto gather = [&](absl::string_view attrs, absl::string_view operands = "op, idx") {
    return Module(absl::StrCat(params, "ROOT g = f32[2,3] gather(", operands, "), ", attrs));
  };
  EXPECT_TRUE(
      FailsWith(gather("offset_dims={1}, collapsed_slice_dims={0}, "
                       "start_index_map={0,1}, index_vector_dim=1, slice_sizes={1,3}"),
                {"instruction 'g' (gather)", "start_index_map={0,1} has 2 entries", "has size 1"}));
  EXPECT_TRUE(
      FailsWith(gather("offset_dims={1}, collapsed_slice_dims={0}, start_index_map={0}, "
                       "index_vector_dim=1, slice_sizes={1,4}"),
                {"instruction 'g' (gather)", "slice size 4 in dimension 1 is out of range"}));
  EXPECT_TRUE(
      FailsWith(gather("offset_dims={1}, collapsed_slice_dims={0}, start_index_map={0}, "
                       "index_vector_dim=1, slice_sizes={2,3}"),
                {"instruction 'g' (gather)", "collapsed slice dimension 0 has slice size 2"}));
  EXPECT_TRUE(FailsWith(gather("offset_dims={1}, collapsed_slice_dims={0}, start_index_map={0}, "
                               "index_vector_dim=1, slice_sizes={1,3}",
                               "op, fidx"),
                        {"instruction 'g' (gather)", "must have an integer element type"}));
  EXPECT_TRUE(FailsWith(gather("offset_dims={1}, collapsed_slice_dims={0}, start_index_map={0}, "
                               "index_vector_dim=3, slice_sizes={1,3}"),
                        {"instruction 'g' (gather)", "index_vector_dim=3 is out of range"}));
  EXPECT_TRUE(FailsWith(gather("offset_dims={1}, collapsed_slice_dims={}, start_index_map={0}, "
                               "index_vector_dim=1, slice_sizes={1,3}"),
                        {"instruction 'g' (gather)", "one entry per operand dimension"}));
  EXPECT_TRUE(
      FailsWith(gather("offset_dims={2}, collapsed_slice_dims={0}, start_index_map={0}, "
                       "index_vector_dim=1, slice_sizes={1,3}"),
                {"instruction 'g' (gather)", "offset_dims {2} has dimension 2 out of range"}));
  EXPECT_TRUE(FailsWith(gather("offset_dims={1}, collapsed_slice_dims={0}, start_index_map={5}, "
                               "index_vector_dim=1, slice_sizes={1,3}"),
                        {"instruction 'g' (gather)", "start_index_map {5}"}));
  EXPECT_TRUE(FailsWith(
      gather("offset_dims={1}, collapsed_slice_dims={0}, start_index_map={0}, "
             "index_vector_dim=1, slice_sizes={1,2}"),
      {"instruction 'g' (gather)", "declared shape f32[2,3]", "inferred shape f32[2,2]"}));
  EXPECT_TRUE(FailsWith(Module(R"(
  op = f32[3,4,5] parameter(0)
  idx = s32[2,2] parameter(1)
  ROOT g = f32[2,4,5] gather(op, idx), offset_dims={2,1}, collapsed_slice_dims={0}, start_index_map={0,1}, index_vector_dim=1, slice_sizes={1,4,5})"),
                        {"instruction 'g' (gather)", "offset_dims {2,1} must be sorted"}));
  EXPECT_TRUE(FailsWith(
      Module(R"(
  op = f32[5,4] parameter(0)
  idx = s32[6,1] parameter(1)
  ROOT g = f32[6] gather(op, idx), offset_dims={}, collapsed_slice_dims={1}, start_index_map={1}, operand_batching_dims={0}, start_indices_batching_dims={0}, index_vector_dim=1, slice_sizes={1,1})"),
      {"instruction 'g' (gather)", "operand batching dimension 0 has size 5", "has size 6"}));
}

TEST(ShapeInferenceTest, GatherWithoutDimensionNumbers) {
  auto module = ParseHloModule(Module(R"(
  op = f32[3,3] parameter(0)
  idx = s32[2] parameter(1)
  ROOT g = f32[2,3] gather(op, idx), offset_dims={1}, collapsed_slice_dims={0}, start_index_map={0}, index_vector_dim=1, slice_sizes={1,3})"));
  ASSERT_TRUE(module.ok()) << module.status();
  HloInstruction* g = (*module)->entry_computation()->root_instruction();
  ASSERT_TRUE(VerifyHloModule(**module).ok());
  g->mutable_attrs()->gather_dimension_numbers.reset();
  EXPECT_TRUE(
      FailsWith(**module, {"instruction 'g' (gather)", "missing gather dimension numbers"}));
}

TEST(ShapeInferenceTest, Scatter) {
  const std::string computations = absl::StrCat(kAddF32, kAddS32, kArgmax);
  const std::string ok = Module(R"(
  op = f32[3,3] parameter(0)
  idx = s32[2] parameter(1)
  upd = f32[2,3] parameter(2)
  iop = s32[3,3] parameter(3)
  iupd = s32[2,3] parameter(4)
  bop = f32[5,4] parameter(5)
  bidx = s32[5,1] parameter(6)
  bupd = f32[5] parameter(7)
  rows = f32[3,3] scatter(op, idx, upd), update_window_dims={1}, inserted_window_dims={0}, scatter_dims_to_operand_dims={0}, index_vector_dim=1, to_apply=add_f32
  two = (f32[3,3], s32[3,3]) scatter(op, iop, idx, upd, iupd), update_window_dims={1}, inserted_window_dims={0}, scatter_dims_to_operand_dims={0}, index_vector_dim=1, to_apply=argmax
  bat = f32[5,4] scatter(bop, bidx, bupd), update_window_dims={}, inserted_window_dims={1}, scatter_dims_to_operand_dims={1}, input_batching_dims={0}, scatter_indices_batching_dims={0}, index_vector_dim=1, to_apply=add_f32
  ROOT t = (f32[3,3]) tuple(rows))",
                                computations);
  EXPECT_TRUE(Infers(ok, "rows", "f32[3,3]"));
  EXPECT_TRUE(Infers(ok, "two", "(f32[3,3], s32[3,3])"));
  EXPECT_TRUE(Infers(ok, "bat", "f32[5,4]"));

  const char* params = R"(
  op = f32[3,3] parameter(0)
  idx = s32[2] parameter(1)
  upd = f32[2,3] parameter(2)
  big = f32[2,4] parameter(3)
  short = f32[3,3] parameter(4)
  iupd = s32[2,3] parameter(5)
  )";
  auto scatter = [&](absl::string_view operands, absl::string_view to_apply = "add_f32") {
    return Module(absl::StrCat(params, "ROOT s = f32[3,3] scatter(", operands,
                               "), update_window_dims={1}, inserted_window_dims={0}, "
                               "scatter_dims_to_operand_dims={0}, index_vector_dim=1, "
                               "to_apply=",
                               to_apply),
                  computations);
  };
  EXPECT_TRUE(Verifies(scatter("op, idx, upd")));
  EXPECT_TRUE(FailsWith(
      scatter("op, idx, big"),
      {"instruction 's' (scatter)", "updates window dimension 1 has size 4", "operand bound 3"}));
  EXPECT_TRUE(FailsWith(
      scatter("op, idx, short"),
      {"instruction 's' (scatter)", "updates scatter dimension 0 has size 3", "has size 2"}));
  EXPECT_TRUE(FailsWith(scatter("op, idx, iupd"),
                        {"instruction 's' (scatter)", "element types must match"}));
  EXPECT_TRUE(
      FailsWith(scatter("op, idx"), {"instruction 's' (scatter)", "expects 2N+1 operands"}));
  EXPECT_TRUE(FailsWith(scatter("op, idx, upd", "add_s32"),
                        {"instruction 's' (scatter)", "to_apply computation 'add_s32'",
                         "init value has shape f32[]"}));
  EXPECT_TRUE(FailsWith(Module(absl::StrCat(params,
                                            "ROOT s = f32[3,3] scatter(op, idx, upd), "
                                            "update_window_dims={1}, inserted_window_dims={0}, "
                                            "scatter_dims_to_operand_dims={0}, index_vector_dim=1"),
                               computations),
                        {"instruction 's' (scatter)", "expects 1 called computation"}));
  EXPECT_TRUE(FailsWith(Module(absl::StrCat(params,
                                            "ROOT s = f32[3,3] scatter(op, idx, upd), "
                                            "update_window_dims={1}, inserted_window_dims={}, "
                                            "scatter_dims_to_operand_dims={0}, index_vector_dim=1, "
                                            "to_apply=add_f32"),
                               computations),
                        {"instruction 's' (scatter)", "one entry per operand dimension"}));
}

// ---------------------------------------------------------------------------
// Reductions.

TEST(ShapeInferenceTest, Reduce) {
  const std::string computations = absl::StrCat(kAddF32, kAddS32, kArgmax);
  const std::string ok = Module(R"(
  m = f32[2,3,4] parameter(0)
  im = s32[2,3,4] parameter(1)
  z = f32[0,5] parameter(2)
  c = f32[] constant(0)
  ic = s32[] constant(0)
  r = f32[2,4] reduce(m, c), dimensions={1}, to_apply=add_f32
  all = f32[] reduce(m, c), dimensions={0,1,2}, to_apply=add_f32
  none = f32[2,3,4] reduce(m, c), dimensions={}, to_apply=add_f32
  rz = f32[5] reduce(z, c), dimensions={0}, to_apply=add_f32
  am = (f32[3], s32[3]) reduce(m, im, c, ic), dimensions={0,2}, to_apply=argmax
  ROOT t = (f32[2,4]) tuple(r))",
                                computations);
  EXPECT_TRUE(Infers(ok, "r", "f32[2,4]"));
  EXPECT_TRUE(Infers(ok, "all", "f32[]"));
  EXPECT_TRUE(Infers(ok, "none", "f32[2,3,4]"));
  EXPECT_TRUE(Infers(ok, "rz", "f32[5]"));
  EXPECT_TRUE(Infers(ok, "am", "(f32[3], s32[3])"));

  const char* params = R"(
  m = f32[2,3] parameter(0)
  im = s32[2,3] parameter(1)
  c = f32[] parameter(2)
  ic = s32[] parameter(3)
  v = f32[2] parameter(4)
  )";
  EXPECT_TRUE(FailsWith(
      Module(absl::StrCat(params, "ROOT r = f32[2] reduce(m, c), dimensions={1}, to_apply=add_s32"),
             computations),
      {"instruction 'r' (reduce)", "to_apply computation 'add_s32'",
       "init value has shape f32[]"}));
  EXPECT_TRUE(FailsWith(
      Module(absl::StrCat(params, "ROOT r = f32[2] reduce(m, c), dimensions={1}, to_apply=argmax"),
             computations),
      {"instruction 'r' (reduce)",
       "to_apply computation 'argmax' must take 2 "
       "parameters but takes 4"}));
  EXPECT_TRUE(FailsWith(
      Module(absl::StrCat(params, "ROOT r = f32[2] reduce(m, v), dimensions={1}, to_apply=add_f32"),
             computations),
      {"instruction 'r' (reduce)", "init value has shape f32[2]"}));
  EXPECT_TRUE(FailsWith(
      Module(absl::StrCat(params, "ROOT r = f32[2] reduce(m, c), dimensions={2}, to_apply=add_f32"),
             computations),
      {"instruction 'r' (reduce)", "dimension 2 out of range"}));
  EXPECT_TRUE(FailsWith(Module(absl::StrCat(params,
                                            "ROOT r = f32[2] reduce(m, c), "
                                            "dimensions={1,1}, to_apply=add_f32"),
                               computations),
                        {"instruction 'r' (reduce)", "repeats dimension 1"}));
  EXPECT_TRUE(FailsWith(Module(absl::StrCat(params,
                                            "ROOT r = f32[2] reduce(m, c, c), "
                                            "dimensions={1}, to_apply=add_f32"),
                               computations),
                        {"instruction 'r' (reduce)", "expects 2N operands"}));
  EXPECT_TRUE(FailsWith(
      Module(absl::StrCat(params, "ROOT r = f32[2] reduce(m, c), dimensions={1}"), computations),
      {"instruction 'r' (reduce)", "expects 1 called computation (to_apply) but has 0"}));
  EXPECT_TRUE(FailsWith(
      Module(absl::StrCat(params, "ROOT r = f32[3] reduce(m, c), dimensions={1}, to_apply=add_f32"),
             computations),
      {"instruction 'r' (reduce)", "declared shape f32[3]", "inferred shape f32[2]"}));
  // A reducer returning a non-scalar, and one whose inputs are mistyped.
  EXPECT_TRUE(FailsWith(
      Module(absl::StrCat(params, "ROOT r = f32[2] reduce(m, c), dimensions={1}, to_apply=vec"),
             R"(
vec {
  a = f32[] parameter(0)
  b = f32[] parameter(1)
  ROOT r = f32[1] broadcast(a), dimensions={}
})"),
      {"instruction 'r' (reduce)", "to_apply computation 'vec'",
       "must return scalars but result 0 is f32[1]"}));
  EXPECT_TRUE(FailsWith(Module(absl::StrCat(params,
                                            "ROOT r = (f32[2], s32[2]) reduce(m, im, c, ic), "
                                            "dimensions={1}, to_apply=add_f32"),
                               computations),
                        {"instruction 'r' (reduce)", "must take 4 parameters but takes 2"}));
  EXPECT_TRUE(FailsWith(
      Module(absl::StrCat(params,
                          "ROOT r = (f32[2], s32[2]) reduce(m, im, "
                          "c, c), dimensions={1}, to_apply=argmax"),
             computations),
      {"instruction 'r' (reduce)", "accumulator 1 is s32[]", "init value has shape f32[]"}));
  EXPECT_TRUE(FailsWith(
      Module(absl::StrCat(params,
                          "ROOT r = (f32[2], s32[2]) reduce(m, m, c, "
                          "ic), dimensions={1}, to_apply=argmax"),
             computations),
      {"instruction 'r' (reduce)", "parameter 3 has shape s32[]", "input 1 has element type f32"}));
}

TEST(ShapeInferenceTest, ReduceWindow) {
  const std::string computations = absl::StrCat(kAddF32, kArgmax);
  const std::string ok = Module(R"(
  m = f32[4,4] parameter(0)
  im = s32[4,4] parameter(1)
  v = f32[5] parameter(2)
  c = f32[] constant(0)
  ic = s32[] constant(0)
  a = f32[2,2] reduce-window(m, c), window={size=2x2 stride=2x2}, to_apply=add_f32
  b = f32[3] reduce-window(v, c), window={size=3 stride=2 pad=1_1}, to_apply=add_f32
  d = f32[4] reduce-window(v, c), window={size=3 stride=2 pad=1_1 lhs_dilate=2 rhs_dilate=2}, to_apply=add_f32
  e = f32[0] reduce-window(v, c), window={size=7}, to_apply=add_f32
  am = (f32[3,3], s32[3,3]) reduce-window(m, im, c, ic), window={size=2x2}, to_apply=argmax
  ROOT t = (f32[2,2]) tuple(a))",
                                computations);
  EXPECT_TRUE(Infers(ok, "a", "f32[2,2]"));
  EXPECT_TRUE(Infers(ok, "b", "f32[3]"));
  EXPECT_TRUE(Infers(ok, "d", "f32[4]"));
  EXPECT_TRUE(Infers(ok, "e", "f32[0]"));
  EXPECT_TRUE(Infers(ok, "am", "(f32[3,3], s32[3,3])"));

  const char* params = R"(
  m = f32[4,4] parameter(0)
  c = f32[] parameter(1)
  )";
  EXPECT_TRUE(FailsWith(Module(absl::StrCat(params,
                                            "ROOT r = f32[2] reduce-window(m, c), window={size=2 "
                                            "stride=2}, to_apply=add_f32"),
                               computations),
                        {"instruction 'r' (reduce-window)", "window has 1 dimensions", "rank 2"}));
  EXPECT_TRUE(FailsWith(
      Module(absl::StrCat(params, "ROOT r = f32[2,2] reduce-window(m, c), to_apply=add_f32"),
             computations),
      {"instruction 'r' (reduce-window)", "missing window"}));
  EXPECT_TRUE(FailsWith(Module(absl::StrCat(params,
                                            "ROOT r = f32[2,2] reduce-window(m, c), "
                                            "window={size=2x2 stride=2x2}, to_apply=argmax"),
                               computations),
                        {"instruction 'r' (reduce-window)", "must take 2 parameters but takes 4"}));
  EXPECT_TRUE(FailsWith(Module(absl::StrCat(params,
                                            "ROOT r = f32[2,2] reduce-window(m, c), "
                                            "window={size=2x2 stride=0x2}, to_apply=add_f32"),
                               computations),
                        {"instruction 'r' (reduce-window)", "non-positive stride 0"}));
  EXPECT_TRUE(FailsWith(Module(absl::StrCat(params,
                                            "ROOT r = f32[2,2] reduce-window(m, c), "
                                            "window={size=2x2 pad=-3_-2x0_0}, to_apply=add_f32"),
                               computations),
                        {"instruction 'r' (reduce-window)", "gives negative size -1"}));
  EXPECT_TRUE(FailsWith(
      Module(absl::StrCat(params,
                          "ROOT r = f32[3,3] reduce-window(m, c), "
                          "window={size=2x2 stride=2x2}, to_apply=add_f32"),
             computations),
      {"instruction 'r' (reduce-window)", "declared shape f32[3,3]", "inferred shape f32[2,2]"}));
}

TEST(ShapeInferenceTest, SelectAndScatter) {
  const std::string computations = absl::StrCat(kAddF32, kGeF32, kAddS32);
  const char* params = R"(
  op = f32[4,4] parameter(0)
  src = f32[2,2] parameter(1)
  bad = f32[3,3] parameter(2)
  c = f32[] parameter(3)
  )";
  EXPECT_TRUE(
      Infers(Module(absl::StrCat(params,
                                 "ROOT s = f32[4,4] select-and-scatter(op, src, c), "
                                 "window={size=2x2 stride=2x2}, select=ge_f32, scatter=add_f32"),
                    computations),
             "s", "f32[4,4]"));
  EXPECT_TRUE(
      FailsWith(Module(absl::StrCat(params,
                                    "ROOT s = f32[4,4] select-and-scatter(op, bad, c), "
                                    "window={size=2x2 stride=2x2}, select=ge_f32, scatter=add_f32"),
                       computations),
                {"instruction 's' (select-and-scatter)", "source f32[3,3]",
                 "window-reduced operand f32[2,2]"}));
  EXPECT_TRUE(FailsWith(
      Module(absl::StrCat(params,
                          "ROOT s = f32[4,4] select-and-scatter(op, src, c), "
                          "window={size=2x2 stride=2x2}, select=add_f32, scatter=add_f32"),
             computations),
      {"instruction 's' (select-and-scatter)", "select computation 'add_f32'",
       "must return pred[] but returns f32[]"}));
  EXPECT_TRUE(
      FailsWith(Module(absl::StrCat(params,
                                    "ROOT s = f32[4,4] select-and-scatter(op, src, c), "
                                    "window={size=2x2 stride=2x2}, select=ge_f32, scatter=add_s32"),
                       computations),
                {"instruction 's' (select-and-scatter)", "scatter computation 'add_s32'"}));
  EXPECT_TRUE(FailsWith(Module(absl::StrCat(params,
                                            "ROOT s = f32[4,4] select-and-scatter(op, src, c), "
                                            "window={size=2x2 stride=2x2}, select=ge_f32"),
                               computations),
                        {"instruction 's' (select-and-scatter)",
                         "expects 2 called computations (select, scatter) but has 1"}));
}

// ---------------------------------------------------------------------------
// Dot and convolution.

TEST(ShapeInferenceTest, Dot) {
  const std::string ok = Module(R"(
  a = f32[2,3] parameter(0)
  b = f32[3,5] parameter(1)
  ba = f32[7,2,3] parameter(2)
  bb = f32[7,3,5] parameter(3)
  v = f32[3] parameter(4)
  w = f32[5] parameter(5)
  h = bf16[2,3] parameter(6)
  hb = bf16[3,5] parameter(7)
  i8 = s8[2,3] parameter(8)
  j8 = s8[3,5] parameter(9)
  mm = f32[2,5] dot(a, b), lhs_contracting_dims={1}, rhs_contracting_dims={0}
  mt = f32[5,2] dot(b, a), lhs_contracting_dims={0}, rhs_contracting_dims={1}
  bmm = f32[7,2,5] dot(ba, bb), lhs_batch_dims={0}, lhs_contracting_dims={2}, rhs_batch_dims={0}, rhs_contracting_dims={1}
  vv = f32[] dot(v, v), lhs_contracting_dims={0}, rhs_contracting_dims={0}
  outer = f32[3,5] dot(v, w), lhs_contracting_dims={}, rhs_contracting_dims={}
  mixed = f32[2,5] dot(h, hb), lhs_contracting_dims={1}, rhs_contracting_dims={0}
  plain = bf16[2,5] dot(h, hb), lhs_contracting_dims={1}, rhs_contracting_dims={0}, operand_precision={highest,default}
  ints = s32[2,5] dot(i8, j8), lhs_contracting_dims={1}, rhs_contracting_dims={0}
  intf = f32[2,5] dot(i8, j8), lhs_contracting_dims={1}, rhs_contracting_dims={0}
  ROOT t = (f32[2,5]) tuple(mm))");
  EXPECT_TRUE(Infers(ok, "mm", "f32[2,5]"));
  EXPECT_TRUE(Infers(ok, "mt", "f32[5,2]"));
  EXPECT_TRUE(Infers(ok, "bmm", "f32[7,2,5]"));
  EXPECT_TRUE(Infers(ok, "vv", "f32[]"));
  EXPECT_TRUE(Infers(ok, "outer", "f32[3,5]"));
  EXPECT_TRUE(Infers(ok, "mixed", "f32[2,5]"));
  EXPECT_TRUE(Infers(ok, "plain", "bf16[2,5]"));
  EXPECT_TRUE(Infers(ok, "ints", "s32[2,5]"));
  EXPECT_TRUE(Infers(ok, "intf", "f32[2,5]"));

  const char* params = R"(
  a = f32[2,3] parameter(0)
  b = f32[4,5] parameter(1)
  s = s32[3,5] parameter(2)
  ba = f32[7,2,3] parameter(3)
  bb = f32[6,3,5] parameter(4)
  i = s32[2,3] parameter(5)
  )";
  EXPECT_TRUE(
      FailsWith(Module(absl::StrCat(params,
                                    "ROOT d = f32[2,5] dot(a, b), lhs_contracting_dims={1}, "
                                    "rhs_contracting_dims={0}")),
                {"instruction 'd' (dot)", "contracting dimension sizes differ",
                 "dimension 1 has size 3", "dimension 0 has size 4"}));
  EXPECT_TRUE(
      FailsWith(Module(absl::StrCat(params,
                                    "ROOT d = f32[2,5] dot(a, s), lhs_contracting_dims={1}, "
                                    "rhs_contracting_dims={0}")),
                {"instruction 'd' (dot)", "must both be floating point or both integer"}));
  EXPECT_TRUE(FailsWith(Module(absl::StrCat(params,
                                            "ROOT d = f32[7,2,5] dot(ba, bb), "
                                            "lhs_batch_dims={0}, lhs_contracting_dims={2}, "
                                            "rhs_batch_dims={0}, rhs_contracting_dims={1}")),
                        {"instruction 'd' (dot)", "batch dimension sizes differ"}));
  EXPECT_TRUE(FailsWith(Module(absl::StrCat(params, "ROOT d = f32[2,5] dot(a, b)")),
                        {"instruction 'd' (dot)", "missing dot dimension numbers"}));
  EXPECT_TRUE(
      FailsWith(Module(absl::StrCat(params,
                                    "ROOT d = f32[2,5] dot(a, b), lhs_contracting_dims={2}, "
                                    "rhs_contracting_dims={0}")),
                {"instruction 'd' (dot)", "dimension 2 out of range"}));
  EXPECT_TRUE(FailsWith(Module(absl::StrCat(params,
                                            "ROOT d = f32[2,5] dot(a, b), "
                                            "lhs_contracting_dims={1}, rhs_contracting_dims={}")),
                        {"instruction 'd' (dot)", "same number of dimensions"}));
  EXPECT_TRUE(
      FailsWith(Module(absl::StrCat(params,
                                    "ROOT d = f32[2] dot(a, a), lhs_contracting_dims={1,1}, "
                                    "rhs_contracting_dims={1,1}")),
                {"instruction 'd' (dot)", "repeats dimension 1"}));
  // Float operands never produce an integer result, nor integers a narrower
  // one.
  EXPECT_TRUE(
      FailsWith(Module(absl::StrCat(params,
                                    "ROOT d = s32[2,2] dot(a, a), lhs_contracting_dims={1}, "
                                    "rhs_contracting_dims={1}")),
                {"instruction 'd' (dot)", "declared shape s32[2,2]", "inferred shape f32[2,2]"}));
  EXPECT_TRUE(
      FailsWith(Module(absl::StrCat(params,
                                    "ROOT d = s8[2,2] dot(i, i), lhs_contracting_dims={1}, "
                                    "rhs_contracting_dims={1}")),
                {"instruction 'd' (dot)", "declared shape s8[2,2]", "inferred shape s32[2,2]"}));
  EXPECT_TRUE(
      FailsWith(Module(absl::StrCat(params,
                                    "ROOT d = f32[2,2] dot(a, a), lhs_contracting_dims={1}, "
                                    "rhs_contracting_dims={1}, operand_precision={default}")),
                {"instruction 'd' (dot)", "operand_precision has 1 entries"}));
}

TEST(ShapeInferenceTest, Convolution) {
  const std::string ok = Module(R"(
  a = f32[1,8,8,3] parameter(0)
  k = f32[3,3,3,4] parameter(1)
  dw = f32[1,8,8,4] parameter(2)
  dk = f32[3,3,1,4] parameter(3)
  bg = f32[4,5,5,2] parameter(4)
  bk = f32[3,3,2,4] parameter(5)
  t = f32[1,4,4,1] parameter(6)
  tk = f32[3,3,1,1] parameter(7)
  nchw = f32[2,3,10,12] parameter(8)
  oihw = f32[6,3,5,5] parameter(9)
  x1 = bf16[2,9,4] parameter(10)
  k1 = bf16[2,4,8] parameter(11)
  n0 = f32[5,3] parameter(12)
  k0 = f32[3,7] parameter(13)
  conv = f32[1,4,4,4] convolution(a, k), window={size=3x3 stride=2x2 pad=1_1x1_1}, dim_labels=b01f_01io->b01f
  depthwise = f32[1,6,6,4] convolution(dw, dk), window={size=3x3}, dim_labels=b01f_01io->b01f, feature_group_count=4
  batchgroup = f32[2,3,3,4] convolution(bg, bk), window={size=3x3}, dim_labels=b01f_01io->b01f, batch_group_count=2
  transposed = f32[1,9,9,1] convolution(t, tk), window={size=3x3 pad=2_2x2_2 lhs_dilate=2x2}, dim_labels=b01f_01io->b01f
  dilated = f32[2,6,2,6] convolution(nchw, oihw), window={size=5x5 rhs_dilate=1x2 stride=1x2}, dim_labels=bf01_oi01->b01f
  oned = f32[2,8,8] convolution(x1, k1), window={size=2}, dim_labels=b0f_0io->b0f
  nospatial = f32[5,7] convolution(n0, k0), dim_labels=bf_io->bf
  ROOT r = (f32[1,4,4,4]) tuple(conv))");
  EXPECT_TRUE(Infers(ok, "conv", "f32[1,4,4,4]"));
  EXPECT_TRUE(Infers(ok, "depthwise", "f32[1,6,6,4]"));
  EXPECT_TRUE(Infers(ok, "batchgroup", "f32[2,3,3,4]"));
  EXPECT_TRUE(Infers(ok, "transposed", "f32[1,9,9,1]"));
  EXPECT_TRUE(Infers(ok, "dilated", "f32[2,6,2,6]"));
  EXPECT_TRUE(Infers(ok, "oned", "f32[2,8,8]"));
  EXPECT_TRUE(Infers(ok, "nospatial", "f32[5,7]"));

  const char* params = R"(
  a = f32[1,8,8,3] parameter(0)
  k = f32[3,3,3,4] parameter(1)
  k2 = f32[3,3,2,4] parameter(2)
  s = s32[3,3,3,4] parameter(3)
  r3 = f32[8,8,3] parameter(4)
  )";
  auto conv = [&](absl::string_view operands, absl::string_view attrs,
                  absl::string_view shape = "f32[1,6,6,4]") {
    return Module(
        absl::StrCat(params, "ROOT c = ", shape, " convolution(", operands, "), ", attrs));
  };
  EXPECT_TRUE(Verifies(conv("a, k", "window={size=3x3}, dim_labels=b01f_01io->b01f")));
  EXPECT_TRUE(FailsWith(conv("a, k2", "window={size=3x3}, dim_labels=b01f_01io->b01f"),
                        {"instruction 'c' (convolution)", "lhs feature dimension size 3",
                         "kernel input feature size 2"}));
  EXPECT_TRUE(FailsWith(conv("a, k",
                             "window={size=3x3}, dim_labels=b01f_01io->b01f, "
                             "feature_group_count=3"),
                        {"instruction 'c' (convolution)", "feature_group_count=3"}));
  EXPECT_TRUE(FailsWith(
      conv("a, k", "window={size=2x2}, dim_labels=b01f_01io->b01f"),
      {"instruction 'c' (convolution)", "window size 2 of spatial dimension 0", "kernel size 3"}));
  EXPECT_TRUE(FailsWith(conv("a, k", "window={size=3}, dim_labels=b01f_01io->b01f"),
                        {"instruction 'c' (convolution)", "window has 1 dimensions"}));
  EXPECT_TRUE(
      FailsWith(conv("a, k", "window={size=3x3}"),
                {"instruction 'c' (convolution)", "missing convolution dimension numbers"}));
  EXPECT_TRUE(FailsWith(conv("a, k", "dim_labels=b01f_01io->b01f"),
                        {"instruction 'c' (convolution)", "missing window"}));
  EXPECT_TRUE(FailsWith(conv("r3, k", "window={size=3x3}, dim_labels=b01f_01io->b01f"),
                        {"instruction 'c' (convolution)", "lhs f32[8,8,3] must have rank 4"}));
  EXPECT_TRUE(
      FailsWith(conv("a, s", "window={size=3x3}, dim_labels=b01f_01io->b01f"),
                {"instruction 'c' (convolution)", "must both be floating point or both integer"}));
  EXPECT_TRUE(
      FailsWith(conv("a, k", "window={size=3x3}, dim_labels=b01f_01io->b01f", "f32[1,8,8,4]"),
                {"instruction 'c' (convolution)", "declared shape f32[1,8,8,4]",
                 "inferred shape f32[1,6,6,4]"}));
  EXPECT_TRUE(
      FailsWith(conv("a, k",
                     "window={size=3x3}, dim_labels=b01f_01io->b01f, "
                     "feature_group_count=0"),
                {"instruction 'c' (convolution)", "feature_group_count=0 must be positive"}));
}

TEST(ShapeInferenceTest, ConvolutionDimensionNumbersMustBePermutations) {
  auto module = ParseHloModule(Module(R"(
  a = f32[1,8,8,3] parameter(0)
  k = f32[3,3,3,4] parameter(1)
  ROOT c = f32[1,6,6,4] convolution(a, k), window={size=3x3}, dim_labels=b01f_01io->b01f)"));
  ASSERT_TRUE(module.ok()) << module.status();
  HloInstruction* c = (*module)->entry_computation()->root_instruction();
  ASSERT_TRUE(VerifyHloModule(**module).ok());
  c->mutable_attrs()->convolution_dimension_numbers->set_input_feature_dimension(0);
  EXPECT_TRUE(FailsWith(
      **module, {"instruction 'c' (convolution)", "input dimension numbers", "exactly once"}));
  c->mutable_attrs()->convolution_dimension_numbers->set_input_feature_dimension(9);
  EXPECT_TRUE(FailsWith(**module, {"instruction 'c' (convolution)", "input dimension numbers"}));
}

// ---------------------------------------------------------------------------
// Sort and control flow.

TEST(ShapeInferenceTest, Sort) {
  const std::string computations = absl::StrCat(kLtF32, kAddF32, R"(
cmp2 {
  a = f32[] parameter(0)
  b = f32[] parameter(1)
  c = s32[] parameter(2)
  d = s32[] parameter(3)
  ROOT lt = pred[] compare(a, b), direction=LT
}
)");
  const char* params = R"(
  k = f32[4,5] parameter(0)
  v = s32[4,5] parameter(1)
  w = s32[4,6] parameter(2)
  )";
  const std::string ok = Module(absl::StrCat(params, R"(
  one = f32[4,5] sort(k), dimensions={1}, to_apply=lt_f32
  two = (f32[4,5], s32[4,5]) sort(k, v), dimensions={0}, is_stable=true, to_apply=cmp2
  ROOT t = (f32[4,5]) tuple(one))"),
                                computations);
  EXPECT_TRUE(Infers(ok, "one", "f32[4,5]"));
  EXPECT_TRUE(Infers(ok, "two", "(f32[4,5], s32[4,5])"));

  EXPECT_TRUE(FailsWith(
      Module(absl::StrCat(params, "ROOT s = f32[4,5] sort(k), dimensions={1}, to_apply=add_f32"),
             computations),
      {"instruction 's' (sort)",
       "comparator 'add_f32' must return pred[] but "
       "returns f32[]"}));
  EXPECT_TRUE(FailsWith(
      Module(absl::StrCat(params, "ROOT s = f32[4,5] sort(k), dimensions={1}, to_apply=cmp2"),
             computations),
      {"instruction 's' (sort)", "must take 2 parameters but takes 4"}));
  EXPECT_TRUE(FailsWith(Module(absl::StrCat(params,
                                            "ROOT s = (f32[4,5], s32[4,5]) sort(k, v), "
                                            "dimensions={1}, to_apply=lt_f32"),
                               computations),
                        {"instruction 's' (sort)", "must take 4 parameters but takes 2"}));
  EXPECT_TRUE(
      FailsWith(Module(absl::StrCat(params,
                                    "ROOT s = (f32[4,5], s32[4,6]) sort(k, w), "
                                    "dimensions={1}, to_apply=cmp2"),
                       computations),
                {"instruction 's' (sort)", "operand 1 has shape s32[4,6]", "same dimensions"}));
  EXPECT_TRUE(FailsWith(
      Module(absl::StrCat(params,
                          "ROOT s = (s32[4,5], f32[4,5]) sort(v, k), "
                          "dimensions={1}, to_apply=cmp2"),
             computations),
      {"instruction 's' (sort)", "parameter 0 has shape f32[]", "operand 0 needs s32[]"}));
  EXPECT_TRUE(FailsWith(
      Module(absl::StrCat(params, "ROOT s = f32[4,5] sort(k), dimensions={2}, to_apply=lt_f32"),
             computations),
      {"instruction 's' (sort)", "sort dimension 2 is out of range"}));
  EXPECT_TRUE(FailsWith(
      Module(absl::StrCat(params, "ROOT s = f32[4,5] sort(k), to_apply=lt_f32"), computations),
      {"instruction 's' (sort)", "exactly one sort dimension"}));
}

constexpr char kLoop[] = R"(
cond {
  s = (s32[], f32[4]) parameter(0)
  i = s32[] get-tuple-element(s), index=0
  n = s32[] constant(10)
  ROOT lt = pred[] compare(i, n), direction=LT
}
body {
  s = (s32[], f32[4]) parameter(0)
  i = s32[] get-tuple-element(s), index=0
  x = f32[4] get-tuple-element(s), index=1
  one = s32[] constant(1)
  i2 = s32[] add(i, one)
  x2 = f32[4] add(x, x)
  ROOT t = (s32[], f32[4]) tuple(i2, x2)
}
bad_body {
  s = (s32[], f32[4]) parameter(0)
  ROOT i = s32[] get-tuple-element(s), index=0
}
int_cond {
  s = (s32[], f32[4]) parameter(0)
  ROOT i = s32[] get-tuple-element(s), index=0
}
scalar_cond {
  s = s32[] parameter(0)
  ROOT t = pred[] constant(true)
}
)";

TEST(ShapeInferenceTest, While) {
  const char* params = R"(
  zero = s32[] constant(0)
  x = f32[4] parameter(0)
  init = (s32[], f32[4]) tuple(zero, x)
  )";
  EXPECT_TRUE(Infers(Module(absl::StrCat(params,
                                         "ROOT w = (s32[], f32[4]) while(init), "
                                         "condition=cond, body=body"),
                            kLoop),
                     "w", "(s32[], f32[4])"));
  EXPECT_TRUE(FailsWith(Module(absl::StrCat(params,
                                            "ROOT w = (s32[], f32[4]) while(init), "
                                            "condition=cond, body=bad_body"),
                               kLoop),
                        {"instruction 'w' (while)", "body computation 'bad_body' returns s32[]",
                         "loop state) has (s32[], f32[4])"}));
  EXPECT_TRUE(FailsWith(Module(absl::StrCat(params,
                                            "ROOT w = (s32[], f32[4]) while(init), "
                                            "condition=int_cond, body=body"),
                               kLoop),
                        {"instruction 'w' (while)",
                         "condition computation 'int_cond' must "
                         "return pred[] but returns s32[]"}));
  EXPECT_TRUE(FailsWith(Module(absl::StrCat(params,
                                            "ROOT w = (s32[], f32[4]) while(init), "
                                            "condition=scalar_cond, body=body"),
                               kLoop),
                        {"instruction 'w' (while)",
                         "condition computation 'scalar_cond' "
                         "parameter has shape s32[]"}));
  EXPECT_TRUE(FailsWith(
      Module(absl::StrCat(params, "ROOT w = (s32[], f32[4]) while(init), condition=cond"), kLoop),
      {"instruction 'w' (while)", "expects 2 called computations"}));
  EXPECT_TRUE(FailsWith(
      Module(absl::StrCat(params, "ROOT w = s32[] while(zero), condition=cond, body=body"), kLoop),
      {"instruction 'w' (while)", "parameter has shape (s32[], f32[4])", "operand has s32[]"}));
}

constexpr char kBranches[] = R"(
on_true {
  p = f32[2] parameter(0)
  ROOT n = f32[2] negate(p)
}
on_false {
  p = s32[] parameter(0)
  c = f32[] convert(p)
  ROOT b = f32[2] broadcast(c), dimensions={}
}
b2 {
  p = f32[2] parameter(0)
  ROOT e = f32[2] exponential(p)
}
returns_s32 {
  p = s32[] parameter(0)
  ROOT b = s32[2] broadcast(p), dimensions={}
}
two_params {
  p = f32[2] parameter(0)
  q = f32[2] parameter(1)
  ROOT a = f32[2] add(p, q)
}
)";

TEST(ShapeInferenceTest, Conditional) {
  const char* params = R"(
  pr = pred[] parameter(0)
  x = f32[2] parameter(1)
  y = s32[] parameter(2)
  idx = s32[] parameter(3)
  fidx = f32[] parameter(4)
  )";
  EXPECT_TRUE(Infers(Module(absl::StrCat(params,
                                         "ROOT c = f32[2] conditional(pr, x, y), "
                                         "true_computation=on_true, false_computation=on_false"),
                            kBranches),
                     "c", "f32[2]"));
  EXPECT_TRUE(Infers(Module(absl::StrCat(params,
                                         "ROOT c = f32[2] conditional(idx, x, y, x), "
                                         "branch_computations={on_true, on_false, b2}"),
                            kBranches),
                     "c", "f32[2]"));
  EXPECT_TRUE(Infers(
      Module(absl::StrCat(params, "ROOT c = f32[2] conditional(idx, x), branch_computations={b2}"),
             kBranches),
      "c", "f32[2]"));
  EXPECT_TRUE(
      FailsWith(Module(absl::StrCat(params,
                                    "ROOT c = f32[2] conditional(pr, x, y), "
                                    "true_computation=on_true, false_computation=returns_s32"),
                       kBranches),
                {"instruction 'c' (conditional)",
                 "branch 1 computation 'returns_s32' "
                 "returns s32[2] but branch 0 returns f32[2]"}));
  EXPECT_TRUE(FailsWith(Module(absl::StrCat(params,
                                            "ROOT c = f32[2] conditional(pr, y, y), "
                                            "true_computation=on_true, false_computation=on_false"),
                               kBranches),
                        {"instruction 'c' (conditional)",
                         "branch 0 computation 'on_true' "
                         "parameter has shape f32[2]",
                         "operand 1 'y' has s32[]"}));
  EXPECT_TRUE(FailsWith(Module(absl::StrCat(params,
                                            "ROOT c = f32[2] conditional(pr, x, y, x), "
                                            "branch_computations={on_true, on_false, b2}"),
                               kBranches),
                        {"instruction 'c' (conditional)", "pred[] branch index needs exactly 2"}));
  EXPECT_TRUE(FailsWith(Module(absl::StrCat(params,
                                            "ROOT c = f32[2] conditional(fidx, x, y), "
                                            "true_computation=on_true, false_computation=on_false"),
                               kBranches),
                        {"instruction 'c' (conditional)", "expected pred[] or s32[]"}));
  EXPECT_TRUE(FailsWith(Module(absl::StrCat(params,
                                            "ROOT c = f32[2] conditional(idx, x, y), "
                                            "branch_computations={b2}"),
                               kBranches),
                        {"instruction 'c' (conditional)", "needs 2 operands but has 3"}));
  EXPECT_TRUE(FailsWith(Module(absl::StrCat(params,
                                            "ROOT c = f32[2] conditional(idx, x), "
                                            "branch_computations={two_params}"),
                               kBranches),
                        {"instruction 'c' (conditional)", "must take 1 parameter but takes 2"}));
}

TEST(ShapeInferenceTest, CallAndFusion) {
  const std::string computations = absl::StrCat(kAddF32, R"(
fused {
  p0 = f32[4] parameter(0)
  p1 = f32[4] parameter(1)
  ROOT m = f32[4] multiply(p0, p1)
}
)");
  const char* params = R"(
  a = f32[] parameter(0)
  v = f32[4] parameter(1)
  )";
  EXPECT_TRUE(Infers(
      Module(absl::StrCat(params, "ROOT c = f32[] call(a, a), to_apply=add_f32"), computations),
      "c", "f32[]"));
  EXPECT_TRUE(
      Infers(Module(absl::StrCat(params, "ROOT f = f32[4] fusion(v, v), kind=kLoop, calls=fused"),
                    computations),
             "f", "f32[4]"));
  EXPECT_TRUE(FailsWith(
      Module(absl::StrCat(params, "ROOT c = f32[] call(a, v), to_apply=add_f32"), computations),
      {"instruction 'c' (call)", "operand 1 'v' has shape f32[4]",
       "to_apply computation 'add_f32' parameter 1 has shape f32[]"}));
  EXPECT_TRUE(FailsWith(
      Module(absl::StrCat(params, "ROOT c = f32[] call(a), to_apply=add_f32"), computations),
      {"instruction 'c' (call)", "must take 1 parameter but takes 2"}));
  EXPECT_TRUE(FailsWith(
      Module(absl::StrCat(params, "ROOT c = f32[4] call(a, a), to_apply=add_f32"), computations),
      {"instruction 'c' (call)", "declared shape f32[4]", "inferred shape f32[]"}));
  EXPECT_TRUE(FailsWith(
      Module(absl::StrCat(params, "ROOT f = f32[4] fusion(v, a), kind=kLoop, calls=fused"),
             computations),
      {"instruction 'f' (fusion)", "fused computation 'fused' parameter 1"}));
  EXPECT_TRUE(FailsWith(
      Module(absl::StrCat(params, "ROOT f = f32[4] fusion(v, v), kind=kLoop"), computations),
      {"instruction 'f' (fusion)", "expects 1 called computation"}));
}

TEST(ShapeInferenceTest, NonCallingOpsTakeNoComputations) {
  EXPECT_TRUE(FailsWith(Module(R"(
  a = f32[] parameter(0)
  ROOT x = f32[] add(a, a), to_apply=add_f32)",
                               kAddF32),
                        {"instruction 'x' (add)", "takes no called computations but has 1"}));
}

TEST(ShapeInferenceTest, CustomCallTakesAnything) {
  EXPECT_TRUE(Infers(Module(R"(
  a = f32[2] parameter(0)
  t = (f32[2], f32[2]) tuple(a, a)
  ROOT c = (s32[3], f32[]) custom-call(a, t), custom_call_target="x", to_apply=add_f32)",
                            kAddF32),
                     "c", "(s32[3], f32[])"));
}

// ---------------------------------------------------------------------------
// InferShape used directly (no verifier), including malformed instructions.

TEST(ShapeInferenceTest, DirectUseOnMalformedInstructionsNeverCrashes) {
  auto module = ParseHloModule(Module(R"(
  a = f32[2,3] parameter(0)
  b = f32[3,4] parameter(1)
  ROOT d = f32[2,4] dot(a, b), lhs_contracting_dims={1}, rhs_contracting_dims={0})"));
  ASSERT_TRUE(module.ok()) << module.status();
  HloComputation* entry = (*module)->entry_computation();
  HloInstruction* d = entry->root_instruction();
  auto shape = InferShape(*d);
  ASSERT_TRUE(shape.ok()) << shape.status();
  EXPECT_EQ(shape->ToString(), "f32[2,4]{1,0}");

  // An opcode whose operand list is empty, with attributes missing.
  for (HloOpcode opcode : {HloOpcode::kSlice,
                           HloOpcode::kGather,
                           HloOpcode::kScatter,
                           HloOpcode::kReduce,
                           HloOpcode::kSort,
                           HloOpcode::kWhile,
                           HloOpcode::kConditional,
                           HloOpcode::kCall,
                           HloOpcode::kDynamicSlice,
                           HloOpcode::kDynamicUpdateSlice,
                           HloOpcode::kConcatenate,
                           HloOpcode::kSelectAndScatter,
                           HloOpcode::kReduceWindow,
                           HloOpcode::kConvolution,
                           HloOpcode::kTranspose,
                           HloOpcode::kFusion,
                           HloOpcode::kGetTupleElement,
                           HloOpcode::kConstant,
                           HloOpcode::kIota,
                           HloOpcode::kBroadcast,
                           HloOpcode::kPad,
                           HloOpcode::kDot}) {
    auto bare = HloInstruction::Create(opcode, Shape(F32, {2}), {});
    bare->set_name("bare");
    auto result = InferShape(*bare);
    if (opcode == HloOpcode::kIota) {
      EXPECT_FALSE(result.ok());  // no iota_dimension
      continue;
    }
    ASSERT_FALSE(result.ok()) << HloOpcodeString(opcode);
    EXPECT_THAT(
        std::string(result.status().message()),
        ::testing::HasSubstr(absl::StrCat("instruction 'bare' (", HloOpcodeString(opcode), ")")));
  }

  // Operands with the wrong kinds of shapes.
  auto token = HloInstruction::CreateParameter(0, Shape::Token(), "tok");
  auto neg = HloInstruction::Create(HloOpcode::kNegate, Shape(F32, {}), {token.get()});
  neg->set_name("neg");
  auto result = InferShape(*neg);
  ASSERT_FALSE(result.ok());
  EXPECT_THAT(std::string(result.status().message()),
              ::testing::HasSubstr("instruction 'neg' (negate): operand 0 "
                                   "'tok' has shape token[]; expected an array"));
  neg->DetachFromOperands();
}

TEST(ShapeInferenceTest, EveryOpcodeIsHandled) {
  // InferShape must not fall through to "no shape inference" for any opcode.
  for (int i = 0; i < HloOpcodeCount(); ++i) {
    const HloOpcode opcode = static_cast<HloOpcode>(i);
    auto bare = HloInstruction::Create(opcode, Shape(F32, {2}), {});
    bare->set_name("x");
    auto result = InferShape(*bare);
    if (!result.ok()) {
      EXPECT_THAT(std::string(result.status().message()),
                  ::testing::Not(::testing::HasSubstr("no shape inference")))
          << HloOpcodeString(opcode);
    }
  }
}

TEST(ShapeInferenceTest, HugeAttributesDoNotOverflow) {
  const int64_t big = int64_t{1} << 62;
  // Slice stride near INT64_MAX.
  EXPECT_TRUE(Infers(Module(R"(
  m = f32[10] parameter(0)
  ROOT s = f32[1] slice(m), slice={[3:10:9223372036854775807]})"),
                     "s", "f32[1]"));
  // Padding whose result does not fit in int64.
  EXPECT_TRUE(FailsWith(Module(absl::StrCat(R"(
  m = f32[10] parameter(0)
  c = f32[] parameter(1)
  ROOT p = f32[10] pad(m, c), padding=0_0_)",
                                            big)),
                        {"instruction 'p' (pad)", "overflows int64"}));
  // Window dilation overflowing the dilated base.
  EXPECT_TRUE(FailsWith(Module(absl::StrCat(R"(
  m = f32[10] parameter(0)
  c = f32[] parameter(1)
  ROOT r = f32[1] reduce-window(m, c), window={size=1 lhs_dilate=)",
                                            big, "}, to_apply=add_f32"),
                               kAddF32),
                        {"instruction 'r' (reduce-window)", "overflows int64"}));
  // Shapes whose byte size overflows are rejected before any arithmetic.
  auto module = ParseHloModule(Module(R"(
  m = f32[4] parameter(0)
  ROOT r = f32[4] reshape(m))"));
  ASSERT_TRUE(module.ok()) << module.status();
  HloInstruction* r = (*module)->entry_computation()->root_instruction();
  *r->mutable_shape() = Shape(F32, {big, big, 0});
  EXPECT_TRUE(FailsWith(**module, {"instruction 'r' (reshape)", "too large"}));
  auto inferred = InferShape(*r);
  ASSERT_FALSE(inferred.ok());
  EXPECT_THAT(std::string(inferred.status().message()), ::testing::HasSubstr("overflows int64"));
}

// ---------------------------------------------------------------------------
// Rank-0 and zero-size shapes through a whole program.

TEST(ShapeInferenceTest, ScalarsAndEmptyArrays) {
  EXPECT_TRUE(Verifies(Module(R"(
  s = f32[] parameter(0)
  e = f32[0,3] parameter(1)
  z = f32[0] parameter(2)
  c = f32[] constant(0)
  neg = f32[] negate(s)
  sum = f32[] add(s, neg)
  cmp = pred[] compare(s, sum), direction=LT
  sel = f32[] select(cmp, s, sum)
  r1 = f32[1] reshape(sel)
  be = f32[0,3] broadcast(sel), dimensions={}
  ae = f32[0,3] add(e, be)
  te = f32[3,0] transpose(ae), dimensions={1,0}
  re = f32[3] reduce(ae, c), dimensions={0}, to_apply=add_f32
  se = f32[0,2] slice(ae), slice={[0:0], [1:3]}
  ce = f32[0,6] concatenate(ae, ae), dimensions={1}
  pz = f32[4] pad(z, c), padding=1_3_5
  i0 = s32[] constant(0)
  ds = f32[0] dynamic-slice(z, i0), dynamic_slice_sizes={0}
  sz = f32[0] sort(z), dimensions={0}, to_apply=lt_f32
  dz = f32[3,3] dot(te, ae), lhs_contracting_dims={1}, rhs_contracting_dims={0}
  ROOT t = (f32[1], f32[3,0], f32[3], f32[0,2], f32[0,6], f32[4], f32[0], f32[0], f32[3,3]) tuple(r1, te, re, se, ce, pz, ds, sz, dz))",
                              absl::StrCat(kAddF32, kLtF32))));
}

// ---------------------------------------------------------------------------
// Collectives. The group size comes from the module's replica_count and
// num_partitions.

std::string Replicated(int replicas, int partitions, absl::string_view body,
                       absl::string_view computations = kAddF32) {
  return absl::StrCat("HloModule test, replica_count=", replicas, ", num_partitions=", partitions,
                      "\n", computations, "\nENTRY main {\n", body, "\n}\n");
}

TEST(ShapeInferenceTest, AllReduceKeepsTheOperandShapes) {
  EXPECT_TRUE(Infers(Replicated(4, 1, R"(
  p = f32[2,3] parameter(0)
  ROOT ar = f32[2,3] all-reduce(p), replica_groups={{0,1},{2,3}}, to_apply=add_f32)"),
                     "ar", "f32[2,3]"));
  EXPECT_TRUE(Infers(Replicated(2, 1, R"(
  p = f32[2] parameter(0)
  q = f32[5] parameter(1)
  ROOT ar = (f32[2], f32[5]) all-reduce(p, q), replica_groups={}, to_apply=add_f32)"),
                     "ar", "(f32[2], f32[5])"));
  EXPECT_TRUE(Infers(Replicated(2, 1, R"(
  p = f32[2] parameter(0)
  s = f32[2] all-reduce-start(p), replica_groups={}, to_apply=add_f32
  ROOT d = f32[2] all-reduce-done(s))"),
                     "d", "f32[2]"));
  // The reduction must be (T, T) -> T of the operand's element type.
  EXPECT_TRUE(FailsWith(Replicated(2, 1, R"(
  p = s32[2] parameter(0)
  ROOT ar = s32[2] all-reduce(p), replica_groups={}, to_apply=add_f32)"),
                        {"instruction 'ar' (all-reduce): to_apply computation 'add_f32' must be a "
                         "binary computation (s32[], s32[]) -> s32[]"}));
  EXPECT_TRUE(FailsWith(Replicated(2, 1, R"(
  p = f32[2] parameter(0)
  ROOT ar = f32[2] all-reduce(p), replica_groups={})"),
                        {"expects 1 called computation (to_apply) but has 0"}));
  EXPECT_TRUE(FailsWith(Replicated(2, 1, R"(
  p = f32[2] parameter(0)
  ROOT d = f32[2] all-reduce-done(p))"),
                        {"instruction 'd' (all-reduce-done): operand 0 'p' must be the "
                         "all-reduce-start this completes; got a parameter"}));
}

TEST(ShapeInferenceTest, AllGatherMultipliesItsDimensionByTheGroupSize) {
  EXPECT_TRUE(Infers(Replicated(4, 1, R"(
  p = f32[2,3] parameter(0)
  ROOT ag = f32[2,12] all-gather(p), replica_groups={}, dimensions={1})"),
                     "ag", "f32[2,12]"));
  EXPECT_TRUE(Infers(Replicated(4, 1, R"(
  p = f32[2,3] parameter(0)
  ROOT ag = f32[4,3] all-gather(p), replica_groups=[2,2]<=[4], dimensions={0})"),
                     "ag", "f32[4,3]"));
  // Cross-replica-and-partition: a group is its replicas times every partition.
  EXPECT_TRUE(Infers(Replicated(2, 2, R"(
  p = f32[3] parameter(0)
  ROOT ag = f32[6] all-gather(p), channel_id=1, replica_groups={{0},{1}}, dimensions={0})"),
                     "ag", "f32[6]"));
  EXPECT_TRUE(Infers(Replicated(2, 1, R"(
  p = f32[3] parameter(0)
  q = s32[1,2] parameter(1)
  ROOT ag = (f32[6], s32[2,2]) all-gather(p, q), replica_groups={}, dimensions={0})"),
                     "ag", "(f32[6], s32[2,2])"));
  EXPECT_TRUE(Infers(Replicated(2, 1, R"(
  p = f32[3] parameter(0)
  s = (f32[3], f32[6]) all-gather-start(p), replica_groups={}, dimensions={0}
  ROOT d = f32[6] all-gather-done(s))"),
                     "s", "(f32[3], f32[6])"));
  EXPECT_TRUE(Infers(Replicated(2, 1, R"(
  p = f32[3] parameter(0)
  q = f32[1] parameter(1)
  s = ((f32[3], f32[1]), (f32[6], f32[2])) all-gather-start(p, q), replica_groups={}, dimensions={0}
  ROOT d = (f32[6], f32[2]) all-gather-done(s))"),
                     "d", "(f32[6], f32[2])"));
  EXPECT_TRUE(FailsWith(Replicated(4, 1, R"(
  p = f32[3] parameter(0)
  ROOT ag = f32[6] all-gather(p), replica_groups={}, dimensions={0})"),
                        {"declared shape f32[6] does not match the inferred shape f32[12]"}));
  EXPECT_TRUE(FailsWith(Replicated(4, 1, R"(
  p = f32[3] parameter(0)
  ROOT ag = f32[6] all-gather(p), replica_groups={{0,1},{2},{3}}, dimensions={0})"),
                        {"have groups of different sizes"}));
  EXPECT_TRUE(FailsWith(Replicated(2, 1, R"(
  p = f32[3] parameter(0)
  ROOT ag = f32[6] all-gather(p), replica_groups={}, dimensions={1})"),
                        {"dimension 1 is out of range for operand 0 'p' (f32[3])"}));
}

TEST(ShapeInferenceTest, ReduceScatterDividesItsDimension) {
  EXPECT_TRUE(Infers(Replicated(4, 1, R"(
  p = f32[8,2] parameter(0)
  ROOT rs = f32[2,2] reduce-scatter(p), replica_groups={}, dimensions={0}, to_apply=add_f32)"),
                     "rs", "f32[2,2]"));
  EXPECT_TRUE(FailsWith(Replicated(3, 1, R"(
  p = f32[8,2] parameter(0)
  ROOT rs = f32[2,2] reduce-scatter(p), replica_groups={}, dimensions={0}, to_apply=add_f32)"),
                        {"instruction 'rs' (reduce-scatter): dimension 0 of operand 0 'p' "
                         "(f32[8,2]) has size 8, not a multiple of the group size 3"}));
}

TEST(ShapeInferenceTest, AllToAllArrayAndTupleForms) {
  EXPECT_TRUE(Infers(Replicated(4, 1, R"(
  p = f32[8,3] parameter(0)
  ROOT a = f32[8,3] all-to-all(p), replica_groups={}, dimensions={0})"),
                     "a", "f32[8,3]"));
  EXPECT_TRUE(FailsWith(Replicated(4, 1, R"(
  p = f32[6,3] parameter(0)
  ROOT a = f32[6,3] all-to-all(p), replica_groups={}, dimensions={0})"),
                        {"has size 6, not a multiple of the group size 4"}));
  EXPECT_TRUE(Infers(Replicated(2, 1, R"(
  p = f32[3] parameter(0)
  q = f32[3] parameter(1)
  ROOT a = (f32[3], f32[3]) all-to-all(p, q), replica_groups={})"),
                     "a", "(f32[3], f32[3])"));
  EXPECT_TRUE(FailsWith(Replicated(2, 1, R"(
  p = f32[3] parameter(0)
  q = f32[4] parameter(1)
  ROOT a = (f32[3], f32[4]) all-to-all(p, q), replica_groups={})"),
                        {"operand 1 has shape f32[4] but operand 0 has f32[3]"}));
  EXPECT_TRUE(FailsWith(Replicated(4, 1, R"(
  p = f32[3] parameter(0)
  q = f32[3] parameter(1)
  ROOT a = (f32[3], f32[3]) all-to-all(p, q), replica_groups={})"),
                        {"takes one operand per group member (4) but has 2"}));
}

TEST(ShapeInferenceTest, CollectivePermuteAndBroadcastKeepTheShape) {
  EXPECT_TRUE(Infers(Replicated(2, 1, R"(
  p = f32[3] parameter(0)
  ROOT cp = f32[3] collective-permute(p), source_target_pairs={{0,1},{1,0}})"),
                     "cp", "f32[3]"));
  EXPECT_TRUE(Infers(Replicated(2, 1, R"(
  p = f32[3] parameter(0)
  s = (f32[3], f32[3], u32[], u32[]) collective-permute-start(p), source_target_pairs={{0,1}}
  ROOT d = f32[3] collective-permute-done(s))"),
                     "s", "(f32[3], f32[3], u32[], u32[])"));
  EXPECT_TRUE(FailsWith(Replicated(4, 1, R"(
  p = f32[3] parameter(0)
  ROOT cp = f32[3] collective-permute(p), source_target_pairs={{0,1},{2,1}})"),
                        {"instruction 'cp' (collective-permute): source_target_pairs "
                         "{{0,1},{2,1}} (cross-replica, 4 replicas x 1 partition): target 1 "
                         "appears more than once"}));
  EXPECT_TRUE(FailsWith(Replicated(2, 1, R"(
  p = f32[3] parameter(0)
  ROOT cp = f32[3] collective-permute(p), source_target_pairs={{0,2}})"),
                        {"replica 2 is out of range [0, 2)"}));
  EXPECT_TRUE(Infers(Replicated(4, 1, R"(
  p = f32[3] parameter(0)
  ROOT cb = f32[3] collective-broadcast(p), replica_groups={{0,1},{2,3}})"),
                     "cb", "f32[3]"));
  EXPECT_TRUE(Infers(Replicated(2, 1, R"(
  ROOT r = u32[] replica-id())"),
                     "r", "u32[]"));
}

TEST(ShapeInferenceTest, BadReplicaGroupsAreNamed) {
  // The error of CollectiveParticipantGroups, prefixed once.
  auto module = ParseHloModule(Replicated(4, 1, R"(
  p = f32[2] parameter(0)
  ROOT ar = f32[2] all-reduce(p), replica_groups={{0,1},{1,2,3}}, to_apply=add_f32)"));
  ASSERT_TRUE(module.ok()) << module.status();
  absl::StatusOr<Shape> inferred = InferShape(*(*module)->entry_computation()->root_instruction());
  ASSERT_FALSE(inferred.ok());
  EXPECT_EQ(inferred.status().message(),
            "instruction 'ar' (all-reduce): replica_groups {{0,1},{1,2,3}} (cross-replica, 4 "
            "replicas x 1 partition): replica 1 appears more than once");
  EXPECT_TRUE(FailsWith(Replicated(4, 1, R"(
  p = f32[2] parameter(0)
  ROOT ar = f32[2] all-reduce(p), replica_groups={{0,1}}, to_apply=add_f32)"),
                        {"computation 'main': instruction 'ar' (all-reduce): replica_groups "
                         "{{0,1}} (cross-replica, 4 replicas x 1 partition): replica 2 is in no "
                         "group"}));
  EXPECT_TRUE(FailsWith(Replicated(2, 1, R"(
  p = f32[2] parameter(0)
  ROOT ar = f32[2] all-reduce(p), replica_groups={}, use_global_device_ids=true, to_apply=add_f32)"),
                        {"use_global_device_ids=true needs a channel_id"}));
  // Partition ids in cross-partition mode (a channel on all-to-all).
  EXPECT_TRUE(FailsWith(Replicated(2, 2, R"(
  p = f32[2] parameter(0)
  ROOT a = f32[2] all-to-all(p), channel_id=1, replica_groups={{0,1,2}}, dimensions={0})"),
                        {"(cross-partition, 2 replicas x 2 partitions): partition 2 is out of "
                         "range [0, 2)"}));
}

// ---------------------------------------------------------------------------
// Wrappers, tokens and the opcodes the compiler expands.

TEST(ShapeInferenceTest, WrapperTokenAndCompositeShapes) {
  EXPECT_TRUE(Infers(Module(R"(
  p = f32[4] parameter(0)
  t = token[] after-all()
  ROOT d = f32[4] add-dependency(p, t))"),
                     "d", "f32[4]"));
  EXPECT_TRUE(Infers(Module(R"(
  p = f32[4] parameter(0)
  ROOT s = (f32[4], f32[4], u32[]) copy-start(p))"),
                     "s", "(f32[4], f32[4], u32[])"));
  EXPECT_TRUE(Infers(Module(R"(
  p = f32[2,6] parameter(0)
  ROOT t = (f32[2,3], s32[2,3]) topk(p), k=3, largest=false)"),
                     "t", "(f32[2,3], s32[2,3])"));
  EXPECT_TRUE(Infers(Module(R"(
  x = f32[2,3,4] parameter(0)
  s = f32[3] parameter(1)
  o = f32[3] parameter(2)
  ROOT t = (f32[2,3,4], f32[3], f32[3]) batch-norm-training(x, s, o), epsilon=0.001, feature_index=1)"),
                     "t", "(f32[2,3,4], f32[3], f32[3])"));
  EXPECT_TRUE(Infers(Module(R"(
  a = f32[3] parameter(0)
  b = f32[3] parameter(1)
  ROOT m = f32[3] map(a, b), dimensions={0}, to_apply=add_f32)",
                            kAddF32),
                     "m", "f32[3]"));
}

TEST(ShapeInferenceTest, WrapperTokenAndCompositeErrorsAreNamed) {
  EXPECT_TRUE(FailsWith(Module(R"(
  p = f32[4] parameter(0)
  ROOT d = f32[4] add-dependency(p, p))"),
                        {"instruction 'd' (add-dependency)", "expected token[]"}));
  EXPECT_TRUE(FailsWith(Module(R"(
  p = f32[2,6] parameter(0)
  ROOT t = (f32[2,7], s32[2,7]) topk(p), k=7)"),
                        {"instruction 't' (topk)", "k=7 is out of range [0, 6]"}));
  EXPECT_TRUE(FailsWith(Module(R"(
  p = f32[2,6] parameter(0)
  ROOT t = (f32[2,3], s32[2,3]) topk(p))"),
                        {"instruction 't' (topk)", "needs the attribute k=<integer>"}));
  EXPECT_TRUE(
      FailsWith(Module(R"(
  x = f32[2,3] parameter(0)
  s = f32[3] parameter(1)
  o = f32[3] parameter(2)
  ROOT t = (f32[2,3], f32[3], f32[3]) batch-norm-training(x, s, o), epsilon=0.001, feature_index=2)"),
                {"instruction 't' (batch-norm-training)", "feature_index=2 is out of range"}));
  EXPECT_TRUE(FailsWith(Module(R"(
  a = f32[3] parameter(0)
  ROOT m = f32[3] map(a, a), dimensions={1}, to_apply=add_f32)",
                               kAddF32),
                        {"instruction 'm' (map)", "must list every dimension of f32[3]"}));
  EXPECT_TRUE(FailsWith(Module(R"(
  a = f32[] parameter(0)
  ROOT m = f32[] map(a, a), dimensions={0}, to_apply=add_f32)",
                               kAddF32),
                        {"instruction 'm' (map)", "must list every dimension"}));
  EXPECT_TRUE(
      FailsWith(Module(R"(
  p = f32[3] parameter(0)
  ROOT s = ((f32[3]), f32[4], s32[]) async-start(p), calls=neg3)",
                       "neg3 {\n  a = f32[3] parameter(0)\n  ROOT n = f32[3] negate(a)\n}\n"),
                {"instruction 's' (async-start)", "must be ((f32[3]), f32[3], context...)"}));
}

TEST(ShapeInferenceTest, ComplexShapes) {
  EXPECT_TRUE(Infers(Module(R"(
  x = f32[2] parameter(0)
  ROOT z = c64[2] complex(x, x))"),
                     "z", "c64[2]"));
  EXPECT_TRUE(Infers(Module(R"(
  z = c128[2] parameter(0)
  ROOT r = f64[2] imag(z))"),
                     "r", "f64[2]"));
  EXPECT_TRUE(Infers(Module(R"(
  z = c64[2] parameter(0)
  ROOT r = f32[2] abs(z))"),
                     "r", "f32[2]"));
  EXPECT_TRUE(Infers(Module(R"(
  z = c64[2] parameter(0)
  ROOT r = c64[2] exponential(z))"),
                     "r", "c64[2]"));
  EXPECT_TRUE(Infers(Module(R"(
  x = f32[3,8] parameter(0)
  ROOT r = c64[3,5] fft(x), fft_type=RFFT, fft_length={8})"),
                     "r", "c64[3,5]"));
  EXPECT_TRUE(Infers(Module(R"(
  z = c64[4,5] parameter(0)
  ROOT r = f32[4,8] fft(z), fft_type=IRFFT, fft_length={4,8})"),
                     "r", "f32[4,8]"));
}

TEST(ShapeInferenceTest, ComplexErrorsAreNamed) {
  EXPECT_TRUE(FailsWith(Module(R"(
  p = c64[2] parameter(0)
  ROOT r = f32[2] convert(p))"),
                        {"instruction 'r' (convert)", "complex to real"}));
  EXPECT_TRUE(FailsWith(Module(R"(
  p = c64[2] parameter(0)
  ROOT r = pred[2] compare(p, p), direction=LT)"),
                        {"instruction 'r' (compare)", "only EQ and NE"}));
  EXPECT_TRUE(FailsWith(Module(R"(
  p = c64[2] parameter(0)
  ROOT r = c64[2] maximum(p, p))"),
                        {"instruction 'r' (maximum)", "c64"}));
  EXPECT_TRUE(FailsWith(Module(R"(
  p = c64[2] parameter(0)
  ROOT r = c64[2] floor(p))"),
                        {"instruction 'r' (floor)", "c64"}));
  EXPECT_TRUE(FailsWith(Module(R"(
  p = s32[2] parameter(0)
  ROOT r = c64[2] complex(p, p))"),
                        {"instruction 'r' (complex)", "expected f32 or f64"}));
  EXPECT_TRUE(FailsWith(Module(R"(
  p = c64[8] parameter(0)
  ROOT r = c64[8] fft(p), fft_type=FFT, fft_length={4})"),
                        {"instruction 'r' (fft)", "expected 4"}));
  EXPECT_TRUE(FailsWith(Module(R"(
  p = c64[8] parameter(0)
  ROOT r = c64[8] fft(p), fft_type=DCT, fft_length={8})"),
                        {"instruction 'r' (fft)", "fft_type", "one of FFT, IFFT, RFFT, IRFFT"}));
  EXPECT_TRUE(FailsWith(Module(R"(
  p = f32[8] parameter(0)
  ROOT r = c64[8] fft(p), fft_type=FFT, fft_length={8})"),
                        {"instruction 'r' (fft)", "c64 or c128"}));
  EXPECT_TRUE(FailsWith(Module(R"(
  a = c64[2,2] parameter(0)
  b = f32[2,2] parameter(1)
  ROOT d = c64[2,2] dot(a, b), lhs_contracting_dims={1}, rhs_contracting_dims={0})"),
                        {"instruction 'd' (dot)", "complex operands"}));
}

TEST(ShapeInferenceTest, RngBitGeneratorStatesAndValues) {
  EXPECT_TRUE(Infers(Module(R"(
  s = u64[3] parameter(0)
  ROOT r = (u64[3], s16[4,5]) rng-bit-generator(s), algorithm=rng_philox)"),
                     "r", "(u64[3], s16[4,5])"));
  EXPECT_TRUE(FailsWith(
      Module(R"(
  s = u64[3] parameter(0)
  ROOT r = (u64[3], u32[4]) rng-bit-generator(s), algorithm=rng_three_fry)"),
      {"instruction 'r' (rng-bit-generator)", "the state is u64[3]; Threefry takes u64[2]"}));
  EXPECT_TRUE(FailsWith(Module(R"(
  s = u32[2] parameter(0)
  ROOT r = (u32[2], u32[4]) rng-bit-generator(s))"),
                        {"the state is u32[2]; Philox takes u64[2] or u64[3]"}));
  EXPECT_TRUE(FailsWith(Module(R"(
  s = u64[2] parameter(0)
  ROOT r = (u64[2], f32[4]) rng-bit-generator(s))"),
                        {"the random values are f32[4]; expected an array of 8-, 16-, 32- or "
                         "64-bit integers"}));
  EXPECT_TRUE(FailsWith(Module(R"(
  s = u64[2] parameter(0)
  ROOT r = u32[4] rng-bit-generator(s))"),
                        {"the result is u32[4]; expected (u64[2], an integer array)"}));
  EXPECT_TRUE(FailsWith(Module(R"(
  s = u64[2] parameter(0)
  ROOT r = (u64[2], u32[4]) rng-bit-generator(s), algorithm=rng_mersenne)"),
                        {"rng_default, rng_three_fry, rng_philox"}));
}

TEST(ShapeInferenceTest, RngBoundsDistributionsAndState) {
  EXPECT_TRUE(Infers(Module(R"(
  a = bf16[] parameter(0)
  b = bf16[] parameter(1)
  ROOT r = bf16[3,4] rng(a, b), distribution=rng_normal)"),
                     "r", "bf16[3,4]"));
  EXPECT_TRUE(Infers(Module(R"(
  a = u16[] parameter(0)
  b = u16[] parameter(1)
  ROOT r = u16[7] rng(a, b), distribution=rng_uniform)"),
                     "r", "u16[7]"));
  EXPECT_TRUE(FailsWith(Module(R"(
  a = s32[] parameter(0)
  b = s32[] parameter(1)
  ROOT r = s32[7] rng(a, b), distribution=rng_normal)"),
                        {"instruction 'r' (rng)", "rng_normal draws f16, bf16, f32 or f64"}));
  EXPECT_TRUE(FailsWith(Module(R"(
  a = pred[] parameter(0)
  b = pred[] parameter(1)
  ROOT r = pred[7] rng(a, b), distribution=rng_uniform)"),
                        {"rng_uniform draws f16, bf16, f32, f64 or 8- to 64-bit integer"}));
  EXPECT_TRUE(FailsWith(Module(R"(
  a = f32[2] parameter(0)
  b = f32[] parameter(1)
  ROOT r = f32[7] rng(a, b), distribution=rng_uniform)"),
                        {"operand 0 is f32[2]; expected a scalar of the result's f32"}));
  EXPECT_TRUE(FailsWith(Module(R"(
  a = f32[] parameter(0)
  b = f64[] parameter(1)
  ROOT r = f32[7] rng(a, b), distribution=rng_uniform)"),
                        {"operand 1 is f64[]"}));
  EXPECT_TRUE(FailsWith(Module(R"(
  a = f32[] parameter(0)
  b = f32[] parameter(1)
  ROOT r = f32[7] rng(a, b))"),
                        {"needs the attribute distribution=<one of rng_uniform, rng_normal>"}));
  EXPECT_TRUE(Infers(Module(R"(
  ROOT s = u64[2] rng-get-and-update-state(), delta=12)"),
                     "s", "u64[2]"));
  EXPECT_TRUE(FailsWith(Module(R"(
  ROOT s = u64[2] rng-get-and-update-state(), delta=-1)"),
                        {"instruction 's' (rng-get-and-update-state)", "a count of at least 0"}));
  EXPECT_TRUE(FailsWith(Module(R"(
  ROOT s = u64[2] rng-get-and-update-state())"),
                        {"needs the attribute delta=<integer>"}));
}

TEST(ShapeInferenceTest, StochasticConvertOperandsAndResult) {
  EXPECT_TRUE(Infers(Module(R"(
  x = bf16[4,2] parameter(0)
  r = u16[4,2] parameter(1)
  ROOT s = s8[4,2] stochastic-convert(x, r))"),
                     "s", "s8[4,2]"));
  EXPECT_TRUE(FailsWith(Module(R"(
  x = f32[4] parameter(0)
  r = u16[4] parameter(1)
  ROOT s = s8[4] stochastic-convert(x, r))"),
                        {"instruction 's' (stochastic-convert)",
                         "the random operand is u16[4]; expected an unsigned integer of 32 bits"}));
  EXPECT_TRUE(FailsWith(Module(R"(
  x = f32[4] parameter(0)
  r = u32[4] parameter(1)
  ROOT s = u8[4] stochastic-convert(x, r))"),
                        {"expected s8, s16, s32 or s64"}));
  EXPECT_TRUE(FailsWith(Module(R"(
  x = s32[4] parameter(0)
  r = u32[4] parameter(1)
  ROOT s = s8[4] stochastic-convert(x, r))"),
                        {"the operand is s32[4]; expected f16, bf16, f32 or f64"}));
}

TEST(ShapeInferenceTest, MulhiTakesIntegers) {
  EXPECT_TRUE(Infers(Module(R"(
  a = u64[3] parameter(0)
  ROOT m = u64[3] mulhi(a, a))"),
                     "m", "u64[3]"));
  EXPECT_TRUE(FailsWith(Module(R"(
  a = f32[3] parameter(0)
  ROOT m = f32[3] mulhi(a, a))"),
                        {"instruction 'm' (mulhi)", "f32"}));
}

TEST(ShapeInferenceTest, ScaledDotBlocksAndResult) {
  EXPECT_TRUE(Infers(Module(R"(
  a = f8e4m3fn[4,64] parameter(0)
  b = f8e4m3fn[64,8] parameter(1)
  sa = f8e8m0fnu[4,2] parameter(2)
  sb = f8e8m0fnu[2,8] parameter(3)
  ROOT d = f32[4,8] scaled-dot(a, b, sa, sb), lhs_contracting_dims={1}, rhs_contracting_dims={0})"),
                     "d", "f32[4,8]"));
  EXPECT_TRUE(FailsWith(Module(R"(
  a = f8e4m3fn[4,64] parameter(0)
  b = f8e4m3fn[64,8] parameter(1)
  sa = f8e8m0fnu[4,3] parameter(2)
  sb = f8e8m0fnu[2,8] parameter(3)
  ROOT d = f32[4,8] scaled-dot(a, b, sa, sb), lhs_contracting_dims={1}, rhs_contracting_dims={0})"),
                        {"instruction 'd' (scaled-dot)",
                         "the lhs scale is f8e8m0fnu[4,3]; expected the rank of f8e4m3fn[4,64]"}));
  EXPECT_TRUE(FailsWith(Module(R"(
  a = f32[4,64] parameter(0)
  b = f32[64,8] parameter(1)
  sa = f32[4,2] parameter(2)
  sb = f32[2,8] parameter(3)
  ROOT d = f8e4m3fn[4,8] scaled-dot(a, b, sa, sb), lhs_contracting_dims={1}, rhs_contracting_dims={0})"),
                        {"expected f16, bf16, f32 or f64"}));
}

TEST(ShapeInferenceTest, ScanStacksOutputsAndPassesCarries) {
  const char* step = R"(
step {
  x = f32[3] parameter(0)
  c = f32[3] parameter(1)
  s = f32[3] add(c, x)
  n = s32[] constant(0)
  ROOT t = (s32[], f32[3]) tuple(n, s)
})";
  EXPECT_TRUE(Infers(Module(R"(
  x = f32[5,3] parameter(0)
  c = f32[3] parameter(1)
  ROOT r = (s32[5], f32[3]) scan(x, c), dimensions={0}, num_carries=1, to_apply=step)",
                            step),
                     "r", "(s32[5], f32[3])"));
  EXPECT_TRUE(FailsWith(
      Module(R"(
  x = f32[5,3] parameter(0)
  c = f32[3] parameter(1)
  ROOT r = (s32[5], f32[3]) scan(x, c), dimensions={1}, num_carries=1, to_apply=step)",
             step),
      {"instruction 'r' (scan)", "parameter 0 has shape f32[3]", "a slice of input 0 is f32[5]"}));
  EXPECT_TRUE(FailsWith(Module(R"(
  x = f32[3,5] parameter(0)
  c = f32[3] parameter(1)
  ROOT r = (s32[5], f32[3]) scan(x, c), dimensions={1}, num_carries=2, to_apply=step)",
                               step),
                        {"num_carries=2 must leave at least one of its 2 operands as an input"}));
  EXPECT_TRUE(FailsWith(Module(R"(
  x = f32[3,5] parameter(0)
  c = f32[3] parameter(1)
  ROOT r = (s32[5], f32[3]) scan(x, c), dimensions={1}, to_apply=step)",
                               step),
                        {"num_carries"}));
}

TEST(ShapeInferenceTest, RaggedDotShapesAndUnsupportedForms) {
  EXPECT_TRUE(Infers(Module(R"(
  x = f32[2,7,5] parameter(0)
  w = f32[5,3,2] parameter(1)
  s = s64[2] parameter(2)
  ROOT r = f32[2,7,3] ragged-dot(x, w, s), lhs_contracting_dims={2}, rhs_contracting_dims={0}, lhs_ragged_dims={1}, rhs_group_dims={2})"),
                     "r", "f32[2,7,3]"));
  // A ragged contracting dimension: the groups lead the result.
  EXPECT_TRUE(Infers(Module(R"(
  x = f32[8,6] parameter(0)
  w = f32[6,3] parameter(1)
  s = s32[2] parameter(2)
  ROOT r = f32[2,8,3] ragged-dot(x, w, s), lhs_contracting_dims={1}, rhs_contracting_dims={0}, lhs_ragged_dims={1})"),
                     "r", "f32[2,8,3]"));
  // A ragged batch dimension: the dot's shape.
  EXPECT_TRUE(Infers(Module(R"(
  x = f32[4,8,6] parameter(0)
  w = f32[4,6,3] parameter(1)
  s = s32[3] parameter(2)
  ROOT r = f32[4,8,3] ragged-dot(x, w, s), lhs_batch_dims={0}, lhs_contracting_dims={2}, rhs_batch_dims={0}, rhs_contracting_dims={1}, lhs_ragged_dims={0})"),
                     "r", "f32[4,8,3]"));
  // A ragged free dimension with batch dimensions: g after rhs's batch.
  EXPECT_TRUE(Infers(Module(R"(
  x = f32[2,7,5] parameter(0)
  w = f32[2,3,5,4] parameter(1)
  s = s32[3] parameter(2)
  ROOT r = f32[2,7,4] ragged-dot(x, w, s), lhs_batch_dims={0}, lhs_contracting_dims={2}, rhs_batch_dims={0}, rhs_contracting_dims={2}, lhs_ragged_dims={1}, rhs_group_dims={1})"),
                     "r", "f32[2,7,4]"));
  EXPECT_TRUE(FailsWith(Module(R"(
  x = f32[8,6] parameter(0)
  w = f32[6,3] parameter(1)
  s = s32[2,2] parameter(2)
  ROOT r = f32[2,8,3] ragged-dot(x, w, s), lhs_contracting_dims={1}, rhs_contracting_dims={0}, lhs_ragged_dims={1})"),
                        {"instruction 'r' (ragged-dot)",
                         "per-batch group sizes are not supported by this compiler"}));
  EXPECT_TRUE(FailsWith(Module(R"(
  x = f32[8,6] parameter(0)
  w = f32[2,6,3] parameter(1)
  s = s32[2] parameter(2)
  ROOT r = f32[2,8,3] ragged-dot(x, w, s), lhs_contracting_dims={1}, rhs_contracting_dims={1}, lhs_ragged_dims={1}, rhs_group_dims={0})"),
                        {"rhs_group_dims must be empty when the ragged dimension is contracting"}));
  EXPECT_TRUE(
      FailsWith(Module(R"(
  x = f32[8,6] parameter(0)
  w = f32[3,6,4] parameter(1)
  s = s32[2] parameter(2)
  ROOT r = f32[8,4] ragged-dot(x, w, s), lhs_contracting_dims={1}, rhs_contracting_dims={1}, lhs_ragged_dims={0}, rhs_group_dims={0})"),
                {"group_sizes is s32[2]; expected a rank-1 integer array of the 3 groups"}));
  EXPECT_TRUE(FailsWith(Module(R"(
  x = f32[8,6] parameter(0)
  w = f32[3,6,4] parameter(1)
  s = s32[3] parameter(2)
  ROOT r = f32[8,4] ragged-dot(x, w, s), lhs_contracting_dims={1}, rhs_contracting_dims={1}, rhs_group_dims={0})"),
                        {"needs the attribute lhs_ragged_dims"}));
}

TEST(ShapeInferenceTest, FactorizationShapesAndErrors) {
  EXPECT_TRUE(Infers(Module(R"(
  a = f32[3,4,4] parameter(0)
  ROOT l = f32[3,4,4] cholesky(a), lower=true)"),
                     "l", "f32[3,4,4]"));
  EXPECT_TRUE(Infers(Module(R"(
  a = f32[3,4,4] parameter(0)
  b = f32[3,2,4] parameter(1)
  ROOT x = f32[3,2,4] triangular-solve(a, b), left_side=false, lower=true, transpose_a=TRANSPOSE)"),
                     "x", "f32[3,2,4]"));
  EXPECT_TRUE(FailsWith(Module(R"(
  a = f32[4,3] parameter(0)
  ROOT l = f32[4,3] cholesky(a))"),
                        {"instruction 'l' (cholesky)", "expected square matrices"}));
  EXPECT_TRUE(FailsWith(Module(R"(
  a = s32[4,4] parameter(0)
  ROOT l = s32[4,4] cholesky(a))"),
                        {"instruction 'l' (cholesky)", "floating-point or complex"}));
  EXPECT_TRUE(FailsWith(Module(R"(
  a = f32[4,4] parameter(0)
  b = f32[3,2] parameter(1)
  ROOT x = f32[3,2] triangular-solve(a, b), left_side=true)"),
                        {"instruction 'x' (triangular-solve)", "left_side: b's dimension 0 is 3"}));
  EXPECT_TRUE(FailsWith(Module(R"(
  a = f32[4,4] parameter(0)
  b = f32[4,2] parameter(1)
  ROOT x = f32[4,2] triangular-solve(a, b), left_side=true, transpose_a=CONJUGATE)"),
                        {"instruction 'x' (triangular-solve)", "transpose_a",
                         "one of NO_TRANSPOSE, TRANSPOSE, ADJOINT"}));
}

}  // namespace
}  // namespace aot
