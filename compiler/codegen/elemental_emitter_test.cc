#include "compiler/codegen/elemental_emitter.h"

#include <cmath>
#include <cstdint>
#include <limits>
#include <memory>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "compiler/codegen/ir_array.h"
#include "compiler/hlo/hlo_computation.h"
#include "compiler/hlo/hlo_module.h"
#include "compiler/hlo/hlo_parser.h"
#include "gtest/gtest.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"

namespace aot {
namespace {

// Emits elements of the entry computation's instructions at constant
// indices. The kernel inputs are the entry parameters; loading element l
// (row-major linear index) of parameter p yields the integer 1000 * p + l
// (in the parameter's compute type), so an index-mapping op's result names
// the operand element it read. On constants the IR builder folds the
// emitted arithmetic, which evaluates it.
class ElementalEmitterTest : public ::testing::Test {
 protected:
  void SetUp() override {
    module_ = std::make_unique<llvm::Module>("elemental_emitter_test", context_);
    fn_ =
        llvm::Function::Create(llvm::FunctionType::get(llvm::Type::getVoidTy(context_), {}, false),
                               llvm::GlobalValue::ExternalLinkage, "f", module_.get());
    b_ = std::make_unique<llvm::IRBuilder<>>(llvm::BasicBlock::Create(context_, "entry", fn_));
  }

  void Parse(absl::string_view hlo) {
    auto module = ParseHloModule(hlo);
    ASSERT_TRUE(module.ok()) << module.status() << "\n" << hlo;
    hlo_ = *std::move(module);
    emitter_ = std::make_unique<ElementalEmitter>(
        b_.get(), module_.get(), ElementalEmitter::Device::kHost,
        [](const HloInstruction& h) { return h.opcode() == HloOpcode::kParameter; },
        [this](const HloInstruction& h, const IrIndex& index) -> absl::StatusOr<llvm::Value*> {
          ++loads_;
          llvm::Value* linear = index.IsScalar() ? b_->getInt64(0) : index.linear(*b_);
          auto* l = llvm::dyn_cast<llvm::ConstantInt>(linear);
          if (l == nullptr) return absl::InternalError("non-constant index");
          int64_t value = 1000 * h.parameter_number() + l->getSExtValue();
          PrimitiveType type = h.shape().element_type();
          llvm::Type* t = ComputeType(type, context_);
          if (IsFloatingPoint(type)) return llvm::ConstantFP::get(t, static_cast<double>(value));
          return llvm::ConstantInt::getSigned(t, value);
        });
  }

  const HloInstruction& Instr(absl::string_view name) {
    const HloInstruction* h = hlo_->entry_computation()->FindInstruction(name);
    EXPECT_NE(h, nullptr) << name;
    return *h;
  }

  absl::StatusOr<llvm::Value*> EmitAt(absl::string_view name, std::vector<int64_t> multi) {
    const HloInstruction& h = Instr(name);
    if (multi.empty()) return emitter_->Emit(h, IrIndex());
    std::vector<llvm::Value*> values;
    for (int64_t i : multi) values.push_back(b_->getInt64(i));
    return emitter_->Emit(h, IrIndex::Multi(values, h.shape()));
  }

  // The element as a (folded) integer constant.
  int64_t Int(absl::string_view name, std::vector<int64_t> multi = {}) {
    auto v = EmitAt(name, std::move(multi));
    EXPECT_TRUE(v.ok()) << v.status();
    if (!v.ok()) return -999999;
    auto* c = llvm::dyn_cast<llvm::ConstantInt>(*v);
    EXPECT_NE(c, nullptr) << name << " did not fold to an integer constant";
    return c == nullptr ? -999999 : c->getSExtValue();
  }

  // The element as a (folded) floating-point constant.
  double Float(absl::string_view name, std::vector<int64_t> multi = {}) {
    auto v = EmitAt(name, std::move(multi));
    EXPECT_TRUE(v.ok()) << v.status();
    if (!v.ok()) return -999999;
    auto* c = llvm::dyn_cast<llvm::ConstantFP>(*v);
    EXPECT_NE(c, nullptr) << name << " did not fold to a floating-point constant";
    if (c == nullptr) return -999999;
    return c->getType()->isDoubleTy() ? c->getValueAPF().convertToDouble()
                                      : c->getValueAPF().convertToFloat();
  }

  // Every element of a rank-1 or rank-2 instruction, row-major.
  std::vector<int64_t> AllInts(absl::string_view name) {
    const Shape& shape = Instr(name).shape();
    std::vector<int64_t> out;
    if (shape.rank() == 1) {
      for (int64_t i = 0; i < shape.dimensions(0); ++i) out.push_back(Int(name, {i}));
    } else if (shape.rank() == 2) {
      for (int64_t i = 0; i < shape.dimensions(0); ++i) {
        for (int64_t j = 0; j < shape.dimensions(1); ++j) out.push_back(Int(name, {i, j}));
      }
    } else {
      ADD_FAILURE() << "rank " << shape.rank();
    }
    return out;
  }

  llvm::LLVMContext context_;
  std::unique_ptr<llvm::Module> module_;
  llvm::Function* fn_ = nullptr;
  std::unique_ptr<llvm::IRBuilder<>> b_;
  std::unique_ptr<HloModule> hlo_;
  std::unique_ptr<ElementalEmitter> emitter_;
  int loads_ = 0;
};

using V = std::vector<int64_t>;

TEST_F(ElementalEmitterTest, TransposeReadsThePermutedOperandElement) {
  Parse(R"(
HloModule m
ENTRY %main (x: s64[2,3,4]) -> s64[4,2,3] {
  %x = s64[2,3,4]{2,1,0} parameter(0)
  ROOT %t = s64[4,2,3]{2,1,0} transpose(%x), dimensions={2,0,1}
}
)");
  // t(a, b, c) = x(b, c, a), at row-major 12b + 4c + a.
  for (int64_t a = 0; a < 4; ++a) {
    for (int64_t b = 0; b < 2; ++b) {
      for (int64_t c = 0; c < 3; ++c) {
        EXPECT_EQ(Int("t", {a, b, c}), 12 * b + 4 * c + a) << a << "," << b << "," << c;
      }
    }
  }
}

TEST_F(ElementalEmitterTest, BroadcastReshapeReverseSliceIota) {
  Parse(R"(
HloModule m
ENTRY %main (x: s64[3], y: s64[2,6]) -> s64[3,4] {
  %x = s64[3]{0} parameter(0)
  %y = s64[2,6]{1,0} parameter(1)
  %bcast = s64[2,3]{1,0} broadcast(%x), dimensions={1}
  %rev = s64[2,6]{1,0} reverse(%y), dimensions={1}
  %sl = s64[1,2]{1,0} slice(%y), slice={[1:2], [1:6:3]}
  %io = s64[2,3]{1,0} iota(), iota_dimension=1
  ROOT %rs = s64[3,4]{1,0} reshape(%y)
}
)");
  EXPECT_EQ(AllInts("bcast"), (V{0, 1, 2, 0, 1, 2}));
  EXPECT_EQ(AllInts("rev"), (V{1005, 1004, 1003, 1002, 1001, 1000,  //
                               1011, 1010, 1009, 1008, 1007, 1006}));
  // Rows [1:2], columns 1 and 4.
  EXPECT_EQ(AllInts("sl"), (V{1007, 1010}));
  EXPECT_EQ(AllInts("io"), (V{0, 1, 2, 0, 1, 2}));
  // A reshape keeps the row-major linear index.
  EXPECT_EQ(AllInts("rs"), (V{1000, 1001, 1002, 1003, 1004, 1005,  //
                              1006, 1007, 1008, 1009, 1010, 1011}));
}

TEST_F(ElementalEmitterTest, PadConcatenateAndDynamicSlice) {
  Parse(R"(
HloModule m
ENTRY %main (x: s64[3], p: s64[], z: s64[2]) -> s64[3] {
  %x = s64[3]{0} parameter(0)
  %p = s64[] parameter(1)
  %z = s64[2]{0} parameter(2)
  %pad = s64[8]{0} pad(%x, %p), padding=1_2_1
  %cat = s64[5]{0} concatenate(%z, %x), dimensions={0}
  %two = s64[] constant(2)
  %seven = s64[] constant(7)
  %big = s64[8]{0} iota(), iota_dimension=0
  %ds = s64[3]{0} dynamic-slice(%big, %two), dynamic_slice_sizes={3}
  ROOT %clamped = s64[3]{0} dynamic-slice(%big, %seven), dynamic_slice_sizes={3}
}
)");
  // Low 1, interior 1, high 2; the padding value is parameter 1.
  EXPECT_EQ(AllInts("pad"), (V{1000, 0, 1000, 1, 1000, 2, 1000, 1000}));
  EXPECT_EQ(AllInts("cat"), (V{2000, 2001, 0, 1, 2}));
  EXPECT_EQ(AllInts("ds"), (V{2, 3, 4}));
  // Start indices are clamped so the slice stays inside: 7 -> 5.
  EXPECT_EQ(AllInts("clamped"), (V{5, 6, 7}));
}

TEST_F(ElementalEmitterTest, IntegerArithmeticFollowsXlaSemantics) {
  Parse(R"(
HloModule m
ENTRY %main () -> s32[] {
  %a = s32[] constant(-7)
  %b = s32[] constant(2)
  %zero = s32[] constant(0)
  %min = s32[] constant(-2147483648)
  %m1 = s32[] constant(-1)
  %div = s32[] divide(%a, %b)
  %rem = s32[] remainder(%a, %b)
  %div0 = s32[] divide(%a, %zero)
  %rem0 = s32[] remainder(%a, %zero)
  %ovf = s32[] divide(%min, %m1)
  %ovf_rem = s32[] remainder(%min, %m1)
  %u200 = u8[] constant(200)
  %u100 = u8[] constant(100)
  %u0 = u8[] constant(0)
  %wrap = u8[] add(%u200, %u100)
  %udiv0 = u8[] divide(%u200, %u0)
  %max = s32[] maximum(%a, %b)
  ROOT %shl = s32[] shift-left(%b, %b)
}
)");
  EXPECT_EQ(Int("div"), -3);   // truncates toward zero
  EXPECT_EQ(Int("rem"), -1);   // sign of the dividend
  EXPECT_EQ(Int("div0"), -1);  // x / 0 = -1
  EXPECT_EQ(Int("rem0"), -7);  // x % 0 = x
  EXPECT_EQ(Int("ovf"), std::numeric_limits<int32_t>::min());
  EXPECT_EQ(Int("ovf_rem"), 0);
  EXPECT_EQ(static_cast<uint8_t>(Int("wrap")), 44);
  EXPECT_EQ(static_cast<uint8_t>(Int("udiv0")), 255);  // all ones
  EXPECT_EQ(Int("max"), 2);
  EXPECT_EQ(Int("shl"), 8);
}

TEST_F(ElementalEmitterTest, FloatArithmeticAndConversions) {
  Parse(R"(
HloModule m
ENTRY %main () -> f32[] {
  %a = f32[] constant(1.5)
  %b = f32[] constant(2.25)
  %nan = f32[] constant(nan)
  %big = f32[] constant(3e9)
  %neg = f32[] constant(-2.7)
  %add = f32[] add(%a, %b)
  %max_nan = f32[] maximum(%a, %nan)
  %to_s32 = s32[] convert(%neg)
  %sat = s32[] convert(%big)
  %nan_s32 = s32[] convert(%nan)
  %to_u8 = u8[] convert(%neg)
  %h1 = f16[] constant(1)
  %heps = f16[] constant(0.00048828125)
  %hsum = f16[] add(%h1, %heps)
  %h3eps = f16[] constant(0.00146484375)
  %hsum3 = f16[] add(%h1, %h3eps)
  ROOT %lt = pred[] compare(%a, %b), direction=LT
}
)");
  EXPECT_EQ(Float("add"), 3.75);
  EXPECT_TRUE(std::isnan(Float("max_nan")));                   // NaN propagates
  EXPECT_EQ(Int("to_s32"), -2);                                // truncation
  EXPECT_EQ(Int("sat"), std::numeric_limits<int32_t>::max());  // saturates
  EXPECT_EQ(Int("nan_s32"), 0);
  EXPECT_EQ(Int("to_u8"), 0);
  // f16 is computed in f32 and rounded back to f16 (ties to even):
  // 1 + 2^-11 -> 1, 1 + 3 * 2^-11 -> 1 + 2^-9.
  EXPECT_EQ(Float("hsum"), 1.0);
  EXPECT_EQ(Float("hsum3"), 1.0 + std::ldexp(1.0, -9));
  auto lt = EmitAt("lt", {});
  ASSERT_TRUE(lt.ok()) << lt.status();
  EXPECT_TRUE((*lt)->getType()->isIntegerTy(1));
  EXPECT_TRUE(llvm::cast<llvm::ConstantInt>(*lt)->isOne());
}

TEST_F(ElementalEmitterTest, OperandsAreEmittedOncePerIndex) {
  Parse(R"(
HloModule m
ENTRY %main (x: f32[4]) -> f32[4] {
  %x = f32[4]{0} parameter(0)
  %sq = f32[4]{0} multiply(%x, %x)
  ROOT %r = f32[4]{0} add(%sq, %x)
}
)");
  // x(2) = 2: 2 * 2 + 2.
  EXPECT_EQ(Float("r", {2}), 6.0);
  EXPECT_EQ(loads_, 1);  // x at index 2 loaded once, reused three times
  EXPECT_EQ(Float("r", {3}), 12.0);
  EXPECT_EQ(loads_, 2);
}

TEST_F(ElementalEmitterTest, UnsupportedConstructsNameTheInstruction) {
  Parse(R"(
HloModule m
ENTRY %main (x: f32[4]) -> f32[2] {
  %x = f32[4]{0} parameter(0)
  ROOT %bc = f32[2]{0} bitcast(%x)
}
)");
  auto v = EmitAt("bc", {1});
  ASSERT_FALSE(v.ok());
  EXPECT_EQ(v.status().code(), absl::StatusCode::kUnimplemented);
  EXPECT_NE(v.status().message().find("'bc'"), std::string::npos) << v.status();
  EXPECT_NE(v.status().message().find("element count"), std::string::npos) << v.status();
}

TEST_F(ElementalEmitterTest, EmitLoopCountsFromZeroToN) {
  Parse("HloModule m\nENTRY %main () -> f32[] {\n  ROOT %c = f32[] constant(0)\n}\n");
  llvm::BasicBlock* entry = b_->GetInsertBlock();
  // An empty loop emits nothing.
  ASSERT_TRUE(emitter_->EmitLoop(0, [](llvm::Value*) { return absl::OkStatus(); }).ok());
  EXPECT_EQ(fn_->size(), 1u);
  EXPECT_TRUE(entry->empty());

  llvm::Value* induction = nullptr;
  ASSERT_TRUE(emitter_
                  ->EmitLoop(5,
                             [&](llvm::Value* i) {
                               induction = i;
                               return absl::OkStatus();
                             })
                  .ok());
  auto* phi = llvm::dyn_cast<llvm::PHINode>(induction);
  ASSERT_NE(phi, nullptr);
  ASSERT_EQ(phi->getNumIncomingValues(), 2u);
  // Starts at 0 from the entry block ...
  auto* start = llvm::dyn_cast<llvm::ConstantInt>(phi->getIncomingValueForBlock(entry));
  ASSERT_NE(start, nullptr);
  EXPECT_EQ(start->getSExtValue(), 0);
  // ... steps by one and exits when the next value reaches 5.
  llvm::BasicBlock* loop = phi->getParent();
  auto* branch = llvm::dyn_cast<llvm::BranchInst>(loop->getTerminator());
  ASSERT_NE(branch, nullptr);
  ASSERT_TRUE(branch->isConditional());
  EXPECT_EQ(branch->getSuccessor(0), loop);
  auto* cmp = llvm::dyn_cast<llvm::ICmpInst>(branch->getCondition());
  ASSERT_NE(cmp, nullptr);
  EXPECT_EQ(cmp->getPredicate(), llvm::CmpInst::ICMP_SLT);
  EXPECT_EQ(llvm::cast<llvm::ConstantInt>(cmp->getOperand(1))->getSExtValue(), 5);
  auto* next = llvm::dyn_cast<llvm::BinaryOperator>(cmp->getOperand(0));
  ASSERT_NE(next, nullptr);
  EXPECT_EQ(next->getOpcode(), llvm::Instruction::Add);
  EXPECT_EQ(next->getOperand(0), phi);
  EXPECT_EQ(llvm::cast<llvm::ConstantInt>(next->getOperand(1))->getSExtValue(), 1);
  EXPECT_EQ(phi->getIncomingValueForBlock(loop), next);
}

TEST_F(ElementalEmitterTest, ClampFolds) {
  Parse("HloModule m\nENTRY %main () -> f32[] {\n  ROOT %c = f32[] constant(0)\n}\n");
  auto value = [&](int64_t v) {
    return llvm::cast<llvm::ConstantInt>(emitter_->Clamp(b_->getInt64(v), 0, 9))->getSExtValue();
  };
  EXPECT_EQ(value(-3), 0);
  EXPECT_EQ(value(4), 4);
  EXPECT_EQ(value(12), 9);
}

}  // namespace
}  // namespace aot
