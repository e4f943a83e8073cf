#include "compiler/backend/thunk_emitter.h"

#include <algorithm>
#include <functional>
#include <map>
#include <thread>

#include "absl/strings/ascii.h"
#include "absl/strings/str_cat.h"
#include "compiler/backend/collective_emission.h"
#include "compiler/backend/cudnn_convolution.h"
#include "compiler/hlo/ffi_attributes.h"
#include "compiler/hlo/hlo_computation.h"
#include "runtime/ffi/ffi_registry.h"
#include "runtime/platform/host/thread_pool.h"
#include "runtime/thunks/convolution_thunk.h"
#include "support/status_macros.h"

namespace aot {

namespace {

std::string KernelName(int64_t counter, absl::string_view hlo_name) {
  std::string name = absl::StrCat("k", counter, "_");
  for (char c : hlo_name) {
    name.push_back(absl::ascii_isalnum(static_cast<unsigned char>(c)) ? c : '_');
    if (name.size() >= 60) break;
  }
  return name;
}

ThunkProto NewThunk(const HloInstruction& instr) {
  ThunkProto t;
  t.mutable_info()->set_name(instr.name());
  t.mutable_info()->set_profile_annotation(instr.name());
  return t;
}

bool SameSlice(const BufferSliceProto& a, const BufferSliceProto& b) {
  return a.allocation_index() == b.allocation_index() && a.offset() == b.offset() &&
         a.size() == b.size();
}

}  // namespace

absl::Status CheckSupported(const HloInstruction& instr, PlatformKind platform) {
  switch (instr.opcode()) {
    case HloOpcode::kCustomCall: {
      auto resolved = FfiRegistry::Global().Resolve(instr.attrs().custom_call_target);
      if (!resolved.ok()) {
        return UnimplementedInstruction(
            instr, absl::StrCat("custom-call target '", instr.attrs().custom_call_target,
                                "' is not registered with the runtime's FFI "
                                "registry"));
      }
      return absl::OkStatus();
    }
    case HloOpcode::kOptimizationBarrier:
    case HloOpcode::kGetDimensionSize:
    case HloOpcode::kSetDimensionSize:
    case HloOpcode::kDynamicReshape:
    case HloOpcode::kAddDependency:
    case HloOpcode::kAfterAll:
    case HloOpcode::kDomain:
    case HloOpcode::kCopyStart:
    case HloOpcode::kCopyDone:
    case HloOpcode::kAsyncStart:
    case HloOpcode::kAsyncUpdate:
    case HloOpcode::kAsyncDone:
    case HloOpcode::kMap:
    case HloOpcode::kTopK:
    case HloOpcode::kBatchNormTraining:
    case HloOpcode::kBatchNormInference:
    case HloOpcode::kBatchNormGrad:
    case HloOpcode::kCholesky:
    case HloOpcode::kTriangularSolve:
    case HloOpcode::kScan:
    case HloOpcode::kShuffle:
    case HloOpcode::kScaledDot:
    case HloOpcode::kRng:
      // LowerDynamicDimensions, LowerStaticOpcodes, ExpandCompositeOpcodes and ExpandFactorizations
      // remove them outside fusions (an after-all or async-start whose value
      // is used otherwise stays); the runtime does not read them.
      return UnimplementedInstruction(
          instr,
          "not lowered before emission (inside a fused computation, or its value "
          "is used beyond what the lowering removes)");
    default:
      (void)platform;
      return absl::OkStatus();
  }
}

void ThunkEmitter::EmitCopy(const std::string& name, const BufferSliceProto& from,
                            const BufferSliceProto& to,
                            google::protobuf::RepeatedPtrField<ThunkProto>* out) {
  if (SameSlice(from, to) || from.size() == 0) return;
  ThunkProto* t = out->Add();
  t->mutable_info()->set_name(name);
  t->mutable_info()->set_profile_annotation(name);
  *t->mutable_copy()->mutable_source() = from;
  *t->mutable_copy()->mutable_destination() = to;
}

absl::StatusOr<std::vector<ThunkProto>> ThunkEmitter::EmitEntry(const HloModule& module) {
  google::protobuf::RepeatedPtrField<ThunkProto> thunks;
  AOT_RETURN_IF_ERROR(EmitComputation(*module.entry_computation(), &thunks));
  int i = 0;
  for (const auto& [from, to] : assignment_.output_copies()) {
    EmitCopy(absl::StrCat("output_copy.", i++), from, to, &thunks);
  }
  AOT_RETURN_IF_ERROR(CompilePendingKernels(&thunks));
  return std::vector<ThunkProto>(thunks.begin(), thunks.end());
}

absl::Status ThunkEmitter::EmitComputation(const HloComputation& computation,
                                           google::protobuf::RepeatedPtrField<ThunkProto>* out) {
  for (const HloInstruction* instr : computation.MakeInstructionPostOrder()) {
    AOT_RETURN_IF_ERROR(EmitInstruction(*instr, out));
  }
  return absl::OkStatus();
}

absl::Status ThunkEmitter::EmitInstruction(const HloInstruction& instr,
                                           google::protobuf::RepeatedPtrField<ThunkProto>* out) {
  // Compile() checked every instruction with CheckSupported before emission.
  if (EmitsCollectiveThunk(instr)) {
    AOT_ASSIGN_OR_RETURN(*out->Add(), EmitCollectiveThunk(instr, assignment_));
    return absl::OkStatus();
  }
  switch (instr.opcode()) {
    case HloOpcode::kParameter:
    case HloOpcode::kConstant:
    case HloOpcode::kTuple:
    case HloOpcode::kGetTupleElement:
      return absl::OkStatus();
    case HloOpcode::kBitcast:
    case HloOpcode::kReshape:
      if (!assignment_.DefinesBuffers(instr)) return absl::OkStatus();
      return EmitKernel(instr, out);
    case HloOpcode::kCustomCall:
      return EmitCustomCall(instr, out);
    case HloOpcode::kConvolution:
      if (cudnn_convolutions_ && target_.platform() == PLATFORM_CUDA) {
        std::optional<ConvolutionParams> p = CudnnConvolutionParams(instr);
        if (p && PackedFilterOrder(*p) >= 0) {
          AOT_ASSIGN_OR_RETURN(auto input, assignment_.GetSlice(*instr.operand(0)));
          AOT_ASSIGN_OR_RETURN(auto filter, assignment_.GetSlice(*instr.operand(1)));
          AOT_ASSIGN_OR_RETURN(auto output, assignment_.GetSlice(instr));
          ThunkProto t = NewThunk(instr);
          ConvolutionThunkProto* c = t.mutable_convolution();
          *c->mutable_input() = input;
          *c->mutable_filter() = filter;
          *c->mutable_output() = output;
          ConvolutionThunk::ParamsToProto(*p, c);
          *out->Add() = std::move(t);
          return absl::OkStatus();
        }
      }
      return EmitKernel(instr, out);
    case HloOpcode::kScatter:
      if (ScatterUsesAtomics(instr, target_)) {
        // The kernel applies only the updates, atomically, to an output
        // that already holds the operand.
        AOT_ASSIGN_OR_RETURN(auto from, assignment_.GetSlice(*instr.operand(0)));
        AOT_ASSIGN_OR_RETURN(auto to, assignment_.GetSlice(instr));
        EmitCopy(absl::StrCat(instr.name(), ".operand"), from, to, out);
      }
      return EmitKernel(instr, out);
    case HloOpcode::kWhile:
      return EmitWhile(instr, out);
    case HloOpcode::kConditional:
      return EmitConditional(instr, out);
    case HloOpcode::kCall:
      return UnimplementedInstruction(instr, "calls must be inlined before thunk emission");
    case HloOpcode::kCopy:
      if (instr.shape().IsTuple()) return EmitTupleCopy(instr, out);
      return EmitKernel(instr, out);
    case HloOpcode::kDot: {
      AOT_ASSIGN_OR_RETURN(auto gemm, TryEmitGemm(instr, out));
      if (gemm) return absl::OkStatus();
      return EmitKernel(instr, out);
    }
    default:
      return EmitKernel(instr, out);
  }
}

absl::Status ThunkEmitter::EmitTupleCopy(const HloInstruction& instr,
                                         google::protobuf::RepeatedPtrField<ThunkProto>* out) {
  // A copy of a tuple copies every leaf (HLO values have no sharing to
  // preserve): one copy thunk each.
  AOT_ASSIGN_OR_RETURN(auto from, assignment_.GetLeafSlices(*instr.operand(0)));
  AOT_ASSIGN_OR_RETURN(auto to, assignment_.GetLeafSlices(instr));
  for (size_t i = 0; i < to.size(); ++i) {
    EmitCopy(absl::StrCat(instr.name(), "{", i, "}"), from[i], to[i], out);
  }
  return absl::OkStatus();
}

absl::Status ThunkEmitter::EmitKernel(const HloInstruction& instr,
                                      google::protobuf::RepeatedPtrField<ThunkProto>* out) {
  std::vector<Shape> leaves = instr.shape().FlattenLeaves();
  int64_t elements = 0;
  for (const Shape& s : leaves) elements += s.ElementCount();
  if (elements == 0) return absl::OkStatus();  // nothing to compute
  KernelSpec spec;
  spec.name = KernelName(static_cast<int64_t>(pending_.size()), instr.name());
  spec.instruction = &instr;
  ThunkProto t = NewThunk(instr);
  KernelThunkProto* k = t.mutable_kernel();
  for (const HloInstruction* op : KernelInputs(instr)) {
    if (!op->shape().IsArray()) {
      return UnimplementedInstruction(instr,
                                      absl::StrCat("operand '", op->name(), "' is not an array"));
    }
    spec.input_shapes.push_back(op->shape());
    AOT_ASSIGN_OR_RETURN(auto slice, assignment_.GetSlice(*op));
    *k->add_arguments() = slice;
    k->add_written(false);
  }
  AOT_ASSIGN_OR_RETURN(auto outputs, assignment_.GetLeafSlices(instr));
  for (size_t i = 0; i < leaves.size(); ++i) {
    spec.output_shapes.push_back(leaves[i]);
    *k->add_arguments() = outputs[i];
    k->add_written(true);
  }
  spec.update_in_place = assignment_.UpdatesInPlace(instr) || ScatterUsesAtomics(instr, target_);
  spec.scratch_shapes = KernelScratchShapes(instr);
  std::vector<BufferSliceProto> scratch = assignment_.GetScratchSlices(instr);
  if (scratch.size() != spec.scratch_shapes.size()) {
    return UnimplementedInstruction(instr, "buffer assignment gave the kernel no scratch buffers");
  }
  for (const BufferSliceProto& slice : scratch) {
    *k->add_arguments() = slice;
    k->add_written(true);
  }
  // Compiled later, with the others, in parallel (CompilePendingKernels).
  k->set_kernel_name(spec.name);
  pending_.push_back(std::move(spec));
  *out->Add() = std::move(t);
  return absl::OkStatus();
}

absl::Status ThunkEmitter::CompilePendingKernels(
    google::protobuf::RepeatedPtrField<ThunkProto>* thunks) {
  // Each kernel is its own LLVM context and module, so they compile on
  // separate threads; results are taken in emission order (the same
  // executable whatever the thread count; the first error in that order).
  std::vector<absl::StatusOr<CompiledKernel>> results(pending_.size(),
                                                      absl::InternalError("not compiled"));
  const int64_t threads = std::min<int64_t>(
      static_cast<int64_t>(pending_.size()),
      std::max<int64_t>(1, options_.compile_threads > 0
                               ? options_.compile_threads
                               : static_cast<int64_t>(std::thread::hardware_concurrency())));
  auto compile = [&](int64_t i) { results[i] = CompileKernel(pending_[i], target_, options_); };
  if (threads <= 1) {
    for (size_t i = 0; i < pending_.size(); ++i) compile(static_cast<int64_t>(i));
  } else {
    ThreadPool pool(static_cast<int>(threads - 1));
    pool.ParallelFor(static_cast<int64_t>(pending_.size()), compile);
  }
  std::map<std::string, const CompiledKernel*> by_name;
  for (absl::StatusOr<CompiledKernel>& result : results) {
    AOT_RETURN_IF_ERROR(result);
  }
  for (absl::StatusOr<CompiledKernel>& result : results) kernels_.push_back(*std::move(result));
  for (const CompiledKernel& kernel : kernels_) {
    if (!by_name.emplace(kernel.name, &kernel).second) {
      return absl::InternalError(absl::StrCat("two kernels are named '", kernel.name, "'"));
    }
  }
  pending_.clear();
  // Fill in every kernel thunk, nested sequences included.
  std::function<absl::Status(google::protobuf::RepeatedPtrField<ThunkProto>*)> fill =
      [&](google::protobuf::RepeatedPtrField<ThunkProto>* sequence) -> absl::Status {
    for (ThunkProto& t : *sequence) {
      if (t.has_kernel()) {
        auto it = by_name.find(t.kernel().kernel_name());
        if (it == by_name.end()) {
          return absl::InternalError(
              absl::StrCat("kernel '", t.kernel().kernel_name(), "' was never compiled"));
        }
        *t.mutable_kernel()->mutable_launch_dimensions() = it->second->launch_dimensions;
        *t.mutable_kernel()->mutable_binary() = it->second->binary;
      } else if (t.has_while_loop()) {
        AOT_RETURN_IF_ERROR(fill(t.mutable_while_loop()->mutable_condition()->mutable_thunks()));
        AOT_RETURN_IF_ERROR(fill(t.mutable_while_loop()->mutable_body()->mutable_thunks()));
      } else if (t.has_conditional()) {
        for (auto& branch : *t.mutable_conditional()->mutable_branches()) {
          AOT_RETURN_IF_ERROR(fill(branch.mutable_thunks()));
        }
      }
    }
    return absl::OkStatus();
  };
  return fill(thunks);
}

absl::StatusOr<bool> ThunkEmitter::TryEmitGemm(
    const HloInstruction& instr, google::protobuf::RepeatedPtrField<ThunkProto>* out) {
  const Shape& lhs = instr.operand(0)->shape();
  const Shape& rhs = instr.operand(1)->shape();
  const Shape& result = instr.shape();
  PrimitiveType t = result.element_type();
  const bool low_precision =
      (t == F16 || t == BF16) && low_precision_gemm_ && target_.platform() == PLATFORM_CUDA;
  if ((t != F32 && t != F64 && !low_precision) || lhs.element_type() != t ||
      rhs.element_type() != t) {
    return false;
  }
  if (!lhs.HasDefaultLayout() || !rhs.HasDefaultLayout() || !result.HasDefaultLayout()) {
    return false;
  }
  const DotDimensionNumbersProto& dn = *instr.attrs().dot_dimension_numbers;
  int64_t batch_dims = dn.lhs_batch_dimensions_size();
  for (int64_t i = 0; i < batch_dims; ++i) {
    if (dn.lhs_batch_dimensions(i) != i || dn.rhs_batch_dimensions(i) != i) return false;
  }
  if (dn.lhs_contracting_dimensions_size() != 1 || dn.rhs_contracting_dimensions_size() != 1) {
    return false;
  }
  int64_t lhs_rest = lhs.rank() - batch_dims, rhs_rest = rhs.rank() - batch_dims;
  if (lhs_rest < 1 || lhs_rest > 2 || rhs_rest < 1 || rhs_rest > 2) return false;
  int64_t lc = dn.lhs_contracting_dimensions(0), rc = dn.rhs_contracting_dimensions(0);
  int64_t k = lhs.dimensions(lc);
  int64_t m = lhs_rest == 2 ? lhs.dimensions(lc == batch_dims ? batch_dims + 1 : batch_dims) : 1;
  int64_t n = rhs_rest == 2 ? rhs.dimensions(rc == batch_dims ? batch_dims + 1 : batch_dims) : 1;
  bool transpose_lhs = lhs_rest == 2 && lc == batch_dims;
  bool transpose_rhs = rhs_rest == 2 && rc == batch_dims + 1;
  if (lhs_rest == 1 && lc != batch_dims) return false;
  if (rhs_rest == 1 && rc != batch_dims) return false;
  int64_t batch = 1;
  for (int64_t i = 0; i < batch_dims; ++i) batch *= lhs.dimensions(i);
  // Small products are cheaper as a generated kernel.
  if (m * n * k < 4096 || batch * m * n == 0) return false;
  auto lhs_slice = assignment_.GetSlice(*instr.operand(0));
  auto rhs_slice = assignment_.GetSlice(*instr.operand(1));
  auto out_slice = assignment_.GetSlice(instr);
  AOT_RETURN_IF_ERROR(lhs_slice);
  AOT_RETURN_IF_ERROR(rhs_slice);
  AOT_RETURN_IF_ERROR(out_slice);
  ThunkProto thunk = NewThunk(instr);
  GemmThunkProto* g = thunk.mutable_gemm();
  *g->mutable_lhs() = *lhs_slice;
  *g->mutable_rhs() = *rhs_slice;
  *g->mutable_output() = *out_slice;
  g->set_element_type(t);
  g->set_batch_size(batch);
  g->set_m(m);
  g->set_n(n);
  g->set_k(k);
  g->set_transpose_lhs(transpose_lhs);
  g->set_transpose_rhs(transpose_rhs);
  g->set_alpha(1.0);
  g->set_beta(0.0);
  g->set_lhs_batch_stride(batch > 1 ? m * k : 0);
  g->set_rhs_batch_stride(batch > 1 ? k * n : 0);
  g->set_output_batch_stride(batch > 1 ? m * n : 0);
  *out->Add() = std::move(thunk);
  ++gemm_count_;
  return true;
}

absl::Status ThunkEmitter::EmitCustomCall(const HloInstruction& instr,
                                          google::protobuf::RepeatedPtrField<ThunkProto>* out) {
  ThunkProto t = NewThunk(instr);
  CustomCallThunkProto* c = t.mutable_custom_call();
  c->set_target_name(instr.attrs().custom_call_target);
  c->set_api_version(instr.attrs().custom_call_api_version == 4
                         ? CustomCallThunkProto::API_VERSION_TYPED_FFI
                         : CustomCallThunkProto::API_VERSION_LEGACY);
  for (const HloInstruction* op : instr.operands()) {
    if (!op->shape().IsArray())
      return UnimplementedInstruction(instr, "custom-call operand is a tuple");
    AOT_ASSIGN_OR_RETURN(auto slice, assignment_.GetSlice(*op));
    CustomCallOperandProto* o = c->add_operands();
    *o->mutable_shape() = op->shape().ToProto();
    *o->mutable_slice() = slice;
  }
  AOT_ASSIGN_OR_RETURN(auto results, assignment_.GetLeafSlices(instr));
  std::vector<Shape> leaves = instr.shape().FlattenLeaves();
  for (size_t i = 0; i < leaves.size(); ++i) {
    CustomCallOperandProto* r = c->add_results();
    *r->mutable_shape() = leaves[i].ToProto();
    *r->mutable_slice() = results[i];
  }
  if (c->api_version() == CustomCallThunkProto::API_VERSION_TYPED_FFI) {
    // The attributes by name, as XLA's FFI passes them; the dictionary's
    // text stays in opaque for handlers that read it whole.
    auto attributes = ParseFfiAttributes(instr.attrs().backend_config);
    AOT_RETURN_IF_ERROR_AND(attributes, UnimplementedInstruction(instr, _.message()));
    for (CustomCallAttributeProto& a : *attributes) *c->add_attributes() = std::move(a);
  }
  c->set_opaque(instr.attrs().backend_config);
  *out->Add() = std::move(t);
  return absl::OkStatus();
}

absl::Status ThunkEmitter::EmitWhile(const HloInstruction& instr,
                                     google::protobuf::RepeatedPtrField<ThunkProto>* out) {
  auto state = assignment_.GetLeafSlices(instr);
  AOT_RETURN_IF_ERROR(state);
  AOT_ASSIGN_OR_RETURN(auto init, assignment_.GetLeafSlices(*instr.operand(0)));
  for (size_t i = 0; i < state->size(); ++i) {
    EmitCopy(absl::StrCat(instr.name(), ".init.", i), init[i], (*state)[i], out);
  }
  ThunkProto t = NewThunk(instr);
  WhileThunkProto* w = t.mutable_while_loop();
  std::optional<BufferSliceProto> predicate = assignment_.WhileStaging(instr, -1);
  if (!predicate) return UnimplementedInstruction(instr, "no predicate slice");
  *w->mutable_predicate() = *predicate;
  const HloComputation* cond = instr.while_condition();
  AOT_RETURN_IF_ERROR(EmitComputation(*cond, w->mutable_condition()->mutable_thunks()));
  AOT_ASSIGN_OR_RETURN(auto cond_result, assignment_.GetSlice(*cond->root_instruction()));
  EmitCopy(absl::StrCat(instr.name(), ".predicate"), cond_result, *predicate,
           w->mutable_condition()->mutable_thunks());
  const HloComputation* body = instr.while_body();
  auto* body_thunks = w->mutable_body()->mutable_thunks();
  AOT_RETURN_IF_ERROR(EmitComputation(*body, body_thunks));
  AOT_ASSIGN_OR_RETURN(auto results, assignment_.GetLeafSlices(*body->root_instruction()));
  // Leaves that alias another state leaf go through staging first.
  for (size_t i = 0; i < results.size(); ++i) {
    if (auto staging = assignment_.WhileStaging(instr, static_cast<int64_t>(i))) {
      EmitCopy(absl::StrCat(instr.name(), ".stage.", i), results[i], *staging, body_thunks);
    }
  }
  for (size_t i = 0; i < results.size(); ++i) {
    if (!assignment_.WhileStaging(instr, static_cast<int64_t>(i))) {
      EmitCopy(absl::StrCat(instr.name(), ".update.", i), results[i], (*state)[i], body_thunks);
    }
  }
  for (size_t i = 0; i < results.size(); ++i) {
    if (auto staging = assignment_.WhileStaging(instr, static_cast<int64_t>(i))) {
      EmitCopy(absl::StrCat(instr.name(), ".update.", i), *staging, (*state)[i], body_thunks);
    }
  }
  *out->Add() = std::move(t);
  return absl::OkStatus();
}

absl::Status ThunkEmitter::EmitConditional(const HloInstruction& instr,
                                           google::protobuf::RepeatedPtrField<ThunkProto>* out) {
  AOT_ASSIGN_OR_RETURN(auto selector, assignment_.GetSlice(*instr.operand(0)));
  AOT_ASSIGN_OR_RETURN(auto results, assignment_.GetLeafSlices(instr));
  ThunkProto t = NewThunk(instr);
  ConditionalThunkProto* c = t.mutable_conditional();
  *c->mutable_branch_index() = selector;
  c->set_branch_index_is_bool(instr.operand(0)->shape().element_type() == PRED);
  for (const HloComputation* branch : instr.called_computations()) {
    auto* thunks = c->add_branches()->mutable_thunks();
    AOT_RETURN_IF_ERROR(EmitComputation(*branch, thunks));
    AOT_ASSIGN_OR_RETURN(auto branch_results,
                         assignment_.GetLeafSlices(*branch->root_instruction()));
    for (size_t i = 0; i < results.size(); ++i) {
      EmitCopy(absl::StrCat(instr.name(), ".", branch->name(), ".result.", i), branch_results[i],
               results[i], thunks);
    }
  }
  *out->Add() = std::move(t);
  return absl::OkStatus();
}

}  // namespace aot
