#include "compiler/codegen/elemental_emitter.h"

#include <cmath>
#include <limits>
#include <set>

#include "absl/strings/str_cat.h"
#include "compiler/codegen/minifloat_ir.h"
#include "llvm/Analysis/ConstantFolding.h"
#include "llvm/Analysis/ValueTracking.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/Intrinsics.h"
#include "support/status_macros.h"

namespace aot {

namespace {

bool IsFloat(PrimitiveType t) { return IsFloatingPoint(t); }
bool IsSigned(PrimitiveType t) { return IsSignedInteger(t); }

}  // namespace

ElementalEmitter::ElementalEmitter(llvm::IRBuilder<>* b, llvm::Module* module, Device device,
                                   IsInput is_input, InputLoader loader)
    : b_(b),
      module_(module),
      device_(device),
      is_input_(std::move(is_input)),
      loader_(std::move(loader)) {
  cache_.emplace_back();
}

llvm::AllocaInst* ElementalEmitter::EntryAlloca(llvm::Type* type, llvm::Value* init) {
  llvm::Function* fn = b_->GetInsertBlock()->getParent();
  llvm::BasicBlock& entry = fn->getEntryBlock();
  llvm::IRBuilder<> eb(&entry, entry.begin());
  llvm::AllocaInst* alloca = eb.CreateAlloca(type);
  if (init != nullptr) eb.CreateStore(init, alloca);
  return alloca;
}

absl::Status ElementalEmitter::EmitLoop(int64_t n,
                                        const std::function<absl::Status(llvm::Value*)>& body) {
  if (n <= 0) return absl::OkStatus();
  llvm::LLVMContext& c = b_->getContext();
  llvm::Function* fn = b_->GetInsertBlock()->getParent();
  llvm::BasicBlock* pre = b_->GetInsertBlock();
  llvm::BasicBlock* loop = llvm::BasicBlock::Create(c, "loop", fn);
  llvm::BasicBlock* exit = llvm::BasicBlock::Create(c, "loop.exit", fn);
  b_->CreateBr(loop);
  b_->SetInsertPoint(loop);
  llvm::PHINode* i = b_->CreatePHI(b_->getInt64Ty(), 2, "i");
  i->addIncoming(b_->getInt64(0), pre);
  cache_.emplace_back();
  absl::Status status = body(i);
  cache_.pop_back();
  AOT_RETURN_IF_ERROR(status);
  llvm::Value* next = b_->CreateAdd(i, b_->getInt64(1));
  i->addIncoming(next, b_->GetInsertBlock());
  b_->CreateCondBr(b_->CreateICmpSLT(next, b_->getInt64(n)), loop, exit);
  b_->SetInsertPoint(exit);
  return absl::OkStatus();
}

absl::Status ElementalEmitter::EmitParallelLoop(
    int64_t n, const std::function<absl::Status(llvm::Value*)>& body) {
  if (n <= 0) return absl::OkStatus();
  llvm::Function* fn = b_->GetInsertBlock()->getParent();
  std::set<llvm::BasicBlock*> before;
  for (llvm::BasicBlock& bb : *fn) before.insert(&bb);
  AOT_RETURN_IF_ERROR(EmitLoop(n, body));
  llvm::LLVMContext& c = b_->getContext();
  llvm::MDNode* group = llvm::MDNode::getDistinct(c, {});
  llvm::BasicBlock* exit = b_->GetInsertBlock();
  llvm::BranchInst* latch = nullptr;
  for (llvm::BasicBlock& bb : *fn) {
    if (before.count(&bb) || &bb == exit) continue;
    for (llvm::Instruction& inst : bb) {
      llvm::Value* ptr = llvm::getLoadStorePointerOperand(&inst);
      if (ptr == nullptr) continue;
      if (llvm::isa<llvm::AllocaInst>(llvm::getUnderlyingObject(ptr))) continue;
      inst.setMetadata(llvm::LLVMContext::MD_access_group, group);
    }
    // The back edge: the branch of the loop's last block to its exit.
    if (auto* br = llvm::dyn_cast<llvm::BranchInst>(bb.getTerminator())) {
      if (br->isConditional() && (br->getSuccessor(0) == exit || br->getSuccessor(1) == exit)) {
        latch = br;
      }
    }
  }
  if (latch != nullptr) {
    llvm::MDNode* parallel =
        llvm::MDNode::get(c, {llvm::MDString::get(c, "llvm.loop.parallel_accesses"), group});
    llvm::MDNode* loop_id = llvm::MDNode::getDistinct(c, {nullptr, parallel});
    loop_id->replaceOperandWith(0, loop_id);
    latch->setMetadata(llvm::LLVMContext::MD_loop, loop_id);
  }
  return absl::OkStatus();
}

absl::Status ElementalEmitter::EmitStridedLoop(
    llvm::Value* start, int64_t n, int64_t step,
    const std::function<absl::Status(llvm::Value*)>& body) {
  return EmitRangeLoop(start, b_->getInt64(n), step, body);
}

absl::Status ElementalEmitter::EmitRangeLoop(
    llvm::Value* start, llvm::Value* end, int64_t step,
    const std::function<absl::Status(llvm::Value*)>& body) {
  llvm::LLVMContext& c = b_->getContext();
  llvm::Function* fn = b_->GetInsertBlock()->getParent();
  llvm::BasicBlock* pre = b_->GetInsertBlock();
  llvm::BasicBlock* loop = llvm::BasicBlock::Create(c, "range", fn);
  llvm::BasicBlock* exit = llvm::BasicBlock::Create(c, "range.exit", fn);
  b_->CreateCondBr(b_->CreateICmpULT(start, end), loop, exit);
  b_->SetInsertPoint(loop);
  llvm::PHINode* i = b_->CreatePHI(b_->getInt64Ty(), 2, "j");
  i->addIncoming(start, pre);
  cache_.emplace_back();
  absl::Status status = body(i);
  cache_.pop_back();
  AOT_RETURN_IF_ERROR(status);
  llvm::Value* next = b_->CreateAdd(i, b_->getInt64(step));
  i->addIncoming(next, b_->GetInsertBlock());
  b_->CreateCondBr(b_->CreateICmpULT(next, end), loop, exit);
  b_->SetInsertPoint(exit);
  return absl::OkStatus();
}

absl::Status ElementalEmitter::EmitIf(llvm::Value* condition,
                                      const std::function<absl::Status()>& body) {
  llvm::LLVMContext& c = b_->getContext();
  llvm::Function* fn = b_->GetInsertBlock()->getParent();
  llvm::BasicBlock* then = llvm::BasicBlock::Create(c, "if.then", fn);
  llvm::BasicBlock* exit = llvm::BasicBlock::Create(c, "if.exit", fn);
  b_->CreateCondBr(condition, then, exit);
  b_->SetInsertPoint(then);
  cache_.emplace_back();
  absl::Status status = body();
  cache_.pop_back();
  AOT_RETURN_IF_ERROR(status);
  b_->CreateBr(exit);
  b_->SetInsertPoint(exit);
  return absl::OkStatus();
}

llvm::Value* ElementalEmitter::Clamp(llvm::Value* v, int64_t lo, int64_t hi) {
  llvm::Value* low = b_->getInt64(lo);
  llvm::Value* high = b_->getInt64(std::max(lo, hi));
  v = b_->CreateSelect(b_->CreateICmpSLT(v, low), low, v);
  return b_->CreateSelect(b_->CreateICmpSGT(v, high), high, v);
}

std::vector<llvm::Value*> ElementalEmitter::IndexKey(const IrIndex& index) {
  if (index.IsScalar()) return {};
  if (index.has_linear()) return {index.linear(*b_)};
  return index.multi(*b_);
}

absl::StatusOr<llvm::Value*> ElementalEmitter::Emit(const HloInstruction& instruction,
                                                    const IrIndex& index) {
  AOT_ASSIGN_OR_RETURN(auto values, EmitAll(instruction, index));
  if (values.size() != 1) {
    return UnimplementedInstruction(instruction, "expected a single array result");
  }
  return values.front();
}

absl::StatusOr<std::vector<llvm::Value*>> ElementalEmitter::EmitAll(
    const HloInstruction& instruction, const IrIndex& index) {
  if (auto uniform = uniform_.find(&instruction); uniform != uniform_.end()) {
    return uniform->second;
  }
  CacheKey key{&instruction, IndexKey(index)};
  for (auto it = cache_.rbegin(); it != cache_.rend(); ++it) {
    auto found = it->find(key);
    if (found != it->end()) return found->second;
  }
  absl::StatusOr<std::vector<llvm::Value*>> values;
  if (is_input_(instruction)) {
    AOT_ASSIGN_OR_RETURN(auto v, loader_(instruction, index));
    values = std::vector<llvm::Value*>{v};
  } else {
    values = EmitUncached(instruction, index);
  }
  AOT_RETURN_IF_ERROR(values);
  cache_.back()[key] = *values;
  return values;
}

llvm::Value* ElementalEmitter::MathCall(const char* name, std::vector<llvm::Value*> args) {
  llvm::Type* type = args[0]->getType();
  bool is_double = type->isDoubleTy();
  std::string op = name;
  // Intrinsics the backends lower themselves.
  static const std::map<std::string, llvm::Intrinsic::ID> kIntrinsics = {
      {"sqrt", llvm::Intrinsic::sqrt},           {"floor", llvm::Intrinsic::floor},
      {"ceil", llvm::Intrinsic::ceil},           {"round", llvm::Intrinsic::round},
      {"roundeven", llvm::Intrinsic::roundeven}, {"fabs", llvm::Intrinsic::fabs},
      {"copysign", llvm::Intrinsic::copysign}};
  if (auto it = kIntrinsics.find(op); it != kIntrinsics.end()) {
    return b_->CreateIntrinsic(it->second, {type}, args);
  }
  std::string symbol;
  if (device_ == Device::kGpu) {
    symbol = absl::StrCat("__nv_", op, is_double ? "" : "f");
  } else {
    symbol = is_double ? op : absl::StrCat(op, "f");
  }
  std::vector<llvm::Type*> types(args.size(), type);
  llvm::FunctionCallee callee =
      module_->getOrInsertFunction(symbol, llvm::FunctionType::get(type, types, false));
  if (auto* f = llvm::dyn_cast<llvm::Function>(callee.getCallee())) {
    f->setDoesNotThrow();
    f->setDoesNotAccessMemory();
    f->setWillReturn();
  }
  llvm::CallInst* call = b_->CreateCall(callee, args);
  call->setDoesNotAccessMemory();
  return call;
}

// Host f32 exp and tanh are polynomials emitted in IR, so the loop
// vectorizer keeps whole loops in vector registers (a libm call is scalar
// and the runtime resolves no vector math library). Written here, not
// taken from a library: LLVM offers no IR-level implementation, and the
// coefficients are the Taylor series' (1/k! for exp; the tangent numbers'
// for tanh near zero). Accuracy over all of f32, measured against the C
// library by HostMathTest (compiler/backend/compiler_test.cc):
// exp within 2 ulp, tanh within 3 ulp; NaN and infinities as IEEE.
// GPU kernels and f64 call libdevice / libm.
llvm::Value* ElementalEmitter::MulAdd(llvm::Value* a, llvm::Value* b, llvm::Value* c) {
  return b_->CreateIntrinsic(llvm::Intrinsic::fmuladd, {a->getType()}, {a, b, c});
}

llvm::Value* ElementalEmitter::Horner(llvm::Value* x, std::initializer_list<double> coefficients) {
  llvm::Value* p = nullptr;
  for (double k : coefficients) {
    llvm::Value* term = llvm::ConstantFP::get(x->getType(), k);
    p = p == nullptr ? term : MulAdd(p, x, term);
  }
  return p;
}

std::pair<llvm::Value*, llvm::Value*> ElementalEmitter::ExpReduced(llvm::Value* x) {
  llvm::Type* f = x->getType();
  auto c = [&](double v) { return llvm::ConstantFP::get(f, v); };
  // x = n ln2 + r, |r| <= ln2 / 2; ln2 split so that n * hi is exact.
  llvm::Value* n = b_->CreateIntrinsic(llvm::Intrinsic::roundeven, {f},
                                       {b_->CreateFMul(x, c(1.4426950408889634))});
  llvm::Value* r = MulAdd(n, c(-0.693145751953125), x);
  r = MulAdd(n, c(-1.4286068203094172e-06), r);
  // exp(r) by its Taylor series to r^7 (truncation below 1e-8 relative).
  llvm::Value* p = Horner(r, {1.0 / 5040, 1.0 / 720, 1.0 / 120, 1.0 / 24, 1.0 / 6, 0.5, 1.0, 1.0});
  return {p, b_->CreateFPToSI(n, b_->getInt32Ty())};
}

llvm::Value* ElementalEmitter::Pow2(llvm::Value* n, llvm::Type* f) {
  return b_->CreateBitCast(b_->CreateShl(b_->CreateAdd(n, b_->getInt32(127)), 23), f);
}

llvm::Value* ElementalEmitter::Exp(llvm::Value* x) {
  if (device_ != Device::kHost || !x->getType()->isFloatTy()) return MathCall("exp", {x});
  llvm::Type* f = x->getType();
  auto c = [&](double v) { return llvm::ConstantFP::get(f, v); };
  llvm::Value* clamped = b_->CreateIntrinsic(
      llvm::Intrinsic::minnum, {f},
      {b_->CreateIntrinsic(llvm::Intrinsic::maxnum, {f}, {x, c(-104.0)}), c(89.0)});
  auto [p, ni] = ExpReduced(clamped);
  // Times 2^n in two steps, so that n in [-150, 128] needs no denormal or
  // infinite scale factor.
  llvm::Value* n1 = b_->CreateAShr(ni, 1);
  llvm::Value* n2 = b_->CreateSub(ni, n1);
  llvm::Value* result = b_->CreateFMul(b_->CreateFMul(p, Pow2(n1, f)), Pow2(n2, f));
  result = b_->CreateSelect(b_->CreateFCmpOGT(x, c(88.72283935546875)),
                            llvm::ConstantFP::getInfinity(f), result);
  result = b_->CreateSelect(b_->CreateFCmpOLT(x, c(-103.972084)), c(0.0), result);
  return b_->CreateSelect(b_->CreateFCmpUNO(x, x), x, result);
}

llvm::Value* ElementalEmitter::Tanh(llvm::Value* x) {
  if (device_ != Device::kHost || !x->getType()->isFloatTy()) return MathCall("tanh", {x});
  llvm::Type* f = x->getType();
  auto c = [&](double v) { return llvm::ConstantFP::get(f, v); };
  llvm::Value* ax = b_->CreateIntrinsic(llvm::Intrinsic::fabs, {f}, {x});
  // |x| < 0.5625: the odd Taylor series to x^21 (next term < 1e-10).
  llvm::Value* x2 = b_->CreateFMul(x, x);
  llvm::Value* q =
      Horner(x2, {18888466084.0 / 194896477400625.0, -443861162.0 / 1856156927625.0,
                  6404582.0 / 10854718875.0, -929569.0 / 638512875.0, 21844.0 / 6081075.0,
                  -1382.0 / 155925.0, 62.0 / 2835.0, -17.0 / 315.0, 2.0 / 15.0, -1.0 / 3.0});
  llvm::Value* small = MulAdd(b_->CreateFMul(q, x2), x, x);
  // Otherwise (1 - e^-2|x|) / (1 + e^-2|x|), with no cancellation there.
  // |x| is clamped to 9 (tanh is 1 in f32 from there: e^-18 is under half
  // an ulp of 1), so e^-2|x| needs neither Exp's two-step scaling nor its
  // overflow and underflow cases; NaN is kept by the last select.
  auto [p, n] = ExpReduced(
      b_->CreateFMul(b_->CreateIntrinsic(llvm::Intrinsic::minnum, {f}, {ax, c(9.0)}), c(-2.0)));
  llvm::Value* t = b_->CreateFMul(p, Pow2(n, f));
  llvm::Value* large = b_->CreateIntrinsic(
      llvm::Intrinsic::copysign, {f},
      {b_->CreateFDiv(b_->CreateFSub(c(1.0), t), b_->CreateFAdd(c(1.0), t)), x});
  llvm::Value* result = b_->CreateSelect(b_->CreateFCmpOLT(ax, c(0.5625)), small, large);
  return b_->CreateSelect(b_->CreateFCmpUNO(x, x), x, result);
}

llvm::Value* ElementalEmitter::Convert(llvm::Value* v, PrimitiveType from, PrimitiveType to) {
  llvm::LLVMContext& c = b_->getContext();
  llvm::Type* dst = ComputeType(to, c);
  if (from == to) return v;
  // The narrow types (one byte each, i8 in kernels; ExpandNarrowTypes
  // leaves them only to converts and ops that move values): a narrow float
  // is read as its exact f32, a narrow integer's byte already holds its
  // value (sign-extended) as an 8-bit integer's would.
  if (const MinifloatFormat* format = NarrowFloatFormat(from)) {
    v = EmitMinifloatToFloat(*b_, v, *format);
    from = F32;
    if (to == F32) return v;
  } else if (IsNarrowInteger(from)) {
    from = WideComputeType(from);
  }
  if (const MinifloatFormat* format = NarrowFloatFormat(to)) {
    // One rounding, from the exact f64 of the value (as the interpreter).
    llvm::Value* wide;
    if (IsFloat(from)) {
      wide = v->getType()->isDoubleTy() ? v : b_->CreateFPExt(v, b_->getDoubleTy());
    } else if (from == PRED || !IsSigned(from)) {
      wide = b_->CreateUIToFP(v, b_->getDoubleTy());
    } else {
      wide = b_->CreateSIToFP(v, b_->getDoubleTy());
    }
    return EmitDoubleToMinifloat(*b_, wide, *format);
  }
  if (IsNarrowInteger(to) && !IsFloat(from)) {
    // Integer conversions wrap: to the low bits, sign-extended in the byte
    // for the signed types.
    llvm::Value* byte = Convert(v, from, IsSigned(from) ? S8 : U8);
    const int unused = 8 - NarrowIntegerBits(to);
    if (IsSigned(to)) {
      return b_->CreateAShr(b_->CreateShl(byte, unused), unused);
    }
    return b_->CreateAnd(byte, b_->getInt8(static_cast<uint8_t>(0xFF >> unused)));
  }
  if (to == PRED) {
    if (IsFloat(from)) {
      return b_->CreateFCmpUNE(v, llvm::ConstantFP::get(v->getType(), 0.0));
    }
    return b_->CreateICmpNE(v, llvm::ConstantInt::get(v->getType(), 0));
  }
  if (from == PRED) {
    if (IsFloat(to)) return b_->CreateUIToFP(v, dst);
    return b_->CreateZExt(v, dst);
  }
  if (IsFloat(from) && IsFloat(to)) {
    llvm::Value* r = v;
    if (v->getType() != dst) {
      r = v->getType()->isDoubleTy() ? b_->CreateFPTrunc(v, dst) : b_->CreateFPExt(v, dst);
    }
    return RoundToType(*b_, r, to);
  }
  if (IsFloat(from)) {
    // Saturating float -> int, NaN -> 0.
    int bits = IsNarrowInteger(to) ? NarrowIntegerBits(to) : static_cast<int>(ByteWidth(to) * 8);
    bool is_signed = IsSigned(to);
    double lo = is_signed ? -std::ldexp(1.0, bits - 1) : 0.0;
    double hi = is_signed ? std::ldexp(1.0, bits - 1) : std::ldexp(1.0, bits);
    llvm::Value* wide = v->getType()->isDoubleTy() ? v : b_->CreateFPExt(v, b_->getDoubleTy());
    llvm::Value* is_nan = b_->CreateFCmpUNO(wide, wide);
    llvm::Value* too_low = b_->CreateFCmpOLE(wide, llvm::ConstantFP::get(b_->getDoubleTy(), lo));
    llvm::Value* too_high = b_->CreateFCmpOGE(wide, llvm::ConstantFP::get(b_->getDoubleTy(), hi));
    llvm::Value* safe = b_->CreateSelect(b_->CreateOr(is_nan, b_->CreateOr(too_low, too_high)),
                                         llvm::ConstantFP::get(b_->getDoubleTy(), 0.0), wide);
    llvm::Value* converted = is_signed ? b_->CreateFPToSI(safe, dst) : b_->CreateFPToUI(safe, dst);
    llvm::APInt min_value =
        is_signed ? llvm::APInt::getSignedMinValue(bits) : llvm::APInt::getMinValue(bits);
    llvm::APInt max_value =
        is_signed ? llvm::APInt::getSignedMaxValue(bits) : llvm::APInt::getMaxValue(bits);
    const unsigned dst_bits = dst->getIntegerBitWidth();  // a narrow integer's byte
    min_value = is_signed ? min_value.sext(dst_bits) : min_value.zext(dst_bits);
    max_value = is_signed ? max_value.sext(dst_bits) : max_value.zext(dst_bits);
    converted = b_->CreateSelect(too_low, llvm::ConstantInt::get(dst, min_value), converted);
    converted = b_->CreateSelect(too_high, llvm::ConstantInt::get(dst, max_value), converted);
    return b_->CreateSelect(is_nan, llvm::ConstantInt::get(dst, 0), converted);
  }
  if (IsFloat(to)) {
    // int -> float: convert exactly to double first when the target is a
    // 16-bit float so rounding happens once (as the interpreter does).
    llvm::Type* via = (to == F16 || to == BF16) ? b_->getDoubleTy() : dst;
    llvm::Value* r = IsSigned(from) ? b_->CreateSIToFP(v, via) : b_->CreateUIToFP(v, via);
    if (via != dst) r = b_->CreateFPTrunc(r, dst);
    return RoundToType(*b_, r, to);
  }
  // int -> int: wrap.
  unsigned from_bits = v->getType()->getIntegerBitWidth();
  unsigned to_bits = dst->getIntegerBitWidth();
  if (to_bits < from_bits) return b_->CreateTrunc(v, dst);
  if (to_bits > from_bits) return IsSigned(from) ? b_->CreateSExt(v, dst) : b_->CreateZExt(v, dst);
  return v;
}

llvm::Value* ElementalEmitter::IntPower(llvm::Value* base, llvm::Value* exponent, bool is_signed) {
  // Exponentiation by squaring; a negative exponent gives 0, except for
  // base 1 (1) and base -1 (+-1 by parity).
  llvm::Type* t = base->getType();
  llvm::AllocaInst* result = EntryAlloca(t);
  llvm::AllocaInst* b_acc = EntryAlloca(t);
  llvm::AllocaInst* e_acc = EntryAlloca(t);
  b_->CreateStore(llvm::ConstantInt::get(t, 1), result);
  b_->CreateStore(base, b_acc);
  b_->CreateStore(exponent, e_acc);
  llvm::Function* fn = b_->GetInsertBlock()->getParent();
  llvm::LLVMContext& c = b_->getContext();
  llvm::BasicBlock* head = llvm::BasicBlock::Create(c, "pow.head", fn);
  llvm::BasicBlock* body = llvm::BasicBlock::Create(c, "pow.body", fn);
  llvm::BasicBlock* exit = llvm::BasicBlock::Create(c, "pow.exit", fn);
  b_->CreateBr(head);
  b_->SetInsertPoint(head);
  llvm::Value* e = b_->CreateLoad(t, e_acc);
  llvm::Value* positive = is_signed ? b_->CreateICmpSGT(e, llvm::ConstantInt::get(t, 0))
                                    : b_->CreateICmpUGT(e, llvm::ConstantInt::get(t, 0));
  b_->CreateCondBr(positive, body, exit);
  b_->SetInsertPoint(body);
  llvm::Value* r = b_->CreateLoad(t, result);
  llvm::Value* bb = b_->CreateLoad(t, b_acc);
  llvm::Value* odd = b_->CreateICmpNE(b_->CreateAnd(e, llvm::ConstantInt::get(t, 1)),
                                      llvm::ConstantInt::get(t, 0));
  b_->CreateStore(b_->CreateSelect(odd, b_->CreateMul(r, bb), r), result);
  b_->CreateStore(b_->CreateMul(bb, bb), b_acc);
  b_->CreateStore(b_->CreateLShr(e, llvm::ConstantInt::get(t, 1)), e_acc);
  b_->CreateBr(head);
  b_->SetInsertPoint(exit);
  llvm::Value* out = b_->CreateLoad(t, result);
  if (!is_signed) return out;
  llvm::Value* negative = b_->CreateICmpSLT(exponent, llvm::ConstantInt::get(t, 0));
  llvm::Value* is_one = b_->CreateICmpEQ(base, llvm::ConstantInt::get(t, 1));
  llvm::Value* is_minus_one = b_->CreateICmpEQ(base, llvm::ConstantInt::getSigned(t, -1));
  llvm::Value* odd_exp = b_->CreateICmpNE(b_->CreateAnd(exponent, llvm::ConstantInt::get(t, 1)),
                                          llvm::ConstantInt::get(t, 0));
  llvm::Value* neg_result = b_->CreateSelect(
      is_one, llvm::ConstantInt::get(t, 1),
      b_->CreateSelect(is_minus_one,
                       b_->CreateSelect(odd_exp, llvm::ConstantInt::getSigned(t, -1),
                                        llvm::ConstantInt::get(t, 1)),
                       llvm::ConstantInt::get(t, 0)));
  return b_->CreateSelect(negative, neg_result, out);
}

absl::StatusOr<llvm::Value*> ElementalEmitter::EmitUnary(const HloInstruction& instr,
                                                         llvm::Value* x) {
  PrimitiveType in = instr.operand(0)->shape().element_type();
  PrimitiveType out = instr.shape().element_type();
  llvm::Type* t = x->getType();
  auto fconst = [&](double v) { return llvm::ConstantFP::get(t, v); };
  auto round = [&](llvm::Value* v) { return RoundToType(*b_, v, out); };
  switch (instr.opcode()) {
    case HloOpcode::kCopy:
      return x;
    case HloOpcode::kAbs:
      if (IsFloat(in)) return MathCall("fabs", {x});
      return b_->CreateSelect(b_->CreateICmpSLT(x, llvm::ConstantInt::get(t, 0)), b_->CreateNeg(x),
                              x);
    case HloOpcode::kNegate:
      if (IsFloat(in)) return b_->CreateFNeg(x);
      return b_->CreateNeg(x);
    case HloOpcode::kSign:
      if (IsFloat(in)) {
        // sign(NaN) = NaN, sign(+-0) = +-0, else +-1.
        llvm::Value* one = MathCall("copysign", {fconst(1.0), x});
        llvm::Value* is_zero_or_nan = b_->CreateFCmpUEQ(x, fconst(0.0));
        return b_->CreateSelect(is_zero_or_nan, x, one);
      } else {
        llvm::Value* zero = llvm::ConstantInt::get(t, 0);
        if (!IsSigned(in)) {
          return b_->CreateZExt(b_->CreateICmpNE(x, zero), t);
        }
        llvm::Value* pos = b_->CreateZExt(b_->CreateICmpSGT(x, zero), t);
        llvm::Value* neg = b_->CreateZExt(b_->CreateICmpSLT(x, zero), t);
        return b_->CreateSub(pos, neg);
      }
    case HloOpcode::kNot:
      if (in == PRED) return b_->CreateNot(x);
      return b_->CreateNot(x);
    case HloOpcode::kPopulationCount:
      return b_->CreateIntrinsic(llvm::Intrinsic::ctpop, {t}, {x});
    case HloOpcode::kClz:
      return b_->CreateIntrinsic(llvm::Intrinsic::ctlz, {t}, {x, b_->getFalse()});
    case HloOpcode::kExp:
      return round(Exp(x));
    case HloOpcode::kExpm1:
      return round(MathCall("expm1", {x}));
    case HloOpcode::kLog:
      return round(MathCall("log", {x}));
    case HloOpcode::kLog1p:
      return round(MathCall("log1p", {x}));
    case HloOpcode::kSqrt:
      return round(MathCall("sqrt", {x}));
    case HloOpcode::kRsqrt:
      return round(b_->CreateFDiv(fconst(1.0), MathCall("sqrt", {x})));
    case HloOpcode::kAcos:
      return round(MathCall("acos", {x}));
    case HloOpcode::kAcosh:
      return round(MathCall("acosh", {x}));
    case HloOpcode::kAsin:
      return round(MathCall("asin", {x}));
    case HloOpcode::kAsinh:
      return round(MathCall("asinh", {x}));
    case HloOpcode::kAtan:
      return round(MathCall("atan", {x}));
    case HloOpcode::kAtanh:
      return round(MathCall("atanh", {x}));
    case HloOpcode::kCosh:
      return round(MathCall("cosh", {x}));
    case HloOpcode::kSinh:
      return round(MathCall("sinh", {x}));
    case HloOpcode::kCbrt:
      return round(MathCall("cbrt", {x}));
    case HloOpcode::kTanh:
      return round(Tanh(x));
    case HloOpcode::kSin:
      return round(MathCall("sin", {x}));
    case HloOpcode::kCos:
      return round(MathCall("cos", {x}));
    case HloOpcode::kTan:
      return round(MathCall("tan", {x}));
    case HloOpcode::kErf:
      return round(MathCall("erf", {x}));
    case HloOpcode::kFloor:
      return MathCall("floor", {x});
    case HloOpcode::kCeil:
      return MathCall("ceil", {x});
    case HloOpcode::kRoundNearestAfz:
      return MathCall("round", {x});
    case HloOpcode::kRoundNearestEven:
      return MathCall("roundeven", {x});
    case HloOpcode::kLogistic:
      return round(
          b_->CreateFDiv(fconst(1.0), b_->CreateFAdd(fconst(1.0), Exp(b_->CreateFNeg(x)))));
    case HloOpcode::kReducePrecision: {
      // Bit manipulation on the compute type (float or double), as the
      // interpreter's ReducePrecisionValue.
      bool is_double = t->isDoubleTy();
      int src_mantissa = is_double ? 52 : 23;
      int src_exponent = is_double ? 11 : 8;
      llvm::Type* it = is_double ? b_->getInt64Ty() : b_->getInt32Ty();
      int m = instr.attrs().mantissa_bits, e = instr.attrs().exponent_bits;
      llvm::Value* bits = b_->CreateBitCast(x, it);
      auto k = [&](uint64_t v) { return llvm::ConstantInt::get(it, v); };
      if (m < src_mantissa) {
        uint64_t last = uint64_t{1} << (src_mantissa - m);
        uint64_t base_bias = (last >> 1) - 1;
        llvm::Value* last_bit = b_->CreateLShr(b_->CreateAnd(bits, k(last)), src_mantissa - m);
        llvm::Value* bias = b_->CreateAdd(last_bit, k(base_bias));
        bits = b_->CreateAnd(b_->CreateAdd(bits, bias), k(~(last - 1)));
      }
      if (e < src_exponent) {
        int total = is_double ? 64 : 32;
        uint64_t sign_mask = uint64_t{1} << (total - 1);
        uint64_t exp_mask = ((uint64_t{1} << src_exponent) - 1) << src_mantissa;
        uint64_t bias = (uint64_t{1} << (src_exponent - 1)) - 1;
        uint64_t reduced_bias = (uint64_t{1} << (e - 1)) - 1;
        uint64_t max_exp = (bias + reduced_bias) << src_mantissa;
        uint64_t min_exp = (bias - reduced_bias) << src_mantissa;
        llvm::Value* x_exp = b_->CreateAnd(bits, k(exp_mask));
        llvm::Value* signed_zero = b_->CreateAnd(bits, k(sign_mask));
        llvm::Value* signed_inf = b_->CreateOr(signed_zero, k(exp_mask));
        bits = b_->CreateSelect(b_->CreateICmpUGT(x_exp, k(max_exp)), signed_inf, bits);
        bits = b_->CreateSelect(b_->CreateICmpULE(x_exp, k(min_exp)), signed_zero, bits);
      }
      llvm::Value* result = b_->CreateBitCast(bits, t);
      if (m > 0) {
        // NaN stays NaN.
        result = b_->CreateSelect(b_->CreateFCmpUNO(x, x), x, result);
      }
      return round(result);
    }
    default:
      return UnimplementedInstruction(instr, "not an elementwise unary op");
  }
}

absl::StatusOr<llvm::Value*> ElementalEmitter::EmitBinary(const HloInstruction& instr,
                                                          llvm::Value* x, llvm::Value* y) {
  PrimitiveType type = instr.operand(0)->shape().element_type();
  PrimitiveType out = instr.shape().element_type();
  llvm::Type* t = x->getType();
  auto round = [&](llvm::Value* v) { return RoundToType(*b_, v, out); };
  bool is_float = IsFloat(type);
  bool is_signed = IsSigned(type);
  // Signed division and remainder must not trap on y == 0 or on INT_MIN /
  // -1: the divisor becomes 1 where either holds, and the caller selects
  // XLA's result for those cases.
  struct GuardedDivisor {
    llvm::Value* min;       // INT_MIN of the type
    llvm::Value* overflow;  // x == INT_MIN && y == -1
    llvm::Value* safe;      // the divisor to divide by
  };
  auto guard_signed_divisor = [&](llvm::Value* y_zero) {
    unsigned bits = t->getIntegerBitWidth();
    llvm::Value* min = llvm::ConstantInt::get(t, llvm::APInt::getSignedMinValue(bits));
    llvm::Value* overflow = b_->CreateAnd(b_->CreateICmpEQ(x, min),
                                          b_->CreateICmpEQ(y, llvm::ConstantInt::getSigned(t, -1)));
    llvm::Value* safe =
        b_->CreateSelect(b_->CreateOr(y_zero, overflow), llvm::ConstantInt::get(t, 1), y);
    return GuardedDivisor{min, overflow, safe};
  };
  switch (instr.opcode()) {
    case HloOpcode::kAdd:
      if (type == PRED) return b_->CreateOr(x, y);
      return is_float ? round(b_->CreateFAdd(x, y)) : b_->CreateAdd(x, y);
    case HloOpcode::kSubtract:
      return is_float ? round(b_->CreateFSub(x, y)) : b_->CreateSub(x, y);
    case HloOpcode::kMultiply:
      if (type == PRED) return b_->CreateAnd(x, y);
      return is_float ? round(b_->CreateFMul(x, y)) : b_->CreateMul(x, y);
    case HloOpcode::kDivide: {
      if (is_float) return round(b_->CreateFDiv(x, y));
      llvm::Value* zero = llvm::ConstantInt::get(t, 0);
      llvm::Value* y_zero = b_->CreateICmpEQ(y, zero);
      if (!is_signed) {
        llvm::Value* safe = b_->CreateSelect(y_zero, llvm::ConstantInt::get(t, 1), y);
        return b_->CreateSelect(y_zero, llvm::ConstantInt::getAllOnesValue(t),
                                b_->CreateUDiv(x, safe));
      }
      GuardedDivisor d = guard_signed_divisor(y_zero);
      llvm::Value* q = b_->CreateSDiv(x, d.safe);
      q = b_->CreateSelect(d.overflow, d.min, q);
      return b_->CreateSelect(y_zero, llvm::ConstantInt::getSigned(t, -1), q);
    }
    case HloOpcode::kRemainder: {
      if (is_float) {
        if (device_ == Device::kGpu) return round(MathCall("fmod", {x, y}));
        return round(b_->CreateFRem(x, y));
      }
      llvm::Value* zero = llvm::ConstantInt::get(t, 0);
      llvm::Value* y_zero = b_->CreateICmpEQ(y, zero);
      if (!is_signed) {
        llvm::Value* safe = b_->CreateSelect(y_zero, llvm::ConstantInt::get(t, 1), y);
        return b_->CreateSelect(y_zero, x, b_->CreateURem(x, safe));
      }
      GuardedDivisor d = guard_signed_divisor(y_zero);
      llvm::Value* r = b_->CreateSRem(x, d.safe);
      r = b_->CreateSelect(d.overflow, zero, r);
      return b_->CreateSelect(y_zero, x, r);
    }
    case HloOpcode::kPower:
      if (is_float) return round(MathCall("pow", {x, y}));
      return IntPower(x, y, is_signed);
    case HloOpcode::kAtan2:
      return round(MathCall("atan2", {x, y}));
    case HloOpcode::kMaximum:
    case HloOpcode::kMinimum: {
      bool max = instr.opcode() == HloOpcode::kMaximum;
      if (!is_float) {
        if (type == PRED) return max ? b_->CreateOr(x, y) : b_->CreateAnd(x, y);
        llvm::Value* take_x = max ? (is_signed ? b_->CreateICmpSGT(x, y) : b_->CreateICmpUGT(x, y))
                                  : (is_signed ? b_->CreateICmpSLT(x, y) : b_->CreateICmpULT(x, y));
        return b_->CreateSelect(take_x, x, y);
      }
      // NaN propagates; max(-0, +0) = +0, min(-0, +0) = -0: IEEE 754-2019
      // maximum/minimum. The host uses LLVM's intrinsics for them, which
      // the loop vectorizer turns into vector reductions (the select chain
      // below is a scalar dependency chain in a max-reduce loop).
      if (device_ == Device::kHost) {
        llvm::Intrinsic::ID id = max ? llvm::Intrinsic::maximum : llvm::Intrinsic::minimum;
        // Constants fold here, as the builder folds the other operations
        // (its folder leaves intrinsics alone).
        auto* cx = llvm::dyn_cast<llvm::Constant>(x);
        auto* cy = llvm::dyn_cast<llvm::Constant>(y);
        if (cx != nullptr && cy != nullptr) {
          if (llvm::Constant* folded = llvm::ConstantFoldBinaryIntrinsic(id, cx, cy, t, nullptr)) {
            return folded;
          }
        }
        return b_->CreateIntrinsic(id, {t}, {x, y});
      }
      llvm::Value* x_nan = b_->CreateFCmpUNO(x, x);
      llvm::Value* y_nan = b_->CreateFCmpUNO(y, y);
      llvm::Value* equal = b_->CreateFCmpOEQ(x, y);
      llvm::Value* x_neg = b_->CreateICmpSLT(
          b_->CreateBitCast(x, t->isDoubleTy() ? b_->getInt64Ty() : b_->getInt32Ty()),
          llvm::ConstantInt::get(t->isDoubleTy() ? b_->getInt64Ty() : b_->getInt32Ty(), 0));
      llvm::Value* on_equal = max ? b_->CreateSelect(x_neg, y, x) : b_->CreateSelect(x_neg, x, y);
      llvm::Value* cmp = max ? b_->CreateFCmpOGT(x, y) : b_->CreateFCmpOLT(x, y);
      llvm::Value* r = b_->CreateSelect(cmp, x, y);
      r = b_->CreateSelect(equal, on_equal, r);
      r = b_->CreateSelect(y_nan, y, r);
      return b_->CreateSelect(x_nan, x, r);
    }
    case HloOpcode::kAnd:
      return b_->CreateAnd(x, y);
    case HloOpcode::kOr:
      return b_->CreateOr(x, y);
    case HloOpcode::kXor:
      return b_->CreateXor(x, y);
    case HloOpcode::kShiftLeft:
    case HloOpcode::kShiftRightLogical:
    case HloOpcode::kShiftRightArithmetic: {
      unsigned bits = t->getIntegerBitWidth();
      llvm::Value* width = llvm::ConstantInt::get(t, bits);
      llvm::Value* too_big = b_->CreateICmpUGE(y, width);  // also negative amounts
      llvm::Value* safe = b_->CreateSelect(too_big, llvm::ConstantInt::get(t, 0), y);
      llvm::Value* zero = llvm::ConstantInt::get(t, 0);
      if (instr.opcode() == HloOpcode::kShiftLeft) {
        return b_->CreateSelect(too_big, zero, b_->CreateShl(x, safe));
      }
      if (instr.opcode() == HloOpcode::kShiftRightLogical) {
        return b_->CreateSelect(too_big, zero, b_->CreateLShr(x, safe));
      }
      llvm::Value* fill =
          b_->CreateSelect(b_->CreateICmpSLT(x, zero), llvm::ConstantInt::getSigned(t, -1), zero);
      return b_->CreateSelect(too_big, fill, b_->CreateAShr(x, safe));
    }
    default:
      return UnimplementedInstruction(instr, "not an elementwise binary op");
  }
}

llvm::Value* ElementalEmitter::EmitCompare(const HloInstruction& instr, llvm::Value* x,
                                           llvm::Value* y, PrimitiveType type) {
  ComparisonDirection d = instr.attrs().comparison_direction.value_or(ComparisonDirection::kEq);
  const std::string& ctype = instr.attrs().comparison_type;
  if (IsFloat(type) && ctype == "TOTALORDER") {
    // Map float bits to a signed integer with the same total order.
    bool is_double = x->getType()->isDoubleTy();
    llvm::Type* it = is_double ? b_->getInt64Ty() : b_->getInt32Ty();
    uint64_t mask = is_double ? 0x7fffffffffffffffull : 0x7fffffffull;
    auto key = [&](llvm::Value* v) {
      llvm::Value* i = b_->CreateBitCast(v, it);
      llvm::Value* sign = b_->CreateAShr(i, is_double ? 63 : 31);
      return b_->CreateXor(i, b_->CreateAnd(sign, llvm::ConstantInt::get(it, mask)));
    };
    x = key(x);
    y = key(y);
    type = is_double ? S64 : S32;
  }
  if (IsFloat(type)) {
    switch (d) {
      case ComparisonDirection::kEq:
        return b_->CreateFCmpOEQ(x, y);
      case ComparisonDirection::kNe:
        return b_->CreateFCmpUNE(x, y);
      case ComparisonDirection::kLt:
        return b_->CreateFCmpOLT(x, y);
      case ComparisonDirection::kLe:
        return b_->CreateFCmpOLE(x, y);
      case ComparisonDirection::kGt:
        return b_->CreateFCmpOGT(x, y);
      case ComparisonDirection::kGe:
        return b_->CreateFCmpOGE(x, y);
    }
  }
  bool is_signed = IsSigned(type);
  switch (d) {
    case ComparisonDirection::kEq:
      return b_->CreateICmpEQ(x, y);
    case ComparisonDirection::kNe:
      return b_->CreateICmpNE(x, y);
    case ComparisonDirection::kLt:
      return is_signed ? b_->CreateICmpSLT(x, y) : b_->CreateICmpULT(x, y);
    case ComparisonDirection::kLe:
      return is_signed ? b_->CreateICmpSLE(x, y) : b_->CreateICmpULE(x, y);
    case ComparisonDirection::kGt:
      return is_signed ? b_->CreateICmpSGT(x, y) : b_->CreateICmpUGT(x, y);
    case ComparisonDirection::kGe:
      return is_signed ? b_->CreateICmpSGE(x, y) : b_->CreateICmpUGE(x, y);
  }
  return b_->getFalse();
}

absl::StatusOr<std::vector<llvm::Value*>> ElementalEmitter::EmitScalarComputation(
    const HloComputation& computation, const std::vector<llvm::Value*>& args) {
  // Bind parameters, then emit the root at the scalar index. Parameters of
  // the computation are looked up by a dedicated cache scope.
  if (static_cast<int64_t>(args.size()) != computation.num_parameters()) {
    return absl::InternalError(absl::StrCat("computation '", computation.name(), "' takes ",
                                            computation.num_parameters(), " arguments, got ",
                                            args.size()));
  }
  cache_.emplace_back();
  for (int64_t i = 0; i < computation.num_parameters(); ++i) {
    const HloInstruction* p = computation.parameter_instruction(i);
    if (!p->shape().IsArray() || p->shape().rank() != 0) {
      cache_.pop_back();
      return absl::UnimplementedError(absl::StrCat("computation '", computation.name(),
                                                   "': only scalar parameters are supported"));
    }
    cache_.back()[CacheKey{p, {}}] = {args[i]};
  }
  const HloInstruction* root = computation.root_instruction();
  absl::StatusOr<std::vector<llvm::Value*>> result;
  if (root->opcode() == HloOpcode::kTuple) {
    std::vector<llvm::Value*> values;
    for (const HloInstruction* op : root->operands()) {
      auto v = Emit(*op, IrIndex());
      if (!v.ok()) {
        result = v.status();
        break;
      }
      values.push_back(*v);
    }
    if (values.size() == root->operands().size()) result = values;
  } else {
    auto v = Emit(*root, IrIndex());
    if (v.ok())
      result = std::vector<llvm::Value*>{*v};
    else
      result = v.status();
  }
  cache_.pop_back();
  return result;
}

}  // namespace aot
