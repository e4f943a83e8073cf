// Dot and convolution kernels of the HLO evaluator.
//
// Products accumulate in the result type (wrapping for integers); f16 and
// bf16 results accumulate in float and round once at the end, as XLA's CPU
// backend does. Each output element sums its terms sequentially: dot in
// row-major order of the contracting dimensions, convolution over the
// window positions (row-major) and, inside each, the input features.

#include <algorithm>
#include <cstring>

#include "absl/algorithm/container.h"
#include "absl/strings/str_cat.h"
#include "compiler/interpreter/evaluator_internal.h"
#include "support/status_macros.h"

namespace aot {
namespace interpreter_internal {

namespace {

// Calls f(TypeTag<A>) with A the accumulation type of `result_type`.
template <typename F>
decltype(auto) AccumulatorSwitch(PrimitiveType result_type, F&& f) {
  switch (result_type) {
    case F16:
    case BF16:
    case F32:
      return f(TypeTag<float>{});
    case F64:
      return f(TypeTag<double>{});
    default:
      return f(TypeTag<uint64_t>{});  // integers and pred: wrapping sums
  }
}

// The elements of `l` converted to the accumulation type A of
// `result_type`, in row-major order.
template <typename A>
std::vector<A> ToAccumulator(const Literal& l, PrimitiveType result_type) {
  std::vector<A> out(static_cast<size_t>(l.element_count()));
  if constexpr (std::is_floating_point_v<A>) {
    ArrayTypeSwitch(l.shape().element_type(), [&](auto tag) {
      using T = typename decltype(tag)::type;
      const T* in = l.data<T>().data();
      for (size_t i = 0; i < out.size(); ++i) {
        if constexpr (kIsFloat<T>) {
          out[i] = static_cast<A>(Up(in[i]));
        } else {
          out[i] = static_cast<A>(in[i]);
        }
      }
    });
  } else {
    // Integers: convert to the result type first (so narrowing wraps as
    // XLA's convert would), then sign- or zero-extend.
    Literal converted =
        l.shape().element_type() == result_type ? Literal() : ConvertLiteral(l, result_type);
    const Literal& src = l.shape().element_type() == result_type ? l : converted;
    ArrayTypeSwitch(result_type, [&](auto tag) {
      using T = typename decltype(tag)::type;
      const T* in = src.data<T>().data();
      for (size_t i = 0; i < out.size(); ++i) {
        if constexpr (kIsFloat<T>) {
          out[i] = 0;  // unreachable: float results accumulate in float
        } else if constexpr (std::is_signed_v<T>) {
          out[i] = static_cast<uint64_t>(static_cast<int64_t>(in[i]));
        } else {
          out[i] = static_cast<uint64_t>(in[i]);
        }
      }
    });
  }
  return out;
}

// Writes accumulators into a literal of `result_type`.
template <typename A>
void StoreAccumulators(const std::vector<A>& acc, Literal& out) {
  ArrayTypeSwitch(out.shape().element_type(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    T* o = out.data<T>().data();
    for (size_t i = 0; i < acc.size(); ++i) {
      if constexpr (std::is_same_v<T, bool>) {
        o[i] = acc[i] != 0;
      } else if constexpr (kIs16BitFloat<T>) {
        o[i] = T(static_cast<float>(acc[i]));
      } else {
        o[i] = static_cast<T>(acc[i]);
      }
    }
  });
}

// Permutes `data` (of `dims`) so that the dimensions come in `order`.
template <typename A>
std::vector<A> Permute(const std::vector<A>& data, absl::Span<const int64_t> dims,
                       absl::Span<const int64_t> order) {
  std::vector<int64_t> strides = RowMajorStrides(dims);
  std::vector<int64_t> src_strides, out_dims;
  for (int64_t d : order) {
    src_strides.push_back(strides[d]);
    out_dims.push_back(dims[d]);
  }
  std::vector<A> out(data.size());
  if (data.empty()) return out;
  StridedCopy(reinterpret_cast<const uint8_t*>(data.data()), 0, src_strides,
              reinterpret_cast<uint8_t*>(out.data()), 0, RowMajorStrides(out_dims), out_dims,
              sizeof(A));
  return out;
}

absl::Status CheckResultType(const HloInstruction& instr) {
  if (!instr.shape().IsArray()) {
    return absl::InvalidArgumentError(
        absl::StrCat("result shape ", instr.shape().ToString(), " is not an array"));
  }
  return absl::OkStatus();
}

absl::Status CheckOperandTypes(const Literal& lhs, const Literal& rhs, PrimitiveType result_type) {
  for (const Literal* l : {&lhs, &rhs}) {
    AOT_RETURN_IF_ERROR(ExpectArray(*l, "operand"));
    PrimitiveType t = l->shape().element_type();
    // Float results take float (or integer) operands; integer results take
    // integer or pred operands.
    if (!IsFloatingPoint(result_type) && IsFloatingPoint(t)) {
      return absl::InvalidArgumentError(absl::StrCat("a ", PrimitiveTypeName(result_type),
                                                     " result cannot take ", PrimitiveTypeName(t),
                                                     " operands"));
    }
  }
  return absl::OkStatus();
}

}  // namespace

absl::StatusOr<Literal> EvalDot(const HloInstruction& instr, const Literal& lhs,
                                const Literal& rhs) {
  AOT_RETURN_IF_ERROR(CheckResultType(instr));
  const PrimitiveType result_type = instr.shape().element_type();
  AOT_RETURN_IF_ERROR(CheckOperandTypes(lhs, rhs, result_type));
  DotDimensionNumbersProto dn;
  if (instr.attrs().dot_dimension_numbers.has_value()) {
    dn = *instr.attrs().dot_dimension_numbers;
  }
  const Shape& ls = lhs.shape();
  const Shape& rs = rhs.shape();
  std::vector<int64_t> lb(dn.lhs_batch_dimensions().begin(), dn.lhs_batch_dimensions().end());
  std::vector<int64_t> rb(dn.rhs_batch_dimensions().begin(), dn.rhs_batch_dimensions().end());
  std::vector<int64_t> lc(dn.lhs_contracting_dimensions().begin(),
                          dn.lhs_contracting_dimensions().end());
  std::vector<int64_t> rc(dn.rhs_contracting_dimensions().begin(),
                          dn.rhs_contracting_dimensions().end());
  if (lb.size() != rb.size() || lc.size() != rc.size()) {
    return absl::InvalidArgumentError(
        "lhs and rhs differ in the number of batch or contracting dimensions");
  }
  auto free_dims = [](const Shape& s, const std::vector<int64_t>& batch,
                      const std::vector<int64_t>& contracting,
                      absl::string_view side) -> absl::StatusOr<std::vector<int64_t>> {
    std::vector<int> uses(s.rank(), 0);
    for (const auto* list : {&batch, &contracting}) {
      for (int64_t d : *list) {
        if (d < 0 || d >= s.rank() || uses[d]++ > 0) {
          return absl::InvalidArgumentError(
              absl::StrCat(side, " batch/contracting dimensions are invalid for rank ", s.rank()));
        }
      }
    }
    std::vector<int64_t> free;
    for (int64_t d = 0; d < s.rank(); ++d) {
      if (uses[d] == 0) free.push_back(d);
    }
    return free;
  };
  AOT_ASSIGN_OR_RETURN(auto lf, free_dims(ls, lb, lc, "lhs"));
  AOT_ASSIGN_OR_RETURN(auto rf, free_dims(rs, rb, rc, "rhs"));
  int64_t batch = 1, m = 1, n = 1, k = 1;
  std::vector<int64_t> out_dims;
  for (size_t i = 0; i < lb.size(); ++i) {
    if (ls.dimensions(lb[i]) != rs.dimensions(rb[i])) {
      return absl::InvalidArgumentError(absl::StrCat("batch dimension sizes differ: lhs ",
                                                     ls.dimensions(lb[i]), " vs rhs ",
                                                     rs.dimensions(rb[i])));
    }
    batch *= ls.dimensions(lb[i]);
    out_dims.push_back(ls.dimensions(lb[i]));
  }
  for (size_t i = 0; i < lc.size(); ++i) {
    if (ls.dimensions(lc[i]) != rs.dimensions(rc[i])) {
      return absl::InvalidArgumentError(absl::StrCat("contracting dimension sizes differ: lhs ",
                                                     ls.dimensions(lc[i]), " vs rhs ",
                                                     rs.dimensions(rc[i])));
    }
    k *= ls.dimensions(lc[i]);
  }
  for (int64_t d : lf) {
    m *= ls.dimensions(d);
    out_dims.push_back(ls.dimensions(d));
  }
  for (int64_t d : rf) {
    n *= rs.dimensions(d);
    out_dims.push_back(rs.dimensions(d));
  }
  AOT_RETURN_IF_ERROR(ExpectDims(instr.shape(), out_dims, "result"));

  Literal out(instr.shape());
  AccumulatorSwitch(result_type, [&](auto tag) {
    using A = typename decltype(tag)::type;
    std::vector<int64_t> lorder = lb;
    lorder.insert(lorder.end(), lf.begin(), lf.end());
    lorder.insert(lorder.end(), lc.begin(), lc.end());
    std::vector<int64_t> rorder = rb;
    rorder.insert(rorder.end(), rc.begin(), rc.end());
    rorder.insert(rorder.end(), rf.begin(), rf.end());
    const std::vector<A> L = Permute(ToAccumulator<A>(lhs, result_type), ls.dimensions(), lorder);
    const std::vector<A> R = Permute(ToAccumulator<A>(rhs, result_type), rs.dimensions(), rorder);
    std::vector<A> C(static_cast<size_t>(batch * m * n), A{0});
    for (int64_t b = 0; b < batch; ++b) {
      for (int64_t i = 0; i < m; ++i) {
        A* crow = C.data() + (b * m + i) * n;
        const A* lrow = L.data() + (b * m + i) * k;
        for (int64_t p = 0; p < k; ++p) {
          const A a = lrow[p];
          const A* rrow = R.data() + (b * k + p) * n;
          for (int64_t j = 0; j < n; ++j) crow[j] += a * rrow[j];
        }
      }
    }
    StoreAccumulators(C, out);
  });
  return out;
}

namespace {

std::vector<int64_t> RowMajorStrides(const std::vector<int64_t>& dims) {
  std::vector<int64_t> strides(dims.size(), 1);
  for (int64_t d = static_cast<int64_t>(dims.size()) - 2; d >= 0; --d) {
    strides[d] = strides[d + 1] * dims[d + 1];
  }
  return strides;
}

}  // namespace

namespace {

// A dot named after `instr` with `shape` and `dn`: what ragged-dot and
// scaled-dot evaluate through EvalDot.
std::unique_ptr<HloInstruction> DotLike(const HloInstruction& instr, Shape shape,
                                        const DotDimensionNumbersProto& dn) {
  std::unique_ptr<HloInstruction> dot =
      HloInstruction::Create(HloOpcode::kDot, std::move(shape), {});
  dot->set_name(instr.name());
  dot->mutable_attrs()->dot_dimension_numbers = dn;
  return dot;
}

// A ragged contracting dimension r: for group j, lhs with the indices of r
// outside the group's run zeroed, dotted with rhs, is slab j of the result
// (whose leading dimension is the groups).
absl::StatusOr<Literal> EvalRaggedContractingDot(const HloInstruction& instr,
                                                 const RaggedDotAttributes& a, const Literal& lhs,
                                                 const Literal& rhs, const Literal& group_sizes) {
  const std::vector<int64_t>& out_dims = instr.shape().dimensions();
  if (out_dims.empty() || group_sizes.shape().rank() != 1 ||
      group_sizes.shape().dimensions(0) != out_dims[0]) {
    return absl::InvalidArgumentError("ragged-dot: the result must lead with the groups");
  }
  std::vector<int64_t> slab_dims(out_dims.begin() + 1, out_dims.end());
  std::unique_ptr<HloInstruction> dot = DotLike(
      instr, Shape(instr.shape().element_type(), slab_dims), *instr.attrs().dot_dimension_numbers);
  const std::vector<int64_t>& lhs_dims = lhs.shape().dimensions();
  const std::vector<int64_t> lhs_strides = RowMajorStrides(lhs_dims);
  const int64_t r = a.lhs_ragged;
  const int64_t width = ByteWidth(lhs.shape().element_type());
  Literal out(instr.shape());
  int64_t start = 0;
  int64_t at = 0;
  for (int64_t j = 0; j < out_dims[0]; ++j) {
    const int64_t end = start + std::max<int64_t>(group_sizes.GetAsInt64(j), 0);
    Literal masked(Shape(lhs.shape().element_type(), lhs_dims));  // zeros
    for (int64_t k = 0; k < masked.element_count(); ++k) {
      const int64_t coordinate = (k / lhs_strides[r]) % lhs_dims[r];
      if (coordinate >= start && coordinate < end) {
        std::memcpy(masked.raw_data() + k * width, lhs.raw().data() + k * width,
                    static_cast<size_t>(width));
      }
    }
    AOT_ASSIGN_OR_RETURN(Literal slab, EvalDot(*dot, masked, rhs));
    std::memcpy(out.raw_data() + at, slab.raw().data(), slab.raw().size());
    at += static_cast<int64_t>(slab.raw().size());
    start = end;
  }
  return out;
}

}  // namespace

absl::StatusOr<Literal> EvalRaggedDot(const HloInstruction& instr, const Literal& lhs,
                                      const Literal& rhs, const Literal& group_sizes) {
  AOT_ASSIGN_OR_RETURN(RaggedDotAttributes a, ReadRaggedDotAttributes(instr));
  if (!instr.attrs().dot_dimension_numbers.has_value()) {
    return absl::InvalidArgumentError("ragged-dot has no dot dimension numbers");
  }
  const DotDimensionNumbersProto& dn = *instr.attrs().dot_dimension_numbers;
  if (absl::c_linear_search(dn.lhs_batch_dimensions(), a.lhs_ragged)) {
    // A ragged batch dimension: the dot itself.
    return EvalDot(*DotLike(instr, instr.shape(), dn), lhs, rhs);
  }
  if (absl::c_linear_search(dn.lhs_contracting_dimensions(), a.lhs_ragged)) {
    return EvalRaggedContractingDot(instr, a, lhs, rhs, group_sizes);
  }
  if (!a.rhs_group.has_value()) {
    return absl::InvalidArgumentError("a ragged non-contracting dimension needs rhs_group_dims");
  }
  const int64_t g = *a.rhs_group;
  const Shape& rs = rhs.shape();
  // Group j's matrix: rhs without dimension g, at index j of it.
  std::vector<int64_t> group_dims;
  for (int64_t d = 0; d < rs.rank(); ++d) {
    if (d != g) group_dims.push_back(rs.dimensions(d));
  }
  const std::vector<int64_t> rhs_strides = RowMajorStrides(rs.dimensions());
  const std::vector<int64_t> group_strides = RowMajorStrides(group_dims);
  const int64_t width = ByteWidth(rs.element_type());
  // The dot of lhs with one group's matrix.
  std::unique_ptr<HloInstruction> dot =
      DotLike(instr, instr.shape(), a.group_dot_dimension_numbers);
  const int64_t position = a.result_ragged_dimension;
  const std::vector<int64_t>& out_dims = instr.shape().dimensions();
  const std::vector<int64_t> out_strides = RowMajorStrides(out_dims);
  const int64_t out_width = ByteWidth(instr.shape().element_type());
  Literal out(Shape(instr.shape().element_type(), out_dims));  // zeros
  int64_t start = 0;
  for (int64_t j = 0; j < rs.dimensions(g); ++j) {
    const int64_t size = std::max<int64_t>(group_sizes.GetAsInt64(j), 0);
    const int64_t end = start + size;
    Literal matrix(Shape(rs.element_type(), group_dims));
    for (int64_t k = 0; k < matrix.element_count(); ++k) {
      int64_t source = 0, rest = k;
      for (int64_t d = 0, gd = 0; d < rs.rank(); ++d) {
        if (d == g) {
          source += j * rhs_strides[d];
          continue;
        }
        source += (rest / group_strides[gd]) * rhs_strides[d];
        rest %= group_strides[gd];
        ++gd;
      }
      std::memcpy(matrix.raw_data() + k * width, rhs.raw().data() + source * width,
                  static_cast<size_t>(width));
    }
    AOT_ASSIGN_OR_RETURN(Literal product, EvalDot(*dot, lhs, matrix));
    for (int64_t k = 0; k < out.element_count(); ++k) {
      const int64_t coordinate = (k / out_strides[position]) % out_dims[position];
      if (coordinate >= start && coordinate < end) {
        std::memcpy(out.raw_data() + k * out_width, product.raw().data() + k * out_width,
                    static_cast<size_t>(out_width));
      }
    }
    start = end;
  }
  return out;
}

absl::StatusOr<Literal> EvalConvolution(const HloInstruction& instr, const Literal& lhs,
                                        const Literal& rhs) {
  AOT_RETURN_IF_ERROR(CheckResultType(instr));
  const PrimitiveType result_type = instr.shape().element_type();
  AOT_RETURN_IF_ERROR(CheckOperandTypes(lhs, rhs, result_type));
  if (!instr.attrs().convolution_dimension_numbers.has_value()) {
    return absl::InvalidArgumentError("convolution has no dimension numbers");
  }
  const ConvolutionDimensionNumbersProto& dn = *instr.attrs().convolution_dimension_numbers;
  const Shape& ls = lhs.shape();
  const Shape& ks = rhs.shape();
  const Shape& os = instr.shape();
  const int64_t spatial = dn.input_spatial_dimensions_size();
  if (dn.kernel_spatial_dimensions_size() != spatial ||
      dn.output_spatial_dimensions_size() != spatial || ls.rank() != spatial + 2 ||
      ks.rank() != spatial + 2 || os.rank() != spatial + 2) {
    return absl::InvalidArgumentError(absl::StrCat("dimension numbers with ", spatial,
                                                   " spatial dimensions do not fit ranks ",
                                                   ls.rank(), ", ", ks.rank(), " and ", os.rank()));
  }
  auto check_perm = [](int64_t a, int64_t b, const auto& sp, int64_t rank,
                       absl::string_view what) -> absl::Status {
    std::vector<int> uses(rank, 0);
    bool ok = a >= 0 && a < rank && b >= 0 && b < rank;
    if (ok) {
      uses[a]++;
      uses[b]++;
      for (int64_t d : sp) {
        if (d < 0 || d >= rank) {
          ok = false;
          break;
        }
        uses[d]++;
      }
    }
    for (int u : uses) ok = ok && u == 1;
    if (!ok) {
      return absl::InvalidArgumentError(
          absl::StrCat(what, " dimension numbers are not a permutation of the dimensions"));
    }
    return absl::OkStatus();
  };
  AOT_RETURN_IF_ERROR(check_perm(dn.input_batch_dimension(), dn.input_feature_dimension(),
                                 dn.input_spatial_dimensions(), ls.rank(), "input"));
  AOT_RETURN_IF_ERROR(check_perm(dn.kernel_input_feature_dimension(),
                                 dn.kernel_output_feature_dimension(),
                                 dn.kernel_spatial_dimensions(), ks.rank(), "kernel"));
  AOT_RETURN_IF_ERROR(check_perm(dn.output_batch_dimension(), dn.output_feature_dimension(),
                                 dn.output_spatial_dimensions(), os.rank(), "output"));
  const int64_t G = instr.attrs().feature_group_count;
  const int64_t B = instr.attrs().batch_group_count;
  const int64_t N = ls.dimensions(dn.input_batch_dimension());
  const int64_t Cin = ls.dimensions(dn.input_feature_dimension());
  const int64_t Ck = ks.dimensions(dn.kernel_input_feature_dimension());
  const int64_t Cout = ks.dimensions(dn.kernel_output_feature_dimension());
  if (G < 1 || B < 1 || Cin != Ck * G || Cout % G != 0 || Cout % B != 0 || N % B != 0) {
    return absl::InvalidArgumentError(absl::StrCat(
        "feature_group_count ", G, " / batch_group_count ", B, " do not fit input features ", Cin,
        ", kernel input features ", Ck, ", output features ", Cout, ", batch ", N));
  }
  if (os.dimensions(dn.output_batch_dimension()) != N / B ||
      os.dimensions(dn.output_feature_dimension()) != Cout) {
    return absl::InvalidArgumentError(absl::StrCat(
        "result batch/feature sizes ", os.dimensions(dn.output_batch_dimension()), "/",
        os.dimensions(dn.output_feature_dimension()), " should be ", N / B, "/", Cout));
  }
  // Window per spatial dimension.
  std::vector<int64_t> size(spatial), stride(spatial), pad_low(spatial), wdil(spatial),
      bdil(spatial);
  std::vector<bool> reversal(spatial, false);
  const WindowProto* window = instr.attrs().window.has_value() ? &*instr.attrs().window : nullptr;
  if (window != nullptr && window->dimensions_size() != spatial) {
    return absl::InvalidArgumentError(
        absl::StrCat("window has ", window->dimensions_size(), " dimensions, expected ", spatial));
  }
  for (int64_t i = 0; i < spatial; ++i) {
    const int64_t kernel_size = ks.dimensions(dn.kernel_spatial_dimensions(i));
    size[i] = kernel_size;
    stride[i] = wdil[i] = bdil[i] = 1;
    pad_low[i] = 0;
    int64_t pad_high = 0;
    if (window != nullptr) {
      const WindowDimensionProto& wd = window->dimensions(i);
      if (wd.size() != kernel_size) {
        return absl::InvalidArgumentError(absl::StrCat("window size ", wd.size(),
                                                       " of spatial dimension ", i,
                                                       " differs from the kernel's ", kernel_size));
      }
      stride[i] = wd.stride() == 0 ? 1 : wd.stride();
      wdil[i] = wd.window_dilation() == 0 ? 1 : wd.window_dilation();
      bdil[i] = wd.base_dilation() == 0 ? 1 : wd.base_dilation();
      pad_low[i] = wd.padding_low();
      pad_high = wd.padding_high();
      reversal[i] = wd.window_reversal();
    }
    if (stride[i] < 1 || wdil[i] < 1 || bdil[i] < 1) {
      return absl::InvalidArgumentError("window strides and dilations must be positive");
    }
    const int64_t in = ls.dimensions(dn.input_spatial_dimensions(i));
    const int64_t dilated_base = in == 0 ? 0 : (in - 1) * bdil[i] + 1;
    const int64_t padded = dilated_base + pad_low[i] + pad_high;
    const int64_t dilated_window = kernel_size == 0 ? 0 : (kernel_size - 1) * wdil[i] + 1;
    const int64_t expected =
        padded < dilated_window ? 0 : (padded - dilated_window) / stride[i] + 1;
    if (os.dimensions(dn.output_spatial_dimensions(i)) != expected) {
      return absl::InvalidArgumentError(absl::StrCat("result spatial dimension ", i, " has size ",
                                                     os.dimensions(dn.output_spatial_dimensions(i)),
                                                     ", expected ", expected));
    }
  }

  Literal out(os);
  if (out.element_count() == 0) return out;
  const std::vector<int64_t> lstr = RowMajorStrides(ls.dimensions());
  const std::vector<int64_t> kstr = RowMajorStrides(ks.dimensions());
  const int64_t out_features_per_group = Cout / G;
  const int64_t out_features_per_batch_group = Cout / B;
  const int64_t batch_per_group = N / B;
  AccumulatorSwitch(result_type, [&](auto tag) {
    using A = typename decltype(tag)::type;
    const std::vector<A> L = ToAccumulator<A>(lhs, result_type);
    const std::vector<A> K = ToAccumulator<A>(rhs, result_type);
    std::vector<A> C(static_cast<size_t>(out.element_count()), A{0});
    const bool empty_kernel = ks.ElementCount() == 0;
    std::vector<int64_t> out_index(os.rank(), 0);
    std::vector<int64_t> kw(spatial, 0);
    const int64_t lfs = lstr[dn.input_feature_dimension()];
    const int64_t kfs = kstr[dn.kernel_input_feature_dimension()];
    int64_t linear = 0;
    do {
      const int64_t ob = out_index[dn.output_batch_dimension()];
      const int64_t of = out_index[dn.output_feature_dimension()];
      const int64_t group = of / out_features_per_group;
      const int64_t batch_group = of / out_features_per_batch_group;
      const int64_t lhs_batch = batch_group * batch_per_group + ob;
      const int64_t lhs_fixed = lhs_batch * lstr[dn.input_batch_dimension()] + group * Ck * lfs;
      const int64_t k_fixed = of * kstr[dn.kernel_output_feature_dimension()];
      A acc = 0;
      if (!empty_kernel) {
        std::fill(kw.begin(), kw.end(), 0);
        do {
          int64_t loff = lhs_fixed;
          int64_t koff = k_fixed;
          bool valid = true;
          for (int64_t i = 0; i < spatial; ++i) {
            const int64_t p = out_index[dn.output_spatial_dimensions(i)] * stride[i] +
                              kw[i] * wdil[i] - pad_low[i];
            if (p < 0 || p % bdil[i] != 0) {
              valid = false;
              break;
            }
            const int64_t li = p / bdil[i];
            if (li >= ls.dimensions(dn.input_spatial_dimensions(i))) {
              valid = false;
              break;
            }
            loff += li * lstr[dn.input_spatial_dimensions(i)];
            const int64_t ki = reversal[i] ? size[i] - 1 - kw[i] : kw[i];
            koff += ki * kstr[dn.kernel_spatial_dimensions(i)];
          }
          if (!valid) continue;
          for (int64_t z = 0; z < Ck; ++z) acc += L[loff + z * lfs] * K[koff + z * kfs];
        } while (NextIndex(size, kw));
      }
      C[linear++] = acc;
    } while (NextIndex(os.dimensions(), out_index));
    StoreAccumulators(C, out);
  });
  return out;
}

absl::StatusOr<Literal> EvalScaledDot(const HloInstruction& instr, Operands ops) {
  AOT_RETURN_IF_ERROR(CheckResultType(instr));
  const PrimitiveType t = instr.shape().element_type();
  std::vector<Literal> dequantized;
  for (int k = 0; k < 2; ++k) {
    const Literal& x = *ops[k];
    const Literal& scale = *ops[k + 2];
    AOT_RETURN_IF_ERROR(ExpectArray(x, "operand"));
    AOT_RETURN_IF_ERROR(ExpectArray(scale, "scale"));
    const std::vector<int64_t>& xd = x.shape().dimensions();
    const std::vector<int64_t>& sd = scale.shape().dimensions();
    bool blocks = xd.size() == sd.size();
    for (size_t d = 0; blocks && d < xd.size(); ++d) blocks = sd[d] > 0 && xd[d] % sd[d] == 0;
    if (!blocks) {
      return absl::InvalidArgumentError(absl::StrCat("scale ", scale.shape().ToString(false),
                                                     " does not divide ", x.shape().ToString(false),
                                                     " into blocks"));
    }
    const std::vector<int64_t> x_strides = RowMajorStrides(xd);
    const std::vector<int64_t> s_strides = RowMajorStrides(sd);
    Literal out(Shape(t, xd));
    for (int64_t i = 0; i < out.element_count(); ++i) {
      int64_t at = 0;
      for (size_t d = 0; d < xd.size(); ++d) {
        const int64_t coordinate = (i / x_strides[d]) % xd[d];
        at += coordinate / (xd[d] / sd[d]) * s_strides[d];
      }
      // Each value rounded to t on its own, then their product rounded
      // once: two values of t multiply exactly in double.
      out.SetFromDouble(i, x.GetAsDouble(i));
      const double value = out.GetAsDouble(i);
      out.SetFromDouble(i, scale.GetAsDouble(at));
      out.SetFromDouble(i, value * out.GetAsDouble(i));
    }
    dequantized.push_back(std::move(out));
  }
  std::unique_ptr<HloInstruction> dot =
      DotLike(instr, instr.shape(),
              instr.attrs().dot_dimension_numbers.value_or(DotDimensionNumbersProto()));
  dot->mutable_attrs()->operand_precision = instr.attrs().operand_precision;
  return EvalDot(*dot, dequantized[0], dequantized[1]);
}

}  // namespace interpreter_internal
}  // namespace aot
