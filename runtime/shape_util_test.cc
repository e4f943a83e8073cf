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

}  // namespace
}  // namespace aot
