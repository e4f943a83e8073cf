#include "compiler/codegen/kernel_emitter.h"

#include "compiler/codegen/kernel_emitter_internal.h"
#include "support/status_macros.h"

namespace aot {

std::vector<const HloInstruction*> KernelInputs(const HloInstruction& instruction) {
  std::vector<const HloInstruction*> inputs;
  for (const HloInstruction* op : instruction.operands()) inputs.push_back(op);
  return inputs;
}

std::vector<Shape> KernelScratchShapes(const HloInstruction& instruction) {
  if (instruction.opcode() != HloOpcode::kSort || instruction.dimensions().empty()) return {};
  const Shape& operand = instruction.operand(0)->shape();
  if (operand.dimensions(instruction.dimensions()[0]) <= kSortMergeMinLength) return {};
  return instruction.shape().FlattenLeaves();
}

namespace kernel_internal {

absl::Status KernelBuilder::Build() {
  AOT_RETURN_IF_ERROR(ConfigureModuleForTarget(*module_, target_));
  CreateFunction();
  const HloInstruction& instr = *spec_.instruction;
  // Input arrays.
  for (size_t i = 0; i < spec_.input_shapes.size(); ++i) {
    inputs_.emplace_back(arg_ptrs_[i], spec_.input_shapes[i]);
  }
  for (size_t i = 0; i < spec_.output_shapes.size(); ++i) {
    outputs_.emplace_back(arg_ptrs_[spec_.input_shapes.size() + i], spec_.output_shapes[i]);
  }
  for (size_t i = 0; i < spec_.scratch_shapes.size(); ++i) {
    scratch_.emplace_back(arg_ptrs_[spec_.input_shapes.size() + spec_.output_shapes.size() + i],
                          spec_.scratch_shapes[i]);
  }
  // Which instructions are inputs: fused parameters of a fusion, or the
  // operands of an unfused op.
  const HloInstruction* root = &instr;
  if (instr.opcode() == HloOpcode::kFusion) {
    const HloComputation* fused = instr.called_computations()[0];
    root = fused->root_instruction();
    for (const HloInstruction* p : fused->parameter_instructions()) {
      input_index_[p] = p->parameter_number();
    }
  } else {
    for (int64_t i = 0; i < instr.operand_count(); ++i) {
      input_index_.emplace(instr.operand(i), i);
    }
  }
  emitter_ = std::make_unique<ElementalEmitter>(
      &b_, module_.get(), gpu_ ? ElementalEmitter::Device::kGpu : ElementalEmitter::Device::kHost,
      [this](const HloInstruction& h) {
        return input_index_.count(&h) > 0 || materialized_.count(&h) > 0;
      },
      [this](const HloInstruction& h, const IrIndex& index) -> absl::StatusOr<llvm::Value*> {
        if (auto it = materialized_.find(&h); it != materialized_.end()) {
          return it->second(index);
        }
        return inputs_[input_index_.at(&h)].Load(b_, index);
      });
  absl::Status status;
  switch (root->opcode()) {
    case HloOpcode::kSort:
      status = EmitSort(*root);
      break;
    case HloOpcode::kScatter:
      status = EmitScatter(*root);
      break;
    case HloOpcode::kSelectAndScatter:
      status = EmitSelectAndScatter(*root);
      break;
    case HloOpcode::kRngGetAndUpdateState:
      status = EmitRngGetAndUpdateState(*root);
      break;
    case HloOpcode::kDynamicUpdateSlice:
      if (spec_.update_in_place) {
        status = EmitDynamicUpdateSliceInPlace(*root);
        break;
      }
      [[fallthrough]];
    default: {
      AOT_ASSIGN_OR_RETURN(bool emitted,
                           gpu_ ? EmitGpuRowReduction(*root) : EmitHostRowReduction(*root));
      if (emitted) break;
      if (gpu_) {
        AOT_ASSIGN_OR_RETURN(emitted, EmitGpuColumnReduction(*root));
        if (emitted) break;
      } else {
        AOT_ASSIGN_OR_RETURN(emitted, EmitHostColumnReduction(*root));
        if (emitted) break;
        AOT_ASSIGN_OR_RETURN(emitted, EmitHostTiledTranspose(instr, *root));
        if (emitted) break;
        AOT_ASSIGN_OR_RETURN(emitted, EmitHostConcatenateRows(*root));
        if (emitted) break;
      }
      status = EmitElementParallel(*root);
      break;
    }
  }
  AOT_RETURN_IF_ERROR(status);
  b_.CreateRetVoid();
  return absl::OkStatus();
}

void KernelBuilder::CreateFunction() {
  size_t arity =
      spec_.input_shapes.size() + spec_.output_shapes.size() + spec_.scratch_shapes.size();
  llvm::Type* ptr = b_.getPtrTy();
  if (gpu_) {
    std::vector<llvm::Type*> params(arity, ptr);
    fn_ = llvm::Function::Create(llvm::FunctionType::get(b_.getVoidTy(), params, false),
                                 llvm::GlobalValue::ExternalLinkage, spec_.name, module_.get());
    fn_->setCallingConv(llvm::CallingConv::PTX_Kernel);
    llvm::NamedMDNode* annotations = module_->getOrInsertNamedMetadata("nvvm.annotations");
    annotations->addOperand(llvm::MDNode::get(
        context_, {llvm::ValueAsMetadata::get(fn_), llvm::MDString::get(context_, "kernel"),
                   llvm::ValueAsMetadata::get(b_.getInt32(1))}));
    llvm::BasicBlock* entry = llvm::BasicBlock::Create(context_, "entry", fn_);
    b_.SetInsertPoint(entry);
    for (size_t i = 0; i < arity; ++i) arg_ptrs_.push_back(fn_->getArg(static_cast<unsigned>(i)));
    auto sreg = [&](llvm::Intrinsic::ID id) {
      return b_.CreateZExt(b_.CreateIntrinsic(id, {}, {}), b_.getInt64Ty());
    };
    llvm::Value* ctaid = sreg(llvm::Intrinsic::nvvm_read_ptx_sreg_ctaid_x);
    llvm::Value* ntid = sreg(llvm::Intrinsic::nvvm_read_ptx_sreg_ntid_x);
    llvm::Value* tid = sreg(llvm::Intrinsic::nvvm_read_ptx_sreg_tid_x);
    block_ = ctaid;
    thread_ = tid;
    threads_ = ntid;
  } else {
    fn_ = llvm::Function::Create(llvm::FunctionType::get(b_.getVoidTy(), {ptr}, false),
                                 llvm::GlobalValue::ExternalLinkage, spec_.name, module_.get());
    fn_->addFnAttr(llvm::Attribute::NoUnwind);
    fn_->addFnAttr("target-cpu", target_.llvm_cpu());
    llvm::BasicBlock* entry = llvm::BasicBlock::Create(context_, "entry", fn_);
    b_.SetInsertPoint(entry);
    llvm::Value* frame = fn_->getArg(0);
    // AotHostKernelFrame: {args, block_x, block_y, block_z, grid_x,
    // grid_y, grid_z, threads_x, threads_y, threads_z}.
    llvm::StructType* frame_type =
        llvm::StructType::get(context_, {ptr, b_.getInt64Ty(), b_.getInt64Ty(), b_.getInt64Ty(),
                                         b_.getInt64Ty(), b_.getInt64Ty(), b_.getInt64Ty(),
                                         b_.getInt64Ty(), b_.getInt64Ty(), b_.getInt64Ty()});
    llvm::Value* args = b_.CreateLoad(ptr, b_.CreateStructGEP(frame_type, frame, 0));
    for (size_t i = 0; i < arity; ++i) {
      arg_ptrs_.push_back(b_.CreateLoad(ptr, b_.CreateConstInBoundsGEP1_64(ptr, args, i)));
    }
    block_ = b_.CreateLoad(b_.getInt64Ty(), b_.CreateStructGEP(frame_type, frame, 1));
    threads_ = b_.CreateLoad(b_.getInt64Ty(), b_.CreateStructGEP(frame_type, frame, 7));
    thread_ = nullptr;
    // The ABI's arity symbol.
    new llvm::GlobalVariable(
        *module_, b_.getInt64Ty(), /*isConstant=*/true, llvm::GlobalValue::ExternalLinkage,
        b_.getInt64(static_cast<int64_t>(arity)), absl::StrCat(spec_.name, kHostKernelAritySuffix));
  }
}

KernelBuilder::GpuLimits KernelBuilder::Limits() const {
  const DeviceDescriptionProto& d = target_.device_description();
  GpuLimits l;
  // Whole warps only: a limit below one warp is taken as one warp.
  if (d.threads_per_block_limit() > 0) {
    l.threads_per_block = std::max<int64_t>(32, d.threads_per_block_limit() / 32 * 32);
  }
  if (d.core_count() > 0) l.cores = d.core_count();
  if (d.threads_per_core_limit() > 0) l.threads_per_core = d.threads_per_core_limit();
  if (d.block_dim_limit_x() > 0) l.blocks_x = d.block_dim_limit_x();
  return l;
}

int64_t KernelBuilder::GpuThreads(int64_t wanted) const {
  return std::max<int64_t>(1, std::min(wanted, Limits().threads_per_block));
}

void KernelBuilder::SetElementParallelDims(int64_t n) {
  int64_t per_block = gpu_ ? GpuThreads(kGpuThreadsPerBlock) : kHostThreadsPerBlock;
  int64_t threads = std::max<int64_t>(1, std::min(per_block, n));
  int64_t blocks = std::max<int64_t>(1, (n + threads - 1) / threads);
  if (gpu_) blocks = std::min(blocks, Limits().blocks_x);
  SetDims(blocks, threads);
}

void KernelBuilder::SetDims(int64_t blocks, int64_t threads) {
  dims_.set_block_count_x(blocks);
  dims_.set_block_count_y(1);
  dims_.set_block_count_z(1);
  dims_.set_threads_per_block_x(threads);
  dims_.set_threads_per_block_y(1);
  dims_.set_threads_per_block_z(1);
}

absl::Status KernelBuilder::ForEachElement(int64_t n,
                                           const std::function<absl::Status(llvm::Value*)>& body) {
  llvm::BasicBlock* exit = llvm::BasicBlock::Create(context_, "elements.exit", fn_);
  if (gpu_) {
    llvm::Value* linear = b_.CreateAdd(b_.CreateMul(block_, threads_), thread_);
    const int64_t grid = dims_.block_count_x() * dims_.threads_per_block_x();
    if (grid < n) {  // capped at the target's block limit: a grid-stride loop
      AOT_RETURN_IF_ERROR(emitter_->EmitStridedLoop(linear, n, grid, body));
      b_.CreateBr(exit);
      b_.SetInsertPoint(exit);
      return absl::OkStatus();
    }
    llvm::BasicBlock* work = llvm::BasicBlock::Create(context_, "element", fn_);
    b_.CreateCondBr(b_.CreateICmpULT(linear, b_.getInt64(n)), work, exit);
    b_.SetInsertPoint(work);
    AOT_RETURN_IF_ERROR(body(linear));
    b_.CreateBr(exit);
    b_.SetInsertPoint(exit);
    return absl::OkStatus();
  }
  llvm::Value* start = b_.CreateMul(block_, threads_);
  llvm::Value* limit = b_.CreateAdd(start, threads_);
  llvm::Value* end =
      b_.CreateSelect(b_.CreateICmpULT(limit, b_.getInt64(n)), limit, b_.getInt64(n));
  AOT_RETURN_IF_ERROR(emitter_->EmitRangeLoop(start, end, 1, body));
  b_.CreateBr(exit);
  b_.SetInsertPoint(exit);
  return absl::OkStatus();
}

absl::Status KernelBuilder::Serially(const std::function<absl::Status()>& body) {
  SetDims(1, 1);
  llvm::Value* first = gpu_ ? b_.CreateICmpEQ(b_.CreateAdd(block_, thread_), b_.getInt64(0))
                            : b_.CreateICmpEQ(block_, b_.getInt64(0));
  llvm::BasicBlock* work = llvm::BasicBlock::Create(context_, "serial", fn_);
  llvm::BasicBlock* exit = llvm::BasicBlock::Create(context_, "serial.exit", fn_);
  b_.CreateCondBr(first, work, exit);
  b_.SetInsertPoint(work);
  AOT_RETURN_IF_ERROR(body());
  b_.CreateBr(exit);
  b_.SetInsertPoint(exit);
  return absl::OkStatus();
}

absl::Status KernelBuilder::EmitElementParallel(const HloInstruction& root) {
  if (spec_.output_shapes.empty()) return UnimplementedInstruction(root, "kernel without outputs");
  const Shape& out0 = spec_.output_shapes[0];
  for (const Shape& s : spec_.output_shapes) {
    if (s.dimensions() != out0.dimensions()) return EmitSiblingOutputs(root);
  }
  int64_t n = out0.ElementCount();
  SetElementParallelDims(n);
  Shape logical(out0.element_type(), out0.dimensions());
  return ForEachElement(n, [&](llvm::Value* linear) -> absl::Status {
    IrIndex index = IrIndex::Linear(linear, logical);
    auto values = emitter_->EmitAll(root, index);
    AOT_RETURN_IF_ERROR(values);
    if (values->size() != outputs_.size()) {
      return UnimplementedInstruction(
          root,
          absl::StrCat("produces ", values->size(), " values for ", outputs_.size(), " outputs"));
    }
    for (size_t i = 0; i < outputs_.size(); ++i) outputs_[i].Store(b_, index, (*values)[i]);
    return absl::OkStatus();
  });
}

absl::Status KernelBuilder::EmitSiblingOutputs(const HloInstruction& root) {
  if (root.opcode() != HloOpcode::kTuple ||
      root.operand_count() != static_cast<int64_t>(outputs_.size())) {
    return UnimplementedInstruction(root, "outputs of different dimensions need a flat tuple root");
  }
  std::vector<std::vector<size_t>> groups;  // output indices, by dimensions
  for (size_t i = 0; i < outputs_.size(); ++i) {
    auto same = std::find_if(groups.begin(), groups.end(), [&](const std::vector<size_t>& g) {
      return spec_.output_shapes[g[0]].dimensions() == spec_.output_shapes[i].dimensions();
    });
    if (same == groups.end()) {
      groups.push_back({i});
    } else {
      same->push_back(i);
    }
  }
  int64_t n = 0;
  for (const Shape& s : spec_.output_shapes) n = std::max(n, s.ElementCount());
  SetElementParallelDims(n);
  return ForEachElement(n, [&](llvm::Value* linear) -> absl::Status {
    for (const std::vector<size_t>& group : groups) {
      const Shape& out = spec_.output_shapes[group[0]];
      Shape logical(out.element_type(), out.dimensions());
      auto body = [&]() -> absl::Status {
        IrIndex index = IrIndex::Linear(linear, logical);
        for (size_t i : group) {
          AOT_ASSIGN_OR_RETURN(llvm::Value * v, emitter_->Emit(*root.operand(i), index));
          outputs_[i].Store(b_, index, v);
        }
        return absl::OkStatus();
      };
      llvm::Value* in_range = out.ElementCount() == n
                                  ? b_.getTrue()
                                  : b_.CreateICmpULT(linear, b_.getInt64(out.ElementCount()));
      AOT_RETURN_IF_ERROR(emitter_->EmitIf(in_range, body));
    }
    return absl::OkStatus();
  });
}

absl::Status KernelBuilder::EmitRngGetAndUpdateState(const HloInstruction& instr) {
  AOT_ASSIGN_OR_RETURN(int64_t delta, ReadRngDelta(instr));
  if (spec_.output_shapes.size() != 1 || spec_.output_shapes[0].ElementCount() != 2) {
    return UnimplementedInstruction(instr, "the state is not one u64[2] output");
  }
  SetDims(1, 1);
  llvm::Type* i64 = b_.getInt64Ty();
  llvm::Value* low;
  if (gpu_) {
    // The runtime stores the state's device address here at load.
    auto* holder = new llvm::GlobalVariable(
        *module_, i64, /*isConstant=*/false, llvm::GlobalValue::ExternalLinkage, b_.getInt64(0),
        kCudaRngStatePointerSymbol, nullptr, llvm::GlobalValue::NotThreadLocal, /*AddressSpace=*/1,
        /*isExternallyInitialized=*/true);
    llvm::Value* address = b_.CreateLoad(i64, holder);
    low = b_.CreateIntToPtr(address, b_.getPtrTy());
  } else {
    low = new llvm::GlobalVariable(*module_, llvm::ArrayType::get(i64, 2),
                                   /*isConstant=*/false, llvm::GlobalValue::ExternalLinkage,
                                   nullptr, kHostRngStateSymbol);
  }
  llvm::Value* high = b_.CreateConstInBoundsGEP1_64(i64, low, 1);
  llvm::Value* step = b_.getInt64(static_cast<uint64_t>(delta));
  llvm::Value* old_low = b_.CreateAtomicRMW(llvm::AtomicRMWInst::Add, low, step,
                                            llvm::MaybeAlign(8), llvm::AtomicOrdering::Monotonic);
  llvm::Value* new_low = b_.CreateAdd(old_low, step);
  llvm::Value* carry = b_.CreateZExt(b_.CreateICmpULT(new_low, old_low), i64);
  llvm::Value* old_high = b_.CreateAtomicRMW(llvm::AtomicRMWInst::Add, high, carry,
                                             llvm::MaybeAlign(8), llvm::AtomicOrdering::Monotonic);
  llvm::Value* out = arg_ptrs_[spec_.input_shapes.size()];
  b_.CreateStore(old_low, out);
  b_.CreateStore(old_high, b_.CreateConstInBoundsGEP1_64(i64, out, 1));
  return absl::OkStatus();
}

absl::Status KernelBuilder::CopyInto(const IrArray& from, const IrArray& to) {
  int64_t n = to.shape().ElementCount();
  Shape logical(to.shape().element_type(), to.shape().dimensions());
  return emitter_->EmitLoop(n, [&](llvm::Value* i) -> absl::Status {
    IrIndex index = IrIndex::Linear(i, logical);
    to.Store(b_, index, from.Load(b_, index));
    return absl::OkStatus();
  });
}

llvm::Value* KernelBuilder::Min(llvm::Value* a, llvm::Value* b) {
  return b_.CreateSelect(b_.CreateICmpSLT(a, b), a, b);
}

absl::Status KernelBuilder::IfBelow(bool check, llvm::Value* v, int64_t limit,
                                    const std::function<absl::Status()>& body) {
  return check ? emitter_->EmitIf(b_.CreateICmpSLT(v, b_.getInt64(limit)), body) : body();
}

}  // namespace kernel_internal

using kernel_internal::KernelBuilder;
using kernel_internal::ScatterAtomicOf;

absl::StatusOr<CompiledKernel> CompileKernel(const KernelSpec& spec,
                                             const TargetConfigProto& target,
                                             const KernelEmitOptions& options) {
  KernelBuilder builder(spec, target);
  AOT_RETURN_IF_ERROR(builder.Build());
  CompiledKernel kernel;
  kernel.name = spec.name;
  kernel.launch_dimensions = builder.dims();
  if (options.keep_llvm_ir) kernel.llvm_ir = ModuleToString(builder.module());
  if (target.platform() == PLATFORM_CUDA) {
    // Math functions come from libdevice, only when the kernel calls one.
    bool needs_libdevice = false;
    for (const llvm::Function& f : builder.module()) {
      if (f.isDeclaration() && f.getName().starts_with("__nv_")) needs_libdevice = true;
    }
    if (needs_libdevice) {
      AOT_RETURN_IF_ERROR(LinkLibdevice(builder.module()));
    }
  }
  AOT_RETURN_IF_ERROR(OptimizeModule(builder.module(), target));
  if (options.keep_llvm_ir) kernel.optimized_llvm_ir = ModuleToString(builder.module());
  if (target.platform() == PLATFORM_CUDA) {
    AOT_ASSIGN_OR_RETURN(auto ptx, EmitPtx(builder.module(), target));
    kernel.binary.set_format(KernelBinaryProto::CUDA_PTX);
    kernel.binary.set_ptx(ptx);
    if (options.compile_cubin && !FindPtxas().path.empty()) {
      AOT_ASSIGN_OR_RETURN(auto cubin, CompilePtxToCubin(ptx, target.llvm_cpu()));
      kernel.binary.set_cubin(cubin);
    }
  } else {
    AOT_ASSIGN_OR_RETURN(auto object, EmitHostObject(builder.module(), target));
    AOT_RETURN_IF_ERROR(CheckHostObjectImports(spec.name, object));
    kernel.binary.set_format(KernelBinaryProto::HOST_ELF_OBJECT);
    kernel.binary.set_object(object);
  }
  kernel.binary.set_payload_sha256(KernelPayloadSha256(kernel.binary));
  return kernel;
}

bool ScatterUsesAtomics(const HloInstruction& instruction, const TargetConfigProto& target) {
  return target.platform() == PLATFORM_CUDA && ScatterAtomicOf(instruction).has_value();
}

absl::Status CheckHostObjectImports(absl::string_view name, absl::string_view object) {
  AOT_ASSIGN_OR_RETURN(std::vector<std::string> disallowed, DisallowedSymbols(object));
  if (disallowed.empty()) return absl::OkStatus();
  return absl::UnimplementedError(
      absl::StrCat("kernel '", name, "' imports ", absl::StrJoin(disallowed, ", "),
                   ", which the runtime does not resolve (not on the host kernel allow-list); "
                   "the executable would compile but not load"));
}

}  // namespace aot
