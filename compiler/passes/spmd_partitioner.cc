#include "compiler/passes/spmd_partitioner.h"

#include <cmath>
#include <cstring>
#include <functional>
#include <limits>
#include <map>
#include <numeric>
#include <string>

#include "absl/container/flat_hash_map.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "compiler/hlo/collective_ops.h"
#include "compiler/hlo/hlo_computation.h"
#include "compiler/hlo/hlo_instruction.h"
#include "compiler/passes/call_inliner.h"
#include "compiler/passes/pass_utils.h"
#include "compiler/passes/sharding_propagation.h"
#include "support/status_macros.h"

namespace aot {
namespace {

// The data coordinates of `partition`'s tile, or nullopt when the tile
// assignment does not name it.
std::optional<std::vector<int64_t>> TileCoordinates(const HloSharding& s, int64_t partition,
                                                    std::vector<int64_t>* subgroup = nullptr) {
  if (!s.IsTiled()) return std::vector<int64_t>();
  std::optional<std::vector<int64_t>> coords = s.TileIndexOf(partition);
  if (!coords) return std::nullopt;
  if (subgroup != nullptr) subgroup->assign(coords->begin() + s.DataRank(), coords->end());
  coords->resize(s.DataRank());
  return coords;
}

absl::StatusOr<Shape> LocalShape(const Shape& full, const HloSharding& s, absl::string_view what) {
  if (!s.IsTiled()) return full;
  if (s.DataRank() != static_cast<int64_t>(full.dimensions().size())) {
    return absl::InvalidArgumentError(
        absl::StrCat(what, ": sharding ", s.ToString(), " does not fit ", full.ToString(false)));
  }
  // Uneven tiles: every tile has the size of the first, the last ones
  // padded past the array's end.
  Shape local = full;
  for (int64_t d = 0; d < s.DataRank(); ++d) {
    const int64_t size = full.dimensions()[d], tiles = s.tile_dims()[d];
    (*local.mutable_dimensions())[d] = (size + tiles - 1) / tiles;
  }
  return local;
}

// The full shape padded to whole tiles.
Shape PaddedShape(const Shape& full, const Shape& local, const HloSharding& s) {
  Shape padded = full;
  for (int64_t d = 0; d < s.DataRank(); ++d) {
    (*padded.mutable_dimensions())[d] = local.dimensions()[d] * s.tile_dims()[d];
  }
  return padded;
}

bool IsEven(const Shape& full, const HloSharding& s) {
  if (!s.IsTiled()) return true;
  for (int64_t d = 0; d < s.DataRank(); ++d) {
    if (full.dimensions()[d] % s.tile_dims()[d] != 0) return false;
  }
  return true;
}

// The sharding of every array leaf of a value of `shape` under `s`, in
// order (a tuple sharding lists them flattened, as XLA writes it).
std::vector<HloSharding> LeafShardings(const HloSharding& s, const Shape& shape) {
  if (s.kind() == HloSharding::Kind::kTuple) return s.tuple_elements();
  return std::vector<HloSharding>(shape.IsTuple() ? shape.FlattenLeaves().size() : 1, s);
}

// The sharding of each element of the tuple `shape` under `s` (a tuple
// sharding of its leaves where the element is itself a tuple); `s` itself
// for an array.
std::vector<HloSharding> ElementShardings(const HloSharding& s, const Shape& shape) {
  if (!shape.IsTuple()) return {s};
  std::vector<HloSharding> out;
  if (s.kind() != HloSharding::Kind::kTuple) {
    out.assign(shape.tuple_shapes().size(), s);
    return out;
  }
  const std::vector<HloSharding>& leaves = s.tuple_elements();
  size_t next = 0;
  for (const Shape& element : shape.tuple_shapes()) {
    const size_t count = element.IsTuple() ? element.FlattenLeaves().size() : 1;
    std::vector<HloSharding> own;
    for (size_t i = 0; i < count; ++i) {
      own.push_back(next < leaves.size() ? leaves[next] : HloSharding::Replicated());
      ++next;
    }
    out.push_back(element.IsTuple() ? HloSharding::Tuple(std::move(own)) : own[0]);
  }
  return out;
}

bool HasManualSubgroup(const HloSharding& s) {
  for (HloSharding::Subgroup g : s.subgroups()) {
    if (g == HloSharding::Subgroup::kManual) return true;
  }
  return false;
}

// The coordinates of `partition` along the manual subgroup dimensions of
// `s` (empty without them).
std::vector<int64_t> ManualCoordinates(const HloSharding& s, int64_t partition) {
  std::vector<int64_t> subgroup, out;
  if (!TileCoordinates(s, partition, &subgroup)) return out;
  for (size_t i = 0; i < subgroup.size() && i < s.subgroups().size(); ++i) {
    if (s.subgroups()[i] == HloSharding::Subgroup::kManual) out.push_back(subgroup[i]);
  }
  return out;
}

class Partitioner {
 public:
  Partitioner(HloModule* module, int64_t n)
      : module_(module), n_(n), replicas_(std::max<int64_t>(module->config().replica_count, 1)) {}

  absl::Status Run(PartitionedModule* out) {
    HloComputation* old_entry = module_->entry_computation();
    // Channels of the collectives the partitioner adds follow the
    // program's own.
    for (const HloComputation* c : module_->computations()) {
      for (const HloInstruction* h : c->instructions()) {
        if (h->attrs().channel_id)
          next_channel_ = std::max(next_channel_, *h->attrs().channel_id + 1);
      }
    }
    for (const HloComputation* c : module_->computations()) {
      for (const HloInstruction* h : c->instructions()) annotated_ |= !h->attrs().sharding.empty();
    }
    AOT_ASSIGN_OR_RETURN(HloComputation * entry,
                         PartitionComputation(*old_entry, nullptr, nullptr));
    for (int64_t i = 0; i < old_entry->num_parameters(); ++i) {
      out->parameter_shardings.push_back(sharding_.at(old_entry->parameter_instruction(i)));
    }
    out->result_sharding = sharding_.at(old_entry->root_instruction());
    module_->set_entry_computation(entry);
    module_->RemoveUnreachableComputations();
    module_->mutable_config()->num_partitions = n_;
    module_->mutable_config()->entry_computation_layout.reset();
    return absl::OkStatus();
  }

 private:
  // `c` partitioned into a new computation of the module: its parameters
  // take `params` (nullptr: their own shardings), its root is resharded to
  // `root` (nullptr: its own sharding). The builder's state (the
  // computation, its names, partition-id and per-partition tables) is the
  // new computation's while it is built, then the caller's again.
  absl::StatusOr<HloComputation*> PartitionComputation(const HloComputation& c,
                                                       const std::vector<HloSharding>* params,
                                                       const HloSharding* root) {
    const HloSharding* caller_manual = manual_;
    HloComputation* caller_comp = comp_;
    NameUniquer caller_names = std::move(names_);
    HloInstruction* caller_pid = pid_;
    std::map<std::string, std::vector<HloInstruction*>> caller_rows = std::move(rows_);
    comp_ = AddEmptyComputation(module_, absl::StrCat(c.name(), ".spmd"));
    names_ = NameUniquer::ForInstructions(*comp_);
    pid_ = nullptr;
    rows_.clear();
    absl::Status built = BuildPartitioned(c, params, root);
    HloComputation* made = comp_;
    comp_ = caller_comp;
    names_ = std::move(caller_names);
    pid_ = caller_pid;
    rows_ = std::move(caller_rows);
    manual_ = caller_manual;
    AOT_RETURN_IF_ERROR(built);
    return made;
  }

  absl::Status BuildPartitioned(const HloComputation& c, const std::vector<HloSharding>* params,
                                const HloSharding* root) {
    for (const HloInstruction* h : c.MakeInstructionPostOrder()) {
      HloSharding s = HloSharding::Replicated();
      if (params != nullptr && h->opcode() == HloOpcode::kParameter) {
        s = params->at(h->parameter_number());
      } else {
        AOT_ASSIGN_OR_RETURN(s, ShardingOf(*h));
      }
      sharding_.insert_or_assign(h, s);
      // A partially manual region: collectives stay within manual shards.
      std::optional<HloSharding> manual;
      for (const HloSharding& leaf : LeafShardings(s, h->shape())) {
        if (HasManualSubgroup(leaf)) manual = leaf;
      }
      for (const HloInstruction* o : h->operands()) {
        if (manual) break;
        for (const HloSharding& leaf : LeafShardings(sharding_.at(o), o->shape())) {
          if (HasManualSubgroup(leaf)) manual = leaf;
        }
      }
      manual_ = manual ? &*manual : nullptr;
      absl::StatusOr<HloInstruction*> partitioned = Partition(*h, s);
      manual_ = nullptr;
      AOT_ASSIGN_OR_RETURN(HloInstruction * local, std::move(partitioned));
      local_[h] = local;
    }
    const HloInstruction* old_root = c.root_instruction();
    HloInstruction* new_root = local_.at(old_root);
    if (root != nullptr) {
      InstructionBuilder b(comp_, &names_, *old_root);
      AOT_ASSIGN_OR_RETURN(new_root, Reshard(b, new_root, old_root->shape(), sharding_.at(old_root),
                                             *root, DescribeInstruction(*old_root)));
    }
    comp_->set_root_instruction(new_root);
    return absl::OkStatus();
  }

  absl::StatusOr<HloSharding> ShardingOf(const HloInstruction& h) {
    if (h.attrs().sharding.empty()) return HloSharding::Replicated();
    absl::StatusOr<HloSharding> parsed = HloSharding::Parse(h.attrs().sharding);
    absl::Status valid = parsed.ok() ? parsed->Validate(h.shape(), n_) : parsed.status();
    if (!valid.ok()) {
      return absl::InvalidArgumentError(absl::StrCat(DescribeInstruction(h), ": ", valid.message(),
                                                     " (partitioning for ", n_, " partitions)"));
    }
    const HloSharding& s = *parsed;
    for (const HloSharding& leaf : LeafShardings(s, h.shape())) {
      if (leaf.IsTiled() && leaf.DeviceCount() != n_) {
        return absl::InvalidArgumentError(
            absl::StrCat(DescribeInstruction(h), ": sharding ", leaf.ToString(), " names ",
                         leaf.DeviceCount(), " devices; the program runs on ", n_, " partitions"));
      }
    }
    return s;
  }

  // `h` again in the new entry, on `operands`, with the result shape
  // `shape` (nullopt: h's own), without its sharding; `adjust` edits the
  // copy before it is added.
  HloInstruction* Again(const HloInstruction& h, std::vector<HloInstruction*> operands,
                        std::optional<Shape> shape = std::nullopt,
                        const std::function<void(HloInstruction*)>& adjust = nullptr) {
    std::unique_ptr<HloInstruction> clone = CloneWithOperands(h, operands);
    if (shape) *clone->mutable_shape() = *shape;
    clone->mutable_attrs()->sharding.clear();
    clone->set_name(names_.GetUniqueName(h.name()));
    if (adjust) adjust(clone.get());
    return AddWithNewId(comp_, std::move(clone));
  }

  std::vector<int64_t> AllPartitions() const {
    std::vector<int64_t> all(n_);
    std::iota(all.begin(), all.end(), 0);
    return all;
  }

  HloInstruction* PartitionId(InstructionBuilder& b) {
    if (pid_ == nullptr) {
      HloInstruction* id = b.Op(HloOpcode::kPartitionId, Shape::Scalar(U32), {});
      pid_ = b.Convert(id, S32);
    }
    return pid_;
  }

  // This partition's row of `table` (n_ rows of `width` values) as scalar
  // s32 values: partition-dependent constants, looked up by partition-id.
  std::vector<HloInstruction*> PartitionRow(InstructionBuilder& b,
                                            const std::vector<int64_t>& table, int64_t width) {
    const std::string key = absl::StrJoin(table, ",") + absl::StrCat("/", width);
    if (auto it = rows_.find(key); it != rows_.end()) return it->second;
    HloInstruction* t = b.Constant(Literal::FromInt64s(Shape(S32, {n_, width}), table));
    HloInstruction* zero = b.Constant(S32, 0);
    HloInstruction* row =
        b.Op(HloOpcode::kDynamicSlice, Shape(S32, {1, width}), {t, PartitionId(b), zero});
    row->mutable_attrs()->dynamic_slice_sizes = {1, width};
    std::vector<HloInstruction*> out;
    for (int64_t d = 0; d < width; ++d) {
      HloInstruction* one = b.Op(HloOpcode::kSlice, Shape(S32, {1, 1}), {row});
      one->mutable_attrs()->slice = {SliceSpec{0, 1, 1}, SliceSpec{d, d + 1, 1}};
      out.push_back(b.Reshape(one, {}));
    }
    rows_[key] = out;
    return out;
  }

  // Where partition `p`'s tile of a value of `full` starts, per dimension.
  static std::vector<int64_t> TileStart(const Shape& full, const HloSharding& s, int64_t p) {
    std::vector<int64_t> start = *TileCoordinates(s, p);
    if (!s.IsTiled()) start.assign(full.dimensions().size(), 0);
    for (size_t d = 0; d < start.size() && s.IsTiled(); ++d) {
      start[d] *= (full.dimensions()[d] + s.tile_dims()[d] - 1) / s.tile_dims()[d];
    }
    return start;
  }

  // Scalar s32 offsets of this partition's tile of a value of `full`.
  std::vector<HloInstruction*> Offsets(InstructionBuilder& b, const Shape& full,
                                       const HloSharding& s) {
    std::vector<int64_t> table;
    for (int64_t p = 0; p < n_; ++p) {
      for (int64_t start : TileStart(full, s, p)) table.push_back(start);
    }
    return PartitionRow(b, table, static_cast<int64_t>(full.dimensions().size()));
  }

  HloComputation* SumComputation(PrimitiveType type) {
    auto it = sums_.find(type);
    if (it != sums_.end()) return it->second;
    HloComputation* c = AddComputationFor(module_, type);
    sums_[type] = c;
    return c;
  }

  // The full array from this partition's tile (every partition runs it),
  // by one all-gather whose group lists the devices in tile order, so any
  // tiling and device order works and each tile is sent once. One split
  // dimension, nothing replicated: the tiles concatenated along it. Any
  // other tiling: the tiles stacked along a new leading dimension, the
  // replicated copies but the first dropped, and the tile grid interleaved
  // with the tiles' own dimensions (a transpose) into the array.
  HloInstruction* GatherArray(InstructionBuilder& b, HloInstruction* local, const Shape& full,
                              const HloSharding& s) {
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
      const bool is_manual = i >= static_cast<size_t>(rank) &&
                             s.subgroups()[i - rank] == HloSharding::Subgroup::kManual;
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

  // GatherArray's collectives, over `grid` (the data tiles and replicated
  // subgroups), within each manual shard.
  HloInstruction* GatherTiles(InstructionBuilder& b, HloInstruction* local, const Shape& full,
                              const HloSharding& s, const Shape& padded,
                              const std::vector<int64_t>& grid, int64_t manual_shards,
                              int64_t split_dim, int64_t splits) {
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

  // `value` (of the padded shape) without the padding past `full`.
  HloInstruction* CutPadding(InstructionBuilder& b, HloInstruction* value, const Shape& full) {
    if (value->shape().dimensions() == full.dimensions()) return value;
    HloInstruction* out = b.Op(HloOpcode::kSlice, full, {value});
    for (int64_t size : full.dimensions()) out->mutable_attrs()->slice.push_back({0, size, 1});
    return out;
  }

  // This partition's tile of a full array.
  absl::StatusOr<HloInstruction*> SliceArray(InstructionBuilder& b, HloInstruction* full_value,
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

  // The one dimension `s` splits over all the partitions, its tiles even,
  // nothing replicated; -1 for any other sharding.
  int64_t OneSplitDimension(const Shape& full, const HloSharding& s) const {
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

  // The collective's groups: `groups` of partitions, members in rank
  // order, within every replica. With use_global_device_ids (all-reduce,
  // all-gather, reduce-scatter) the groups name global ids, replica r's
  // partition p being r * n + p; all-to-all's groups are partitions, which
  // its channel says.
  // In a partially manual region (manual_ set: a sharding with manual
  // subgroups), every group is split by the manual subgroup: the devices of
  // one manual shard work together, each shard on its own data.
  void Groups(HloInstruction* collective, std::vector<std::vector<int64_t>> groups) {
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
  void OneGroup(HloInstruction* collective, std::vector<int64_t> members) {
    Groups(collective, {std::move(members)});
  }

  // Resharding between two dimensions, rows to columns (Megatron's and
  // XLA's all-to-all): `from` splits dimension a and `to` dimension b over
  // the same device list. Each partition cuts its tile into n blocks along
  // b, sends block j to the partition holding tile j and stacks what it
  // receives along a: one all-to-all, each element sent once. nullptr where
  // the shardings are not of that form.
  HloInstruction* AllToAll(InstructionBuilder& b, HloInstruction* local, const Shape& full,
                           const HloSharding& from, const HloSharding& to) {
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

  // Where every partition's `to` tile lies inside its `from` tile (from
  // replicated, or coarser along every dimension), the tile is cut from
  // the local value without communication. nullptr otherwise.
  HloInstruction* CutLocally(InstructionBuilder& b, HloInstruction* local, const Shape& full,
                             const HloSharding& from, const HloSharding& to) {
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

  // A value of `full` held as tiles of `from`, as tiles of `to`: the local
  // value itself, a cut of it, one all-to-all, or else the full value
  // gathered and cut.
  absl::StatusOr<HloInstruction*> Reshard(InstructionBuilder& b, HloInstruction* local,
                                          const Shape& full, const HloSharding& from,
                                          const HloSharding& to, absl::string_view what) {
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

  // Element by element of a tuple (nested ones too), or the array itself.
  absl::StatusOr<HloInstruction*> Gather(InstructionBuilder& b, HloInstruction* local,
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
  absl::StatusOr<HloInstruction*> Slice(InstructionBuilder& b, HloInstruction* full_value,
                                        const Shape& full, const HloSharding& s,
                                        absl::string_view what) {
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

  absl::StatusOr<Shape> Local(const Shape& full, const HloSharding& s, absl::string_view what) {
    if (!full.IsTuple()) return LocalShape(full, s, what);
    const std::vector<HloSharding> elements_sharding = ElementShardings(s, full);
    std::vector<Shape> elements;
    for (size_t i = 0; i < full.tuple_shapes().size(); ++i) {
      AOT_ASSIGN_OR_RETURN(Shape e, Local(full.tuple_shapes()[i], elements_sharding[i], what));
      elements.push_back(e);
    }
    return Shape::Tuple(std::move(elements));
  }

  absl::StatusOr<HloInstruction*> Partition(const HloInstruction& h, const HloSharding& s) {
    InstructionBuilder b(comp_, &names_, h);
    const std::string what = DescribeInstruction(h);
    const HloOpcode op = h.opcode();
    if (op == HloOpcode::kParameter) {
      AOT_ASSIGN_OR_RETURN(Shape local, Local(h.shape(), s, what));
      auto p = HloInstruction::CreateParameter(h.parameter_number(), local, h.name());
      names_.Add(h.name());
      return AddWithNewId(comp_, std::move(p));
    }
    // A tuple's elements, and an element taken out, resharded where their
    // own shardings and the tuple's leaf differ.
    if (op == HloOpcode::kGetTupleElement) {
      const HloInstruction* tuple = h.operand(0);
      const HloSharding leaf =
          ElementShardings(sharding_.at(tuple), tuple->shape()).at(h.tuple_index());
      return Reshard(b, b.GetTupleElement(local_.at(tuple), h.tuple_index()), h.shape(), leaf, s,
                     what);
    }
    if (op == HloOpcode::kTuple) {
      const std::vector<HloSharding> leaves = ElementShardings(s, h.shape());
      std::vector<HloInstruction*> elements;
      for (int64_t i = 0; i < h.operand_count(); ++i) {
        const HloInstruction* o = h.operand(i);
        AOT_ASSIGN_OR_RETURN(HloInstruction * e, Reshard(b, local_.at(o), o->shape(),
                                                         sharding_.at(o), leaves.at(i), what));
        elements.push_back(e);
      }
      return b.Tuple(elements);
    }
    const bool elementwise = IsElementwise(op) || op == HloOpcode::kCompare ||
                             op == HloOpcode::kConvert || op == HloOpcode::kSelect ||
                             op == HloOpcode::kClamp;
    if (elementwise && h.shape().IsArray()) {
      // Operands split alike: computed on their tiles, then the one result
      // resharded (nothing where they are split as the result is);
      // otherwise (replicated operands among them) each operand resharded
      // to the result's tiles, which for a replicated one is a local cut.
      // Manual operands and results run as written (below).
      const HloSharding& first = sharding_.at(h.operand(0));
      bool alike = first.IsTiled();
      for (const HloInstruction* o : h.operands()) {
        alike &= o->shape().dimensions() == h.shape().dimensions() && sharding_.at(o) == first;
      }
      if (alike && s.kind() != HloSharding::Kind::kManual) {
        std::vector<HloInstruction*> operands;
        for (const HloInstruction* o : h.operands()) operands.push_back(local_.at(o));
        AOT_ASSIGN_OR_RETURN(Shape local, Local(h.shape(), first, what));
        return Reshard(b, Again(h, operands, local), h.shape(), first, s, what);
      }
      bool plain = s.kind() != HloSharding::Kind::kManual;
      for (const HloInstruction* o : h.operands()) {
        plain &= o->shape().dimensions() == h.shape().dimensions() &&
                 sharding_.at(o).kind() != HloSharding::Kind::kManual;
      }
      if (plain) {
        std::vector<HloInstruction*> operands;
        for (const HloInstruction* o : h.operands()) {
          AOT_ASSIGN_OR_RETURN(HloInstruction * tile,
                               Reshard(b, local_.at(o), o->shape(), sharding_.at(o), s, what));
          operands.push_back(tile);
        }
        AOT_ASSIGN_OR_RETURN(Shape local, Local(h.shape(), s, what));
        return Again(h, operands, local);
      }
    }
    // Control flow: the bodies partitioned with the loop state's (the
    // branch operands') shardings, so they run on tiles too; a body's root
    // resharded to the state's sharding, a condition's result replicated.
    if (op == HloOpcode::kWhile && s.kind() != HloSharding::Kind::kManual) {
      AOT_ASSIGN_OR_RETURN(HloInstruction * state, Reshard(b, local_.at(h.operand(0)), h.shape(),
                                                           sharding_.at(h.operand(0)), s, what));
      const std::vector<HloSharding> params = {s};
      const HloSharding replicated = HloSharding::Replicated();
      AOT_ASSIGN_OR_RETURN(HloComputation * condition,
                           PartitionComputation(*h.while_condition(), &params, &replicated));
      AOT_ASSIGN_OR_RETURN(HloComputation * body,
                           PartitionComputation(*h.while_body(), &params, &s));
      AOT_ASSIGN_OR_RETURN(Shape local, Local(h.shape(), s, what));
      return Again(h, {state}, local, [&](HloInstruction* loop) {
        *loop->mutable_called_computations() = {condition, body};
      });
    }
    if (op == HloOpcode::kConditional && s.kind() != HloSharding::Kind::kManual &&
        static_cast<size_t>(h.operand_count()) == h.called_computations().size() + 1) {
      std::vector<HloInstruction*> operands;
      AOT_ASSIGN_OR_RETURN(HloInstruction * index,
                           Reshard(b, local_.at(h.operand(0)), h.operand(0)->shape(),
                                   sharding_.at(h.operand(0)), HloSharding::Replicated(), what));
      operands.push_back(index);
      std::vector<HloComputation*> branches;
      for (size_t i = 0; i < h.called_computations().size(); ++i) {
        const HloInstruction* operand = h.operand(static_cast<int64_t>(i) + 1);
        const std::vector<HloSharding> params = {sharding_.at(operand)};
        AOT_ASSIGN_OR_RETURN(HloComputation * branch,
                             PartitionComputation(*h.called_computations()[i], &params, &s));
        branches.push_back(branch);
        operands.push_back(local_.at(operand));
      }
      AOT_ASSIGN_OR_RETURN(Shape local, Local(h.shape(), s, what));
      return Again(h, operands, local, [&](HloInstruction* conditional) {
        *conditional->mutable_called_computations() = branches;
      });
    }
    if (op == HloOpcode::kDot) {
      AOT_ASSIGN_OR_RETURN(std::optional<HloInstruction*> dot, PartitionDot(b, h, s, what));
      if (dot) return *dot;
    }
    if (std::optional<HloInstruction*> cut = CutAlongWholeDimensions(h, s)) return *cut;
    if (std::optional<HloInstruction*> shifted = SliceAcrossTiles(b, h, s)) return *shifted;
    if (std::optional<HloInstruction*> sorted = SortOnTiles(h, s)) return *sorted;
    if (std::optional<HloInstruction*> pooled = ReduceWindowOnTiles(h, s)) return *pooled;
    if (std::optional<HloInstruction*> scattered = ScatterOnTiles(h, s)) return *scattered;
    // A scalar broadcast: every partition makes its tile directly.
    if (op == HloOpcode::kBroadcast && h.operand(0)->shape().dimensions().empty() &&
        !sharding_.at(h.operand(0)).IsTiled()) {
      AOT_ASSIGN_OR_RETURN(Shape local, Local(h.shape(), s, what));
      return Again(h, {local_.at(h.operand(0))}, local);
    }
    if (op == HloOpcode::kGather && h.operand_count() == 2) {
      AOT_ASSIGN_OR_RETURN(std::optional<HloInstruction*> gathered, PartitionGather(b, h, s, what));
      if (gathered) return *gathered;
    }
    if (op == HloOpcode::kConvolution) {
      // Split by batch or by the kernel's output features: on the tiles.
      if (s.IsTiled() && HoldsItsResultTilesOperands(h, s, /*contraction_split=*/false)) {
        AOT_ASSIGN_OR_RETURN(Shape local, Local(h.shape(), s, what));
        return Again(h, {local_.at(h.operand(0)), local_.at(h.operand(1))}, local);
      }
      AOT_ASSIGN_OR_RETURN(std::optional<HloInstruction*> conv,
                           PartitionConvolution(b, h, s, what));
      if (conv) return *conv;
    }
    if (op == HloOpcode::kReduce && h.operand_count() == 2 && h.shape().IsArray()) {
      AOT_ASSIGN_OR_RETURN(std::optional<HloInstruction*> reduced,
                           PartitionSplitReduce(b, h, s, what));
      if (reduced) return *reduced;
    }
    // Broadcast, transpose, reshape and a reduce over dimensions that are
    // not split: on the tile when the operand's sharding maps onto the
    // result's (the reduce's init value replicated, the tiles even along
    // the reshaped dimensions).
    if ((op == HloOpcode::kBroadcast || op == HloOpcode::kTranspose || op == HloOpcode::kReshape ||
         (op == HloOpcode::kReduce && h.operand_count() == 2)) &&
        s.IsTiled() && h.shape().IsArray()) {
      const HloSharding& in = sharding_.at(h.operand(0));
      std::optional<std::vector<int64_t>> m = OperandToResultMapping(h, 0);
      // Uneven tiles keep their padding in place through a broadcast,
      // transpose or a reduce over other dimensions (padded rows give
      // padded results); a reshape would mix it into the data.
      bool fits = m.has_value() && in.IsTiled() &&
                  (op != HloOpcode::kReshape ||
                   (IsEven(h.operand(0)->shape(), in) && IsEven(h.shape(), s)));
      if (fits && op == HloOpcode::kReduce) {
        fits = !sharding_.at(h.operand(1)).IsTiled();
        for (int64_t d : h.attrs().dimensions) fits &= in.tile_dims()[d] == 1;
      }
      if (fits && op == HloOpcode::kReshape) {
        for (int64_t d = 0; d < in.DataRank(); ++d) {
          fits &= in.tile_dims()[d] == 1 || std::find(m->begin(), m->end(), d) != m->end();
        }
      }
      std::optional<HloSharding> mapped;
      if (fits) {
        mapped =
            MapSharding(in, static_cast<int64_t>(h.operand(0)->shape().dimensions().size()), *m);
      }
      if (mapped && *mapped == s) {
        AOT_ASSIGN_OR_RETURN(Shape local, Local(h.shape(), s, what));
        std::vector<HloInstruction*> operands;
        for (const HloInstruction* o : h.operands()) operands.push_back(local_.at(o));
        return Again(h, operands, local);
      }
    }
    // A sharding constraint, and a copy, are their operand resharded.
    if (((op == HloOpcode::kCustomCall && h.attrs().custom_call_target == "Sharding") ||
         op == HloOpcode::kCopy) &&
        h.operand_count() == 1 && h.shape() == h.operand(0)->shape() &&
        s.kind() != HloSharding::Kind::kManual &&
        sharding_.at(h.operand(0)).kind() != HloSharding::Kind::kManual) {
      return Reshard(b, local_.at(h.operand(0)), h.shape(), sharding_.at(h.operand(0)), s, what);
    }
    // Manual regions (shard_map): SPMDFullToShardShape takes its operand's
    // tile, the region's instructions (sharding {manual}, shapes already
    // per partition, collectives included) run as written on tiles, and
    // SPMDShardToFullShape gives its operand as the tile of its result.
    if (op == HloOpcode::kCustomCall && (h.attrs().custom_call_target == "SPMDFullToShardShape" ||
                                         h.attrs().custom_call_target == "SPMDShardToFullShape")) {
      const bool to_shard = h.attrs().custom_call_target == "SPMDFullToShardShape";
      HloInstruction* operand = local_.at(h.operand(0));
      AOT_ASSIGN_OR_RETURN(Shape want,
                           to_shard ? Local(h.operand(0)->shape(), sharding_.at(h.operand(0)), what)
                                    : Local(h.shape(), s, what));
      // (In a partially manual region the shard shape is itself split
      // along the automatic axes: its tile.)
      AOT_ASSIGN_OR_RETURN(Shape have,
                           to_shard ? Local(h.shape(), s, what) : Shape(operand->shape()));
      if (want.dimensions() != have.dimensions()) {
        return absl::InvalidArgumentError(
            absl::StrCat(what, ": the shard shape ", have.ToString(false), " is not the tile ",
                         want.ToString(false), " of the sharded value"));
      }
      // Partially manual: every partition's tile of the automatic axes is
      // the same on both sides (the device lists agree).
      const HloSharding& partial = to_shard ? s : sharding_.at(h.operand(0));
      const HloSharding& automatic = to_shard ? sharding_.at(h.operand(0)) : s;
      if (partial.IsTiled() && HasManualSubgroup(partial)) {
        for (int64_t p = 0; p < n_; ++p) {
          std::optional<std::vector<int64_t>> a = TileCoordinates(automatic, p);
          std::optional<std::vector<int64_t>> m = TileCoordinates(partial, p);
          for (int64_t d = 0; d < partial.DataRank(); ++d) {
            if (partial.tile_dims()[d] == 1) continue;
            if (!a || !m || !automatic.IsTiled() ||
                automatic.tile_dims()[d] != partial.tile_dims()[d] || (*a)[d] != (*m)[d]) {
              return absl::InvalidArgumentError(absl::StrCat(
                  what, ": partition ", p, " holds another tile of dimension ", d, " under ",
                  automatic.ToString(), " than under ", partial.ToString()));
            }
          }
        }
      }
      return operand;
    }
    if (s.kind() == HloSharding::Kind::kManual) {
      std::vector<HloInstruction*> operands;
      for (const HloInstruction* o : h.operands()) operands.push_back(local_.at(o));
      return Again(h, operands);
    }
    if (std::optional<HloInstruction*> across = AcrossReplicasOnTiles(b, h, s)) return *across;
    if (IsCollectiveOpcode(op) && manual_ != nullptr) {
      return absl::UnimplementedError(
          absl::StrCat(what,
                       ": collectives in a partially manual region (last_tile_dims={manual}) are "
                       "not supported yet"));
    }
    if (IsCollectiveOpcode(op)) {
      return absl::UnimplementedError(absl::StrCat(
          what, ": collectives outside a manual region (sharding={manual}) are not supported",
          annotated_ ? ""
                     : "; the module carries no sharding at all, so it looks partitioned already "
                       "(a per-device program as XLA writes it after SPMD partitioning): run it "
                       "as its num_partitions participants, without --num_partitions"));
    }
    // The general form: full operands, the instruction as written, the
    // result's tile.
    std::vector<HloInstruction*> operands;
    for (const HloInstruction* o : h.operands()) {
      AOT_ASSIGN_OR_RETURN(HloInstruction * full,
                           Gather(b, local_.at(o), o->shape(), sharding_.at(o)));
      operands.push_back(full);
    }
    return Slice(b, Again(h, operands), h.shape(), s, what);
  }

  // Slice, dynamic-slice, pad, reverse, concatenate and
  // dynamic-update-slice that leave every split dimension whole (sliced
  // from 0 to its end, not padded, not reversed, not the concatenated
  // dimension, updated over its whole extent), with their array operands
  // sharded as the result and even tiles: the same instruction on the
  // tiles (slice limits and slice sizes cut to the tile along the split
  // dimensions). nullopt otherwise.
  std::optional<HloInstruction*> CutAlongWholeDimensions(const HloInstruction& h,
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
          whole &= pd.edge_padding_low() == 0 && pd.edge_padding_high() == 0 &&
                   pd.interior_padding() == 0;
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
      const bool data = op == HloOpcode::kConcatenate || k == 0 ||
                        (op == HloOpcode::kDynamicUpdateSlice && k == 1);
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

  // Operand `k` of dot `h` as each partition's result tile under `s`
  // needs it: split along the batch dimensions as `s` splits them, whole
  // along its other dimensions (resharded from what the partition holds:
  // a local cut of a replicated operand).
  absl::StatusOr<HloInstruction*> DotOperandFor(InstructionBuilder& b, const HloInstruction& h,
                                                int64_t k, const HloSharding& s,
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

  // Whether every partition holds exactly the operand tiles its result
  // tile of dot or convolution `h` needs: each split operand dimension maps
  // to a result dimension split as it is, tile for tile (a 2-D mesh: rows
  // of the lhs over one axis, columns of the rhs over the other, each
  // replicated over the other axis; a convolution's batch, or its kernel's
  // output features), even tiles. With `contraction_split`, a dot's
  // contracting dimensions may be split too (the dot of the tiles is then
  // a partial sum; ContractionGroups checks the rest). A convolution's
  // split spatial dimensions need halos (PartitionConvolution); with
  // feature groups (depthwise) only its batch may be split.
  bool HoldsItsResultTilesOperands(const HloInstruction& h, const HloSharding& s,
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
        if (conv && k == 0 &&
            d != h.attrs().convolution_dimension_numbers->input_batch_dimension()) {
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

  // A dot whose operands are split along their contracting dimensions
  // alike (each partition holding matching contraction tiles) and along
  // the rest as the result is (2-D meshes: the row-parallel layer with its
  // rows also split over the data axis): the dot of the tiles is a partial
  // sum of the partition's result tile, and the partitions holding one
  // result tile, each a different contraction tile exactly once, sum them
  // by one all-reduce. The groups, or nullopt.
  std::optional<std::vector<std::vector<int64_t>>> ContractionGroups(const HloInstruction& h,
                                                                     const HloSharding& s) {
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

  // A slice along the one split dimension (stride 1, devices in order, the
  // operand's tiles even) whose result tiles have the operand's tile size
  // (the result padded where it does not divide, as x[1:] of 16 rows over
  // 8 partitions): result tile j is rows [r, T) of operand tile j + c and
  // rows [0, r) of tile j + c + 1, where the slice starts at c T + r. Each
  // arrives by one collective-permute (none from the partition itself);
  // the other dimensions are sliced locally first.
  std::optional<HloInstruction*> SliceAcrossTiles(InstructionBuilder& b, const HloInstruction& h,
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

  // A reduce-window (pooling) whose window spans one element along every
  // split dimension (size 1, stride 1, no padding or dilation there: a
  // batch split), its operand sharded as the result and its init value
  // replicated: the reduce-window of the tile.
  std::optional<HloInstruction*> ReduceWindowOnTiles(const HloInstruction& h,
                                                     const HloSharding& s) {
    if (h.opcode() != HloOpcode::kReduceWindow || h.operand_count() != 2 || !s.IsTiled() ||
        !h.shape().IsArray() || !h.attrs().window || !(sharding_.at(h.operand(0)) == s) ||
        sharding_.at(h.operand(1)).IsTiled()) {
      return std::nullopt;
    }
    for (int64_t d = 0; d < s.DataRank(); ++d) {
      if (s.tile_dims()[d] == 1) continue;
      if (d >= h.attrs().window->dimensions_size()) return std::nullopt;
      const WindowDimensionProto& w = h.attrs().window->dimensions(d);
      if (w.size() != 1 || w.stride() > 1 || w.padding_low() != 0 || w.padding_high() != 0 ||
          w.window_dilation() > 1 || w.base_dilation() > 1) {
        return std::nullopt;
      }
    }
    absl::StatusOr<Shape> local = Local(h.shape(), s, DescribeInstruction(h));
    if (!local.ok()) return std::nullopt;
    return Again(h, {local_.at(h.operand(0)), local_.at(h.operand(1))}, *local);
  }

  // A collective across replicas (no channel: its groups name replicas,
  // each partition meeting the same partition of the other replicas) on a
  // value sharded as its result: the collective of the tiles. All-reduce
  // and collective-permute on any tiling; all-gather, reduce-scatter and
  // all-to-all where their dimensions are not split.
  std::optional<HloInstruction*> AcrossReplicasOnTiles(InstructionBuilder& b,
                                                       const HloInstruction& h,
                                                       const HloSharding& s) {
    const HloOpcode op = h.opcode();
    if ((op != HloOpcode::kAllReduce && op != HloOpcode::kAllGather &&
         op != HloOpcode::kReduceScatter && op != HloOpcode::kCollectivePermute &&
         op != HloOpcode::kAllToAll) ||
        h.attrs().channel_id || h.attrs().use_global_device_ids || h.operand_count() != 1 ||
        !h.shape().IsArray() || s.kind() == HloSharding::Kind::kManual ||
        s.kind() == HloSharding::Kind::kTuple || manual_ != nullptr) {
      return std::nullopt;
    }
    for (int64_t d : h.attrs().dimensions) {
      if (s.IsTiled() && (d >= s.DataRank() || s.tile_dims()[d] > 1)) return std::nullopt;
    }
    const HloInstruction* o = h.operand(0);
    // The operand on the result's tiles (its shape differs only along the
    // collective's dimension, which is not split).
    absl::StatusOr<HloInstruction*> tile =
        Reshard(b, local_.at(o), o->shape(), sharding_.at(o), s, DescribeInstruction(h));
    absl::StatusOr<Shape> local = Local(h.shape(), s, DescribeInstruction(h));
    if (!tile.ok() || !local.ok()) return std::nullopt;
    return Again(h, {*tile}, *local);
  }

  // A sort whose operands are all sharded alike, along a dimension that is
  // not split, even tiles: each partition sorts its tile's rows.
  std::optional<HloInstruction*> SortOnTiles(const HloInstruction& h, const HloSharding& s) {
    if (h.opcode() != HloOpcode::kSort || h.attrs().dimensions.size() != 1) return std::nullopt;
    const HloSharding& a = sharding_.at(h.operand(0));
    const int64_t d = h.attrs().dimensions[0];
    if (!a.IsTiled() || d >= a.DataRank() || a.tile_dims()[d] != 1) return std::nullopt;
    std::vector<HloInstruction*> operands;
    for (const HloInstruction* o : h.operands()) {
      if (!(sharding_.at(o) == a) || !IsEven(o->shape(), a)) return std::nullopt;
      operands.push_back(local_.at(o));
    }
    for (const HloSharding& leaf : LeafShardings(s, h.shape())) {
      if (!(leaf == a)) return std::nullopt;
    }
    absl::StatusOr<Shape> local = Local(h.shape(), s, DescribeInstruction(h));
    if (!local.ok()) return std::nullopt;
    return Again(h, operands, *local);
  }

  // A scatter whose split dimensions are neither indexed nor inserted and
  // whose update windows span them (the updates split alike through the
  // window dimensions), the indices replicated, even tiles: the scatter of
  // the tiles (a window is in bounds on its tile exactly when it is in the
  // full array).
  std::optional<HloInstruction*> ScatterOnTiles(const HloInstruction& h, const HloSharding& s) {
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

  // The dot on tiles, where the operands' shardings allow it:
  // - one operand split on its batch or free dimensions, the other
  //   replicated, the result sharded as the split operand maps to it: the
  //   dot of the tile with the full operand;
  // - both split on their contracting dimensions alone, each partition
  //   holding matching contraction tiles (and nothing replicated): the dot
  //   of the tiles is a partial sum, summed over the partitions by one
  //   all-reduce (Megatron's row-parallel layer), then the result's tile.
  // nullopt: the general form.
  absl::StatusOr<std::optional<HloInstruction*>> PartitionDot(InstructionBuilder& b,
                                                              const HloInstruction& h,
                                                              const HloSharding& s,
                                                              const std::string& what) {
    AOT_ASSIGN_OR_RETURN(std::optional<HloInstruction*> on_tiles,
                         PartitionDotOnTiles(b, h, s, what));
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

  // Dot `h` on operand `k`'s tiles where its sharding maps onto the
  // result's `s` (with as many copies), the other operand brought to the
  // batch tile each partition needs (DotOperandFor); nullopt otherwise.
  absl::StatusOr<std::optional<HloInstruction*>> DotOnOperandTiles(InstructionBuilder& b,
                                                                   const HloInstruction& h,
                                                                   int64_t k, const HloSharding& s,
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

  absl::StatusOr<std::optional<HloInstruction*>> PartitionDotOnTiles(InstructionBuilder& b,
                                                                     const HloInstruction& h,
                                                                     const HloSharding& s,
                                                                     const std::string& what) {
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

  // Every partition's `partial` (of the full shape) summed over all the
  // partitions, as tiles of `s`: where `s` splits one dimension, reduced
  // and scattered at once (each partition receives only its tile's sums);
  // otherwise all-reduced and cut.
  absl::StatusOr<HloInstruction*> SumAcross(InstructionBuilder& b, HloInstruction* partial,
                                            const HloSharding& s, absl::string_view what) {
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

  // An embedding lookup from a table split along one gathered dimension
  // (its rows over all the partitions, each index vector naming one row
  // there), the indices replicated: each partition looks up the indices
  // that fall in its rows (clamped first, as gather clamps them), zeros
  // elsewhere, and the partial results are summed across the partitions.
  // Only the result's size crosses partitions, never the table.
  absl::StatusOr<std::optional<HloInstruction*>> PartitionGather(InstructionBuilder& b,
                                                                 const HloInstruction& h,
                                                                 const HloSharding& s,
                                                                 const std::string& what) {
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
        b.Compare(row, b.Splat(id_type, static_cast<double>(tile), batch),
                  ComparisonDirection::kLt));
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

  // A convolution whose input is split into strips along one spatial
  // dimension (devices in order, even tiles), the kernel replicated, where
  // every output tile reads the same number of rows around its input tile
  // (output tile x stride = input tile; any padding, stride and window
  // dilation; no base dilation): each partition receives the rows its
  // windows need from its neighbours (the halos, by at most two
  // collective-permutes; the edge partitions get zeros, which are the
  // padding) and convolves its extended strip without padding along that
  // dimension.
  absl::StatusOr<std::optional<HloInstruction*>> PartitionConvolution(InstructionBuilder& b,
                                                                      const HloInstruction& h,
                                                                      const HloSharding& s,
                                                                      const std::string& what) {
    const HloSharding& in = sharding_.at(h.operand(0));
    if (!in.IsTiled() || sharding_.at(h.operand(1)).IsTiled() || !s.IsTiled() ||
        in.ReplicationFactor() != 1 || !h.attrs().convolution_dimension_numbers ||
        !h.attrs().window || h.attrs().feature_group_count != 1 ||
        h.attrs().batch_group_count != 1 || !IsEven(h.operand(0)->shape(), in)) {
      return std::optional<HloInstruction*>();
    }
    for (size_t i = 0; i < in.devices().size(); ++i) {
      if (in.devices()[i] != static_cast<int64_t>(i)) return std::optional<HloInstruction*>();
    }
    const ConvolutionDimensionNumbersProto& dn = *h.attrs().convolution_dimension_numbers;
    int64_t split = -1, spatial = -1;
    for (int64_t d = 0; d < in.DataRank(); ++d) {
      if (in.tile_dims()[d] == 1) continue;
      if (split >= 0) return std::optional<HloInstruction*>();
      split = d;
    }
    for (int i = 0; i < dn.input_spatial_dimensions_size(); ++i) {
      if (dn.input_spatial_dimensions(i) == split) spatial = i;
    }
    if (spatial < 0 || spatial >= h.attrs().window->dimensions_size()) {
      return std::optional<HloInstruction*>();
    }
    const WindowDimensionProto& w = h.attrs().window->dimensions(spatial);
    const int64_t size = h.operand(0)->shape().dimensions()[split];
    const int64_t tile = size / in.tile_dims()[split];
    const int64_t lo = w.padding_low(), hi = w.padding_high();
    const int64_t out_dim = dn.output_spatial_dimensions(spatial);
    const int64_t out_size = h.shape().dimensions()[out_dim];
    const int64_t stride = std::max<int64_t>(w.stride(), 1);
    const int64_t parts = in.tile_dims()[split];
    // Output tile j covers output rows [j T, (j + 1) T), which read input
    // rows [j T s - lo, j T s - lo + (T - 1) s + extent): with T s equal to
    // the input tile, the same `lo` rows from the left neighbour and
    // `right` rows from the right one for every partition (the edges'
    // missing neighbours give zeros, which are the padding).
    const int64_t extent = (w.size() - 1) * std::max<int64_t>(w.window_dilation(), 1) + 1;
    const int64_t out_tile = out_size % parts == 0 ? out_size / parts : -1;
    const int64_t right = (out_tile - 1) * stride + extent - lo - tile;
    if (w.base_dilation() > 1 || w.window_reversal() || lo < 0 || hi < 0 || out_tile <= 0 ||
        out_tile * stride != tile || lo > tile || right > tile || tile + lo + right <= 0) {
      return std::optional<HloInstruction*>();
    }
    std::optional<std::vector<int64_t>> m = OperandToResultMapping(h, 0);
    std::optional<HloSharding> mapped;
    if (m) {
      mapped = MapSharding(in, static_cast<int64_t>(h.operand(0)->shape().dimensions().size()), *m);
    }
    if (!mapped || !(*mapped == s)) return std::optional<HloInstruction*>();
    HloInstruction* local = local_.at(h.operand(0));
    const Shape& local_shape = local->shape();
    // Rows [from, to) of the strip along the split dimension.
    auto rows = [&](int64_t from, int64_t to) {
      Shape shape = local_shape;
      (*shape.mutable_dimensions())[split] = to - from;
      HloInstruction* slice = b.Op(HloOpcode::kSlice, shape, {local});
      for (int64_t d = 0; d < static_cast<int64_t>(local_shape.dimensions().size()); ++d) {
        slice->mutable_attrs()->slice.push_back(
            d == split ? SliceSpec{from, to, 1} : SliceSpec{0, local_shape.dimensions()[d], 1});
      }
      return slice;
    };
    auto permute = [&](HloInstruction* x, int64_t step) {
      HloInstruction* moved = b.Op(HloOpcode::kCollectivePermute, x->shape(), {x});
      for (int64_t p = 0; p < n_; ++p) {
        if (p + step >= 0 && p + step < n_) {
          moved->mutable_attrs()->source_target_pairs.emplace_back(p, p + step);
        }
      }
      moved->mutable_attrs()->channel_id = next_channel_++;
      return moved;
    };
    std::vector<HloInstruction*> pieces;
    if (lo > 0) pieces.push_back(permute(rows(tile - lo, tile), +1));  // from the left
    // The strip itself, without its last rows where the windows stop short
    // of them (a negative `right`).
    pieces.push_back(right < 0 ? rows(0, tile + right) : local);
    if (right > 0) pieces.push_back(permute(rows(0, right), -1));  // from the right
    HloInstruction* extended = pieces[0];
    if (pieces.size() > 1) {
      Shape shape = local_shape;
      (*shape.mutable_dimensions())[split] = tile + lo + right;
      extended = b.Op(HloOpcode::kConcatenate, shape, pieces);
      extended->mutable_attrs()->dimensions = {split};
    }
    AOT_ASSIGN_OR_RETURN(Shape out_local, Local(h.shape(), s, what));
    return std::optional<HloInstruction*>(
        Again(h, {extended, local_.at(h.operand(1))}, out_local, [&](HloInstruction* conv) {
          WindowDimensionProto* cw = conv->mutable_attrs()->window->mutable_dimensions(spatial);
          cw->set_padding_low(0);
          cw->set_padding_high(0);
        }));
  }

  // A reduce over split dimensions: each partition reduces its tile, and
  // the partitions that hold the same kept coordinates combine their
  // partial results with one all-reduce of the same reduction. Only where
  // the reduction is one add, multiply, maximum or minimum whose init value
  // is its identity (each partition's partial result includes it), the
  // tiles are even, and the result is sharded as the operand maps to it.
  absl::StatusOr<std::optional<HloInstruction*>> PartitionSplitReduce(InstructionBuilder& b,
                                                                      const HloInstruction& h,
                                                                      const HloSharding& s,
                                                                      const std::string& what) {
    const HloSharding& in = sharding_.at(h.operand(0));
    const HloInstruction* init = h.operand(1);
    const HloComputation* reducer = h.to_apply();
    if (!in.IsTiled() || sharding_.at(init).IsTiled() || reducer == nullptr ||
        !IsEven(h.operand(0)->shape(), in) || init->opcode() != HloOpcode::kConstant ||
        !init->attrs().literal) {
      return std::optional<HloInstruction*>();
    }
    bool splits_reduced = false;
    for (int64_t d : h.attrs().dimensions) splits_reduced |= in.tile_dims()[d] > 1;
    if (!splits_reduced) return std::optional<HloInstruction*>();
    const HloInstruction* root = reducer->root_instruction();
    if (root->operand_count() != 2 || root->operand(0)->opcode() != HloOpcode::kParameter ||
        root->operand(1)->opcode() != HloOpcode::kParameter) {
      return std::optional<HloInstruction*>();
    }
    const double v = init->attrs().literal->GetAsDouble(0);
    const bool identity = (root->opcode() == HloOpcode::kAdd && v == 0) ||
                          (root->opcode() == HloOpcode::kMultiply && v == 1) ||
                          (root->opcode() == HloOpcode::kMaximum && v == -HUGE_VAL) ||
                          (root->opcode() == HloOpcode::kMinimum && v == HUGE_VAL);
    std::optional<std::vector<int64_t>> m = OperandToResultMapping(h, 0);
    if (!identity || !m) return std::optional<HloInstruction*>();
    std::optional<HloSharding> mapped =
        MapSharding(in, static_cast<int64_t>(h.operand(0)->shape().dimensions().size()), *m);
    if (!mapped || !(*mapped == s) || !IsEven(h.shape(), s)) {
      return std::optional<HloInstruction*>();
    }
    // Groups: the partitions whose coordinates differ only in the reduced
    // dimensions.
    std::map<std::vector<int64_t>, std::vector<int64_t>> groups;
    for (int64_t p = 0; p < n_; ++p) {
      std::vector<int64_t> subgroup;
      std::vector<int64_t> key = *TileCoordinates(in, p, &subgroup);
      for (int64_t d : h.attrs().dimensions) key[d] = -1;
      key.insert(key.end(), subgroup.begin(), subgroup.end());
      groups[key].push_back(p);
    }
    AOT_ASSIGN_OR_RETURN(Shape local, Local(h.shape(), s, what));
    HloInstruction* partial = Again(h, {local_.at(h.operand(0)), local_.at(h.operand(1))}, local);
    HloInstruction* sum = b.Op(HloOpcode::kAllReduce, local, {partial});
    std::vector<std::vector<int64_t>> members;
    for (const auto& [key, group] : groups) members.push_back(group);
    Groups(sum, members);
    *sum->mutable_called_computations() = {h.called_computations()[0]};
    return std::optional<HloInstruction*>(sum);
  }

  HloModule* module_;
  int64_t n_;
  int64_t replicas_;        // each runs the n partitions on its own data
  bool annotated_ = false;  // any instruction of the module carries a sharding
  // The instruction being partitioned is in a partially manual region: its
  // sharding, or an operand's, with manual subgroups (nullptr otherwise).
  const HloSharding* manual_ = nullptr;
  HloComputation* comp_ = nullptr;
  NameUniquer names_;
  HloInstruction* pid_ = nullptr;
  int64_t next_channel_ = 1;
  absl::flat_hash_map<const HloInstruction*, HloInstruction*> local_;
  absl::flat_hash_map<const HloInstruction*, HloSharding> sharding_;
  std::map<std::string, std::vector<HloInstruction*>> rows_;
  std::map<PrimitiveType, HloComputation*> sums_;
};

// Copies the elements of the box [start, start + size) of `from` into
// `to` at `to_start` (both logical row-major).
void CopyBox(const Literal& from, const std::vector<int64_t>& from_start, Literal* to,
             const std::vector<int64_t>& to_start, const std::vector<int64_t>& size) {
  const int64_t bytes = from.element_count() == 0
                            ? 0
                            : static_cast<int64_t>(from.raw().size()) / from.element_count();
  const auto& fd = from.shape().dimensions();
  const auto& td = to->shape().dimensions();
  std::vector<int64_t> index(size.size(), 0);
  int64_t count = 1;
  for (int64_t s : size) count *= s;
  for (int64_t k = 0; k < count; ++k) {
    int64_t fi = 0, ti = 0;
    for (size_t d = 0; d < size.size(); ++d) {
      fi = fi * fd[d] + from_start[d] + index[d];
      ti = ti * td[d] + to_start[d] + index[d];
    }
    std::memcpy(to->raw_data() + ti * bytes, from.raw().data() + fi * bytes, bytes);
    for (int64_t d = static_cast<int64_t>(size.size()) - 1; d >= 0; --d) {
      if (++index[d] < size[d]) break;
      index[d] = 0;
    }
  }
}

}  // namespace

absl::StatusOr<PartitionedModule> PartitionSpmd(const HloModule& module, int64_t num_partitions) {
  if (num_partitions < 1) {
    return absl::InvalidArgumentError(
        absl::StrCat("num_partitions must be at least 1, got ", num_partitions));
  }
  PartitionedModule out;
  out.module = module.Clone();
  if (out.module == nullptr) return absl::InternalError("could not copy the module");
  out.module->mutable_config()->num_partitions = num_partitions;
  AOT_RETURN_IF_ERROR(InlineCalls(out.module.get()).status());
  AOT_RETURN_IF_ERROR(ShardingPropagation().Run(out.module.get()).status());
  Partitioner partitioner(out.module.get(), num_partitions);
  AOT_RETURN_IF_ERROR(partitioner.Run(&out));
  return out;
}

std::string DescribeCollectives(const HloModule& partitioned) {
  std::map<std::string, std::pair<int64_t, int64_t>> kinds;  // name -> count, bytes
  for (const HloComputation* c : partitioned.computations()) {
    for (const HloInstruction* h : c->instructions()) {
      if (!IsCollectiveOpcode(h->opcode())) continue;
      auto& [count, bytes] = kinds[std::string(HloOpcodeString(h->opcode()))];
      ++count;
      for (const Shape& leaf : h->shape().FlattenLeaves()) bytes += leaf.ByteSize();
    }
  }
  if (kinds.empty()) return "no collectives";
  std::vector<std::string> parts;
  for (const auto& [name, totals] : kinds) {
    const int64_t bytes = totals.second;
    parts.push_back(absl::StrCat(
        totals.first, " ", name, " (",
        bytes >= 1024 ? absl::StrCat(bytes / 1024, " KiB") : absl::StrCat(bytes, " B"), ")"));
  }
  return absl::StrJoin(parts, ", ");
}

absl::StatusOr<Literal> TileOf(const Literal& full, const HloSharding& sharding,
                               int64_t partition) {
  if (!sharding.IsTiled()) return full;
  std::optional<std::vector<int64_t>> coords = TileCoordinates(sharding, partition);
  if (!coords) {
    return absl::InvalidArgumentError(
        absl::StrCat("sharding ", sharding.ToString(), " has no tile on partition ", partition));
  }
  AOT_ASSIGN_OR_RETURN(Shape local, LocalShape(full.shape(), sharding, "argument"));
  Literal tile(local);  // zeros where the tile runs past the array
  std::vector<int64_t> start(coords->size()), extent(coords->size());
  for (size_t d = 0; d < start.size(); ++d) {
    start[d] = (*coords)[d] * local.dimensions()[d];
    extent[d] = std::max<int64_t>(
        0, std::min(local.dimensions()[d], full.shape().dimensions()[d] - start[d]));
  }
  CopyBox(full, start, &tile, std::vector<int64_t>(start.size(), 0), extent);
  return tile;
}

absl::StatusOr<std::vector<std::vector<Literal>>> SplitArguments(
    const std::vector<Literal>& arguments, const PartitionedModule& partitioned) {
  if (arguments.size() != partitioned.parameter_shardings.size()) {
    return absl::InvalidArgumentError(absl::StrCat("the program takes ",
                                                   partitioned.parameter_shardings.size(),
                                                   " arguments, got ", arguments.size()));
  }
  const int64_t n = partitioned.module->config().num_partitions;
  std::vector<std::vector<Literal>> out(n);
  for (int64_t p = 0; p < n; ++p) {
    for (size_t i = 0; i < arguments.size(); ++i) {
      AOT_ASSIGN_OR_RETURN(Literal tile,
                           TileOf(arguments[i], partitioned.parameter_shardings[i], p));
      out[p].push_back(std::move(tile));
    }
  }
  return out;
}

absl::StatusOr<Literal> AssembleTiles(const std::vector<Literal>& tiles, const Shape& full_shape,
                                      const HloSharding& sharding) {
  if (tiles.empty()) return absl::InvalidArgumentError("no tiles to assemble");
  if (full_shape.IsTuple()) {
    // Per element, with its leaf's sharding.
    std::vector<Literal> elements;
    for (size_t i = 0; i < full_shape.tuple_shapes().size(); ++i) {
      std::vector<Literal> element_tiles;
      for (const Literal& t : tiles) {
        if (i >= t.tuple_elements().size()) {
          return absl::InvalidArgumentError("a partition's result is not the expected tuple");
        }
        element_tiles.push_back(t.tuple_element(i));
      }
      const HloSharding leaf = ElementShardings(sharding, full_shape).at(i);
      AOT_ASSIGN_OR_RETURN(Literal e,
                           AssembleTiles(element_tiles, full_shape.tuple_shapes()[i], leaf));
      elements.push_back(std::move(e));
    }
    return Literal::Tuple(std::move(elements));
  }
  if (!sharding.IsTiled()) return tiles[0];
  Literal full(full_shape);
  for (int64_t p = 0; p < static_cast<int64_t>(tiles.size()); ++p) {
    std::optional<std::vector<int64_t>> coords = TileCoordinates(sharding, p);
    if (!coords) continue;
    const auto& local = tiles[p].shape().dimensions();
    std::vector<int64_t> start(coords->size()), extent(coords->size());
    for (size_t d = 0; d < start.size(); ++d) {
      start[d] = (*coords)[d] * local[d];
      extent[d] = std::max<int64_t>(0, std::min(local[d], full_shape.dimensions()[d] - start[d]));
    }
    CopyBox(tiles[p], std::vector<int64_t>(start.size(), 0), &full, start, extent);
  }
  return full;
}

}  // namespace aot
