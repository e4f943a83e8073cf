// Layout kernels: concatenated rows copied as rows, transposes by tiles.
#include "compiler/codegen/kernel_emitter_internal.h"

namespace aot {
namespace kernel_internal {

absl::StatusOr<bool> KernelBuilder::EmitHostConcatenateRows(const HloInstruction& root) {
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

absl::StatusOr<bool> KernelBuilder::EmitHostTiledTranspose(const HloInstruction& kernel,
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

bool KernelBuilder::StreamTileRows(
    const HloInstruction& staged, const HloInstruction& root, int64_t rows, int64_t cols,
    llvm::Value* row0, llvm::Value* col0,
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

llvm::Value* KernelBuilder::TileSlot(llvm::Value* i, llvm::Value* j) {
  llvm::Value* slot = b_.CreateAdd(b_.CreateMul(i, b_.getInt64(kTransposeTile)), j);
  return b_.CreateInBoundsGEP(tile_.buffer->getAllocatedType(), tile_.buffer,
                              {b_.getInt64(0), slot});
}

absl::StatusOr<llvm::Value*> KernelBuilder::LoadFromTile(const IrIndex& index) {
  const std::vector<llvm::Value*>& multi = index.multi(b_);
  llvm::Value* i = b_.CreateSub(multi[tile_.d], tile_.row0);
  llvm::Value* j = b_.CreateSub(multi.back(), tile_.col0);
  return b_.CreateLoad(tile_.buffer->getAllocatedType()->getArrayElementType(), TileSlot(i, j));
}

}  // namespace kernel_internal
}  // namespace aot
