#include "compiler/hlo/literal.h"

#include <cmath>
#include <limits>

#include "absl/strings/str_cat.h"
#include "compiler/hlo/hlo_parser.h"
#include "gtest/gtest.h"

namespace aot {
namespace {

TEST(Float16Test, Bf16RoundsToNearestEven) {
  // 1 + 2^-8 is halfway between 1 and 1 + 2^-7: ties to even -> 1.
  EXPECT_EQ(Bf16BitsToFloat(FloatToBf16Bits(1.0f + 0x1p-8f)), 1.0f);
  // 1 + 3*2^-8 is halfway between 1+2^-7 and 1+2^-6: ties to even -> 1+2^-6.
  EXPECT_EQ(Bf16BitsToFloat(FloatToBf16Bits(1.0f + 3 * 0x1p-8f)), 1.0f + 0x1p-6f);
  EXPECT_TRUE(std::isnan(Bf16BitsToFloat(FloatToBf16Bits(NAN))));
  EXPECT_EQ(Bf16BitsToFloat(FloatToBf16Bits(INFINITY)), INFINITY);
}

TEST(Float16Test, HalfConversions) {
  EXPECT_EQ(HalfBitsToFloat(FloatToHalfBits(65504.0f)), 65504.0f);
  EXPECT_EQ(HalfBitsToFloat(FloatToHalfBits(65520.0f)), INFINITY);
  EXPECT_EQ(HalfBitsToFloat(FloatToHalfBits(65519.0f)), 65504.0f);
  EXPECT_EQ(HalfBitsToFloat(FloatToHalfBits(0x1p-24f)), 0x1p-24f);  // min subnormal
  EXPECT_EQ(HalfBitsToFloat(FloatToHalfBits(0x1p-25f)), 0.0f);      // tie to even (0)
  EXPECT_EQ(HalfBitsToFloat(FloatToHalfBits(0x1.8p-25f)), 0x1p-24f);
  EXPECT_EQ(HalfBitsToFloat(FloatToHalfBits(1.0f + 0x1p-11f)), 1.0f);  // tie -> even
  EXPECT_EQ(HalfBitsToFloat(FloatToHalfBits(-2.5f)), -2.5f);
  EXPECT_TRUE(std::isnan(HalfBitsToFloat(FloatToHalfBits(NAN))));
  // Every half value round-trips through float.
  for (uint32_t bits = 0; bits < 0x10000; ++bits) {
    float f = HalfBitsToFloat(static_cast<uint16_t>(bits));
    if (std::isnan(f)) continue;
    ASSERT_EQ(FloatToHalfBits(f), bits) << bits;
  }
}

TEST(Float16Test, NanPayloadsSurviveARoundTripThroughFloat) {
  // Every 16-bit NaN pattern (quiet or signalling, either sign) comes back
  // bit for bit, as bitcast-convert through f32 needs.
  for (uint32_t bits = 0; bits < 0x10000; ++bits) {
    uint16_t b = static_cast<uint16_t>(bits);
    if (std::isnan(HalfBitsToFloat(b))) {
      ASSERT_EQ(FloatToHalfBits(HalfBitsToFloat(b)), b) << bits;
    }
    if (std::isnan(Bf16BitsToFloat(b))) {
      ASSERT_EQ(FloatToBf16Bits(Bf16BitsToFloat(b)), b) << bits;
    }
  }
  // A float NaN whose payload lies below the 16-bit mantissa stays a NaN.
  float low_payload = BitsToFloat(0x7f800001u);
  EXPECT_TRUE(std::isnan(HalfBitsToFloat(FloatToHalfBits(low_payload))));
  EXPECT_TRUE(std::isnan(Bf16BitsToFloat(FloatToBf16Bits(low_payload))));
}

TEST(LiteralTest, LeavesAreTheTuplesLeavesInPlaceDepthFirst) {
  Literal a = Literal::FromDoubles(Shape(F32, {2}), {1, 2});
  Literal b = Literal::FromInt64s(Shape(S32, {1}), {7});
  Literal c = Literal::FromDoubles(Shape(F64, {1}), {3});
  Literal t = Literal::Tuple({a, Literal::Tuple({b, c})});
  std::vector<const Literal*> leaves = t.Leaves();
  ASSERT_EQ(leaves.size(), 3u);
  EXPECT_EQ(leaves[0], &t.tuple_element(0));
  EXPECT_EQ(leaves[1], &t.tuple_element(1).tuple_element(0));
  EXPECT_EQ(leaves[2], &t.tuple_element(1).tuple_element(1));
  std::vector<Literal> copies = t.FlattenLeaves();
  for (size_t i = 0; i < leaves.size(); ++i) EXPECT_EQ(*leaves[i], copies[i]);
  EXPECT_EQ(a.Leaves(), std::vector<const Literal*>{&a});
}

TEST(LiteralTest, ConversionsFollowXla) {
  Literal s8(Shape(S8, {4}));
  s8.SetFromDouble(0, 300.0);  // saturates
  s8.SetFromDouble(1, -1e9);
  s8.SetFromDouble(2, NAN);  // NaN -> 0
  s8.SetFromInt64(3, 300);   // int -> int wraps
  EXPECT_EQ(s8.GetAsInt64(0), 127);
  EXPECT_EQ(s8.GetAsInt64(1), -128);
  EXPECT_EQ(s8.GetAsInt64(2), 0);
  EXPECT_EQ(s8.GetAsInt64(3), 44);
  Literal u64(Shape(U64, {1}));
  u64.SetFromUint64(0, std::numeric_limits<uint64_t>::max());
  EXPECT_EQ(u64.GetAsUint64(0), std::numeric_limits<uint64_t>::max());
}

TEST(LiteralTest, ValuesToStringNestsByRank) {
  Literal l = Literal::FromDoubles(Shape(F32, {2, 2}), {1, 2.5, -3, 0.1});
  EXPECT_EQ(l.ValuesToString(), "{ {1, 2.5}, {-3, 0.1} }");
  Literal p = Literal::FromInt64s(Shape(PRED, {2}), {1, 0});
  EXPECT_EQ(p.ValuesToString(), "{true, false}");
  Literal nan = Literal::FromDoubles(Shape(F32, {}), {NAN});
  EXPECT_EQ(nan.ValuesToString(), "nan");
  Literal t = Literal::Tuple({Literal::FromInt64s(Shape(S32, {}), {3}),
                              Literal::FromDoubles(Shape(F64, {1}), {-INFINITY})});
  EXPECT_EQ(t.ValuesToString(), "(3, {-inf})");
}

TEST(LiteralTest, FormatFloatRoundTrips) {
  for (float f : {0.1f, 1.0f / 3.0f, 3.4028235e38f, 1.17549435e-38f, -0.0f}) {
    std::string s = FormatFloat(f, F32);
    EXPECT_EQ(std::strtof(s.c_str(), nullptr), f) << s;
  }
  EXPECT_EQ(FormatFloat(0.1, F64), "0.1");
  EXPECT_EQ(FormatFloat(1.0 / 3.0, F64), "0.3333333333333333");
  EXPECT_EQ(FormatFloat(1.0 / 3.0, BF16), "0.3333");
  EXPECT_EQ(FormatFloat(0.5, F32), "0.5");
}

TEST(LiteralTest, ProtoRoundTripEveryType) {
  for (PrimitiveType t : {PRED, S8, S16, S32, S64, U8, U16, U32, U64, F16, BF16, F32, F64}) {
    Literal l = Literal::FromDoubles(Shape(t, {3}), {1, 0, 2});
    auto back = Literal::FromProto(l.ToProto());
    ASSERT_TRUE(back.ok()) << PrimitiveTypeName(t) << ": " << back.status();
    EXPECT_EQ(*back, l) << PrimitiveTypeName(t);
  }
  LiteralProto bad = Literal(Shape(F32, {3})).ToProto();
  bad.mutable_f32s()->RemoveLast();
  EXPECT_FALSE(Literal::FromProto(bad).ok());
}

TEST(LiteralTest, NarrowTypesPrintParseAndTravelThroughTheProto) {
  auto module = ParseHloModule(R"(
HloModule m
ENTRY e {
  f = f8e4m3fn[3] constant({1, -0.5, 448})
  i = s4[3] constant({-8, 7, -1})
  ROOT t = (f8e4m3fn[3], s4[3]) tuple(f, i)
})");
  ASSERT_TRUE(module.ok()) << module.status();
  const std::string printed = (*module)->ToString();
  EXPECT_NE(printed.find("f8e4m3fn[3]{0} constant({1, -0.5, 448})"), std::string::npos) << printed;
  EXPECT_NE(printed.find("s4[3]{0} constant({-8, 7, -1})"), std::string::npos) << printed;
  auto again = ParseHloModule(printed);
  ASSERT_TRUE(again.ok()) << again.status();
  EXPECT_EQ((*again)->ToString(), printed);

  const Literal& f = (*module)->entry_computation()->FindInstruction("f")->literal();
  const Literal& i = (*module)->entry_computation()->FindInstruction("i")->literal();
  for (const Literal* l : {&f, &i}) {
    LiteralProto proto = l->ToProto();
    auto back = Literal::FromProto(proto);
    ASSERT_TRUE(back.ok()) << back.status();
    EXPECT_EQ(*back, *l);
  }
  EXPECT_EQ(f.ToProto().narrow_floats(), std::string("\x38\xb0\x7e", 3));
  EXPECT_EQ(i.ToProto().narrow_ints(), std::string("\xf8\x07\xff", 3));
  // Constants out of the type's bits are refused at their position.
  for (const char* bad_constant : {"s4[] constant(8)", "s4[] constant(-9)", "u2[] constant(4)"}) {
    auto out_of_range = ParseHloModule(absl::StrCat("ENTRY e {\n  ROOT c = ", bad_constant, "\n}"));
    ASSERT_FALSE(out_of_range.ok()) << bad_constant;
    EXPECT_NE(out_of_range.status().message().find("out of range for"), std::string::npos)
        << out_of_range.status();
  }
  // A byte that is no s4 value (9 is not sign-extended) is refused.
  LiteralProto bad = i.ToProto();
  bad.set_narrow_ints(std::string("\x09\x00\x00", 3));
  auto refused = Literal::FromProto(bad);
  ASSERT_FALSE(refused.ok());
  EXPECT_NE(refused.status().message().find("is not a value of s4"), std::string::npos)
      << refused.status();
}

TEST(LiteralTest, ComplexValuesTravelThroughTheProtoAsPairs) {
  Literal c64(Shape(C64, {2}));
  c64.SetFromComplex(0, {1.5, -2});
  c64.SetFromComplex(1, {0, 3});
  LiteralProto proto = c64.ToProto();
  ASSERT_EQ(proto.c64s_size(), 4);
  EXPECT_EQ(proto.c64s(0), 1.5f);
  EXPECT_EQ(proto.c64s(1), -2.0f);
  EXPECT_EQ(proto.c64s(3), 3.0f);
  auto back = Literal::FromProto(proto);
  ASSERT_TRUE(back.ok()) << back.status();
  EXPECT_EQ(*back, c64);
  EXPECT_EQ(c64.ValuesToString(), "{(1.5, -2), (0, 3)}");
  // The real-valued accessors see the real part; setting one clears imag.
  EXPECT_EQ(c64.GetAsDouble(0), 1.5);
  c64.SetFromDouble(1, 4);
  EXPECT_EQ(c64.GetAsComplex(1), std::complex<double>(4, 0));

  Literal c128(Shape(C128, {1}));
  c128.SetFromComplex(0, {0.1, 1e300});
  auto back128 = Literal::FromProto(c128.ToProto());
  ASSERT_TRUE(back128.ok()) << back128.status();
  EXPECT_EQ(back128->GetAsComplex(0), std::complex<double>(0.1, 1e300));
  // An odd count of parts is refused.
  proto.mutable_c64s()->RemoveLast();
  auto refused = Literal::FromProto(proto);
  ASSERT_FALSE(refused.ok());
  EXPECT_NE(refused.status().message().find("real and imaginary parts"), std::string::npos)
      << refused.status();
}

}  // namespace
}  // namespace aot
