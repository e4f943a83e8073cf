// Scatter kernels (GPU atomics where the combiner allows), in-place
// dynamic-update-slice and select-and-scatter.
#include "compiler/codegen/kernel_emitter_internal.h"
#include "support/status_macros.h"

namespace aot {
namespace kernel_internal {

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

absl::Status KernelBuilder::EmitScatter(const HloInstruction& scatter) {
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
    AOT_ASSIGN_OR_RETURN(auto combined, emitter_->EmitScalarComputation(*scatter.to_apply(), args));
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

absl::Status KernelBuilder::EmitDynamicUpdateSliceInPlace(const HloInstruction& dus) {
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

absl::Status KernelBuilder::EmitSelectAndScatter(const HloInstruction& sas) {
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
    AOT_RETURN_IF_ERROR(s);
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
          llvm::Value* p = b_.CreateAdd(b_.CreateSub(b_.CreateMul(sm[d], b_.getInt64(wd.stride())),
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
      AOT_RETURN_IF_ERROR(inner);
      std::vector<llvm::Value*> target(rank);
      for (int64_t d = 0; d < rank; ++d) target[d] = b_.CreateLoad(b_.getInt64Ty(), best_index[d]);
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

}  // namespace kernel_internal
}  // namespace aot
