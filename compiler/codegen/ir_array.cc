#include "compiler/codegen/ir_array.h"

namespace aot {

llvm::Type* ComputeType(PrimitiveType type, llvm::LLVMContext& c) {
  switch (type) {
    case PRED:
      return llvm::Type::getInt1Ty(c);
    case S8:
    case U8:
      return llvm::Type::getInt8Ty(c);
    case S16:
    case U16:
      return llvm::Type::getInt16Ty(c);
    case S32:
    case U32:
      return llvm::Type::getInt32Ty(c);
    case S64:
    case U64:
      return llvm::Type::getInt64Ty(c);
    case F16:
    case BF16:
    case F32:
      return llvm::Type::getFloatTy(c);
    case F64:
      return llvm::Type::getDoubleTy(c);
    // Complex values are only moved by kernels (ExpandComplexArithmetic
    // computes on their parts): a (real, imaginary) pair as one integer.
    case C64:
      return llvm::Type::getInt64Ty(c);
    case C128:
      return llvm::Type::getInt128Ty(c);
    default:
      return llvm::Type::getInt8Ty(c);
  }
}

llvm::Type* StorageType(PrimitiveType type, llvm::LLVMContext& c) {
  switch (type) {
    case PRED:
      return llvm::Type::getInt8Ty(c);
    case F16:
    case BF16:
      return llvm::Type::getInt16Ty(c);
    default:
      return ComputeType(type, c);
  }
}

IrIndex IrIndex::Linear(llvm::Value* linear, const Shape& shape) {
  IrIndex index;
  index.dims_ = shape.dimensions();
  index.linear_ = linear;
  return index;
}

IrIndex IrIndex::Multi(std::vector<llvm::Value*> multi, const Shape& shape) {
  IrIndex index;
  index.dims_ = shape.dimensions();
  index.multi_ = std::move(multi);
  index.has_multi_ = true;
  return index;
}

const std::vector<llvm::Value*>& IrIndex::multi(llvm::IRBuilder<>& b) const {
  if (has_multi_) return multi_;
  multi_.assign(dims_.size(), nullptr);
  llvm::Value* rest = linear_;
  for (int64_t d = static_cast<int64_t>(dims_.size()) - 1; d >= 0; --d) {
    if (d == 0) {
      multi_[d] = rest;
    } else {
      llvm::Value* size = b.getInt64(dims_[d]);
      multi_[d] = b.CreateURem(rest, size);
      rest = b.CreateUDiv(rest, size);
    }
  }
  has_multi_ = true;
  return multi_;
}

llvm::Value* IrIndex::linear(llvm::IRBuilder<>& b) const {
  if (linear_ != nullptr) return linear_;
  llvm::Value* linear = b.getInt64(0);
  for (size_t d = 0; d < dims_.size(); ++d) {
    linear = b.CreateAdd(b.CreateMul(linear, b.getInt64(dims_[d])), multi_[d]);
  }
  linear_ = linear;
  return linear_;
}

llvm::Value* IrArray::ElementAddress(llvm::IRBuilder<>& b, const IrIndex& index) const {
  llvm::Type* storage = StorageType(shape_.element_type(), b.getContext());
  if (shape_.rank() == 0) return base_;
  llvm::Value* offset;
  if (shape_.HasDefaultLayout() && index.dims() == shape_.dimensions()) {
    offset = index.linear(b);
  } else {
    const std::vector<llvm::Value*>& multi = index.multi(b);
    std::vector<int64_t> m2m = shape_.LayoutOrDefault();
    offset = b.getInt64(0);
    int64_t stride = 1;
    for (int64_t dim : m2m) {
      offset = b.CreateAdd(offset, b.CreateMul(multi[dim], b.getInt64(stride)));
      stride *= shape_.dimensions(dim);
    }
  }
  return b.CreateInBoundsGEP(storage, base_, offset);
}

llvm::Value* IrArray::Load(llvm::IRBuilder<>& b, const IrIndex& index) const {
  PrimitiveType type = shape_.element_type();
  llvm::Value* stored = b.CreateLoad(StorageType(type, b.getContext()), ElementAddress(b, index));
  return StorageToCompute(b, stored, type);
}

void IrArray::Store(llvm::IRBuilder<>& b, const IrIndex& index, llvm::Value* value) const {
  b.CreateStore(ComputeToStorage(b, value, shape_.element_type()), ElementAddress(b, index));
}

namespace {

// float -> 16-bit pattern, round to nearest even (bf16 / f16).
llvm::Value* FloatToBf16Bits(llvm::IRBuilder<>& b, llvm::Value* f) {
  llvm::Value* u = b.CreateBitCast(f, b.getInt32Ty());
  llvm::Value* abs = b.CreateAnd(u, b.getInt32(0x7fffffff));
  llvm::Value* is_nan = b.CreateICmpUGT(abs, b.getInt32(0x7f800000));
  llvm::Value* lsb = b.CreateAnd(b.CreateLShr(u, 16), b.getInt32(1));
  llvm::Value* rounded = b.CreateLShr(b.CreateAdd(u, b.CreateAdd(b.getInt32(0x7fff), lsb)), 16);
  // A NaN keeps its payload's top bits (so a 16-bit pattern survives a
  // round trip through f32 bit for bit, as bitcast-convert needs); only a
  // payload that would vanish becomes the quiet bit.
  llvm::Value* top = b.CreateLShr(u, 16);
  llvm::Value* nan =
      b.CreateSelect(b.CreateICmpEQ(b.CreateAnd(top, b.getInt32(0x7f)), b.getInt32(0)),
                     b.CreateOr(top, b.getInt32(0x40)), top);
  return b.CreateTrunc(b.CreateSelect(is_nan, nan, rounded), b.getInt16Ty());
}

llvm::Value* FloatToHalfBits(llvm::IRBuilder<>& b, llvm::Value* f) {
  llvm::Value* u = b.CreateBitCast(f, b.getInt32Ty());
  llvm::Value* sign = b.CreateAnd(b.CreateLShr(u, 16), b.getInt32(0x8000));
  llvm::Value* abs = b.CreateAnd(u, b.getInt32(0x7fffffff));
  // NaN.
  llvm::Value* is_nan = b.CreateICmpUGT(abs, b.getInt32(0x7f800000));
  // Overflow to infinity (>= 65520).
  llvm::Value* is_inf = b.CreateICmpUGE(abs, b.getInt32(0x477ff000));
  // Normal: rebias and round 13 bits.
  llvm::Value* rebased = b.CreateSub(abs, b.getInt32(112u << 23));
  llvm::Value* lsb = b.CreateAnd(b.CreateLShr(rebased, 13), b.getInt32(1));
  llvm::Value* normal = b.CreateLShr(b.CreateAdd(rebased, b.CreateAdd(b.getInt32(0xfff), lsb)), 13);
  // Subnormal (abs < 2^-14): value = mantissa >> (126 - exponent), RNE.
  llvm::Value* is_sub = b.CreateICmpULT(abs, b.getInt32(0x38800000));
  llvm::Value* is_zero = b.CreateICmpULT(abs, b.getInt32(0x33000000));
  llvm::Value* exponent = b.CreateLShr(abs, 23);
  llvm::Value* mantissa = b.CreateOr(b.CreateAnd(abs, b.getInt32(0x7fffff)), b.getInt32(0x800000));
  llvm::Value* shift = b.CreateSub(b.getInt32(126), exponent);
  // Clamp the shift so that the (unused) lanes never shift by >= 32.
  shift = b.CreateSelect(b.CreateICmpUGT(shift, b.getInt32(24)), b.getInt32(24), shift);
  llvm::Value* sub = b.CreateLShr(mantissa, shift);
  llvm::Value* rem =
      b.CreateAnd(mantissa, b.CreateSub(b.CreateShl(b.getInt32(1), shift), b.getInt32(1)));
  llvm::Value* half = b.CreateShl(b.getInt32(1), b.CreateSub(shift, b.getInt32(1)));
  llvm::Value* round_up =
      b.CreateOr(b.CreateICmpUGT(rem, half),
                 b.CreateAnd(b.CreateICmpEQ(rem, half),
                             b.CreateICmpNE(b.CreateAnd(sub, b.getInt32(1)), b.getInt32(0))));
  sub = b.CreateAdd(sub, b.CreateZExt(round_up, b.getInt32Ty()));
  llvm::Value* magnitude =
      b.CreateSelect(is_sub, b.CreateSelect(is_zero, b.getInt32(0), sub), normal);
  magnitude = b.CreateSelect(is_inf, b.getInt32(0x7c00), magnitude);
  // A NaN keeps the top 10 bits of its payload (exact for a value that
  // came from f16 bits); a payload that would vanish becomes the quiet bit.
  llvm::Value* payload = b.CreateAnd(b.CreateLShr(abs, 13), b.getInt32(0x3ff));
  payload = b.CreateSelect(b.CreateICmpEQ(payload, b.getInt32(0)), b.getInt32(0x200), payload);
  magnitude = b.CreateSelect(is_nan, b.CreateOr(b.getInt32(0x7c00), payload), magnitude);
  return b.CreateTrunc(b.CreateOr(sign, magnitude), b.getInt16Ty());
}

llvm::Value* Bf16BitsToFloat(llvm::IRBuilder<>& b, llvm::Value* bits) {
  return b.CreateBitCast(b.CreateShl(b.CreateZExt(bits, b.getInt32Ty()), 16), b.getFloatTy());
}

llvm::Value* HalfBitsToFloat(llvm::IRBuilder<>& b, llvm::Value* bits) {
  llvm::Value* h = b.CreateZExt(bits, b.getInt32Ty());
  llvm::Value* sign = b.CreateShl(b.CreateAnd(h, b.getInt32(0x8000)), 16);
  llvm::Value* exponent = b.CreateAnd(b.CreateLShr(h, 10), b.getInt32(0x1f));
  llvm::Value* mantissa = b.CreateAnd(h, b.getInt32(0x3ff));
  llvm::Value* normal = b.CreateBitCast(
      b.CreateOr(sign, b.CreateOr(b.CreateShl(b.CreateAdd(exponent, b.getInt32(112)), 23),
                                  b.CreateShl(mantissa, 13))),
      b.getFloatTy());
  llvm::Value* special = b.CreateBitCast(
      b.CreateOr(sign, b.CreateOr(b.getInt32(0x7f800000), b.CreateShl(mantissa, 13))),
      b.getFloatTy());
  llvm::Value* sub_magnitude =
      b.CreateFMul(b.CreateUIToFP(mantissa, b.getFloatTy()),
                   llvm::ConstantFP::get(b.getFloatTy(), 1.0 / 16777216.0));
  llvm::Value* subnormal = b.CreateSelect(b.CreateICmpNE(sign, b.getInt32(0)),
                                          b.CreateFNeg(sub_magnitude), sub_magnitude);
  llvm::Value* out = b.CreateSelect(b.CreateICmpEQ(exponent, b.getInt32(0x1f)), special, normal);
  return b.CreateSelect(b.CreateICmpEQ(exponent, b.getInt32(0)), subnormal, out);
}

}  // namespace

llvm::Value* StorageToCompute(llvm::IRBuilder<>& b, llvm::Value* stored, PrimitiveType type) {
  switch (type) {
    case PRED:
      return b.CreateICmpNE(stored, b.getInt8(0));
    case BF16:
      return Bf16BitsToFloat(b, stored);
    case F16:
      return HalfBitsToFloat(b, stored);
    default:
      return stored;
  }
}

llvm::Value* ComputeToStorage(llvm::IRBuilder<>& b, llvm::Value* value, PrimitiveType type) {
  switch (type) {
    case PRED:
      return b.CreateZExt(value, b.getInt8Ty());
    case BF16:
      return FloatToBf16Bits(b, value);
    case F16:
      return FloatToHalfBits(b, value);
    default:
      return value;
  }
}

llvm::Value* RoundToType(llvm::IRBuilder<>& b, llvm::Value* value, PrimitiveType type) {
  if (type == BF16) return Bf16BitsToFloat(b, FloatToBf16Bits(b, value));
  if (type == F16) return HalfBitsToFloat(b, FloatToHalfBits(b, value));
  return value;
}

}  // namespace aot
