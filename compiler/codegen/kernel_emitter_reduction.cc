// Reduction kernels: rows and columns, on the host and on GPUs (one warp
// per short row, shuffles).
#include "compiler/codegen/kernel_emitter_internal.h"

namespace aot {
namespace kernel_internal {

std::optional<KernelBuilder::RowReductionPlan> KernelBuilder::PlanRowReduction(
    const HloInstruction& root) {
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

absl::StatusOr<bool> KernelBuilder::EmitHostRowReduction(const HloInstruction& root) {
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
        AOT_ASSIGN_OR_RETURN(llvm::Value * v, emitter_->Emit(*hero->operand(0),
                                                             IrIndex::Linear(b_.CreateAdd(base, j),
                                                                             plan->in_logical)));
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
      AOT_RETURN_IF_ERROR(plan->cache_operand ? emitter_->EmitParallelLoop(row_length, reduce_step)
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

std::optional<std::pair<int64_t, int64_t>> KernelBuilder::PlanColumnReduction(
    const HloInstruction& root) {
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

absl::StatusOr<bool> KernelBuilder::EmitHostColumnReduction(const HloInstruction& root) {
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
      AOT_ASSIGN_OR_RETURN(auto sum, emitter_->EmitScalarComputation(
                                         *root.to_apply(), {b_.CreateLoad(acc_type, slot(j)), v}));
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

absl::StatusOr<bool> KernelBuilder::EmitGpuColumnReduction(const HloInstruction& root) {
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
    outputs_[0].Store(b_, IrIndex::Linear(col, Shape(out.element_type(), out.dimensions())), total);
    return absl::OkStatus();
  }));
  return true;
}

absl::StatusOr<bool> KernelBuilder::EmitGpuRowReduction(const HloInstruction& root) {
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
    const int64_t warps_per_block = std::clamp<int64_t>((rows + limits.cores - 1) / limits.cores, 1,
                                                        GpuThreads(kGpuThreadsPerBlock) / 32);
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

bool KernelBuilder::ReadsOwnRow(const HloInstruction& h, const HloInstruction& root, int64_t kept,
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

llvm::Value* KernelBuilder::ShuffleXor(llvm::Value* v, int offset) {
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

}  // namespace kernel_internal
}  // namespace aot
