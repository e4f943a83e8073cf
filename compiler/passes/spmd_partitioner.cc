// The SPMD partitioner's visitor: each computation walked, every instruction
// dispatched to its op family's handler or resharded, control flow and
// calls partitioned computation by computation; the module-level API.
#include "compiler/passes/spmd_partitioner.h"

#include "compiler/passes/spmd_partitioner_internal.h"

namespace aot {
namespace spmd_internal {

// The data coordinates of `partition`'s tile, or nullopt when the tile
// assignment does not name it.
std::optional<std::vector<int64_t>> TileCoordinates(const HloSharding& s, int64_t partition,
                                                    std::vector<int64_t>* subgroup) {
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

absl::Status Partitioner::Run(PartitionedModule* out) {
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
  AOT_ASSIGN_OR_RETURN(HloComputation * entry, PartitionComputation(*old_entry, nullptr, nullptr));
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

absl::StatusOr<HloComputation*> Partitioner::PartitionComputation(
    const HloComputation& c, const std::vector<HloSharding>* params, const HloSharding* root) {
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

absl::Status Partitioner::BuildPartitioned(const HloComputation& c,
                                           const std::vector<HloSharding>* params,
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

absl::StatusOr<HloSharding> Partitioner::ShardingOf(const HloInstruction& h) {
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

HloInstruction* Partitioner::Again(const HloInstruction& h, std::vector<HloInstruction*> operands,
                                   std::optional<Shape> shape,
                                   const std::function<void(HloInstruction*)>& adjust) {
  std::unique_ptr<HloInstruction> clone = CloneWithOperands(h, operands);
  if (shape) *clone->mutable_shape() = *shape;
  clone->mutable_attrs()->sharding.clear();
  clone->set_name(names_.GetUniqueName(h.name()));
  if (adjust) adjust(clone.get());
  return AddWithNewId(comp_, std::move(clone));
}

std::vector<int64_t> Partitioner::AllPartitions() const {
  std::vector<int64_t> all(n_);
  std::iota(all.begin(), all.end(), 0);
  return all;
}

HloInstruction* Partitioner::PartitionId(InstructionBuilder& b) {
  if (pid_ == nullptr) {
    HloInstruction* id = b.Op(HloOpcode::kPartitionId, Shape::Scalar(U32), {});
    pid_ = b.Convert(id, S32);
  }
  return pid_;
}

std::vector<HloInstruction*> Partitioner::PartitionRow(InstructionBuilder& b,
                                                       const std::vector<int64_t>& table,
                                                       int64_t width) {
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

absl::StatusOr<HloInstruction*> Partitioner::Partition(const HloInstruction& h,
                                                       const HloSharding& s) {
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
      AOT_ASSIGN_OR_RETURN(HloInstruction * e, Reshard(b, local_.at(o), o->shape(), sharding_.at(o),
                                                       leaves.at(i), what));
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
    AOT_ASSIGN_OR_RETURN(HloComputation * body, PartitionComputation(*h.while_body(), &params, &s));
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
    AOT_ASSIGN_OR_RETURN(std::optional<HloInstruction*> conv, PartitionConvolution(b, h, s, what));
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
    bool fits =
        m.has_value() && in.IsTiled() &&
        (op != HloOpcode::kReshape || (IsEven(h.operand(0)->shape(), in) && IsEven(h.shape(), s)));
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
      mapped = MapSharding(in, static_cast<int64_t>(h.operand(0)->shape().dimensions().size()), *m);
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
            return absl::InvalidArgumentError(
                absl::StrCat(what, ": partition ", p, " holds another tile of dimension ", d,
                             " under ", automatic.ToString(), " than under ", partial.ToString()));
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

}  // namespace spmd_internal

using spmd_internal::Partitioner;

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
}  // namespace aot
