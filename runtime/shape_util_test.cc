// Shapes over ShapeProto: relayout between logical and physical order.
#include "runtime/shape_util.h"

#include <cstdint>
#include <vector>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "proto/hlo.pb.h"

namespace aot {
namespace {

using ::testing::ElementsAre;

ShapeProto Shape(PrimitiveType type, std::vector<int64_t> dims) {
  ShapeProto s;
  s.set_element_type(type);
  for (int64_t d : dims) s.add_dimensions(d);
  return s;
}

TEST(ShapeUtilTest, RelayoutRoundTrips) {
  ShapeProto s = Shape(S32, {2, 3});
  s.mutable_layout()->add_minor_to_major(0);
  s.mutable_layout()->add_minor_to_major(1);
  std::vector<int32_t> logical = {1, 2, 3, 4, 5, 6}, physical(6), back(6);
  runtime_shape::LogicalToPhysical(s, reinterpret_cast<uint8_t*>(logical.data()),
                                   reinterpret_cast<uint8_t*>(physical.data()));
  EXPECT_THAT(physical, ElementsAre(1, 4, 2, 5, 3, 6));
  runtime_shape::PhysicalToLogical(s, reinterpret_cast<uint8_t*>(physical.data()),
                                   reinterpret_cast<uint8_t*>(back.data()));
  EXPECT_EQ(back, logical);
  EXPECT_EQ(runtime_shape::ToString(s), "s32[2,3]{0,1}");
}

TEST(ShapeUtilTest, EveryElementTypeHasItsWidth) {
  // Arrays of every PrimitiveType the schema has are sized; only the
  // non-array kinds are not.
  const google::protobuf::EnumDescriptor* types = PrimitiveType_descriptor();
  for (int i = 0; i < types->value_count(); ++i) {
    const auto type = static_cast<PrimitiveType>(types->value(i)->number());
    const int64_t width = runtime_shape::ElementBytes(type);
    if (type == PRIMITIVE_TYPE_INVALID || type == TUPLE || type == TOKEN) {
      EXPECT_EQ(width, 0) << types->value(i)->name();
    } else {
      EXPECT_GT(width, 0) << types->value(i)->name();
    }
  }
  EXPECT_EQ(runtime_shape::ByteSize(Shape(C128, {2, 3})), 96);
  EXPECT_EQ(runtime_shape::ByteSize(Shape(C64, {5})), 40);
  EXPECT_EQ(runtime_shape::ByteSize(Shape(S4, {7})), 7);
  EXPECT_EQ(runtime_shape::ToString(Shape(F8E4M3FN, {2})), "f8e4m3fn[2]{0}");
}

TEST(ShapeUtilTest, ComplexElementsRelayoutWhole) {
  // c64[2,3] in the column-major layout: each 8-byte (real, imaginary)
  // pair moves as one element.
  ShapeProto s = Shape(C64, {2, 3});
  s.mutable_layout()->add_minor_to_major(0);
  s.mutable_layout()->add_minor_to_major(1);
  std::vector<float> logical(12);
  for (int i = 0; i < 12; ++i) logical[i] = static_cast<float>(i);
  std::vector<float> physical(12);
  runtime_shape::LogicalToPhysical(s, reinterpret_cast<const uint8_t*>(logical.data()),
                                   reinterpret_cast<uint8_t*>(physical.data()));
  // Logical (r, c) element k = r * 3 + c holds (2k, 2k + 1); physical
  // order is c * 2 + r.
  EXPECT_THAT(physical, ElementsAre(0, 1, 6, 7, 2, 3, 8, 9, 4, 5, 10, 11));
  std::vector<float> back(12);
  runtime_shape::PhysicalToLogical(s, reinterpret_cast<const uint8_t*>(physical.data()),
                                   reinterpret_cast<uint8_t*>(back.data()));
  EXPECT_EQ(back, logical);
}

}  // namespace
}  // namespace aot
