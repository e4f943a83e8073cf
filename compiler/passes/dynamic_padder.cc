#include "compiler/passes/dynamic_padder.h"

#include <cstdint>
#include <limits>
#include <memory>
#include <utility>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "compiler/hlo/dynamic_dimensions.h"
#include "compiler/passes/pass_utils.h"
#include "support/status_macros.h"

namespace aot {
namespace {

// Per dimension of a value: its size instruction (s32[]), or null when the
// dimension is static.
using SizeInstructions = std::vector<HloInstruction*>;

class DynamicLowering {
 public:
  explicit DynamicLowering(HloComputation* computation)
      : computation_(computation), names_(NameUniquer::ForInstructions(*computation)) {}

  absl::StatusOr<bool> Run() {
    bool changed = false;
    for (HloInstruction* h : computation_->MakeInstructionPostOrder()) {
      std::vector<DynamicDims> dims;
      for (const HloInstruction* op : h->operands()) dims.push_back(DimsOf(op));
      if (!TouchesDynamicDimensions(*h, dims)) continue;
      AOT_ASSIGN_OR_RETURN(DynamicPlan plan, PlanDynamicDimensions(*h, dims));
      AOT_RETURN_IF_ERROR(Lower(h, plan));
      changed = true;
    }
    const HloInstruction* root = computation_->root_instruction();
    if (const DynamicDims root_dims = DimsOf(root); !root_dims.empty()) {
      return DynamicRootError(*root, computation_->name(), root_dims);
    }
    // Replaced only now: a set-dimension-size gives way to its operand,
    // which other users may read as static. Latest first: a replacement's
    // target may itself be replaced (set-dimension-size of a
    // set-dimension-size), and its users then move on with it.
    for (auto it = replacements_.rbegin(); it != replacements_.rend(); ++it) {
      it->first->ReplaceAllUsesWith(it->second);
    }
    return changed;
  }

 private:
  DynamicDims DimsOf(const HloInstruction* h) const {
    auto it = sizes_.find(h);
    if (it == sizes_.end()) return {};
    DynamicDims dims;
    for (const HloInstruction* s : it->second) dims.push_back(s != nullptr);
    return dims;
  }

  // The size of `h`'s dimension `d`: its size instruction or the bound.
  HloInstruction* SizeOf(InstructionBuilder& b, const HloInstruction* h, int64_t d) {
    auto it = sizes_.find(h);
    if (it != sizes_.end() && it->second[d] != nullptr) return it->second[d];
    return b.Constant(S32, static_cast<double>(h->shape().dimensions(d)));
  }

  absl::Status Lower(HloInstruction* h, const DynamicPlan& plan) {
    InstructionBuilder b(computation_, &names_, *h);
    SizeInstructions sizes(plan.result.size(), nullptr);
    for (size_t d = 0; d < plan.result.size(); ++d) {
      const DynamicSize& s = plan.result[d];
      const double bound = static_cast<double>(h->shape().dimensions(static_cast<int64_t>(d)));
      if (s.kind == DynamicSize::kDimension) {
        sizes[d] = SizeOf(b, h->operand(s.operand), s.dimension);
        if (s.multiplier != 1) {
          sizes[d] = b.Binary(HloOpcode::kMultiply, sizes[d],
                              b.Constant(S32, static_cast<double>(s.multiplier)));
        }
      } else if (s.kind == DynamicSize::kValue) {
        sizes[d] = b.Op(HloOpcode::kClamp, Shape::Scalar(S32),
                        {b.Constant(S32, 0), h->operand(s.operand), b.Constant(S32, bound)});
      }
    }
    switch (h->opcode()) {
      case HloOpcode::kGetDimensionSize:
        replacements_.push_back({h, SizeOf(b, h->operand(0), h->attrs().dimensions[0])});
        break;
      case HloOpcode::kSetDimensionSize:
        replacements_.push_back({h, h->operand(0)});
        break;
      case HloOpcode::kDynamicReshape:
        replacements_.push_back({h, Compact(b, h, sizes)});
        break;
      default: {
        // Sizes are looked up on the operands as they were (a masked
        // operand is a new instruction).
        const std::vector<HloInstruction*> original = h->operands();
        for (const DynamicMask& m : plan.masks) {
          HloInstruction* x = h->operand(m.operand);
          HloInstruction* size = SizeOf(b, original[m.size_operand], m.size_dimension);
          HloInstruction* fill =
              m.fill_operand >= 0 ? original[m.fill_operand]
                                  : b.Constant(Literal(Shape::Scalar(x->shape().element_type())));
          h->ReplaceOperandWith(m.operand, Mask(b, x, m.dimension, size, fill));
        }
        break;
      }
    }
    if (plan.IsDynamic()) sizes_[h] = std::move(sizes);
    return absl::OkStatus();
  }

  // select(iota along `dim` < size, x, fill broadcast).
  HloInstruction* Mask(InstructionBuilder& b, HloInstruction* x, int64_t dim, HloInstruction* size,
                       HloInstruction* fill) {
    const std::vector<int64_t>& dims = x->shape().dimensions();
    HloInstruction* iota = b.Op(HloOpcode::kIota, Shape(S32, dims), {});
    iota->mutable_attrs()->dimensions = {dim};
    HloInstruction* valid =
        b.Compare(iota, b.Broadcast(size, Shape(S32, dims), {}), ComparisonDirection::kLt);
    return b.Select(valid, x, b.Broadcast(fill, Shape(x->shape().element_type(), dims), {}));
  }

  // dynamic-reshape: output element o (row-major rank k over the output's
  // sizes, when o is inside them) takes the operand's valid element k
  // (row-major over its sizes), read by a gather from the flattened operand;
  // past the operand's valid count, and outside the output's sizes, zero.
  HloInstruction* Compact(InstructionBuilder& b, HloInstruction* h, const SizeInstructions& sizes) {
    HloInstruction* x = h->operand(0);
    const std::vector<int64_t>& in = x->shape().dimensions();
    const std::vector<int64_t>& out = h->shape().dimensions();
    const PrimitiveType type = x->shape().element_type();
    HloInstruction* zeros =
        b.Broadcast(b.Constant(Literal(Shape::Scalar(type))), Shape(type, out), {});
    int64_t in_total = 1, out_total = 1;
    for (int64_t d : in) in_total *= d;
    for (int64_t d : out) out_total *= d;
    if (in_total == 0 || out_total == 0) return zeros;
    const PrimitiveType index_type =
        std::max(in_total, out_total) < std::numeric_limits<int32_t>::max() ? S32 : S64;
    const Shape index_shape(index_type, out);
    auto scalar = [&](HloInstruction* s32) {
      return index_type == S32 ? s32 : b.Convert(s32, index_type);
    };
    auto splat = [&](HloInstruction* s) { return b.Broadcast(scalar(s), index_shape, {}); };
    // k, and whether o lies inside the output's sizes.
    HloInstruction* k = nullptr;
    HloInstruction* inside = nullptr;
    for (int64_t d = 0; d < static_cast<int64_t>(out.size()); ++d) {
      HloInstruction* size = sizes[d] != nullptr ? sizes[d] : SizeOf(b, h, d);
      HloInstruction* iota = b.Op(HloOpcode::kIota, index_shape, {});
      iota->mutable_attrs()->dimensions = {d};
      HloInstruction* in_d = b.Compare(iota, splat(size), ComparisonDirection::kLt);
      inside = inside == nullptr ? in_d : b.Binary(HloOpcode::kAnd, inside, in_d);
      k = k == nullptr
              ? iota
              : b.Binary(HloOpcode::kAdd, b.Binary(HloOpcode::kMultiply, k, splat(size)), iota);
    }
    if (k == nullptr) {  // a scalar result
      k = b.Constant(Literal(Shape::Scalar(index_type)));
      inside = b.Constant(Literal::Scalar<bool>(PRED, true));
    }
    // The operand's multi-index of valid element k, and its place in the
    // flattened bound-sized operand.
    HloInstruction* flat = nullptr;
    HloInstruction* count = nullptr;
    HloInstruction* rest = k;
    int64_t stride = 1;
    for (int64_t d = static_cast<int64_t>(in.size()) - 1; d >= 0; --d) {
      HloInstruction* size = SizeOf(b, x, d);
      HloInstruction* size_b = splat(size);
      HloInstruction* j = b.Binary(HloOpcode::kRemainder, rest, size_b);
      rest = b.Binary(HloOpcode::kDivide, rest, size_b);
      HloInstruction* term = b.Binary(
          HloOpcode::kMultiply, j,
          b.Broadcast(b.Constant(index_type, static_cast<double>(stride)), index_shape, {}));
      flat = flat == nullptr ? term : b.Binary(HloOpcode::kAdd, flat, term);
      count = count == nullptr ? scalar(size) : b.Binary(HloOpcode::kMultiply, count, scalar(size));
      stride *= in[d];
    }
    if (flat == nullptr) {  // a scalar operand
      flat = b.Broadcast(b.Constant(Literal(Shape::Scalar(index_type))), index_shape, {});
      count = b.Constant(index_type, 1);
    }
    HloInstruction* valid =
        b.Binary(HloOpcode::kAnd, inside,
                 b.Compare(k, b.Broadcast(count, index_shape, {}), ComparisonDirection::kLt));
    std::vector<int64_t> index_dims = out;
    index_dims.push_back(1);
    HloInstruction* indices = b.Reshape(flat, index_dims);
    HloInstruction* operand = b.Reshape(x, {in_total});
    HloInstruction* gather = b.Op(HloOpcode::kGather, Shape(type, out), {operand, indices});
    GatherDimensionNumbersProto dn;
    dn.add_collapsed_slice_dims(0);
    dn.add_start_index_map(0);
    dn.set_index_vector_dim(static_cast<int64_t>(out.size()));
    gather->mutable_attrs()->gather_dimension_numbers = dn;
    gather->mutable_attrs()->gather_slice_sizes = {1};
    return b.Select(valid, gather, zeros);
  }

  HloComputation* computation_;
  NameUniquer names_;
  absl::flat_hash_map<const HloInstruction*, SizeInstructions> sizes_;
  std::vector<std::pair<HloInstruction*, HloInstruction*>> replacements_;
};

}  // namespace

absl::StatusOr<bool> LowerDynamicDimensions(HloModule* module) {
  return RewriteUnfusedComputations(module, AfterRewrite::kRemoveDeadAndReorder,
                                    [](HloComputation* c) { return DynamicLowering(c).Run(); });
}

}  // namespace aot
