#include "compiler/hlo/shape.h"

#include "compiler/hlo/hlo_parser.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace aot {
namespace {

using ::testing::HasSubstr;

TEST(ShapeTest, PrintsLikeXla) {
  EXPECT_EQ(Shape(F32, {2, 3}).ToString(), "f32[2,3]{1,0}");
  EXPECT_EQ(Shape::Scalar(PRED).ToString(), "pred[]");
  Shape t = Shape::Tuple({Shape(F32, {}), Shape(S32, {4})});
  EXPECT_EQ(t.ToString(), "(f32[], s32[4]{0})");
  Shape col(BF16, {2, 3});
  col.set_minor_to_major({0, 1});
  EXPECT_EQ(col.ToString(), "bf16[2,3]{0,1}");
  EXPECT_EQ(Shape::Tuple({}).ToString(), "()");
}

TEST(ShapeTest, ParsesWhatItPrints) {
  for (const char* text : {"f32[2,3]{1,0}", "pred[]", "(f32[], s32[4]{0})", "bf16[2,3]{0,1}",
                           "(f32[1]{0}, (u8[], token[]))", "f16[0,5]{1,0}", "()"}) {
    auto shape = ParseShape(text);
    ASSERT_TRUE(shape.ok()) << text << ": " << shape.status();
    EXPECT_EQ(shape->ToString(), text);
  }
}

TEST(ShapeTest, ParsesTilingAndBoundedDims) {
  auto s = ParseShape("f32[8,128]{1,0:T(8,128)}");
  ASSERT_TRUE(s.ok()) << s.status();
  EXPECT_EQ(s->ToString(), "f32[8,128]{1,0}");
  auto b = ParseShape("s32[<=4]");
  ASSERT_TRUE(b.ok()) << b.status();
  EXPECT_EQ(b->dimensions(0), 4);
}

// XLA's element size E(n): kept (printed, in the proto, part of equality)
// amid tiling and memory-space items; only a sub-byte type's own width.
TEST(ShapeTest, ParsesAndKeepsTheElementSize) {
  auto s = ParseShape("s4[8,3]{0,1:T(2,128)(4,1)E(4)S(1)}");
  ASSERT_TRUE(s.ok()) << s.status();
  EXPECT_EQ(s->element_size_in_bits(), 4);
  EXPECT_EQ(s->ToString(), "s4[8,3]{0,1:E(4)}");
  EXPECT_FALSE(s->HasDefaultLayout());
  auto again = ParseShape(s->ToString());
  ASSERT_TRUE(again.ok()) << again.status();
  EXPECT_EQ(*again, *s);
  auto from_proto = Shape::FromProto(s->ToProto());
  ASSERT_TRUE(from_proto.ok()) << from_proto.status();
  EXPECT_EQ(*from_proto, *s);
  EXPECT_EQ(s->ToProto().layout().element_size_in_bits(), 4);
  auto unpacked = ParseShape("s4[8,3]{0,1}");
  ASSERT_TRUE(unpacked.ok());
  EXPECT_NE(*unpacked, *s);
  EXPECT_TRUE(unpacked->Compatible(*s));
  EXPECT_EQ(s->ByteSize(), 24);  // a Literal's bytes: one per element
  Shape cleared = *s;
  cleared.ClearLayout();
  EXPECT_EQ(cleared.ToString(), "s4[8,3]{1,0}");
  auto f4 = ParseShape("f4e2m1fn[5]{0:E(4)}");
  ASSERT_TRUE(f4.ok()) << f4.status();
  EXPECT_EQ(ParseShape("u1[9]{0:E(1)}")->ToString(), "u1[9]{0:E(1)}");

  EXPECT_THAT(std::string(ParseShape("s8[4]{0:E(4)}").status().message()),
              HasSubstr("element size E(4) of s8[4]: only types narrower than a byte are packed"));
  EXPECT_THAT(std::string(ParseShape("s4[4]{0:E(2)}").status().message()),
              HasSubstr("is not its element type's width 4"));
  EXPECT_FALSE(ParseShape("s4[4]{0:E(x)}").ok());
  EXPECT_FALSE(ParseShape("s4[4]{0:E(4}").ok());
}

TEST(ShapeTest, RejectsBadShapes) {
  EXPECT_THAT(std::string(ParseShape("f31[2]").status().message()),
              HasSubstr("unknown element type 'f31'"));
  EXPECT_FALSE(ParseShape("f32[2").ok());
  EXPECT_FALSE(ParseShape("f32[-1]").ok());
  EXPECT_THAT(std::string(ParseShape("f32[2,3]{0,0}").status().message()),
              HasSubstr("not a permutation"));
  EXPECT_FALSE(ParseShape("f32[2,3]{0}").ok());
  EXPECT_FALSE(ParseShape("f32[2] extra").ok());
}

TEST(ShapeTest, SizesAndLeaves) {
  Shape s(F16, {2, 0, 3});
  EXPECT_EQ(s.ElementCount(), 0);
  EXPECT_EQ(Shape(F64, {2, 3}).ByteSize(), 48);
  EXPECT_EQ(Shape::Scalar(S8).ElementCount(), 1);
  Shape t = Shape::Tuple({Shape(F32, {2}), Shape::Tuple({Shape(S8, {}), Shape(U64, {3})})});
  ASSERT_EQ(t.FlattenLeaves().size(), 3u);
  EXPECT_EQ(t.FlattenLeaves()[2].ToString(), "u64[3]{0}");
  EXPECT_EQ(t.Subshape({1, 1}).ToString(), "u64[3]{0}");
  EXPECT_EQ(RowMajorStrides({2, 3, 4}), (std::vector<int64_t>{12, 4, 1}));
}

TEST(ShapeTest, HugeShapesSaturateInsteadOfOverflowing) {
  Shape huge(F32, {int64_t{1} << 40, int64_t{1} << 40});
  EXPECT_EQ(huge.ElementCount(), INT64_MAX);
  EXPECT_EQ(huge.ByteSize(), INT64_MAX);
  EXPECT_EQ(Shape(F64, {int64_t{1} << 61}).ByteSize(), INT64_MAX);
  EXPECT_EQ(Shape(F32, {int64_t{1} << 40, 0}).ElementCount(), 0);
}

TEST(ShapeTest, EqualityTreatsUnsetLayoutAsDefault) {
  Shape a(F32, {2, 3});
  Shape b(F32, {2, 3});
  b.set_minor_to_major({1, 0});
  EXPECT_EQ(a, b);
  b.set_minor_to_major({0, 1});
  EXPECT_NE(a, b);
  EXPECT_TRUE(a.Compatible(b));
}

TEST(ShapeTest, ProtoRoundTrip) {
  auto s = ParseShape("(f32[2,3]{0,1}, pred[], (s64[5]{0}))");
  ASSERT_TRUE(s.ok());
  auto back = Shape::FromProto(s->ToProto());
  ASSERT_TRUE(back.ok());
  EXPECT_EQ(*back, *s);
  ShapeProto bad;
  bad.set_element_type(F32);
  bad.add_dimensions(-3);
  EXPECT_FALSE(Shape::FromProto(bad).ok());
}

}  // namespace
}  // namespace aot
