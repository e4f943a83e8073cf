#include "support/minifloat.h"

#include <cmath>
#include <limits>

#include "gtest/gtest.h"

namespace aot {
namespace {

TEST(MinifloatTest, EveryFiniteCodeRoundTrips) {
  for (const MinifloatFormat* f : {&kF8E5M2, &kF8E4M3, &kF8E3M4, &kF8E4M3FN, &kF8E4M3FNUZ,
                                   &kF8E5M2FNUZ, &kF8E4M3B11FNUZ, &kF8E8M0FNU, &kF4E2M1FN}) {
    const int codes = f == &kF4E2M1FN ? 16 : 256;
    for (int code = 0; code < codes; ++code) {
      const double v = MinifloatToDouble(static_cast<uint8_t>(code), *f);
      if (std::isnan(v)) {
        EXPECT_TRUE(std::isnan(MinifloatToDouble(DoubleToMinifloat(v, *f), *f))) << code;
        continue;
      }
      EXPECT_EQ(DoubleToMinifloat(v, *f), code)
          << "format e" << f->exponent_bits << "m" << f->mantissa_bits << " value " << v;
    }
  }
}

TEST(MinifloatTest, KnownValuesAndSpecials) {
  const double inf = std::numeric_limits<double>::infinity();
  // e4m3fn: max 448, NaN 0x7f, no infinity; 464 ties to 448 (even), above
  // it NaN.
  EXPECT_EQ(DoubleToMinifloat(1.0, kF8E4M3FN), 0x38);
  EXPECT_EQ(MinifloatToDouble(0x7e, kF8E4M3FN), 448);
  EXPECT_TRUE(std::isnan(MinifloatToDouble(0x7f, kF8E4M3FN)));
  EXPECT_EQ(DoubleToMinifloat(464, kF8E4M3FN), 0x7e);
  EXPECT_EQ(DoubleToMinifloat(465, kF8E4M3FN), 0x7f);
  EXPECT_EQ(DoubleToMinifloat(inf, kF8E4M3FN), 0x7f);
  EXPECT_EQ(DoubleToMinifloat(-0.0, kF8E4M3FN), 0x80);
  EXPECT_EQ(MinifloatToDouble(0x01, kF8E4M3FN), std::ldexp(1.0, -9));
  // e5m2: IEEE; max 57344, halfway to the next step overflows (max is odd).
  EXPECT_EQ(DoubleToMinifloat(1.0, kF8E5M2), 0x3c);
  EXPECT_EQ(MinifloatToDouble(0x7b, kF8E5M2), 57344);
  EXPECT_EQ(DoubleToMinifloat(61440, kF8E5M2), 0x7c);
  EXPECT_EQ(MinifloatToDouble(0x7c, kF8E5M2), inf);
  EXPECT_EQ(MinifloatToDouble(0xfc, kF8E5M2), -inf);
  // The fnuz formats: NaN is 0x80, -0 becomes +0, other biases.
  EXPECT_EQ(DoubleToMinifloat(1.0, kF8E4M3FNUZ), 0x40);
  EXPECT_EQ(DoubleToMinifloat(-0.0, kF8E4M3FNUZ), 0x00);
  EXPECT_TRUE(std::isnan(MinifloatToDouble(0x80, kF8E5M2FNUZ)));
  EXPECT_EQ(MinifloatToDouble(0x7f, kF8E4M3FNUZ), 240);
  EXPECT_EQ(DoubleToMinifloat(1.0, kF8E4M3B11FNUZ), 0x58);
  EXPECT_EQ(MinifloatToDouble(0x7f, kF8E4M3B11FNUZ), 30);
  EXPECT_EQ(DoubleToMinifloat(1e6, kF8E4M3B11FNUZ), 0x80);
  // e4m3 and e3m4 (IEEE).
  EXPECT_EQ(MinifloatToDouble(0x77, kF8E4M3), 240);
  EXPECT_EQ(MinifloatToDouble(0x78, kF8E4M3), inf);
  EXPECT_EQ(DoubleToMinifloat(1.0, kF8E3M4), 0x30);
  EXPECT_EQ(MinifloatToDouble(0x6f, kF8E3M4), 15.5);
  // e8m0fnu: powers of two only, unsigned, 0xff NaN.
  EXPECT_EQ(DoubleToMinifloat(1.0, kF8E8M0FNU), 0x7f);
  EXPECT_EQ(DoubleToMinifloat(0.5, kF8E8M0FNU), 0x7e);
  EXPECT_EQ(DoubleToMinifloat(-1.0, kF8E8M0FNU), 0xff);
  // Its top value 2^127 (0xfe): the next step would be 2^128, so up to
  // 1.5 * 2^127 rounds down (the tie to the even code 0xfe), beyond is NaN.
  EXPECT_EQ(DoubleToMinifloat(std::ldexp(1.25, 127), kF8E8M0FNU), 0xfe);
  EXPECT_EQ(DoubleToMinifloat(std::ldexp(1.5, 127), kF8E8M0FNU), 0xfe);
  EXPECT_EQ(DoubleToMinifloat(std::ldexp(1.5, 127) * (1 + 1e-15), kF8E8M0FNU), 0xff);
  // f4e2m1fn: 0, 0.5, 1, 1.5, 2, 3, 4, 6; saturates; ties to even.
  EXPECT_EQ(DoubleToMinifloat(1.0, kF4E2M1FN), 0x2);
  EXPECT_EQ(DoubleToMinifloat(6.0, kF4E2M1FN), 0x7);
  EXPECT_EQ(DoubleToMinifloat(100.0, kF4E2M1FN), 0x7);
  EXPECT_EQ(DoubleToMinifloat(-0.5, kF4E2M1FN), 0x9);
  EXPECT_EQ(DoubleToMinifloat(1.25, kF4E2M1FN), 0x2);
  EXPECT_EQ(DoubleToMinifloat(1.75, kF4E2M1FN), 0x4);
}

}  // namespace
}  // namespace aot
