// The interpreter's references for JAX's LAPACK custom calls: every target
// of every dtype checked by its defining property
// (runtime/ffi/lapack_test_suite.h) through the evaluator, as a module
// with the custom call (typed FFI, the attributes in backend_config) in the
// layouts the suite asks for, with a batch dimension.
#include <complex>
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "compiler/hlo/hlo_parser.h"
#include "compiler/interpreter/custom_call_registry.h"
#include "compiler/interpreter/evaluator.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "runtime/ffi/lapack_handlers.h"
#include "runtime/ffi/lapack_test_suite.h"
#include "support/status_macros.h"

namespace aot {
namespace {

using lapack_testing::Arg;
using lapack_testing::Attr;
using lapack_testing::Layout;

std::string ShapeText(const Arg& a, Layout layout, int64_t max_rank) {
  const char* type = a.type == F32    ? "f32"
                     : a.type == F64  ? "f64"
                     : a.type == C64  ? "c64"
                     : a.type == C128 ? "c128"
                                      : "s32";
  return absl::StrCat(
      type, "[", absl::StrJoin(a.dims, ","), "]{",
      absl::StrJoin(lapack_testing::MinorToMajor(layout, a.dims.size(), max_rank), ","), "}");
}

// The custom call in a module of its own, evaluated on the operands.
absl::StatusOr<std::vector<Arg>> RunReference(const std::string& target,
                                              const std::vector<Arg>& operands,
                                              const std::vector<Arg>& results,
                                              const std::vector<Attr>& attrs, Layout layout) {
  int64_t max_rank = 0;
  for (const Arg& a : operands) max_rank = std::max<int64_t>(max_rank, a.dims.size());
  std::string text = "HloModule lapack\nENTRY main {\n";
  std::vector<std::string> names, result_shapes, dict;
  std::vector<Literal> args;
  for (size_t i = 0; i < operands.size(); ++i) {
    const std::string shape = ShapeText(operands[i], layout, max_rank);
    absl::StrAppend(&text, "  p", i, " = ", shape, " parameter(", i, ")\n");
    names.push_back(absl::StrCat("p", i));
    auto parsed = ParseShape(shape);
    AOT_RETURN_IF_ERROR(parsed);
    Literal l(*parsed);
    std::memcpy(l.raw_data(), operands[i].logical.data(), operands[i].logical.size());
    args.push_back(std::move(l));
  }
  for (const Arg& r : results) result_shapes.push_back(ShapeText(r, layout, max_rank));
  for (const Attr& a : attrs) {
    dict.push_back(absl::StrCat(a.name, " = ", a.value, a.i32 ? " : i32" : " : ui8"));
  }
  const std::string shape = results.size() == 1
                                ? result_shapes[0]
                                : absl::StrCat("(", absl::StrJoin(result_shapes, ", "), ")");
  absl::StrAppend(&text, "  ROOT c = ", shape, " custom-call(", absl::StrJoin(names, ", "),
                  "), custom_call_target=\"", target,
                  "\", api_version=API_VERSION_TYPED_FFI, backend_config={",
                  absl::StrJoin(dict, ", "), "}\n}\n");
  auto module = ParseHloModule(text);
  AOT_RETURN_IF_ERROR(module);
  HloEvaluator evaluator;
  auto value = evaluator.Evaluate(**module, args);
  AOT_RETURN_IF_ERROR(value);
  std::vector<Arg> out;
  for (size_t i = 0; i < results.size(); ++i) {
    const Literal& l = results.size() == 1 ? *value : value->tuple_element(i);
    Arg a = results[i];
    a.logical = l.raw();
    out.push_back(std::move(a));
  }
  return out;
}

template <typename T>
class LapackCustomCallsTest : public ::testing::Test {};
using Types = ::testing::Types<float, double, std::complex<float>, std::complex<double>>;
TYPED_TEST_SUITE(LapackCustomCallsTest, Types);

TYPED_TEST(LapackCustomCallsTest, Potrf) { lapack_testing::CheckPotrf<TypeParam>(RunReference); }
TYPED_TEST(LapackCustomCallsTest, Getrf) { lapack_testing::CheckGetrf<TypeParam>(RunReference); }
TYPED_TEST(LapackCustomCallsTest, GeqrfAndOrgqr) {
  lapack_testing::CheckQr<TypeParam>(RunReference);
}
TYPED_TEST(LapackCustomCallsTest, Trsm) { lapack_testing::CheckTrsm<TypeParam>(RunReference); }
TYPED_TEST(LapackCustomCallsTest, Syevd) { lapack_testing::CheckSyevd<TypeParam>(RunReference); }
TYPED_TEST(LapackCustomCallsTest, Gesdd) { lapack_testing::CheckGesdd<TypeParam>(RunReference); }
TYPED_TEST(LapackCustomCallsTest, Geev) { lapack_testing::CheckGeev<TypeParam>(RunReference); }
TYPED_TEST(LapackCustomCallsTest, Gehrd) { lapack_testing::CheckGehrd<TypeParam>(RunReference); }
TYPED_TEST(LapackCustomCallsTest, Sytrd) { lapack_testing::CheckSytrd<TypeParam>(RunReference); }
TYPED_TEST(LapackCustomCallsTest, Gees) { lapack_testing::CheckGees<TypeParam>(RunReference); }
TYPED_TEST(LapackCustomCallsTest, Gtsv) { lapack_testing::CheckGtsv<TypeParam>(RunReference); }
TYPED_TEST(LapackCustomCallsTest, Geqp3) { lapack_testing::CheckGeqp3<TypeParam>(RunReference); }
TYPED_TEST(LapackCustomCallsTest, Refusals) {
  lapack_testing::CheckRefusals<TypeParam>(RunReference);
}

TEST(LapackCustomCallsTest, EveryTargetHasAReferenceThatTakesComplexValues) {
  for (const std::string& target : LapackFfiTargets()) {
    EXPECT_TRUE(CustomCallRegistry::Global().Contains(target)) << target;
    EXPECT_TRUE(CustomCallRegistry::Global().TakesComplex(target)) << target;
  }
  EXPECT_FALSE(CustomCallRegistry::Global().TakesComplex("aot.topk"));
}

// The attributes come from the backend_config dictionary; one that does not
// parse is an error naming it.
TEST(LapackCustomCallsTest, AMalformedBackendConfigIsRefused) {
  auto module = ParseHloModule(R"(HloModule m
ENTRY main {
  p = f32[2,2] parameter(0)
  ROOT c = (f32[2,2], s32[]) custom-call(p), custom_call_target="lapack_spotrf_ffi", api_version=API_VERSION_TYPED_FFI, backend_config={uplo = }
})");
  ASSERT_TRUE(module.ok()) << module.status();
  HloEvaluator evaluator;
  Literal a = Literal::FromDoubles(Shape(F32, {2, 2}), {4, 2, 2, 5});
  auto r = evaluator.Evaluate(**module, {a});
  ASSERT_FALSE(r.ok());
  EXPECT_THAT(std::string(r.status().message()), ::testing::HasSubstr("uplo"));
}

}  // namespace
}  // namespace aot
