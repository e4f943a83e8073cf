// Reduction kernels of the HLO evaluator: reduce, reduce-window,
// select-and-scatter, sort.

#include <algorithm>
#include <cstring>
#include <numeric>

#include "absl/strings/str_cat.h"
#include "compiler/interpreter/evaluator_internal.h"
#include "support/status_macros.h"

namespace aot {
namespace interpreter_internal {

namespace {

// A reducer f(acc..., x...) -> acc... over N values of the given types:
// either one native binary op or a ScalarFunction.
class Reducer {
 public:
  static absl::StatusOr<std::unique_ptr<Reducer>> Create(const HloComputation* computation,
                                                         absl::Span<const PrimitiveType> types,
                                                         ComputationCaller& caller,
                                                         absl::string_view role = "to_apply") {
    std::vector<PrimitiveType> params(types.begin(), types.end());
    params.insert(params.end(), types.begin(), types.end());
    AOT_ASSIGN_OR_RETURN(auto function,
                         ScalarFunction::Create(
                             computation, params,
                             std::vector<PrimitiveType>(types.begin(), types.end()), caller, role));
    auto r = std::unique_ptr<Reducer>(new Reducer());
    r->types_.assign(types.begin(), types.end());
    r->function_ = std::move(function);
    r->args_.resize(params.size());
    if (types.size() == 1) {
      auto match = MatchScalarBinary(*computation);
      if (match && match->opcode != HloOpcode::kCompare && match->type == types[0] &&
          match->lhs_param + match->rhs_param == 1 &&
          CheckBinaryOpType(match->opcode, types[0]).ok()) {
        r->binary_ = match;
      }
    }
    return r;
  }

  // When set, the reducer is `binary_->opcode` on (acc, x), or on (x, acc)
  // when lhs_param is 1.
  const std::optional<ScalarBinaryMatch>& binary() const { return binary_; }

  // accs[i] (scalar literals) := f(accs..., element `index` of inputs...).
  absl::Status Step(std::vector<Literal>& accs, absl::Span<const Literal* const> inputs,
                    int64_t index) {
    const size_t n = types_.size();
    for (size_t i = 0; i < n; ++i) {
      args_[i] = accs[i].raw().data();
      args_[n + i] = inputs[i]->raw().data() + index * ByteWidth(types_[i]);
    }
    AOT_RETURN_IF_ERROR(function_->Call(args_.data()));
    for (size_t i = 0; i < n; ++i) {
      std::memcpy(accs[i].raw_data(), function_->result(i), ByteWidth(types_[i]));
    }
    return absl::OkStatus();
  }

 private:
  Reducer() = default;

  std::vector<PrimitiveType> types_;
  std::unique_ptr<ScalarFunction> function_;
  std::vector<const void*> args_;
  std::optional<ScalarBinaryMatch> binary_;
};

// Splits the operands of reduce / reduce-window into N inputs and N inits
// and checks them; returns the element types.
absl::StatusOr<std::vector<PrimitiveType>> CheckInputsAndInits(Operands ops) {
  if (ops.size() < 2 || ops.size() % 2 != 0) {
    return absl::InvalidArgumentError(
        absl::StrCat("expected N inputs and N init values, got ", ops.size(), " operands"));
  }
  const size_t n = ops.size() / 2;
  std::vector<PrimitiveType> types;
  for (size_t i = 0; i < n; ++i) {
    const Literal& in = *ops[i];
    const Literal& init = *ops[n + i];
    AOT_RETURN_IF_ERROR(ExpectArray(in, "input"));
    AOT_RETURN_IF_ERROR(ExpectArray(init, "init value"));
    AOT_RETURN_IF_ERROR(ExpectDims(in.shape(), ops[0]->shape().dimensions(), "input"));
    if (init.shape().rank() != 0 || init.shape().element_type() != in.shape().element_type()) {
      return absl::InvalidArgumentError(absl::StrCat(
          "init value ", i, " must be a ", PrimitiveTypeName(in.shape().element_type()),
          " scalar, got ", init.shape().ToString(false)));
    }
    types.push_back(in.shape().element_type());
  }
  return types;
}

// Checks that the instruction's shape is N arrays of `dims` and `types`
// (a tuple when N > 1).
absl::Status CheckResultArrays(const HloInstruction& instr, absl::Span<const PrimitiveType> types,
                               absl::Span<const int64_t> dims) {
  const Shape& shape = instr.shape();
  std::vector<Shape> leaves = shape.FlattenLeaves();
  bool ok = leaves.size() == types.size() && (types.size() == 1 || shape.IsTuple());
  for (size_t i = 0; ok && i < leaves.size(); ++i) {
    ok = leaves[i].IsArray() && leaves[i].element_type() == types[i] &&
         std::equal(leaves[i].dimensions().begin(), leaves[i].dimensions().end(), dims.begin(),
                    dims.end());
  }
  if (!ok) {
    std::string expected;
    for (size_t i = 0; i < types.size(); ++i) {
      absl::StrAppend(&expected, i > 0 ? ", " : "", PrimitiveTypeName(types[i]),
                      SpanToString(dims));
    }
    return absl::InvalidArgumentError(absl::StrCat(
        "result shape ", shape.ToString(false), " does not match the computed (", expected, ")"));
  }
  return absl::OkStatus();
}

// Wraps N result arrays as the instruction's value.
Literal PackResults(const HloInstruction& instr, std::vector<Literal> results) {
  if (results.size() == 1 && !instr.shape().IsTuple()) {
    results[0].set_layout(instr.shape().minor_to_major());
    return std::move(results[0]);
  }
  return Literal::Tuple(std::move(results));
}

std::vector<Literal> MakeOutputs(absl::Span<const PrimitiveType> types,
                                 absl::Span<const int64_t> dims) {
  std::vector<Literal> outs;
  for (PrimitiveType t : types) {
    outs.emplace_back(Shape(t, std::vector<int64_t>(dims.begin(), dims.end())));
  }
  return outs;
}

// Per output element, the list of (base offset) and the shared list of
// offsets of the elements reduced into it, both in row-major order.
void ReduceOffsets(const Shape& shape, absl::Span<const int64_t> reduced_dims,
                   std::vector<int64_t>& bases, std::vector<int64_t>& offsets,
                   std::vector<int64_t>& out_dims) {
  const std::vector<int64_t> strides = RowMajorStrides(shape.dimensions());
  std::vector<int64_t> kept_dims, kept_sizes, red_sizes, red_strides, kept_strides;
  for (int64_t d = 0; d < shape.rank(); ++d) {
    bool reduced = std::find(reduced_dims.begin(), reduced_dims.end(), d) != reduced_dims.end();
    if (reduced) {
      red_sizes.push_back(shape.dimensions(d));
      red_strides.push_back(strides[d]);
    } else {
      kept_sizes.push_back(shape.dimensions(d));
      kept_strides.push_back(strides[d]);
    }
  }
  out_dims = kept_sizes;
  auto enumerate = [](const std::vector<int64_t>& sizes, const std::vector<int64_t>& strides,
                      std::vector<int64_t>& out) {
    out.clear();
    for (int64_t s : sizes) {
      if (s == 0) return;
    }
    std::vector<int64_t> idx(sizes.size(), 0);
    do {
      int64_t off = 0;
      for (size_t i = 0; i < sizes.size(); ++i) off += idx[i] * strides[i];
      out.push_back(off);
    } while (NextIndex(sizes, idx));
  };
  enumerate(kept_sizes, kept_strides, bases);
  enumerate(red_sizes, red_strides, offsets);
}

}  // namespace

absl::StatusOr<Literal> EvalReduce(const HloInstruction& instr, Operands ops,
                                   ComputationCaller& caller) {
  AOT_ASSIGN_OR_RETURN(auto types, CheckInputsAndInits(ops));
  const size_t n = types.size();
  const Shape& in_shape = ops[0]->shape();
  const auto& dims = instr.dimensions();
  for (size_t i = 0; i < dims.size(); ++i) {
    if (dims[i] < 0 || dims[i] >= in_shape.rank() ||
        std::find(dims.begin(), dims.begin() + i, dims[i]) != dims.begin() + i) {
      return absl::InvalidArgumentError(absl::StrCat("reduce dimensions ", SpanToString(dims),
                                                     " are invalid for rank ", in_shape.rank()));
    }
  }
  std::vector<int64_t> bases, offsets, out_dims;
  ReduceOffsets(in_shape, dims, bases, offsets, out_dims);
  AOT_RETURN_IF_ERROR(CheckResultArrays(instr, types, out_dims));
  AOT_ASSIGN_OR_RETURN(auto reducer, Reducer::Create(instr.to_apply(), types, caller));
  std::vector<Literal> outs = MakeOutputs(types, out_dims);
  absl::Span<const Literal* const> inputs = ops.subspan(0, n);
  absl::Span<const Literal* const> inits = ops.subspan(n, n);

  if (const auto& match = reducer->binary(); match.has_value()) {
    ArrayTypeSwitch(types[0], [&](auto tag) {
      using T = typename decltype(tag)::type;
      const T* in = inputs[0]->data<T>().data();
      T* out = outs[0].data<T>().data();
      const T init = inits[0]->Get<T>(0);
      const bool swapped = match->lhs_param != 0;
      VisitBinaryOp<T>(match->opcode, [&](auto fn) {
        for (size_t o = 0; o < bases.size(); ++o) {
          T acc = init;
          const T* base = in + bases[o];
          if (swapped) {
            for (int64_t off : offsets) acc = fn(base[off], acc);
          } else {
            for (int64_t off : offsets) acc = fn(acc, base[off]);
          }
          out[o] = acc;
        }
      });
    });
    return PackResults(instr, std::move(outs));
  }

  std::vector<Literal> accs;
  for (size_t i = 0; i < n; ++i) accs.push_back(*inits[i]);
  for (size_t o = 0; o < bases.size(); ++o) {
    for (size_t i = 0; i < n; ++i) {
      std::memcpy(accs[i].raw_data(), inits[i]->raw().data(), ByteWidth(types[i]));
    }
    for (int64_t off : offsets) {
      AOT_RETURN_IF_ERROR(reducer->Step(accs, inputs, bases[o] + off));
    }
    for (size_t i = 0; i < n; ++i) {
      const int64_t w = ByteWidth(types[i]);
      std::memcpy(outs[i].raw_data() + o * w, accs[i].raw().data(), w);
    }
  }
  return PackResults(instr, std::move(outs));
}

namespace {

struct WindowGeometry {
  std::vector<int64_t> in_dims;
  std::vector<int64_t> in_strides;
  std::vector<int64_t> out_dims;
  std::vector<int64_t> window_sizes;
  std::vector<int64_t> stride, pad_low, window_dilation, base_dilation;

  // Linear input index of window position `w` of output `out`; -1 when it
  // falls on padding or a base-dilation hole.
  int64_t InputIndex(absl::Span<const int64_t> out, absl::Span<const int64_t> w) const {
    int64_t linear = 0;
    for (size_t d = 0; d < in_dims.size(); ++d) {
      int64_t p = out[d] * stride[d] + w[d] * window_dilation[d] - pad_low[d];
      if (p < 0 || p % base_dilation[d] != 0) return -1;
      int64_t i = p / base_dilation[d];
      if (i >= in_dims[d]) return -1;
      linear += i * in_strides[d];
    }
    return linear;
  }
};

absl::StatusOr<WindowGeometry> MakeWindowGeometry(const HloInstruction& instr,
                                                  const Shape& in_shape) {
  if (!instr.attrs().window.has_value()) {
    return absl::InvalidArgumentError("missing window");
  }
  const WindowProto& window = *instr.attrs().window;
  const int64_t rank = in_shape.rank();
  if (window.dimensions_size() != rank) {
    return absl::InvalidArgumentError(absl::StrCat("window has ", window.dimensions_size(),
                                                   " dimensions for an operand of rank ", rank));
  }
  WindowGeometry g;
  g.in_dims = in_shape.dimensions();
  g.in_strides = RowMajorStrides(in_shape.dimensions());
  for (int64_t d = 0; d < rank; ++d) {
    const WindowDimensionProto& wd = window.dimensions(d);
    int64_t size = wd.size();
    int64_t stride = wd.stride() == 0 ? 1 : wd.stride();
    int64_t wdil = wd.window_dilation() == 0 ? 1 : wd.window_dilation();
    int64_t bdil = wd.base_dilation() == 0 ? 1 : wd.base_dilation();
    if (size < 1 || stride < 1 || wdil < 1 || bdil < 1) {
      return absl::InvalidArgumentError(
          absl::StrCat("window dimension ", d, " has a non-positive size, stride or dilation"));
    }
    int64_t n = g.in_dims[d];
    int64_t dilated_base = n == 0 ? 0 : (n - 1) * bdil + 1;
    int64_t padded = dilated_base + wd.padding_low() + wd.padding_high();
    int64_t dilated_window = (size - 1) * wdil + 1;
    int64_t out = padded < dilated_window ? 0 : (padded - dilated_window) / stride + 1;
    g.out_dims.push_back(out);
    g.window_sizes.push_back(size);
    g.stride.push_back(stride);
    g.pad_low.push_back(wd.padding_low());
    g.window_dilation.push_back(wdil);
    g.base_dilation.push_back(bdil);
  }
  return g;
}

}  // namespace

absl::StatusOr<Literal> EvalReduceWindow(const HloInstruction& instr, Operands ops,
                                         ComputationCaller& caller) {
  AOT_ASSIGN_OR_RETURN(auto types, CheckInputsAndInits(ops));
  const size_t n = types.size();
  AOT_ASSIGN_OR_RETURN(auto geometry, MakeWindowGeometry(instr, ops[0]->shape()));
  const WindowGeometry& g = geometry;
  AOT_RETURN_IF_ERROR(CheckResultArrays(instr, types, g.out_dims));
  AOT_ASSIGN_OR_RETURN(auto reducer, Reducer::Create(instr.to_apply(), types, caller));
  std::vector<Literal> outs = MakeOutputs(types, g.out_dims);
  absl::Span<const Literal* const> inputs = ops.subspan(0, n);
  absl::Span<const Literal* const> inits = ops.subspan(n, n);
  if (outs[0].element_count() == 0) return PackResults(instr, std::move(outs));

  // Offsets of the window positions that hit real elements, per output.
  const int64_t rank = static_cast<int64_t>(g.in_dims.size());
  std::vector<int64_t> out_index(rank, 0);
  std::vector<int64_t> w(rank, 0);
  std::vector<int64_t> hits;
  const bool empty_window =
      std::any_of(g.window_sizes.begin(), g.window_sizes.end(), [](int64_t s) { return s == 0; });
  const auto& match = reducer->binary();
  std::vector<Literal> accs;
  for (size_t i = 0; i < n; ++i) accs.push_back(*inits[i]);
  int64_t o = 0;
  do {
    hits.clear();
    if (!empty_window) {
      std::fill(w.begin(), w.end(), 0);
      do {
        int64_t idx = g.InputIndex(out_index, w);
        if (idx >= 0) hits.push_back(idx);
      } while (NextIndex(g.window_sizes, w));
    }
    if (match.has_value()) {
      ArrayTypeSwitch(types[0], [&](auto tag) {
        using T = typename decltype(tag)::type;
        const T* in = inputs[0]->data<T>().data();
        T acc = inits[0]->Get<T>(0);
        const bool swapped = match->lhs_param != 0;
        VisitBinaryOp<T>(match->opcode, [&](auto fn) {
          for (int64_t h : hits) acc = swapped ? fn(in[h], acc) : fn(acc, in[h]);
        });
        outs[0].Set<T>(o, acc);
      });
    } else {
      for (size_t i = 0; i < n; ++i) {
        std::memcpy(accs[i].raw_data(), inits[i]->raw().data(), ByteWidth(types[i]));
      }
      for (int64_t h : hits) {
        AOT_RETURN_IF_ERROR(reducer->Step(accs, inputs, h));
      }
      for (size_t i = 0; i < n; ++i) {
        const int64_t wd = ByteWidth(types[i]);
        std::memcpy(outs[i].raw_data() + o * wd, accs[i].raw().data(), wd);
      }
    }
    ++o;
  } while (NextIndex(g.out_dims, out_index));
  return PackResults(instr, std::move(outs));
}

absl::StatusOr<Literal> EvalSelectAndScatter(const HloInstruction& instr, Operands ops,
                                             ComputationCaller& caller) {
  const Literal& operand = *ops[0];
  const Literal& source = *ops[1];
  const Literal& init = *ops[2];
  AOT_RETURN_IF_ERROR(ExpectArray(operand, "operand"));
  AOT_RETURN_IF_ERROR(ExpectArray(source, "source"));
  AOT_RETURN_IF_ERROR(ExpectArray(init, "init value"));
  const PrimitiveType type = operand.shape().element_type();
  const PrimitiveType source_type = source.shape().element_type();
  if (init.shape().rank() != 0 || init.shape().element_type() != source_type) {
    return absl::InvalidArgumentError(absl::StrCat("init value must be a ",
                                                   PrimitiveTypeName(source_type), " scalar, got ",
                                                   init.shape().ToString(false)));
  }
  if (!instr.shape().IsArray() || instr.shape().element_type() != source_type ||
      instr.shape().dimensions() != operand.shape().dimensions()) {
    return absl::InvalidArgumentError(absl::StrCat("result shape ", instr.shape().ToString(false),
                                                   " must be the operand's dimensions",
                                                   " with the source's element type"));
  }
  if (instr.called_computations().size() != 2) {
    return absl::InvalidArgumentError("select-and-scatter needs select and scatter computations");
  }
  const HloComputation* select = instr.called_computations()[0];
  const HloComputation* scatter = instr.called_computations()[1];
  AOT_ASSIGN_OR_RETURN(auto geometry, MakeWindowGeometry(instr, operand.shape()));
  const WindowGeometry& g = geometry;
  AOT_RETURN_IF_ERROR(ExpectDims(source.shape(), g.out_dims, "source"));
  if (select == nullptr) return absl::InvalidArgumentError("missing select computation");
  AOT_ASSIGN_OR_RETURN(auto scatter_reducer,
                       Reducer::Create(scatter, {source_type}, caller, "scatter"));
  std::optional<ScalarBinaryMatch> select_match = MatchScalarBinary(*select);
  if (select_match && (select_match->opcode != HloOpcode::kCompare || select_match->type != type ||
                       select_match->lhs_param + select_match->rhs_param != 1)) {
    select_match.reset();
  }
  AOT_ASSIGN_OR_RETURN(auto select_function,
                       ScalarFunction::Create(select, {type, type}, {PRED}, caller, "select"));

  Literal out(instr.shape());
  const int64_t count = out.element_count();
  const int64_t sw = ByteWidth(source_type);
  for (int64_t i = 0; i < count; ++i) {
    std::memcpy(out.raw_data() + i * sw, init.raw().data(), sw);
  }
  if (source.element_count() == 0) return out;

  // select(current_selected, candidate): keep the selected one when true.
  auto keep_selected = [&](int64_t selected, int64_t candidate) -> absl::StatusOr<bool> {
    if (select_match.has_value()) {
      return ArrayTypeSwitch(type, [&](auto tag) {
        using T = typename decltype(tag)::type;
        T a = operand.Get<T>(selected);
        T b = operand.Get<T>(candidate);
        if (select_match->lhs_param != 0) std::swap(a, b);
        return CompareValues<T>(select_match->direction, select_match->total_order, a, b);
      });
    }
    const int64_t w = ByteWidth(type);
    const void* args[2] = {operand.raw().data() + selected * w,
                           operand.raw().data() + candidate * w};
    AOT_RETURN_IF_ERROR(select_function->Call(args));
    bool keep;
    std::memcpy(&keep, select_function->result(0), 1);
    return keep;
  };

  const int64_t rank = static_cast<int64_t>(g.in_dims.size());
  std::vector<int64_t> src_index(rank, 0);
  std::vector<int64_t> w(rank, 0);
  std::vector<Literal> acc;
  acc.emplace_back(Shape::Scalar(source_type));
  const auto& scatter_match = scatter_reducer->binary();
  int64_t s = 0;
  do {
    int64_t selected = -1;
    std::fill(w.begin(), w.end(), 0);
    do {
      int64_t idx = g.InputIndex(src_index, w);
      if (idx < 0) continue;
      if (selected < 0) {
        selected = idx;
        continue;
      }
      AOT_ASSIGN_OR_RETURN(auto keep, keep_selected(selected, idx));
      if (!keep) selected = idx;
    } while (NextIndex(g.window_sizes, w));
    if (selected >= 0) {
      if (scatter_match.has_value()) {
        ArrayTypeSwitch(source_type, [&](auto tag) {
          using T = typename decltype(tag)::type;
          T current = out.Get<T>(selected);
          T value = source.Get<T>(s);
          const bool swapped = scatter_match->lhs_param != 0;
          VisitBinaryOp<T>(scatter_match->opcode, [&](auto fn) {
            out.Set<T>(selected, swapped ? fn(value, current) : fn(current, value));
          });
        });
      } else {
        std::memcpy(acc[0].raw_data(), out.raw().data() + selected * sw, sw);
        const Literal* src_ptr = &source;
        AOT_RETURN_IF_ERROR(scatter_reducer->Step(acc, absl::MakeConstSpan(&src_ptr, 1), s));
        std::memcpy(out.raw_data() + selected * sw, acc[0].raw().data(), sw);
      }
    }
    ++s;
  } while (NextIndex(g.out_dims, src_index));
  return out;
}

absl::StatusOr<Literal> EvalSort(const HloInstruction& instr, Operands ops,
                                 ComputationCaller& caller) {
  if (ops.empty()) return absl::InvalidArgumentError("sort has no operands");
  const size_t n = ops.size();
  std::vector<PrimitiveType> types;
  for (size_t i = 0; i < n; ++i) {
    AOT_RETURN_IF_ERROR(ExpectArray(*ops[i], "operand"));
    AOT_RETURN_IF_ERROR(ExpectDims(ops[i]->shape(), ops[0]->shape().dimensions(), "operand"));
    types.push_back(ops[i]->shape().element_type());
  }
  const Shape& shape = ops[0]->shape();
  AOT_RETURN_IF_ERROR(CheckResultArrays(instr, types, shape.dimensions()));
  if (instr.dimensions().size() != 1 || instr.dimensions()[0] < 0 ||
      instr.dimensions()[0] >= std::max<int64_t>(shape.rank(), 1)) {
    return absl::InvalidArgumentError(absl::StrCat("sort dimension ",
                                                   SpanToString(instr.dimensions()),
                                                   " is invalid for rank ", shape.rank()));
  }
  const HloComputation* comparator = instr.to_apply();
  if (comparator == nullptr) return absl::InvalidArgumentError("sort has no comparator");
  std::vector<Literal> outs = MakeOutputs(types, shape.dimensions());
  if (shape.rank() == 0) {
    for (size_t i = 0; i < n; ++i) outs[i] = *ops[i];
    return PackResults(instr, std::move(outs));
  }
  const int64_t dim = instr.dimensions()[0];
  const int64_t size = shape.dimensions(dim);
  const int64_t stride = RowMajorStrides(shape.dimensions())[dim];
  const int64_t total = shape.ElementCount();
  if (total == 0) return PackResults(instr, std::move(outs));
  const int64_t outer = total / (size * stride);

  std::optional<ScalarBinaryMatch> match = MatchScalarBinary(*comparator);
  if (match &&
      (match->opcode != HloOpcode::kCompare || match->lhs_param / 2 != match->rhs_param / 2 ||
       match->lhs_param == match->rhs_param || types[match->lhs_param / 2] != match->type)) {
    match.reset();
  }
  std::vector<PrimitiveType> arg_types;
  for (PrimitiveType t : types) {
    arg_types.push_back(t);
    arg_types.push_back(t);
  }
  AOT_ASSIGN_OR_RETURN(auto function,
                       ScalarFunction::Create(comparator, arg_types, {PRED}, caller, "comparator"));
  std::vector<const void*> args(2 * n);
  absl::Status error;
  std::vector<int64_t> perm(size);
  std::vector<int64_t> positions(size);
  for (int64_t o = 0; o < outer; ++o) {
    for (int64_t inner = 0; inner < stride; ++inner) {
      const int64_t base = o * size * stride + inner;
      for (int64_t j = 0; j < size; ++j) positions[j] = base + j * stride;
      std::iota(perm.begin(), perm.end(), 0);
      if (match.has_value()) {
        const Literal& keys = *ops[match->lhs_param / 2];
        const bool swapped = match->lhs_param % 2 == 1;
        ArrayTypeSwitch(match->type, [&](auto tag) {
          using T = typename decltype(tag)::type;
          const T* data = keys.data<T>().data();
          std::stable_sort(perm.begin(), perm.end(), [&](int64_t a, int64_t b) {
            T x = data[positions[a]];
            T y = data[positions[b]];
            if (swapped) std::swap(x, y);
            return CompareValues<T>(match->direction, match->total_order, x, y);
          });
        });
      } else {
        std::stable_sort(perm.begin(), perm.end(), [&](int64_t a, int64_t b) {
          if (!error.ok()) return false;
          for (size_t i = 0; i < n; ++i) {
            const int64_t w = ByteWidth(types[i]);
            args[2 * i] = ops[i]->raw().data() + positions[a] * w;
            args[2 * i + 1] = ops[i]->raw().data() + positions[b] * w;
          }
          if (absl::Status s = function->Call(args.data()); !s.ok()) {
            error = s;
            return false;
          }
          bool less;
          std::memcpy(&less, function->result(0), 1);
          return less;
        });
        AOT_RETURN_IF_ERROR(error);
      }
      for (size_t i = 0; i < n; ++i) {
        const int64_t w = ByteWidth(types[i]);
        const uint8_t* src = ops[i]->raw().data();
        uint8_t* dst = outs[i].raw_data();
        for (int64_t j = 0; j < size; ++j) {
          std::memcpy(dst + positions[j] * w, src + positions[perm[j]] * w, w);
        }
      }
    }
  }
  return PackResults(instr, std::move(outs));
}

}  // namespace interpreter_internal
}  // namespace aot
