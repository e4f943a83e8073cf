// Gather and scatter kernels of the HLO evaluator, with the description of
// their indices operand (IndexSpace) they share.

#include <algorithm>
#include <cstring>
#include <numeric>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "compiler/hlo/shuffle.h"
#include "compiler/interpreter/evaluator_internal.h"
#include "support/status_macros.h"

namespace aot {
namespace interpreter_internal {

namespace {

bool Contains(absl::Span<const int64_t> list, int64_t v) {
  return std::find(list.begin(), list.end(), v) != list.end();
}

template <typename RepeatedField>
std::vector<int64_t> ToVector(const RepeatedField& field) {
  return std::vector<int64_t>(field.begin(), field.end());
}

// Position of `indices_dim` among the batch dimensions of the indices
// (every dimension but index_vector_dim).
int64_t BatchPosition(int64_t indices_dim, int64_t index_vector_dim) {
  return indices_dim < index_vector_dim ? indices_dim : indices_dim - 1;
}

// Shared description of the indices operand of gather/scatter.
struct IndexSpace {
  std::vector<int64_t> batch_dims;  // indices dims other than index_vector_dim
  std::vector<int64_t> batch_sizes;
  std::vector<int64_t> strides;  // of the indices literal
  int64_t index_vector_dim = 0;
  int64_t vector_size = 1;
};

absl::StatusOr<IndexSpace> MakeIndexSpace(const Literal& indices, int64_t index_vector_dim,
                                          int64_t vector_length) {
  IndexSpace space;
  const int64_t rank = indices.shape().rank();
  if (!IsInteger(indices.shape().element_type())) {
    return absl::InvalidArgumentError(
        absl::StrCat("indices must have an integer type, got ", indices.shape().ToString(false)));
  }
  if (index_vector_dim < 0 || index_vector_dim > rank) {
    return absl::InvalidArgumentError(absl::StrCat("index_vector_dim ", index_vector_dim,
                                                   " is out of range for indices of rank ", rank));
  }
  space.index_vector_dim = index_vector_dim;
  space.vector_size = index_vector_dim == rank ? 1 : indices.shape().dimensions(index_vector_dim);
  if (space.vector_size != vector_length) {
    return absl::InvalidArgumentError(absl::StrCat("index vectors have ", space.vector_size,
                                                   " elements, but ", vector_length,
                                                   " operand dimensions are indexed"));
  }
  for (int64_t d = 0; d < rank; ++d) {
    if (d == index_vector_dim) continue;
    space.batch_dims.push_back(d);
    space.batch_sizes.push_back(indices.shape().dimensions(d));
  }
  space.strides = RowMajorStrides(indices.shape().dimensions());
  return space;
}

// Linear index into the indices literal of component k of the index vector
// at batch index `batch`.
int64_t IndexLinear(const IndexSpace& space, absl::Span<const int64_t> batch, int64_t k) {
  int64_t linear = 0;
  for (size_t i = 0; i < space.batch_dims.size(); ++i) {
    linear += batch[i] * space.strides[space.batch_dims[i]];
  }
  if (space.index_vector_dim < static_cast<int64_t>(space.strides.size())) {
    linear += k * space.strides[space.index_vector_dim];
  }
  return linear;
}

absl::Status CheckDimList(absl::Span<const int64_t> dims, int64_t rank, absl::string_view what) {
  std::vector<bool> seen(std::max<int64_t>(rank, 0), false);
  for (int64_t d : dims) {
    if (d < 0 || d >= rank || seen[d]) {
      return absl::InvalidArgumentError(
          absl::StrCat(what, " ", SpanToString(dims), " are invalid for rank ", rank));
    }
    seen[d] = true;
  }
  return absl::OkStatus();
}

}  // namespace

absl::StatusOr<Literal> EvalGather(const HloInstruction& instr, const Literal& operand,
                                   const Literal& indices) {
  AOT_RETURN_IF_ERROR(CheckArrayOp(instr, operand));
  AOT_RETURN_IF_ERROR(ExpectArray(indices, "start indices"));
  if (!instr.attrs().gather_dimension_numbers.has_value()) {
    return absl::InvalidArgumentError("gather has no dimension numbers");
  }
  const GatherDimensionNumbersProto& dn = *instr.attrs().gather_dimension_numbers;
  const std::vector<int64_t> offset_dims = ToVector(dn.offset_dims());
  const std::vector<int64_t> collapsed = ToVector(dn.collapsed_slice_dims());
  const std::vector<int64_t> start_index_map = ToVector(dn.start_index_map());
  const std::vector<int64_t> operand_batching = ToVector(dn.operand_batching_dims());
  const std::vector<int64_t> indices_batching = ToVector(dn.start_indices_batching_dims());
  const std::vector<int64_t>& slice_sizes = instr.attrs().gather_slice_sizes;
  const Shape& out_shape = instr.shape();
  const int64_t rank = operand.shape().rank();

  if (static_cast<int64_t>(slice_sizes.size()) != rank) {
    return absl::InvalidArgumentError(absl::StrCat("slice_sizes ", SpanToString(slice_sizes),
                                                   " do not match operand rank ", rank));
  }
  for (const auto& [list, what] : {std::pair{&collapsed, "collapsed_slice_dims"},
                                   std::pair{&start_index_map, "start_index_map"},
                                   std::pair{&operand_batching, "operand_batching_dims"}}) {
    AOT_RETURN_IF_ERROR(CheckDimList(*list, rank, what));
  }
  AOT_RETURN_IF_ERROR(CheckDimList(offset_dims, out_shape.rank(), "offset_dims"));
  if (!std::is_sorted(offset_dims.begin(), offset_dims.end())) {
    return absl::InvalidArgumentError("offset_dims must be sorted");
  }
  for (int64_t d = 0; d < rank; ++d) {
    if (slice_sizes[d] < 0 || slice_sizes[d] > operand.shape().dimensions(d)) {
      return absl::InvalidArgumentError(absl::StrCat("slice size ", slice_sizes[d],
                                                     " is out of range for operand dimension ", d,
                                                     " of size ", operand.shape().dimensions(d)));
    }
    if ((Contains(collapsed, d) || Contains(operand_batching, d)) && slice_sizes[d] != 1) {
      return absl::InvalidArgumentError(
          absl::StrCat("collapsed or batching dimension ", d, " must have slice size 1"));
    }
    if (Contains(collapsed, d) && Contains(operand_batching, d)) {
      return absl::InvalidArgumentError(
          absl::StrCat("dimension ", d, " is both collapsed and batching"));
    }
  }
  AOT_ASSIGN_OR_RETURN(auto space_or, MakeIndexSpace(indices, dn.index_vector_dim(),
                                                     static_cast<int64_t>(start_index_map.size())));
  const IndexSpace& space = space_or;
  if (indices_batching.size() != operand_batching.size()) {
    return absl::InvalidArgumentError(
        "operand_batching_dims and start_indices_batching_dims differ in length");
  }
  std::vector<int64_t> batching_positions;
  for (size_t i = 0; i < indices_batching.size(); ++i) {
    int64_t d = indices_batching[i];
    if (d < 0 || d >= indices.shape().rank() || d == space.index_vector_dim) {
      return absl::InvalidArgumentError(absl::StrCat(
          "start_indices_batching_dims ", SpanToString(indices_batching), " are invalid"));
    }
    batching_positions.push_back(BatchPosition(d, space.index_vector_dim));
    if (indices.shape().dimensions(d) != operand.shape().dimensions(operand_batching[i])) {
      return absl::InvalidArgumentError(
          absl::StrCat("batching dimension sizes differ: indices dimension ", d,
                       " vs operand dimension ", operand_batching[i]));
    }
  }
  // Window (offset) dims of the operand, in order.
  std::vector<int64_t> window_dims;
  for (int64_t d = 0; d < rank; ++d) {
    if (!Contains(collapsed, d) && !Contains(operand_batching, d)) window_dims.push_back(d);
  }
  if (window_dims.size() != offset_dims.size()) {
    return absl::InvalidArgumentError(
        absl::StrCat("offset_dims ", SpanToString(offset_dims), " must have one entry per ",
                     "uncollapsed operand dimension (", window_dims.size(), ")"));
  }
  std::vector<int64_t> out_batch_dims;
  for (int64_t d = 0; d < out_shape.rank(); ++d) {
    if (!Contains(offset_dims, d)) out_batch_dims.push_back(d);
  }
  if (out_batch_dims.size() != space.batch_dims.size()) {
    return absl::InvalidArgumentError(absl::StrCat("result rank ", out_shape.rank(),
                                                   " does not match the gather's batch and ",
                                                   "offset dimensions"));
  }
  for (size_t i = 0; i < out_batch_dims.size(); ++i) {
    if (out_shape.dimensions(out_batch_dims[i]) != space.batch_sizes[i]) {
      return absl::InvalidArgumentError(absl::StrCat(
          "result dimension ", out_batch_dims[i], " has size ",
          out_shape.dimensions(out_batch_dims[i]), ", expected ", space.batch_sizes[i]));
    }
  }
  std::vector<int64_t> window_sizes;
  for (size_t k = 0; k < window_dims.size(); ++k) {
    window_sizes.push_back(slice_sizes[window_dims[k]]);
    if (out_shape.dimensions(offset_dims[k]) != slice_sizes[window_dims[k]]) {
      return absl::InvalidArgumentError(absl::StrCat(
          "result dimension ", offset_dims[k], " has size ", out_shape.dimensions(offset_dims[k]),
          ", expected slice size ", slice_sizes[window_dims[k]]));
    }
  }

  Literal out(out_shape);
  const std::vector<int64_t> op_strides = RowMajorStrides(operand.shape().dimensions());
  const std::vector<int64_t> out_strides = RowMajorStrides(out_shape.dimensions());
  std::vector<int64_t> src_window_strides, dst_window_strides;
  for (size_t k = 0; k < window_dims.size(); ++k) {
    src_window_strides.push_back(op_strides[window_dims[k]]);
    dst_window_strides.push_back(out_strides[offset_dims[k]]);
  }
  const int64_t w = ByteWidth(operand.shape().element_type());
  if (out.element_count() == 0) return out;
  std::vector<int64_t> batch(space.batch_dims.size(), 0);
  std::vector<int64_t> start(rank);
  do {
    std::fill(start.begin(), start.end(), 0);
    for (size_t k = 0; k < start_index_map.size(); ++k) {
      start[start_index_map[k]] = ReadIndex(indices, IndexLinear(space, batch, k));
    }
    for (size_t i = 0; i < operand_batching.size(); ++i) {
      start[operand_batching[i]] = batch[batching_positions[i]];
    }
    int64_t src_offset = 0;
    for (int64_t d = 0; d < rank; ++d) {
      int64_t s = std::clamp<int64_t>(start[d], 0, operand.shape().dimensions(d) - slice_sizes[d]);
      src_offset += s * op_strides[d];
    }
    int64_t dst_offset = 0;
    for (size_t i = 0; i < out_batch_dims.size(); ++i) {
      dst_offset += batch[i] * out_strides[out_batch_dims[i]];
    }
    StridedCopy(operand.raw().data(), src_offset, src_window_strides, out.raw_data(), dst_offset,
                dst_window_strides, window_sizes, w);
  } while (NextIndex(space.batch_sizes, batch));
  return out;
}

namespace {

// Applies the scatter combiner to result element `ri` and update element
// `ui` for every operand.
class ScatterCombiner {
 public:
  static absl::StatusOr<std::unique_ptr<ScatterCombiner>> Create(
      const HloComputation& computation, absl::Span<const PrimitiveType> types,
      ComputationCaller& caller) {
    auto c = std::unique_ptr<ScatterCombiner>(new ScatterCombiner());
    c->types_.assign(types.begin(), types.end());
    const size_t n = types.size();
    std::vector<PrimitiveType> params(types.begin(), types.end());
    params.insert(params.end(), types.begin(), types.end());
    AOT_ASSIGN_OR_RETURN(
        auto function, ScalarFunction::Create(&computation, params, c->types_, caller, "to_apply"));
    c->function_ = std::move(function);
    c->args_.resize(2 * n);
    const HloInstruction* root = computation.root_instruction();
    if (n == 1 && root != nullptr && root->opcode() == HloOpcode::kParameter &&
        root->shape().IsArray() && root->shape().rank() == 0 &&
        root->shape().element_type() == types[0]) {
      c->mode_ = root->parameter_number() == 1 ? Mode::kReplace : Mode::kKeep;
    } else if (n == 1) {
      auto match = MatchScalarBinary(computation);
      if (match && match->opcode != HloOpcode::kCompare && match->type == types[0] &&
          match->lhs_param + match->rhs_param == 1 &&
          CheckBinaryOpType(match->opcode, types[0]).ok()) {
        c->mode_ = Mode::kBinary;
        c->match_ = *match;
      }
    }
    return c;
  }

  absl::Status Apply(std::vector<Literal>& results, int64_t ri,
                     absl::Span<const Literal* const> updates, int64_t ui) {
    switch (mode_) {
      case Mode::kKeep:
        return absl::OkStatus();
      case Mode::kReplace: {
        const int64_t w = ByteWidth(types_[0]);
        std::memcpy(results[0].raw_data() + ri * w, updates[0]->raw().data() + ui * w, w);
        return absl::OkStatus();
      }
      case Mode::kBinary: {
        ArrayTypeSwitch(types_[0], [&](auto tag) {
          using T = typename decltype(tag)::type;
          T old_value = results[0].Get<T>(ri);
          T update = updates[0]->Get<T>(ui);
          T a = match_.lhs_param == 0 ? old_value : update;
          T b = match_.lhs_param == 0 ? update : old_value;
          VisitBinaryOp<T>(match_.opcode, [&](auto fn) { results[0].Set<T>(ri, fn(a, b)); });
        });
        return absl::OkStatus();
      }
      case Mode::kGeneral:
        break;
    }
    const size_t n = types_.size();
    for (size_t i = 0; i < n; ++i) {
      const int64_t w = ByteWidth(types_[i]);
      args_[i] = results[i].raw().data() + ri * w;
      args_[n + i] = updates[i]->raw().data() + ui * w;
    }
    AOT_RETURN_IF_ERROR(function_->Call(args_.data()));
    for (size_t i = 0; i < n; ++i) {
      const int64_t w = ByteWidth(types_[i]);
      std::memcpy(results[i].raw_data() + ri * w, function_->result(i), w);
    }
    return absl::OkStatus();
  }

 private:
  enum class Mode { kGeneral, kKeep, kReplace, kBinary };
  ScatterCombiner() = default;

  std::vector<PrimitiveType> types_;
  std::unique_ptr<ScalarFunction> function_;
  std::vector<const void*> args_;
  Mode mode_ = Mode::kGeneral;
  ScalarBinaryMatch match_{};
};

}  // namespace

absl::StatusOr<Literal> EvalScatter(const HloInstruction& instr, Operands ops,
                                    ComputationCaller& caller) {
  if (ops.size() < 3 || ops.size() % 2 != 1) {
    return absl::InvalidArgumentError(absl::StrCat(
        "scatter needs N operands, the indices and N updates; got ", ops.size(), " operands"));
  }
  const size_t n = (ops.size() - 1) / 2;
  const HloComputation* to_apply = instr.to_apply();
  if (to_apply == nullptr) return absl::InvalidArgumentError("scatter has no to_apply");
  if (!instr.attrs().scatter_dimension_numbers.has_value()) {
    return absl::InvalidArgumentError("scatter has no dimension numbers");
  }
  const ScatterDimensionNumbersProto& dn = *instr.attrs().scatter_dimension_numbers;
  const Literal& indices = *ops[n];
  AOT_RETURN_IF_ERROR(ExpectArray(indices, "scatter indices"));
  const Shape& operand_shape = ops[0]->shape();
  std::vector<PrimitiveType> types;
  for (size_t i = 0; i < n; ++i) {
    const Literal& op = *ops[i];
    const Literal& upd = *ops[n + 1 + i];
    AOT_RETURN_IF_ERROR(ExpectArray(op, "operand"));
    AOT_RETURN_IF_ERROR(ExpectArray(upd, "updates"));
    AOT_RETURN_IF_ERROR(ExpectDims(op.shape(), operand_shape.dimensions(), "operand"));
    AOT_RETURN_IF_ERROR(ExpectDims(upd.shape(), ops[n + 1]->shape().dimensions(), "updates"));
    if (upd.shape().element_type() != op.shape().element_type()) {
      return absl::InvalidArgumentError(
          absl::StrCat("updates ", i, " element type differs from operand ", i, "'s"));
    }
    types.push_back(op.shape().element_type());
  }
  // The result: the operands' shape (a tuple when n > 1).
  {
    std::vector<Shape> leaves = instr.shape().FlattenLeaves();
    if (leaves.size() != n || (n > 1 && !instr.shape().IsTuple())) {
      return absl::InvalidArgumentError(absl::StrCat("result shape ", instr.shape().ToString(),
                                                     " does not match ", n, " operands"));
    }
    for (size_t i = 0; i < n; ++i) {
      if (!leaves[i].Compatible(ops[i]->shape())) {
        return absl::InvalidArgumentError(absl::StrCat("result shape ", instr.shape().ToString(),
                                                       " does not match the operands"));
      }
    }
  }
  const Shape& updates_shape = ops[n + 1]->shape();
  const int64_t rank = operand_shape.rank();
  const std::vector<int64_t> update_window_dims = ToVector(dn.update_window_dims());
  const std::vector<int64_t> inserted = ToVector(dn.inserted_window_dims());
  const std::vector<int64_t> to_operand = ToVector(dn.scatter_dims_to_operand_dims());
  const std::vector<int64_t> input_batching = ToVector(dn.input_batching_dims());
  const std::vector<int64_t> indices_batching = ToVector(dn.scatter_indices_batching_dims());
  for (const auto& [list, what] : {std::pair{&inserted, "inserted_window_dims"},
                                   std::pair{&to_operand, "scatter_dims_to_operand_dims"},
                                   std::pair{&input_batching, "input_batching_dims"}}) {
    AOT_RETURN_IF_ERROR(CheckDimList(*list, rank, what));
  }
  AOT_RETURN_IF_ERROR(CheckDimList(update_window_dims, updates_shape.rank(), "update_window_dims"));
  if (!std::is_sorted(update_window_dims.begin(), update_window_dims.end())) {
    return absl::InvalidArgumentError("update_window_dims must be sorted");
  }
  AOT_ASSIGN_OR_RETURN(auto space_or, MakeIndexSpace(indices, dn.index_vector_dim(),
                                                     static_cast<int64_t>(to_operand.size())));
  const IndexSpace& space = space_or;
  if (indices_batching.size() != input_batching.size()) {
    return absl::InvalidArgumentError(
        "input_batching_dims and scatter_indices_batching_dims differ in length");
  }
  std::vector<int64_t> batching_positions;
  for (size_t i = 0; i < indices_batching.size(); ++i) {
    int64_t d = indices_batching[i];
    if (d < 0 || d >= indices.shape().rank() || d == space.index_vector_dim) {
      return absl::InvalidArgumentError(absl::StrCat(
          "scatter_indices_batching_dims ", SpanToString(indices_batching), " are invalid"));
    }
    batching_positions.push_back(BatchPosition(d, space.index_vector_dim));
  }
  std::vector<int64_t> window_operand_dims;
  for (int64_t d = 0; d < rank; ++d) {
    if (Contains(inserted, d) && Contains(input_batching, d)) {
      return absl::InvalidArgumentError(
          absl::StrCat("dimension ", d, " is both inserted and batching"));
    }
    if (!Contains(inserted, d) && !Contains(input_batching, d)) {
      window_operand_dims.push_back(d);
    }
  }
  if (window_operand_dims.size() != update_window_dims.size()) {
    return absl::InvalidArgumentError(absl::StrCat(
        "update_window_dims ", SpanToString(update_window_dims), " must have one entry ",
        "per operand dimension that is neither inserted nor batching (", window_operand_dims.size(),
        ")"));
  }
  std::vector<int64_t> update_scatter_dims;
  for (int64_t d = 0; d < updates_shape.rank(); ++d) {
    if (!Contains(update_window_dims, d)) update_scatter_dims.push_back(d);
  }
  if (update_scatter_dims.size() != space.batch_dims.size()) {
    return absl::InvalidArgumentError(absl::StrCat("updates have ", update_scatter_dims.size(),
                                                   " scatter dimensions, indices have ",
                                                   space.batch_dims.size(), " batch dimensions"));
  }
  for (size_t i = 0; i < update_scatter_dims.size(); ++i) {
    if (updates_shape.dimensions(update_scatter_dims[i]) != space.batch_sizes[i]) {
      return absl::InvalidArgumentError(
          absl::StrCat("updates dimension ", update_scatter_dims[i], " has size ",
                       updates_shape.dimensions(update_scatter_dims[i]), ", indices batch size is ",
                       space.batch_sizes[i]));
    }
  }
  // Window extent per operand dimension (1 for inserted / batching dims).
  std::vector<int64_t> window_extent(rank, 1);
  std::vector<int64_t> window_sizes;
  for (size_t k = 0; k < window_operand_dims.size(); ++k) {
    int64_t size = updates_shape.dimensions(update_window_dims[k]);
    if (size > operand_shape.dimensions(window_operand_dims[k])) {
      return absl::InvalidArgumentError(
          absl::StrCat("update window dimension ", update_window_dims[k], " (size ", size,
                       ") exceeds operand dimension ", window_operand_dims[k]));
    }
    window_extent[window_operand_dims[k]] = size;
    window_sizes.push_back(size);
  }

  AOT_ASSIGN_OR_RETURN(auto combiner, ScatterCombiner::Create(*to_apply, types, caller));
  std::vector<Literal> results;
  for (size_t i = 0; i < n; ++i) results.push_back(*ops[i]);
  absl::Span<const Literal* const> updates = ops.subspan(n + 1, n);

  const std::vector<int64_t> op_strides = RowMajorStrides(operand_shape.dimensions());
  const std::vector<int64_t> upd_strides = RowMajorStrides(updates_shape.dimensions());
  const bool has_updates = updates_shape.ElementCount() > 0;
  std::vector<int64_t> batch(space.batch_dims.size(), 0);
  std::vector<int64_t> start(rank);
  std::vector<int64_t> window(window_sizes.size(), 0);
  if (has_updates) {
    do {
      std::fill(start.begin(), start.end(), 0);
      for (size_t k = 0; k < to_operand.size(); ++k) {
        start[to_operand[k]] = ReadIndex(indices, IndexLinear(space, batch, k));
      }
      for (size_t i = 0; i < input_batching.size(); ++i) {
        start[input_batching[i]] = batch[batching_positions[i]];
      }
      bool in_bounds = true;
      int64_t base = 0;
      for (int64_t d = 0; d < rank; ++d) {
        if (start[d] < 0 || start[d] > operand_shape.dimensions(d) - window_extent[d]) {
          in_bounds = false;
          break;
        }
        base += start[d] * op_strides[d];
      }
      if (!in_bounds) continue;  // XLA skips a window that does not fit
      int64_t update_base = 0;
      for (size_t i = 0; i < update_scatter_dims.size(); ++i) {
        update_base += batch[i] * upd_strides[update_scatter_dims[i]];
      }
      std::fill(window.begin(), window.end(), 0);
      do {
        int64_t ri = base;
        int64_t ui = update_base;
        for (size_t k = 0; k < window.size(); ++k) {
          ri += window[k] * op_strides[window_operand_dims[k]];
          ui += window[k] * upd_strides[update_window_dims[k]];
        }
        AOT_RETURN_IF_ERROR(combiner->Apply(results, ri, updates, ui));
      } while (NextIndex(window_sizes, window));
    } while (NextIndex(space.batch_sizes, batch));
  }
  if (n == 1 && !instr.shape().IsTuple()) {
    results[0].set_layout(instr.shape().minor_to_major());
    return std::move(results[0]);
  }
  return Literal::Tuple(std::move(results));
}

}  // namespace interpreter_internal
}  // namespace aot
