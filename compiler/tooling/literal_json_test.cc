// The JSON literal format and RandomLiteral.

#include "compiler/tooling/literal_json.h"

#include <cmath>
#include <complex>
#include <limits>

#include "compiler/interpreter/test_util.h"
#include "compiler/tooling/random_literal.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace aot {
namespace interpreter_test {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
constexpr double kInf = std::numeric_limits<double>::infinity();

TEST(LiteralJsonTest, ParsesTheDocumentedForm) {
  auto literals = ParseLiteralsJson(R"({"arguments": [
      {"shape": "f32[2,3]", "data": [1, 2, 3, 4, 5, 6.5]},
      {"shape": "pred[2]", "data": [true, false]},
      {"shape": "s32[]", "data": [-7]},
      {"shape": "f64[]", "data": 2.5},
      {"shape": "f32[2,2]{0,1}", "data": [1, 2, 3, 4]},
      {"shape": "u8[0]", "data": []}]})",
                                    "arguments");
  ASSERT_TRUE(literals.ok()) << literals.status();
  ASSERT_EQ(literals->size(), 6u);
  EXPECT_EQ(ShapeOf((*literals)[0]), "f32[2,3]");
  EXPECT_THAT(Doubles((*literals)[0]), ElementsAre(1, 2, 3, 4, 5, 6.5));
  EXPECT_THAT(Bools((*literals)[1]), ElementsAre(true, false));
  EXPECT_THAT(Ints((*literals)[2]), ElementsAre(-7));
  EXPECT_THAT(Doubles((*literals)[3]), ElementsAre(2.5));
  // Data is logical whatever the layout.
  EXPECT_THAT(Doubles((*literals)[4]), ElementsAre(1, 2, 3, 4));
  EXPECT_EQ((*literals)[5].element_count(), 0);
}

TEST(LiteralJsonTest, RoundTripsSpecialAndExtremeValues) {
  std::vector<Literal> in;
  in.push_back(L("f32[7]", {kNaN, kInf, -kInf, -0.0, 0.1, 3.4028234663852886e38, 1e-45}));
  in.push_back(L("f64[3]", {0.1, 1e300, -5e-324}));
  in.push_back(L("f16[3]", {0.1, 65504, 6e-8}));
  in.push_back(L("bf16[2]", {0.1, 3e38}));
  Literal u64(*ParseShape("u64[2]"));
  u64.SetFromUint64(0, std::numeric_limits<uint64_t>::max());
  u64.SetFromUint64(1, 0);
  in.push_back(std::move(u64));
  in.push_back(
      LI("s64[2]", {std::numeric_limits<int64_t>::min(), std::numeric_limits<int64_t>::max()}));
  in.push_back(LI("pred[2]", {1, 0}));
  in.push_back(LI("s8[2]", {-128, 127}));
  std::string json = LiteralsToJson(in, "results");
  EXPECT_THAT(json, HasSubstr("\"nan\", \"inf\", \"-inf\", -0.0, 0.1,"));
  EXPECT_THAT(json, HasSubstr("18446744073709551615, 0"));
  EXPECT_THAT(json, HasSubstr("-9223372036854775808, 9223372036854775807"));
  EXPECT_THAT(json, HasSubstr("[true, false]"));
  auto back = ParseLiteralsJson(json, "results");
  ASSERT_TRUE(back.ok()) << back.status() << "\n" << json;
  ASSERT_EQ(back->size(), in.size());
  for (size_t i = 0; i < in.size(); ++i) {
    EXPECT_EQ((*back)[i], in[i]) << i << ": " << json;  // bitwise, NaN included
  }
  // Integral floats print as integers, not "3e+01".
  EXPECT_THAT(LiteralsToJson({L("f32[2]", {30, -1e6})}, "results"), HasSubstr("[30, -1000000]"));
}

TEST(LiteralJsonTest, NarrowTypesRoundTripAndRangeCheck) {
  std::vector<Literal> in;
  in.push_back(L("f8e4m3fn[4]", {448, -0.001953125, kNaN, -0.0}));
  in.push_back(L("f8e5m2[2]", {kInf, 57344}));
  in.push_back(LI("s4[2]", {-8, 7}));
  in.push_back(LI("u2[2]", {0, 3}));
  std::string json = LiteralsToJson(in, "results");
  EXPECT_THAT(json, HasSubstr("448, -0.001953125, \"nan\", -0.0"));
  auto back = ParseLiteralsJson(json, "results");
  ASSERT_TRUE(back.ok()) << back.status();
  ASSERT_EQ(back->size(), in.size());
  for (size_t i = 0; i < in.size(); ++i) EXPECT_EQ((*back)[i], in[i]) << i;
  // The range is the type's bits, not its byte.
  auto wide = ParseLiteralsJson(R"({"arguments": [{"shape": "s4[1]", "data": [8]}]})", "arguments");
  ASSERT_FALSE(wide.ok());
  EXPECT_THAT(std::string(wide.status().message()), HasSubstr("is out of range for s4"));
  // Random narrow floats are finite, small multiples of 1/8.
  Literal r = RandomLiteral(*ParseShape("f8e4m3fn[64]"), 5);
  for (double v : Doubles(r)) EXPECT_TRUE(std::isfinite(v) && std::fabs(v) <= 1) << v;
}

TEST(LiteralJsonTest, ComplexElementsArePairs) {
  Literal c(*ParseShape("c64[2]"));
  c.SetFromComplex(0, {1.5, -2});
  c.SetFromComplex(1, {0, std::numeric_limits<double>::infinity()});
  std::string json = LiteralsToJson({c}, "results");
  EXPECT_THAT(json, HasSubstr("\"data\": [[1.5, -2], [0, \"inf\"]]")) << json;
  auto back = ParseLiteralsJson(json, "results");
  ASSERT_TRUE(back.ok()) << back.status();
  ASSERT_EQ(back->size(), 1u);
  EXPECT_EQ((*back)[0], c);
  auto flat =
      ParseLiteralsJson(R"({"arguments": [{"shape": "c128[1]", "data": [3]}]})", "arguments");
  ASSERT_FALSE(flat.ok());
  EXPECT_THAT(std::string(flat.status().message()),
              HasSubstr("arguments[0].data[0]: 3 is not a c128 (use [real, imag])"));
  auto bad_part = ParseLiteralsJson(R"({"arguments": [{"shape": "c64[1]", "data": [[1, true]]}]})",
                                    "arguments");
  ASSERT_FALSE(bad_part.ok());
  EXPECT_THAT(std::string(bad_part.status().message()), HasSubstr("arguments[0].data[0][1]"));
  // Random complex values have both parts in [-1, 1).
  Literal r = RandomLiteral(*ParseShape("c64[16]"), 3);
  bool any_imag = false;
  for (int64_t i = 0; i < r.element_count(); ++i) {
    const std::complex<double> z = r.GetAsComplex(i);
    EXPECT_TRUE(std::fabs(z.real()) <= 1 && std::fabs(z.imag()) <= 1) << z.real();
    any_imag |= z.imag() != 0;
  }
  EXPECT_TRUE(any_imag);
}

TEST(LiteralJsonTest, TuplesAreFlattenedDepthFirst) {
  std::vector<Literal> inner;
  inner.push_back(LI("s32[]", {1}));
  inner.push_back(L("f32[2]", {2, 3}));
  std::vector<Literal> outer;
  outer.push_back(L("f32[]", {0}));
  outer.push_back(Literal::Tuple(std::move(inner)));
  std::vector<Literal> values;
  values.push_back(Literal::Tuple(std::move(outer)));
  values.push_back(LI("u8[1]", {9}));
  std::string json = LiteralsToJson(values, "results");
  auto leaves = ParseLiteralsJson(json, "results");
  ASSERT_TRUE(leaves.ok()) << leaves.status();
  ASSERT_EQ(leaves->size(), 4u);
  EXPECT_EQ(ShapeOf((*leaves)[0]), "f32[]");
  EXPECT_EQ(ShapeOf((*leaves)[1]), "s32[]");
  EXPECT_EQ(ShapeOf((*leaves)[2]), "f32[2]");
  EXPECT_EQ(ShapeOf((*leaves)[3]), "u8[1]");
  // And back into the tuple structure.
  std::vector<Shape> shapes = {values[0].shape(), values[1].shape()};
  auto regrouped = UnflattenLiterals(shapes, *std::move(leaves));
  ASSERT_TRUE(regrouped.ok()) << regrouped.status();
  EXPECT_EQ((*regrouped)[0], values[0]);
  EXPECT_EQ((*regrouped)[1], values[1]);
  auto wrong = UnflattenLiterals(shapes, {});
  ASSERT_FALSE(wrong.ok());
  EXPECT_THAT(std::string(wrong.status().message()), HasSubstr("0 value(s) given, 4 expected"));
  EXPECT_EQ(LiteralsToJson({}, "results"), "{\"results\": []}\n");
}

// The error of parsing `entries` (the inside of the arguments list).
std::string ErrorOf(absl::string_view entries) {
  auto r = ParseLiteralsJson(absl::StrCat("{\"arguments\": [", entries, "]}"), "arguments");
  EXPECT_FALSE(r.ok()) << entries;
  return r.ok() ? "" : std::string(r.status().message());
}

TEST(LiteralJsonTest, ErrorsSayWhichEntryAndWhy) {
  EXPECT_THAT(ErrorOf(R"({"shape": "f32[2,3]", "data": [1, 2]})"),
              HasSubstr("arguments[0].data: has 2 values, shape f32[2,3] needs 6"));
  EXPECT_THAT(ErrorOf(R"({"shape": "f32[]", "data": [1]}, {"shape": "u8[2]", "data": [1, 300]})"),
              HasSubstr("arguments[1].data[1]: 300 is out of range for u8"));
  EXPECT_THAT(ErrorOf(R"({"shape": "u32[1]", "data": [-1]})"),
              HasSubstr("-1 is out of range for u32"));
  EXPECT_THAT(ErrorOf(R"({"shape": "u64[1]", "data": [18446744073709551616]})"),
              HasSubstr("out of range for u64"));
  EXPECT_THAT(ErrorOf(R"({"shape": "s64[1]", "data": [9223372036854775808]})"),
              HasSubstr("out of range for s64"));
  EXPECT_THAT(ErrorOf(R"({"shape": "s32[1]", "data": [1.5]})"), HasSubstr("1.5 is not an integer"));
  EXPECT_THAT(ErrorOf(R"({"shape": "f32[1]", "data": ["one"]})"),
              HasSubstr("\"one\" is not a number"));
  EXPECT_THAT(ErrorOf(R"({"shape": "pred[1]", "data": [2]})"), HasSubstr("is not a pred"));
  EXPECT_THAT(ErrorOf(R"({"shape": "f33[1]", "data": [1]})"),
              HasSubstr("arguments[0].shape: cannot parse 'f33[1]'"));
  EXPECT_THAT(ErrorOf(R"json({"shape": "(f32[], f32[])", "data": [1, 2]})json"),
              HasSubstr("is not an array shape"));
  EXPECT_THAT(ErrorOf(R"({"shape": "f32[2]", "data": [[1], [2]]})"),
              HasSubstr("nested lists are not accepted"));
  EXPECT_THAT(ErrorOf(R"({"data": [1]})"), HasSubstr("missing \"shape\""));
  EXPECT_THAT(ErrorOf(R"({"shape": "f32[1]"})"), HasSubstr("missing \"data\""));
  EXPECT_THAT(ErrorOf(R"(7)"), HasSubstr("arguments[0]: expected an object"));

  auto not_json = ParseLiteralsJson("{\"arguments\": [", "arguments");
  ASSERT_FALSE(not_json.ok());
  EXPECT_THAT(std::string(not_json.status().message()), HasSubstr("invalid JSON"));
  auto no_key = ParseLiteralsJson("{\"results\": []}", "arguments");
  ASSERT_FALSE(no_key.ok());
  EXPECT_THAT(std::string(no_key.status().message()), HasSubstr("missing key \"arguments\""));
  auto not_list = ParseLiteralsJson("{\"arguments\": 3}", "arguments");
  ASSERT_FALSE(not_list.ok());
  auto not_object = ParseLiteralsJson("[1, 2]", "arguments");
  ASSERT_FALSE(not_object.ok());
  EXPECT_THAT(std::string(not_object.status().message()), HasSubstr("expected a JSON object"));
}

TEST(RandomLiteralTest, SplitMix64MatchesTheReference) {
  SplitMix64 rng(0);
  EXPECT_EQ(rng.Next(), 0xe220a8397b1dcdafull);
  EXPECT_EQ(rng.Next(), 0x6e789e6aa1b965f4ull);
}

TEST(RandomLiteralTest, DeterministicAndInRange) {
  auto shape = ParseShape("(f32[100], s32[100], u8[100], pred[100], bf16[50], f16[50], f64[10])");
  ASSERT_TRUE(shape.ok());
  Literal a = RandomLiteral(*shape, 42);
  Literal b = RandomLiteral(*shape, 42);
  Literal c = RandomLiteral(*shape, 43);
  EXPECT_EQ(a, b);
  EXPECT_NE(a, c);
  for (const Literal& leaf : a.FlattenLeaves()) {
    const PrimitiveType t = leaf.shape().element_type();
    bool any_nonzero = false;
    for (int64_t i = 0; i < leaf.element_count(); ++i) {
      const double v = leaf.GetAsDouble(i);
      any_nonzero |= v != 0;
      if (IsFloatingPoint(t)) {
        EXPECT_GE(v, -1);
        EXPECT_LT(v, 1);
      } else if (IsSignedInteger(t)) {
        EXPECT_GE(v, -8);
        EXPECT_LT(v, 8);
      } else if (IsUnsignedInteger(t)) {
        EXPECT_LT(v, 16);
      }
    }
    EXPECT_TRUE(any_nonzero) << leaf.shape().ToString();
  }
  // Values are fixed across machines: a golden check of the first f32.
  Literal f = RandomLiteral(*ParseShape("f32[2]"), 0);
  // 0xe220a8397b1dcdaf >> 40 = 0xe220a8 = 14819496; (k - 2^23) / 2^23.
  EXPECT_EQ(f.Get<float>(0), static_cast<float>((14819496.0 - 8388608.0) / 8388608.0));
}

}  // namespace
}  // namespace interpreter_test
}  // namespace aot
