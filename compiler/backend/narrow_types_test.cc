// The narrow element types (f8*, f4e2m1fn, s4/u4/s2/u2/s1/u1), staged behind
// the emission flag emit_extended_element_types (refused by default, see
// XlaFormsTest): with the flag on, conversions from and to every one of
// them are bit for bit the interpreter's (support/minifloat.h) on every
// code and on the values where rounding decides (midpoints, their
// neighbours, overflow, NaN, infinities, zeros, subnormals), and modules
// computing on them match the interpreter on host; they compile for CUDA
// where libdevice is.
#include <cmath>
#include <filesystem>
#include <limits>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_replace.h"
#include "compiler/backend/compiler.h"
#include "compiler/hlo/hlo_parser.h"
#include "compiler/interpreter/evaluator.h"
#include "compiler/target/target_config.h"
#include "compiler/tooling/literal_execution.h"
#include "compiler/tooling/random_literal.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "runtime/executable/client.h"
#include "support/minifloat.h"

namespace aot {
namespace {

constexpr char kFlag[] = "emit_extended_element_types";

bool HaveLibdevice() {
  return std::filesystem::exists("/usr/local/cuda/nvvm/libdevice/libdevice.10.bc");
}

// Compiles `text` for host with the flag on, runs it on `args` and checks
// the result against the interpreter: the narrow leaves byte for byte, the
// others exactly (NaN matching NaN). Compiles for CUDA too, device-less.
void ExpectMatchesInterpreter(const std::string& text, const std::vector<Literal>& args) {
  SCOPED_TRACE(text);
  auto module = ParseHloModule(text);
  ASSERT_TRUE(module.ok()) << module.status();
  CompileOptions options;
  options.emission_flags = {kFlag};
  auto compiled = Compile(**module, *ShippedTargetConfig("host-x86-64-v3"), options);
  ASSERT_TRUE(compiled.ok()) << compiled.status();
  auto client = Client::Create("host");
  ASSERT_TRUE(client.ok());
  auto executable = (*client)->DeserializeExecutable((*compiled)->SerializeAsString());
  ASSERT_TRUE(executable.ok()) << executable.status();
  HloEvaluator evaluator;
  auto expected = evaluator.Evaluate(**module, args);
  ASSERT_TRUE(expected.ok()) << expected.status();
  auto actual = ExecuteWithLiterals(**executable, args);
  ASSERT_TRUE(actual.ok()) << actual.status();
  ASSERT_EQ(expected->shape().IsTuple(), actual->shape().IsTuple());
  const size_t leaves = expected->shape().IsTuple() ? expected->tuple_elements().size() : 1;
  for (size_t i = 0; i < leaves; ++i) {
    const Literal& want = expected->shape().IsTuple() ? expected->tuple_element(i) : *expected;
    const Literal& got = actual->shape().IsTuple() ? actual->tuple_element(i) : *actual;
    SCOPED_TRACE(absl::StrCat("result ", i, ": ", want.shape().ToString(false)));
    if (IsNarrowType(want.shape().element_type())) {
      ASSERT_EQ(want.raw().size(), got.raw().size());
      for (size_t k = 0; k < want.raw().size(); ++k) {
        EXPECT_EQ(static_cast<int>(want.raw()[k]), static_cast<int>(got.raw()[k]))
            << "element " << k;
      }
    } else {
      absl::Status same = CompareLiterals(want, got, Tolerance{0, 0});
      EXPECT_TRUE(same.ok()) << same;
    }
  }
  if (HaveLibdevice()) {
    for (const char* target : {"h100", "a100"}) {
      auto ptx = Compile(**module, *ShippedTargetConfig(target), options);
      EXPECT_TRUE(ptx.ok()) << target << ": " << ptx.status();
    }
  }
}

struct FloatType {
  const char* name;
  PrimitiveType type;
  MinifloatFormat format;
  bool signed_format;
};

const FloatType kFloatTypes[] = {
    {"f8e5m2", F8E5M2, kF8E5M2, true},
    {"f8e4m3", F8E4M3, kF8E4M3, true},
    {"f8e3m4", F8E3M4, kF8E3M4, true},
    {"f8e4m3fn", F8E4M3FN, kF8E4M3FN, true},
    {"f8e4m3fnuz", F8E4M3FNUZ, kF8E4M3FNUZ, true},
    {"f8e5m2fnuz", F8E5M2FNUZ, kF8E5M2FNUZ, true},
    {"f8e4m3b11fnuz", F8E4M3B11FNUZ, kF8E4M3B11FNUZ, true},
    {"f8e8m0fnu", F8E8M0FNU, kF8E8M0FNU, false},
    {"f4e2m1fn", F4E2M1FN, kF4E2M1FN, true},
};

int CodeCount(const FloatType& t) { return t.type == F4E2M1FN ? 16 : 256; }

// The values where a conversion to `t` decides something: each code's
// value and its neighbours, the midpoints between consecutive values and
// their neighbours, beyond the largest value, zeros, infinities, NaN, the
// f32 subnormals.
std::vector<double> DecisiveValues(const FloatType& t) {
  std::vector<double> finite;
  for (int code = 0; code < CodeCount(t); ++code) {
    const double v = MinifloatToDouble(static_cast<uint8_t>(code), t.format);
    if (std::isfinite(v) && v >= 0) finite.push_back(v);
  }
  std::sort(finite.begin(), finite.end());
  std::vector<double> out;
  auto add_around = [&](double v) {
    out.push_back(v);
    out.push_back(std::nextafter(static_cast<float>(v), std::numeric_limits<float>::infinity()));
    out.push_back(std::nextafter(static_cast<float>(v), -std::numeric_limits<float>::infinity()));
  };
  for (size_t i = 0; i < finite.size(); ++i) {
    add_around(finite[i]);
    if (i + 1 < finite.size()) add_around((finite[i] + finite[i + 1]) / 2);
  }
  const double max = finite.back(), below = finite[finite.size() - 2];
  for (double beyond : {max + (max - below) / 2, max * 1.5, max * 2, max * 4, 1e30}) {
    add_around(beyond);
  }
  for (double special :
       {0.0, std::numeric_limits<double>::infinity(), std::numeric_limits<double>::quiet_NaN(),
        1e-45, 1e-39, 5e-39, std::ldexp(1.0, -127), std::ldexp(1.5, -127), std::ldexp(1.0, -126)}) {
    out.push_back(special);
  }
  const size_t positive = out.size();
  for (size_t i = 0; i < positive; ++i) out.push_back(-out[i]);
  return out;
}

TEST(NarrowTypesTest, FloatConversionsAreTheInterpretersBitForBit) {
  for (const FloatType& t : kFloatTypes) {
    SCOPED_TRACE(t.name);
    const std::vector<double> values = DecisiveValues(t);
    const int64_t n = static_cast<int64_t>(values.size());
    const int codes = CodeCount(t);
    // Every code, read as f32, f64, f16, bf16, s32, s4, pred and another
    // narrow float; every decisive value converted from f32, f64, bf16 and
    // s32.
    const std::string other = t.type == F8E5M2 ? "f8e4m3fn" : "f8e5m2";
    std::string text = absl::StrReplaceAll(
        R"(HloModule convert_$T
ENTRY e {
  codes = $T[$C] parameter(0)
  f = f32[$C] convert(codes)
  d = f64[$C] convert(codes)
  h = f16[$C] convert(codes)
  b = bf16[$C] convert(codes)
  i = s32[$C] convert(codes)
  q = s4[$C] convert(codes)
  p = pred[$C] convert(codes)
  o = $O[$C] convert(codes)
  v32 = f32[$N] parameter(1)
  v64 = f64[$N] parameter(2)
  from32 = $T[$N] convert(v32)
  from64 = $T[$N] convert(v64)
  vb = bf16[$N] convert(v32)
  frombf = $T[$N] convert(vb)
  vi = s32[$N] convert(v64)
  fromint = $T[$N] convert(vi)
  ROOT t = (f32[$C], f64[$C], f16[$C], bf16[$C], s32[$C], s4[$C], pred[$C], $O[$C], $T[$N], $T[$N], $T[$N], $T[$N]) tuple(f, d, h, b, i, q, p, o, from32, from64, frombf, fromint)
})",
        {{"$T", t.name}, {"$O", other}, {"$C", absl::StrCat(codes)}, {"$N", absl::StrCat(n)}});
    Literal code_literal(Shape(t.type, {codes}));
    for (int code = 0; code < codes; ++code)
      code_literal.raw_data()[code] = static_cast<uint8_t>(code);
    std::vector<Literal> args;
    args.push_back(std::move(code_literal));
    args.push_back(Literal::FromDoubles(Shape(F32, {n}), values));
    args.push_back(Literal::FromDoubles(Shape(F64, {n}), values));
    ExpectMatchesInterpreter(text, args);
  }
}

TEST(NarrowTypesTest, SubByteIntegersWrapAndSaturateAsTheInterpreter) {
  std::vector<double> floats;
  std::vector<int64_t> ints;
  for (int v = -300; v <= 300; ++v) {
    ints.push_back(v);
    floats.push_back(v / 3.0);
  }
  for (double special : {std::numeric_limits<double>::quiet_NaN(),
                         std::numeric_limits<double>::infinity(), 1e10, -1e10, -0.0}) {
    floats.push_back(special);
    ints.push_back(static_cast<int64_t>(floats.size()) * 1000003);
  }
  const int64_t n = static_cast<int64_t>(ints.size());
  for (const char* type : {"s4", "u4", "s2", "u2", "s1", "u1"}) {
    std::string text = absl::StrReplaceAll(
        R"(HloModule ints_$T
ENTRY e {
  i = s32[$N] parameter(0)
  f = f32[$N] parameter(1)
  a = $T[$N] convert(i)
  b = $T[$N] convert(f)
  s = $T[$N] add(a, b)
  m = $T[$N] multiply(s, a)
  n = $T[$N] negate(m)
  c = pred[$N] compare(a, b), direction=LT
  x = $T[$N] select(c, n, a)
  wide = s32[$N] convert(x)
  real = f32[$N] convert(s)
  other = s4[$N] convert(x)
  ROOT t = ($T[$N], $T[$N], $T[$N], s32[$N], f32[$N], s4[$N]) tuple(a, b, x, wide, real, other)
})",
        {{"$T", type}, {"$N", absl::StrCat(n)}});
    std::vector<Literal> args;
    args.push_back(Literal::FromInt64s(Shape(S32, {n}), ints));
    args.push_back(Literal::FromDoubles(Shape(F32, {n}), floats));
    ExpectMatchesInterpreter(text, args);
  }
}

// Programs as XLA writes them with 8-bit floats: a scaled matmul, narrow
// arithmetic with constants, values that only move, loop state.
TEST(NarrowTypesTest, ModulesComputingOnNarrowTypesMatchTheInterpreter) {
  const char* const modules[] = {
      R"(HloModule scaled_matmul
ENTRY e {
  a = f8e4m3fn[32,64] parameter(0)
  b = f8e5m2[64,16] parameter(1)
  sa = f32[] parameter(2)
  af = f32[32,64] convert(a)
  bf = f32[64,16] convert(b)
  d = f32[32,16] dot(af, bf), lhs_contracting_dims={1}, rhs_contracting_dims={0}
  s = f32[32,16] broadcast(sa), dimensions={}
  r = f32[32,16] multiply(d, s)
  ROOT q = f8e4m3fn[32,16] convert(r)
})",
      R"(HloModule narrow_arithmetic
ENTRY e {
  a = f8e4m3fn[4,8] parameter(0)
  b = f8e4m3fn[4,8] parameter(1)
  k = f8e4m3fn[8] constant({1, 0.5, -2, 448, -0.015625, 3, 0, 12})
  kb = f8e4m3fn[4,8] broadcast(k), dimensions={1}
  m = f8e4m3fn[4,8] multiply(a, kb)
  s = f8e4m3fn[4,8] add(m, b)
  t = f8e4m3fn[8,4] transpose(s), dimensions={1,0}
  e = f8e5m2[8,4] convert(t)
  x = f8e5m2[8,4] exponential(e)
  c = pred[8,4] compare(x, e), direction=GT
  ma = f8e5m2[8,4] maximum(x, e)
  sl = f8e5m2[4,4] slice(ma), slice={[2:6], [0:4]}
  p = f8e5m2[] constant(0)
  pd = f8e5m2[6,6] pad(sl, p), padding=1_1x1_1
  ROOT r = (f8e5m2[8,4], pred[8,4], f8e5m2[6,6]) tuple(x, c, pd)
})",
      R"(HloModule narrow_loop
cond {
  s = (s32[], f8e4m3fnuz[16], s4[16]) parameter(0)
  i = s32[] get-tuple-element(s), index=0
  n = s32[] constant(4)
  ROOT c = pred[] compare(i, n), direction=LT
}
body {
  s = (s32[], f8e4m3fnuz[16], s4[16]) parameter(0)
  i = s32[] get-tuple-element(s), index=0
  x = f8e4m3fnuz[16] get-tuple-element(s), index=1
  q = s4[16] get-tuple-element(s), index=2
  one = s32[] constant(1)
  j = s32[] add(i, one)
  h = f8e4m3fnuz[] constant(1.5)
  hb = f8e4m3fnuz[16] broadcast(h), dimensions={}
  y = f8e4m3fnuz[16] multiply(x, hb)
  three = s4[] constant(3)
  tb = s4[16] broadcast(three), dimensions={}
  z = s4[16] add(q, tb)
  ROOT t = (s32[], f8e4m3fnuz[16], s4[16]) tuple(j, y, z)
}
ENTRY e {
  x = f8e4m3fnuz[16] parameter(0)
  q = s4[16] parameter(1)
  zero = s32[] constant(0)
  s = (s32[], f8e4m3fnuz[16], s4[16]) tuple(zero, x, q)
  w = (s32[], f8e4m3fnuz[16], s4[16]) while(s), condition=cond, body=body
  ROOT r = f8e4m3fnuz[16] get-tuple-element(w), index=1
})",
  };
  uint64_t seed = 0;
  for (const char* text : modules) {
    auto module = ParseHloModule(text);
    ASSERT_TRUE(module.ok()) << module.status();
    ExpectMatchesInterpreter(text, RandomArguments(**module, ++seed));
  }
}

}  // namespace
}  // namespace aot
