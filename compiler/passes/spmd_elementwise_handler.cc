// Elementwise and shape ops on tiles: cut along whole dimensions, slices
// across tiles.
#include "compiler/passes/spmd_partitioner_internal.h"

namespace aot {
namespace spmd_internal {

std::optional<HloInstruction*> Partitioner::CutAlongWholeDimensions(const HloInstruction& h,
                                                                    const HloSharding& s) {
  const HloOpcode op = h.opcode();
  if (!s.IsTiled() || !h.shape().IsArray() || !IsEven(h.shape(), s)) return std::nullopt;
  if (op != HloOpcode::kSlice && op != HloOpcode::kDynamicSlice && op != HloOpcode::kPad &&
      op != HloOpcode::kReverse && op != HloOpcode::kConcatenate &&
      op != HloOpcode::kDynamicUpdateSlice) {
    return std::nullopt;
  }
  const HloAttributes& at = h.attrs();
  const auto& dims = h.shape().dimensions();
  for (int64_t d = 0; d < s.DataRank(); ++d) {
    if (s.tile_dims()[d] == 1) continue;
    const int64_t full = h.operand(0)->shape().dimensions()[d];
    bool whole = full == dims[d];
    switch (op) {
      case HloOpcode::kSlice:
        whole &= at.slice.size() > static_cast<size_t>(d) && at.slice[d].start == 0 &&
                 at.slice[d].stride == 1;
        break;
      case HloOpcode::kPad: {
        if (!at.padding_config || at.padding_config->dimensions_size() <= d) return std::nullopt;
        const auto& pd = at.padding_config->dimensions(d);
        whole &=
            pd.edge_padding_low() == 0 && pd.edge_padding_high() == 0 && pd.interior_padding() == 0;
        break;
      }
      case HloOpcode::kReverse:
        whole &= std::find(at.dimensions.begin(), at.dimensions.end(), d) == at.dimensions.end();
        break;
      case HloOpcode::kConcatenate:
        whole = at.dimensions.size() == 1 && at.dimensions[0] != d;
        break;
      case HloOpcode::kDynamicUpdateSlice:
        whole &= h.operand(1)->shape().dimensions()[d] == full;
        break;
      default:  // dynamic-slice: the size is the dimension's
        break;
    }
    if (!whole) return std::nullopt;
  }
  // Array operands sharded as the result (concatenate: all; dynamic
  // update: the operand and the update); the rest are replicated scalars.
  std::vector<HloInstruction*> operands;
  for (int64_t k = 0; k < h.operand_count(); ++k) {
    const HloInstruction* o = h.operand(k);
    const bool data =
        op == HloOpcode::kConcatenate || k == 0 || (op == HloOpcode::kDynamicUpdateSlice && k == 1);
    if (data ? !(sharding_.at(o) == s) || !IsEven(o->shape(), s) : sharding_.at(o).IsTiled()) {
      return std::nullopt;
    }
    operands.push_back(local_.at(o));
  }
  absl::StatusOr<Shape> local = Local(h.shape(), s, DescribeInstruction(h));
  if (!local.ok()) return std::nullopt;
  return Again(h, operands, *local, [&](HloInstruction* cut) {
    for (int64_t d = 0; d < s.DataRank(); ++d) {
      if (s.tile_dims()[d] == 1) continue;
      if (op == HloOpcode::kSlice) cut->mutable_attrs()->slice[d].limit = local->dimensions()[d];
      if (op == HloOpcode::kDynamicSlice) {
        cut->mutable_attrs()->dynamic_slice_sizes[d] = local->dimensions()[d];
      }
    }
  });
}

std::optional<HloInstruction*> Partitioner::SliceAcrossTiles(InstructionBuilder& b,
                                                             const HloInstruction& h,
                                                             const HloSharding& s) {
  if (h.opcode() != HloOpcode::kSlice || !s.IsTiled() || s.ReplicationFactor() != 1 ||
      !(sharding_.at(h.operand(0)) == s) || s.DeviceCount() != n_) {
    return std::nullopt;
  }
  for (size_t i = 0; i < s.devices().size(); ++i) {
    if (s.devices()[i] != static_cast<int64_t>(i)) return std::nullopt;
  }
  int64_t d = -1;
  for (int64_t i = 0; i < s.DataRank(); ++i) {
    if (s.tile_dims()[i] == 1) continue;
    if (d >= 0) return std::nullopt;
    d = i;
  }
  const Shape& full = h.operand(0)->shape();
  if (d < 0 || static_cast<int64_t>(h.attrs().slice.size()) <= d ||
      h.attrs().slice[d].stride != 1 || full.dimensions()[d] % n_ != 0) {
    return std::nullopt;
  }
  const int64_t tile = full.dimensions()[d] / n_;
  const int64_t size = h.shape().dimensions()[d];
  if ((size + n_ - 1) / n_ != tile) return std::nullopt;
  const int64_t c = h.attrs().slice[d].start / tile, r = h.attrs().slice[d].start % tile;
  // The other dimensions sliced on the tile.
  HloInstruction* local = local_.at(h.operand(0));
  Shape cut_shape = h.shape();
  (*cut_shape.mutable_dimensions())[d] = tile;
  HloInstruction* x = local;
  if (cut_shape.dimensions() != local->shape().dimensions()) {
    x = b.Op(HloOpcode::kSlice, cut_shape, {local});
    x->mutable_attrs()->slice = h.attrs().slice;
    x->mutable_attrs()->slice[d] = SliceSpec{0, tile, 1};
  }
  auto rows = [&](int64_t from, int64_t to) {
    Shape shape = cut_shape;
    (*shape.mutable_dimensions())[d] = to - from;
    HloInstruction* part = b.Op(HloOpcode::kSlice, shape, {x});
    for (int64_t i = 0; i < static_cast<int64_t>(shape.dimensions().size()); ++i) {
      part->mutable_attrs()->slice.push_back(i == d ? SliceSpec{from, to, 1}
                                                    : SliceSpec{0, cut_shape.dimensions()[i], 1});
    }
    return part;
  };
  // Partition j receives `v` from partition j + step (zeros where there
  // is none: rows past the result's end, its padding).
  auto from_right = [&](HloInstruction* v, int64_t step) -> HloInstruction* {
    if (step == 0) return v;
    HloInstruction* moved = b.Op(HloOpcode::kCollectivePermute, v->shape(), {v});
    for (int64_t j = 0; j + step < n_; ++j) {
      moved->mutable_attrs()->source_target_pairs.emplace_back(j + step, j);
    }
    moved->mutable_attrs()->channel_id = next_channel_++;
    return moved;
  };
  if (r == 0) return from_right(x, c);
  HloInstruction* head = from_right(rows(r, tile), c);
  HloInstruction* tail = from_right(rows(0, r), c + 1);
  HloInstruction* joined = b.Op(HloOpcode::kConcatenate, cut_shape, {head, tail});
  joined->mutable_attrs()->dimensions = {d};
  return joined;
}

}  // namespace spmd_internal
}  // namespace aot
