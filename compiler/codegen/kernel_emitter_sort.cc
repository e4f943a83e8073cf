// Sort kernels: insertion-sorted runs merged, and the GPU bitonic network
// in shared memory.
#include "compiler/codegen/kernel_emitter_internal.h"

namespace aot {
namespace kernel_internal {

absl::Status KernelBuilder::EmitSort(const HloInstruction& sort) {
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

absl::StatusOr<bool> KernelBuilder::EmitGpuBitonicSort(
    const HloInstruction& sort, int64_t len, int64_t rows,
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
    llvm::Value* tie = b_.CreateAnd(b_.CreateNot(y_less), b_.CreateICmpULT(x.position, y.position));
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

}  // namespace kernel_internal
}  // namespace aot
