#include "compiler/tooling/jax_test_data.h"

#include <cmath>

#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace aot {
namespace {

using ::testing::HasSubstr;

// The forms numpy's repr and JAX's data files write.
constexpr char kFile[] = R"PY(# comment
import datetime
from numpy import array, float32
import numpy as np
array = np.array
float32 = np.float32

data_2024_01_02 = dict(
    platform='cpu',  # trailing comment
    custom_call_targets=['lapack_sgetrf_ffi', "other"],
    serialized_date=datetime.date(2024, 1, 2),
    inputs=(array([[ 1.5e+00, -2.0e-03],
       [ nan,  -inf]], dtype=float32), array([], shape=(0, 3), dtype=float32),
       array([ 77.35 -6.4e-16j, -21.1+6.4e+01j, nan+0.j, -0.-1.j]), array(3),
       array([True, False]), np.int8(-4)),
    expected_outputs=(array(1.25, dtype=np.float64),),
    mlir_module_text=r"""module @m {
  func.func public @main() { return }  // a \n stays raw
}""",
    mlir_module_serialized=b"ML\xefR\x00\x01",
    xla_call_module_version=9,
)
data_2024_05_31 = {}
data_2024_05_31["f32"] = dict(platform='cuda', inputs=(), expected_outputs=(),
    mlir_module_text="module {}")
)PY";

TEST(JaxTestDataTest, ReadsNumpysReprAndTheFilesLayout) {
  auto sets = ParseJaxTestData(kFile, "d.py");
  ASSERT_TRUE(sets.ok()) << sets.status();
  ASSERT_EQ(sets->size(), 2u);
  const JaxTestData& d = (*sets)[0];
  EXPECT_EQ(d.name, "data_2024_01_02");
  EXPECT_EQ(d.platform, "cpu");
  EXPECT_EQ(d.custom_call_targets, (std::vector<std::string>{"lapack_sgetrf_ffi", "other"}));
  EXPECT_EQ(d.serialized_date, "2024-01-02");
  EXPECT_THAT(d.mlir_module_text, HasSubstr("// a \\n stays raw"));
  ASSERT_EQ(d.inputs.size(), 6u);
  EXPECT_EQ(d.inputs[0].shape().ToString(false), "f32[2,2]");
  EXPECT_FLOAT_EQ(d.inputs[0].GetAsDouble(1), -2.0e-3);
  EXPECT_TRUE(std::isnan(d.inputs[0].GetAsDouble(2)));
  EXPECT_EQ(d.inputs[0].GetAsDouble(3), -INFINITY);
  EXPECT_EQ(d.inputs[1].shape().ToString(false), "f32[0,3]");
  // numpy's default dtypes where its repr leaves them out.
  EXPECT_EQ(d.inputs[2].shape().ToString(false), "c128[4]");
  EXPECT_EQ(d.inputs[2].GetAsComplex(0), std::complex<double>(77.35, -6.4e-16));
  EXPECT_EQ(d.inputs[2].GetAsComplex(1), std::complex<double>(-21.1, 64));
  EXPECT_TRUE(std::isnan(d.inputs[2].GetAsComplex(2).real()));
  EXPECT_EQ(d.inputs[2].GetAsComplex(3), std::complex<double>(-0.0, -1));
  EXPECT_EQ(d.inputs[3].shape().ToString(false), "s64[]");
  EXPECT_EQ(d.inputs[3].GetAsInt64(0), 3);
  EXPECT_EQ(d.inputs[4].shape().ToString(false), "pred[2]");
  EXPECT_EQ(d.inputs[5].shape().ToString(false), "s8[]");
  EXPECT_EQ(d.inputs[5].GetAsInt64(0), -4);
  EXPECT_EQ(d.expected_outputs[0].shape().ToString(false), "f64[]");
  EXPECT_EQ((*sets)[1].name, "data_2024_05_31[f32]");
  EXPECT_EQ((*sets)[1].platform, "cuda");
}

TEST(JaxTestDataTest, MalformedDataIsAPositionedError) {
  auto bad = ParseJaxTestData(
      "data_x = dict(\n  mlir_module_text='m', expected_outputs=(),\n  inputs=(array([1, 2], "
      "dtype=float99),),\n)",
      "b.py");
  ASSERT_FALSE(bad.ok());
  EXPECT_THAT(bad.status().message(), HasSubstr("unknown dtype 'float99'"));
  auto ragged = ParseJaxTestData(
      "data_x = dict(mlir_module_text='m', inputs=(array([[1], [2, 3]]),), expected_outputs=())",
      "r.py");
  ASSERT_FALSE(ragged.ok());
  EXPECT_THAT(ragged.status().message(), HasSubstr("r.py:1: data_x: inputs[0]: ragged nesting"));
  auto unterminated = ParseJaxTestData("data_x = dict(\n  a='x,\n", "u.py");
  ASSERT_FALSE(unterminated.ok());
  EXPECT_THAT(unterminated.status().message(), HasSubstr("u.py:"));
  EXPECT_THAT(unterminated.status().message(), HasSubstr("unterminated string"));
}

TEST(JaxTestDataTest, ComparesWithJaxsToleranceForTheDtype) {
  Literal expected = Literal::FromDoubles(Shape(F32, {3}), {1.0, NAN, -2.0});
  Literal close = Literal::FromDoubles(Shape(F32, {3}), {1.0005, NAN, -2.001});
  EXPECT_TRUE(CompareWithJaxExpected(close, {expected}).ok());
  Literal far = Literal::FromDoubles(Shape(F32, {3}), {1.01, NAN, -2.0});
  absl::Status s = CompareWithJaxExpected(far, {expected});
  ASSERT_FALSE(s.ok());
  EXPECT_THAT(s.message(), HasSubstr("output 0: 1 of 3 element(s) differ"));
  // Integers exactly; the count and types of the outputs must agree.
  Literal ints = Literal::FromInt64s(Shape(S32, {2}), {1, 2});
  EXPECT_FALSE(CompareWithJaxExpected(ints, {Literal::FromInt64s(Shape(S32, {2}), {1, 3})}).ok());
  EXPECT_THAT(
      CompareWithJaxExpected(ints, {Literal::FromInt64s(Shape(S64, {2}), {1, 2})}).message(),
      HasSubstr("output 0 is s32[2]; the data expects s64[2]"));
  EXPECT_THAT(CompareWithJaxExpected(ints, {}).message(), HasSubstr("returns 1 value(s)"));
}

}  // namespace
}  // namespace aot
