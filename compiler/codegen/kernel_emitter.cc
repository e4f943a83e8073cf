#include "compiler/codegen/kernel_emitter.h"

#include <algorithm>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "compiler/codegen/elemental_emitter.h"
#include "compiler/codegen/ir_array.h"
#include "compiler/codegen/llvm_backend.h"
#include "compiler/hlo/hlo_computation.h"
#include "llvm/IR/IntrinsicsNVPTX.h"
#include "llvm/IR/IntrinsicsX86.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"
#include "runtime/kernel_payload.h"
#include "runtime/platform/host/host_kernel_abi.h"
#include "runtime/platform/host/host_kernel_loader.h"
#include "runtime/platform/rng_state_abi.h"
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

namespace {

constexpr int64_t kHostThreadsPerBlock = 1024;
constexpr int64_t kGpuThreadsPerBlock = 256;
// GPU rows of at most this many elements are reduced by one warp each.
constexpr int64_t kGpuWarpRowMaxLength = 256;
// Elements of a row a GPU row-reduction thread loads before combining.
constexpr int64_t kGpuRowUnroll = 4;
// GPU sort rows of at most this many elements are sorted in shared memory
// (a bitonic network, one block per row).
constexpr int64_t kGpuSortMaxLength = 8192;
// Static shared memory a kernel may declare on every CUDA device (more
// needs a dynamic, opt-in allocation).
constexpr int64_t kGpuStaticSharedBytes = 48 * 1024;
// Insertion-sorted run length of a merge sort.
constexpr int64_t kSortRun = 16;
// Operand columns per block of a parallel scatter.
constexpr int64_t kScatterColumnsPerBlock = 64;

// How a GPU scatter combines an update with one atomic operation: a
// single-operand scatter whose combiner is one add / maximum / minimum /
// and / or / xor of its two parameters, on an element type the hardware
// has that atomic for (32- and 64-bit integers; f32 and f64 for add), or
// that overwrites (returns the update) with unique_indices on an element
// of 1, 2, 4 or 8 bytes (a plain store: no two updates meet).
struct ScatterAtomic {
  llvm::AtomicRMWInst::BinOp op = llvm::AtomicRMWInst::Xchg;
  bool overwrite = false;
};
std::optional<ScatterAtomic> ScatterAtomicOf(const HloInstruction& scatter) {
  if (scatter.opcode() != HloOpcode::kScatter || scatter.operand_count() != 3 ||
      scatter.to_apply() == nullptr) {
    return std::nullopt;
  }
  // The output is filled with the operand's bytes first: same layout.
  const Shape& operand = scatter.operand(0)->shape();
  const Shape& output = scatter.shape();
  if (!operand.IsArray() || !(operand == output)) return std::nullopt;
  const HloComputation& combiner = *scatter.to_apply();
  if (combiner.num_parameters() != 2) return std::nullopt;
  const HloInstruction* root = combiner.root_instruction();
  const HloInstruction* old = combiner.parameter_instruction(0);
  const HloInstruction* update = combiner.parameter_instruction(1);
  const PrimitiveType type = scatter.shape().element_type();
  ScatterAtomic atomic;
  if (root == update) {
    if (!scatter.attrs().unique_indices) return std::nullopt;
    const int64_t bytes = Shape(type, {}).ByteSize();
    if (type == PRED || (bytes != 1 && bytes != 2 && bytes != 4 && bytes != 8)) {
      return std::nullopt;
    }
    atomic.overwrite = true;
    return atomic;
  }
  if (root->operand_count() != 2 || !((root->operand(0) == old && root->operand(1) == update) ||
                                      (root->operand(0) == update && root->operand(1) == old))) {
    return std::nullopt;
  }
  const bool is_float = type == F32 || type == F64;
  const bool is_int = type == S32 || type == U32 || type == S64 || type == U64;
  const bool is_signed = type == S32 || type == S64;
  switch (root->opcode()) {
    case HloOpcode::kAdd:
      if (!is_float && !is_int) return std::nullopt;
      atomic.op = is_float ? llvm::AtomicRMWInst::FAdd : llvm::AtomicRMWInst::Add;
      return atomic;
    case HloOpcode::kMaximum:
      if (!is_int) return std::nullopt;
      atomic.op = is_signed ? llvm::AtomicRMWInst::Max : llvm::AtomicRMWInst::UMax;
      return atomic;
    case HloOpcode::kMinimum:
      if (!is_int) return std::nullopt;
      atomic.op = is_signed ? llvm::AtomicRMWInst::Min : llvm::AtomicRMWInst::UMin;
      return atomic;
    case HloOpcode::kAnd:
    case HloOpcode::kOr:
    case HloOpcode::kXor:
      if (!is_int) return std::nullopt;
      atomic.op = root->opcode() == HloOpcode::kAnd  ? llvm::AtomicRMWInst::And
                  : root->opcode() == HloOpcode::kOr ? llvm::AtomicRMWInst::Or
                                                     : llvm::AtomicRMWInst::Xor;
      return atomic;
    default:
      return std::nullopt;
  }
}

class KernelBuilder {
 public:
  KernelBuilder(const KernelSpec& spec, const TargetConfigProto& target)
      : spec_(spec),
        target_(target),
        gpu_(target.platform() == PLATFORM_CUDA),
        module_(std::make_unique<llvm::Module>(spec.name, context_)),
        b_(context_) {}

  absl::Status Build() {
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
    if (!status.ok()) return status;
    b_.CreateRetVoid();
    return absl::OkStatus();
  }

  llvm::Module& module() { return *module_; }
  const LaunchDimensionsProto& dims() const { return dims_; }

 private:
  void CreateFunction() {
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
      new llvm::GlobalVariable(*module_, b_.getInt64Ty(), /*isConstant=*/true,
                               llvm::GlobalValue::ExternalLinkage,
                               b_.getInt64(static_cast<int64_t>(arity)),
                               absl::StrCat(spec_.name, kHostKernelAritySuffix));
    }
  }

  // rng-get-and-update-state, delta=N: one thread returns the executable's
  // state {low, high} (runtime/platform/rng_state_abi.h) and advances it
  // by N: an atomic add to the low word, then the carry added to the high
  // word (so concurrent runs of the executable each take their own
  // values; a carry happens once in 2^64 counts).
  absl::Status EmitRngGetAndUpdateState(const HloInstruction& instr) {
    AOT_ASSIGN_OR_RETURN(int64_t delta, ReadRngDelta(instr));
    if (spec_.output_shapes.size() != 1 || spec_.output_shapes[0].ElementCount() != 2) {
      return UnimplementedInstruction(instr, "the state is not one u64[2] output");
    }
    SetDims(1, 1);
    llvm::Type* i64 = b_.getInt64Ty();
    llvm::Value* low;
    if (gpu_) {
      // The runtime stores the state's device address here at load.
      auto* holder = new llvm::GlobalVariable(*module_, i64, /*isConstant=*/false,
                                              llvm::GlobalValue::ExternalLinkage, b_.getInt64(0),
                                              kCudaRngStatePointerSymbol, nullptr,
                                              llvm::GlobalValue::NotThreadLocal, /*AddressSpace=*/1,
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
    llvm::Value* old_high =
        b_.CreateAtomicRMW(llvm::AtomicRMWInst::Add, high, carry, llvm::MaybeAlign(8),
                           llvm::AtomicOrdering::Monotonic);
    llvm::Value* out = arg_ptrs_[spec_.input_shapes.size()];
    b_.CreateStore(old_low, out);
    b_.CreateStore(old_high, b_.CreateConstInBoundsGEP1_64(i64, out, 1));
    return absl::OkStatus();
  }

  // The target's launch limits (DeviceDescriptionProto), with those of
  // every CUDA device this compiler targets where a spec leaves one unset.
  struct GpuLimits {
    int64_t threads_per_block = 1024;  // threads_per_block_limit
    int64_t cores = 1;                 // core_count (SMs)
    int64_t threads_per_core = 2048;   // threads_per_core_limit
    int64_t blocks_x = 2147483647;     // block_dim_limit_x
  };
  GpuLimits Limits() const {
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
  // Threads of a GPU block for `wanted` threads: at most the target's limit.
  int64_t GpuThreads(int64_t wanted) const {
    return std::max<int64_t>(1, std::min(wanted, Limits().threads_per_block));
  }

  // One element per thread; on a GPU, a grid of more blocks than the
  // target's block_dim_limit_x is capped there and each thread strides
  // over the elements by the grid's size (ForEachElement).
  void SetElementParallelDims(int64_t n) {
    int64_t per_block = gpu_ ? GpuThreads(kGpuThreadsPerBlock) : kHostThreadsPerBlock;
    int64_t threads = std::max<int64_t>(1, std::min(per_block, n));
    int64_t blocks = std::max<int64_t>(1, (n + threads - 1) / threads);
    if (gpu_) blocks = std::min(blocks, Limits().blocks_x);
    SetDims(blocks, threads);
  }
  void SetDims(int64_t blocks, int64_t threads) {
    dims_.set_block_count_x(blocks);
    dims_.set_block_count_y(1);
    dims_.set_block_count_z(1);
    dims_.set_threads_per_block_x(threads);
    dims_.set_threads_per_block_y(1);
    dims_.set_threads_per_block_z(1);
  }

  // Runs body(linear) for every element index this block/thread owns.
  absl::Status ForEachElement(int64_t n, const std::function<absl::Status(llvm::Value*)>& body) {
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

  // Runs body once, on the first thread of the first block.
  absl::Status Serially(const std::function<absl::Status()>& body) {
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

  // A host kernel whose root is a large concatenate (under reshapes, which
  // keep the row-major order) and whose output has the default layout:
  // XLA's form, one loop per operand writing its part of each output row,
  // so no element selects among the operands. Rows (the dimensions before
  // the concatenated one) are split over blocks; each operand's part of a
  // row is contiguous in the output, and its loop vectorizes when the
  // operand reads contiguously (conv-im2col's window slices).
  static constexpr int64_t kConcatenateRowsMinElements = 64 * 1024;
  static constexpr int64_t kConcatenateRowsMinRows = 64;
  absl::StatusOr<bool> EmitHostConcatenateRows(const HloInstruction& root) {
    if (outputs_.size() != 1 || !spec_.output_shapes[0].HasDefaultLayout() ||
        spec_.output_shapes[0].ElementCount() < kConcatenateRowsMinElements) {
      return false;
    }
    const HloInstruction* concat = &root;
    while ((concat->opcode() == HloOpcode::kReshape || concat->opcode() == HloOpcode::kBitcast) &&
           concat->operand(0)->shape().IsArray() &&
           concat->operand(0)->shape().element_type() == concat->shape().element_type() &&
           concat->operand(0)->shape().HasDefaultLayout() && concat->shape().HasDefaultLayout() &&
           input_index_.count(concat) == 0) {
      concat = concat->operand(0);
    }
    if (concat->opcode() != HloOpcode::kConcatenate || input_index_.count(concat) > 0) {
      return false;
    }
    const Shape& shape = concat->shape();
    const int64_t dim = concat->dimensions()[0];
    std::vector<int64_t> row_dims(shape.dimensions().begin(), shape.dimensions().begin() + dim);
    Shape rows_shape(shape.element_type(), row_dims);
    const int64_t rows = rows_shape.ElementCount();
    if (rows < kConcatenateRowsMinRows) return false;
    const int64_t row_length = shape.ElementCount() / rows;
    const int64_t inner = shape.dimensions(dim) == 0 ? 0 : row_length / shape.dimensions(dim);
    const Shape& out = spec_.output_shapes[0];
    Shape out_logical(out.element_type(), out.dimensions());
    SetElementParallelDims(rows);
    AOT_RETURN_IF_ERROR(ForEachElement(rows, [&](llvm::Value* row) -> absl::Status {
      std::vector<llvm::Value*> row_multi = IrIndex::Linear(row, rows_shape).multi(b_);
      llvm::Value* row_start = b_.CreateMul(row, b_.getInt64(row_length));
      int64_t offset = 0;  // along `dim`
      for (const HloInstruction* op : concat->operands()) {
        const Shape& s = op->shape();
        std::vector<int64_t> tail_dims(s.dimensions().begin() + dim, s.dimensions().end());
        Shape tail(s.element_type(), tail_dims);
        llvm::Value* start = b_.CreateAdd(row_start, b_.getInt64(offset * inner));
        AOT_RETURN_IF_ERROR(
            emitter_->EmitParallelLoop(tail.ElementCount(), [&](llvm::Value* k) -> absl::Status {
              std::vector<llvm::Value*> m = row_multi;
              IrIndex tail_index = IrIndex::Linear(k, tail);
              for (llvm::Value* v : tail_index.multi(b_)) m.push_back(v);
              AOT_ASSIGN_OR_RETURN(llvm::Value * v, emitter_->Emit(*op, IrIndex::Multi(m, s)));
              outputs_[0].Store(b_, IrIndex::Linear(b_.CreateAdd(start, k), out_logical), v);
              return absl::OkStatus();
            }));
        offset += s.dimensions(dim);
      }
      return absl::OkStatus();
    }));
    return true;
  }

  absl::Status EmitElementParallel(const HloInstruction& root) {
    if (spec_.output_shapes.empty())
      return UnimplementedInstruction(root, "kernel without outputs");
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
      if (!values.ok()) return values.status();
      if (values->size() != outputs_.size()) {
        return UnimplementedInstruction(
            root,
            absl::StrCat("produces ", values->size(), " values for ", outputs_.size(), " outputs"));
      }
      for (size_t i = 0; i < outputs_.size(); ++i) outputs_[i].Store(b_, index, (*values)[i]);
      return absl::OkStatus();
    });
  }

  // A multi-output fusion whose outputs differ in dimensions (XLA's sibling
  // fusion: say a row reduction beside an elementwise result). One grid
  // covers the largest output; each group of same-dimensioned outputs is
  // computed, under a bound check, at the linear index of its own shape.
  // Subexpressions the groups share are computed once per group.
  absl::Status EmitSiblingOutputs(const HloInstruction& root) {
    if (root.opcode() != HloOpcode::kTuple ||
        root.operand_count() != static_cast<int64_t>(outputs_.size())) {
      return UnimplementedInstruction(root,
                                      "outputs of different dimensions need a flat tuple root");
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

  // A kernel whose reduce (the root, or the one reduce of a fusion,
  // fusion.h's "kInput") reduces the trailing dimensions of its operand
  // (rows; a full reduction is one row), with one output that is either
  // the reduce's dimensions (stored once per row) or the operand's (an
  // epilogue computed per element of the row, reading the reduce only as
  // its own row's value).
  struct RowReductionPlan {
    const HloInstruction* hero = nullptr;
    int64_t rows = 0, row_length = 0;
    bool per_row = false;  // else per element of the row
    // Per element: the reduce's operand is also read by the epilogue (as
    // softmax's exp(x - max) is by its division), so the reduce loop stores
    // it into the output row and the epilogue loads it back from there
    // (the row is in L1) instead of computing it again. Only when it is
    // computed (not a kernel input), of the output's element type, and
    // read by the epilogue only elementwise (at the element being stored).
    bool cache_operand = false;
    Shape in_logical;
  };
  std::optional<RowReductionPlan> PlanRowReduction(const HloInstruction& root) {
    if (outputs_.size() != 1) return std::nullopt;
    const HloInstruction* hero = nullptr;
    if (root.opcode() == HloOpcode::kReduce) {
      hero = &root;
    } else if (spec_.instruction->opcode() == HloOpcode::kFusion) {
      for (const HloInstruction* h : spec_.instruction->called_computations()[0]->instructions()) {
        if (h->opcode() != HloOpcode::kReduce) continue;
        if (hero != nullptr) return std::nullopt;
        hero = h;
      }
    }
    if (hero == nullptr || hero->operand_count() != 2) return std::nullopt;
    const Shape& in = hero->operand(0)->shape();
    std::vector<int64_t> reduced = hero->dimensions();
    std::sort(reduced.begin(), reduced.end());
    const int64_t kept = in.rank() - static_cast<int64_t>(reduced.size());
    for (size_t i = 0; i < reduced.size(); ++i) {
      if (reduced[i] != kept + static_cast<int64_t>(i)) return std::nullopt;  // not trailing
    }
    if (reduced.empty()) return std::nullopt;
    RowReductionPlan plan;
    plan.hero = hero;
    plan.rows = plan.row_length = 1;
    for (int64_t d = 0; d < in.rank(); ++d) {
      (d < kept ? plan.rows : plan.row_length) *= in.dimensions(d);
    }
    if (plan.rows == 0 || plan.row_length == 0 || plan.rows > 2147483647) return std::nullopt;
    const Shape& out = outputs_[0].shape();
    plan.per_row = out.dimensions() == hero->shape().dimensions();
    const bool per_element = kept > 0 && out.dimensions() == in.dimensions();
    if (!plan.per_row && !per_element) return std::nullopt;
    // Every use of the reduce on the way to the root must read the row's
    // own value (fusion.h's epilogue contract; a fusion from a dump need
    // not keep it).
    if (&root != hero && !ReadsOwnRow(*hero, root, kept, in, /*broadcast_seen=*/false,
                                      /*broadcast_needed=*/per_element)) {
      return std::nullopt;
    }
    plan.in_logical = Shape(in.element_type(), in.dimensions());
    const HloInstruction& operand = *hero->operand(0);
    if (per_element && &root != hero && !input_index_.count(&operand) &&
        operand.shape().element_type() == out.element_type() && out.HasDefaultLayout() &&
        operand.user_count() > 1) {
      plan.cache_operand = true;
      for (const HloInstruction* u : operand.users()) {
        if (u != hero && !ReadsOwnRow(*u, root, kept, in, false, /*broadcast_needed=*/false)) {
          plan.cache_operand = false;
        }
      }
    }
    return plan;
  }

  // Host: blocks of whole rows. Each row is reduced by one loop (the
  // combiner reassociable, so it vectorizes with several accumulators),
  // then its root values are computed by a second loop over the row that
  // reads the reduce as the row's value, so the epilogue (softmax's
  // exp / sum) vectorizes too instead of re-entering the reduction per
  // element.
  absl::StatusOr<bool> EmitHostRowReduction(const HloInstruction& root) {
    std::optional<RowReductionPlan> plan = PlanRowReduction(root);
    if (!plan) return false;
    const HloInstruction* hero = plan->hero;
    const int64_t row_length = plan->row_length, rows = plan->rows;
    // About 16K elements per block, whole rows.
    const int64_t rows_per_block =
        std::min<int64_t>(rows, std::max<int64_t>(1, (16384 + row_length - 1) / row_length));
    SetDims((rows + rows_per_block - 1) / rows_per_block, rows_per_block);
    llvm::Type* acc_type = ComputeType(hero->shape().element_type(), context_);
    AOT_ASSIGN_OR_RETURN(llvm::Value * init, emitter_->Emit(*hero->operand(1), IrIndex()));
    llvm::AllocaInst* acc = emitter_->EntryAlloca(acc_type);
    llvm::Value* first_row = b_.CreateMul(block_, b_.getInt64(rows_per_block));
    const Shape& out = outputs_[0].shape();
    Shape logical(out.element_type(), out.dimensions());
    AOT_RETURN_IF_ERROR(emitter_->EmitLoop(rows_per_block, [&](llvm::Value* i) -> absl::Status {
      llvm::Value* row = b_.CreateAdd(first_row, i);
      return emitter_->EmitIf(b_.CreateICmpSLT(row, b_.getInt64(rows)), [&]() -> absl::Status {
        llvm::Value* base = b_.CreateMul(row, b_.getInt64(row_length));
        b_.CreateStore(init, acc);
        auto reduce_step = [&](llvm::Value* j) -> absl::Status {
          AOT_ASSIGN_OR_RETURN(
              llvm::Value * v,
              emitter_->Emit(*hero->operand(0),
                             IrIndex::Linear(b_.CreateAdd(base, j), plan->in_logical)));
          if (plan->cache_operand) {
            outputs_[0].Store(b_, IrIndex::Linear(b_.CreateAdd(base, j), logical), v);
          }
          llvm::IRBuilder<>::FastMathFlagGuard guard(b_);
          llvm::FastMathFlags flags;
          flags.setAllowReassoc();
          b_.setFastMathFlags(flags);
          AOT_ASSIGN_OR_RETURN(auto sum, emitter_->EmitScalarComputation(
                                             *hero->to_apply(), {b_.CreateLoad(acc_type, acc), v}));
          b_.CreateStore(sum[0], acc);
          return absl::OkStatus();
        };
        // Caching writes the output row in the loop: its iterations are
        // still independent (the accumulator is an alloca, not marked).
        AOT_RETURN_IF_ERROR(plan->cache_operand
                                ? emitter_->EmitParallelLoop(row_length, reduce_step)
                                : emitter_->EmitLoop(row_length, reduce_step));
        emitter_->SetUniformValue(hero, {b_.CreateLoad(acc_type, acc)});
        if (plan->per_row) {
          IrIndex index = IrIndex::Linear(row, logical);
          AOT_ASSIGN_OR_RETURN(llvm::Value * v, emitter_->Emit(root, index));
          outputs_[0].Store(b_, index, v);
          return absl::OkStatus();
        }
        if (plan->cache_operand) {
          materialized_[hero->operand(0)] = [this](const IrIndex& index) {
            return absl::StatusOr<llvm::Value*>(outputs_[0].Load(b_, index));
          };
        }
        absl::Status epilogue =
            emitter_->EmitParallelLoop(row_length, [&](llvm::Value* j) -> absl::Status {
              IrIndex index = IrIndex::Linear(b_.CreateAdd(base, j), logical);
              AOT_ASSIGN_OR_RETURN(llvm::Value * v, emitter_->Emit(root, index));
              outputs_[0].Store(b_, index, v);
              return absl::OkStatus();
            });
        materialized_.erase(hero->operand(0));
        return epilogue;
      });
    }));
    return true;
  }

  // body() when v < limit; with `check` false (the bound always holds)
  // body() unguarded. For loops over tiles or runs whose last one may be
  // short.
  absl::Status IfBelow(bool check, llvm::Value* v, int64_t limit,
                       const std::function<absl::Status()>& body) {
    return check ? emitter_->EmitIf(b_.CreateICmpSLT(v, b_.getInt64(limit)), body) : body();
  }

  // (rows, columns) of a kernel whose root is a single-output reduce of
  // the leading dimensions of its one operand (a column reduction: the
  // reduced dimensions' product by the kept ones'); nullopt otherwise.
  std::optional<std::pair<int64_t, int64_t>> PlanColumnReduction(const HloInstruction& root) {
    if (outputs_.size() != 1 || root.opcode() != HloOpcode::kReduce || root.operand_count() != 2) {
      return std::nullopt;
    }
    const Shape& in = root.operand(0)->shape();
    std::vector<int64_t> reduced = root.dimensions();
    std::sort(reduced.begin(), reduced.end());
    if (reduced.empty() || static_cast<int64_t>(reduced.size()) == in.rank()) return std::nullopt;
    for (size_t i = 0; i < reduced.size(); ++i) {
      if (reduced[i] != static_cast<int64_t>(i)) return std::nullopt;  // not leading
    }
    int64_t rows = 1, cols = 1;
    for (int64_t d = 0; d < in.rank(); ++d) {
      (d < static_cast<int64_t>(reduced.size()) ? rows : cols) *= in.dimensions(d);
    }
    if (rows == 0 || cols == 0) return std::nullopt;
    return std::pair{rows, cols};
  }

  // Host: a kernel whose root is a reduce of the leading dimensions of its
  // one operand (a column reduction). Each block owns the element-parallel
  // grid's run of up to kHostThreadsPerBlock outputs, keeps their
  // accumulators in a stack array, and walks the reduced rows in order,
  // combining each row's run of contiguous elements (a loop across columns,
  // which vectorizes) instead of striding through the operand once per
  // output. Every column is combined in the serial order, so the results
  // are those of the plain loop. Returns false (nothing emitted) otherwise.
  absl::StatusOr<bool> EmitHostColumnReduction(const HloInstruction& root) {
    std::optional<std::pair<int64_t, int64_t>> plan = PlanColumnReduction(root);
    if (!plan) return false;
    const int64_t rows = plan->first, cols = plan->second;
    const Shape& in = root.operand(0)->shape();
    SetElementParallelDims(cols);
    const int64_t threads = dims_.threads_per_block_x();
    llvm::Type* acc_type = ComputeType(root.shape().element_type(), context_);
    AOT_ASSIGN_OR_RETURN(llvm::Value * init, emitter_->Emit(*root.operand(1), IrIndex()));
    llvm::AllocaInst* acc = emitter_->EntryAlloca(llvm::ArrayType::get(acc_type, threads));
    auto slot = [&](llvm::Value* j) {
      return b_.CreateInBoundsGEP(acc->getAllocatedType(), acc, {b_.getInt64(0), j});
    };
    llvm::Value* start = b_.CreateMul(block_, b_.getInt64(threads));
    // for (j in the block's run) body(j), bounds-checked when the last run
    // is short.
    auto each_column = [&](const std::function<absl::Status(llvm::Value*)>& body) {
      return emitter_->EmitParallelLoop(threads, [&](llvm::Value* j) -> absl::Status {
        return IfBelow(cols % threads != 0, b_.CreateAdd(start, j), cols, [&] { return body(j); });
      });
    };
    AOT_RETURN_IF_ERROR(each_column([&](llvm::Value* j) {
      b_.CreateStore(init, slot(j));
      return absl::OkStatus();
    }));
    Shape in_logical(in.element_type(), in.dimensions());
    AOT_RETURN_IF_ERROR(emitter_->EmitLoop(rows, [&](llvm::Value* i) -> absl::Status {
      llvm::Value* row = b_.CreateAdd(b_.CreateMul(i, b_.getInt64(cols)), start);
      return each_column([&](llvm::Value* j) -> absl::Status {
        AOT_ASSIGN_OR_RETURN(
            llvm::Value * v,
            emitter_->Emit(*root.operand(0), IrIndex::Linear(b_.CreateAdd(row, j), in_logical)));
        AOT_ASSIGN_OR_RETURN(
            auto sum, emitter_->EmitScalarComputation(*root.to_apply(),
                                                      {b_.CreateLoad(acc_type, slot(j)), v}));
        b_.CreateStore(sum[0], slot(j));
        return absl::OkStatus();
      });
    }));
    const Shape& out = outputs_[0].shape();
    Shape out_logical(out.element_type(), out.dimensions());
    AOT_RETURN_IF_ERROR(each_column([&](llvm::Value* j) {
      outputs_[0].Store(b_, IrIndex::Linear(b_.CreateAdd(start, j), out_logical),
                        b_.CreateLoad(acc_type, slot(j)));
      return absl::OkStatus();
    }));
    return true;
  }

  // GPU: a reduce of the leading dimensions of its one operand (a column
  // reduction), XLA's tiled form. A block owns a tile of 32 columns: lane
  // x of warp y accumulates the tile's column x over rows y, y + W, ... (W
  // warps), so each warp reads 32 consecutive elements of a row
  // (coalesced) instead of each thread striding down its own column; the W
  // partials of a column meet in shared memory (rows padded to 33 slots
  // against bank conflicts), and the first warp combines them and stores
  // the tile's 32 results. Reassociates the reduction, as the row kernels
  // do. Returns false (nothing emitted) for any other kernel.
  absl::StatusOr<bool> EmitGpuColumnReduction(const HloInstruction& root) {
    std::optional<std::pair<int64_t, int64_t>> plan = PlanColumnReduction(root);
    if (!plan) return false;
    const int64_t rows = plan->first, cols = plan->second;
    const Shape& in = root.operand(0)->shape();
    llvm::Type* acc_type = ComputeType(root.shape().element_type(), context_);
    const unsigned bits = acc_type->getPrimitiveSizeInBits();
    if (bits == 0 || bits % 8 != 0) return false;
    const int64_t warps = GpuThreads(kGpuThreadsPerBlock) / 32;
    const int64_t tiles = (cols + 31) / 32;
    if (tiles > Limits().blocks_x) return false;
    SetDims(tiles, warps * 32);
    llvm::Value* lane = b_.CreateAnd(thread_, b_.getInt64(31));
    llvm::Value* warp = b_.CreateLShr(thread_, b_.getInt64(5));
    llvm::Value* col = b_.CreateAdd(b_.CreateMul(block_, b_.getInt64(32)), lane);
    llvm::Value* in_range = b_.CreateICmpULT(col, b_.getInt64(cols));
    AOT_ASSIGN_OR_RETURN(llvm::Value * init, emitter_->Emit(*root.operand(1), IrIndex()));
    llvm::AllocaInst* acc = emitter_->EntryAlloca(acc_type);
    b_.CreateStore(init, acc);
    auto combine = [&](llvm::Value* a, llvm::Value* b) -> absl::StatusOr<llvm::Value*> {
      AOT_ASSIGN_OR_RETURN(auto r, emitter_->EmitScalarComputation(*root.to_apply(), {a, b}));
      return r[0];
    };
    Shape in_logical(in.element_type(), in.dimensions());
    AOT_RETURN_IF_ERROR(emitter_->EmitIf(in_range, [&]() -> absl::Status {
      return emitter_->EmitStridedLoop(warp, rows, warps, [&](llvm::Value* i) -> absl::Status {
        llvm::Value* linear = b_.CreateAdd(b_.CreateMul(i, b_.getInt64(cols)), col);
        AOT_ASSIGN_OR_RETURN(llvm::Value * v,
                             emitter_->Emit(*root.operand(0), IrIndex::Linear(linear, in_logical)));
        AOT_ASSIGN_OR_RETURN(llvm::Value * sum, combine(b_.CreateLoad(acc_type, acc), v));
        b_.CreateStore(sum, acc);
        return absl::OkStatus();
      });
    }));
    llvm::ArrayType* tile_type = llvm::ArrayType::get(acc_type, static_cast<uint64_t>(warps * 33));
    auto* tile = new llvm::GlobalVariable(
        *module_, tile_type, /*isConstant=*/false, llvm::GlobalValue::InternalLinkage,
        llvm::UndefValue::get(tile_type), "column_partials", nullptr,
        llvm::GlobalValue::NotThreadLocal, /*AddressSpace=*/3);
    tile->setAlignment(llvm::Align(8));
    auto slot = [&](llvm::Value* w) {
      llvm::Value* i = b_.CreateAdd(b_.CreateMul(w, b_.getInt64(33)), lane);
      return b_.CreateInBoundsGEP(tile_type, tile, {b_.getInt64(0), i});
    };
    b_.CreateStore(b_.CreateLoad(acc_type, acc), slot(warp));
    b_.CreateIntrinsic(llvm::Intrinsic::nvvm_barrier0, {}, {});
    llvm::Value* first_warp = b_.CreateICmpEQ(warp, b_.getInt64(0));
    AOT_RETURN_IF_ERROR(emitter_->EmitIf(b_.CreateAnd(first_warp, in_range), [&]() -> absl::Status {
      llvm::Value* total = b_.CreateLoad(acc_type, slot(b_.getInt64(0)));
      for (int64_t w = 1; w < warps; ++w) {
        AOT_ASSIGN_OR_RETURN(total, combine(total, b_.CreateLoad(acc_type, slot(b_.getInt64(w)))));
      }
      const Shape& out = outputs_[0].shape();
      outputs_[0].Store(b_, IrIndex::Linear(col, Shape(out.element_type(), out.dimensions())),
                        total);
      return absl::OkStatus();
    }));
    return true;
  }

  // Host: an element-parallel kernel with a transpose that moves the
  // operand's minor dimension (say [4096,4096]{1,0} -> {0,1}) walks its
  // output in kTransposeTile x kTransposeTile tiles of (d, last), d the
  // output dimension that is the operand's minor one, so the strided reads
  // of a tile hit the cache lines its neighbouring rows just brought in
  // (row-by-row order touches a new line, and often a new page, per
  // element). One tile per block; partial tiles at the edges are guarded.
  // Small kernels (under kTransposeTiledMinElements, within L2 anyway)
  // keep the plain row-major loop. Returns false (nothing emitted) when the
  // kernel has no such transpose.
  static constexpr int64_t kTransposeTile = 32;
  static constexpr int64_t kTransposeTiledMinElements = 64 * 1024;

  absl::StatusOr<bool> EmitHostTiledTranspose(const HloInstruction& kernel,
                                              const HloInstruction& root) {
    if (spec_.output_shapes.empty()) return false;
    const std::vector<int64_t>& dims = spec_.output_shapes[0].dimensions();
    const int64_t rank = static_cast<int64_t>(dims.size());
    if (rank < 2 || spec_.output_shapes[0].ElementCount() < kTransposeTiledMinElements) {
      return false;
    }
    for (const Shape& s : spec_.output_shapes) {
      if (s.dimensions() != dims) return false;
    }
    std::vector<const HloInstruction*> candidates;
    if (kernel.opcode() == HloOpcode::kFusion) {
      for (const HloInstruction* h : kernel.called_computations()[0]->instructions()) {
        candidates.push_back(h);
      }
    } else {
      candidates.push_back(&root);
    }
    int64_t d = -1;  // the output dimension that is the operand's minor one
    const HloInstruction* staged = nullptr;
    for (const HloInstruction* h : candidates) {
      if (h->opcode() != HloOpcode::kTranspose || h->shape().dimensions() != dims) continue;
      const std::vector<int64_t>& perm = h->dimensions();
      if (perm.back() == rank - 1) continue;  // the minor dimension stays
      for (int64_t i = 0; i < rank; ++i) {
        if (perm[i] == rank - 1) d = i;
      }
      if (d >= 0 && dims[d] >= kTransposeTile && dims[rank - 1] >= kTransposeTile) {
        if (ReadsOwnRow(*h, root, 0, h->shape(), false, /*broadcast_needed=*/false)) staged = h;
        break;
      }
      d = -1;
    }
    if (d < 0) return false;
    const int64_t rows = dims[d], cols = dims[rank - 1], t = kTransposeTile;
    // Tiles are numbered with d fastest: consecutive tiles read the same
    // operand rows one segment further on, streams the prefetcher follows
    // (and a worker's chunk of tiles walks down a band of output columns).
    std::vector<int64_t> order;  // tile-space dimensions, d last
    for (int64_t i = 0; i < rank; ++i) {
      if (i != d) order.push_back(i);
    }
    order.push_back(d);
    std::vector<int64_t> tile_dims;
    for (int64_t i : order) {
      tile_dims.push_back(i == d || i == rank - 1 ? (dims[i] + t - 1) / t : dims[i]);
    }
    Shape tiles(S64, tile_dims);
    SetDims(tiles.ElementCount(), t);
    std::vector<llvm::Value*> ordered = IrIndex::Linear(block_, tiles).multi(b_);
    std::vector<llvm::Value*> tile(rank);
    for (int64_t i = 0; i < rank; ++i) tile[order[i]] = ordered[i];
    llvm::Value* row0 = b_.CreateMul(tile[d], b_.getInt64(t));
    llvm::Value* col0 = b_.CreateMul(tile[rank - 1], b_.getInt64(t));
    Shape logical(spec_.output_shapes[0].element_type(), dims);
    // (i, j) in the tile are bounds-checked only where the edge is ragged.
    auto tile_index = [&](llvm::Value* row, llvm::Value* col) {
      std::vector<llvm::Value*> multi = tile;
      multi[d] = row;
      multi[rank - 1] = col;
      return IrIndex::Multi(std::move(multi), logical);
    };
    // When the transpose reaches the root through elementwise ops only, its
    // tile is first computed column by column (contiguous reads of its
    // operand) into a stack buffer, which the root then reads: every cache
    // line of memory is touched once, and the buffer, unlike the operand's
    // rows (a power-of-two stride apart, all in one cache set), stays in L1.
    if (staged != nullptr) {
      tile_ = TileStage{d, row0, col0, nullptr};
      tile_.buffer = emitter_->EntryAlloca(
          llvm::ArrayType::get(ComputeType(staged->shape().element_type(), context_), t * t));
      tile_.buffer->setAlignment(llvm::Align(64));
      AOT_RETURN_IF_ERROR(emitter_->EmitLoop(t, [&](llvm::Value* j) -> absl::Status {
        llvm::Value* col = b_.CreateAdd(col0, j);
        return IfBelow(cols % t != 0, col, cols, [&]() -> absl::Status {
          return emitter_->EmitLoop(t, [&](llvm::Value* i) -> absl::Status {
            llvm::Value* row = b_.CreateAdd(row0, i);
            return IfBelow(rows % t != 0, row, rows, [&]() -> absl::Status {
              AOT_ASSIGN_OR_RETURN(llvm::Value * v, emitter_->Emit(*staged, tile_index(row, col)));
              b_.CreateStore(v, TileSlot(i, j));
              return absl::OkStatus();
            });
          });
        });
      }));
      materialized_[staged] = [this](const IrIndex& index) { return LoadFromTile(index); };
      if (StreamTileRows(*staged, root, rows, cols, row0, col0, tile_index)) {
        materialized_.erase(staged);
        return true;
      }
    }
    AOT_RETURN_IF_ERROR(emitter_->EmitLoop(t, [&](llvm::Value* i) -> absl::Status {
      llvm::Value* row = b_.CreateAdd(row0, i);
      return IfBelow(rows % t != 0, row, rows, [&]() -> absl::Status {
        return emitter_->EmitLoop(t, [&](llvm::Value* j) -> absl::Status {
          llvm::Value* col = b_.CreateAdd(col0, j);
          return IfBelow(cols % t != 0, col, cols, [&]() -> absl::Status {
            IrIndex index = tile_index(row, col);
            AOT_ASSIGN_OR_RETURN(std::vector<llvm::Value*> values, emitter_->EmitAll(root, index));
            if (values.size() != outputs_.size()) {
              return UnimplementedInstruction(
                  root, absl::StrCat("produces ", values.size(), " values for ", outputs_.size(),
                                     " outputs"));
            }
            for (size_t k = 0; k < outputs_.size(); ++k) outputs_[k].Store(b_, index, values[k]);
            return absl::OkStatus();
          });
        });
      });
    }));
    materialized_.erase(staged);
    return true;
  }

  // A staged transpose that is the kernel's root and only output, in the
  // default layout, 4 or 8 bytes an element, whole tiles along rows of a
  // multiple of 32 bytes: each tile row goes from the buffer to the output
  // as 32-byte vectors with streaming (non-temporal) stores. A tile row is
  // whole cache lines written once, far from the previous tile's rows, so
  // the store need not read each line first (measured: the 4096x4096 f32
  // transpose ~1.5x faster than with plain stores). The rows are 32-byte
  // aligned: buffers start 64-byte aligned (runtime ABI) and each row and
  // tile column offset is a multiple of 32 bytes. An sfence ends the block
  // so its stores are visible before the block is reported done. Returns
  // false (nothing emitted) otherwise.
  bool StreamTileRows(const HloInstruction& staged, const HloInstruction& root, int64_t rows,
                      int64_t cols, llvm::Value* row0, llvm::Value* col0,
                      const std::function<IrIndex(llvm::Value*, llvm::Value*)>& tile_index) {
    const Shape& out = spec_.output_shapes[0];
    const PrimitiveType type = out.element_type();
    const int64_t bytes = (type == F32 || type == S32 || type == U32)   ? 4
                          : (type == F64 || type == S64 || type == U64) ? 8
                                                                        : 0;
    if (&staged != &root || outputs_.size() != 1 || !out.HasDefaultLayout() || bytes == 0 ||
        cols % kTransposeTile != 0 || (cols * bytes) % 32 != 0) {
      return false;
    }
    const int64_t lanes = 32 / bytes;
    llvm::Type* element = tile_.buffer->getAllocatedType()->getArrayElementType();
    llvm::Type* vector = llvm::FixedVectorType::get(element, static_cast<unsigned>(lanes));
    llvm::MDNode* nontemporal =
        llvm::MDNode::get(context_, {llvm::ConstantAsMetadata::get(b_.getInt32(1))});
    absl::Status status = emitter_->EmitLoop(kTransposeTile, [&](llvm::Value* i) -> absl::Status {
      llvm::Value* row = b_.CreateAdd(row0, i);
      auto copy_row = [&]() -> absl::Status {
        llvm::Value* dst = outputs_[0].ElementAddress(b_, tile_index(row, col0));
        for (int64_t j = 0; j < kTransposeTile; j += lanes) {
          llvm::Value* v =
              b_.CreateAlignedLoad(vector, TileSlot(i, b_.getInt64(j)), llvm::MaybeAlign(32));
          llvm::StoreInst* store = b_.CreateAlignedStore(
              v, b_.CreateConstInBoundsGEP1_64(element, dst, j), llvm::MaybeAlign(32));
          store->setMetadata(llvm::LLVMContext::MD_nontemporal, nontemporal);
        }
        return absl::OkStatus();
      };
      return IfBelow(rows % kTransposeTile != 0, row, rows, copy_row);
    });
    if (!status.ok()) return false;
    b_.CreateIntrinsic(llvm::Intrinsic::x86_sse_sfence, {}, {});
    return true;
  }

  // The staged transpose of EmitHostTiledTranspose: its tile buffer holds
  // element (row0 + i, col0 + j) at i * kTransposeTile + j (the root reads
  // it row by row, contiguously, so that loop vectorizes).
  struct TileStage {
    int64_t d = 0;
    llvm::Value* row0 = nullptr;
    llvm::Value* col0 = nullptr;
    llvm::AllocaInst* buffer = nullptr;
  };
  TileStage tile_;
  llvm::Value* TileSlot(llvm::Value* i, llvm::Value* j) {
    llvm::Value* slot = b_.CreateAdd(b_.CreateMul(i, b_.getInt64(kTransposeTile)), j);
    return b_.CreateInBoundsGEP(tile_.buffer->getAllocatedType(), tile_.buffer,
                                {b_.getInt64(0), slot});
  }
  absl::StatusOr<llvm::Value*> LoadFromTile(const IrIndex& index) {
    const std::vector<llvm::Value*>& multi = index.multi(b_);
    llvm::Value* i = b_.CreateSub(multi[tile_.d], tile_.row0);
    llvm::Value* j = b_.CreateSub(multi.back(), tile_.col0);
    return b_.CreateLoad(tile_.buffer->getAllocatedType()->getArrayElementType(), TileSlot(i, j));
  }

  // GPU: rows of up to kGpuWarpRowMaxLength are reduced by a warp each
  // (several rows per block, sized by the target's SM count), longer rows
  // by a block each (up to the target's thread limit when there are fewer
  // rows than SMs). Each thread accumulates a strided slice of the row, the
  // warp combines with butterfly shuffles, a block's warps through shared
  // memory, and the row's value is broadcast to the block through shared
  // memory. The root is then stored once per row, or per element of the
  // row by the row's threads reading the reduce as the row's value (never
  // recomputed). Reassociates the reduction (XLA does too);
  // the goldens compare CUDA outputs with a tolerance. Returns false
  // (nothing emitted) for any other kernel: column reductions, variadic
  // reduces, several outputs, accumulators that are neither 1..32 nor 64
  // bits wide.
  absl::StatusOr<bool> EmitGpuRowReduction(const HloInstruction& root) {
    std::optional<RowReductionPlan> plan = PlanRowReduction(root);
    if (!plan) return false;
    const HloInstruction* hero = plan->hero;
    const int64_t row_length = plan->row_length, rows = plan->rows;
    const bool per_row = plan->per_row;
    const Shape& out = outputs_[0].shape();
    const Shape& in_logical = plan->in_logical;
    llvm::Type* acc_type = ComputeType(hero->shape().element_type(), context_);
    const unsigned bits = acc_type->getPrimitiveSizeInBits();
    if (bits == 0 || (bits > 32 && bits != 64)) return false;

    const GpuLimits limits = Limits();
    auto combine = [&](llvm::Value* a, llvm::Value* b) -> absl::StatusOr<llvm::Value*> {
      AOT_ASSIGN_OR_RETURN(auto r, emitter_->EmitScalarComputation(*hero->to_apply(), {a, b}));
      return r[0];
    };
    // After it every lane of the warp holds the warp's total.
    auto warp_reduce = [&](llvm::Value* v) -> absl::StatusOr<llvm::Value*> {
      for (int offset = 16; offset >= 1; offset /= 2) {
        AOT_ASSIGN_OR_RETURN(v, combine(v, ShuffleXor(v, offset)));
      }
      return v;
    };
    AOT_ASSIGN_OR_RETURN(llvm::Value * init, emitter_->Emit(*hero->operand(1), IrIndex()));
    // A thread's elements of a row, first, first + step, ..., are visited
    // kGpuRowUnroll at a time while it has that many left (then one at a
    // time), their loads issued together: a loop of one element keeps one
    // load in flight per thread, which on an H200 held the row reduction of
    // softmax to about a quarter of DRAM bandwidth (ncu, 2026-12-04).
    auto row_loop = [&](llvm::Value* first, int64_t step,
                        const std::function<absl::Status(const std::vector<llvm::Value*>&)>& body)
        -> absl::Status {
      llvm::Value* tail_start = first;
      const int64_t unrolled_end = row_length - (kGpuRowUnroll - 1) * step;
      if (unrolled_end > 0) {
        AOT_RETURN_IF_ERROR(emitter_->EmitStridedLoop(
            first, unrolled_end, kGpuRowUnroll * step, [&](llvm::Value* j) -> absl::Status {
              std::vector<llvm::Value*> js = {j};
              for (int64_t k = 1; k < kGpuRowUnroll; ++k) {
                js.push_back(b_.CreateAdd(j, b_.getInt64(k * step)));
              }
              return body(js);
            }));
        // The first index the unrolled loop left: after ceil((end - first)
        // / (unroll * step)) of its steps when first < end.
        llvm::Value* steps = b_.CreateSelect(
            b_.CreateICmpULT(first, b_.getInt64(unrolled_end)),
            b_.CreateAdd(b_.CreateUDiv(b_.CreateSub(b_.getInt64(unrolled_end - 1), first),
                                       b_.getInt64(kGpuRowUnroll * step)),
                         b_.getInt64(1)),
            b_.getInt64(0));
        tail_start = b_.CreateAdd(first, b_.CreateMul(steps, b_.getInt64(kGpuRowUnroll * step)));
      }
      return emitter_->EmitStridedLoop(tail_start, row_length, step, [&](llvm::Value* j) {
        return body(std::vector<llvm::Value*>{j});
      });
    };
    // Accumulators: one per unrolled element (independent chains), combined
    // into the first after the loop; each starts at the reduce's init.
    std::vector<llvm::AllocaInst*> thread_partials;
    for (int64_t k = 0; k < kGpuRowUnroll; ++k) {
      thread_partials.push_back(emitter_->EntryAlloca(acc_type));
    }
    llvm::AllocaInst* acc = thread_partials[0];
    // Accumulates into `acc` the elements first, first + step, ... of `row`.
    auto accumulate = [&](llvm::Value* row, llvm::Value* first, int64_t step) -> absl::Status {
      for (llvm::AllocaInst* p : thread_partials) b_.CreateStore(init, p);
      llvm::Value* row_base = b_.CreateMul(row, b_.getInt64(row_length));
      AOT_RETURN_IF_ERROR(
          row_loop(first, step, [&](const std::vector<llvm::Value*>& js) -> absl::Status {
            std::vector<llvm::Value*> values;
            for (llvm::Value* j : js) {
              AOT_ASSIGN_OR_RETURN(
                  llvm::Value * v,
                  emitter_->Emit(*hero->operand(0),
                                 IrIndex::Linear(b_.CreateAdd(row_base, j), in_logical)));
              values.push_back(v);
            }
            for (size_t k = 0; k < values.size(); ++k) {
              AOT_ASSIGN_OR_RETURN(llvm::Value * sum,
                                   combine(b_.CreateLoad(acc_type, thread_partials[k]), values[k]));
              b_.CreateStore(sum, thread_partials[k]);
            }
            return absl::OkStatus();
          }));
      // Pairwise: ((p0, p1), (p2, p3)).
      std::vector<llvm::Value*> level;
      for (llvm::AllocaInst* p : thread_partials) level.push_back(b_.CreateLoad(acc_type, p));
      while (level.size() > 1) {
        std::vector<llvm::Value*> next;
        for (size_t k = 0; k + 1 < level.size(); k += 2) {
          AOT_ASSIGN_OR_RETURN(llvm::Value * c, combine(level[k], level[k + 1]));
          next.push_back(c);
        }
        if (level.size() % 2 == 1) next.push_back(level.back());
        level = std::move(next);
      }
      b_.CreateStore(level[0], acc);
      return absl::OkStatus();
    };
    Shape logical(out.element_type(), out.dimensions());
    // The root of `row` from the reduce's value there (uniform in the
    // row's threads): once per row by the thread `first` is 0 in, or per
    // element by the threads first, first + step, ... (computed for the
    // unrolled elements first, then stored).
    auto emit_root = [&](llvm::Value* row, llvm::Value* first, int64_t step) -> absl::Status {
      if (per_row) {
        return emitter_->EmitIf(b_.CreateICmpEQ(first, b_.getInt64(0)), [&]() -> absl::Status {
          IrIndex index = IrIndex::Linear(row, logical);
          AOT_ASSIGN_OR_RETURN(llvm::Value * v, emitter_->Emit(root, index));
          outputs_[0].Store(b_, index, v);
          return absl::OkStatus();
        });
      }
      llvm::Value* row_base = b_.CreateMul(row, b_.getInt64(row_length));
      return row_loop(first, step, [&](const std::vector<llvm::Value*>& js) -> absl::Status {
        std::vector<std::pair<IrIndex, llvm::Value*>> results;
        for (llvm::Value* j : js) {
          IrIndex index = IrIndex::Linear(b_.CreateAdd(row_base, j), logical);
          AOT_ASSIGN_OR_RETURN(llvm::Value * v, emitter_->Emit(root, index));
          results.emplace_back(index, v);
        }
        for (const auto& [index, v] : results) outputs_[0].Store(b_, index, v);
        return absl::OkStatus();
      });
    };
    llvm::Value* lane = b_.CreateAnd(thread_, b_.getInt64(31));
    llvm::Value* warp = b_.CreateLShr(thread_, b_.getInt64(5));

    // Short rows: a warp per row, several rows per block, the row's value
    // from shuffles alone (no shared memory, no barrier). Blocks are made
    // smaller (down to one warp) while that gives the SMs more of them.
    if (row_length <= kGpuWarpRowMaxLength) {
      const int64_t warps_per_block = std::clamp<int64_t>((rows + limits.cores - 1) / limits.cores,
                                                          1, GpuThreads(kGpuThreadsPerBlock) / 32);
      const int64_t blocks = (rows + warps_per_block - 1) / warps_per_block;
      if (blocks > limits.blocks_x) return false;
      SetDims(blocks, warps_per_block * 32);
      llvm::Value* row = b_.CreateAdd(b_.CreateMul(block_, b_.getInt64(warps_per_block)), warp);
      // The condition is uniform in each warp, so shfl.sync's full mask
      // holds.
      AOT_RETURN_IF_ERROR(
          emitter_->EmitIf(b_.CreateICmpULT(row, b_.getInt64(rows)), [&]() -> absl::Status {
            AOT_RETURN_IF_ERROR(accumulate(row, lane, 32));
            AOT_ASSIGN_OR_RETURN(llvm::Value * total, warp_reduce(b_.CreateLoad(acc_type, acc)));
            emitter_->SetUniformValue(hero, {total});
            return emit_root(row, lane, 32);
          }));
      return true;
    }

    // Long rows: a block per row. Few rows (fewer than SMs) get blocks of
    // up to the target's limit; otherwise 256 threads.
    if (rows > limits.blocks_x) return false;
    const int64_t wanted = rows < limits.cores ? 1024 : kGpuThreadsPerBlock;
    const int64_t threads =
        std::max<int64_t>(32, std::min(GpuThreads(wanted), (row_length + 31) / 32 * 32) / 32 * 32);
    const int64_t warps = threads / 32;
    SetDims(rows, threads);
    llvm::Value* row = block_;
    // Each thread's share of the row.
    AOT_RETURN_IF_ERROR(accumulate(row, thread_, threads));
    // Warp, then block.
    llvm::ArrayType* partials_type = llvm::ArrayType::get(acc_type, 32);
    auto* partials = new llvm::GlobalVariable(
        *module_, partials_type, /*isConstant=*/false, llvm::GlobalValue::InternalLinkage,
        llvm::UndefValue::get(partials_type), "row_partials", nullptr,
        llvm::GlobalValue::NotThreadLocal, /*AddressSpace=*/3);
    partials->setAlignment(llvm::Align(8));
    auto slot = [&](llvm::Value* i) {
      return b_.CreateInBoundsGEP(partials_type, partials, {b_.getInt64(0), i});
    };
    AOT_ASSIGN_OR_RETURN(llvm::Value * warp_value, warp_reduce(b_.CreateLoad(acc_type, acc)));
    llvm::Value* first_lane = b_.CreateICmpEQ(lane, b_.getInt64(0));
    AOT_RETURN_IF_ERROR(emitter_->EmitIf(first_lane, [&]() -> absl::Status {
      b_.CreateStore(warp_value, slot(warp));
      return absl::OkStatus();
    }));
    b_.CreateIntrinsic(llvm::Intrinsic::nvvm_barrier0, {}, {});
    AOT_RETURN_IF_ERROR(
        emitter_->EmitIf(b_.CreateICmpEQ(warp, b_.getInt64(0)), [&]() -> absl::Status {
          llvm::Value* mine = b_.CreateSelect(b_.CreateICmpULT(lane, b_.getInt64(warps)),
                                              b_.CreateLoad(acc_type, slot(lane)), init);
          AOT_ASSIGN_OR_RETURN(llvm::Value * total, warp_reduce(mine));
          return emitter_->EmitIf(first_lane, [&]() -> absl::Status {
            b_.CreateStore(total, slot(b_.getInt64(0)));
            return absl::OkStatus();
          });
        }));
    b_.CreateIntrinsic(llvm::Intrinsic::nvvm_barrier0, {}, {});
    emitter_->SetUniformValue(hero, {b_.CreateLoad(acc_type, slot(b_.getInt64(0)))});
    // The root: once per row, or per element of the row.
    AOT_RETURN_IF_ERROR(emit_root(row, thread_, threads));
    return true;
  }

  // Whether `h` reaches `root` only through elementwise ops, with exactly
  // one broadcast of dimensions {0..kept-1} to the input's dimensions on
  // every path when `broadcast_needed` (none otherwise).
  static bool ReadsOwnRow(const HloInstruction& h, const HloInstruction& root, int64_t kept,
                          const Shape& in, bool broadcast_seen, bool broadcast_needed) {
    if (&h == &root) return broadcast_seen == broadcast_needed;
    if (h.user_count() == 0) return true;  // dead: read by nothing
    for (const HloInstruction* u : h.users()) {
      bool seen = broadcast_seen;
      if (u->opcode() == HloOpcode::kBroadcast) {
        std::vector<int64_t> leading(static_cast<size_t>(kept));
        for (int64_t d = 0; d < kept; ++d) leading[d] = d;
        if (seen || !broadcast_needed || u->dimensions() != leading ||
            u->shape().dimensions() != in.dimensions()) {
          return false;
        }
        seen = true;
      } else if (!IsElementwise(u->opcode())) {
        return false;
      }
      if (!ReadsOwnRow(*u, root, kept, in, seen, broadcast_needed)) return false;
    }
    return true;
  }

  // `v` from the lane whose id differs from this one's in bit `offset`
  // (shfl.sync.bfly over the full warp), for values of 1..32 or 64 bits.
  llvm::Value* ShuffleXor(llvm::Value* v, int offset) {
    llvm::Type* type = v->getType();
    const unsigned bits = type->getPrimitiveSizeInBits();
    llvm::Type* int_type = b_.getIntNTy(bits);
    llvm::Value* as_int = type->isIntegerTy() ? v : b_.CreateBitCast(v, int_type);
    auto shuffle32 = [&](llvm::Value* x) {
      return b_.CreateIntrinsic(llvm::Intrinsic::nvvm_shfl_sync_bfly_i32, {},
                                {b_.getInt32(-1), x, b_.getInt32(offset), b_.getInt32(31)});
    };
    llvm::Value* result;
    if (bits <= 32) {
      result =
          b_.CreateZExtOrTrunc(shuffle32(b_.CreateZExtOrTrunc(as_int, b_.getInt32Ty())), int_type);
    } else {
      llvm::Value* lo = shuffle32(b_.CreateTrunc(as_int, b_.getInt32Ty()));
      llvm::Value* hi = shuffle32(b_.CreateTrunc(b_.CreateLShr(as_int, 32), b_.getInt32Ty()));
      result =
          b_.CreateOr(b_.CreateShl(b_.CreateZExt(hi, int_type), 32), b_.CreateZExt(lo, int_type));
    }
    return type->isIntegerTy() ? result : b_.CreateBitCast(result, type);
  }

  // Copies input i into output i element by element (the serial kernels'
  // first phase).
  absl::Status CopyInto(const IrArray& from, const IrArray& to) {
    int64_t n = to.shape().ElementCount();
    Shape logical(to.shape().element_type(), to.shape().dimensions());
    return emitter_->EmitLoop(n, [&](llvm::Value* i) -> absl::Status {
      IrIndex index = IrIndex::Linear(i, logical);
      to.Store(b_, index, from.Load(b_, index));
      return absl::OkStatus();
    });
  }

  absl::Status EmitSort(const HloInstruction& sort) {
    int64_t n_ops = sort.operand_count();
    if (static_cast<int64_t>(outputs_.size()) != n_ops) {
      return UnimplementedInstruction(sort, "sort outputs must match its operands");
    }
    const Shape& shape = sort.operand(0)->shape();
    int64_t dim = sort.dimensions()[0];
    int64_t len = shape.dimensions(dim);
    int64_t rows = len == 0 ? 0 : shape.ElementCount() / len;
    std::vector<int64_t> row_dims;
    for (int64_t d = 0; d < shape.rank(); ++d) {
      if (d != dim) row_dims.push_back(shape.dimensions(d));
    }
    llvm::Value* row = block_;
    // Multi-index of element j of this row.
    std::vector<llvm::Value*> row_multi(row_dims.size());
    {
      llvm::Value* rest = row;
      for (int64_t d = static_cast<int64_t>(row_dims.size()) - 1; d >= 0; --d) {
        if (d == 0) {
          row_multi[d] = rest;
        } else {
          row_multi[d] = b_.CreateURem(rest, b_.getInt64(row_dims[d]));
          rest = b_.CreateUDiv(rest, b_.getInt64(row_dims[d]));
        }
      }
    }
    auto index_at = [&](llvm::Value* j) {
      std::vector<llvm::Value*> m;
      size_t r = 0;
      for (int64_t d = 0; d < shape.rank(); ++d) m.push_back(d == dim ? j : row_multi[r++]);
      return IrIndex::Multi(m, shape);
    };
    if (gpu_) {
      AOT_ASSIGN_OR_RETURN(bool sorted, EmitGpuBitonicSort(sort, len, rows, index_at));
      if (sorted) return absl::OkStatus();
    }
    SetDims(std::max<int64_t>(rows, 1), 1);
    llvm::BasicBlock* work = llvm::BasicBlock::Create(context_, "sort.row", fn_);
    llvm::BasicBlock* exit = llvm::BasicBlock::Create(context_, "sort.exit", fn_);
    llvm::Value* active = b_.CreateICmpULT(row, b_.getInt64(rows));
    if (gpu_) active = b_.CreateAnd(active, b_.CreateICmpEQ(thread_, b_.getInt64(0)));
    b_.CreateCondBr(active, work, exit);
    b_.SetInsertPoint(work);
    // The row is sorted in runs of kSortRun elements by insertion sort,
    // then (a row longer than kSortMergeMinLength has scratch arrays) merged
    // pass by pass, doubling the run width, between the outputs and the
    // scratch: O(n log n) comparisons, stable (an element of the right run
    // moves first only when the comparator says it is less). The runs are
    // sorted in the scratch when the number of passes is odd, so the last
    // pass writes the outputs.
    const int64_t run = scratch_.empty() ? std::max<int64_t>(len, 1) : kSortRun;
    int64_t passes = 0;
    for (int64_t width = run; width < len; width *= 2) ++passes;
    const std::vector<IrArray>& runs = passes % 2 == 0 ? outputs_ : scratch_;
    AOT_RETURN_IF_ERROR(emitter_->EmitLoop(len, [&](llvm::Value* j) -> absl::Status {
      IrIndex index = index_at(j);
      for (int64_t k = 0; k < n_ops; ++k) runs[k].Store(b_, index, inputs_[k].Load(b_, index));
      return absl::OkStatus();
    }));
    auto less = [&](const std::vector<IrArray>& arrays, const IrIndex& a,
                    const IrIndex& b) -> absl::StatusOr<llvm::Value*> {
      std::vector<llvm::Value*> args;
      for (int64_t k = 0; k < n_ops; ++k) {
        args.push_back(arrays[k].Load(b_, a));
        args.push_back(arrays[k].Load(b_, b));
      }
      AOT_ASSIGN_OR_RETURN(auto result, emitter_->EmitScalarComputation(*sort.to_apply(), args));
      return result[0];
    };
    // Insertion sort of each run: move element i left while it is less
    // than its predecessor.
    llvm::AllocaInst* j_slot = emitter_->EntryAlloca(b_.getInt64Ty());
    AOT_RETURN_IF_ERROR(
        emitter_->EmitLoop((len + run - 1) / run, [&](llvm::Value* r) -> absl::Status {
          llvm::Value* first = b_.CreateMul(r, b_.getInt64(run));
          llvm::Value* last = Min(b_.CreateAdd(first, b_.getInt64(run)), b_.getInt64(len));
          return emitter_->EmitRangeLoop(
              b_.CreateAdd(first, b_.getInt64(1)), last, 1, [&](llvm::Value* i) -> absl::Status {
                b_.CreateStore(i, j_slot);
                llvm::BasicBlock* head = llvm::BasicBlock::Create(context_, "isort.head", fn_);
                llvm::BasicBlock* check = llvm::BasicBlock::Create(context_, "isort.check", fn_);
                llvm::BasicBlock* swap = llvm::BasicBlock::Create(context_, "isort.swap", fn_);
                llvm::BasicBlock* done = llvm::BasicBlock::Create(context_, "isort.done", fn_);
                b_.CreateBr(head);
                b_.SetInsertPoint(head);
                llvm::Value* j = b_.CreateLoad(b_.getInt64Ty(), j_slot);
                b_.CreateCondBr(b_.CreateICmpSGT(j, first), check, done);
                b_.SetInsertPoint(check);
                llvm::Value* jm1 = b_.CreateSub(j, b_.getInt64(1));
                IrIndex cur = index_at(j), prev = index_at(jm1);
                AOT_ASSIGN_OR_RETURN(llvm::Value * cur_less, less(runs, cur, prev));
                b_.CreateCondBr(cur_less, swap, done);
                b_.SetInsertPoint(swap);
                for (int64_t k = 0; k < n_ops; ++k) {
                  llvm::Value* c = runs[k].Load(b_, cur);
                  runs[k].Store(b_, cur, runs[k].Load(b_, prev));
                  runs[k].Store(b_, prev, c);
                }
                b_.CreateStore(jm1, j_slot);
                b_.CreateBr(head);
                b_.SetInsertPoint(done);
                return absl::OkStatus();
              });
        }));
    // Merge passes (unrolled: the row length is static).
    const std::vector<IrArray>* from = &runs;
    const std::vector<IrArray>* to = from == &outputs_ ? &scratch_ : &outputs_;
    llvm::AllocaInst* i_slot = emitter_->EntryAlloca(b_.getInt64Ty());
    for (int64_t width = run; width < len; width *= 2) {
      AOT_RETURN_IF_ERROR(emitter_->EmitLoop(
          (len + 2 * width - 1) / (2 * width), [&](llvm::Value* pair) -> absl::Status {
            llvm::Value* lo = b_.CreateMul(pair, b_.getInt64(2 * width));
            llvm::Value* mid = Min(b_.CreateAdd(lo, b_.getInt64(width)), b_.getInt64(len));
            llvm::Value* hi = Min(b_.CreateAdd(lo, b_.getInt64(2 * width)), b_.getInt64(len));
            b_.CreateStore(lo, i_slot);
            b_.CreateStore(mid, j_slot);
            return emitter_->EmitRangeLoop(lo, hi, 1, [&](llvm::Value* k) -> absl::Status {
              llvm::BasicBlock* check_right = llvm::BasicBlock::Create(context_, "merge.r", fn_);
              llvm::BasicBlock* compare = llvm::BasicBlock::Create(context_, "merge.cmp", fn_);
              llvm::BasicBlock* take_left = llvm::BasicBlock::Create(context_, "merge.left", fn_);
              llvm::BasicBlock* take_right = llvm::BasicBlock::Create(context_, "merge.right", fn_);
              llvm::BasicBlock* next = llvm::BasicBlock::Create(context_, "merge.next", fn_);
              llvm::Value* i = b_.CreateLoad(b_.getInt64Ty(), i_slot);
              llvm::Value* j = b_.CreateLoad(b_.getInt64Ty(), j_slot);
              b_.CreateCondBr(b_.CreateICmpSLT(i, mid), check_right, take_right);
              b_.SetInsertPoint(check_right);
              b_.CreateCondBr(b_.CreateICmpSLT(j, hi), compare, take_left);
              b_.SetInsertPoint(compare);
              AOT_ASSIGN_OR_RETURN(llvm::Value * right_less, less(*from, index_at(j), index_at(i)));
              b_.CreateCondBr(right_less, take_right, take_left);
              for (auto [block, slot] : {std::pair{take_left, i_slot}, {take_right, j_slot}}) {
                b_.SetInsertPoint(block);
                llvm::Value* at = b_.CreateLoad(b_.getInt64Ty(), slot);
                IrIndex src = index_at(at);
                for (int64_t o = 0; o < n_ops; ++o) {
                  (*to)[o].Store(b_, index_at(k), (*from)[o].Load(b_, src));
                }
                b_.CreateStore(b_.CreateAdd(at, b_.getInt64(1)), slot);
                b_.CreateBr(next);
              }
              b_.SetInsertPoint(next);
              return absl::OkStatus();
            });
          }));
      std::swap(from, to);
    }
    b_.CreateBr(exit);
    b_.SetInsertPoint(exit);
    return absl::OkStatus();
  }

  // GPU: a row of at most kGpuSortMaxLength elements whose operands fit
  // in the block's shared memory is sorted by one block with a bitonic
  // network: the row (padded to a power of two P) goes to shared memory,
  // each of the network's stages spreads its P/2 compare-exchanges over
  // the block's threads with a barrier after it, and the first `len` slots
  // go back to the outputs. Every slot carries its element's position in
  // the row: padding (position >= len) orders after every element, and
  // elements the comparator finds equivalent order by position, so the
  // result is the stable serial sort's whatever is_stable says. Returns
  // false (nothing emitted) otherwise: the row-per-thread merge sort.
  absl::StatusOr<bool> EmitGpuBitonicSort(const HloInstruction& sort, int64_t len, int64_t rows,
                                          const std::function<IrIndex(llvm::Value*)>& index_at) {
    const int64_t n_ops = sort.operand_count();
    if (len < 2 || len > kGpuSortMaxLength || rows > Limits().blocks_x) return false;
    int64_t padded = 1;
    while (padded < len) padded *= 2;
    std::vector<llvm::Type*> types;
    int64_t slot_bytes = 4;  // the position
    for (int64_t k = 0; k < n_ops; ++k) {
      llvm::Type* t = ComputeType(sort.operand(k)->shape().element_type(), context_);
      const unsigned bits = t->getPrimitiveSizeInBits();
      if (bits == 0 || bits % 8 != 0) return false;
      types.push_back(t);
      slot_bytes += bits / 8;
    }
    int64_t shared_limit = kGpuStaticSharedBytes;
    if (target_.device_description().shared_memory_per_block() > 0) {
      shared_limit = std::min(shared_limit, target_.device_description().shared_memory_per_block());
    }
    if (padded * slot_bytes > shared_limit) return false;
    const int64_t threads = std::max<int64_t>(32, std::min(GpuThreads(1024), padded / 2));
    SetDims(rows, threads);
    auto shared_array = [&](llvm::Type* element, const std::string& name) {
      llvm::ArrayType* type = llvm::ArrayType::get(element, static_cast<uint64_t>(padded));
      auto* g = new llvm::GlobalVariable(*module_, type, /*isConstant=*/false,
                                         llvm::GlobalValue::InternalLinkage,
                                         llvm::UndefValue::get(type), name, nullptr,
                                         llvm::GlobalValue::NotThreadLocal, /*AddressSpace=*/3);
      g->setAlignment(llvm::Align(8));
      return g;
    };
    std::vector<llvm::GlobalVariable*> keys;
    for (int64_t k = 0; k < n_ops; ++k) {
      keys.push_back(shared_array(types[k], absl::StrCat("sort_keys", k)));
    }
    llvm::GlobalVariable* positions = shared_array(b_.getInt32Ty(), "sort_positions");
    auto at = [&](llvm::GlobalVariable* array, llvm::Value* i) {
      return b_.CreateInBoundsGEP(array->getValueType(), array, {b_.getInt64(0), i});
    };
    // Load the row; padding slots hold zeros.
    AOT_RETURN_IF_ERROR(
        emitter_->EmitStridedLoop(thread_, padded, threads, [&](llvm::Value* p) -> absl::Status {
          llvm::Value* valid = b_.CreateICmpULT(p, b_.getInt64(len));
          llvm::Value* clamped = Min(p, b_.getInt64(len - 1));
          for (int64_t k = 0; k < n_ops; ++k) {
            llvm::Value* v = inputs_[k].Load(b_, index_at(clamped));
            b_.CreateStore(b_.CreateSelect(valid, v, llvm::Constant::getNullValue(types[k])),
                           at(keys[k], p));
          }
          b_.CreateStore(b_.CreateTrunc(p, b_.getInt32Ty()), at(positions, p));
          return absl::OkStatus();
        }));
    b_.CreateIntrinsic(llvm::Intrinsic::nvvm_barrier0, {}, {});
    // Whether slot contents x order strictly before y's.
    struct Slot {
      std::vector<llvm::Value*> values;
      llvm::Value* position;
    };
    auto load_slot = [&](llvm::Value* i) {
      Slot slot;
      for (int64_t k = 0; k < n_ops; ++k) {
        slot.values.push_back(b_.CreateLoad(types[k], at(keys[k], i)));
      }
      slot.position = b_.CreateLoad(b_.getInt32Ty(), at(positions, i));
      return slot;
    };
    auto comparator = [&](const Slot& x, const Slot& y) -> absl::StatusOr<llvm::Value*> {
      std::vector<llvm::Value*> args;
      for (int64_t k = 0; k < n_ops; ++k) {
        args.push_back(x.values[k]);
        args.push_back(y.values[k]);
      }
      AOT_ASSIGN_OR_RETURN(auto r, emitter_->EmitScalarComputation(*sort.to_apply(), args));
      return r[0];
    };
    // Whether x orders strictly before y, given the comparator both ways.
    llvm::Value* len32 = b_.getInt32(static_cast<uint32_t>(len));
    auto before = [&](const Slot& x, const Slot& y, llvm::Value* x_less, llvm::Value* y_less) {
      llvm::Value* x_valid = b_.CreateICmpULT(x.position, len32);
      llvm::Value* y_valid = b_.CreateICmpULT(y.position, len32);
      llvm::Value* tie =
          b_.CreateAnd(b_.CreateNot(y_less), b_.CreateICmpULT(x.position, y.position));
      return b_.CreateAnd(x_valid, b_.CreateOr(b_.CreateNot(y_valid), b_.CreateOr(x_less, tie)));
    };
    // The network, unrolled (P is static): stage (k, j) compares slot i
    // with i + j for every i whose bit j is clear, ascending where bit k
    // of i is clear.
    for (int64_t k = 2; k <= padded; k *= 2) {
      for (int64_t j = k / 2; j >= 1; j /= 2) {
        AOT_RETURN_IF_ERROR(emitter_->EmitStridedLoop(
            thread_, padded / 2, threads, [&](llvm::Value* t) -> absl::Status {
              // t with a zero bit inserted at j's position.
              llvm::Value* low = b_.CreateAnd(t, b_.getInt64(j - 1));
              llvm::Value* high = b_.CreateShl(b_.CreateAnd(t, b_.getInt64(~(j - 1))), 1);
              llvm::Value* i = b_.CreateOr(high, low);
              llvm::Value* partner = b_.CreateOr(i, b_.getInt64(j));
              Slot x = load_slot(i), y = load_slot(partner);
              AOT_ASSIGN_OR_RETURN(llvm::Value * x_less, comparator(x, y));
              AOT_ASSIGN_OR_RETURN(llvm::Value * y_less, comparator(y, x));
              llvm::Value* y_first = before(y, x, y_less, x_less);
              llvm::Value* x_first = before(x, y, x_less, y_less);
              llvm::Value* ascending =
                  b_.CreateICmpEQ(b_.CreateAnd(i, b_.getInt64(k)), b_.getInt64(0));
              llvm::Value* swap = b_.CreateSelect(ascending, y_first, x_first);
              return emitter_->EmitIf(swap, [&]() -> absl::Status {
                for (int64_t o = 0; o < n_ops; ++o) {
                  b_.CreateStore(y.values[o], at(keys[o], i));
                  b_.CreateStore(x.values[o], at(keys[o], partner));
                }
                b_.CreateStore(y.position, at(positions, i));
                b_.CreateStore(x.position, at(positions, partner));
                return absl::OkStatus();
              });
            }));
        b_.CreateIntrinsic(llvm::Intrinsic::nvvm_barrier0, {}, {});
      }
    }
    AOT_RETURN_IF_ERROR(
        emitter_->EmitStridedLoop(thread_, len, threads, [&](llvm::Value* p) -> absl::Status {
          for (int64_t k = 0; k < n_ops; ++k) {
            outputs_[k].Store(b_, index_at(p), b_.CreateLoad(types[k], at(keys[k], p)));
          }
          return absl::OkStatus();
        }));
    return true;
  }

  llvm::Value* Min(llvm::Value* a, llvm::Value* b) {
    return b_.CreateSelect(b_.CreateICmpSLT(a, b), a, b);
  }

  // Scatter with n operands (variadic when n > 1: n operands, one index
  // array, n updates, a combiner over n old and n new values), batching
  // dimensions included. Runs serially: updates may collide.
  absl::Status EmitScatter(const HloInstruction& scatter) {
    const int64_t n_ops = (scatter.operand_count() - 1) / 2;
    if (static_cast<int64_t>(outputs_.size()) != n_ops) {
      return UnimplementedInstruction(scatter, "scatter outputs must match its operands");
    }
    const ScatterDimensionNumbersProto& dn = *scatter.attrs().scatter_dimension_numbers;
    const Shape& operand = scatter.operand(0)->shape();
    const Shape& indices = scatter.operand(n_ops)->shape();
    const Shape& updates = scatter.operand(n_ops + 1)->shape();
    const int64_t ivd = dn.index_vector_dim();
    auto in_set = [](const google::protobuf::RepeatedField<int64_t>& set, int64_t d) {
      return std::find(set.begin(), set.end(), d) != set.end();
    };
    auto is_window_dim = [&](int64_t d) {
      return !in_set(dn.inserted_window_dims(), d) && !in_set(dn.input_batching_dims(), d);
    };
    // Window extent per operand dimension (1 for inserted and batching ones).
    std::vector<int64_t> extent(operand.rank(), 1);
    {
      int w = 0;
      for (int64_t d = 0; d < operand.rank(); ++d) {
        if (is_window_dim(d)) extent[d] = updates.dimensions(dn.update_window_dims(w++));
      }
    }
    // Where the window of the update at multi-index `um` starts, and
    // whether it fits (reads only `um`'s scatter dimensions, not its window
    // dimensions).
    struct Window {
      std::vector<llvm::Value*> start;
      llvm::Value* fits;
    };
    auto locate = [&](const std::vector<llvm::Value*>& um) -> Window {
      // The update's scatter dimensions index the indices' batch dims.
      std::vector<llvm::Value*> scatter_index;
      for (int64_t d = 0; d < updates.rank(); ++d) {
        if (!in_set(dn.update_window_dims(), d)) scatter_index.push_back(um[d]);
      }
      std::vector<llvm::Value*> start(operand.rank(), b_.getInt64(0));
      llvm::Value* fits = b_.getTrue();
      for (int k = 0; k < dn.scatter_dims_to_operand_dims_size(); ++k) {
        std::vector<llvm::Value*> im;
        size_t s = 0;
        // (An index_vector_dim past the last dimension is an implicit
        // trailing vector of size 1: no dimension takes k.)
        for (int64_t d = 0; d < indices.rank(); ++d) {
          im.push_back(d == ivd ? b_.getInt64(k) : scatter_index[s++]);
        }
        llvm::Value* v = inputs_[n_ops].Load(b_, IrIndex::Multi(im, indices));
        int64_t od = dn.scatter_dims_to_operand_dims(k);
        llvm::Value* sv = emitter_->Convert(v, indices.element_type(), S64);
        fits = b_.CreateAnd(
            fits,
            b_.CreateAnd(b_.CreateICmpSGE(sv, b_.getInt64(0)),
                         b_.CreateICmpSLE(sv, b_.getInt64(operand.dimensions(od) - extent[od]))));
        start[od] = sv;
      }
      // A batching dimension of the operand is indexed by the batch
      // index of its paired indices dimension.
      for (int i = 0; i < dn.input_batching_dims_size(); ++i) {
        int64_t d = dn.scatter_indices_batching_dims(i);
        start[dn.input_batching_dims(i)] = scatter_index[static_cast<size_t>(d > ivd ? d - 1 : d)];
      }
      return Window{std::move(start), fits};
    };
    // The operand element the update element at `uindex` lands on.
    auto target_index = [&](const IrIndex& uindex, const Window& window) {
      const std::vector<llvm::Value*>& um = uindex.multi(b_);
      std::vector<llvm::Value*> om(operand.rank());
      int w = 0;
      for (int64_t d = 0; d < operand.rank(); ++d) {
        llvm::Value* offset = b_.getInt64(0);
        if (is_window_dim(d)) offset = um[dn.update_window_dims(w++)];
        om[d] = emitter_->Clamp(b_.CreateAdd(window.start[d], offset), 0,
                                std::max<int64_t>(operand.dimensions(d) - 1, 0));
      }
      return IrIndex::Multi(om, operand);
    };
    Shape logical(updates.element_type(), updates.dimensions());
    if (gpu_ && spec_.update_in_place) {
      // ScatterUsesAtomics: the output already holds the operand; a thread
      // per update element, combined with one atomic operation (or stored,
      // when the indices are unique and the combiner overwrites).
      std::optional<ScatterAtomic> atomic = ScatterAtomicOf(scatter);
      if (!atomic)
        return UnimplementedInstruction(scatter, "in-place scatter without an atomic combiner");
      const int64_t n = updates.ElementCount();
      SetElementParallelDims(std::max<int64_t>(n, 1));
      return ForEachElement(n, [&](llvm::Value* u) -> absl::Status {
        IrIndex uindex = IrIndex::Linear(u, logical);
        Window window = locate(uindex.multi(b_));
        return emitter_->EmitIf(window.fits, [&]() -> absl::Status {
          IrIndex oindex = target_index(uindex, window);
          llvm::Value* value = inputs_[2].Load(b_, uindex);
          if (atomic->overwrite) {
            outputs_[0].Store(b_, oindex, value);
          } else {
            b_.CreateAtomicRMW(atomic->op, outputs_[0].ElementAddress(b_, oindex), value,
                               llvm::MaybeAlign(), llvm::AtomicOrdering::Monotonic);
          }
          return absl::OkStatus();
        });
      });
    }
    // Combines the update element at `uindex` into the output when its
    // window fits.
    auto combine = [&](const IrIndex& uindex, const Window& window) -> absl::Status {
      llvm::Value* fits = window.fits;
      IrIndex oindex = target_index(uindex, window);
      std::vector<llvm::Value*> args, old;
      for (int64_t k = 0; k < n_ops; ++k) old.push_back(outputs_[k].Load(b_, oindex));
      args = old;
      for (int64_t k = 0; k < n_ops; ++k) args.push_back(inputs_[n_ops + 1 + k].Load(b_, uindex));
      AOT_ASSIGN_OR_RETURN(auto combined,
                           emitter_->EmitScalarComputation(*scatter.to_apply(), args));
      for (int64_t k = 0; k < n_ops; ++k) {
        outputs_[k].Store(b_, oindex, b_.CreateSelect(fits, combined[k], old[k]));
      }
      return absl::OkStatus();
    };
    // A window dimension that no index moves (its start is always 0) and
    // whose window spans it: an operand element's coordinate there is its
    // updates' window offset, so blocks owning disjoint ranges of it never
    // write the same element, and each keeps the serial order of the
    // updates it applies. Blocks split the most minor such dimension.
    int64_t free_dim = -1, free_update_dim = -1;
    {
      int w = 0;
      for (int64_t d = 0; d < operand.rank(); ++d) {
        if (!is_window_dim(d)) continue;
        int64_t ud = dn.update_window_dims(w++);
        if (!in_set(dn.scatter_dims_to_operand_dims(), d) && extent[d] == operand.dimensions(d) &&
            operand.dimensions(d) >= 2 * kScatterColumnsPerBlock) {
          free_dim = d;
          free_update_dim = ud;
        }
      }
    }
    if (free_dim < 0) {
      return Serially([&]() -> absl::Status {
        for (int64_t k = 0; k < n_ops; ++k) AOT_RETURN_IF_ERROR(CopyInto(inputs_[k], outputs_[k]));
        return emitter_->EmitLoop(updates.ElementCount(), [&](llvm::Value* u) {
          IrIndex uindex = IrIndex::Linear(u, logical);
          return combine(uindex, locate(uindex.multi(b_)));
        });
      });
    }
    const int64_t columns = operand.dimensions(free_dim);
    const int64_t blocks = (columns + kScatterColumnsPerBlock - 1) / kScatterColumnsPerBlock;
    SetDims(blocks, 1);
    llvm::BasicBlock* work = llvm::BasicBlock::Create(context_, "scatter.block", fn_);
    llvm::BasicBlock* exit = llvm::BasicBlock::Create(context_, "scatter.exit", fn_);
    llvm::Value* active = b_.CreateICmpULT(block_, b_.getInt64(blocks));
    if (gpu_) active = b_.CreateAnd(active, b_.CreateICmpEQ(thread_, b_.getInt64(0)));
    b_.CreateCondBr(active, work, exit);
    b_.SetInsertPoint(work);
    llvm::Value* first = b_.CreateMul(block_, b_.getInt64(kScatterColumnsPerBlock));
    llvm::Value* last =
        Min(b_.CreateAdd(first, b_.getInt64(kScatterColumnsPerBlock)), b_.getInt64(columns));
    // for each index of `shape` without dimension `skip`: outer(that index,
    // with first at `skip`), then for c in [first, last): body(the index
    // with c at `skip`). (The scatter's outer part finds the update's window
    // once for all its columns.)
    auto for_block_columns = [&](const Shape& shape, int64_t skip,
                                 const std::function<void(const std::vector<llvm::Value*>&)>& outer,
                                 const std::function<absl::Status(const IrIndex&)>& body) {
      std::vector<int64_t> rest_dims;
      for (int64_t d = 0; d < shape.rank(); ++d) {
        if (d != skip) rest_dims.push_back(shape.dimensions(d));
      }
      Shape rest(shape.element_type(), rest_dims);
      return emitter_->EmitLoop(rest.ElementCount(), [&](llvm::Value* r) -> absl::Status {
        std::vector<llvm::Value*> rm = IrIndex::Linear(r, rest).multi(b_);
        std::vector<llvm::Value*> m0 = rm;
        m0.insert(m0.begin() + skip, first);
        outer(m0);
        auto at = [&](llvm::Value* c) -> absl::Status {
          std::vector<llvm::Value*> m = rm;
          m.insert(m.begin() + skip, c);
          return body(IrIndex::Multi(m, shape));
        };
        // Whole blocks: a static loop whose iterations write distinct
        // elements (vectorizable).
        if (columns % kScatterColumnsPerBlock == 0) {
          return emitter_->EmitParallelLoop(
              kScatterColumnsPerBlock, [&](llvm::Value* j) { return at(b_.CreateAdd(first, j)); });
        }
        return emitter_->EmitRangeLoop(first, last, 1, at);
      });
    };
    Shape operand_logical(operand.element_type(), operand.dimensions());
    AOT_RETURN_IF_ERROR(for_block_columns(
        operand_logical, free_dim, [](const std::vector<llvm::Value*>&) {},
        [&](const IrIndex& index) -> absl::Status {
          for (int64_t k = 0; k < n_ops; ++k) {
            outputs_[k].Store(b_, index, inputs_[k].Load(b_, index));
          }
          return absl::OkStatus();
        }));
    std::optional<Window> window;
    AOT_RETURN_IF_ERROR(for_block_columns(
        logical, free_update_dim, [&](const std::vector<llvm::Value*>& um) { window = locate(um); },
        [&](const IrIndex& uindex) { return combine(uindex, *window); }));
    b_.CreateBr(exit);
    b_.SetInsertPoint(exit);
    return absl::OkStatus();
  }

  // A dynamic-update-slice whose output is its operand's buffer: one
  // element-parallel pass over the update, written at the clamped start
  // (the rest of the buffer already holds the operand).
  absl::Status EmitDynamicUpdateSliceInPlace(const HloInstruction& dus) {
    if (outputs_.size() != 1)
      return UnimplementedInstruction(dus, "in-place update with several outputs");
    const Shape& in = dus.operand(0)->shape();
    const Shape& update = dus.operand(1)->shape();
    const int64_t n = update.ElementCount();
    SetElementParallelDims(std::max<int64_t>(n, 1));
    if (n == 0) return absl::OkStatus();
    Shape logical(update.element_type(), update.dimensions());
    return ForEachElement(n, [&](llvm::Value* linear) -> absl::Status {
      IrIndex uindex = IrIndex::Linear(linear, logical);
      const std::vector<llvm::Value*>& um = uindex.multi(b_);
      std::vector<llvm::Value*> om(in.rank());
      for (int64_t d = 0; d < in.rank(); ++d) {
        const HloInstruction* index_op = dus.operand(2 + d);
        AOT_ASSIGN_OR_RETURN(llvm::Value * start, emitter_->Emit(*index_op, IrIndex()));
        start = emitter_->Clamp(emitter_->Convert(start, index_op->shape().element_type(), S64), 0,
                                in.dimensions(d) - update.dimensions(d));
        om[d] = b_.CreateAdd(start, um[d]);
      }
      AOT_ASSIGN_OR_RETURN(llvm::Value * v, emitter_->Emit(*dus.operand(1), uindex));
      outputs_[0].Store(b_, IrIndex::Multi(om, in), v);
      return absl::OkStatus();
    });
  }

  absl::Status EmitSelectAndScatter(const HloInstruction& sas) {
    const Shape& operand = sas.operand(0)->shape();
    const Shape& source = sas.operand(1)->shape();
    const WindowProto& window = *sas.attrs().window;
    int64_t rank = operand.rank();
    return Serially([&]() -> absl::Status {
      // Output = init.
      Shape logical(operand.element_type(), operand.dimensions());
      absl::Status s =
          emitter_->EmitLoop(operand.ElementCount(), [&](llvm::Value* i) -> absl::Status {
            outputs_[0].Store(b_, IrIndex::Linear(i, logical), inputs_[2].Load(b_, IrIndex()));
            return absl::OkStatus();
          });
      if (!s.ok()) return s;
      llvm::Type* et = ComputeType(operand.element_type(), context_);
      llvm::AllocaInst* have = emitter_->EntryAlloca(b_.getInt1Ty());
      llvm::AllocaInst* best = emitter_->EntryAlloca(et);
      std::vector<llvm::AllocaInst*> best_index(rank);
      for (int64_t d = 0; d < rank; ++d) best_index[d] = emitter_->EntryAlloca(b_.getInt64Ty());
      int64_t window_count = 1;
      for (const auto& wd : window.dimensions()) window_count *= wd.size();
      Shape source_logical(source.element_type(), source.dimensions());
      return emitter_->EmitLoop(source.ElementCount(), [&](llvm::Value* si) -> absl::Status {
        IrIndex sindex = IrIndex::Linear(si, source_logical);
        const std::vector<llvm::Value*>& sm = sindex.multi(b_);
        b_.CreateStore(b_.getFalse(), have);
        absl::Status inner = emitter_->EmitLoop(window_count, [&](llvm::Value* w) -> absl::Status {
          llvm::Value* rest = w;
          std::vector<llvm::Value*> pos(rank);
          llvm::Value* valid = b_.getTrue();
          for (int64_t d = rank - 1; d >= 0; --d) {
            const WindowDimensionProto& wd = window.dimensions(static_cast<int>(d));
            llvm::Value* k = d == 0 ? rest : b_.CreateURem(rest, b_.getInt64(wd.size()));
            if (d > 0) rest = b_.CreateUDiv(rest, b_.getInt64(wd.size()));
            llvm::Value* p =
                b_.CreateAdd(b_.CreateSub(b_.CreateMul(sm[d], b_.getInt64(wd.stride())),
                                          b_.getInt64(wd.padding_low())),
                             k);
            valid = b_.CreateAnd(
                valid, b_.CreateAnd(b_.CreateICmpSGE(p, b_.getInt64(0)),
                                    b_.CreateICmpSLT(p, b_.getInt64(operand.dimensions(d)))));
            pos[d] = emitter_->Clamp(p, 0, std::max<int64_t>(operand.dimensions(d) - 1, 0));
          }
          llvm::Value* cur = inputs_[0].Load(b_, IrIndex::Multi(pos, operand));
          llvm::Value* has = b_.CreateLoad(b_.getInt1Ty(), have);
          llvm::Value* current_best = b_.CreateLoad(et, best);
          AOT_ASSIGN_OR_RETURN(auto keep, emitter_->EmitScalarComputation(
                                              *sas.called_computations()[0], {current_best, cur}));
          llvm::Value* take =
              b_.CreateAnd(valid, b_.CreateOr(b_.CreateNot(has), b_.CreateNot(keep[0])));
          b_.CreateStore(b_.CreateSelect(take, cur, current_best), best);
          for (int64_t d = 0; d < rank; ++d) {
            llvm::Value* old = b_.CreateLoad(b_.getInt64Ty(), best_index[d]);
            b_.CreateStore(b_.CreateSelect(take, pos[d], old), best_index[d]);
          }
          b_.CreateStore(b_.CreateOr(has, valid), have);
          return absl::OkStatus();
        });
        if (!inner.ok()) return inner;
        std::vector<llvm::Value*> target(rank);
        for (int64_t d = 0; d < rank; ++d)
          target[d] = b_.CreateLoad(b_.getInt64Ty(), best_index[d]);
        IrIndex tindex = IrIndex::Multi(target, operand);
        llvm::Value* old = outputs_[0].Load(b_, tindex);
        llvm::Value* src = inputs_[1].Load(b_, sindex);
        AOT_ASSIGN_OR_RETURN(auto combined, emitter_->EmitScalarComputation(
                                                *sas.called_computations()[1], {old, src}));
        llvm::Value* has = b_.CreateLoad(b_.getInt1Ty(), have);
        outputs_[0].Store(b_, tindex, b_.CreateSelect(has, combined[0], old));
        return absl::OkStatus();
      });
    });
  }

  const KernelSpec& spec_;
  const TargetConfigProto& target_;
  bool gpu_;
  llvm::LLVMContext context_;
  std::unique_ptr<llvm::Module> module_;
  llvm::IRBuilder<> b_;
  llvm::Function* fn_ = nullptr;
  std::vector<llvm::Value*> arg_ptrs_;
  llvm::Value* block_ = nullptr;
  llvm::Value* thread_ = nullptr;
  llvm::Value* threads_ = nullptr;
  std::vector<IrArray> inputs_, outputs_, scratch_;
  std::map<const HloInstruction*, int64_t> input_index_;
  // Instructions whose values this kernel has already put in memory (a
  // staged transpose tile, a row's cached reduce operand): the emitter
  // loads them there instead of computing them again.
  std::map<const HloInstruction*, std::function<absl::StatusOr<llvm::Value*>(const IrIndex&)>>
      materialized_;
  std::unique_ptr<ElementalEmitter> emitter_;
  LaunchDimensionsProto dims_;
};

}  // namespace

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
