#include "runtime/thunks/gemm_thunk.h"

#include <algorithm>
#include <limits>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "runtime/shape_util.h"
#include "support/status_macros.h"

namespace aot {

namespace {

// Bytes spanned by `batch` matrices of `elements` elements `stride`
// elements apart; -1 on overflow.
int64_t SpanBytes(int64_t batch, int64_t stride, int64_t elements, int64_t width) {
  constexpr int64_t kLimit = int64_t{1} << 50;
  if (batch > kLimit || stride > kLimit || elements > kLimit) return -1;
  __int128 last = static_cast<__int128>(batch - 1) * stride + elements;
  __int128 bytes = last * width;
  return bytes > kLimit ? -1 : static_cast<int64_t>(bytes);
}

}  // namespace

const std::vector<PrimitiveType>& GemmThunk::SupportedElementTypes() {
  static const std::vector<PrimitiveType> kTypes = {F16, BF16, F32, F64};
  return kTypes;
}

absl::StatusOr<std::unique_ptr<GemmThunk>> GemmThunk::FromProto(ThunkInfoProto info,
                                                                const GemmThunkProto& g,
                                                                LoadContext& context) {
  LoadContext::PathScope scope(context, "gemm");
  auto thunk = std::unique_ptr<GemmThunk>(new GemmThunk(std::move(info)));
  AOT_RETURN_IF_ERROR(context.CheckSlice(g.lhs(), "lhs"));
  AOT_RETURN_IF_ERROR(context.CheckSlice(g.rhs(), "rhs"));
  AOT_RETURN_IF_ERROR(context.CheckWritableSlice(g.output(), "output"));
  const std::vector<PrimitiveType>& types = SupportedElementTypes();
  if (std::find(types.begin(), types.end(), g.element_type()) == types.end()) {
    std::vector<std::string> names;
    for (PrimitiveType t : types) names.push_back(PrimitiveType_Name(t));
    return context.Error("element_type", absl::StrCat(PrimitiveType_Name(g.element_type()),
                                                      " is not supported by GEMM thunks (",
                                                      absl::StrJoin(names, ", "), ")"));
  }
  if (g.batch_size() < 1 || g.m() < 1 || g.n() < 1 || g.k() < 1) {
    return context.Error("", absl::StrCat("batch_size, m, n, k must be >= 1, got ", g.batch_size(),
                                          ", ", g.m(), ", ", g.n(), ", ", g.k()));
  }
  // BLAS (and cuBLAS) take int dimensions and leading dimensions: bound m,
  // n and k before any product of them is formed below, so neither the
  // products nor the narrowing at execution can overflow.
  constexpr int64_t kMaxBlasDimension = std::numeric_limits<int>::max();
  if (g.m() > kMaxBlasDimension || g.n() > kMaxBlasDimension || g.k() > kMaxBlasDimension) {
    return context.Error(
        "", absl::StrCat("m, n, k must be at most ", kMaxBlasDimension, " (BLAS takes int), got ",
                         g.m(), ", ", g.n(), ", ", g.k()));
  }
  if (g.lhs_batch_stride() < 0 || g.rhs_batch_stride() < 0 || g.output_batch_stride() < 0) {
    return context.Error("", "negative batch stride");
  }
  int64_t width = runtime_shape::ElementBytes(g.element_type());
  struct Operand {
    const char* name;
    const BufferSliceProto& slice;
    int64_t stride;
    int64_t elements;
  };
  for (const Operand& op :
       {Operand{"lhs", g.lhs(), g.lhs_batch_stride(), g.m() * g.k()},
        Operand{"rhs", g.rhs(), g.rhs_batch_stride(), g.k() * g.n()},
        Operand{"output", g.output(), g.output_batch_stride(), g.m() * g.n()}}) {
    int64_t needed = SpanBytes(g.batch_size(), op.stride, op.elements, width);
    if (needed < 0 || needed > op.slice.size()) {
      return context.Error(
          op.name, absl::StrCat("slice of ", op.slice.size(), " bytes is smaller than the ", needed,
                                " bytes the GEMM reads or writes"));
    }
  }
  if (g.batch_size() > 1 && g.output_batch_stride() < g.m() * g.n()) {
    return context.Error("output_batch_stride", "output matrices overlap");
  }
  thunk->lhs_ = BufferSlice::FromProto(g.lhs());
  thunk->rhs_ = BufferSlice::FromProto(g.rhs());
  thunk->output_ = BufferSlice::FromProto(g.output());
  GemmParams& p = thunk->params_;
  p.element_type = g.element_type();
  p.batch_size = g.batch_size();
  p.m = g.m();
  p.n = g.n();
  p.k = g.k();
  p.transpose_lhs = g.transpose_lhs();
  p.transpose_rhs = g.transpose_rhs();
  p.alpha = g.alpha();
  p.beta = g.beta();
  p.lhs_batch_stride = g.lhs_batch_stride();
  p.rhs_batch_stride = g.rhs_batch_stride();
  p.output_batch_stride = g.output_batch_stride();
  return thunk;
}

absl::Status GemmThunk::Execute(const ExecuteParams& params) const {
  return params.stream->Gemm(params_, params.buffers->Resolve(lhs_), params.buffers->Resolve(rhs_),
                             params.buffers->Resolve(output_));
}

ThunkProto GemmThunk::ToProto() const {
  ThunkProto proto = ProtoWithInfo();
  GemmThunkProto* g = proto.mutable_gemm();
  *g->mutable_lhs() = lhs_.ToProto();
  *g->mutable_rhs() = rhs_.ToProto();
  *g->mutable_output() = output_.ToProto();
  g->set_element_type(params_.element_type);
  g->set_batch_size(params_.batch_size);
  g->set_m(params_.m);
  g->set_n(params_.n);
  g->set_k(params_.k);
  g->set_transpose_lhs(params_.transpose_lhs);
  g->set_transpose_rhs(params_.transpose_rhs);
  g->set_alpha(params_.alpha);
  g->set_beta(params_.beta);
  g->set_lhs_batch_stride(params_.lhs_batch_stride);
  g->set_rhs_batch_stride(params_.rhs_batch_stride);
  g->set_output_batch_stride(params_.output_batch_stride);
  return proto;
}

}  // namespace aot
