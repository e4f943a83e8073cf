#include "runtime/thunks/convolution_thunk.h"

#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "runtime/shape_util.h"
#include "support/status_macros.h"

namespace aot {

namespace {

// Bytes the strided view `dims` / `strides` of `width`-byte elements spans
// (the last element's offset plus one); -1 when a product would overflow.
int64_t SpanBytes(const std::vector<int64_t>& dims, const std::vector<int64_t>& strides,
                  int64_t width) {
  constexpr int64_t kLimit = int64_t{1} << 50;
  __int128 last = 0;
  for (size_t i = 0; i < dims.size(); ++i) {
    if (dims[i] == 0) return 0;
    last += static_cast<__int128>(dims[i] - 1) * strides[i];
    if (last > kLimit) return -1;
  }
  __int128 bytes = (last + 1) * width;
  return bytes > kLimit ? -1 : static_cast<int64_t>(bytes);
}

}  // namespace

absl::StatusOr<std::unique_ptr<ConvolutionThunk>> ConvolutionThunk::FromProto(
    ThunkInfoProto info, const ConvolutionThunkProto& c, LoadContext& context) {
  LoadContext::PathScope scope(context, "convolution");
  auto thunk = std::unique_ptr<ConvolutionThunk>(new ConvolutionThunk(std::move(info)));
  AOT_RETURN_IF_ERROR(context.CheckSlice(c.input(), "input"));
  AOT_RETURN_IF_ERROR(context.CheckSlice(c.filter(), "filter"));
  AOT_RETURN_IF_ERROR(context.CheckWritableSlice(c.output(), "output"));
  const PrimitiveType type = c.element_type();
  if (type != F16 && type != BF16 && type != F32 && type != F64) {
    return context.Error("element_type", absl::StrCat(PrimitiveType_Name(type),
                                                      " is not supported by convolution thunks "
                                                      "(F16, BF16, F32, F64)"));
  }
  const int spatial = c.window_strides_size();
  if (spatial < 1 || spatial > 3) {
    return context.Error("window_strides",
                         absl::StrCat("1 to 3 spatial dimensions are supported, got ", spatial));
  }
  if (c.padding_size() != spatial || c.dilations_size() != spatial) {
    return context.Error("", absl::StrCat("window_strides, padding and dilations must each have ",
                                          spatial, " entries (one per spatial dimension)"));
  }
  const int rank = spatial + 2;
  struct Operand {
    const char* name;
    const BufferSliceProto& slice;
    const google::protobuf::RepeatedField<int64_t>& dims;
    const google::protobuf::RepeatedField<int64_t>& strides;
  };
  const int64_t width = runtime_shape::ElementBytes(type);
  for (const Operand& op : {Operand{"input", c.input(), c.input_dims(), c.input_strides()},
                            Operand{"filter", c.filter(), c.filter_dims(), c.filter_strides()},
                            Operand{"output", c.output(), c.output_dims(), c.output_strides()}}) {
    if (op.dims.size() != rank || op.strides.size() != rank) {
      return context.Error(op.name, absl::StrCat("needs ", rank, " dimensions and strides, got ",
                                                 op.dims.size(), " and ", op.strides.size()));
    }
    for (int i = 0; i < rank; ++i) {
      if (op.dims[i] < 0 || op.strides[i] < 0 || op.dims[i] > (int64_t{1} << 31)) {
        return context.Error(op.name, absl::StrCat("dimension ", i, " (", op.dims[i], ", stride ",
                                                   op.strides[i], ") is out of range"));
      }
    }
    std::vector<int64_t> dims(op.dims.begin(), op.dims.end());
    std::vector<int64_t> strides(op.strides.begin(), op.strides.end());
    const int64_t needed = SpanBytes(dims, strides, width);
    if (needed < 0 || needed > op.slice.size()) {
      return context.Error(
          op.name, absl::StrCat("slice of ", op.slice.size(), " bytes is smaller than the ", needed,
                                " bytes its dimensions and strides span"));
    }
  }
  const int64_t groups = c.feature_group_count();
  if (groups < 1 || c.input_dims(1) % groups != 0 || c.filter_dims(0) % groups != 0 ||
      c.input_dims(1) / groups != c.filter_dims(1)) {
    return context.Error("feature_group_count",
                         absl::StrCat(groups, " does not divide the input features ",
                                      c.input_dims(1), " into the filter's ", c.filter_dims(1),
                                      " per group (and its ", c.filter_dims(0), " outputs)"));
  }
  if (c.output_dims(0) != c.input_dims(0) || c.output_dims(1) != c.filter_dims(0)) {
    return context.Error("output_dims", "batch or feature count differs from input and filter");
  }
  for (int i = 0; i < spatial; ++i) {
    const int64_t stride = c.window_strides(i), pad = c.padding(i), dilation = c.dilations(i);
    if (stride < 1 || pad < 0 || dilation < 1) {
      return context.Error(
          "", absl::StrCat("spatial dimension ", i, ": stride ", stride, ", padding ", pad,
                           ", dilation ", dilation, " (stride and dilation >= 1, padding >= 0)"));
    }
    const int64_t window = (c.filter_dims(2 + i) - 1) * dilation + 1;
    const int64_t padded = c.input_dims(2 + i) + 2 * pad;
    const int64_t expected = padded < window ? 0 : (padded - window) / stride + 1;
    if (c.output_dims(2 + i) != expected) {
      return context.Error("output_dims",
                           absl::StrCat("spatial dimension ", i, " is ", c.output_dims(2 + i),
                                        ", the window gives ", expected));
    }
  }
  thunk->input_ = BufferSlice::FromProto(c.input());
  thunk->filter_ = BufferSlice::FromProto(c.filter());
  thunk->output_ = BufferSlice::FromProto(c.output());
  ConvolutionParams& p = thunk->params_;
  p.element_type = type;
  p.input_dims.assign(c.input_dims().begin(), c.input_dims().end());
  p.input_strides.assign(c.input_strides().begin(), c.input_strides().end());
  p.filter_dims.assign(c.filter_dims().begin(), c.filter_dims().end());
  p.filter_strides.assign(c.filter_strides().begin(), c.filter_strides().end());
  p.output_dims.assign(c.output_dims().begin(), c.output_dims().end());
  p.output_strides.assign(c.output_strides().begin(), c.output_strides().end());
  p.window_strides.assign(c.window_strides().begin(), c.window_strides().end());
  p.padding.assign(c.padding().begin(), c.padding().end());
  p.dilations.assign(c.dilations().begin(), c.dilations().end());
  p.feature_group_count = groups;
  if (context.platform() != nullptr) {
    if (absl::Status s = context.platform()->CheckConvolution(p); !s.ok()) {
      return context.Error("", s.message());
    }
  }
  return thunk;
}

absl::Status ConvolutionThunk::Execute(const ExecuteParams& params) const {
  return params.stream->Convolution(params_, params.buffers->Resolve(input_),
                                    params.buffers->Resolve(filter_),
                                    params.buffers->Resolve(output_));
}

ThunkProto ConvolutionThunk::ToProto() const {
  ThunkProto proto = ProtoWithInfo();
  ConvolutionThunkProto* c = proto.mutable_convolution();
  *c->mutable_input() = input_.ToProto();
  *c->mutable_filter() = filter_.ToProto();
  *c->mutable_output() = output_.ToProto();
  ParamsToProto(params_, c);
  return proto;
}

void ConvolutionThunk::ParamsToProto(const ConvolutionParams& p, ConvolutionThunkProto* c) {
  c->set_element_type(p.element_type);
  auto put = [](const std::vector<int64_t>& v, google::protobuf::RepeatedField<int64_t>* out) {
    out->Clear();
    out->Add(v.begin(), v.end());
  };
  put(p.input_dims, c->mutable_input_dims());
  put(p.input_strides, c->mutable_input_strides());
  put(p.filter_dims, c->mutable_filter_dims());
  put(p.filter_strides, c->mutable_filter_strides());
  put(p.output_dims, c->mutable_output_dims());
  put(p.output_strides, c->mutable_output_strides());
  put(p.window_strides, c->mutable_window_strides());
  put(p.padding, c->mutable_padding());
  put(p.dilations, c->mutable_dilations());
  c->set_feature_group_count(p.feature_group_count);
}

}  // namespace aot
