// Resharding between tile layouts: gathering, slicing, cutting padding,
// all-to-all and the sums across partitions (the collectives the
// partitioner adds).
#include "compiler/passes/spmd_partitioner_internal.h"

namespace aot {
namespace spmd_internal {

std::vector<int64_t> Partitioner::TileStart(const Shape& full, const HloSharding& s, int64_t p) {
  std::vector<int64_t> start = *TileCoordinates(s, p);
  if (!s.IsTiled()) start.assign(full.dimensions().size(), 0);
  for (size_t d = 0; d < start.size() && s.IsTiled(); ++d) {
    start[d] *= (full.dimensions()[d] + s.tile_dims()[d] - 1) / s.tile_dims()[d];
  }
  return start;
}

std::vector<HloInstruction*> Partitioner::Offsets(InstructionBuilder& b, const Shape& full,
                                                  const HloSharding& s) {
  std::vector<int64_t> table;
  for (int64_t p = 0; p < n_; ++p) {
    for (int64_t start : TileStart(full, s, p)) table.push_back(start);
  }
  return PartitionRow(b, table, static_cast<int64_t>(full.dimensions().size()));
}

HloComputation* Partitioner::SumComputation(PrimitiveType type) {
  auto it = sums_.find(type);
  if (it != sums_.end()) return it->second;
  HloComputation* c = AddComputationFor(module_, type);
  sums_[type] = c;
  return c;
}

HloInstruction* Partitioner::GatherArray(InstructionBuilder& b, HloInstruction* local,
                                         const Shape& full, const HloSharding& s) {
  if (!s.IsTiled() || s.DataRank() == 0) return local;
  // Uneven tiles are placed in the array padded to whole tiles, then the
  // padding is cut.
  const Shape padded = PaddedShape(full, local->shape(), s);
  const int64_t rank = s.DataRank();
  int64_t split_dim = -1, splits = 0;
  for (int64_t d = 0; d < rank; ++d) {
    if (s.tile_dims()[d] > 1) {
      split_dim = d;
      ++splits;
    }
  }
  // Manual subgroups: each manual shard gathers its own value, so they
  // leave the grid (the group is split by them, see Groups).
  std::vector<int64_t> grid;  // data tiles, then replicated subgroups
  int64_t manual_shards = 1;
  for (size_t i = 0; i < s.tile_dims().size(); ++i) {
    const bool is_manual =
        i >= static_cast<size_t>(rank) && s.subgroups()[i - rank] == HloSharding::Subgroup::kManual;
    if (is_manual) {
      manual_shards *= s.tile_dims()[i];
    } else {
      grid.push_back(s.tile_dims()[i]);
    }
  }
  // Its groups split by its manual shards even where the instruction
  // being partitioned did not say so.
  const HloSharding* caller_manual = manual_;
  if (manual_shards > 1) manual_ = &s;
  HloInstruction* gathered =
      GatherTiles(b, local, full, s, padded, grid, manual_shards, split_dim, splits);
  manual_ = caller_manual;
  return gathered;
}

HloInstruction* Partitioner::GatherTiles(InstructionBuilder& b, HloInstruction* local,
                                         const Shape& full, const HloSharding& s,
                                         const Shape& padded, const std::vector<int64_t>& grid,
                                         int64_t manual_shards, int64_t split_dim, int64_t splits) {
  const PrimitiveType type = full.element_type();
  const int64_t rank = s.DataRank();
  if (splits == 1 && s.ReplicationFactor() == manual_shards) {
    HloInstruction* gathered = b.Op(HloOpcode::kAllGather, padded, {local});
    gathered->mutable_attrs()->dimensions = {split_dim};
    OneGroup(gathered, s.devices());
    return CutPadding(b, gathered, full);
  }
  const std::vector<int64_t>& tile = local->shape().dimensions();
  std::vector<int64_t> one = {1};
  one.insert(one.end(), tile.begin(), tile.end());
  std::vector<int64_t> stacked_dims = {static_cast<int64_t>(s.devices().size()) / manual_shards};
  stacked_dims.insert(stacked_dims.end(), tile.begin(), tile.end());
  HloInstruction* stacked =
      b.Op(HloOpcode::kAllGather, Shape(type, stacked_dims), {b.Reshape(local, one)});
  stacked->mutable_attrs()->dimensions = {0};
  OneGroup(stacked, s.devices());
  std::vector<int64_t> by_grid = grid;
  by_grid.insert(by_grid.end(), tile.begin(), tile.end());
  HloInstruction* x = b.Reshape(stacked, by_grid);
  if (grid.size() > static_cast<size_t>(rank)) {
    // The first copy of each tile.
    std::vector<int64_t> firsts = by_grid;
    for (size_t i = rank; i < grid.size(); ++i) firsts[i] = 1;
    HloInstruction* cut = b.Op(HloOpcode::kSlice, Shape(type, firsts), {x});
    for (int64_t size : firsts) cut->mutable_attrs()->slice.push_back({0, size, 1});
    std::vector<int64_t> data(grid.begin(), grid.begin() + rank);
    data.insert(data.end(), tile.begin(), tile.end());
    x = b.Reshape(cut, data);
  }
  std::vector<int64_t> perm, interleaved;
  for (int64_t d = 0; d < rank; ++d) {
    perm.push_back(d);
    perm.push_back(rank + d);
    interleaved.push_back(grid[d]);
    interleaved.push_back(tile[d]);
  }
  HloInstruction* t = b.Op(HloOpcode::kTranspose, Shape(type, interleaved), {x});
  t->mutable_attrs()->dimensions = perm;
  return CutPadding(b, b.Reshape(t, padded.dimensions()), full);
}

HloInstruction* Partitioner::CutPadding(InstructionBuilder& b, HloInstruction* value,
                                        const Shape& full) {
  if (value->shape().dimensions() == full.dimensions()) return value;
  HloInstruction* out = b.Op(HloOpcode::kSlice, full, {value});
  for (int64_t size : full.dimensions()) out->mutable_attrs()->slice.push_back({0, size, 1});
  return out;
}

absl::StatusOr<HloInstruction*> Partitioner::SliceArray(InstructionBuilder& b,
                                                        HloInstruction* full_value,
                                                        const Shape& full, const HloSharding& s,
                                                        absl::string_view what) {
  if (!s.IsTiled()) return full_value;
  AOT_ASSIGN_OR_RETURN(Shape local, LocalShape(full, s, what));
  // Uneven tiles: padded to whole tiles first (dynamic-slice would
  // otherwise move the last tiles' starts back inside the array).
  HloInstruction* source = full_value;
  const Shape padded = PaddedShape(full, local, s);
  if (padded.dimensions() != full.dimensions()) {
    HloInstruction* zero = b.Constant(full.element_type(), 0);
    source = b.Op(HloOpcode::kPad, padded, {full_value, zero});
    PaddingConfigProto config;
    for (size_t d = 0; d < full.dimensions().size(); ++d) {
      auto* dim = config.add_dimensions();
      dim->set_edge_padding_low(0);
      dim->set_edge_padding_high(padded.dimensions()[d] - full.dimensions()[d]);
      dim->set_interior_padding(0);
    }
    source->mutable_attrs()->padding_config = config;
  }
  std::vector<HloInstruction*> operands = {source};
  for (HloInstruction* o : Offsets(b, full, s)) operands.push_back(o);
  HloInstruction* tile = b.Op(HloOpcode::kDynamicSlice, local, operands);
  tile->mutable_attrs()->dynamic_slice_sizes = local.dimensions();
  return tile;
}

int64_t Partitioner::OneSplitDimension(const Shape& full, const HloSharding& s) const {
  if (!s.IsTiled() || s.ReplicationFactor() != 1 || s.DeviceCount() != n_ || !IsEven(full, s)) {
    return -1;
  }
  int64_t dim = -1;
  for (int64_t d = 0; d < s.DataRank(); ++d) {
    if (s.tile_dims()[d] == 1) continue;
    if (dim >= 0) return -1;
    dim = d;
  }
  return dim;
}

void Partitioner::Groups(HloInstruction* collective, std::vector<std::vector<int64_t>> groups) {
  if (manual_ != nullptr) {
    std::vector<std::vector<int64_t>> split;
    for (const std::vector<int64_t>& g : groups) {
      std::map<std::vector<int64_t>, std::vector<int64_t>> by_shard;
      for (int64_t p : g) by_shard[ManualCoordinates(*manual_, p)].push_back(p);
      for (auto& [shard, members] : by_shard) split.push_back(std::move(members));
    }
    groups = std::move(split);
  }
  HloAttributes* at = collective->mutable_attrs();
  at->channel_id = next_channel_++;
  if (collective->opcode() == HloOpcode::kAllToAll) {
    at->replica_groups = groups;
    return;
  }
  at->use_global_device_ids = true;
  at->replica_groups.clear();
  for (int64_t r = 0; r < replicas_; ++r) {
    for (const std::vector<int64_t>& g : groups) {
      std::vector<int64_t> global;
      for (int64_t p : g) global.push_back(r * n_ + p);
      at->replica_groups.push_back(std::move(global));
    }
  }
}

void Partitioner::OneGroup(HloInstruction* collective, std::vector<int64_t> members) {
  Groups(collective, {std::move(members)});
}

HloInstruction* Partitioner::AllToAll(InstructionBuilder& b, HloInstruction* local,
                                      const Shape& full, const HloSharding& from,
                                      const HloSharding& to) {
  const int64_t a = OneSplitDimension(full, from), d = OneSplitDimension(full, to);
  if (a < 0 || d < 0 || a == d || from.devices() != to.devices()) return nullptr;
  const std::vector<int64_t>& tile = local->shape().dimensions();
  const int64_t rank = static_cast<int64_t>(tile.size());
  // The tile with dimension d cut into (n, size/n): the blocks' index at d.
  std::vector<int64_t> cut;
  for (int64_t i = 0; i < rank; ++i) {
    if (i == d) cut.push_back(n_);
    cut.push_back(i == d ? tile[i] / n_ : tile[i]);
  }
  HloInstruction* blocks = b.Reshape(local, cut);
  HloInstruction* moved = b.Op(HloOpcode::kAllToAll, blocks->shape(), {blocks});
  moved->mutable_attrs()->dimensions = {d};
  OneGroup(moved, from.devices());
  // The received blocks' index (the sender's tile along a) moved just
  // before a's place, then merged with it.
  const int64_t a_cut = a < d ? a : a + 1;
  std::vector<int64_t> perm;
  for (int64_t i = 0; i <= rank; ++i) {
    if (i == a_cut) perm.push_back(d);
    if (i != d) perm.push_back(i);
  }
  std::vector<int64_t> permuted;
  for (int64_t i : perm) permuted.push_back(cut[i]);
  HloInstruction* t = b.Op(HloOpcode::kTranspose, Shape(full.element_type(), permuted), {moved});
  t->mutable_attrs()->dimensions = perm;
  std::vector<int64_t> result = tile;
  result[a] *= n_;
  result[d] /= n_;
  return b.Reshape(t, result);
}

HloInstruction* Partitioner::CutLocally(InstructionBuilder& b, HloInstruction* local,
                                        const Shape& full, const HloSharding& from,
                                        const HloSharding& to) {
  if (!to.IsTiled() || !IsEven(full, from) || !IsEven(full, to)) return nullptr;
  const int64_t rank = static_cast<int64_t>(full.dimensions().size());
  Shape want = full;
  for (int64_t d = 0; d < rank; ++d) {
    (*want.mutable_dimensions())[d] = full.dimensions()[d] / to.tile_dims()[d];
  }
  std::vector<int64_t> table;
  for (int64_t p = 0; p < n_; ++p) {
    std::vector<int64_t> outer = TileStart(full, from, p), inner = TileStart(full, to, p);
    for (int64_t d = 0; d < rank; ++d) {
      const int64_t offset = inner[d] - outer[d];
      if (offset < 0 || offset + want.dimensions()[d] > local->shape().dimensions()[d]) {
        return nullptr;
      }
      table.push_back(offset);
    }
  }
  std::vector<HloInstruction*> operands = {local};
  for (HloInstruction* o : PartitionRow(b, table, rank)) operands.push_back(o);
  HloInstruction* tile = b.Op(HloOpcode::kDynamicSlice, want, operands);
  tile->mutable_attrs()->dynamic_slice_sizes = want.dimensions();
  return tile;
}

absl::StatusOr<HloInstruction*> Partitioner::Reshard(InstructionBuilder& b, HloInstruction* local,
                                                     const Shape& full, const HloSharding& from,
                                                     const HloSharding& to,
                                                     absl::string_view what) {
  const bool tuples =
      from.kind() == HloSharding::Kind::kTuple || to.kind() == HloSharding::Kind::kTuple;
  if (from == to || (!tuples && !from.IsTiled() && !to.IsTiled())) return local;
  if (full.IsTuple()) {  // leaf by leaf: only the leaves that differ move
    const std::vector<HloSharding> from_leaves = ElementShardings(from, full);
    const std::vector<HloSharding> to_leaves = ElementShardings(to, full);
    std::vector<HloInstruction*> elements;
    for (size_t i = 0; i < full.tuple_shapes().size(); ++i) {
      HloInstruction* e = b.GetTupleElement(local, static_cast<int64_t>(i));
      AOT_ASSIGN_OR_RETURN(
          e, Reshard(b, e, full.tuple_shapes()[i], from_leaves.at(i), to_leaves.at(i), what));
      elements.push_back(e);
    }
    return b.Tuple(elements);
  }
  if (HloInstruction* cut = CutLocally(b, local, full, from, to)) return cut;
  if (HloInstruction* moved = AllToAll(b, local, full, from, to)) return moved;
  return SliceArray(b, GatherArray(b, local, full, from), full, to, what);
}

absl::StatusOr<HloInstruction*> Partitioner::Gather(InstructionBuilder& b, HloInstruction* local,
                                                    const Shape& full, const HloSharding& s) {
  if (!full.IsTuple()) return GatherArray(b, local, full, s);
  const std::vector<HloSharding> elements_sharding = ElementShardings(s, full);
  std::vector<HloInstruction*> elements;
  for (size_t i = 0; i < full.tuple_shapes().size(); ++i) {
    HloInstruction* e = b.GetTupleElement(local, static_cast<int64_t>(i));
    AOT_ASSIGN_OR_RETURN(HloInstruction * whole,
                         Gather(b, e, full.tuple_shapes()[i], elements_sharding[i]));
    elements.push_back(whole);
  }
  return b.Tuple(elements);
}

absl::StatusOr<HloInstruction*> Partitioner::Slice(InstructionBuilder& b,
                                                   HloInstruction* full_value, const Shape& full,
                                                   const HloSharding& s, absl::string_view what) {
  if (!full.IsTuple()) return SliceArray(b, full_value, full, s, what);
  const std::vector<HloSharding> elements_sharding = ElementShardings(s, full);
  std::vector<HloInstruction*> elements;
  for (size_t i = 0; i < full.tuple_shapes().size(); ++i) {
    HloInstruction* e = b.GetTupleElement(full_value, static_cast<int64_t>(i));
    AOT_ASSIGN_OR_RETURN(HloInstruction * t,
                         Slice(b, e, full.tuple_shapes()[i], elements_sharding[i], what));
    elements.push_back(t);
  }
  return b.Tuple(elements);
}

absl::StatusOr<Shape> Partitioner::Local(const Shape& full, const HloSharding& s,
                                         absl::string_view what) {
  if (!full.IsTuple()) return LocalShape(full, s, what);
  const std::vector<HloSharding> elements_sharding = ElementShardings(s, full);
  std::vector<Shape> elements;
  for (size_t i = 0; i < full.tuple_shapes().size(); ++i) {
    AOT_ASSIGN_OR_RETURN(Shape e, Local(full.tuple_shapes()[i], elements_sharding[i], what));
    elements.push_back(e);
  }
  return Shape::Tuple(std::move(elements));
}

absl::StatusOr<HloInstruction*> Partitioner::SumAcross(InstructionBuilder& b,
                                                       HloInstruction* partial,
                                                       const HloSharding& s,
                                                       absl::string_view what) {
  const Shape& full = partial->shape();
  HloComputation* add = SumComputation(full.element_type());
  if (const int64_t d = OneSplitDimension(full, s); d >= 0) {
    AOT_ASSIGN_OR_RETURN(Shape local, Local(full, s, what));
    HloInstruction* scattered = b.Op(HloOpcode::kReduceScatter, local, {partial});
    scattered->mutable_attrs()->dimensions = {d};
    OneGroup(scattered, s.devices());
    *scattered->mutable_called_computations() = {add};
    return scattered;
  }
  HloInstruction* sum = b.Op(HloOpcode::kAllReduce, full, {partial});
  OneGroup(sum, AllPartitions());
  *sum->mutable_called_computations() = {add};
  return SliceArray(b, sum, full, s, what);
}

}  // namespace spmd_internal
}  // namespace aot
