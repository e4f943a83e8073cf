// Gather and scatter on tiles.
#include "compiler/passes/spmd_partitioner_internal.h"

namespace aot {
namespace spmd_internal {

absl::StatusOr<std::optional<HloInstruction*>> Partitioner::PartitionGather(
    InstructionBuilder& b, const HloInstruction& h, const HloSharding& s, const std::string& what) {
  const HloInstruction* table = h.operand(0);
  const HloInstruction* ids = h.operand(1);
  const HloSharding& ts = sharding_.at(table);
  // Passthrough: the table split only along dimensions each slice takes
  // whole, or the indices only along their batch dimensions, the other
  // operand replicated and the result sharded as the split one maps to
  // it: the gather of the tiles (each slice cut to the table's tile).
  for (int64_t k = 0; k < 2 && s.IsTiled(); ++k) {
    const HloSharding& split = sharding_.at(h.operand(k));
    std::optional<std::vector<int64_t>> m = OperandToResultMapping(h, k);
    if (!split.IsTiled() || sharding_.at(h.operand(1 - k)).IsTiled() || !m ||
        !IsEven(h.operand(k)->shape(), split) || !IsEven(h.shape(), s)) {
      continue;
    }
    bool passes = true;
    for (int64_t d = 0; d < split.DataRank(); ++d) {
      passes &= split.tile_dims()[d] == 1 || std::find(m->begin(), m->end(), d) != m->end();
    }
    std::optional<HloSharding> mapped =
        MapSharding(split, static_cast<int64_t>(h.operand(k)->shape().dimensions().size()), *m);
    if (!passes || !mapped || !(*mapped == s)) continue;
    AOT_ASSIGN_OR_RETURN(Shape local, Local(h.shape(), s, what));
    return std::optional<HloInstruction*>(
        Again(h, {local_.at(table), local_.at(ids)}, local, [&](HloInstruction* g) {
          if (k != 0) return;
          for (int64_t d = 0; d < split.DataRank(); ++d) {
            g->mutable_attrs()->gather_slice_sizes[d] /= split.tile_dims()[d];
          }
        }));
  }
  const int64_t td = OneSplitDimension(table->shape(), ts);
  if (td < 0 || sharding_.at(ids).IsTiled() || !h.attrs().gather_dimension_numbers ||
      !h.shape().IsArray() || table->shape().element_type() == PRED ||
      (ids->shape().element_type() != S32 && ids->shape().element_type() != S64 &&
       ids->shape().element_type() != U32 && ids->shape().element_type() != U64)) {
    return std::optional<HloInstruction*>();
  }
  const GatherDimensionNumbersProto& dn = *h.attrs().gather_dimension_numbers;
  const auto& collapsed = dn.collapsed_slice_dims();
  const auto& index_map = dn.start_index_map();
  const int64_t k = std::find(index_map.begin(), index_map.end(), td) - index_map.begin();
  if (dn.operand_batching_dims_size() > 0 ||
      std::find(collapsed.begin(), collapsed.end(), td) == collapsed.end() ||
      k == index_map.size() || h.attrs().gather_slice_sizes.size() <= static_cast<size_t>(td) ||
      h.attrs().gather_slice_sizes[td] != 1) {
    return std::optional<HloInstruction*>();
  }
  const Shape& id_shape = ids->shape();
  const PrimitiveType id_type = id_shape.element_type();
  const int64_t id_rank = static_cast<int64_t>(id_shape.dimensions().size());
  const int64_t ivd = dn.index_vector_dim();
  const int64_t width = ivd < id_rank ? id_shape.dimensions()[ivd] : 1;
  const int64_t size = table->shape().dimensions()[td], tile = size / n_;
  // Per partition, the index vector's offset (the tile's first row at
  // component k) and upper clamp (the table's last row at k).
  std::vector<int64_t> offsets, highs;
  for (int64_t p = 0; p < n_; ++p) {
    const int64_t start = TileStart(table->shape(), ts, p)[td];
    for (int64_t c = 0; c < width; ++c) {
      offsets.push_back(c == k ? start : 0);
      highs.push_back(c == k ? size - 1 : std::numeric_limits<int32_t>::max());
    }
  }
  auto per_index = [&](const std::vector<int64_t>& values, bool by_partition) {
    const int64_t rows = by_partition ? n_ : 1;
    HloInstruction* t = b.Constant(Literal::FromInt64s(
        Shape(id_type, {rows, width}),
        by_partition ? values : std::vector<int64_t>(values.begin(), values.begin() + width)));
    HloInstruction* row = t;
    if (by_partition) {
      row = b.Op(HloOpcode::kDynamicSlice, Shape(id_type, {1, width}),
                 {t, PartitionId(b), b.Constant(S32, 0)});
      row->mutable_attrs()->dynamic_slice_sizes = {1, width};
    }
    HloInstruction* vector = b.Reshape(row, {width});
    return ivd < id_rank ? b.Broadcast(vector, id_shape, {ivd})
                         : b.Broadcast(b.Reshape(vector, {}), id_shape, {});
  };
  HloInstruction* in_table = b.Binary(
      HloOpcode::kMinimum,
      b.Binary(HloOpcode::kMaximum, local_.at(ids), b.Splat(id_type, 0, id_shape.dimensions())),
      per_index(highs, false));
  HloInstruction* local_ids = b.Binary(HloOpcode::kSubtract, in_table, per_index(offsets, true));
  // Component k of every index vector: which are this partition's rows.
  HloInstruction* row = local_ids;
  std::vector<int64_t> batch = id_shape.dimensions();
  if (ivd < id_rank) {
    Shape one = id_shape;
    (*one.mutable_dimensions())[ivd] = 1;
    row = b.Op(HloOpcode::kSlice, one, {local_ids});
    for (int64_t d = 0; d < id_rank; ++d) {
      row->mutable_attrs()->slice.push_back(d == ivd ? SliceSpec{k, k + 1, 1}
                                                     : SliceSpec{0, id_shape.dimensions()[d], 1});
    }
    batch.erase(batch.begin() + ivd);
    row = b.Reshape(row, batch);
  }
  HloInstruction* mine = b.Binary(
      HloOpcode::kAnd, b.Compare(row, b.Splat(id_type, 0, batch), ComparisonDirection::kGe),
      b.Compare(row, b.Splat(id_type, static_cast<double>(tile), batch), ComparisonDirection::kLt));
  HloInstruction* looked_up = Again(h, {local_.at(table), local_ids}, h.shape());
  std::vector<int64_t> batch_dims;
  const auto& offset_dims = dn.offset_dims();
  for (int64_t d = 0; d < static_cast<int64_t>(h.shape().dimensions().size()); ++d) {
    if (std::find(offset_dims.begin(), offset_dims.end(), d) == offset_dims.end()) {
      batch_dims.push_back(d);
    }
  }
  HloInstruction* mask =
      b.Broadcast(mine, Shape(PRED, h.shape().dimensions()), std::move(batch_dims));
  HloInstruction* partial =
      b.Select(mask, looked_up, b.Splat(h.shape().element_type(), 0, h.shape().dimensions()));
  AOT_ASSIGN_OR_RETURN(HloInstruction * result, SumAcross(b, partial, s, what));
  return std::optional<HloInstruction*>(result);
}

std::optional<HloInstruction*> Partitioner::ScatterOnTiles(const HloInstruction& h,
                                                           const HloSharding& s) {
  if (h.opcode() != HloOpcode::kScatter || h.operand_count() != 3 || !s.IsTiled() ||
      !h.attrs().scatter_dimension_numbers || !h.shape().IsArray()) {
    return std::nullopt;
  }
  const ScatterDimensionNumbersProto& dn = *h.attrs().scatter_dimension_numbers;
  const HloInstruction* updates = h.operand(2);
  std::optional<std::vector<int64_t>> m = OperandToResultMapping(h, 2);
  if (!m || !(sharding_.at(h.operand(0)) == s) || sharding_.at(h.operand(1)).IsTiled() ||
      !IsEven(h.shape(), s) || !IsEven(updates->shape(), sharding_.at(updates)) ||
      dn.input_batching_dims_size() > 0) {
    return std::nullopt;
  }
  for (int64_t d = 0; d < s.DataRank(); ++d) {
    if (s.tile_dims()[d] == 1) continue;
    auto named = [d](const auto& list) {
      return std::find(list.begin(), list.end(), d) != list.end();
    };
    if (named(dn.scatter_dims_to_operand_dims()) || named(dn.inserted_window_dims()) ||
        (*m)[d] < 0) {
      return std::nullopt;
    }
  }
  std::optional<HloSharding> from_updates = MapSharding(
      sharding_.at(updates), static_cast<int64_t>(updates->shape().dimensions().size()), *m);
  if (!from_updates || !(*from_updates == s) ||
      sharding_.at(updates).ReplicationFactor() != s.ReplicationFactor()) {
    return std::nullopt;
  }
  absl::StatusOr<Shape> local = Local(h.shape(), s, DescribeInstruction(h));
  if (!local.ok()) return std::nullopt;
  return Again(h, {local_.at(h.operand(0)), local_.at(h.operand(1)), local_.at(updates)}, *local);
}

}  // namespace spmd_internal
}  // namespace aot
