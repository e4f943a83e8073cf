#include "compiler/codegen/ir_array.h"

#include <algorithm>
#include <cstdint>
#include <limits>
#include <map>
#include <memory>
#include <numeric>
#include <string>
#include <vector>

#include "compiler/hlo/shape.h"
#include "gtest/gtest.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"
#include "llvm/IR/Verifier.h"
#include "llvm/Support/raw_ostream.h"

namespace aot {
namespace {

// A function `void f(ptr %base, i64 %a0, ..., i64 %a{n-1})` with a builder
// at the end of its entry block, so the tests can emit index arithmetic on
// unknown (argument) values and then evaluate it for concrete ones.
class IrArrayTest : public ::testing::Test {
 protected:
  void SetUp() override { MakeFunction(4); }

  void MakeFunction(int num_i64_args) {
    module_ = std::make_unique<llvm::Module>("ir_array_test", context_);
    std::vector<llvm::Type*> params = {llvm::PointerType::getUnqual(context_)};
    params.insert(params.end(), num_i64_args, llvm::Type::getInt64Ty(context_));
    fn_ = llvm::Function::Create(
        llvm::FunctionType::get(llvm::Type::getVoidTy(context_), params, false),
        llvm::GlobalValue::ExternalLinkage, "f", module_.get());
    entry_ = llvm::BasicBlock::Create(context_, "entry", fn_);
    b_ = std::make_unique<llvm::IRBuilder<>>(entry_);
  }

  llvm::Value* base() { return fn_->getArg(0); }
  llvm::Value* arg(int i) { return fn_->getArg(1 + i); }
  llvm::Value* I64(int64_t v) { return b_->getInt64(v); }
  size_t InstructionCount() const { return entry_->size(); }

  // Evaluates the integer arithmetic the index code emits (add, sub, mul,
  // udiv, urem, shifts, and) for concrete values of the i64 arguments.
  uint64_t Eval(llvm::Value* v, const std::vector<uint64_t>& args) {
    if (auto* c = llvm::dyn_cast<llvm::ConstantInt>(v)) return c->getZExtValue();
    if (auto* a = llvm::dyn_cast<llvm::Argument>(v)) {
      EXPECT_GE(a->getArgNo(), 1u);
      return args.at(a->getArgNo() - 1);
    }
    auto* op = llvm::dyn_cast<llvm::BinaryOperator>(v);
    if (op == nullptr) {
      ADD_FAILURE() << "unexpected value in index arithmetic";
      return 0;
    }
    uint64_t x = Eval(op->getOperand(0), args);
    uint64_t y = Eval(op->getOperand(1), args);
    switch (op->getOpcode()) {
      case llvm::Instruction::Add:
        return x + y;
      case llvm::Instruction::Sub:
        return x - y;
      case llvm::Instruction::Mul:
        return x * y;
      case llvm::Instruction::UDiv:
        return x / y;
      case llvm::Instruction::URem:
        return x % y;
      case llvm::Instruction::Shl:
        return x << y;
      case llvm::Instruction::LShr:
        return x >> y;
      case llvm::Instruction::And:
        return x & y;
      default:
        ADD_FAILURE() << "unexpected opcode " << op->getOpcodeName();
        return 0;
    }
  }

  // The element offset of an address ElementAddress returned: a single
  // index inbounds GEP on `base` over the storage type `element`.
  llvm::Value* GepOffset(llvm::Value* address, llvm::Type* element) {
    auto* gep = llvm::dyn_cast<llvm::GetElementPtrInst>(address);
    EXPECT_NE(gep, nullptr) << "ElementAddress did not return a GEP";
    if (gep == nullptr) return nullptr;
    EXPECT_TRUE(gep->isInBounds());
    EXPECT_EQ(gep->getPointerOperand(), base());
    EXPECT_EQ(gep->getSourceElementType(), element);
    EXPECT_EQ(gep->getNumIndices(), 1u);
    return gep->getOperand(1);
  }

  static uint64_t ConstantValue(llvm::Value* v) {
    auto* c = llvm::dyn_cast<llvm::ConstantInt>(v);
    EXPECT_NE(c, nullptr) << "not folded to a constant";
    return c == nullptr ? ~uint64_t{0} : c->getZExtValue();
  }

  llvm::LLVMContext context_;
  std::unique_ptr<llvm::Module> module_;
  llvm::Function* fn_ = nullptr;
  llvm::BasicBlock* entry_ = nullptr;
  std::unique_ptr<llvm::IRBuilder<>> b_;
};

Shape WithLayout(Shape shape, std::vector<int64_t> minor_to_major) {
  shape.set_minor_to_major(std::move(minor_to_major));
  return shape;
}

TEST_F(IrArrayTest, LinearizesConstantMultiIndexRowMajor) {
  Shape shape(F32, {2, 3, 4});
  for (int64_t i = 0; i < 2; ++i) {
    for (int64_t j = 0; j < 3; ++j) {
      for (int64_t k = 0; k < 4; ++k) {
        IrIndex index = IrIndex::Multi({I64(i), I64(j), I64(k)}, shape);
        EXPECT_FALSE(index.has_linear());
        EXPECT_EQ(ConstantValue(index.linear(*b_)), static_cast<uint64_t>(i * 12 + j * 4 + k))
            << i << "," << j << "," << k;
        EXPECT_TRUE(index.has_linear());
      }
    }
  }
  // Constants fold: nothing was emitted.
  EXPECT_EQ(InstructionCount(), 0u);
}

TEST_F(IrArrayTest, DelinearizesConstantLinearIndex) {
  Shape shape(S32, {2, 3, 4});
  for (int64_t l = 0; l < 24; ++l) {
    IrIndex index = IrIndex::Linear(I64(l), shape);
    const std::vector<llvm::Value*>& multi = index.multi(*b_);
    ASSERT_EQ(multi.size(), 3u);
    EXPECT_EQ(ConstantValue(multi[0]), static_cast<uint64_t>(l / 12)) << l;
    EXPECT_EQ(ConstantValue(multi[1]), static_cast<uint64_t>((l / 4) % 3)) << l;
    EXPECT_EQ(ConstantValue(multi[2]), static_cast<uint64_t>(l % 4)) << l;
  }
}

TEST_F(IrArrayTest, DelinearizationEmitsDivRemByTheMinorDimensions) {
  Shape shape(F32, {5, 3, 7});
  IrIndex index = IrIndex::Linear(arg(0), shape);
  EXPECT_EQ(index.dims(), (std::vector<int64_t>{5, 3, 7}));
  const std::vector<llvm::Value*>& multi = index.multi(*b_);
  ASSERT_EQ(multi.size(), 3u);
  // The arithmetic: urem/udiv by 7 then by 3; the major index is what is
  // left (no division by the major dimension, no bound check).
  std::map<unsigned, std::vector<uint64_t>> divisors;
  for (const llvm::Instruction& inst : *entry_) {
    auto* divisor = llvm::dyn_cast<llvm::ConstantInt>(inst.getOperand(1));
    ASSERT_NE(divisor, nullptr) << inst.getOpcodeName();
    divisors[inst.getOpcode()].push_back(divisor->getZExtValue());
  }
  EXPECT_EQ(divisors[llvm::Instruction::URem], (std::vector<uint64_t>{7, 3}));
  EXPECT_EQ(divisors[llvm::Instruction::UDiv], (std::vector<uint64_t>{7, 3}));
  EXPECT_EQ(divisors.size(), 2u);
  // Evaluated for every linear index of the shape.
  for (uint64_t l = 0; l < 105; ++l) {
    EXPECT_EQ(Eval(multi[0], {l}), l / 21) << l;
    EXPECT_EQ(Eval(multi[1], {l}), (l / 7) % 3) << l;
    EXPECT_EQ(Eval(multi[2], {l}), l % 7) << l;
  }
  // The multi-dimensional form is computed once; the linear one is the
  // original value.
  size_t emitted = InstructionCount();
  EXPECT_EQ(&index.multi(*b_), &multi);
  EXPECT_EQ(index.linear(*b_), arg(0));
  EXPECT_EQ(InstructionCount(), emitted);
}

TEST_F(IrArrayTest, LinearizationOfArgumentsEvaluatesRowMajor) {
  Shape shape(F32, {5, 3, 7});
  IrIndex index = IrIndex::Multi({arg(0), arg(1), arg(2)}, shape);
  llvm::Value* linear = index.linear(*b_);
  EXPECT_GT(InstructionCount(), 0u);
  for (uint64_t i = 0; i < 5; ++i) {
    for (uint64_t j = 0; j < 3; ++j) {
      for (uint64_t k = 0; k < 7; ++k) {
        EXPECT_EQ(Eval(linear, {i, j, k}), i * 21 + j * 7 + k);
      }
    }
  }
  // Cached: asking again emits nothing more.
  size_t emitted = InstructionCount();
  EXPECT_EQ(index.linear(*b_), linear);
  EXPECT_EQ(InstructionCount(), emitted);
}

TEST_F(IrArrayTest, DefaultLayoutAddressesTheLinearIndexDirectly) {
  IrArray array(base(), Shape(F32, {4, 8}));
  IrIndex index = IrIndex::Linear(arg(0), Shape(F32, {4, 8}));
  llvm::Value* offset = GepOffset(array.ElementAddress(*b_, index), b_->getFloatTy());
  // No delinearize/relinearize round trip for the common case.
  EXPECT_EQ(offset, arg(0));
  EXPECT_EQ(InstructionCount(), 1u);
}

TEST_F(IrArrayTest, ExplicitDefaultLayoutMatchesRowMajor) {
  IrArray array(base(), WithLayout(Shape(S16, {3, 5}), {1, 0}));
  IrIndex index = IrIndex::Multi({arg(0), arg(1)}, Shape(S16, {3, 5}));
  llvm::Value* offset = GepOffset(array.ElementAddress(*b_, index), b_->getInt16Ty());
  for (uint64_t i = 0; i < 3; ++i) {
    for (uint64_t j = 0; j < 5; ++j) EXPECT_EQ(Eval(offset, {i, j}), i * 5 + j);
  }
}

TEST_F(IrArrayTest, ColumnMajorLayoutTransposesTheOffset) {
  // f32[2,3]{0,1}: dimension 0 is minor, so element (i, j) lives at i + 2j.
  Shape logical(F32, {2, 3});
  IrArray array(base(), WithLayout(logical, {0, 1}));
  IrIndex multi = IrIndex::Multi({arg(0), arg(1)}, logical);
  llvm::Value* offset = GepOffset(array.ElementAddress(*b_, multi), b_->getFloatTy());
  for (uint64_t i = 0; i < 2; ++i) {
    for (uint64_t j = 0; j < 3; ++j) {
      EXPECT_EQ(Eval(offset, {i, j}), i + 2 * j) << i << "," << j;
    }
  }
  // A logical (row-major) linear index, as the kernels' loops produce it,
  // is delinearized and then laid out: row-major order 0..5 visits the
  // physical elements 0, 2, 4, 1, 3, 5.
  IrIndex linear = IrIndex::Linear(arg(2), logical);
  llvm::Value* offset2 = GepOffset(array.ElementAddress(*b_, linear), b_->getFloatTy());
  std::vector<uint64_t> physical;
  for (uint64_t l = 0; l < 6; ++l) physical.push_back(Eval(offset2, {0, 0, l}));
  EXPECT_EQ(physical, (std::vector<uint64_t>{0, 2, 4, 1, 3, 5}));
}

TEST_F(IrArrayTest, ThreeDimensionalLayoutIsABijectionWithTheRightStrides) {
  // {0,2,1}: dim 0 fastest (stride 1), then dim 2 (stride 2), then dim 1
  // (stride 2*4 = 8).
  Shape logical(F64, {2, 3, 4});
  IrArray array(base(), WithLayout(logical, {0, 2, 1}));
  IrIndex index = IrIndex::Multi({arg(0), arg(1), arg(2)}, logical);
  llvm::Value* offset = GepOffset(array.ElementAddress(*b_, index), b_->getDoubleTy());
  std::vector<uint64_t> seen;
  for (uint64_t i = 0; i < 2; ++i) {
    for (uint64_t j = 0; j < 3; ++j) {
      for (uint64_t k = 0; k < 4; ++k) {
        uint64_t o = Eval(offset, {i, j, k});
        EXPECT_EQ(o, i + 2 * k + 8 * j) << i << "," << j << "," << k;
        seen.push_back(o);
      }
    }
  }
  std::sort(seen.begin(), seen.end());
  std::vector<uint64_t> all(24);
  std::iota(all.begin(), all.end(), 0);
  EXPECT_EQ(seen, all);
}

TEST_F(IrArrayTest, ConstantIndexIntoLaidOutArrayFolds) {
  Shape logical(F32, {3, 4});
  IrArray array(base(), WithLayout(logical, {0, 1}));
  // Element (2, 3) of a column-major f32[3,4] is at 2 + 3*3 = 11.
  IrIndex index = IrIndex::Multi({I64(2), I64(3)}, logical);
  llvm::Value* offset = GepOffset(array.ElementAddress(*b_, index), b_->getFloatTy());
  EXPECT_EQ(ConstantValue(offset), 11u);
}

TEST_F(IrArrayTest, ScalarAddressIsTheBase) {
  IrArray array(base(), Shape::Scalar(F32));
  EXPECT_EQ(array.ElementAddress(*b_, IrIndex()), base());
  EXPECT_TRUE(IrIndex().IsScalar());
}

TEST_F(IrArrayTest, StorageAndComputeTypes) {
  llvm::LLVMContext& c = context_;
  EXPECT_EQ(StorageType(PRED, c), llvm::Type::getInt8Ty(c));
  EXPECT_EQ(ComputeType(PRED, c), llvm::Type::getInt1Ty(c));
  EXPECT_EQ(StorageType(F16, c), llvm::Type::getInt16Ty(c));
  EXPECT_EQ(StorageType(BF16, c), llvm::Type::getInt16Ty(c));
  EXPECT_EQ(ComputeType(F16, c), llvm::Type::getFloatTy(c));
  EXPECT_EQ(ComputeType(BF16, c), llvm::Type::getFloatTy(c));
  EXPECT_EQ(ComputeType(F64, c), llvm::Type::getDoubleTy(c));
  EXPECT_EQ(StorageType(U32, c), llvm::Type::getInt32Ty(c));
  EXPECT_EQ(StorageType(S64, c), llvm::Type::getInt64Ty(c));
  EXPECT_EQ(StorageType(U8, c), llvm::Type::getInt8Ty(c));
}

TEST_F(IrArrayTest, LoadAndStoreConvertBetweenStorageAndComputeTypes) {
  IrArray preds(base(), Shape(PRED, {8}));
  IrIndex index = IrIndex::Linear(arg(0), Shape(PRED, {8}));
  llvm::Value* p = preds.Load(*b_, index);
  EXPECT_TRUE(p->getType()->isIntegerTy(1));
  auto* cmp = llvm::dyn_cast<llvm::ICmpInst>(p);
  ASSERT_NE(cmp, nullptr);
  EXPECT_EQ(cmp->getPredicate(), llvm::CmpInst::ICMP_NE);
  auto* load = llvm::dyn_cast<llvm::LoadInst>(cmp->getOperand(0));
  ASSERT_NE(load, nullptr);
  EXPECT_TRUE(load->getType()->isIntegerTy(8));
  preds.Store(*b_, index, b_->getTrue());
  auto* store = llvm::dyn_cast<llvm::StoreInst>(&entry_->back());
  ASSERT_NE(store, nullptr);
  EXPECT_TRUE(store->getValueOperand()->getType()->isIntegerTy(8));
  EXPECT_EQ(ConstantValue(store->getValueOperand()), 1u);

  IrArray halves(base(), Shape(BF16, {8}));
  llvm::Value* h = halves.Load(*b_, IrIndex::Linear(arg(1), Shape(BF16, {8})));
  EXPECT_TRUE(h->getType()->isFloatTy());
  b_->CreateRetVoid();
  std::string errors;
  llvm::raw_string_ostream os(errors);
  EXPECT_FALSE(llvm::verifyFunction(*fn_, &os)) << errors;
}

// The 16-bit float conversions are integer arithmetic; on constants the
// builder folds them, which evaluates the emitted code.
class FloatConversionTest : public IrArrayTest {
 protected:
  uint64_t ToBits(float f, PrimitiveType type) {
    return ConstantValue(ComputeToStorage(*b_, llvm::ConstantFP::get(b_->getFloatTy(), f), type));
  }
  float FromBits(uint16_t bits, PrimitiveType type) {
    llvm::Value* v = StorageToCompute(*b_, b_->getInt16(bits), type);
    auto* c = llvm::dyn_cast<llvm::ConstantFP>(v);
    EXPECT_NE(c, nullptr) << "not folded to a constant";
    return c == nullptr ? -12345.0f : c->getValueAPF().convertToFloat();
  }
  float Round(float f, PrimitiveType type) {
    llvm::Value* v = RoundToType(*b_, llvm::ConstantFP::get(b_->getFloatTy(), f), type);
    auto* c = llvm::dyn_cast<llvm::ConstantFP>(v);
    EXPECT_NE(c, nullptr) << "not folded to a constant";
    return c == nullptr ? -12345.0f : c->getValueAPF().convertToFloat();
  }
};

TEST_F(FloatConversionTest, Bf16RoundsToNearestEven) {
  EXPECT_EQ(ToBits(1.0f, BF16), 0x3f80u);
  EXPECT_EQ(ToBits(-2.0f, BF16), 0xc000u);
  // 1 + 2^-8 is halfway between 0x3f80 and 0x3f81: ties to even (down).
  EXPECT_EQ(ToBits(1.0f + 0x1p-8f, BF16), 0x3f80u);
  // 1 + 3 * 2^-8 is halfway between 0x3f81 and 0x3f82: ties to even (up).
  EXPECT_EQ(ToBits(1.0f + 3 * 0x1p-8f, BF16), 0x3f82u);
  // Above halfway rounds up.
  EXPECT_EQ(ToBits(1.0f + 0x1p-8f + 0x1p-12f, BF16), 0x3f81u);
  // NaN stays a (quiet) NaN rather than rounding into infinity.
  uint64_t nan = ToBits(std::numeric_limits<float>::quiet_NaN(), BF16);
  EXPECT_EQ(nan & 0x7f80u, 0x7f80u);
  EXPECT_NE(nan & 0x7fu, 0u);
  EXPECT_EQ(FromBits(0x3f80, BF16), 1.0f);
  EXPECT_EQ(FromBits(0xc040, BF16), -3.0f);
}

TEST_F(FloatConversionTest, F16NormalsSubnormalsAndSpecials) {
  EXPECT_EQ(ToBits(1.0f, F16), 0x3c00u);
  EXPECT_EQ(ToBits(-2.0f, F16), 0xc000u);
  EXPECT_EQ(ToBits(65504.0f, F16), 0x7bffu);  // largest finite
  EXPECT_EQ(ToBits(65520.0f, F16), 0x7c00u);  // rounds to infinity
  EXPECT_EQ(ToBits(std::numeric_limits<float>::infinity(), F16), 0x7c00u);
  EXPECT_EQ(ToBits(std::numeric_limits<float>::quiet_NaN(), F16), 0x7e00u);
  EXPECT_EQ(ToBits(0x1p-24f, F16), 0x0001u);  // smallest subnormal
  EXPECT_EQ(ToBits(0x1p-14f, F16), 0x0400u);  // smallest normal
  EXPECT_EQ(ToBits(0x1p-26f, F16), 0x0000u);  // underflows to zero
  EXPECT_EQ(ToBits(-0.0f, F16), 0x8000u);
  // Ties to even in the 13 dropped mantissa bits.
  EXPECT_EQ(ToBits(1.0f + 0x1p-11f, F16), 0x3c00u);
  EXPECT_EQ(ToBits(1.0f + 3 * 0x1p-11f, F16), 0x3c02u);
  EXPECT_EQ(FromBits(0x3c00, F16), 1.0f);
  EXPECT_EQ(FromBits(0x7bff, F16), 65504.0f);
  EXPECT_EQ(FromBits(0x0001, F16), 0x1p-24f);
  EXPECT_EQ(FromBits(0x8001, F16), -0x1p-24f);
  EXPECT_EQ(FromBits(0xfc00, F16), -std::numeric_limits<float>::infinity());
}

TEST_F(FloatConversionTest, RoundToTypeKeepsAFloat) {
  EXPECT_EQ(Round(1.0f + 3 * 0x1p-11f, F16), 1.0f + 0x1p-9f);
  EXPECT_EQ(Round(1.0f + 3 * 0x1p-8f, BF16), 1.0f + 0x1p-6f);
  EXPECT_EQ(Round(1.0f + 0x1p-20f, F32), 1.0f + 0x1p-20f);
}

}  // namespace
}  // namespace aot
