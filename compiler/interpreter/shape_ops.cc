// Data-movement kernels of the HLO evaluator: broadcast, reshape, transpose,
// slice, dynamic-slice, dynamic-update-slice, concatenate, pad, reverse,
// iota; plus the shared index helpers. Gather and scatter are in
// gather_scatter_ops.cc.

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

// ---------------------------------------------------------------------------
// Helpers.

namespace {

template <typename W>
void CopyRow(const uint8_t* src, int64_t s, int64_t ss, uint8_t* dst, int64_t t, int64_t ds,
             int64_t n) {
  const W* S = reinterpret_cast<const W*>(src);
  W* D = reinterpret_cast<W*>(dst);
  for (int64_t i = 0; i < n; ++i) D[t + i * ds] = S[s + i * ss];
}

}  // namespace

void StridedCopy(const uint8_t* src, int64_t src_offset, absl::Span<const int64_t> src_strides,
                 uint8_t* dst, int64_t dst_offset, absl::Span<const int64_t> dst_strides,
                 absl::Span<const int64_t> dims, int64_t elem_size) {
  const int64_t rank = static_cast<int64_t>(dims.size());
  for (int64_t d : dims) {
    if (d <= 0) return;
  }
  if (rank == 0) {
    std::memcpy(dst + dst_offset * elem_size, src + src_offset * elem_size, elem_size);
    return;
  }
  std::vector<int64_t> idx(rank, 0);
  int64_t s = src_offset;
  int64_t t = dst_offset;
  const int64_t inner = dims[rank - 1];
  const int64_t ss = src_strides[rank - 1];
  const int64_t ds = dst_strides[rank - 1];
  while (true) {
    switch (elem_size) {
      case 1:
        CopyRow<uint8_t>(src, s, ss, dst, t, ds, inner);
        break;
      case 2:
        CopyRow<uint16_t>(src, s, ss, dst, t, ds, inner);
        break;
      case 4:
        CopyRow<uint32_t>(src, s, ss, dst, t, ds, inner);
        break;
      case 8:
        CopyRow<uint64_t>(src, s, ss, dst, t, ds, inner);
        break;
      default:
        for (int64_t i = 0; i < inner; ++i) {
          std::memcpy(dst + (t + i * ds) * elem_size, src + (s + i * ss) * elem_size, elem_size);
        }
        break;
    }
    int64_t d = rank - 2;
    for (; d >= 0; --d) {
      ++idx[d];
      s += src_strides[d];
      t += dst_strides[d];
      if (idx[d] < dims[d]) break;
      s -= src_strides[d] * dims[d];
      t -= dst_strides[d] * dims[d];
      idx[d] = 0;
    }
    if (d < 0) break;
  }
}

int64_t ReadIndex(const Literal& literal, int64_t linear_index) {
  if (IsUnsignedInteger(literal.shape().element_type())) {
    uint64_t v = literal.GetAsUint64(linear_index);
    return v > static_cast<uint64_t>(INT64_MAX) ? INT64_MAX : static_cast<int64_t>(v);
  }
  return literal.GetAsInt64(linear_index);
}

std::string SpanToString(absl::Span<const int64_t> values) {
  return absl::StrCat("[", absl::StrJoin(values, ","), "]");
}

absl::Status ExpectArray(const Literal& literal, absl::string_view what) {
  if (!literal.shape().IsArray()) {
    return absl::InvalidArgumentError(
        absl::StrCat(what, " must be an array, got ", literal.shape().ToString(false)));
  }
  return absl::OkStatus();
}

absl::Status ExpectDims(const Shape& shape, absl::Span<const int64_t> dims,
                        absl::string_view what) {
  if (!std::equal(shape.dimensions().begin(), shape.dimensions().end(), dims.begin(), dims.end())) {
    return absl::InvalidArgumentError(absl::StrCat(what, " has dimensions ",
                                                   SpanToString(shape.dimensions()), ", expected ",
                                                   SpanToString(dims)));
  }
  return absl::OkStatus();
}

absl::StatusOr<const Literal*> ScalarResultPart(const Literal& result, size_t i, size_t n,
                                                PrimitiveType type) {
  const Literal* part = &result;
  if (n != 1 || result.shape().IsTuple()) {
    if (!result.shape().IsTuple() || result.tuple_elements().size() != n) {
      return absl::InvalidArgumentError(absl::StrCat("called computation returned ",
                                                     result.shape().ToString(false),
                                                     ", expected a tuple of ", n, " scalars"));
    }
    part = &result.tuple_element(static_cast<int64_t>(i));
  }
  if (!part->shape().IsArray() || part->shape().rank() != 0 ||
      part->shape().element_type() != type) {
    return absl::InvalidArgumentError(absl::StrCat("called computation returned ",
                                                   part->shape().ToString(false), ", expected ",
                                                   PrimitiveTypeName(type), "[]"));
  }
  return part;
}

namespace {

absl::Status ResultMustBeArray(const HloInstruction& instr) {
  if (!instr.shape().IsArray()) {
    return absl::InvalidArgumentError(
        absl::StrCat("result shape ", instr.shape().ToString(), " is not an array"));
  }
  return absl::OkStatus();
}

absl::Status SameElementType(const HloInstruction& instr, const Literal& x) {
  if (instr.shape().element_type() != x.shape().element_type()) {
    return absl::InvalidArgumentError(
        absl::StrCat("result element type ", PrimitiveTypeName(instr.shape().element_type()),
                     " differs from the operand's ", PrimitiveTypeName(x.shape().element_type())));
  }
  return absl::OkStatus();
}

absl::Status CheckDimensionIndex(int64_t d, int64_t rank, absl::string_view what) {
  if (d < 0 || d >= rank) {
    return absl::InvalidArgumentError(
        absl::StrCat(what, " dimension ", d, " is out of range for rank ", rank));
  }
  return absl::OkStatus();
}

std::vector<int64_t> Strides(const Shape& shape) { return RowMajorStrides(shape.dimensions()); }

}  // namespace

absl::Status CheckArrayOp(const HloInstruction& instr, const Literal& x) {
  AOT_RETURN_IF_ERROR(ExpectArray(x, "operand"));
  AOT_RETURN_IF_ERROR(ResultMustBeArray(instr));
  return SameElementType(instr, x);
}

// ---------------------------------------------------------------------------
// Kernels.

absl::StatusOr<Literal> EvalBroadcast(const HloInstruction& instr, const Literal& x) {
  AOT_RETURN_IF_ERROR(CheckArrayOp(instr, x));
  const auto& dims = instr.dimensions();
  const Shape& out_shape = instr.shape();
  if (static_cast<int64_t>(dims.size()) != x.shape().rank()) {
    return absl::InvalidArgumentError(absl::StrCat("broadcast dimensions ", SpanToString(dims),
                                                   " do not match operand rank ",
                                                   x.shape().rank()));
  }
  std::vector<int64_t> src_strides(out_shape.rank(), 0);
  std::vector<int64_t> op_strides = Strides(x.shape());
  for (size_t i = 0; i < dims.size(); ++i) {
    AOT_RETURN_IF_ERROR(CheckDimensionIndex(dims[i], out_shape.rank(), "broadcast"));
    if (out_shape.dimensions(dims[i]) != x.shape().dimensions(i)) {
      return absl::InvalidArgumentError(absl::StrCat(
          "broadcast maps operand dimension ", i, " (size ", x.shape().dimensions(i),
          ") to result dimension ", dims[i], " of size ", out_shape.dimensions(dims[i])));
    }
    if (i > 0 && dims[i] <= dims[i - 1]) {
      return absl::InvalidArgumentError(absl::StrCat("broadcast dimensions ", SpanToString(dims),
                                                     " must be strictly increasing"));
    }
    src_strides[dims[i]] = op_strides[i];
  }
  Literal out(out_shape);
  StridedCopy(x.raw().data(), 0, src_strides, out.raw_data(), 0, Strides(out_shape),
              out_shape.dimensions(), ByteWidth(out_shape.element_type()));
  return out;
}

absl::StatusOr<Literal> EvalReshape(const HloInstruction& instr, const Literal& x) {
  AOT_RETURN_IF_ERROR(ExpectArray(x, "operand"));
  AOT_RETURN_IF_ERROR(ResultMustBeArray(instr));
  const Shape& shape = instr.shape();
  if (instr.opcode() == HloOpcode::kBitcast) {
    // Layouts are logical here, so a bitcast is a reshape (or, when the
    // element type changes, a reinterpretation of the same bytes).
    if (shape.ByteSize() != x.shape().ByteSize()) {
      return absl::InvalidArgumentError(absl::StrCat("bitcast from ", x.shape().ToString(false),
                                                     " to ", shape.ToString(false),
                                                     " changes the size in bytes"));
    }
  } else {
    AOT_RETURN_IF_ERROR(SameElementType(instr, x));
    if (shape.ElementCount() != x.element_count()) {
      return absl::InvalidArgumentError(absl::StrCat("reshape from ", x.shape().ToString(false),
                                                     " to ", shape.ToString(false),
                                                     " changes the element count"));
    }
  }
  Literal out(shape);
  if (!x.raw().empty()) std::memcpy(out.raw_data(), x.raw().data(), x.raw().size());
  return out;
}

absl::StatusOr<Literal> EvalTranspose(const HloInstruction& instr, const Literal& x) {
  AOT_RETURN_IF_ERROR(CheckArrayOp(instr, x));
  const auto& perm = instr.dimensions();
  const int64_t rank = x.shape().rank();
  if (static_cast<int64_t>(perm.size()) != rank || instr.shape().rank() != rank) {
    return absl::InvalidArgumentError(
        absl::StrCat("transpose permutation ", SpanToString(perm), " does not match rank ", rank));
  }
  std::vector<bool> seen(rank, false);
  std::vector<int64_t> op_strides = Strides(x.shape());
  std::vector<int64_t> src_strides(rank);
  for (int64_t i = 0; i < rank; ++i) {
    if (perm[i] < 0 || perm[i] >= rank || seen[perm[i]]) {
      return absl::InvalidArgumentError(
          absl::StrCat("transpose dimensions ", SpanToString(perm), " are not a permutation"));
    }
    seen[perm[i]] = true;
    if (instr.shape().dimensions(i) != x.shape().dimensions(perm[i])) {
      return absl::InvalidArgumentError(absl::StrCat("transpose result dimension ", i, " has size ",
                                                     instr.shape().dimensions(i), ", expected ",
                                                     x.shape().dimensions(perm[i])));
    }
    src_strides[i] = op_strides[perm[i]];
  }
  Literal out(instr.shape());
  StridedCopy(x.raw().data(), 0, src_strides, out.raw_data(), 0, Strides(instr.shape()),
              instr.shape().dimensions(), ByteWidth(x.shape().element_type()));
  return out;
}

absl::StatusOr<Literal> EvalSlice(const HloInstruction& instr, const Literal& x) {
  AOT_RETURN_IF_ERROR(CheckArrayOp(instr, x));
  const auto& slice = instr.attrs().slice;
  const int64_t rank = x.shape().rank();
  if (static_cast<int64_t>(slice.size()) != rank || instr.shape().rank() != rank) {
    return absl::InvalidArgumentError(
        absl::StrCat("slice has ", slice.size(), " dimension specs for an operand of rank ", rank));
  }
  std::vector<int64_t> op_strides = Strides(x.shape());
  std::vector<int64_t> src_strides(rank);
  int64_t offset = 0;
  for (int64_t i = 0; i < rank; ++i) {
    const SliceSpec& sp = slice[i];
    if (sp.start < 0 || sp.start > sp.limit || sp.limit > x.shape().dimensions(i) ||
        sp.stride < 1) {
      return absl::InvalidArgumentError(absl::StrCat("slice [", sp.start, ":", sp.limit, ":",
                                                     sp.stride, "] is invalid for dimension ", i,
                                                     " of size ", x.shape().dimensions(i)));
    }
    int64_t size = (sp.limit - sp.start + sp.stride - 1) / sp.stride;
    if (instr.shape().dimensions(i) != size) {
      return absl::InvalidArgumentError(absl::StrCat("slice result dimension ", i, " has size ",
                                                     instr.shape().dimensions(i), ", expected ",
                                                     size));
    }
    offset += sp.start * op_strides[i];
    src_strides[i] = sp.stride * op_strides[i];
  }
  Literal out(instr.shape());
  StridedCopy(x.raw().data(), offset, src_strides, out.raw_data(), 0, Strides(instr.shape()),
              instr.shape().dimensions(), ByteWidth(x.shape().element_type()));
  return out;
}

namespace {

// Start indices of dynamic-slice / dynamic-update-slice: either one scalar
// operand per dimension (from `first`) or a single rank-1 operand.
absl::StatusOr<std::vector<int64_t>> ReadStartIndices(Operands ops, size_t first, int64_t rank) {
  std::vector<int64_t> starts;
  if (ops.size() == first + 1 && ops[first]->shape().IsArray() && ops[first]->shape().rank() == 1 &&
      rank != 1) {
    const Literal& v = *ops[first];
    if (!IsInteger(v.shape().element_type()) || v.element_count() != rank) {
      return absl::InvalidArgumentError(
          absl::StrCat("start indices ", v.shape().ToString(false), " do not fit rank ", rank));
    }
    for (int64_t i = 0; i < rank; ++i) starts.push_back(ReadIndex(v, i));
    return starts;
  }
  if (static_cast<int64_t>(ops.size() - first) != rank) {
    return absl::InvalidArgumentError(
        absl::StrCat("expected ", rank, " start index operands, got ", ops.size() - first));
  }
  for (size_t i = first; i < ops.size(); ++i) {
    const Literal& v = *ops[i];
    if (!v.shape().IsArray() || !IsInteger(v.shape().element_type()) || v.element_count() != 1) {
      return absl::InvalidArgumentError(absl::StrCat("start index operand ", i,
                                                     " must be an integer scalar, got ",
                                                     v.shape().ToString(false)));
    }
    starts.push_back(ReadIndex(v, 0));
  }
  return starts;
}

}  // namespace

absl::StatusOr<Literal> EvalDynamicSlice(const HloInstruction& instr, Operands ops) {
  if (ops.empty()) return absl::InvalidArgumentError("dynamic-slice has no operand");
  const Literal& x = *ops[0];
  AOT_RETURN_IF_ERROR(CheckArrayOp(instr, x));
  const int64_t rank = x.shape().rank();
  AOT_ASSIGN_OR_RETURN(auto starts, ReadStartIndices(ops, 1, rank));
  std::vector<int64_t> sizes = instr.attrs().dynamic_slice_sizes;
  if (sizes.empty()) sizes = instr.shape().dimensions();
  if (static_cast<int64_t>(sizes.size()) != rank) {
    return absl::InvalidArgumentError(
        absl::StrCat("dynamic_slice_sizes ", SpanToString(sizes), " do not match rank ", rank));
  }
  AOT_RETURN_IF_ERROR(ExpectDims(instr.shape(), sizes, "result"));
  std::vector<int64_t> op_strides = Strides(x.shape());
  int64_t offset = 0;
  for (int64_t i = 0; i < rank; ++i) {
    if (sizes[i] < 0 || sizes[i] > x.shape().dimensions(i)) {
      return absl::InvalidArgumentError(absl::StrCat("slice size ", sizes[i], " exceeds dimension ",
                                                     i, " of size ", x.shape().dimensions(i)));
    }
    int64_t start = std::clamp<int64_t>(starts[i], 0, x.shape().dimensions(i) - sizes[i]);
    offset += start * op_strides[i];
  }
  Literal out(instr.shape());
  StridedCopy(x.raw().data(), offset, op_strides, out.raw_data(), 0, Strides(instr.shape()), sizes,
              ByteWidth(x.shape().element_type()));
  return out;
}

absl::StatusOr<Literal> EvalDynamicUpdateSlice(const HloInstruction& instr, Operands ops) {
  if (ops.size() < 2) {
    return absl::InvalidArgumentError("dynamic-update-slice needs an operand and an update");
  }
  const Literal& x = *ops[0];
  const Literal& update = *ops[1];
  AOT_RETURN_IF_ERROR(CheckArrayOp(instr, x));
  AOT_RETURN_IF_ERROR(ExpectArray(update, "update"));
  if (update.shape().element_type() != x.shape().element_type()) {
    return absl::InvalidArgumentError("update element type differs from the operand's");
  }
  AOT_RETURN_IF_ERROR(ExpectDims(instr.shape(), x.shape().dimensions(), "result"));
  const int64_t rank = x.shape().rank();
  if (update.shape().rank() != rank) {
    return absl::InvalidArgumentError(
        absl::StrCat("update rank ", update.shape().rank(), " differs from operand rank ", rank));
  }
  AOT_ASSIGN_OR_RETURN(auto starts, ReadStartIndices(ops, 2, rank));
  std::vector<int64_t> out_strides = Strides(x.shape());
  int64_t offset = 0;
  for (int64_t i = 0; i < rank; ++i) {
    if (update.shape().dimensions(i) > x.shape().dimensions(i)) {
      return absl::InvalidArgumentError(
          absl::StrCat("update dimension ", i, " (", update.shape().dimensions(i),
                       ") exceeds the operand's (", x.shape().dimensions(i), ")"));
    }
    int64_t start =
        std::clamp<int64_t>(starts[i], 0, x.shape().dimensions(i) - update.shape().dimensions(i));
    offset += start * out_strides[i];
  }
  Literal out(instr.shape());
  if (!x.raw().empty()) std::memcpy(out.raw_data(), x.raw().data(), x.raw().size());
  StridedCopy(update.raw().data(), 0, Strides(update.shape()), out.raw_data(), offset, out_strides,
              update.shape().dimensions(), ByteWidth(x.shape().element_type()));
  return out;
}

absl::StatusOr<Literal> EvalConcatenate(const HloInstruction& instr, Operands ops) {
  if (ops.empty()) return absl::InvalidArgumentError("concatenate has no operands");
  AOT_RETURN_IF_ERROR(ResultMustBeArray(instr));
  if (instr.dimensions().size() != 1) {
    return absl::InvalidArgumentError("concatenate needs exactly one dimension");
  }
  const int64_t dim = instr.dimensions()[0];
  const Shape& out_shape = instr.shape();
  const int64_t rank = out_shape.rank();
  AOT_RETURN_IF_ERROR(CheckDimensionIndex(dim, rank, "concatenate"));
  int64_t total = 0;
  for (size_t k = 0; k < ops.size(); ++k) {
    const Literal& op = *ops[k];
    AOT_RETURN_IF_ERROR(ExpectArray(op, "operand"));
    AOT_RETURN_IF_ERROR(SameElementType(instr, op));
    if (op.shape().rank() != rank) {
      return absl::InvalidArgumentError(
          absl::StrCat("operand ", k, " has rank ", op.shape().rank(), ", expected ", rank));
    }
    for (int64_t d = 0; d < rank; ++d) {
      if (d != dim && op.shape().dimensions(d) != out_shape.dimensions(d)) {
        return absl::InvalidArgumentError(
            absl::StrCat("operand ", k, " has dimensions ", SpanToString(op.shape().dimensions()),
                         ", incompatible with the result ", SpanToString(out_shape.dimensions())));
      }
    }
    total += op.shape().dimensions(dim);
  }
  if (total != out_shape.dimensions(dim)) {
    return absl::InvalidArgumentError(absl::StrCat("operands add up to ", total,
                                                   " along dimension ", dim, ", result has ",
                                                   out_shape.dimensions(dim)));
  }
  Literal out(out_shape);
  std::vector<int64_t> out_strides = Strides(out_shape);
  const int64_t w = ByteWidth(out_shape.element_type());
  int64_t position = 0;
  for (const Literal* op : ops) {
    StridedCopy(op->raw().data(), 0, Strides(op->shape()), out.raw_data(),
                position * out_strides[dim], out_strides, op->shape().dimensions(), w);
    position += op->shape().dimensions(dim);
  }
  return out;
}

absl::StatusOr<Literal> EvalPad(const HloInstruction& instr, const Literal& x,
                                const Literal& pad_value) {
  AOT_RETURN_IF_ERROR(CheckArrayOp(instr, x));
  AOT_RETURN_IF_ERROR(ExpectArray(pad_value, "padding value"));
  if (pad_value.shape().rank() != 0 ||
      pad_value.shape().element_type() != x.shape().element_type()) {
    return absl::InvalidArgumentError(
        absl::StrCat("padding value must be a ", PrimitiveTypeName(x.shape().element_type()),
                     " scalar, got ", pad_value.shape().ToString(false)));
  }
  if (!instr.attrs().padding_config.has_value()) {
    return absl::InvalidArgumentError("pad has no padding configuration");
  }
  const PaddingConfigProto& config = *instr.attrs().padding_config;
  const int64_t rank = x.shape().rank();
  if (config.dimensions_size() != rank || instr.shape().rank() != rank) {
    return absl::InvalidArgumentError(absl::StrCat("padding configuration has ",
                                                   config.dimensions_size(),
                                                   " dimensions for an operand of rank ", rank));
  }
  const Shape& out_shape = instr.shape();
  std::vector<int64_t> in_strides = Strides(x.shape());
  std::vector<int64_t> out_strides = Strides(out_shape);
  std::vector<int64_t> copy_dims(rank);
  std::vector<int64_t> dst_strides(rank);
  int64_t src_offset = 0;
  int64_t dst_offset = 0;
  for (int64_t d = 0; d < rank; ++d) {
    const auto& pd = config.dimensions(d);
    const int64_t n = x.shape().dimensions(d);
    const int64_t lo = pd.edge_padding_low();
    const int64_t hi = pd.edge_padding_high();
    const int64_t interior = pd.interior_padding();
    if (interior < 0) {
      return absl::InvalidArgumentError(
          absl::StrCat("interior padding ", interior, " of dimension ", d, " is negative"));
    }
    const int64_t size = lo + hi + n + std::max<int64_t>(n - 1, 0) * interior;
    if (size < 0 || size != out_shape.dimensions(d)) {
      return absl::InvalidArgumentError(absl::StrCat("padded dimension ", d, " has size ", size,
                                                     ", result has ", out_shape.dimensions(d)));
    }
    // Operand positions j with 0 <= lo + j * (interior + 1) < size.
    const int64_t step = interior + 1;
    int64_t j_begin = lo >= 0 ? 0 : (-lo + step - 1) / step;
    int64_t j_end = size - lo <= 0 ? 0 : std::min<int64_t>(n, (size - lo + step - 1) / step);
    copy_dims[d] = std::max<int64_t>(j_end - j_begin, 0);
    src_offset += j_begin * in_strides[d];
    dst_offset += (lo + j_begin * step) * out_strides[d];
    dst_strides[d] = step * out_strides[d];
  }
  Literal out(out_shape);
  const int64_t w = ByteWidth(out_shape.element_type());
  const int64_t count = out.element_count();
  for (int64_t i = 0; i < count; ++i) {
    std::memcpy(out.raw_data() + i * w, pad_value.raw().data(), w);
  }
  bool empty = false;
  for (int64_t c : copy_dims) empty |= c == 0;
  if (!empty) {
    StridedCopy(x.raw().data(), src_offset, in_strides, out.raw_data(), dst_offset, dst_strides,
                copy_dims, w);
  }
  return out;
}

absl::StatusOr<Literal> EvalReverse(const HloInstruction& instr, const Literal& x) {
  AOT_RETURN_IF_ERROR(CheckArrayOp(instr, x));
  AOT_RETURN_IF_ERROR(ExpectDims(instr.shape(), x.shape().dimensions(), "result"));
  const int64_t rank = x.shape().rank();
  std::vector<int64_t> src_strides = Strides(x.shape());
  int64_t offset = 0;
  std::vector<bool> reversed(rank, false);
  for (int64_t d : instr.dimensions()) {
    AOT_RETURN_IF_ERROR(CheckDimensionIndex(d, rank, "reverse"));
    if (reversed[d]) continue;
    reversed[d] = true;
    offset += (x.shape().dimensions(d) - 1) * src_strides[d];
    src_strides[d] = -src_strides[d];
  }
  Literal out(instr.shape());
  if (out.element_count() == 0) return out;
  StridedCopy(x.raw().data(), offset, src_strides, out.raw_data(), 0, Strides(instr.shape()),
              x.shape().dimensions(), ByteWidth(x.shape().element_type()));
  return out;
}

absl::StatusOr<Literal> EvalShuffle(const HloInstruction& instr, const Literal& x) {
  AOT_RETURN_IF_ERROR(CheckArrayOp(instr, x));
  AOT_RETURN_IF_ERROR(ExpectDims(instr.shape(), x.shape().dimensions(), "result"));
  AOT_ASSIGN_OR_RETURN(ShuffleAttributes a, ReadShuffleAttributes(instr));
  const std::vector<int64_t>& dims = x.shape().dimensions();
  const std::vector<int64_t> strides = Strides(x.shape());
  const int64_t width = ByteWidth(x.shape().element_type());
  Literal out(instr.shape());
  std::vector<int64_t> index(dims.size(), 0);
  std::vector<int64_t> source;
  for (int64_t i = 0; i < out.element_count(); ++i) {
    ShuffleSource(a, dims, index, source);
    int64_t from = 0;
    for (size_t d = 0; d < dims.size(); ++d) from += source[d] * strides[d];
    std::memcpy(out.raw_data() + i * width, x.raw().data() + from * width, width);
    NextIndex(dims, index);
  }
  return out;
}

absl::StatusOr<Literal> EvalIota(const HloInstruction& instr) {
  AOT_RETURN_IF_ERROR(ResultMustBeArray(instr));
  const Shape& shape = instr.shape();
  if (instr.dimensions().size() != 1) {
    return absl::InvalidArgumentError("iota needs exactly one iota_dimension");
  }
  const int64_t dim = instr.dimensions()[0];
  AOT_RETURN_IF_ERROR(CheckDimensionIndex(dim, shape.rank(), "iota"));
  Literal out(shape);
  const int64_t n = out.element_count();
  const int64_t stride = Strides(shape)[dim];
  const int64_t size = shape.dimensions(dim);
  for (int64_t i = 0; i < n; ++i) out.SetFromInt64(i, (i / stride) % size);
  return out;
}

}  // namespace interpreter_internal
}  // namespace aot
