#include "compiler/codegen/llvm_backend.h"

#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <mutex>
#include <optional>

#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "llvm/Analysis/CGSCCPassManager.h"
#include "llvm/Analysis/LoopAnalysisManager.h"
#include "llvm/Analysis/TargetLibraryInfo.h"
#include "llvm/Bitcode/BitcodeReader.h"
#include "llvm/IR/LegacyPassManager.h"
#include "llvm/IR/Verifier.h"
#include "llvm/IRReader/IRReader.h"
#include "llvm/Linker/Linker.h"
#include "llvm/MC/TargetRegistry.h"
#include "llvm/Passes/PassBuilder.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/TargetSelect.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/Target/TargetMachine.h"
#include "llvm/Target/TargetOptions.h"
#include "llvm/Transforms/IPO/Internalize.h"
#include "runtime/platform/host/host_kernel_loader.h"
#include "support/file_io.h"
#include "support/status_macros.h"

namespace aot {

namespace {

void InitializeTargets() {
  static std::once_flag once;
  std::call_once(once, [] {
    LLVMInitializeX86TargetInfo();
    LLVMInitializeX86Target();
    LLVMInitializeX86TargetMC();
    LLVMInitializeX86AsmPrinter();
    LLVMInitializeNVPTXTargetInfo();
    LLVMInitializeNVPTXTarget();
    LLVMInitializeNVPTXTargetMC();
    LLVMInitializeNVPTXAsmPrinter();
  });
}

std::string Features(const TargetConfigProto& target) {
  if (target.platform() == PLATFORM_CUDA) return target.ptx_features();
  return "";
}

absl::StatusOr<std::unique_ptr<llvm::TargetMachine>> MakeTargetMachine(
    const TargetConfigProto& target) {
  InitializeTargets();
  std::string error;
  const llvm::Target* t = llvm::TargetRegistry::lookupTarget(target.llvm_triple(), error);
  if (t == nullptr) {
    return absl::InvalidArgumentError(
        absl::StrCat("LLVM target '", target.llvm_triple(), "': ", error));
  }
  llvm::TargetOptions options;
  // Bitwise-reproducible math: no fast-math, no FMA contraction.
  options.AllowFPOpFusion = llvm::FPOpFusion::Strict;
  std::unique_ptr<llvm::TargetMachine> machine(t->createTargetMachine(
      target.llvm_triple(), target.llvm_cpu(), Features(target), options, llvm::Reloc::PIC_,
      llvm::CodeModel::Small, llvm::CodeGenOptLevel::Aggressive));
  if (machine == nullptr) {
    return absl::InvalidArgumentError(absl::StrCat("cannot create an LLVM target machine for ",
                                                   target.llvm_triple(), " ", target.llvm_cpu()));
  }
  return machine;
}

absl::StatusOr<std::string> Emit(llvm::Module& module, const TargetConfigProto& target,
                                 llvm::CodeGenFileType type) {
  AOT_ASSIGN_OR_RETURN(auto machine, MakeTargetMachine(target));
  llvm::SmallVector<char, 0> buffer;
  llvm::raw_svector_ostream out(buffer);
  llvm::legacy::PassManager pm;
  if (machine->addPassesToEmitFile(pm, out, nullptr, type)) {
    return absl::InternalError("LLVM cannot emit this file type for the target");
  }
  pm.run(module);
  return std::string(buffer.begin(), buffer.end());
}

}  // namespace

absl::Status ConfigureModuleForTarget(llvm::Module& module, const TargetConfigProto& target) {
  AOT_ASSIGN_OR_RETURN(auto machine, MakeTargetMachine(target));
  module.setTargetTriple(target.llvm_triple());
  module.setDataLayout(machine->createDataLayout());
  return absl::OkStatus();
}

void RestrictToHostKernelAllowList(llvm::TargetLibraryInfoImpl& library) {
  const std::vector<std::string> allowed = HostKernelSymbolAllowList();  // sorted
  llvm::TargetLibraryInfo names(library);
  for (unsigned f = 0; f < llvm::LibFunc::NumLibFuncs; ++f) {
    const auto func = static_cast<llvm::LibFunc>(f);
    llvm::StringRef name = names.getName(func);
    if (name.empty()) continue;  // already unavailable on this target
    if (!std::binary_search(allowed.begin(), allowed.end(), name.str())) {
      library.setUnavailable(func);
    }
  }
}

absl::Status OptimizeModule(llvm::Module& module, const TargetConfigProto& target) {
  {
    std::string errors;
    llvm::raw_string_ostream os(errors);
    if (llvm::verifyModule(module, &os)) {
      return absl::InternalError(absl::StrCat("generated LLVM IR is invalid: ", os.str()));
    }
  }
  AOT_ASSIGN_OR_RETURN(auto machine, MakeTargetMachine(target));
  llvm::LoopAnalysisManager lam;
  llvm::FunctionAnalysisManager fam;
  llvm::CGSCCAnalysisManager cgam;
  llvm::ModuleAnalysisManager mam;
  llvm::PipelineTuningOptions tuning;
  tuning.LoopVectorization = true;
  tuning.SLPVectorization = true;
  llvm::PassBuilder builder(machine.get(), tuning);
  // Host kernels may only call what the runtime's loader resolves: library
  // functions off its allow-list are unavailable to the optimizer, so the
  // libcall simplifier cannot introduce them (pow(2, x) -> exp2f, ...).
  // Registered before the default analyses, so this one is used.
  std::optional<llvm::TargetLibraryInfoImpl> library;
  if (target.platform() == PLATFORM_HOST) {
    library.emplace(llvm::Triple(module.getTargetTriple()));
    RestrictToHostKernelAllowList(*library);
    fam.registerPass([&] { return llvm::TargetLibraryAnalysis(*library); });
  }
  builder.registerModuleAnalyses(mam);
  builder.registerCGSCCAnalyses(cgam);
  builder.registerFunctionAnalyses(fam);
  builder.registerLoopAnalyses(lam);
  builder.crossRegisterProxies(lam, fam, cgam, mam);
  llvm::ModulePassManager mpm = builder.buildPerModuleDefaultPipeline(llvm::OptimizationLevel::O3);
  mpm.run(module, mam);
  return absl::OkStatus();
}

absl::StatusOr<std::string> EmitHostObject(llvm::Module& module, const TargetConfigProto& target) {
  return Emit(module, target, llvm::CodeGenFileType::ObjectFile);
}

absl::StatusOr<std::string> EmitPtx(llvm::Module& module, const TargetConfigProto& target) {
  return Emit(module, target, llvm::CodeGenFileType::AssemblyFile);
}

absl::Status LinkLibdevice(llvm::Module& module) {
  static const char* kPaths[] = {"/usr/local/cuda/nvvm/libdevice/libdevice.10.bc",
                                 "/usr/lib/nvidia-cuda-toolkit/libdevice/libdevice.10.bc"};
  std::string path;
  for (const char* p : kPaths) {
    if (std::filesystem::exists(p)) {
      path = p;
      break;
    }
  }
  if (path.empty()) {
    return absl::NotFoundError(
        "CUDA libdevice (libdevice.10.bc) not found; install the CUDA toolkit at "
        "/usr/local/cuda to compile math functions for CUDA targets");
  }
  auto buffer = llvm::MemoryBuffer::getFile(path);
  if (!buffer) return absl::NotFoundError(absl::StrCat("cannot read ", path));
  auto libdevice = llvm::parseBitcodeFile((*buffer)->getMemBufferRef(), module.getContext());
  if (!libdevice) {
    return absl::InternalError(
        absl::StrCat("cannot parse ", path, ": ", llvm::toString(libdevice.takeError())));
  }
  (*libdevice)->setTargetTriple(module.getTargetTriple());
  (*libdevice)->setDataLayout(module.getDataLayout());
  if (llvm::Linker::linkModules(module, std::move(*libdevice), llvm::Linker::Flags::LinkOnlyNeeded,
                                [](llvm::Module& m, const llvm::StringSet<>& gvs) {
                                  llvm::internalizeModule(m, [&gvs](const llvm::GlobalValue& gv) {
                                    return !gv.hasName() || gvs.count(gv.getName()) == 0;
                                  });
                                })) {
    return absl::InternalError("linking libdevice failed");
  }
  return absl::OkStatus();
}

const PtxasInfo& FindPtxas() {
  static const PtxasInfo* info = [] {
    auto* i = new PtxasInfo();
    for (const char* p : {"/usr/local/cuda/bin/ptxas", "/usr/bin/ptxas"}) {
      if (::access(p, X_OK) == 0) {
        i->path = p;
        break;
      }
    }
    if (i->path.empty()) return i;
    std::string command = absl::StrCat(i->path, " --version 2>/dev/null");
    FILE* pipe = ::popen(command.c_str(), "r");
    if (pipe == nullptr) return i;
    char line[256];
    std::string out;
    while (std::fgets(line, sizeof(line), pipe) != nullptr) out += line;
    ::pclose(pipe);
    // "... release 13.0, V13.0.88"
    size_t pos = out.find("release ");
    if (pos != std::string::npos) {
      std::string version = out.substr(pos + 8, out.find(',', pos) - pos - 8);
      std::vector<std::string> parts = absl::StrSplit(version, '.');
      if (parts.size() >= 2) {
        (void)absl::SimpleAtoi(parts[0], &i->major);
        (void)absl::SimpleAtoi(parts[1], &i->minor);
      }
    }
    return i;
  }();
  return *info;
}

absl::StatusOr<std::string> CompilePtxToCubin(const std::string& ptx, const std::string& sm) {
  const PtxasInfo& ptxas = FindPtxas();
  if (ptxas.path.empty()) return absl::NotFoundError("ptxas not found");
  char dir_template[] = "/tmp/aot_ptxas_XXXXXX";
  char* dir = ::mkdtemp(dir_template);
  if (dir == nullptr) return absl::InternalError("cannot create a temporary directory");
  std::string in = absl::StrCat(dir, "/kernel.ptx");
  std::string out = absl::StrCat(dir, "/kernel.cubin");
  std::string log = absl::StrCat(dir, "/ptxas.log");
  absl::Status status = WriteFileAtomically(in, ptx);
  std::string cubin;
  if (status.ok()) {
    // LLVM's ExecuteAndWait spawns with posix_spawn (vfork-style): unlike
    // fork() it copies no page tables of a large compiler process and runs
    // no pthread_atfork handlers, one of which (OpenBLAS's) can deadlock
    // against another thread inside a BLAS call while modules compile in
    // parallel.
    const std::string arch = absl::StrCat("-arch=", sm);
    const llvm::StringRef args[] = {"ptxas", arch, "-O3", in, "-o", out};
    const std::optional<llvm::StringRef> redirects[] = {std::nullopt, std::nullopt,
                                                        llvm::StringRef(log)};
    std::string error;
    const int exit_code = llvm::sys::ExecuteAndWait(ptxas.path, args, /*Env=*/std::nullopt,
                                                    redirects, /*SecondsToWait=*/0,
                                                    /*MemoryLimit=*/0, &error);
    if (exit_code != 0) {
      auto text = ReadFileToString(log, 1 << 20);
      status = absl::InternalError(
          absl::StrCat("ptxas failed for ", sm, ": ",
                       exit_code < 0 ? error : (text.ok() ? *text : std::string("no log"))));
    } else {
      auto bytes = ReadFileToString(out);
      if (bytes.ok())
        cubin = *std::move(bytes);
      else
        status = bytes.status();
    }
  }
  std::error_code ec;
  std::filesystem::remove_all(dir, ec);
  AOT_RETURN_IF_ERROR(status);
  return cubin;
}

std::string ModuleToString(const llvm::Module& module) {
  std::string text;
  llvm::raw_string_ostream os(text);
  module.print(os, nullptr);
  return os.str();
}

}  // namespace aot
