// Index-mapping and looping ops of the elemental emitter.
#include <cstring>
#include <numeric>

#include "absl/strings/str_cat.h"
#include "compiler/codegen/elemental_emitter.h"
#include "support/status_macros.h"

namespace aot {

absl::StatusOr<llvm::Value*> ElementalEmitter::EmitConstant(const HloInstruction& instr,
                                                            const IrIndex& index) {
  const Literal& literal = instr.literal();
  PrimitiveType type = literal.shape().element_type();
  llvm::LLVMContext& c = b_->getContext();
  auto element = [&](int64_t i) -> llvm::Constant* {
    llvm::Type* t = ComputeType(type, c);
    // A narrow type's byte as it is (its code, or its sign-extended value).
    if (IsNarrowType(type)) return llvm::ConstantInt::get(t, literal.raw()[i]);
    if (IsFloatingPoint(type)) return llvm::ConstantFP::get(t, literal.GetAsDouble(i));
    if (IsComplex(type)) {
      // The (real, imaginary) pair's bytes as one integer (ComputeType).
      const int64_t width = ByteWidth(type);
      uint64_t words[2] = {0, 0};
      std::memcpy(words, literal.raw().data() + i * width, static_cast<size_t>(width));
      return llvm::ConstantInt::get(t, llvm::APInt(static_cast<unsigned>(8 * width),
                                                   llvm::ArrayRef<uint64_t>(words, width / 8)));
    }
    if (type == PRED) return llvm::ConstantInt::get(t, literal.GetAsInt64(i) != 0);
    if (IsUnsignedInteger(type)) return llvm::ConstantInt::get(t, literal.GetAsUint64(i));
    return llvm::ConstantInt::getSigned(t, literal.GetAsInt64(i));
  };
  int64_t n = literal.element_count();
  if (n == 1) return element(0);
  // A small array constant copied into the kernel: a private global table
  // (row-major logical order, compute type).
  std::vector<llvm::Constant*> values;
  values.reserve(n);
  for (int64_t i = 0; i < n; ++i) values.push_back(element(i));
  llvm::Type* et = ComputeType(type, c);
  if (type == PRED) {
    et = b_->getInt8Ty();
    for (int64_t i = 0; i < n; ++i) {
      values[i] = llvm::ConstantInt::get(et, literal.GetAsInt64(i) != 0 ? 1 : 0);
    }
  }
  auto* array_type = llvm::ArrayType::get(et, n);
  auto* global = new llvm::GlobalVariable(
      *module_, array_type, /*isConstant=*/true, llvm::GlobalValue::PrivateLinkage,
      llvm::ConstantArray::get(array_type, values), absl::StrCat(instr.name(), ".table"));
  llvm::Value* ptr = b_->CreateInBoundsGEP(et, global, index.linear(*b_));
  llvm::Value* v = b_->CreateLoad(et, ptr);
  if (type == PRED) v = b_->CreateICmpNE(v, b_->getInt8(0));
  return v;
}

absl::StatusOr<std::vector<llvm::Value*>> ElementalEmitter::EmitUncached(
    const HloInstruction& instr, const IrIndex& index) {
  HloOpcode op = instr.opcode();
  const Shape& shape = instr.shape();
  auto one = [](absl::StatusOr<llvm::Value*> v) -> absl::StatusOr<std::vector<llvm::Value*>> {
    AOT_RETURN_IF_ERROR(v);
    return std::vector<llvm::Value*>{*v};
  };
  auto operand = [&](int64_t i, const IrIndex& idx) { return Emit(*instr.operand(i), idx); };
  auto operand_index = [&](int64_t i, std::vector<llvm::Value*> multi) {
    return IrIndex::Multi(std::move(multi), instr.operand(i)->shape());
  };
  // Same-shaped operands share the index (keeps linear indices linear).
  auto same_index = [&](int64_t i) {
    const Shape& s = instr.operand(i)->shape();
    if (s.dimensions() == shape.dimensions()) return index;
    return IrIndex::Multi(index.multi(*b_), s);
  };

  if (op == HloOpcode::kTuple) {
    // A multi-output fusion's root: every element's values at the same
    // index, in order (its outputs share their dimensions here; siblings
    // of other dimensions go through KernelBuilder::EmitSiblingOutputs).
    std::vector<llvm::Value*> values;
    for (const HloInstruction* element : instr.operands()) {
      AOT_ASSIGN_OR_RETURN(auto v, EmitAll(*element, index));
      values.insert(values.end(), v.begin(), v.end());
    }
    return values;
  }
  if (IsElementwiseUnary(op) && op != HloOpcode::kReducePrecision) {
    AOT_ASSIGN_OR_RETURN(auto x, operand(0, same_index(0)));
    return one(EmitUnary(instr, x));
  }
  if (op == HloOpcode::kReducePrecision) {
    AOT_ASSIGN_OR_RETURN(auto x, operand(0, same_index(0)));
    return one(EmitUnary(instr, x));
  }
  if (IsElementwiseBinary(op)) {
    AOT_ASSIGN_OR_RETURN(auto x, operand(0, same_index(0)));
    AOT_ASSIGN_OR_RETURN(auto y, operand(1, same_index(1)));
    return one(EmitBinary(instr, x, y));
  }
  switch (op) {
    case HloOpcode::kConstant:
      return one(EmitConstant(instr, index));
    case HloOpcode::kIota: {
      int64_t dim = instr.dimensions().empty() ? 0 : instr.dimensions()[0];
      llvm::Value* i = index.multi(*b_)[dim];
      PrimitiveType t = shape.element_type();
      return one(Convert(i, S64, t));
    }
    case HloOpcode::kCompare: {
      AOT_ASSIGN_OR_RETURN(auto x, operand(0, same_index(0)));
      AOT_ASSIGN_OR_RETURN(auto y, operand(1, same_index(1)));
      return one(EmitCompare(instr, x, y, instr.operand(0)->shape().element_type()));
    }
    case HloOpcode::kIsFinite: {
      AOT_ASSIGN_OR_RETURN(auto x, operand(0, same_index(0)));
      llvm::Value* abs = MathCall("fabs", {x});
      return one(b_->CreateFCmpOLT(abs, llvm::ConstantFP::getInfinity(x->getType())));
    }
    case HloOpcode::kSelect: {
      AOT_ASSIGN_OR_RETURN(
          auto p, operand(0, instr.operand(0)->shape().rank() == 0 ? IrIndex() : same_index(0)));
      AOT_ASSIGN_OR_RETURN(auto t, operand(1, same_index(1)));
      AOT_ASSIGN_OR_RETURN(auto f, operand(2, same_index(2)));
      return one(b_->CreateSelect(p, t, f));
    }
    case HloOpcode::kClamp: {
      auto lo = operand(0, instr.operand(0)->shape().rank() == 0 ? IrIndex() : same_index(0));
      AOT_RETURN_IF_ERROR(lo);
      auto x = operand(1, same_index(1));
      AOT_RETURN_IF_ERROR(x);
      auto hi = operand(2, instr.operand(2)->shape().rank() == 0 ? IrIndex() : same_index(2));
      AOT_RETURN_IF_ERROR(hi);
      // clamp = min(max(x, lo), hi) with the maximum/minimum semantics.
      PrimitiveType t = shape.element_type();
      llvm::Value* v;
      if (IsFloatingPoint(t)) {
        llvm::Value* x_nan = b_->CreateFCmpUNO(*x, *x);
        llvm::Value* lo_nan = b_->CreateFCmpUNO(*lo, *lo);
        llvm::Value* hi_nan = b_->CreateFCmpUNO(*hi, *hi);
        llvm::Value* m = b_->CreateSelect(b_->CreateFCmpOLT(*x, *lo), *lo, *x);
        m = b_->CreateSelect(b_->CreateFCmpOGT(m, *hi), *hi, m);
        m = b_->CreateSelect(hi_nan, *hi, m);
        m = b_->CreateSelect(lo_nan, *lo, m);
        v = b_->CreateSelect(x_nan, *x, m);
      } else {
        bool s = IsSignedInteger(t);
        llvm::Value* m =
            b_->CreateSelect(s ? b_->CreateICmpSLT(*x, *lo) : b_->CreateICmpULT(*x, *lo), *lo, *x);
        v = b_->CreateSelect(s ? b_->CreateICmpSGT(m, *hi) : b_->CreateICmpUGT(m, *hi), *hi, m);
      }
      return one(v);
    }
    case HloOpcode::kConvert: {
      AOT_ASSIGN_OR_RETURN(auto x, operand(0, same_index(0)));
      return one(Convert(x, instr.operand(0)->shape().element_type(), shape.element_type()));
    }
    case HloOpcode::kBitcastConvert: {
      PrimitiveType from = instr.operand(0)->shape().element_type();
      PrimitiveType to = shape.element_type();
      const int64_t in_bits = 8 * ByteWidth(from), out_bits = 8 * ByteWidth(to);
      llvm::Type* storage = StorageType(to, b_->getContext());
      // The operand's bits as an integer of its width.
      auto bits_of = [&](llvm::Value* x) {
        llvm::Value* bits = ComputeToStorage(*b_, x, from);
        return b_->CreateBitCast(bits, b_->getIntNTy(static_cast<unsigned>(in_bits)));
      };
      auto to_result = [&](llvm::Value* bits) {
        if (bits->getType() != storage) bits = b_->CreateBitCast(bits, storage);
        return StorageToCompute(*b_, bits, to);
      };
      if (in_bits == out_bits) {
        AOT_ASSIGN_OR_RETURN(auto x, operand(0, same_index(0)));
        return one(to_result(ComputeToStorage(*b_, x, from)));
      }
      std::vector<llvm::Value*> multi = index.multi(*b_);
      if (out_bits < in_bits) {
        // A narrower result has an extra minor dimension: element j is the
        // j-th out_bits-wide piece of the operand's element, lowest first
        // (the little-endian byte order the interpreter copies in).
        llvm::Value* j = multi.back();
        multi.pop_back();
        AOT_ASSIGN_OR_RETURN(auto x, operand(0, operand_index(0, multi)));
        llvm::Type* wide = b_->getIntNTy(static_cast<unsigned>(in_bits));
        llvm::Value* shift =
            b_->CreateMul(b_->CreateZExtOrTrunc(j, wide), llvm::ConstantInt::get(wide, out_bits));
        llvm::Value* piece = b_->CreateTrunc(b_->CreateLShr(bits_of(x), shift),
                                             b_->getIntNTy(static_cast<unsigned>(out_bits)));
        return one(to_result(piece));
      }
      // A wider result drops the operand's minor dimension: its elements
      // are the pieces of one result element, lowest first.
      llvm::Type* wide = b_->getIntNTy(static_cast<unsigned>(out_bits));
      llvm::Value* acc = llvm::ConstantInt::get(wide, 0);
      for (int64_t k = 0; k < out_bits / in_bits; ++k) {
        std::vector<llvm::Value*> source = multi;
        source.push_back(b_->getInt64(k));
        AOT_ASSIGN_OR_RETURN(auto x, operand(0, operand_index(0, source)));
        llvm::Value* piece = b_->CreateZExt(bits_of(x), wide);
        acc = b_->CreateOr(acc, b_->CreateShl(piece, llvm::ConstantInt::get(wide, k * in_bits)));
      }
      return one(to_result(acc));
    }
    case HloOpcode::kBroadcast: {
      const std::vector<int64_t>& multi_dims = instr.dimensions();
      std::vector<llvm::Value*> source;
      const std::vector<llvm::Value*>& m = index.multi(*b_);
      for (int64_t d : multi_dims) source.push_back(m[d]);
      return one(operand(0, operand_index(0, source)));
    }
    case HloOpcode::kReshape:
    case HloOpcode::kBitcast: {
      if (instr.operand(0)->shape().ElementCount() != shape.ElementCount()) {
        return UnimplementedInstruction(instr, "bitcast that changes the element count");
      }
      return one(operand(0, IrIndex::Linear(index.linear(*b_), instr.operand(0)->shape())));
    }
    case HloOpcode::kTranspose: {
      const std::vector<int64_t>& perm = instr.dimensions();
      std::vector<llvm::Value*> source(perm.size());
      const std::vector<llvm::Value*>& m = index.multi(*b_);
      for (size_t i = 0; i < perm.size(); ++i) source[perm[i]] = m[i];
      return one(operand(0, operand_index(0, source)));
    }
    case HloOpcode::kReverse: {
      std::vector<llvm::Value*> source = index.multi(*b_);
      for (int64_t d : instr.dimensions()) {
        source[d] = b_->CreateSub(b_->getInt64(shape.dimensions(d) - 1), source[d]);
      }
      return one(operand(0, operand_index(0, source)));
    }
    case HloOpcode::kSlice: {
      std::vector<llvm::Value*> source = index.multi(*b_);
      for (size_t d = 0; d < source.size(); ++d) {
        const SliceSpec& s = instr.attrs().slice[d];
        source[d] =
            b_->CreateAdd(b_->getInt64(s.start), b_->CreateMul(source[d], b_->getInt64(s.stride)));
      }
      return one(operand(0, operand_index(0, source)));
    }
    case HloOpcode::kPad: {
      const Shape& in = instr.operand(0)->shape();
      AOT_ASSIGN_OR_RETURN(auto pad_value, operand(1, IrIndex()));
      if (in.ElementCount() == 0) return std::vector<llvm::Value*>{pad_value};
      const PaddingConfigProto& config = *instr.attrs().padding_config;
      const std::vector<llvm::Value*>& m = index.multi(*b_);
      llvm::Value* valid = b_->getTrue();
      std::vector<llvm::Value*> source(m.size());
      for (size_t d = 0; d < m.size(); ++d) {
        int64_t low = config.dimensions(d).edge_padding_low();
        int64_t interior = config.dimensions(d).interior_padding();
        llvm::Value* shifted = b_->CreateSub(m[d], b_->getInt64(low));
        llvm::Value* step = b_->getInt64(interior + 1);
        llvm::Value* nonneg = b_->CreateICmpSGE(shifted, b_->getInt64(0));
        llvm::Value* safe = b_->CreateSelect(nonneg, shifted, b_->getInt64(0));
        llvm::Value* on_grid = b_->CreateICmpEQ(b_->CreateSRem(safe, step), b_->getInt64(0));
        llvm::Value* src = b_->CreateSDiv(safe, step);
        llvm::Value* in_range = b_->CreateICmpSLT(src, b_->getInt64(in.dimensions(d)));
        valid = b_->CreateAnd(valid, b_->CreateAnd(nonneg, b_->CreateAnd(on_grid, in_range)));
        source[d] = Clamp(src, 0, in.dimensions(d) - 1);
      }
      AOT_ASSIGN_OR_RETURN(auto v, operand(0, operand_index(0, source)));
      return one(b_->CreateSelect(valid, v, pad_value));
    }
    case HloOpcode::kConcatenate: {
      int64_t dim = instr.dimensions()[0];
      const std::vector<llvm::Value*>& m = index.multi(*b_);
      // Fused slices of one array (conv-im2col's window positions): select
      // the index into that array, then read it once. (Evaluating every
      // operand and selecting among the values costs an evaluation of the
      // array per operand.)
      const HloInstruction* common = nullptr;
      bool slices_of_one = instr.operand_count() > 1;
      for (const HloInstruction* op : instr.operands()) {
        if (op->opcode() != HloOpcode::kSlice || is_input_(*op) ||
            (common != nullptr && op->operand(0) != common) || op->shape().ElementCount() == 0) {
          slices_of_one = false;
          break;
        }
        common = op->operand(0);
      }
      if (slices_of_one) {
        std::vector<llvm::Value*> source;
        int64_t offset = 0;
        for (int64_t i = 0; i < instr.operand_count(); ++i) {
          const HloInstruction& slice = *instr.operand(i);
          const int64_t size = slice.shape().dimensions(dim);
          llvm::Value* here = b_->CreateICmpSGE(m[dim], b_->getInt64(offset));
          for (size_t d = 0; d < m.size(); ++d) {
            llvm::Value* within =
                d == static_cast<size_t>(dim)
                    ? Clamp(b_->CreateSub(m[d], b_->getInt64(offset)), 0, size - 1)
                    : m[d];
            const SliceSpec& spec = slice.attrs().slice[d];
            llvm::Value* v = b_->CreateAdd(b_->getInt64(spec.start),
                                           b_->CreateMul(within, b_->getInt64(spec.stride)));
            if (i == 0) {
              source.push_back(v);
            } else {
              source[d] = b_->CreateSelect(here, v, source[d]);
            }
          }
          offset += size;
        }
        return one(Emit(*common, IrIndex::Multi(source, common->shape())));
      }
      llvm::Value* result = nullptr;
      int64_t offset = 0;
      for (int64_t i = 0; i < instr.operand_count(); ++i) {
        const Shape& s = instr.operand(i)->shape();
        int64_t size = s.dimensions(dim);
        if (size == 0) continue;
        std::vector<llvm::Value*> source = m;
        source[dim] = Clamp(b_->CreateSub(m[dim], b_->getInt64(offset)), 0, size - 1);
        AOT_ASSIGN_OR_RETURN(auto v, operand(i, operand_index(i, source)));
        if (result == nullptr) {
          result = v;
        } else {
          llvm::Value* here = b_->CreateICmpSGE(m[dim], b_->getInt64(offset));
          result = b_->CreateSelect(here, v, result);
        }
        offset += size;
      }
      if (result == nullptr)
        return UnimplementedInstruction(instr, "concatenate of empty operands");
      return one(result);
    }
    case HloOpcode::kDynamicSlice:
    case HloOpcode::kDynamicUpdateSlice: {
      bool update = op == HloOpcode::kDynamicUpdateSlice;
      const Shape& in = instr.operand(0)->shape();
      int64_t first_index_operand = update ? 2 : 1;
      const std::vector<llvm::Value*>& m = index.multi(*b_);
      std::vector<int64_t> sizes =
          update ? instr.operand(1)->shape().dimensions() : instr.attrs().dynamic_slice_sizes;
      std::vector<llvm::Value*> starts;
      for (int64_t d = 0; d < in.rank(); ++d) {
        const HloInstruction* index_op = instr.operand(first_index_operand + d);
        AOT_ASSIGN_OR_RETURN(auto s, Emit(*index_op, IrIndex()));
        llvm::Value* s64 = Convert(s, index_op->shape().element_type(), S64);
        starts.push_back(Clamp(s64, 0, in.dimensions(d) - sizes[d]));
      }
      if (!update) {
        std::vector<llvm::Value*> source(m.size());
        for (size_t d = 0; d < m.size(); ++d) source[d] = b_->CreateAdd(m[d], starts[d]);
        return one(operand(0, operand_index(0, source)));
      }
      AOT_ASSIGN_OR_RETURN(auto base, operand(0, same_index(0)));
      if (instr.operand(1)->shape().ElementCount() == 0) return std::vector<llvm::Value*>{base};
      llvm::Value* inside = b_->getTrue();
      std::vector<llvm::Value*> source(m.size());
      for (size_t d = 0; d < m.size(); ++d) {
        llvm::Value* rel = b_->CreateSub(m[d], starts[d]);
        inside =
            b_->CreateAnd(inside, b_->CreateAnd(b_->CreateICmpSGE(rel, b_->getInt64(0)),
                                                b_->CreateICmpSLT(rel, b_->getInt64(sizes[d]))));
        source[d] = Clamp(rel, 0, sizes[d] - 1);
      }
      AOT_ASSIGN_OR_RETURN(auto u, operand(1, operand_index(1, source)));
      return one(b_->CreateSelect(inside, u, base));
    }
    case HloOpcode::kGather:
      return one(EmitGather(instr, index));
    case HloOpcode::kReduce:
      return EmitReduce(instr, index);
    case HloOpcode::kReduceWindow:
      return EmitReduceWindow(instr, index);
    case HloOpcode::kDot:
      return one(EmitDot(instr, index));
    case HloOpcode::kConvolution:
      return one(EmitConvolution(instr, index));
    case HloOpcode::kReplicaId:
    case HloOpcode::kPartitionId:
      return std::vector<llvm::Value*>{b_->getInt32(0)};
    case HloOpcode::kFusion: {
      // A nested fused computation is emitted inline: its parameters are
      // the fusion's operands.
      return UnimplementedInstruction(instr, "nested fusion");
    }
    default:
      return UnimplementedInstruction(instr, "no elemental implementation");
  }
}

absl::StatusOr<std::vector<llvm::Value*>> ElementalEmitter::EmitReduce(const HloInstruction& instr,
                                                                       const IrIndex& index) {
  // Memoized on the output index: an epilogue that reads the reduced value
  // for every element of a row (softmax's x / sum) computes the row once
  // per run of equal indices instead of once per element.
  int64_t n = instr.operand_count() / 2;
  llvm::LLVMContext& c = b_->getContext();
  llvm::Function* fn = b_->GetInsertBlock()->getParent();
  llvm::AllocaInst* memo_index = EntryAlloca(b_->getInt64Ty(), b_->getInt64(-1));
  std::vector<llvm::AllocaInst*> memo(n);
  for (int64_t i = 0; i < n; ++i) {
    memo[i] = EntryAlloca(ComputeType(instr.operand(i)->shape().element_type(), c));
  }
  llvm::Value* current = index.IsScalar() ? b_->getInt64(0) : index.linear(*b_);
  llvm::BasicBlock* compute = llvm::BasicBlock::Create(c, "reduce.compute", fn);
  llvm::BasicBlock* join = llvm::BasicBlock::Create(c, "reduce.join", fn);
  b_->CreateCondBr(b_->CreateICmpEQ(b_->CreateLoad(b_->getInt64Ty(), memo_index), current), join,
                   compute);
  b_->SetInsertPoint(compute);
  cache_.emplace_back();
  auto values = EmitReduceUncached(instr, index);
  cache_.pop_back();
  AOT_RETURN_IF_ERROR(values);
  for (int64_t i = 0; i < n; ++i) b_->CreateStore((*values)[i], memo[i]);
  b_->CreateStore(current, memo_index);
  b_->CreateBr(join);
  b_->SetInsertPoint(join);
  std::vector<llvm::Value*> out;
  for (int64_t i = 0; i < n; ++i)
    out.push_back(b_->CreateLoad(memo[i]->getAllocatedType(), memo[i]));
  return out;
}

absl::StatusOr<std::vector<llvm::Value*>> ElementalEmitter::EmitReduceUncached(
    const HloInstruction& instr, const IrIndex& index) {
  int64_t n = instr.operand_count() / 2;
  const Shape& in = instr.operand(0)->shape();
  const std::vector<int64_t>& reduced = instr.dimensions();
  std::vector<bool> is_reduced(in.rank(), false);
  for (int64_t d : reduced) is_reduced[d] = true;
  std::vector<int64_t> reduced_sizes;
  int64_t reduced_count = 1;
  for (int64_t d : reduced) {
    reduced_sizes.push_back(in.dimensions(d));
    reduced_count *= in.dimensions(d);
  }
  // Accumulators.
  std::vector<llvm::AllocaInst*> acc(n);
  std::vector<PrimitiveType> types(n);
  for (int64_t i = 0; i < n; ++i) {
    types[i] = instr.operand(i)->shape().element_type();
    AOT_ASSIGN_OR_RETURN(auto init, Emit(*instr.operand(n + i), IrIndex()));
    acc[i] = EntryAlloca(ComputeType(types[i], b_->getContext()));
    b_->CreateStore(init, acc[i]);
  }
  // The kept dimensions of the input come from the output index.
  std::vector<llvm::Value*> out_multi =
      index.IsScalar() ? std::vector<llvm::Value*>{} : index.multi(*b_);
  AOT_RETURN_IF_ERROR(EmitLoop(reduced_count, [&](llvm::Value* r) -> absl::Status {
    std::vector<llvm::Value*> in_multi(in.rank());
    int64_t kept = 0;
    for (int64_t d = 0; d < in.rank(); ++d) {
      if (!is_reduced[d]) in_multi[d] = out_multi[kept++];
    }
    llvm::Value* rest = r;
    for (int64_t j = static_cast<int64_t>(reduced.size()) - 1; j >= 0; --j) {
      if (j == 0) {
        in_multi[reduced[j]] = rest;
      } else {
        in_multi[reduced[j]] = b_->CreateURem(rest, b_->getInt64(reduced_sizes[j]));
        rest = b_->CreateUDiv(rest, b_->getInt64(reduced_sizes[j]));
      }
    }
    std::vector<llvm::Value*> args = LoadAccumulators(types, acc);
    for (int64_t i = 0; i < n; ++i) {
      AOT_ASSIGN_OR_RETURN(
          auto v, Emit(*instr.operand(i), IrIndex::Multi(in_multi, instr.operand(i)->shape())));
      args.push_back(v);
    }
    // Host: the combiner may be reassociated (as XLA does), so the loop
    // vectorizer can keep several partial accumulators; float results then
    // differ from the serial order by rounding (the goldens record the
    // compiled outputs; comparisons with the interpreter use
    // DefaultTolerance, which covers summation order).
    llvm::IRBuilder<>::FastMathFlagGuard guard(*b_);
    if (device_ == Device::kHost) {
      llvm::FastMathFlags flags;
      flags.setAllowReassoc();
      b_->setFastMathFlags(flags);
    }
    return Accumulate(*instr.to_apply(), args, acc);
  }));
  return LoadAccumulators(types, acc);
}

absl::StatusOr<std::vector<llvm::Value*>> ElementalEmitter::EmitReduceWindow(
    const HloInstruction& instr, const IrIndex& index) {
  int64_t n = instr.operand_count() / 2;
  const Shape& in = instr.operand(0)->shape();
  const WindowProto& window = *instr.attrs().window;
  int64_t rank = in.rank();
  std::vector<int64_t> window_sizes;
  int64_t window_count = 1;
  for (const auto& d : window.dimensions()) {
    window_sizes.push_back(d.size());
    window_count *= d.size();
  }
  std::vector<llvm::AllocaInst*> acc(n);
  std::vector<PrimitiveType> types(n);
  std::vector<llvm::Value*> inits(n);
  for (int64_t i = 0; i < n; ++i) {
    types[i] = instr.operand(i)->shape().element_type();
    AOT_ASSIGN_OR_RETURN(auto init, Emit(*instr.operand(n + i), IrIndex()));
    inits[i] = init;
    acc[i] = EntryAlloca(ComputeType(types[i], b_->getContext()));
    b_->CreateStore(init, acc[i]);
  }
  std::vector<llvm::Value*> out_multi = index.multi(*b_);
  AOT_RETURN_IF_ERROR(EmitLoop(window_count, [&](llvm::Value* w) -> absl::Status {
    std::vector<llvm::Value*> k(rank);
    llvm::Value* rest = w;
    for (int64_t d = rank - 1; d >= 0; --d) {
      if (d == 0) {
        k[d] = rest;
      } else {
        k[d] = b_->CreateURem(rest, b_->getInt64(window_sizes[d]));
        rest = b_->CreateUDiv(rest, b_->getInt64(window_sizes[d]));
      }
    }
    llvm::Value* valid = b_->getTrue();
    std::vector<llvm::Value*> in_multi(rank);
    for (int64_t d = 0; d < rank; ++d) {
      const WindowDimensionProto& wd = window.dimensions(d);
      llvm::Value* kk =
          wd.window_reversal() ? b_->CreateSub(b_->getInt64(wd.size() - 1), k[d]) : k[d];
      llvm::Value* pos =
          b_->CreateAdd(b_->CreateSub(b_->CreateMul(out_multi[d], b_->getInt64(wd.stride())),
                                      b_->getInt64(wd.padding_low())),
                        b_->CreateMul(kk, b_->getInt64(wd.window_dilation())));
      llvm::Value* nonneg = b_->CreateICmpSGE(pos, b_->getInt64(0));
      llvm::Value* safe = b_->CreateSelect(nonneg, pos, b_->getInt64(0));
      llvm::Value* on_grid =
          b_->CreateICmpEQ(b_->CreateSRem(safe, b_->getInt64(wd.base_dilation())), b_->getInt64(0));
      llvm::Value* src = b_->CreateSDiv(safe, b_->getInt64(wd.base_dilation()));
      llvm::Value* in_range = b_->CreateICmpSLT(src, b_->getInt64(in.dimensions(d)));
      valid = b_->CreateAnd(valid, b_->CreateAnd(nonneg, b_->CreateAnd(on_grid, in_range)));
      in_multi[d] = Clamp(src, 0, std::max<int64_t>(in.dimensions(d) - 1, 0));
    }
    std::vector<llvm::Value*> args = LoadAccumulators(types, acc);
    for (int64_t i = 0; i < n; ++i) {
      llvm::Value* v = inits[i];
      if (in.ElementCount() > 0) {
        AOT_ASSIGN_OR_RETURN(
            auto loaded,
            Emit(*instr.operand(i), IrIndex::Multi(in_multi, instr.operand(i)->shape())));
        v = b_->CreateSelect(valid, loaded, inits[i]);
      }
      args.push_back(v);
    }
    return Accumulate(*instr.to_apply(), args, acc);
  }));
  return LoadAccumulators(types, acc);
}

std::vector<llvm::Value*> ElementalEmitter::LoadAccumulators(
    absl::Span<const PrimitiveType> types, absl::Span<llvm::AllocaInst* const> acc) {
  std::vector<llvm::Value*> values;
  for (size_t i = 0; i < acc.size(); ++i) {
    values.push_back(b_->CreateLoad(ComputeType(types[i], b_->getContext()), acc[i]));
  }
  return values;
}

absl::Status ElementalEmitter::Accumulate(const HloComputation& to_apply,
                                          const std::vector<llvm::Value*>& args,
                                          absl::Span<llvm::AllocaInst* const> acc) {
  AOT_ASSIGN_OR_RETURN(auto results, EmitScalarComputation(to_apply, args));
  for (size_t i = 0; i < acc.size(); ++i) b_->CreateStore(results[i], acc[i]);
  return absl::OkStatus();
}

absl::StatusOr<llvm::Value*> ElementalEmitter::EmitDot(const HloInstruction& instr,
                                                       const IrIndex& index) {
  const DotDimensionNumbersProto& dn = *instr.attrs().dot_dimension_numbers;
  const Shape& lhs = instr.operand(0)->shape();
  const Shape& rhs = instr.operand(1)->shape();
  PrimitiveType out_type = instr.shape().element_type();
  PrimitiveType lhs_type = lhs.element_type(), rhs_type = rhs.element_type();
  // Accumulate in the result's compute type (float for 16-bit floats,
  // rounded once at the end).
  auto in_set = [](const google::protobuf::RepeatedField<int64_t>& set, int64_t d) {
    return std::find(set.begin(), set.end(), d) != set.end();
  };
  std::vector<int64_t> lhs_free, rhs_free;
  for (int64_t d = 0; d < lhs.rank(); ++d) {
    if (!in_set(dn.lhs_batch_dimensions(), d) && !in_set(dn.lhs_contracting_dimensions(), d)) {
      lhs_free.push_back(d);
    }
  }
  for (int64_t d = 0; d < rhs.rank(); ++d) {
    if (!in_set(dn.rhs_batch_dimensions(), d) && !in_set(dn.rhs_contracting_dimensions(), d)) {
      rhs_free.push_back(d);
    }
  }
  std::vector<int64_t> contract_sizes;
  int64_t contract_count = 1;
  for (int64_t d : dn.lhs_contracting_dimensions()) {
    contract_sizes.push_back(lhs.dimensions(d));
    contract_count *= lhs.dimensions(d);
  }
  const std::vector<llvm::Value*>& m =
      index.IsScalar() ? std::vector<llvm::Value*>{} : index.multi(*b_);
  std::vector<llvm::Value*> lhs_multi(lhs.rank()), rhs_multi(rhs.rank());
  size_t pos = 0;
  for (int i = 0; i < dn.lhs_batch_dimensions_size(); ++i, ++pos) {
    lhs_multi[dn.lhs_batch_dimensions(i)] = m[pos];
    rhs_multi[dn.rhs_batch_dimensions(i)] = m[pos];
  }
  for (int64_t d : lhs_free) lhs_multi[d] = m[pos++];
  for (int64_t d : rhs_free) rhs_multi[d] = m[pos++];
  llvm::Type* acc_type = ComputeType(out_type, b_->getContext());
  llvm::Value* zero = IsFloatingPoint(out_type) ? llvm::ConstantFP::get(acc_type, 0.0)
                                                : llvm::ConstantInt::get(acc_type, 0);
  if (out_type == PRED) zero = b_->getFalse();
  llvm::AllocaInst* acc = EntryAlloca(acc_type);
  b_->CreateStore(zero, acc);
  AOT_RETURN_IF_ERROR(EmitLoop(contract_count, [&](llvm::Value* c) -> absl::Status {
    llvm::Value* rest = c;
    for (int64_t j = dn.lhs_contracting_dimensions_size() - 1; j >= 0; --j) {
      llvm::Value* v;
      if (j == 0) {
        v = rest;
      } else {
        v = b_->CreateURem(rest, b_->getInt64(contract_sizes[j]));
        rest = b_->CreateUDiv(rest, b_->getInt64(contract_sizes[j]));
      }
      lhs_multi[dn.lhs_contracting_dimensions(j)] = v;
      rhs_multi[dn.rhs_contracting_dimensions(j)] = v;
    }
    AOT_ASSIGN_OR_RETURN(auto l, Emit(*instr.operand(0), IrIndex::Multi(lhs_multi, lhs)));
    AOT_ASSIGN_OR_RETURN(auto r, Emit(*instr.operand(1), IrIndex::Multi(rhs_multi, rhs)));
    // Operands in the accumulation type (without 16-bit rounding: the
    // accumulator is float for 16-bit floats).
    PrimitiveType acc_prim = (out_type == F16 || out_type == BF16) ? F32 : out_type;
    llvm::Value* lv = Convert(l, lhs_type == BF16 || lhs_type == F16 ? F32 : lhs_type, acc_prim);
    llvm::Value* rv = Convert(r, rhs_type == BF16 || rhs_type == F16 ? F32 : rhs_type, acc_prim);
    llvm::Value* a = b_->CreateLoad(acc_type, acc);
    llvm::Value* sum;
    if (out_type == PRED) {
      sum = b_->CreateOr(a, b_->CreateAnd(lv, rv));
    } else if (IsFloatingPoint(out_type)) {
      sum = b_->CreateFAdd(a, b_->CreateFMul(lv, rv));
    } else {
      sum = b_->CreateAdd(a, b_->CreateMul(lv, rv));
    }
    b_->CreateStore(sum, acc);
    return absl::OkStatus();
  }));
  return RoundToType(*b_, b_->CreateLoad(acc_type, acc), out_type);
}

absl::StatusOr<llvm::Value*> ElementalEmitter::EmitConvolution(const HloInstruction& instr,
                                                               const IrIndex& index) {
  const ConvolutionDimensionNumbersProto& dn = *instr.attrs().convolution_dimension_numbers;
  const WindowProto& window = *instr.attrs().window;
  const Shape& in = instr.operand(0)->shape();
  const Shape& kernel = instr.operand(1)->shape();
  PrimitiveType out_type = instr.shape().element_type();
  int64_t groups = instr.attrs().feature_group_count;
  int64_t spatial = dn.input_spatial_dimensions_size();
  int64_t in_features = in.dimensions(dn.input_feature_dimension());
  int64_t out_features = instr.shape().dimensions(dn.output_feature_dimension());
  int64_t in_per_group = in_features / groups;
  int64_t out_per_group = out_features / groups;
  const std::vector<llvm::Value*>& m = index.multi(*b_);
  llvm::Value* feature = m[dn.output_feature_dimension()];
  llvm::Value* group = b_->CreateUDiv(feature, b_->getInt64(out_per_group));
  // With batch_group_count B the input batch splits into B contiguous
  // groups; output feature f reads batch group f / (out_features / B).
  const int64_t batch_groups = instr.attrs().batch_group_count;
  llvm::Value* batch = m[dn.output_batch_dimension()];
  if (batch_groups > 1) {
    int64_t batch_per_group = in.dimensions(dn.input_batch_dimension()) / batch_groups;
    llvm::Value* batch_group = b_->CreateUDiv(feature, b_->getInt64(out_features / batch_groups));
    batch = b_->CreateAdd(b_->CreateMul(batch_group, b_->getInt64(batch_per_group)), batch);
  }
  std::vector<int64_t> window_sizes;
  int64_t count = in_per_group;
  for (int64_t s = 0; s < spatial; ++s) {
    window_sizes.push_back(window.dimensions(s).size());
    count *= window.dimensions(s).size();
  }
  PrimitiveType acc_prim = (out_type == F16 || out_type == BF16) ? F32 : out_type;
  llvm::Type* acc_type = ComputeType(out_type, b_->getContext());
  llvm::Value* zero = IsFloatingPoint(out_type) ? llvm::ConstantFP::get(acc_type, 0.0)
                                                : llvm::ConstantInt::get(acc_type, 0);
  llvm::AllocaInst* acc = EntryAlloca(acc_type);
  b_->CreateStore(zero, acc);
  AOT_RETURN_IF_ERROR(EmitLoop(count, [&](llvm::Value* c) -> absl::Status {
    // c enumerates (input feature within group, k_0, ..., k_{s-1}).
    std::vector<llvm::Value*> k(spatial);
    llvm::Value* rest = c;
    for (int64_t s = spatial - 1; s >= 0; --s) {
      k[s] = b_->CreateURem(rest, b_->getInt64(window_sizes[s]));
      rest = b_->CreateUDiv(rest, b_->getInt64(window_sizes[s]));
    }
    llvm::Value* ci = rest;
    std::vector<llvm::Value*> in_multi(in.rank()), k_multi(kernel.rank());
    in_multi[dn.input_batch_dimension()] = batch;
    in_multi[dn.input_feature_dimension()] =
        b_->CreateAdd(b_->CreateMul(group, b_->getInt64(in_per_group)), ci);
    k_multi[dn.kernel_input_feature_dimension()] = ci;
    k_multi[dn.kernel_output_feature_dimension()] = feature;
    llvm::Value* valid = b_->getTrue();
    for (int64_t s = 0; s < spatial; ++s) {
      const WindowDimensionProto& wd = window.dimensions(s);
      llvm::Value* kk =
          wd.window_reversal() ? b_->CreateSub(b_->getInt64(wd.size() - 1), k[s]) : k[s];
      k_multi[dn.kernel_spatial_dimensions(s)] = kk;
      llvm::Value* o = m[dn.output_spatial_dimensions(s)];
      llvm::Value* pos = b_->CreateAdd(b_->CreateSub(b_->CreateMul(o, b_->getInt64(wd.stride())),
                                                     b_->getInt64(wd.padding_low())),
                                       b_->CreateMul(k[s], b_->getInt64(wd.window_dilation())));
      llvm::Value* nonneg = b_->CreateICmpSGE(pos, b_->getInt64(0));
      llvm::Value* safe = b_->CreateSelect(nonneg, pos, b_->getInt64(0));
      llvm::Value* on_grid =
          b_->CreateICmpEQ(b_->CreateSRem(safe, b_->getInt64(wd.base_dilation())), b_->getInt64(0));
      llvm::Value* src = b_->CreateSDiv(safe, b_->getInt64(wd.base_dilation()));
      int64_t dim = in.dimensions(dn.input_spatial_dimensions(s));
      llvm::Value* in_range = b_->CreateICmpSLT(src, b_->getInt64(dim));
      valid = b_->CreateAnd(valid, b_->CreateAnd(nonneg, b_->CreateAnd(on_grid, in_range)));
      in_multi[dn.input_spatial_dimensions(s)] = Clamp(src, 0, std::max<int64_t>(dim - 1, 0));
    }
    AOT_ASSIGN_OR_RETURN(auto x, Emit(*instr.operand(0), IrIndex::Multi(in_multi, in)));
    AOT_ASSIGN_OR_RETURN(auto w, Emit(*instr.operand(1), IrIndex::Multi(k_multi, kernel)));
    PrimitiveType in_t = in.element_type(), k_t = kernel.element_type();
    llvm::Value* xv = Convert(x, in_t == BF16 || in_t == F16 ? F32 : in_t, acc_prim);
    llvm::Value* wv = Convert(w, k_t == BF16 || k_t == F16 ? F32 : k_t, acc_prim);
    llvm::Value* a = b_->CreateLoad(acc_type, acc);
    llvm::Value* prod = IsFloatingPoint(out_type) ? b_->CreateFMul(xv, wv) : b_->CreateMul(xv, wv);
    llvm::Value* sum = IsFloatingPoint(out_type) ? b_->CreateFAdd(a, prod) : b_->CreateAdd(a, prod);
    b_->CreateStore(b_->CreateSelect(valid, sum, a), acc);
    return absl::OkStatus();
  }));
  return RoundToType(*b_, b_->CreateLoad(acc_type, acc), out_type);
}

absl::StatusOr<llvm::Value*> ElementalEmitter::EmitGather(const HloInstruction& instr,
                                                          const IrIndex& index) {
  const GatherDimensionNumbersProto& dn = *instr.attrs().gather_dimension_numbers;
  const Shape& operand = instr.operand(0)->shape();
  const Shape& indices = instr.operand(1)->shape();
  const std::vector<int64_t>& slice_sizes = instr.attrs().gather_slice_sizes;
  const std::vector<llvm::Value*>& m = index.multi(*b_);
  auto in_set = [](const google::protobuf::RepeatedField<int64_t>& set, int64_t d) {
    return std::find(set.begin(), set.end(), d) != set.end();
  };
  // Batch dimensions of the output, in order, index the start indices.
  std::vector<llvm::Value*> batch;
  for (int64_t d = 0; d < instr.shape().rank(); ++d) {
    if (!in_set(dn.offset_dims(), d)) batch.push_back(m[d]);
  }
  int64_t ivd = dn.index_vector_dim();
  std::vector<llvm::Value*> start(operand.rank(), b_->getInt64(0));
  for (int k = 0; k < dn.start_index_map_size(); ++k) {
    std::vector<llvm::Value*> idx_multi;
    size_t b = 0;
    for (int64_t d = 0; d < indices.rank(); ++d) {
      if (d == ivd)
        idx_multi.push_back(b_->getInt64(k));
      else
        idx_multi.push_back(batch[b++]);
    }
    AOT_ASSIGN_OR_RETURN(auto v, Emit(*instr.operand(1), IrIndex::Multi(idx_multi, indices)));
    int64_t od = dn.start_index_map(k);
    start[od] =
        Clamp(Convert(v, indices.element_type(), S64), 0, operand.dimensions(od) - slice_sizes[od]);
  }
  // A batching dimension of the operand is indexed by the batch index of
  // its paired start-indices dimension (its slice size is 1).
  for (int i = 0; i < dn.operand_batching_dims_size(); ++i) {
    int64_t d = dn.start_indices_batching_dims(i);
    start[dn.operand_batching_dims(i)] = batch[static_cast<size_t>(d > ivd ? d - 1 : d)];
  }
  std::vector<llvm::Value*> operand_multi(operand.rank());
  size_t offset = 0;
  for (int64_t d = 0; d < operand.rank(); ++d) {
    llvm::Value* window = b_->getInt64(0);
    if (!in_set(dn.collapsed_slice_dims(), d) && !in_set(dn.operand_batching_dims(), d))
      window = m[dn.offset_dims(static_cast<int>(offset++))];
    operand_multi[d] = b_->CreateAdd(start[d], window);
  }
  return Emit(*instr.operand(0), IrIndex::Multi(operand_multi, operand));
}

}  // namespace aot
