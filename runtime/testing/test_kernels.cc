#include "runtime/testing/test_kernels.h"

#include <memory>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_replace.h"
#include "llvm/AsmParser/Parser.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/LegacyPassManager.h"
#include "llvm/IR/Module.h"
#include "llvm/MC/TargetRegistry.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/TargetSelect.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/Target/TargetMachine.h"
#include "llvm/Target/TargetOptions.h"

namespace aot::testing {

absl::StatusOr<std::string> CompileIrToObject(absl::string_view ir, absl::string_view cpu) {
  static const bool initialized = [] {
    LLVMInitializeX86TargetInfo();
    LLVMInitializeX86Target();
    LLVMInitializeX86TargetMC();
    LLVMInitializeX86AsmPrinter();
    return true;
  }();
  (void)initialized;
  llvm::LLVMContext context;
  llvm::SMDiagnostic diag;
  std::unique_ptr<llvm::Module> module =
      llvm::parseAssemblyString(llvm::StringRef(ir.data(), ir.size()), diag, context);
  if (module == nullptr) {
    std::string message;
    llvm::raw_string_ostream os(message);
    diag.print("test", os);
    return absl::InvalidArgumentError(os.str());
  }
  std::string triple = "x86_64-unknown-linux-gnu";
  std::string error;
  const llvm::Target* target = llvm::TargetRegistry::lookupTarget(triple, error);
  if (target == nullptr) return absl::InternalError(error);
  llvm::TargetOptions options;
  std::unique_ptr<llvm::TargetMachine> machine(target->createTargetMachine(
      triple, llvm::StringRef(cpu.data(), cpu.size()), "", options, llvm::Reloc::PIC_));
  module->setDataLayout(machine->createDataLayout());
  module->setTargetTriple(triple);
  llvm::SmallVector<char, 0> buffer;
  llvm::raw_svector_ostream out(buffer);
  llvm::legacy::PassManager pm;
  if (machine->addPassesToEmitFile(pm, out, nullptr, llvm::CodeGenFileType::ObjectFile)) {
    return absl::InternalError("cannot emit an object file");
  }
  pm.run(*module);
  return std::string(buffer.begin(), buffer.end());
}

std::string BinaryF32KernelIr(absl::string_view name, absl::string_view op) {
  std::string ir = R"(
%Frame = type { ptr, i64, i64, i64, i64, i64, i64, i64, i64, i64 }
@NAME__aot_arity = constant i64 3

define void @NAME(ptr %frame) {
entry:
  %args = load ptr, ptr %frame
  %a = load ptr, ptr %args
  %bp = getelementptr ptr, ptr %args, i64 1
  %b = load ptr, ptr %bp
  %op = getelementptr ptr, ptr %args, i64 2
  %out = load ptr, ptr %op
  %bxp = getelementptr %Frame, ptr %frame, i32 0, i32 1
  %bx = load i64, ptr %bxp
  %txp = getelementptr %Frame, ptr %frame, i32 0, i32 7
  %tx = load i64, ptr %txp
  %start = mul i64 %bx, %tx
  br label %loop
loop:
  %i = phi i64 [ 0, %entry ], [ %next, %loop ]
  %idx = add i64 %start, %i
  %pa = getelementptr float, ptr %a, i64 %idx
  %pb = getelementptr float, ptr %b, i64 %idx
  %po = getelementptr float, ptr %out, i64 %idx
  %va = load float, ptr %pa
  %vb = load float, ptr %pb
  %r = OP float %va, %vb
  store float %r, ptr %po
  %next = add i64 %i, 1
  %done = icmp eq i64 %next, %tx
  br i1 %done, label %exit, label %loop
exit:
  ret void
}
)";
  return absl::StrReplaceAll(ir, {{"NAME", name}, {"OP", op}});
}

std::string CountdownKernelIr() {
  return R"(
@countdown__aot_arity = constant i64 2
define void @countdown(ptr %frame) {
  %args = load ptr, ptr %frame
  %counter = load ptr, ptr %args
  %pp = getelementptr ptr, ptr %args, i64 1
  %pred = load ptr, ptr %pp
  %c = load i32, ptr %counter
  %d = sub i32 %c, 1
  store i32 %d, ptr %counter
  %ge = icmp sge i32 %d, 0
  %b = zext i1 %ge to i8
  store i8 %b, ptr %pred
  ret void
}
)";
}

std::string SystemCallingKernelIr(absl::string_view name) {
  std::string ir = R"(
@NAME__aot_arity = constant i64 0
@cmd = private constant [3 x i8] c"id\00"
declare i32 @system(ptr)

define void @NAME(ptr %frame) {
  %r = call i32 @system(ptr @cmd)
  ret void
}
)";
  return absl::StrReplaceAll(ir, {{"NAME", name}});
}

}  // namespace aot::testing
