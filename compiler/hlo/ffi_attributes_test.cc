#include "compiler/hlo/ffi_attributes.h"

#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace aot {
namespace {

using ::testing::HasSubstr;

TEST(FfiAttributesTest, ReadsJaxsTypedFfiDictionaries) {
  auto attributes = ParseFfiAttributes(
      R"({uplo = 76 : ui8, mode = -1 : i32, full_matrices = true, eps = 2.5e-3 : f32, scale = 3 : f64, name = "a\"b"})");
  ASSERT_TRUE(attributes.ok()) << attributes.status();
  ASSERT_EQ(attributes->size(), 6u);
  EXPECT_EQ((*attributes)[0].name(), "uplo");
  EXPECT_EQ((*attributes)[0].i64(), 76);
  EXPECT_EQ(FindFfiAttribute(*attributes, "mode")->i64(), -1);
  EXPECT_TRUE(FindFfiAttribute(*attributes, "full_matrices")->b());
  EXPECT_DOUBLE_EQ(FindFfiAttribute(*attributes, "eps")->f64(), 2.5e-3);
  // An integer literal of a float type is a float.
  EXPECT_EQ(FindFfiAttribute(*attributes, "scale")->value_case(), CustomCallAttributeProto::kF64);
  EXPECT_EQ(FindFfiAttribute(*attributes, "name")->str(), "a\"b");
  EXPECT_EQ(FindFfiAttribute(*attributes, "missing"), nullptr);
}

TEST(FfiAttributesTest, NoneAndEmptyAreNoAttributes) {
  EXPECT_TRUE(ParseFfiAttributes("")->empty());
  EXPECT_TRUE(ParseFfiAttributes("{}")->empty());
}

TEST(FfiAttributesTest, MalformedDictionariesNameWhatIsWrong) {
  EXPECT_THAT(ParseFfiAttributes("uplo = 1").status().message(), HasSubstr("dictionary"));
  EXPECT_THAT(ParseFfiAttributes("{uplo 1}").status().message(),
              HasSubstr("'uplo': expected '=' after the name"));
  EXPECT_THAT(ParseFfiAttributes("{uplo = }").status().message(),
              HasSubstr("'uplo': expected a value"));
  EXPECT_THAT(ParseFfiAttributes("{uplo = L}").status().message(),
              HasSubstr("'uplo': 'L' is not a number, bool or string"));
  EXPECT_THAT(ParseFfiAttributes("{a = 1 : i32").status().message(),
              HasSubstr("expected ',' or '}'"));
  EXPECT_THAT(ParseFfiAttributes("{a = 1} x").status().message(), HasSubstr("after the closing"));
}

}  // namespace
}  // namespace aot
