#include "compiler/passes/sub_byte_packing.h"

#include <functional>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "compiler/passes/pass_utils.h"
#include "runtime/shape_util.h"
#include "support/status_macros.h"

namespace aot {

namespace {

bool IsPacked(const Shape& shape) { return shape.IsArray() && shape.element_size_in_bits() != 0; }

// A packed shape's buffer: u8 of the runtime's byte size for it.
Shape PackedBuffer(const Shape& shape) {
  return Shape(U8, {runtime_shape::ByteSize(shape.ToProto())});
}

// `shape` with each leaf that `abi` (a compatible shape) packs replaced by
// its u8 buffer.
Shape WithBuffers(const Shape& shape, const Shape& abi) {
  if (IsPacked(abi)) return PackedBuffer(abi);
  if (!shape.IsTuple()) return shape;
  Shape out = shape;
  for (size_t i = 0; i < out.tuple_shapes().size(); ++i) {
    (*out.mutable_tuple_shapes())[i] = WithBuffers(shape.tuple_shapes(i), abi.tuple_shapes(i));
  }
  return out;
}

// Whether `shape`'s physical order is its logical (row-major) order.
bool InDefaultOrder(Shape shape) {
  shape.set_element_size_in_bits(0);
  return shape.HasDefaultLayout();
}

// The dimensions of `shape` in physical (major-to-minor) order.
std::vector<int64_t> PhysicalDims(const Shape& shape) {
  std::vector<int64_t> m2m = shape.LayoutOrDefault();
  std::vector<int64_t> dims;
  for (auto it = m2m.rbegin(); it != m2m.rend(); ++it) dims.push_back(shape.dimensions(*it));
  return dims;
}

class Packer {
 public:
  Packer(HloComputation* entry, NameUniquer* names, const HloInstruction& base)
      : b_(entry, names, base) {}

  // The logical value of the packed buffer `bytes` whose ABI shape is
  // `shape`.
  HloInstruction* Unpack(HloInstruction* bytes, const Shape& shape) {
    const int64_t bits = shape.element_size_in_bits();
    const int64_t per_byte = 8 / bits;
    const int64_t m = bytes->shape().dimensions(0);
    const int64_t n = shape.ElementCount();
    std::vector<HloInstruction*> parts;
    for (int64_t k = 0; k < per_byte; ++k) {
      HloInstruction* shifted = b_.Binary(HloOpcode::kShiftRightLogical, bytes,
                                          b_.Splat(U8, (per_byte - 1 - k) * bits, {m}));
      HloInstruction* part =
          b_.Binary(HloOpcode::kAnd, shifted, b_.Splat(U8, (1 << bits) - 1, {m}));
      parts.push_back(b_.Reshape(part, {m, 1}));
    }
    HloInstruction* all = parts[0];
    if (per_byte > 1) {
      all = b_.Op(HloOpcode::kConcatenate, Shape(U8, {m, per_byte}), parts);
      all->mutable_attrs()->dimensions = {1};
    }
    HloInstruction* flat = b_.Reshape(all, {m * per_byte});
    if (m * per_byte != n) {
      flat = b_.Op(HloOpcode::kSlice, Shape(U8, {n}), {flat});
      flat->mutable_attrs()->slice = {SliceSpec{0, n, 1}};
    }
    HloInstruction* values;
    if (shape.element_type() == F4E2M1FN) {
      values = DecodeFp4(flat);
    } else if (IsSignedInteger(shape.element_type())) {
      // Sign-extend through s8: the value's top bit moved to bit 7 and
      // shifted back arithmetically.
      HloInstruction* wide = b_.Convert(flat, S8);
      HloInstruction* up = b_.Binary(HloOpcode::kShiftLeft, wide, b_.Splat(S8, 8 - bits, {n}));
      values = b_.Binary(HloOpcode::kShiftRightArithmetic, up, b_.Splat(S8, 8 - bits, {n}));
      values = b_.Convert(values, shape.element_type());
    } else {
      values = b_.Convert(flat, shape.element_type());
    }
    HloInstruction* physical = b_.Reshape(values, PhysicalDims(shape));
    if (InDefaultOrder(shape)) return physical;
    // Logical dimension d is physical position rank-1-(index of d in m2m).
    const std::vector<int64_t> m2m = shape.LayoutOrDefault();
    std::vector<int64_t> permutation(shape.rank());
    for (int64_t i = 0; i < shape.rank(); ++i) permutation[m2m[i]] = shape.rank() - 1 - i;
    HloInstruction* logical =
        b_.Op(HloOpcode::kTranspose, Shape(shape.element_type(), shape.dimensions()), {physical});
    logical->mutable_attrs()->dimensions = permutation;
    return logical;
  }

  // The packed buffer of the logical value `value` whose ABI shape is
  // `shape`.
  HloInstruction* Pack(HloInstruction* value, const Shape& shape) {
    const int64_t bits = shape.element_size_in_bits();
    const int64_t per_byte = 8 / bits;
    const int64_t n = shape.ElementCount();
    const int64_t m = PackedBuffer(shape).dimensions(0);
    HloInstruction* physical = value;
    if (!InDefaultOrder(shape)) {
      const std::vector<int64_t> m2m = shape.LayoutOrDefault();
      std::vector<int64_t> permutation(m2m.rbegin(), m2m.rend());
      physical =
          b_.Op(HloOpcode::kTranspose, Shape(shape.element_type(), PhysicalDims(shape)), {value});
      physical->mutable_attrs()->dimensions = permutation;
    }
    HloInstruction* flat = b_.Reshape(physical, {n});
    HloInstruction* bytes;
    if (shape.element_type() == F4E2M1FN) {
      bytes = EncodeFp4(flat);
    } else if (IsSignedInteger(shape.element_type())) {
      bytes = b_.Op(HloOpcode::kBitcastConvert, Shape(U8, {n}), {b_.Convert(flat, S8)});
    } else {
      bytes = b_.Convert(flat, U8);
    }
    bytes = b_.Binary(HloOpcode::kAnd, bytes, b_.Splat(U8, (1 << bits) - 1, {n}));
    if (m * per_byte != n) {
      PaddingConfigProto padding;
      PaddingConfigProto::PaddingDimension* d = padding.add_dimensions();
      d->set_edge_padding_high(m * per_byte - n);
      bytes = b_.Op(HloOpcode::kPad, Shape(U8, {m * per_byte}), {bytes, b_.Constant(U8, 0)});
      bytes->mutable_attrs()->padding_config = padding;
    }
    HloInstruction* rows = b_.Reshape(bytes, {m, per_byte});
    HloInstruction* packed = nullptr;
    for (int64_t k = 0; k < per_byte; ++k) {
      HloInstruction* column = b_.Op(HloOpcode::kSlice, Shape(U8, {m, 1}), {rows});
      column->mutable_attrs()->slice = {SliceSpec{0, m, 1}, SliceSpec{k, k + 1, 1}};
      HloInstruction* part = b_.Binary(HloOpcode::kShiftLeft, b_.Reshape(column, {m}),
                                       b_.Splat(U8, (per_byte - 1 - k) * bits, {m}));
      packed = packed == nullptr ? part : b_.Binary(HloOpcode::kOr, packed, part);
    }
    return packed;
  }

 private:
  // f4e2m1fn from its codes (u8, 0..15): sign bit 3, exponent bits 2..1,
  // mantissa bit 0; exponent 0 is subnormal (0 or 0.5), exponent e > 0 is
  // (1 + m / 2) * 2^(e - 1). Computed in f32 (every value exact), then
  // converted: the narrow types have no bit-level conversion from u8 (a
  // kernel holds f4e2m1fn as its byte, but HLO's bitcast-convert from u8
  // would take two of them per byte).
  HloInstruction* DecodeFp4(HloInstruction* codes) {
    const std::vector<int64_t> dims = codes->shape().dimensions();
    auto bits = [&](int shift, int mask) {
      HloInstruction* shifted =
          shift == 0 ? codes
                     : b_.Binary(HloOpcode::kShiftRightLogical, codes, b_.Splat(U8, shift, dims));
      return b_.Binary(HloOpcode::kAnd, shifted, b_.Splat(U8, mask, dims));
    };
    HloInstruction* sign = bits(3, 1);
    HloInstruction* exponent = bits(1, 3);
    HloInstruction* half_mantissa =
        b_.Binary(HloOpcode::kMultiply, b_.Convert(bits(0, 1), F32), b_.Splat(F32, 0.5, dims));
    // 2^(e - 1) for e in 1..3 is (e^2 - e + 2) / 2.
    HloInstruction* e = b_.Convert(exponent, F32);
    HloInstruction* power = b_.Binary(
        HloOpcode::kMultiply,
        b_.Binary(HloOpcode::kAdd,
                  b_.Binary(HloOpcode::kSubtract, b_.Binary(HloOpcode::kMultiply, e, e), e),
                  b_.Splat(F32, 2, dims)),
        b_.Splat(F32, 0.5, dims));
    HloInstruction* normal =
        b_.Binary(HloOpcode::kMultiply,
                  b_.Binary(HloOpcode::kAdd, b_.Splat(F32, 1, dims), half_mantissa), power);
    HloInstruction* magnitude =
        b_.Select(b_.Compare(exponent, b_.Splat(U8, 0, dims), ComparisonDirection::kEq),
                  half_mantissa, normal);
    HloInstruction* value =
        b_.Select(b_.Compare(sign, b_.Splat(U8, 1, dims), ComparisonDirection::kEq),
                  b_.Unary(HloOpcode::kNegate, magnitude), magnitude);
    return b_.Convert(value, F4E2M1FN);
  }

  // The codes (u8) of f4e2m1fn values: the sign bit read from the f32's
  // (so -0 keeps it) and the magnitude's index among the format's seven
  // nonzero magnitudes, counted by comparisons (every value is exact).
  HloInstruction* EncodeFp4(HloInstruction* values) {
    const std::vector<int64_t> dims = values->shape().dimensions();
    HloInstruction* f = b_.Convert(values, F32);
    HloInstruction* raw = b_.Op(HloOpcode::kBitcastConvert, Shape(U32, dims), {f});
    HloInstruction* sign =
        b_.Convert(b_.Binary(HloOpcode::kShiftRightLogical, raw, b_.Splat(U32, 31, dims)), U8);
    HloInstruction* magnitude = b_.Unary(HloOpcode::kAbs, f);
    HloInstruction* index = nullptr;
    for (double threshold : {0.5, 1.0, 1.5, 2.0, 3.0, 4.0, 6.0}) {
      HloInstruction* above = b_.Convert(
          b_.Compare(magnitude, b_.Splat(F32, threshold, dims), ComparisonDirection::kGe), U8);
      index = index == nullptr ? above : b_.Binary(HloOpcode::kAdd, index, above);
    }
    return b_.Binary(HloOpcode::kOr, b_.Binary(HloOpcode::kShiftLeft, sign, b_.Splat(U8, 3, dims)),
                     index);
  }

  InstructionBuilder b_;
};

}  // namespace

absl::StatusOr<bool> LowerSubBytePacking(HloModule* module) {
  HloComputation* entry = module->entry_computation();
  if (entry == nullptr || entry->root_instruction() == nullptr) return false;
  const ProgramShape abi =
      module->config().entry_computation_layout.value_or(module->EntryProgramShape());
  bool any = HasPackedLeaf(abi.result);
  for (const Shape& p : abi.parameters) any |= HasPackedLeaf(p);
  if (!any) return false;

  NameUniquer names = NameUniquer::ForInstructions(*entry);
  ProgramShape buffers = abi;
  for (HloInstruction* p : entry->parameter_instructions()) {
    if (p == nullptr) continue;
    const int64_t number = p->parameter_number();
    if (number < 0 || number >= static_cast<int64_t>(abi.parameters.size())) continue;
    const Shape& want = abi.parameters[number];
    if (!HasPackedLeaf(want)) continue;
    if (!want.Compatible(p->shape())) {
      return absl::InvalidArgumentError(
          absl::StrCat("entry parameter ", number, " ('", p->name(), "') is ",
                       p->shape().ToString(), "; entry_computation_layout says ", want.ToString()));
    }
    std::vector<HloInstruction*> users = p->users();
    const bool was_root = entry->root_instruction() == p;
    *p->mutable_shape() = WithBuffers(p->shape(), want);
    Packer packer(entry, &names, *p);
    InstructionBuilder b(entry, &names, *p);
    // The logical value of `value` (ABI shape `want`): packed leaves
    // unpacked, tuples rebuilt around them (a tuple-typed parameter's
    // users read the rebuilt tuple).
    std::function<HloInstruction*(HloInstruction*, const Shape&)> unpack =
        [&](HloInstruction* value, const Shape& want) -> HloInstruction* {
      if (!HasPackedLeaf(want)) return value;
      if (IsPacked(want)) return packer.Unpack(value, want);
      std::vector<HloInstruction*> elements;
      for (int64_t i = 0; i < static_cast<int64_t>(want.tuple_shapes().size()); ++i) {
        elements.push_back(unpack(b.GetTupleElement(value, i), want.tuple_shapes(i)));
      }
      return b.Tuple(std::move(elements));
    };
    HloInstruction* logical = unpack(p, want);
    for (HloInstruction* user : users) {
      for (int64_t i = 0; i < user->operand_count(); ++i) {
        if (user->operand(i) == p) user->ReplaceOperandWith(i, logical);
      }
    }
    if (was_root) entry->set_root_instruction(logical);
    buffers.parameters[number] = WithBuffers(want, want);
  }
  if (HasPackedLeaf(abi.result)) {
    HloInstruction* root = entry->root_instruction();
    Packer packer(entry, &names, *root);
    InstructionBuilder b(entry, &names, *root);
    // Packs each packed leaf of `value` (ABI shape `want`), rebuilding the
    // tuples around them.
    std::function<absl::StatusOr<HloInstruction*>(HloInstruction*, const Shape&, std::string)>
        pack = [&](HloInstruction* value, const Shape& want,
                   std::string index) -> absl::StatusOr<HloInstruction*> {
      if (!HasPackedLeaf(want)) return value;
      if (IsPacked(want)) return packer.Pack(value, want);
      std::vector<HloInstruction*> elements;
      for (int64_t i = 0; i < static_cast<int64_t>(want.tuple_shapes().size()); ++i) {
        AOT_ASSIGN_OR_RETURN(HloInstruction * element,
                             pack(b.GetTupleElement(value, i), want.tuple_shapes(i),
                                  index.empty() ? absl::StrCat(i) : absl::StrCat(index, ",", i)));
        elements.push_back(element);
      }
      return b.Tuple(std::move(elements));
    };
    if (!root->shape().Compatible(abi.result)) {
      return absl::InvalidArgumentError(
          absl::StrCat("the entry result is ", root->shape().ToString(),
                       "; entry_computation_layout says ", abi.result.ToString()));
    }
    AOT_ASSIGN_OR_RETURN(HloInstruction * packed, pack(root, abi.result, ""));
    entry->set_root_instruction(packed);
    buffers.result = WithBuffers(abi.result, abi.result);
  }
  module->mutable_config()->entry_computation_layout = std::move(buffers);
  AOT_RETURN_IF_ERROR(EnsureDefinitionOrder(entry).status());
  return true;
}

}  // namespace aot
