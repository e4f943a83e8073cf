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

namespace aot {
namespace {

// XLA's packing (E(4) and narrower): in physical order, the first element of
// each byte in its most significant bits, the last byte zero-padded; signed
// types sign-extend when unpacked.
TEST(ShapeUtilTest, PackedSubByteLayoutsPackInPhysicalOrder) {
  ShapeProto s = Shape(S4, {2, 3});
  s.mutable_layout()->add_minor_to_major(1);
  s.mutable_layout()->add_minor_to_major(0);
  s.mutable_layout()->set_element_size_in_bits(4);
  EXPECT_EQ(runtime_shape::PackedBits(s), 4);
  EXPECT_EQ(runtime_shape::ByteSize(s), 3);
  EXPECT_EQ(runtime_shape::ToString(s), "s4[2,3]{1,0:E(4)}");
  const std::vector<int8_t> logical = {1, -2, 3, -8, 7, -1};
  std::vector<uint8_t> physical(3);
  runtime_shape::LogicalToPhysical(s, reinterpret_cast<const uint8_t*>(logical.data()),
                                   physical.data());
  EXPECT_THAT(physical, ElementsAre(0x1e, 0x38, 0x7f));
  std::vector<int8_t> back(6);
  runtime_shape::PhysicalToLogical(s, physical.data(), reinterpret_cast<uint8_t*>(back.data()));
  EXPECT_EQ(back, logical);

  // Column-major: packed in the physical order (0,0), (1,0), (0,1), ...
  s.mutable_layout()->set_minor_to_major(0, 0);
  s.mutable_layout()->set_minor_to_major(1, 1);
  runtime_shape::LogicalToPhysical(s, reinterpret_cast<const uint8_t*>(logical.data()),
                                   physical.data());
  EXPECT_THAT(physical, ElementsAre(0x18, 0xe7, 0x3f));

  // u2, 5 elements: two bytes, the second padded with zeros.
  ShapeProto u2 = Shape(U2, {5});
  u2.mutable_layout()->add_minor_to_major(0);
  u2.mutable_layout()->set_element_size_in_bits(2);
  const std::vector<uint8_t> values = {3, 0, 1, 2, 3};
  std::vector<uint8_t> packed(2);
  runtime_shape::LogicalToPhysical(u2, values.data(), packed.data());
  EXPECT_THAT(packed, ElementsAre(0xc6, 0xc0));
  std::vector<uint8_t> unpacked(5);
  runtime_shape::PhysicalToLogical(u2, packed.data(), unpacked.data());
  EXPECT_EQ(unpacked, values);
}

TEST(ShapeUtilTest, ElementSizeMustBeTheSubByteWidth) {
  ShapeProto s = Shape(S4, {4});
  s.mutable_layout()->add_minor_to_major(0);
  EXPECT_TRUE(runtime_shape::CheckElementSize(s).ok());
  s.mutable_layout()->set_element_size_in_bits(4);
  EXPECT_TRUE(runtime_shape::CheckElementSize(s).ok());
  s.mutable_layout()->set_element_size_in_bits(2);
  EXPECT_THAT(std::string(runtime_shape::CheckElementSize(s).message()),
              ::testing::HasSubstr("is not its element type's width 4"));
  EXPECT_EQ(runtime_shape::ByteSize(s), 4);  // not packed: one byte each
  ShapeProto f = Shape(F32, {4});
  f.mutable_layout()->set_element_size_in_bits(4);
  EXPECT_THAT(std::string(runtime_shape::CheckElementSize(f).message()),
              ::testing::HasSubstr("not narrower than a byte"));
}

}  // namespace
}  // namespace aot
