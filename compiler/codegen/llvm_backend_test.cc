#include "compiler/codegen/llvm_backend.h"

#include <cstdint>
#include <cstring>
#include <filesystem>
#include <string>
#include <utility>

#include "compiler/target/target_config.h"
#include "gtest/gtest.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"

namespace aot {
namespace {

TargetConfigProto Target(const char* name) {
  auto target = ShippedTargetConfig(name);
  EXPECT_TRUE(target.ok()) << target.status();
  return target.ok() ? *target : TargetConfigProto();
}

// `void name(ptr %a, ptr %b, i64 %n)`: for (i = 0; i < n; ++i) b[i] = a[i] * 3.0f,
// with the NVPTX kernel annotations for CUDA targets.
llvm::Function* EmitScaleLoop(llvm::Module& module, const char* name, bool cuda) {
  llvm::LLVMContext& c = module.getContext();
  llvm::IRBuilder<> b(c);
  llvm::Type* ptr = b.getPtrTy();
  auto* fn = llvm::Function::Create(
      llvm::FunctionType::get(b.getVoidTy(), {ptr, ptr, b.getInt64Ty()}, false),
      llvm::GlobalValue::ExternalLinkage, name, module);
  if (cuda) {
    fn->setCallingConv(llvm::CallingConv::PTX_Kernel);
    module.getOrInsertNamedMetadata("nvvm.annotations")
        ->addOperand(
            llvm::MDNode::get(c, {llvm::ValueAsMetadata::get(fn), llvm::MDString::get(c, "kernel"),
                                  llvm::ValueAsMetadata::get(b.getInt32(1))}));
  }
  auto* entry = llvm::BasicBlock::Create(c, "entry", fn);
  auto* loop = llvm::BasicBlock::Create(c, "loop", fn);
  auto* exit = llvm::BasicBlock::Create(c, "exit", fn);
  b.SetInsertPoint(entry);
  llvm::Value* n = fn->getArg(2);
  b.CreateCondBr(b.CreateICmpSGT(n, b.getInt64(0)), loop, exit);
  b.SetInsertPoint(loop);
  llvm::PHINode* i = b.CreatePHI(b.getInt64Ty(), 2, "i");
  i->addIncoming(b.getInt64(0), entry);
  llvm::Value* x =
      b.CreateLoad(b.getFloatTy(), b.CreateInBoundsGEP(b.getFloatTy(), fn->getArg(0), i));
  llvm::Value* y = b.CreateFMul(x, llvm::ConstantFP::get(b.getFloatTy(), 3.0));
  b.CreateStore(y, b.CreateInBoundsGEP(b.getFloatTy(), fn->getArg(1), i));
  llvm::Value* next = b.CreateAdd(i, b.getInt64(1));
  i->addIncoming(next, loop);
  b.CreateCondBr(b.CreateICmpSLT(next, n), loop, exit);
  b.SetInsertPoint(exit);
  b.CreateRetVoid();
  return fn;
}

TEST(LlvmBackendTest, ConfigureModuleSetsTripleAndDataLayout) {
  llvm::LLVMContext context;
  llvm::Module host("host", context);
  ASSERT_TRUE(ConfigureModuleForTarget(host, Target("host-x86-64-v3")).ok());
  EXPECT_EQ(host.getTargetTriple(), "x86_64-unknown-linux-gnu");
  EXPECT_TRUE(host.getDataLayout().isLittleEndian());
  EXPECT_EQ(host.getDataLayout().getPointerSizeInBits(), 64u);
  EXPECT_EQ(host.getDataLayout().getStringRepresentation().rfind("e-m:e", 0), 0u)
      << host.getDataLayout().getStringRepresentation();

  llvm::Module cuda("cuda", context);
  ASSERT_TRUE(ConfigureModuleForTarget(cuda, Target("h100")).ok());
  EXPECT_EQ(cuda.getTargetTriple(), "nvptx64-nvidia-cuda");
  EXPECT_EQ(cuda.getDataLayout().getPointerSizeInBits(), 64u);
  EXPECT_NE(host.getDataLayout(), cuda.getDataLayout());
}

TEST(LlvmBackendTest, UnknownTripleIsInvalidArgument) {
  TargetConfigProto target = Target("host-x86-64-v3");
  target.set_llvm_triple("sparc-unknown-nowhere");
  llvm::LLVMContext context;
  llvm::Module module("m", context);
  absl::Status status = ConfigureModuleForTarget(module, target);
  EXPECT_EQ(status.code(), absl::StatusCode::kInvalidArgument) << status;
  EXPECT_NE(status.message().find("sparc-unknown-nowhere"), std::string::npos) << status;
}

TEST(LlvmBackendTest, OptimizeRejectsInvalidIr) {
  llvm::LLVMContext context;
  llvm::Module module("m", context);
  ASSERT_TRUE(ConfigureModuleForTarget(module, Target("host-x86-64-v3")).ok());
  auto* fn =
      llvm::Function::Create(llvm::FunctionType::get(llvm::Type::getVoidTy(context), {}, false),
                             llvm::GlobalValue::ExternalLinkage, "broken", module);
  llvm::BasicBlock::Create(context, "entry", fn);  // no terminator
  absl::Status status = OptimizeModule(module, Target("host-x86-64-v3"));
  EXPECT_EQ(status.code(), absl::StatusCode::kInternal) << status;
  EXPECT_NE(status.message().find("invalid"), std::string::npos) << status;
}

TEST(LlvmBackendTest, OptimizeVectorizesForTheHostIsaLevel) {
  for (const auto& [name, lanes] :
       {std::pair<const char*, const char*>{"host-x86-64-v3", "<8 x float>"},
        std::pair<const char*, const char*>{"host-x86-64-v2", "<4 x float>"}}) {
    llvm::LLVMContext context;
    llvm::Module module("m", context);
    TargetConfigProto target = Target(name);
    ASSERT_TRUE(ConfigureModuleForTarget(module, target).ok());
    llvm::Function* fn = EmitScaleLoop(module, "scale", /*cuda=*/false);
    fn->addFnAttr("target-cpu", target.llvm_cpu());
    std::string before = ModuleToString(module);
    EXPECT_EQ(before.find(" x float>"), std::string::npos);
    ASSERT_TRUE(OptimizeModule(module, target).ok());
    std::string after = ModuleToString(module);
    EXPECT_NE(after.find(std::string("fmul ") + lanes), std::string::npos) << name << "\n" << after;
    EXPECT_NE(after.find("llvm.loop.isvectorized"), std::string::npos) << name;
    if (std::string(name) == "host-x86-64-v2") {
      EXPECT_EQ(after.find("<8 x float>"), std::string::npos) << after;
    }
  }
}

TEST(LlvmBackendTest, HostObjectIsElfX86Relocatable) {
  llvm::LLVMContext context;
  llvm::Module module("m", context);
  TargetConfigProto target = Target("host-x86-64-v3");
  ASSERT_TRUE(ConfigureModuleForTarget(module, target).ok());
  EmitScaleLoop(module, "scale_kernel", /*cuda=*/false);
  ASSERT_TRUE(OptimizeModule(module, target).ok());
  auto object = EmitHostObject(module, target);
  ASSERT_TRUE(object.ok()) << object.status();
  ASSERT_GE(object->size(), 64u);
  EXPECT_EQ(object->substr(0, 4),
            "\x7f"
            "ELF");
  uint16_t type, machine;
  std::memcpy(&type, object->data() + 16, 2);
  std::memcpy(&machine, object->data() + 18, 2);
  EXPECT_EQ(type, 1);      // ET_REL
  EXPECT_EQ(machine, 62);  // EM_X86_64
  EXPECT_NE(object->find("scale_kernel"), std::string::npos);
}

TEST(LlvmBackendTest, PtxNamesTheKernelEntryAndTheTarget) {
  llvm::LLVMContext context;
  llvm::Module module("m", context);
  TargetConfigProto target = Target("h100");
  ASSERT_TRUE(ConfigureModuleForTarget(module, target).ok());
  EmitScaleLoop(module, "scale_kernel", /*cuda=*/true);
  ASSERT_TRUE(OptimizeModule(module, target).ok());
  auto ptx = EmitPtx(module, target);
  ASSERT_TRUE(ptx.ok()) << ptx.status();
  EXPECT_NE(ptx->find(".version 7.8"), std::string::npos) << *ptx;  // ptx_features "+ptx78"
  EXPECT_NE(ptx->find(".target sm_90"), std::string::npos) << *ptx;
  EXPECT_NE(ptx->find(".visible .entry scale_kernel("), std::string::npos) << *ptx;
  EXPECT_NE(ptx->find("mul.rn.f32"), std::string::npos) << *ptx;
  // No FMA contraction and no vector types the PTX would not need.
  EXPECT_EQ(ptx->find("fma.rn"), std::string::npos) << *ptx;
}

TEST(LlvmBackendTest, PtxFollowsTheTargetsCpuAndFeatures) {
  TargetConfigProto target = Target("a100");
  llvm::LLVMContext context;
  llvm::Module module("m", context);
  ASSERT_TRUE(ConfigureModuleForTarget(module, target).ok());
  EmitScaleLoop(module, "k", /*cuda=*/true);
  auto ptx = EmitPtx(module, target);
  ASSERT_TRUE(ptx.ok()) << ptx.status();
  EXPECT_NE(ptx->find(".target " + target.llvm_cpu()), std::string::npos) << *ptx;
  EXPECT_EQ(ptx->find(".target sm_90"), std::string::npos) << *ptx;
}

TEST(LlvmBackendTest, LibdeviceLinksWhenInstalled) {
  llvm::LLVMContext context;
  llvm::Module module("m", context);
  ASSERT_TRUE(ConfigureModuleForTarget(module, Target("h100")).ok());
  llvm::IRBuilder<> b(context);
  auto* expf =
      llvm::Function::Create(llvm::FunctionType::get(b.getFloatTy(), {b.getFloatTy()}, false),
                             llvm::GlobalValue::ExternalLinkage, "__nv_expf", module);
  EXPECT_TRUE(expf->isDeclaration());
  absl::Status status = LinkLibdevice(module);
  bool installed =
      std::filesystem::exists("/usr/local/cuda/nvvm/libdevice/libdevice.10.bc") ||
      std::filesystem::exists("/usr/lib/nvidia-cuda-toolkit/libdevice/libdevice.10.bc");
  if (!installed) {
    EXPECT_EQ(status.code(), absl::StatusCode::kNotFound) << status;
    return;
  }
  ASSERT_TRUE(status.ok()) << status;
  llvm::Function* linked = module.getFunction("__nv_expf");
  ASSERT_NE(linked, nullptr);
  EXPECT_FALSE(linked->isDeclaration());  // the body came from libdevice
  // Only what is needed is linked in.
  EXPECT_EQ(module.getFunction("__nv_sinf"), nullptr);
}

TEST(LlvmBackendTest, PtxasCompilesPtxToACubinWhenInstalled) {
  if (FindPtxas().path.empty()) GTEST_SKIP() << "ptxas not installed";
  EXPECT_GT(FindPtxas().major, 0);
  llvm::LLVMContext context;
  llvm::Module module("m", context);
  TargetConfigProto target = Target("h100");
  ASSERT_TRUE(ConfigureModuleForTarget(module, target).ok());
  EmitScaleLoop(module, "scale_kernel", /*cuda=*/true);
  auto ptx = EmitPtx(module, target);
  ASSERT_TRUE(ptx.ok()) << ptx.status();
  auto cubin = CompilePtxToCubin(*ptx, "sm_90");
  ASSERT_TRUE(cubin.ok()) << cubin.status();
  EXPECT_EQ(cubin->substr(0, 4),
            "\x7f"
            "ELF");
  EXPECT_NE(cubin->find("scale_kernel"), std::string::npos);
  // Broken PTX is an error carrying ptxas's log.
  auto bad = CompilePtxToCubin(".version 7.8\n.target sm_90\nthis is not ptx\n", "sm_90");
  ASSERT_FALSE(bad.ok());
  EXPECT_EQ(bad.status().code(), absl::StatusCode::kInternal) << bad.status();
  EXPECT_NE(bad.status().message().find("ptxas failed for sm_90"), std::string::npos)
      << bad.status();
}

}  // namespace
}  // namespace aot
