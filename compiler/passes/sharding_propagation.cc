#include "compiler/passes/sharding_propagation.h"

#include <algorithm>
#include <map>
#include <set>

#include "absl/container/flat_hash_map.h"
#include "absl/strings/str_cat.h"
#include "compiler/hlo/hlo_computation.h"
#include "compiler/hlo/hlo_instruction.h"
#include "support/status_macros.h"

namespace aot {

std::optional<HloSharding> MapSharding(const HloSharding& source, int64_t source_rank,
                                       const std::vector<int64_t>& mapping) {
  if (!source.IsTiled()) {
    if (source.kind() == HloSharding::Kind::kTuple) return std::nullopt;
    return source;
  }
  for (HloSharding::Subgroup g : source.subgroups()) {
    if (g == HloSharding::Subgroup::kManual) return std::nullopt;
  }
  const std::vector<int64_t>& tiles = source.tile_dims();
  if (source.DataRank() != source_rank) return std::nullopt;
  // The source tile assignment's dimensions reordered: the mapped data
  // dimensions in the target's order, then the unmapped data dimensions,
  // then the subgroup dimensions; the trailing ones merge into one
  // replicated dimension.
  std::vector<int64_t> perm;
  std::vector<bool> used(tiles.size(), false);
  for (int64_t m : mapping) {
    if (m < 0) continue;
    if (m >= source_rank || used[m]) return std::nullopt;
    used[m] = true;
    perm.push_back(m);
  }
  int64_t replicated = 1;
  for (int64_t d = 0; d < static_cast<int64_t>(tiles.size()); ++d) {
    if (used[d]) continue;
    perm.push_back(d);
    replicated *= tiles[d];
  }
  std::vector<int64_t> order = IotaDevices(tiles, perm);
  std::vector<int64_t> devices;
  devices.reserve(order.size());
  for (int64_t i : order) devices.push_back(source.devices()[i]);
  std::vector<int64_t> out_tiles;
  for (int64_t m : mapping) out_tiles.push_back(m < 0 ? 1 : tiles[m]);
  if (replicated > 1) out_tiles.push_back(replicated);
  return HloSharding::Tiled(std::move(out_tiles), std::move(devices), replicated > 1);
}

std::optional<HloSharding> MergeShardings(const HloSharding& a, const HloSharding& b) {
  if (!a.IsTiled() || !b.IsTiled() || a.DataRank() != b.DataRank() ||
      a.DeviceCount() != b.DeviceCount()) {
    return std::nullopt;
  }
  for (const HloSharding* s : {&a, &b}) {
    for (HloSharding::Subgroup g : s->subgroups()) {
      if (g == HloSharding::Subgroup::kManual) return std::nullopt;
    }
  }
  const int64_t rank = a.DataRank();
  std::vector<int64_t> tiles(rank);
  for (int64_t d = 0; d < rank; ++d) {
    const int64_t ta = a.tile_dims()[d], tb = b.tile_dims()[d];
    if (ta > 1 && tb > 1 && ta != tb) return std::nullopt;
    tiles[d] = std::max(ta, tb);
  }
  // Each device's tile coordinates, from whichever sharding splits each
  // dimension (both must agree where both do).
  std::map<std::vector<int64_t>, std::vector<int64_t>> groups;  // coords -> devices, ascending
  std::vector<int64_t> ascending = a.devices();
  std::sort(ascending.begin(), ascending.end());
  for (int64_t device : ascending) {
    std::optional<std::vector<int64_t>> from_a = a.TileIndexOf(device);
    std::optional<std::vector<int64_t>> from_b = b.TileIndexOf(device);
    if (!from_a || !from_b) return std::nullopt;
    std::vector<int64_t> c(rank);
    for (int64_t d = 0; d < rank; ++d) {
      if (a.tile_dims()[d] > 1 && b.tile_dims()[d] > 1 && (*from_a)[d] != (*from_b)[d]) {
        return std::nullopt;
      }
      c[d] = a.tile_dims()[d] > 1 ? (*from_a)[d] : (*from_b)[d];
    }
    groups[c].push_back(device);
  }
  int64_t grid = 1;
  for (int64_t t : tiles) grid *= t;
  if (static_cast<int64_t>(groups.size()) != grid) return std::nullopt;
  const size_t copies = groups.begin()->second.size();
  std::vector<int64_t> devices;
  for (const auto& [c, members] : groups) {  // row-major: std::map orders the coordinates
    if (members.size() != copies) return std::nullopt;
    devices.insert(devices.end(), members.begin(), members.end());
  }
  if (copies > 1) tiles.push_back(static_cast<int64_t>(copies));
  return HloSharding::Tiled(std::move(tiles), std::move(devices), copies > 1);
}

namespace {

using Mapping = std::vector<int64_t>;

int64_t Rank(const HloInstruction* h) {
  return h->shape().IsTuple() ? -1 : static_cast<int64_t>(h->shape().dimensions().size());
}

Mapping Identity(int64_t rank) {
  Mapping m(rank);
  for (int64_t i = 0; i < rank; ++i) m[i] = i;
  return m;
}

// Inverse of a mapping from a rank-`from_rank` value: for each dimension of
// the source, the target dimension that takes it (or -1).
Mapping Invert(const Mapping& m, int64_t source_rank) {
  Mapping inv(source_rank, -1);
  for (size_t j = 0; j < m.size(); ++j) {
    if (m[j] >= 0 && m[j] < source_rank) inv[m[j]] = static_cast<int64_t>(j);
  }
  return inv;
}

bool SameShapeFamily(HloOpcode op) {
  if (IsElementwise(op)) return true;
  switch (op) {
    case HloOpcode::kCompare:
    case HloOpcode::kConvert:
    case HloOpcode::kClamp:
    case HloOpcode::kSelect:
    case HloOpcode::kSlice:
    case HloOpcode::kPad:
    case HloOpcode::kReverse:
    case HloOpcode::kConcatenate:
    case HloOpcode::kDynamicSlice:
    case HloOpcode::kDynamicUpdateSlice:
    case HloOpcode::kIsFinite:
    case HloOpcode::kReal:
    case HloOpcode::kImag:
    case HloOpcode::kComplex:
    case HloOpcode::kBitcastConvert:
    case HloOpcode::kMap:
    case HloOpcode::kSort:       // one operand; tuple-shaped sorts do not propagate
    case HloOpcode::kAllReduce:  // across replicas: elementwise; one operand
    case HloOpcode::kCollectivePermute:
      return true;
    default:
      return false;
  }
}

// Dimensions of a reshape that keep their size and place: result dimension
// j <- operand dimension, where both sides of a group of the factorization
// are one dimension of the same size.
Mapping ReshapeMapping(const Shape& from, const Shape& to) {
  const auto& a = from.dimensions();
  const auto& b = to.dimensions();
  Mapping m(b.size(), -1);
  size_t i = 0, j = 0;
  while (i < a.size() && j < b.size()) {
    // One group: the shortest prefixes with equal products.
    size_t i0 = i, j0 = j;
    int64_t pa = a[i++], pb = b[j++];
    while (pa != pb) {
      if (pa < pb && i < a.size()) {
        pa *= a[i++];
      } else if (j < b.size()) {
        pb *= b[j++];
      } else {
        break;
      }
    }
    if (i - i0 == 1 && j - j0 == 1) m[j0] = static_cast<int64_t>(i0);
    // Size-1 dimensions next to a group stay unmapped (one tile).
  }
  return m;
}

// The mapping from operand `k`'s dimensions to `h`'s result: result
// dimension j <- operand dimension mapping[j]. nullopt where the family
// does not propagate through this operand.
std::optional<Mapping> OperandToResult(const HloInstruction* h, int64_t k) {
  const HloInstruction* operand = h->operand(k);
  const int64_t rank = Rank(h), op_rank = Rank(operand);
  if (rank < 0 || op_rank < 0) return std::nullopt;
  const HloOpcode op = h->opcode();
  if (SameShapeFamily(op) || op == HloOpcode::kCopy) {
    if (op_rank != rank) return std::nullopt;  // scalar operands, indices
    if (op == HloOpcode::kDynamicSlice && k > 0) return std::nullopt;
    if (op == HloOpcode::kDynamicUpdateSlice && k > 1) return std::nullopt;
    if (op == HloOpcode::kPad && k > 0) return std::nullopt;
    return Identity(rank);
  }
  const HloAttributes& at = h->attrs();
  switch (op) {
    case HloOpcode::kBroadcast: {
      Mapping m(rank, -1);
      for (size_t i = 0; i < at.dimensions.size(); ++i) m[at.dimensions[i]] = i;
      return m;
    }
    case HloOpcode::kTranspose: {
      Mapping m(rank, -1);
      for (int64_t j = 0; j < rank && j < static_cast<int64_t>(at.dimensions.size()); ++j) {
        m[j] = at.dimensions[j];
      }
      return m;
    }
    case HloOpcode::kReshape:
      return ReshapeMapping(operand->shape(), h->shape());
    case HloOpcode::kReduce: {
      if (h->operand_count() != 2 || k != 0) return std::nullopt;
      Mapping m;
      for (int64_t i = 0; i < op_rank; ++i) {
        if (std::find(at.dimensions.begin(), at.dimensions.end(), i) == at.dimensions.end()) {
          m.push_back(i);
        }
      }
      return m;
    }
    case HloOpcode::kDot: {
      if (!at.dot_dimension_numbers) return std::nullopt;
      const DotDimensionNumbersProto& dn = *at.dot_dimension_numbers;
      const auto& batch = k == 0 ? dn.lhs_batch_dimensions() : dn.rhs_batch_dimensions();
      const auto& contracting =
          k == 0 ? dn.lhs_contracting_dimensions() : dn.rhs_contracting_dimensions();
      std::vector<int64_t> free;
      for (int64_t i = 0; i < op_rank; ++i) {
        if (std::find(batch.begin(), batch.end(), i) == batch.end() &&
            std::find(contracting.begin(), contracting.end(), i) == contracting.end()) {
          free.push_back(i);
        }
      }
      const int64_t lhs_free = Rank(h->operand(0)) - dn.lhs_batch_dimensions_size() -
                               dn.lhs_contracting_dimensions_size();
      Mapping m(rank, -1);
      for (int i = 0; i < batch.size(); ++i) m[i] = batch[i];
      const int64_t start = batch.size() + (k == 0 ? 0 : lhs_free);
      for (size_t i = 0; i < free.size() && start + static_cast<int64_t>(i) < rank; ++i) {
        m[start + i] = free[i];
      }
      return m;
    }
    case HloOpcode::kConvolution: {
      if (!at.convolution_dimension_numbers) return std::nullopt;
      const ConvolutionDimensionNumbersProto& dn = *at.convolution_dimension_numbers;
      Mapping m(rank, -1);
      if (k == 0) {
        m[dn.output_batch_dimension()] = dn.input_batch_dimension();
        for (int i = 0; i < dn.output_spatial_dimensions_size(); ++i) {
          m[dn.output_spatial_dimensions(i)] = dn.input_spatial_dimensions(i);
        }
      } else {
        m[dn.output_feature_dimension()] = dn.kernel_output_feature_dimension();
      }
      return m;
    }
    case HloOpcode::kReduceWindow:
      // Pooling keeps the operand's dimensions (the window reduces within
      // them); the init value is a scalar.
      if (h->operand_count() != 2 || k != 0 || op_rank != rank) return std::nullopt;
      return Identity(rank);
    case HloOpcode::kGather: {
      // Passthrough dimensions: the table's dimensions a slice takes whole
      // go to the offset dimensions; the indices' batch dimensions to the
      // result's others (both in order).
      if (!at.gather_dimension_numbers || h->operand_count() != 2) return std::nullopt;
      const GatherDimensionNumbersProto& dn = *at.gather_dimension_numbers;
      const auto& offset_dims = dn.offset_dims();
      auto is_offset = [&](int64_t j) {
        return std::find(offset_dims.begin(), offset_dims.end(), j) != offset_dims.end();
      };
      Mapping m(rank, -1);
      if (k == 0) {
        std::vector<int64_t> kept;  // operand dimensions the slices keep
        for (int64_t i = 0; i < op_rank; ++i) {
          if (std::find(dn.collapsed_slice_dims().begin(), dn.collapsed_slice_dims().end(), i) ==
                  dn.collapsed_slice_dims().end() &&
              std::find(dn.operand_batching_dims().begin(), dn.operand_batching_dims().end(), i) ==
                  dn.operand_batching_dims().end()) {
            kept.push_back(i);
          }
        }
        for (int i = 0; i < offset_dims.size() && i < static_cast<int>(kept.size()); ++i) {
          const int64_t d = kept[i];
          if (d < static_cast<int64_t>(at.gather_slice_sizes.size()) &&
              at.gather_slice_sizes[d] == operand->shape().dimensions()[d]) {
            m[offset_dims[i]] = d;
          }
        }
        return m;
      }
      std::vector<int64_t> batch;  // the indices' dimensions, in order
      for (int64_t i = 0; i < op_rank; ++i) {
        if (i != dn.index_vector_dim()) batch.push_back(i);
      }
      size_t next = 0;
      for (int64_t j = 0; j < rank && next < batch.size(); ++j) {
        if (!is_offset(j)) m[j] = batch[next++];
      }
      return m;
    }
    case HloOpcode::kScatter: {
      // The operand is the result's shape; the updates' window dimensions
      // that cover an operand dimension whole map to it.
      if (!at.scatter_dimension_numbers || h->operand_count() != 3) return std::nullopt;
      if (k == 0) return Identity(rank);
      if (k != 2) return std::nullopt;
      const ScatterDimensionNumbersProto& dn = *at.scatter_dimension_numbers;
      Mapping m(rank, -1);
      int next = 0;
      for (int64_t d = 0; d < rank && next < dn.update_window_dims_size(); ++d) {
        if (std::find(dn.inserted_window_dims().begin(), dn.inserted_window_dims().end(), d) !=
                dn.inserted_window_dims().end() ||
            std::find(dn.input_batching_dims().begin(), dn.input_batching_dims().end(), d) !=
                dn.input_batching_dims().end()) {
          continue;
        }
        const int64_t u = dn.update_window_dims(next++);
        if (u < op_rank && operand->shape().dimensions()[u] == h->shape().dimensions()[d]) m[d] = u;
      }
      return m;
    }
    default:
      return std::nullopt;
  }
}

// Leaf offset of tuple element `index` in `tuple`, and its leaf count.
std::pair<size_t, size_t> LeafRange(const Shape& tuple, int64_t index) {
  size_t offset = 0;
  for (int64_t i = 0; i < index; ++i) offset += tuple.tuple_shapes()[i].FlattenLeaves().size();
  return {offset, tuple.tuple_shapes()[index].FlattenLeaves().size()};
}

std::vector<HloSharding> Leaves(const HloSharding& s, const Shape& shape) {
  if (s.kind() == HloSharding::Kind::kTuple) return s.tuple_elements();
  return std::vector<HloSharding>(shape.FlattenLeaves().size(), s);
}

HloSharding FromLeaves(std::vector<HloSharding> leaves, const Shape& shape) {
  if (!shape.IsTuple()) return leaves.empty() ? HloSharding::Replicated() : leaves[0];
  return HloSharding::Tuple(std::move(leaves));
}

class Propagator {
 public:
  explicit Propagator(HloModule* module) : module_(module) {}

  absl::StatusOr<bool> Run() {
    std::vector<HloComputation*> computations;
    for (HloComputation* c : module_->computations()) {
      if (c->is_fusion_computation()) continue;
      computations.push_back(c);
      for (HloInstruction* h : c->instructions()) {
        if (h->attrs().sharding.empty()) continue;
        auto parsed = HloSharding::Parse(h->attrs().sharding);
        if (!parsed.ok()) {
          return absl::InvalidArgumentError(
              absl::StrCat(DescribeInstruction(*h), ": ", parsed.status().message()));
        }
        known_.emplace(h, *parsed);
      }
    }
    bool changed_any = false;
    // Two rounds to a fixed point: a tuple waits for all its elements'
    // shardings in the first; in the second, elements still unknown count
    // as replicated (so a loop state with an unannotated array still
    // carries its other elements' shardings into the loop).
    for (relaxed_tuples_ = false;; relaxed_tuples_ = true) {
      for (int sweep = 0; sweep < 64; ++sweep) {
        bool changed = false;
        for (HloComputation* c : computations) {
          const std::vector<HloInstruction*> order = c->MakeInstructionPostOrder();
          for (HloInstruction* h : order) changed |= Visit(h);
          // Backward in reverse post order: users before their operands.
          for (auto it = order.rbegin(); it != order.rend(); ++it) {
            if (known_.contains(*it)) continue;
            if (std::optional<HloSharding> s = FromUsers(*it)) changed |= Set(*it, *s);
          }
        }
        changed_any |= changed;
        if (!changed) break;
      }
      if (relaxed_tuples_) break;
    }
    // What was found, written on the instructions that had no annotation.
    for (HloComputation* c : computations) {
      for (HloInstruction* h : c->instructions()) {
        std::optional<HloSharding> s = Get(h);
        if (s && h->attrs().sharding.empty()) h->mutable_attrs()->sharding = s->ToString();
      }
    }
    return changed_any;
  }

 private:
  // `s` is taken by value: callers pass shardings that live in known_,
  // which the insertion may move.
  bool Set(const HloInstruction* h, HloSharding s) {
    if (known_.contains(h)) return false;
    known_.emplace(h, std::move(s));
    return true;
  }
  // A copy: Set may move the map's elements while a caller still uses it.
  std::optional<HloSharding> Get(const HloInstruction* h) const {
    auto it = known_.find(h);
    if (it == known_.end()) return std::nullopt;
    return it->second;
  }

  // Forward, and the bodies of control flow.
  bool Visit(HloInstruction* h) {
    bool changed = false;
    const HloOpcode op = h->opcode();
    // Parameters of the bodies from the operands, results from the roots.
    if (op == HloOpcode::kWhile) {
      if (std::optional<HloSharding> s = Get(h->operand(0))) {
        changed |= Set(h->while_body()->parameter_instruction(0), *s);
        changed |= Set(h->while_condition()->parameter_instruction(0), *s);
        changed |= Set(h, *s);
      } else if (std::optional<HloSharding> s = Get(h)) {
        changed |= Set(h->while_body()->parameter_instruction(0), *s);
        changed |= Set(h->while_condition()->parameter_instruction(0), *s);
      }
      return changed;
    }
    if (op == HloOpcode::kConditional) {
      const auto& branches = h->called_computations();
      for (size_t b = 0; b < branches.size(); ++b) {
        if (branches[b]->num_parameters() != 1 ||
            b + 1 >= static_cast<size_t>(h->operand_count())) {
          continue;
        }
        if (std::optional<HloSharding> s = Get(h->operand(b + 1))) {
          changed |= Set(branches[b]->parameter_instruction(0), *s);
        }
      }
      if (!known_.contains(h)) {
        for (const HloComputation* b : branches) {
          if (std::optional<HloSharding> s = Get(b->root_instruction())) {
            changed |= Set(h, *s);
            break;
          }
        }
      }
      return changed;
    }
    if (op == HloOpcode::kCall && h->to_apply() != nullptr) {
      const HloComputation* callee = h->to_apply();
      for (int64_t i = 0; i < h->operand_count() && i < callee->num_parameters(); ++i) {
        if (std::optional<HloSharding> s = Get(h->operand(i))) {
          changed |= Set(callee->parameter_instruction(i), *s);
        }
      }
      if (std::optional<HloSharding> s = Get(callee->root_instruction())) changed |= Set(h, *s);
      return changed;
    }
    if (known_.contains(h)) return false;
    if (op == HloOpcode::kGetTupleElement) {
      std::optional<HloSharding> s = Get(h->operand(0));
      if (!s) return false;
      const Shape& tuple = h->operand(0)->shape();
      std::vector<HloSharding> leaves = Leaves(*s, tuple);
      auto [offset, count] = LeafRange(tuple, h->tuple_index());
      if (offset + count > leaves.size()) return false;
      return Set(
          h, FromLeaves({leaves.begin() + offset, leaves.begin() + offset + count}, h->shape()));
    }
    if (op == HloOpcode::kTuple) {
      std::vector<HloSharding> leaves;
      bool any = false;
      for (const HloInstruction* operand : h->operands()) {
        std::optional<HloSharding> s = Get(operand);
        any |= s.has_value();
        // A scalar can only be replicated; other elements are waited for
        // (first round) or taken as replicated (second round).
        if (!s && (Rank(operand) == 0 || relaxed_tuples_)) s = HloSharding::Replicated();
        if (!s) return false;
        std::vector<HloSharding> l = Leaves(*s, operand->shape());
        leaves.insert(leaves.end(), l.begin(), l.end());
      }
      if (!any) return false;
      return Set(h, HloSharding::Tuple(std::move(leaves)));
    }
    // The operand whose sharding splits the data most, then the first.
    std::optional<HloSharding> best;
    int64_t best_tiles = -1;
    std::vector<HloSharding> candidates;
    for (int64_t k = 0; k < h->operand_count(); ++k) {
      std::optional<HloSharding> s = Get(h->operand(k));
      if (!s) continue;
      std::optional<Mapping> m = OperandToResult(h, k);
      if (!m) continue;
      if (op == HloOpcode::kReshape && !CoversSplitDimensions(*s, *m)) continue;
      std::optional<HloSharding> mapped = MapSharding(*s, Rank(h->operand(k)), *m);
      if (!mapped) continue;
      candidates.push_back(*mapped);
      if (s->DataTileCount() > best_tiles) {
        best = mapped;
        best_tiles = s->DataTileCount();
      }
    }
    // A dot of operands split along different result dimensions (a 2-D
    // mesh: rows over one axis, columns over the other) takes both splits
    // where they combine into one sharding.
    if (op == HloOpcode::kDot && candidates.size() == 2 && Get(h->operand(0)).has_value() &&
        Get(h->operand(1)).has_value()) {
      std::optional<HloSharding> merged = MergeShardings(candidates[0], candidates[1]);
      if (merged && merged->DataTileCount() > best_tiles) best = merged;
    }
    return best ? Set(h, *best) : false;
  }

  // A reshape propagates only when every split dimension keeps its place.
  static bool CoversSplitDimensions(const HloSharding& s, const Mapping& m) {
    if (!s.IsTiled()) return true;
    for (int64_t d = 0; d < s.DataRank(); ++d) {
      if (s.tile_dims()[d] > 1 && std::find(m.begin(), m.end(), d) == m.end()) return false;
    }
    return true;
  }

  // Backward: the first user (in the order the users were added) whose
  // sharding maps back to this operand.
  std::optional<HloSharding> FromUsers(const HloInstruction* h) {
    if (Rank(h) < 0) return std::nullopt;
    for (const HloInstruction* user : h->users()) {
      std::optional<HloSharding> s = Get(user);
      if (!s) continue;
      for (int64_t k = 0; k < user->operand_count(); ++k) {
        if (user->operand(k) != h) continue;
        if (user->opcode() == HloOpcode::kTuple) {
          const Shape& tuple = user->shape();
          std::vector<HloSharding> leaves = Leaves(*s, tuple);
          auto [offset, count] = LeafRange(tuple, k);
          if (count == 1 && offset < leaves.size()) return leaves[offset];
          continue;
        }
        std::optional<Mapping> m = OperandToResult(user, k);
        if (!m) continue;
        const Mapping back = Invert(*m, Rank(h));
        if (user->opcode() == HloOpcode::kReshape && !CoversSplitDimensions(*s, back)) continue;
        std::optional<HloSharding> mapped = MapSharding(*s, Rank(user), back);
        if (mapped) return mapped;
      }
    }
    return std::nullopt;
  }

  HloModule* module_;
  absl::flat_hash_map<const HloInstruction*, HloSharding> known_;
  bool relaxed_tuples_ = false;
};

}  // namespace

std::optional<std::vector<int64_t>> OperandToResultMapping(const HloInstruction& instruction,
                                                           int64_t k) {
  return OperandToResult(&instruction, k);
}

absl::StatusOr<bool> ShardingPropagation::Run(HloModule* module) {
  return Propagator(module).Run();
}

}  // namespace aot
