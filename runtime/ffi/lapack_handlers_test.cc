// JAX's LAPACK custom calls as the runtime's FFI handlers: every target of
// every dtype checked by its defining property (lapack_test_suite.h) on
// buffers in row-major, JAX's column-major and reversed layouts, with a
// batch dimension; the registry has them all.
#include "runtime/ffi/lapack_handlers.h"

#include <complex>
#include <cstdint>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "runtime/ffi/ffi_registry.h"
#include "runtime/ffi/lapack_test_suite.h"
#include "runtime/shape_util.h"
#include "support/status_macros.h"

namespace aot {
namespace {

using lapack_testing::Arg;
using lapack_testing::Attr;
using lapack_testing::Layout;

ShapeProto ShapeOf(const Arg& a, Layout layout, int64_t max_rank) {
  ShapeProto s;
  s.set_element_type(a.type);
  for (int64_t d : a.dims) s.add_dimensions(d);
  for (int64_t d : lapack_testing::MinorToMajor(layout, a.dims.size(), max_rank)) {
    s.mutable_layout()->add_minor_to_major(d);
  }
  return s;
}

// The handler on buffers in `layout`, the results read back in logical
// order.
absl::StatusOr<std::vector<Arg>> RunHandler(const std::string& target,
                                            const std::vector<Arg>& operands,
                                            const std::vector<Arg>& results,
                                            const std::vector<Attr>& attrs, Layout layout) {
  const FfiHandler* handler = FindLapackFfiHandler(target);
  if (handler == nullptr) return absl::NotFoundError(target);
  int64_t max_rank = 0;
  for (const Arg& a : operands) max_rank = std::max<int64_t>(max_rank, a.dims.size());
  std::vector<ShapeProto> shapes;
  shapes.reserve(operands.size() + results.size());
  std::vector<std::vector<uint8_t>> buffers;
  FfiCallFrame frame;
  for (const Arg& a : operands) {
    shapes.push_back(ShapeOf(a, layout, max_rank));
    buffers.emplace_back(runtime_shape::ByteSize(shapes.back()));
    runtime_shape::LogicalToPhysical(shapes.back(), a.logical.data(), buffers.back().data());
  }
  for (const Arg& a : results) {
    shapes.push_back(ShapeOf(a, layout, max_rank));
    // Garbage, which the handler must overwrite.
    buffers.emplace_back(runtime_shape::ByteSize(shapes.back()), 0xA5);
  }
  for (size_t i = 0; i < shapes.size(); ++i) {
    FfiBuffer b{buffers[i].data(), &shapes[i]};
    (i < operands.size() ? frame.operands : frame.results).push_back(b);
  }
  google::protobuf::RepeatedPtrField<CustomCallAttributeProto> attributes;
  for (const Attr& a : attrs) {
    CustomCallAttributeProto* p = attributes.Add();
    p->set_name(a.name);
    p->set_i64(a.value);
  }
  frame.attributes = &attributes;
  AOT_RETURN_IF_ERROR((*handler)(frame));
  std::vector<Arg> out;
  for (size_t i = 0; i < results.size(); ++i) {
    const size_t at = operands.size() + i;
    Arg a = results[i];
    a.logical.resize(runtime_shape::ElementCount(shapes[at]) * runtime_shape::ElementBytes(a.type));
    runtime_shape::PhysicalToLogical(shapes[at], buffers[at].data(), a.logical.data());
    out.push_back(std::move(a));
  }
  return out;
}

template <typename T>
class LapackHandlersTest : public ::testing::Test {};
using Types = ::testing::Types<float, double, std::complex<float>, std::complex<double>>;
TYPED_TEST_SUITE(LapackHandlersTest, Types);

TYPED_TEST(LapackHandlersTest, Potrf) { lapack_testing::CheckPotrf<TypeParam>(RunHandler); }
TYPED_TEST(LapackHandlersTest, Getrf) { lapack_testing::CheckGetrf<TypeParam>(RunHandler); }
TYPED_TEST(LapackHandlersTest, GeqrfAndOrgqr) { lapack_testing::CheckQr<TypeParam>(RunHandler); }
TYPED_TEST(LapackHandlersTest, Trsm) { lapack_testing::CheckTrsm<TypeParam>(RunHandler); }
TYPED_TEST(LapackHandlersTest, Syevd) { lapack_testing::CheckSyevd<TypeParam>(RunHandler); }
TYPED_TEST(LapackHandlersTest, Gesdd) { lapack_testing::CheckGesdd<TypeParam>(RunHandler); }
TYPED_TEST(LapackHandlersTest, Geev) { lapack_testing::CheckGeev<TypeParam>(RunHandler); }
TYPED_TEST(LapackHandlersTest, Gehrd) { lapack_testing::CheckGehrd<TypeParam>(RunHandler); }
TYPED_TEST(LapackHandlersTest, Sytrd) { lapack_testing::CheckSytrd<TypeParam>(RunHandler); }
TYPED_TEST(LapackHandlersTest, Gees) { lapack_testing::CheckGees<TypeParam>(RunHandler); }
TYPED_TEST(LapackHandlersTest, Gtsv) { lapack_testing::CheckGtsv<TypeParam>(RunHandler); }
TYPED_TEST(LapackHandlersTest, Geqp3) { lapack_testing::CheckGeqp3<TypeParam>(RunHandler); }
TYPED_TEST(LapackHandlersTest, Refusals) { lapack_testing::CheckRefusals<TypeParam>(RunHandler); }

// An operand that is also the result buffer (JAX's output_operand_aliases).
TEST(LapackHandlersTest, InPlace) {
  ShapeProto shape;
  shape.set_element_type(F64);
  shape.add_dimensions(2);
  shape.add_dimensions(2);
  ShapeProto info_shape;
  info_shape.set_element_type(S32);
  std::vector<double> a = {4, 2, 2, 5};
  int32_t info = -1;
  FfiCallFrame frame;
  frame.operands.push_back({a.data(), &shape});
  frame.results.push_back({a.data(), &shape});
  frame.results.push_back({&info, &info_shape});
  google::protobuf::RepeatedPtrField<CustomCallAttributeProto> attributes;
  attributes.Add()->set_name("uplo");
  attributes.Mutable(0)->set_i64('L');
  frame.attributes = &attributes;
  ASSERT_TRUE((*FindLapackFfiHandler("lapack_dpotrf_ffi"))(frame).ok());
  EXPECT_EQ(info, 0);
  // L = [[2, 0], [1, 2]], row-major; the upper triangle kept.
  EXPECT_THAT(a, ::testing::ElementsAre(2, 2, 1, 2));
}

TEST(LapackHandlersTest, TheRegistryHasEveryTargetOfEveryDtype) {
  std::vector<std::string> expected;
  for (const char* family :
       {"potrf", "getrf", "geqrf", "trsm", "gesdd", "geev", "gehrd", "gees", "gtsv", "geqp3"}) {
    for (const char* letter : {"s", "d", "c", "z"}) {
      expected.push_back(absl::StrCat("lapack_", letter, family, "_ffi"));
    }
  }
  for (const char* name :
       {"lapack_sorgqr_ffi", "lapack_dorgqr_ffi", "lapack_cungqr_ffi", "lapack_zungqr_ffi",
        "lapack_ssyevd_ffi", "lapack_dsyevd_ffi", "lapack_cheevd_ffi", "lapack_zheevd_ffi",
        "lapack_ssytrd_ffi", "lapack_dsytrd_ffi", "lapack_chetrd_ffi", "lapack_zhetrd_ffi"}) {
    expected.push_back(name);
  }
  EXPECT_THAT(LapackFfiTargets(), ::testing::UnorderedElementsAreArray(expected));
  for (const std::string& name : expected) {
    auto resolved = FfiRegistry::Global().Resolve(name);
    ASSERT_TRUE(resolved.ok()) << resolved.status();
    EXPECT_NE(resolved->handler, nullptr) << name;
  }
  EXPECT_EQ(FindLapackFfiHandler("lapack_sorgqr"), nullptr);
  EXPECT_EQ(FindLapackFfiHandler("lapack_corgqr_ffi"), nullptr);
}

}  // namespace
}  // namespace aot
