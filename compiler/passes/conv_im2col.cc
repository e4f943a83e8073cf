#include "compiler/passes/conv_im2col.h"

#include <numeric>
#include <vector>

#include "absl/strings/str_cat.h"
#include "compiler/passes/pass_utils.h"
#include "support/status_macros.h"

namespace aot {

namespace {

bool Rewritable(const HloInstruction& conv) {
  if (conv.opcode() != HloOpcode::kConvolution || conv.operand_count() != 2) return false;
  const Shape& out = conv.shape();
  if (!out.IsArray() || (out.element_type() != F32 && out.element_type() != F64)) return false;
  for (const HloInstruction* op : conv.operands()) {
    if (op->shape().element_type() != out.element_type()) return false;
    if (!HasDefaultLayoutEverywhere(op->shape())) return false;
  }
  if (!HasDefaultLayoutEverywhere(out)) return false;
  const HloAttributes& a = conv.attrs();
  if (a.feature_group_count != 1 || a.batch_group_count != 1 || !a.window ||
      !a.convolution_dimension_numbers) {
    return false;
  }
  for (const WindowDimensionProto& w : a.window->dimensions()) {
    if (w.base_dilation() > 1 || w.window_reversal() || w.padding_low() < 0 ||
        w.padding_high() < 0 || w.stride() < 1 || w.window_dilation() < 1) {
      return false;
    }
  }
  const auto& dn = *a.convolution_dimension_numbers;
  if (a.window->dimensions_size() != dn.input_spatial_dimensions_size()) return false;
  // Multiply-adds: output elements times window positions times features.
  int64_t window = 1;
  for (const WindowDimensionProto& w : a.window->dimensions()) window *= w.size();
  const int64_t features = conv.operand(0)->shape().dimensions(dn.input_feature_dimension());
  return out.ElementCount() * window * features >= ConvIm2col::kMinMultiplyAdds;
}

bool IsIdentity(const std::vector<int64_t>& permutation) {
  for (size_t i = 0; i < permutation.size(); ++i) {
    if (permutation[i] != static_cast<int64_t>(i)) return false;
  }
  return true;
}

class Rewriter {
 public:
  Rewriter(HloComputation* computation, NameUniquer* names, const HloInstruction& conv)
      : computation_(computation), names_(*names), conv_(conv) {}

  HloInstruction* Add(HloOpcode opcode, std::vector<int64_t> dims, std::vector<HloInstruction*> ops,
                      absl::string_view suffix) {
    auto h = HloInstruction::Create(
        opcode, WithDefaultLayout(Shape(conv_.shape().element_type(), std::move(dims))), ops);
    h->set_name(names_.GetUniqueName(absl::StrCat(conv_.name(), ".", suffix)));
    return AddWithNewId(computation_, std::move(h));
  }
  // `x` with its dimensions in the order `permutation` (none when it is
  // the identity).
  HloInstruction* Transpose(HloInstruction* x, const std::vector<int64_t>& permutation,
                            absl::string_view suffix) {
    if (IsIdentity(permutation)) return x;
    std::vector<int64_t> dims;
    for (int64_t p : permutation) dims.push_back(x->shape().dimensions(p));
    HloInstruction* t = Add(HloOpcode::kTranspose, dims, {x}, suffix);
    t->mutable_attrs()->dimensions = permutation;
    return t;
  }

  absl::StatusOr<HloInstruction*> Run() {
    const auto& dn = *conv_.attrs().convolution_dimension_numbers;
    const WindowProto& window = *conv_.attrs().window;
    const int64_t spatial = dn.input_spatial_dimensions_size();
    HloInstruction* input = conv_.operand(0);
    HloInstruction* kernel = conv_.operand(1);
    // Input as [N, spatial..., C].
    std::vector<int64_t> in_order = {dn.input_batch_dimension()};
    for (int64_t d : dn.input_spatial_dimensions()) in_order.push_back(d);
    in_order.push_back(dn.input_feature_dimension());
    HloInstruction* x = Transpose(input, in_order, "nhwc");
    const int64_t n = x->shape().dimensions(0);
    const int64_t c = x->shape().dimensions(spatial + 1);
    // Padded.
    bool padded = false;
    PaddingConfigProto padding;
    std::vector<int64_t> padded_dims = x->shape().dimensions();
    for (int64_t d = 0; d < spatial + 2; ++d) {
      auto* pd = padding.add_dimensions();
      if (d >= 1 && d <= spatial) {
        const WindowDimensionProto& w = window.dimensions(d - 1);
        pd->set_edge_padding_low(w.padding_low());
        pd->set_edge_padding_high(w.padding_high());
        padded_dims[d] += w.padding_low() + w.padding_high();
        padded = padded || w.padding_low() != 0 || w.padding_high() != 0;
      }
    }
    if (padded) {
      auto zero =
          HloInstruction::CreateConstant(Literal(Shape::Scalar(conv_.shape().element_type())));
      zero->set_name(names_.GetUniqueName(absl::StrCat(conv_.name(), ".zero")));
      HloInstruction* z = AddWithNewId(computation_, std::move(zero));
      HloInstruction* p = Add(HloOpcode::kPad, padded_dims, {x, z}, "pad");
      p->mutable_attrs()->padding_config = padding;
      x = p;
    }
    // One strided slice per kernel position, row-major over the window.
    std::vector<int64_t> out_spatial;
    for (int64_t d : dn.output_spatial_dimensions()) {
      out_spatial.push_back(conv_.shape().dimensions(d));
    }
    std::vector<int64_t> slice_dims = {n};
    slice_dims.insert(slice_dims.end(), out_spatial.begin(), out_spatial.end());
    slice_dims.push_back(c);
    int64_t positions = 1;
    for (const WindowDimensionProto& w : window.dimensions()) positions *= w.size();
    std::vector<HloInstruction*> slices;
    for (int64_t p = 0; p < positions; ++p) {
      std::vector<SliceSpec> spec(spatial + 2);
      spec[0] = {0, n, 1};
      spec[spatial + 1] = {0, c, 1};
      bool whole = true;
      int64_t rest = p;
      for (int64_t d = spatial - 1; d >= 0; --d) {
        const WindowDimensionProto& w = window.dimensions(d);
        const int64_t k = rest % w.size();
        rest /= w.size();
        const int64_t start = k * w.window_dilation();
        spec[d + 1] = {start, start + (out_spatial[d] - 1) * w.stride() + 1, w.stride()};
        whole = whole && start == 0 && w.stride() == 1 &&
                spec[d + 1].limit == x->shape().dimensions(d + 1);
      }
      if (whole) {
        slices.push_back(x);
        continue;
      }
      HloInstruction* s = Add(HloOpcode::kSlice, slice_dims, {x}, absl::StrCat("window", p));
      s->mutable_attrs()->slice = spec;
      slices.push_back(s);
    }
    HloInstruction* patches = slices[0];
    if (positions > 1) {
      std::vector<int64_t> dims = slice_dims;
      dims.back() = positions * c;
      patches = Add(HloOpcode::kConcatenate, dims, slices, "patches");
      patches->mutable_attrs()->dimensions = {spatial + 1};
    }
    const int64_t m =
        conv_.shape().ElementCount() / conv_.shape().dimensions(dn.output_feature_dimension());
    HloInstruction* lhs = Add(HloOpcode::kReshape, {m, positions * c}, {patches}, "im2col");
    // Kernel as [spatial..., I, O] -> [P*I, O].
    std::vector<int64_t> k_order(dn.kernel_spatial_dimensions().begin(),
                                 dn.kernel_spatial_dimensions().end());
    k_order.push_back(dn.kernel_input_feature_dimension());
    k_order.push_back(dn.kernel_output_feature_dimension());
    HloInstruction* w = Transpose(kernel, k_order, "hwio");
    const int64_t o = kernel->shape().dimensions(dn.kernel_output_feature_dimension());
    HloInstruction* rhs = Add(HloOpcode::kReshape, {positions * c, o}, {w}, "filter");
    HloInstruction* dot = Add(HloOpcode::kDot, {m, o}, {lhs, rhs}, "gemm");
    DotDimensionNumbersProto dot_dn;
    dot_dn.add_lhs_contracting_dimensions(1);
    dot_dn.add_rhs_contracting_dimensions(0);
    dot->mutable_attrs()->dot_dimension_numbers = dot_dn;
    // [N, out..., O], then the output's order.
    std::vector<int64_t> nhwo = slice_dims;
    nhwo.back() = o;
    HloInstruction* y = Add(HloOpcode::kReshape, nhwo, {dot}, "nhwo");
    std::vector<int64_t> out_order(spatial + 2);
    out_order[dn.output_batch_dimension()] = 0;
    for (int64_t i = 0; i < spatial; ++i) out_order[dn.output_spatial_dimensions(i)] = 1 + i;
    out_order[dn.output_feature_dimension()] = spatial + 1;
    return Transpose(y, out_order, "out");
  }

 private:
  HloComputation* computation_;
  NameUniquer& names_;
  const HloInstruction& conv_;
};

}  // namespace

absl::StatusOr<bool> ConvIm2col::Run(HloModule* module) {
  return ReplaceInTopLevelComputations(module,
                                       [](HloComputation* computation, NameUniquer& names,
                                          HloInstruction* conv) -> absl::StatusOr<HloInstruction*> {
                                         if (!Rewritable(*conv)) return nullptr;
                                         return Rewriter(computation, &names, *conv).Run();
                                       });
}

}  // namespace aot
