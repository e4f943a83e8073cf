// Dot on tiles: operands cut to the result's tiles, contractions split
// over partitions and summed.
#include "compiler/passes/spmd_partitioner_internal.h"

namespace aot {
namespace spmd_internal {

absl::StatusOr<HloInstruction*> Partitioner::DotOperandFor(InstructionBuilder& b,
                                                           const HloInstruction& h, int64_t k,
                                                           const HloSharding& s,
                                                           const std::string& what) {
  const HloInstruction* o = h.operand(k);
  const DotDimensionNumbersProto& dn = *h.attrs().dot_dimension_numbers;
  const auto& batch = k == 0 ? dn.lhs_batch_dimensions() : dn.rhs_batch_dimensions();
  // Operand dimension d <- result dimension i for its i-th batch dimension.
  std::vector<int64_t> from_result(o->shape().dimensions().size(), -1);
  for (int i = 0; i < batch.size(); ++i) from_result[batch[i]] = i;
  std::optional<HloSharding> want =
      MapSharding(s, static_cast<int64_t>(h.shape().dimensions().size()), from_result);
  if (!want || !want->IsTiled() || want->DataTileCount() == 1) {
    want = HloSharding::Replicated();
  }
  return Reshard(b, local_.at(o), o->shape(), sharding_.at(o), *want, what);
}

bool Partitioner::HoldsItsResultTilesOperands(const HloInstruction& h, const HloSharding& s,
                                              bool contraction_split) {
  const bool conv = h.opcode() == HloOpcode::kConvolution;
  if (!IsEven(h.shape(), s) || h.operand_count() != 2 ||
      (conv ? !h.attrs().convolution_dimension_numbers || h.attrs().batch_group_count != 1
            : !h.attrs().dot_dimension_numbers)) {
    return false;
  }
  // Feature groups (depthwise convolutions) tie each output feature to
  // its input features: only the batch may be split then.
  const bool grouped = conv && h.attrs().feature_group_count != 1;
  std::vector<std::vector<int64_t>> maps;
  for (int64_t k = 0; k < 2; ++k) {
    const HloSharding& o = sharding_.at(h.operand(k));
    if (o.kind() != HloSharding::Kind::kReplicated && !o.IsTiled()) return false;
    if (o.IsTiled() && !IsEven(h.operand(k)->shape(), o)) return false;
    std::optional<std::vector<int64_t>> m = OperandToResultMapping(h, k);
    if (!m) return false;
    for (int64_t d = 0; o.IsTiled() && d < o.DataRank(); ++d) {
      if (o.tile_dims()[d] == 1) continue;
      const bool mapped = std::find(m->begin(), m->end(), d) != m->end();
      if (!mapped && (conv || !contraction_split)) return false;  // a contraction
      if (conv && k == 0 && d != h.attrs().convolution_dimension_numbers->input_batch_dimension()) {
        return false;  // a spatial split: halos
      }
      if (grouped && k == 1) return false;  // output features split across groups
    }
    maps.push_back(*m);
  }
  for (int64_t p = 0; p < n_; ++p) {
    const std::vector<int64_t> result = *TileCoordinates(s, p);
    for (int64_t k = 0; k < 2; ++k) {
      const HloSharding& o = sharding_.at(h.operand(k));
      std::optional<std::vector<int64_t>> held = TileCoordinates(o, p);
      if (!held) return false;
      for (size_t j = 0; j < result.size(); ++j) {
        const int64_t d = maps[k][j];
        if (d < 0) continue;
        const int64_t tiles = o.IsTiled() ? o.tile_dims()[d] : 1;
        const int64_t at = o.IsTiled() ? (*held)[d] : 0;
        if (tiles != s.tile_dims()[j] || at != result[j]) return false;
      }
    }
  }
  return true;
}

std::optional<std::vector<std::vector<int64_t>>> Partitioner::ContractionGroups(
    const HloInstruction& h, const HloSharding& s) {
  const HloSharding& lhs = sharding_.at(h.operand(0));
  const HloSharding& rhs = sharding_.at(h.operand(1));
  if (!s.IsTiled() || !lhs.IsTiled() || !rhs.IsTiled() || !h.attrs().dot_dimension_numbers ||
      !HoldsItsResultTilesOperands(h, s, /*contraction_split=*/true)) {
    return std::nullopt;
  }
  const DotDimensionNumbersProto& dn = *h.attrs().dot_dimension_numbers;
  int64_t contraction_tiles = 1;
  for (int i = 0; i < dn.lhs_contracting_dimensions_size(); ++i) {
    const int64_t tl = lhs.tile_dims()[dn.lhs_contracting_dimensions(i)];
    if (tl != rhs.tile_dims()[dn.rhs_contracting_dimensions(i)]) return std::nullopt;
    contraction_tiles *= tl;
  }
  if (contraction_tiles == 1) return std::nullopt;
  std::map<std::vector<int64_t>, std::vector<std::vector<int64_t>>> held;  // result tile
  std::map<std::vector<int64_t>, std::vector<int64_t>> members;
  for (int64_t p = 0; p < n_; ++p) {
    const std::vector<int64_t> lc = *TileCoordinates(lhs, p), rc = *TileCoordinates(rhs, p);
    std::vector<int64_t> contraction;
    for (int i = 0; i < dn.lhs_contracting_dimensions_size(); ++i) {
      const int64_t at = lc[dn.lhs_contracting_dimensions(i)];
      if (at != rc[dn.rhs_contracting_dimensions(i)]) return std::nullopt;
      contraction.push_back(at);
    }
    const std::vector<int64_t> tile = *TileCoordinates(s, p);
    held[tile].push_back(contraction);
    members[tile].push_back(p);
  }
  std::vector<std::vector<int64_t>> groups;
  for (auto& [tile, contractions] : held) {
    std::sort(contractions.begin(), contractions.end());
    if (static_cast<int64_t>(contractions.size()) != contraction_tiles ||
        std::adjacent_find(contractions.begin(), contractions.end()) != contractions.end()) {
      return std::nullopt;  // a contraction tile missing or counted twice
    }
    groups.push_back(members[tile]);
  }
  return groups;
}

absl::StatusOr<std::optional<HloInstruction*>> Partitioner::PartitionDot(InstructionBuilder& b,
                                                                         const HloInstruction& h,
                                                                         const HloSharding& s,
                                                                         const std::string& what) {
  AOT_ASSIGN_OR_RETURN(std::optional<HloInstruction*> on_tiles, PartitionDotOnTiles(b, h, s, what));
  if (on_tiles || !s.IsTiled()) return on_tiles;
  // One operand's sharding maps onto the result's, the other is split
  // some other way: only the other is gathered (the column-parallel form
  // then), not both.
  for (int64_t k = 0; k < 2; ++k) {
    if (!sharding_.at(h.operand(1 - k)).IsTiled()) continue;
    AOT_ASSIGN_OR_RETURN(std::optional<HloInstruction*> dot, DotOnOperandTiles(b, h, k, s, what));
    if (dot) return dot;
  }
  return std::optional<HloInstruction*>();
}

absl::StatusOr<std::optional<HloInstruction*>> Partitioner::DotOnOperandTiles(
    InstructionBuilder& b, const HloInstruction& h, int64_t k, const HloSharding& s,
    const std::string& what) {
  const HloSharding& split = sharding_.at(h.operand(k));
  std::optional<std::vector<int64_t>> m = OperandToResultMapping(h, k);
  if (!split.IsTiled() || !m) return std::optional<HloInstruction*>();
  std::optional<HloSharding> mapped =
      MapSharding(split, static_cast<int64_t>(h.operand(k)->shape().dimensions().size()), *m);
  if (!mapped || !(*mapped == s) || split.ReplicationFactor() != s.ReplicationFactor()) {
    return std::optional<HloInstruction*>();
  }
  AOT_ASSIGN_OR_RETURN(HloInstruction * other, DotOperandFor(b, h, 1 - k, s, what));
  std::vector<HloInstruction*> operands = {local_.at(h.operand(0)), other};
  if (k == 1) operands = {other, local_.at(h.operand(1))};
  AOT_ASSIGN_OR_RETURN(Shape local, Local(h.shape(), s, what));
  return std::optional<HloInstruction*>(Again(h, operands, local));
}

absl::StatusOr<std::optional<HloInstruction*>> Partitioner::PartitionDotOnTiles(
    InstructionBuilder& b, const HloInstruction& h, const HloSharding& s, const std::string& what) {
  const HloSharding& lhs = sharding_.at(h.operand(0));
  const HloSharding& rhs = sharding_.at(h.operand(1));
  auto local_dot = [&](const Shape& shape) -> HloInstruction* {
    return Again(h, {local_.at(h.operand(0)), local_.at(h.operand(1))}, shape);
  };
  // One operand split, the other replicated (cut to the batch tile where
  // the split one splits batch dimensions).
  for (int64_t k = 0; k < 2 && s.IsTiled(); ++k) {
    if (sharding_.at(h.operand(1 - k)).IsTiled()) continue;
    AOT_ASSIGN_OR_RETURN(std::optional<HloInstruction*> dot, DotOnOperandTiles(b, h, k, s, what));
    if (dot) return dot;
  }
  if (s.IsTiled() && HoldsItsResultTilesOperands(h, s, /*contraction_split=*/false)) {
    AOT_ASSIGN_OR_RETURN(Shape local, Local(h.shape(), s, what));
    return std::optional<HloInstruction*>(local_dot(local));
  }
  if (std::optional<std::vector<std::vector<int64_t>>> groups = ContractionGroups(h, s)) {
    AOT_ASSIGN_OR_RETURN(Shape local, Local(h.shape(), s, what));
    HloInstruction* sum = b.Op(HloOpcode::kAllReduce, local, {local_dot(local)});
    Groups(sum, *groups);
    *sum->mutable_called_computations() = {SumComputation(h.shape().element_type())};
    return std::optional<HloInstruction*>(sum);
  }
  if (!lhs.IsTiled() || !rhs.IsTiled() || lhs.ReplicationFactor() != 1 ||
      rhs.ReplicationFactor() != 1 || !h.attrs().dot_dimension_numbers) {
    return std::optional<HloInstruction*>();
  }
  const DotDimensionNumbersProto& dn = *h.attrs().dot_dimension_numbers;
  // Both split on batch (or free) dimensions alone, each mapping onto the
  // result's sharding: every partition holds matching tiles (attention
  // with its heads sharded).
  auto splits_contraction = [](const HloSharding& sh, const auto& contracting) {
    for (int64_t d : contracting) {
      if (sh.tile_dims()[d] > 1) return true;
    }
    return false;
  };
  if (s.IsTiled() && !splits_contraction(lhs, dn.lhs_contracting_dimensions()) &&
      !splits_contraction(rhs, dn.rhs_contracting_dimensions())) {
    std::optional<std::vector<int64_t>> ml = OperandToResultMapping(h, 0);
    std::optional<std::vector<int64_t>> mr = OperandToResultMapping(h, 1);
    std::optional<HloSharding> from_lhs, from_rhs;
    if (ml && mr) {
      from_lhs =
          MapSharding(lhs, static_cast<int64_t>(h.operand(0)->shape().dimensions().size()), *ml);
      from_rhs =
          MapSharding(rhs, static_cast<int64_t>(h.operand(1)->shape().dimensions().size()), *mr);
    }
    if (from_lhs && from_rhs && *from_lhs == s && *from_rhs == s &&
        IsEven(h.operand(0)->shape(), lhs) && IsEven(h.operand(1)->shape(), rhs)) {
      AOT_ASSIGN_OR_RETURN(Shape local, Local(h.shape(), s, what));
      return std::optional<HloInstruction*>(local_dot(local));
    }
  }
  // Only contracting dimensions split, pairwise alike.
  auto only_contracting = [](const HloSharding& sh, const auto& contracting) {
    for (int64_t d = 0; d < sh.DataRank(); ++d) {
      if (sh.tile_dims()[d] > 1 &&
          std::find(contracting.begin(), contracting.end(), d) == contracting.end()) {
        return false;
      }
    }
    return true;
  };
  // Padded contraction tiles would add their padding into the sums.
  if (!only_contracting(lhs, dn.lhs_contracting_dimensions()) ||
      !only_contracting(rhs, dn.rhs_contracting_dimensions()) ||
      !IsEven(h.operand(0)->shape(), lhs) || !IsEven(h.operand(1)->shape(), rhs)) {
    return std::optional<HloInstruction*>();
  }
  for (int i = 0; i < dn.lhs_contracting_dimensions_size(); ++i) {
    if (lhs.tile_dims()[dn.lhs_contracting_dimensions(i)] !=
        rhs.tile_dims()[dn.rhs_contracting_dimensions(i)]) {
      return std::optional<HloInstruction*>();
    }
  }
  for (int64_t p = 0; p < n_; ++p) {
    std::vector<int64_t> lc = *TileCoordinates(lhs, p), rc = *TileCoordinates(rhs, p);
    for (int i = 0; i < dn.lhs_contracting_dimensions_size(); ++i) {
      if (lc[dn.lhs_contracting_dimensions(i)] != rc[dn.rhs_contracting_dimensions(i)]) {
        return std::optional<HloInstruction*>();
      }
    }
  }
  AOT_ASSIGN_OR_RETURN(HloInstruction * tile, SumAcross(b, local_dot(h.shape()), s, what));
  return std::optional<HloInstruction*>(tile);
}

}  // namespace spmd_internal
}  // namespace aot
