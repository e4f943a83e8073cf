#include "compiler/backend/cudnn_convolution.h"

#include <memory>
#include <vector>

#include "absl/strings/str_cat.h"
#include "compiler/passes/pass_utils.h"

namespace aot {

namespace {

// The element stride of each logical dimension of `shape` in memory.
std::vector<int64_t> ElementStrides(const Shape& shape) {
  std::vector<int64_t> strides(static_cast<size_t>(shape.rank()), 0);
  int64_t stride = 1;
  for (int64_t d : shape.LayoutOrDefault()) {
    strides[static_cast<size_t>(d)] = stride;
    stride *= shape.dimensions(d);
  }
  return strides;
}

// `shape`'s dimensions and strides in the order of `dims`.
void Describe(const Shape& shape, const std::vector<int64_t>& dims, std::vector<int64_t>* extents,
              std::vector<int64_t>* strides) {
  const std::vector<int64_t> all = ElementStrides(shape);
  for (int64_t d : dims) {
    extents->push_back(shape.dimensions(d));
    strides->push_back(all[static_cast<size_t>(d)]);
  }
}

}  // namespace

std::optional<ConvolutionParams> CudnnConvolutionParams(const HloInstruction& conv) {
  if (conv.opcode() != HloOpcode::kConvolution || conv.operand_count() != 2) return std::nullopt;
  const HloAttributes& a = conv.attrs();
  if (!a.window || !a.convolution_dimension_numbers || a.batch_group_count != 1 ||
      a.feature_group_count < 1) {
    return std::nullopt;
  }
  const Shape& out = conv.shape();
  const PrimitiveType type = out.IsArray() ? out.element_type() : PRIMITIVE_TYPE_INVALID;
  if (type != F16 && type != BF16 && type != F32 && type != F64) return std::nullopt;
  for (const HloInstruction* op : conv.operands()) {
    if (!op->shape().IsArray() || op->shape().element_type() != type) return std::nullopt;
  }
  const ConvolutionDimensionNumbersProto& dn = *a.convolution_dimension_numbers;
  const int spatial = a.window->dimensions_size();
  if ((spatial != 2 && spatial != 3) || dn.input_spatial_dimensions_size() != spatial ||
      dn.kernel_spatial_dimensions_size() != spatial ||
      dn.output_spatial_dimensions_size() != spatial) {
    return std::nullopt;
  }
  ConvolutionParams p;
  p.element_type = type;
  p.feature_group_count = a.feature_group_count;
  for (const WindowDimensionProto& w : a.window->dimensions()) {
    if (w.base_dilation() > 1 || w.window_reversal() || w.padding_low() != w.padding_high() ||
        w.padding_low() < 0 || w.stride() < 1 || w.window_dilation() < 1) {
      return std::nullopt;
    }
    p.window_strides.push_back(w.stride());
    p.padding.push_back(w.padding_low());
    p.dilations.push_back(w.window_dilation());
  }
  std::vector<int64_t> in = {dn.input_batch_dimension(), dn.input_feature_dimension()};
  std::vector<int64_t> filter = {dn.kernel_output_feature_dimension(),
                                 dn.kernel_input_feature_dimension()};
  std::vector<int64_t> result = {dn.output_batch_dimension(), dn.output_feature_dimension()};
  for (int i = 0; i < spatial; ++i) {
    in.push_back(dn.input_spatial_dimensions(i));
    filter.push_back(dn.kernel_spatial_dimensions(i));
    result.push_back(dn.output_spatial_dimensions(i));
  }
  Describe(conv.operand(0)->shape(), in, &p.input_dims, &p.input_strides);
  Describe(conv.operand(1)->shape(), filter, &p.filter_dims, &p.filter_strides);
  Describe(out, result, &p.output_dims, &p.output_strides);
  return p;
}

absl::StatusOr<bool> PackCudnnFilters(HloModule* module) {
  return ReplaceInTopLevelComputations(
      module,
      [](HloComputation* computation, NameUniquer& names,
         HloInstruction* conv) -> absl::StatusOr<HloInstruction*> {
        std::optional<ConvolutionParams> params = CudnnConvolutionParams(*conv);
        if (!params || PackedFilterOrder(*params) >= 0) return nullptr;
        const ConvolutionDimensionNumbersProto& dn = *conv->attrs().convolution_dimension_numbers;
        // (O, S..., C) from major to minor: minor_to_major C, S reversed, O.
        std::vector<int64_t> minor_to_major = {dn.kernel_input_feature_dimension()};
        for (int i = dn.kernel_spatial_dimensions_size(); i-- > 0;) {
          minor_to_major.push_back(dn.kernel_spatial_dimensions(i));
        }
        minor_to_major.push_back(dn.kernel_output_feature_dimension());
        HloInstruction* filter = conv->operand(1);
        Shape packed_shape = filter->shape();
        packed_shape.set_minor_to_major(std::move(minor_to_major));
        auto copy = HloInstruction::Create(HloOpcode::kCopy, packed_shape, {filter});
        copy->set_name(names.GetUniqueName(absl::StrCat(conv->name(), ".filter_ohwi")));
        HloInstruction* packed = AddWithNewId(computation, std::move(copy));
        auto replacement = CloneWithOperands(*conv, {conv->operand(0), packed});
        replacement->set_name(names.GetUniqueName(absl::StrCat(conv->name(), ".cudnn")));
        return AddWithNewId(computation, std::move(replacement));
      });
}

}  // namespace aot
