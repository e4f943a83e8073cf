#ifndef AOT_RUNTIME_SHAPE_UTIL_H_
#define AOT_RUNTIME_SHAPE_UTIL_H_

#include <cstdint>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/types/span.h"
#include "proto/hlo.pb.h"

namespace aot {

// Shape helpers of the runtime, over the serialized ShapeProto (the runtime
// never uses the compiler's Shape class).
namespace runtime_shape {

// Bytes per element (pred: 1; c64: 8, c128: 16; the 8-bit floats and the
// types narrower than a byte, stored unpacked: 1); 0 for tuples, tokens and
// invalid types.
int64_t ElementBytes(PrimitiveType type);
// The 8-bit floats and f4e2m1fn: one byte per element, the raw bits.
bool IsNarrowFloat(PrimitiveType type);
// s4, u4, s2, u2, s1, u1: one byte per element, sign- or zero-extended.
bool IsNarrowInteger(PrimitiveType type);
bool IsArray(const ShapeProto& shape);
// Element count of an array shape; -1 when it overflows int64 or a
// dimension is negative.
int64_t ElementCount(const ShapeProto& shape);
// The width in bits of the types narrower than a byte (s4/u4/f4e2m1fn 4,
// s2/u2 2, s1/u1 1); 0 for every other type.
int64_t SubByteBits(PrimitiveType type);
// The bits per element of `shape`'s buffer when its layout packs them
// (LayoutProto.element_size_in_bits, XLA's `E(n)`); 0 when unpacked.
int64_t PackedBits(const ShapeProto& shape);
// An error naming `shape` unless its element_size_in_bits is 0 or the width
// of its sub-byte element type (the only packing there is).
absl::Status CheckElementSize(const ShapeProto& shape);
// Dense byte size of an array shape (ceil(elements * bits / 8) when packed);
// -1 on overflow / invalid.
int64_t ByteSize(const ShapeProto& shape);
// "f32[2,3]{1,0}".
std::string ToString(const ShapeProto& shape);
// Minor-to-major of an array shape, the default descending one if unset.
std::vector<int64_t> MinorToMajor(const ShapeProto& shape);
bool HasDefaultLayout(const ShapeProto& shape);
// The physical bytes are the logical ones: the default layout, unpacked.
bool PhysicalIsLogical(const ShapeProto& shape);
// Same element type, dimensions and physical layout (arrays).
bool SameShape(const ShapeProto& a, const ShapeProto& b);

// Reorders a dense array between row-major logical order and the physical
// order of `shape`'s layout. The logical buffer holds ElementCount(shape) *
// ElementBytes elements' bytes (sub-byte values one per byte, sign- or
// zero-extended), the physical one ByteSize(shape): when the layout packs
// (PackedBits), the elements are packed in physical order, the first in the
// most significant bits of each byte, the last byte's unused bits zero.
void LogicalToPhysical(const ShapeProto& shape, const uint8_t* logical, uint8_t* physical);
void PhysicalToLogical(const ShapeProto& shape, const uint8_t* physical, uint8_t* logical);

}  // namespace runtime_shape
}  // namespace aot

#endif  // AOT_RUNTIME_SHAPE_UTIL_H_
