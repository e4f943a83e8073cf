// Data-movement kernels of the HLO evaluator: broadcast, reshape, transpose,
// slice, dynamic-slice, dynamic-update-slice, concatenate, pad, reverse,
// iota, gather, scatter; plus the shared index helpers.

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

// Common preamble: operand is an array, result an array of its type.
absl::Status CheckArrayOp(const HloInstruction& instr, const Literal& x) {
  AOT_RETURN_IF_ERROR(ExpectArray(x, "operand"));
  AOT_RETURN_IF_ERROR(ResultMustBeArray(instr));
  return SameElementType(instr, x);
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

// ---------------------------------------------------------------------------
// Gather and scatter.

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
  const std::vector<int64_t> op_strides = Strides(operand.shape());
  const std::vector<int64_t> out_strides = Strides(out_shape);
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

  const std::vector<int64_t> op_strides = Strides(operand_shape);
  const std::vector<int64_t> upd_strides = Strides(updates_shape);
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
