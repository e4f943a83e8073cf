// Dense literals (dense_literal.h): the forms of their elements and the errors
// for malformed ones.
#include "compiler/stablehlo/stablehlo_test_util.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace aot::stablehlo {
namespace {

using test_util::Convert;
using test_util::HloOf;
using ::testing::HasSubstr;

TEST(DenseLiteralTest, FormsOfElements) {
  auto nested = ParseDenseElements("[[1, 2], [3, -4]]", "s32", {2, 2});
  ASSERT_TRUE(nested.ok()) << nested.status();
  EXPECT_EQ(nested->elements, (std::vector<std::string>{"1", "2", "3", "-4"}));
  EXPECT_EQ(HloLiteralBody(nested->elements, {2, 2}), "{{1, 2}, {3, -4}}");
  auto splat = ParseDenseElements("1.5", "f32", {3, 3});
  ASSERT_TRUE(splat.ok());
  EXPECT_TRUE(splat->splat);
  auto hex_float = ParseDenseElements("[0x7F800000, 0xFF800000, 0x3F800000]", "f32", {3});
  ASSERT_TRUE(hex_float.ok()) << hex_float.status();
  EXPECT_EQ(hex_float->elements, (std::vector<std::string>{"inf", "-inf", "1"}));
  auto blob = ParseDenseElements("\"0x0000803F00000040\"", "f32", {2});
  ASSERT_TRUE(blob.ok()) << blob.status();
  EXPECT_EQ(blob->elements, (std::vector<std::string>{"1", "2"}));
  auto complex = ParseDenseElements("[(1.0,2.0), (3.0,-1.0)]", "c64", {2});
  ASSERT_TRUE(complex.ok()) << complex.status();
  EXPECT_EQ(complex->elements[1], "(3.0, -1.0)");
  auto bools = ParseDenseElements("[true, false]", "pred", {2});
  ASSERT_TRUE(bools.ok());
  EXPECT_EQ(bools->elements, (std::vector<std::string>{"true", "false"}));
  auto half = ParseDenseElements("0x3C00", "f16", {});
  ASSERT_TRUE(half.ok());
  EXPECT_EQ(half->elements[0], "1");
  auto ubyte = ParseDenseElements("\"0xFF01\"", "u8", {2});
  ASSERT_TRUE(ubyte.ok());
  EXPECT_EQ(ubyte->elements, (std::vector<std::string>{"255", "1"}));
}

TEST(DenseLiteralTest, MalformedLiteralsAreRefusedSayingWhy) {
  EXPECT_THAT(ParseDenseElements("[1, 2, 3]", "s32", {2}).status().message(),
              HasSubstr("has 3 element(s); the type says 2"));
  EXPECT_THAT(ParseDenseElements("[1, 2]", "s32", {2, 1}).status().message(),
              HasSubstr("nesting does not match"));
  EXPECT_THAT(ParseDenseElements("[300]", "s8", {1}).status().message(),
              HasSubstr("out of range for s8"));
  EXPECT_THAT(ParseDenseElements("[-1]", "u8", {1}).status().message(), HasSubstr("out of range"));
  EXPECT_THAT(ParseDenseElements("[1.5x]", "f32", {1}).status().message(),
              HasSubstr("not a number"));
  EXPECT_THAT(ParseDenseElements("\"0x0000\"", "f32", {3}).status().message(),
              HasSubstr("2 bytes for 3 element(s)"));
  EXPECT_THAT(ParseDenseElements("[maybe]", "pred", {1}).status().message(),
              HasSubstr("not a boolean"));
  EXPECT_FALSE(ParseDenseElements("[1, 2", "s32", {2}).ok());
}

}  // namespace
}  // namespace aot::stablehlo
