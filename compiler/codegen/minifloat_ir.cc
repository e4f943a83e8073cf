#include "compiler/codegen/minifloat_ir.h"

#include <cmath>
#include <cstdint>
#include <limits>

#include "llvm/IR/Constants.h"
#include "llvm/IR/Intrinsics.h"

namespace aot {

namespace {

using Specials = MinifloatFormat::Specials;

bool IsSigned(const MinifloatFormat& f) { return f.specials != Specials::kExponentOnly; }
int MagnitudeBits(const MinifloatFormat& f) { return f.exponent_bits + f.mantissa_bits; }

// The largest finite magnitude code (sign clear).
int64_t MaxFiniteCode(const MinifloatFormat& f) {
  const int64_t all_ones = (int64_t{1} << MagnitudeBits(f)) - 1;
  switch (f.specials) {
    case Specials::kIeee:
      return (((int64_t{1} << f.exponent_bits) - 1) << f.mantissa_bits) - 1;
    case Specials::kFinite:
    case Specials::kExponentOnly:
      return all_ones - 1;
    case Specials::kUnsignedZero:
    case Specials::kFiniteNoNan:
      return all_ones;
  }
  return all_ones;
}

// The code a NaN converts to (DoubleToMinifloat's NanCode).
int64_t NanCode(const MinifloatFormat& f) {
  switch (f.specials) {
    case Specials::kIeee:
    case Specials::kFinite:
    case Specials::kExponentOnly:
      return (int64_t{1} << MagnitudeBits(f)) - 1;
    case Specials::kUnsignedZero:
      return int64_t{1} << MagnitudeBits(f);
    case Specials::kFiniteNoNan:
      return 0;
  }
  return 0;
}

}  // namespace

llvm::Value* EmitMinifloatToFloat(llvm::IRBuilder<>& b, llvm::Value* code,
                                  const MinifloatFormat& f) {
  llvm::Type* i32 = b.getInt32Ty();
  llvm::Type* f32 = b.getFloatTy();
  auto k = [&](int64_t v) { return llvm::ConstantInt::get(i32, v); };
  llvm::Value* nan = llvm::ConstantFP::getQNaN(f32);
  const int width = MagnitudeBits(f) + (IsSigned(f) ? 1 : 0);
  llvm::Value* c = b.CreateAnd(b.CreateZExt(code, i32), k((1 << width) - 1));
  if (f.specials == Specials::kExponentOnly) {
    // 2^(c - bias): the f32 exponent field c - bias + 127, where 0 (code 0
    // of e8m0fnu, 2^-127) is the f32 subnormal with the top mantissa bit.
    llvm::Value* field = b.CreateAdd(c, k(127 - f.bias));
    llvm::Value* bits =
        b.CreateSelect(b.CreateICmpEQ(field, k(0)), k(0x00400000), b.CreateShl(field, k(23)));
    llvm::Value* value = b.CreateBitCast(bits, f32);
    return b.CreateSelect(b.CreateICmpEQ(c, k((1 << f.exponent_bits) - 1)), nan, value);
  }
  const int64_t exponent_max = (1 << f.exponent_bits) - 1;
  const int64_t mantissa_max = (1 << f.mantissa_bits) - 1;
  llvm::Value* negative = b.CreateICmpNE(b.CreateLShr(c, k(MagnitudeBits(f))), k(0));
  llvm::Value* e = b.CreateAnd(b.CreateLShr(c, k(f.mantissa_bits)), k(exponent_max));
  llvm::Value* m = b.CreateAnd(c, k(mantissa_max));
  // Normal: the f32 with the exponent rebiased and the mantissa moved up.
  llvm::Value* normal_bits = b.CreateOr(b.CreateShl(b.CreateAdd(e, k(127 - f.bias)), k(23)),
                                        b.CreateShl(m, k(23 - f.mantissa_bits)));
  llvm::Value* normal = b.CreateBitCast(normal_bits, f32);
  // Subnormal: m * 2^(1 - bias - mantissa_bits), exact.
  llvm::Value* subnormal =
      b.CreateFMul(b.CreateUIToFP(m, f32),
                   llvm::ConstantFP::get(f32, std::ldexp(1.0, 1 - f.bias - f.mantissa_bits)));
  llvm::Value* magnitude = b.CreateSelect(b.CreateICmpEQ(e, k(0)), subnormal, normal);
  llvm::Value* value = b.CreateSelect(negative, b.CreateFNeg(magnitude), magnitude);
  llvm::Value* is_nan = nullptr;
  switch (f.specials) {
    case Specials::kIeee: {
      llvm::Value* top = b.CreateICmpEQ(e, k(exponent_max));
      llvm::Value* inf = b.CreateSelect(negative, llvm::ConstantFP::getInfinity(f32, true),
                                        llvm::ConstantFP::getInfinity(f32, false));
      value = b.CreateSelect(top, inf, value);
      is_nan = b.CreateAnd(top, b.CreateICmpNE(m, k(0)));
      break;
    }
    case Specials::kFinite:
      is_nan = b.CreateICmpEQ(b.CreateAnd(c, k((1 << MagnitudeBits(f)) - 1)),
                              k((1 << MagnitudeBits(f)) - 1));
      break;
    case Specials::kUnsignedZero:
      is_nan = b.CreateICmpEQ(c, k(1 << MagnitudeBits(f)));
      break;
    default:
      break;
  }
  return is_nan == nullptr ? value : b.CreateSelect(is_nan, nan, value);
}

llvm::Value* EmitDoubleToMinifloat(llvm::IRBuilder<>& b, llvm::Value* value,
                                   const MinifloatFormat& f) {
  llvm::Type* i64 = b.getInt64Ty();
  llvm::Type* f64 = b.getDoubleTy();
  auto k = [&](int64_t v) { return llvm::ConstantInt::get(i64, v); };
  auto fk = [&](double v) { return llvm::ConstantFP::get(f64, v); };
  llvm::Value* is_nan = b.CreateFCmpUNO(value, value);
  llvm::Value* negative = b.CreateICmpSLT(b.CreateBitCast(value, i64), k(0));
  llvm::Value* a = b.CreateUnaryIntrinsic(llvm::Intrinsic::fabs, value);
  // At or above the smallest normal value: round the f64's bits to
  // mantissa_bits (ties to even), then rebias the exponent.
  llvm::Value* bits = b.CreateBitCast(a, i64);
  const int shift = 52 - f.mantissa_bits;
  llvm::Value* odd = b.CreateAnd(b.CreateLShr(bits, k(shift)), k(1));
  llvm::Value* rounded = b.CreateAdd(bits, b.CreateAdd(k((int64_t{1} << (shift - 1)) - 1), odd));
  llvm::Value* code =
      b.CreateSub(b.CreateLShr(rounded, k(shift)), k(int64_t{1023 - f.bias} << f.mantissa_bits));
  if (f.specials == Specials::kExponentOnly) {
    // No zero and no subnormals: everything below 2^-bias is nearest to it.
    code = b.CreateSelect(b.CreateFCmpOLT(a, fk(std::ldexp(1.0, -f.bias))), k(0), code);
  } else {
    // Below it: the subnormal codes are the multiples of the smallest one.
    const int exponent_min = 1 - f.bias;
    llvm::Value* small = b.CreateFCmpOLT(a, fk(std::ldexp(1.0, exponent_min)));
    llvm::Value* scaled = b.CreateFMul(b.CreateSelect(small, a, fk(0.0)),
                                       fk(std::ldexp(1.0, f.mantissa_bits - exponent_min)));
    llvm::Value* subnormal =
        b.CreateFPToUI(b.CreateUnaryIntrinsic(llvm::Intrinsic::roundeven, scaled), i64);
    code = b.CreateSelect(small, subnormal, code);
  }
  const int64_t max_code = MaxFiniteCode(f);
  llvm::Value* overflow = b.CreateICmpSGT(code, k(max_code));
  llvm::Value* nan_result = is_nan;
  switch (f.specials) {
    case Specials::kIeee:  // infinity
      code = b.CreateSelect(overflow, k(((int64_t{1} << f.exponent_bits) - 1) << f.mantissa_bits),
                            code);
      break;
    case Specials::kFiniteNoNan:  // saturates
      code = b.CreateSelect(overflow, k(max_code), code);
      break;
    default:  // NaN
      nan_result = b.CreateOr(nan_result, overflow);
      break;
  }
  if (IsSigned(f)) {
    llvm::Value* with_sign = b.CreateOr(code, k(int64_t{1} << MagnitudeBits(f)));
    if (f.specials == Specials::kUnsignedZero) {  // no -0
      with_sign = b.CreateSelect(b.CreateICmpEQ(code, k(0)), code, with_sign);
    }
    code = b.CreateSelect(negative, with_sign, code);
  } else {
    // Negative values (not -0) of an unsigned format are NaN.
    nan_result = b.CreateOr(nan_result, b.CreateAnd(negative, b.CreateFCmpUNE(value, fk(0.0))));
  }
  code = b.CreateSelect(nan_result, k(NanCode(f)), code);
  return b.CreateTrunc(code, b.getInt8Ty());
}

}  // namespace aot
