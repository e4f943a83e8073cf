#include "runtime/platform/host/host_kernel_loader.h"

#include <cmath>
#include <cstring>
#include <map>
#include <utility>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "llvm/ExecutionEngine/Orc/Core.h"
#include "llvm/ExecutionEngine/Orc/ExecutorProcessControl.h"
#include "llvm/ExecutionEngine/Orc/ObjectLinkingLayer.h"
#include "llvm/Object/ObjectFile.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/TargetParser/Triple.h"
#include "support/sha256.h"
#include "support/status_macros.h"

namespace aot {

namespace {

constexpr int64_t kMaxKernelObjectBytes = int64_t{256} << 20;

// name -> address of every symbol a kernel may reference.
const std::map<std::string, void*, std::less<>>& AllowedSymbols() {
  static const auto* symbols = [] {
    auto* m = new std::map<std::string, void*, std::less<>>();
    auto add = [&](const char* name, auto* fn) { (*m)[name] = reinterpret_cast<void*>(fn); };
    using F1 = float (*)(float);
    using D1 = double (*)(double);
    using F2 = float (*)(float, float);
    using D2 = double (*)(double, double);
    add("expf", static_cast<F1>(&::expf));
    add("exp", static_cast<D1>(&::exp));
    add("expm1f", static_cast<F1>(&::expm1f));
    add("expm1", static_cast<D1>(&::expm1));
    add("logf", static_cast<F1>(&::logf));
    add("log", static_cast<D1>(&::log));
    add("log1pf", static_cast<F1>(&::log1pf));
    add("log1p", static_cast<D1>(&::log1p));
    add("sinf", static_cast<F1>(&::sinf));
    add("sin", static_cast<D1>(&::sin));
    add("cosf", static_cast<F1>(&::cosf));
    add("cos", static_cast<D1>(&::cos));
    add("tanf", static_cast<F1>(&::tanf));
    add("tan", static_cast<D1>(&::tan));
    add("tanhf", static_cast<F1>(&::tanhf));
    add("tanh", static_cast<D1>(&::tanh));
    add("cbrtf", static_cast<F1>(&::cbrtf));
    add("cbrt", static_cast<D1>(&::cbrt));
    add("erff", static_cast<F1>(&::erff));
    add("erf", static_cast<D1>(&::erf));
    add("sqrtf", static_cast<F1>(&::sqrtf));
    add("sqrt", static_cast<D1>(&::sqrt));
    add("floorf", static_cast<F1>(&::floorf));
    add("floor", static_cast<D1>(&::floor));
    add("ceilf", static_cast<F1>(&::ceilf));
    add("ceil", static_cast<D1>(&::ceil));
    add("roundf", static_cast<F1>(&::roundf));
    add("round", static_cast<D1>(&::round));
    add("nearbyintf", static_cast<F1>(&::nearbyintf));
    add("nearbyint", static_cast<D1>(&::nearbyint));
    add("rintf", static_cast<F1>(&::rintf));
    add("rint", static_cast<D1>(&::rint));
    add("roundevenf", static_cast<F1>(&::nearbyintf));
    add("roundeven", static_cast<D1>(&::nearbyint));
    add("atan2f", static_cast<F2>(&::atan2f));
    add("atan2", static_cast<D2>(&::atan2));
    add("powf", static_cast<F2>(&::powf));
    add("pow", static_cast<D2>(&::pow));
    add("fmodf", static_cast<F2>(&::fmodf));
    add("fmod", static_cast<D2>(&::fmod));
    add("fmaxf", static_cast<F2>(&::fmaxf));
    add("fmax", static_cast<D2>(&::fmax));
    add("fminf", static_cast<F2>(&::fminf));
    add("fmin", static_cast<D2>(&::fmin));
    // LLVM merges sin(x) and cos(x) into one call.
    add("sincosf", static_cast<void (*)(float, float*, float*)>(&::sincosf));
    add("sincos", static_cast<void (*)(double, double*, double*)>(&::sincos));
    add("memcpy", &::memcpy);
    add("memmove", &::memmove);
    add("memset", &::memset);
    return m;
  }();
  return *symbols;
}

std::string ToString(llvm::Error error) { return llvm::toString(std::move(error)); }

class HostKernelLoader : public KernelLoader {
 public:
  ~HostKernelLoader() override {
    if (session_ != nullptr) {
      if (llvm::Error err = session_->endSession()) llvm::consumeError(std::move(err));
    }
  }

  absl::Status Init() {
    auto epc = llvm::orc::SelfExecutorProcessControl::Create();
    if (!epc) {
      return absl::InternalError(
          absl::StrCat("cannot create the JIT process control: ", ToString(epc.takeError())));
    }
    session_ = std::make_unique<llvm::orc::ExecutionSession>(std::move(*epc));
    session_->setErrorReporter([](llvm::Error err) { llvm::consumeError(std::move(err)); });
    layer_ = std::make_unique<llvm::orc::ObjectLinkingLayer>(*session_);
    runtime_symbols_ = &session_->createBareJITDylib("aot_runtime_symbols");
    llvm::orc::SymbolMap symbols;
    for (const auto& [name, address] : AllowedSymbols()) {
      symbols[session_->intern(name)] = llvm::orc::ExecutorSymbolDef(
          llvm::orc::ExecutorAddr::fromPtr(address),
          llvm::JITSymbolFlags::Exported | llvm::JITSymbolFlags::Callable);
    }
    if (llvm::Error err =
            runtime_symbols_->define(llvm::orc::absoluteSymbols(std::move(symbols)))) {
      return absl::InternalError(ToString(std::move(err)));
    }
    return absl::OkStatus();
  }

  absl::StatusOr<const KernelHandle*> Load(const KernelBinaryProto& binary,
                                           absl::string_view kernel_name) override {
    if (binary.format() != KernelBinaryProto::HOST_ELF_OBJECT) {
      return absl::InvalidArgumentError(
          absl::StrCat("kernel '", kernel_name, "' has binary format ",
                       KernelBinaryProto::Format_Name(binary.format()),
                       "; the host platform runs HOST_ELF_OBJECT"));
    }
    const std::string& object = binary.object();
    if (object.empty()) {
      return absl::InvalidArgumentError(
          absl::StrCat("kernel '", kernel_name, "' has an empty object"));
    }
    if (static_cast<int64_t>(object.size()) > kMaxKernelObjectBytes) {
      return absl::InvalidArgumentError(absl::StrCat("kernel '", kernel_name, "' object of ",
                                                     object.size(), " bytes is too large"));
    }
    std::string key = absl::StrCat(kernel_name, "/", Sha256Hex(object));
    if (auto it = cache_.find(key); it != cache_.end()) return it->second;
    auto disallowed = DisallowedSymbols(object);
    if (!disallowed.ok()) {
      return absl::InvalidArgumentError(
          absl::StrCat("kernel '", kernel_name, "': ", disallowed.status().message()));
    }
    if (!disallowed->empty()) {
      return absl::InvalidArgumentError(absl::StrCat("kernel '", kernel_name,
                                                     "' references symbols outside the runtime's "
                                                     "allow-list: ",
                                                     absl::StrJoin(*disallowed, ", ")));
    }
    llvm::orc::JITDylib& dylib =
        session_->createBareJITDylib(absl::StrCat("kernel.", cache_.size(), ".", kernel_name));
    dylib.addToLinkOrder(*runtime_symbols_);
    auto buffer = llvm::MemoryBuffer::getMemBufferCopy(
        llvm::StringRef(object.data(), object.size()), std::string(kernel_name));
    if (llvm::Error err = layer_->add(dylib, std::move(buffer))) {
      return absl::InvalidArgumentError(absl::StrCat(
          "kernel '", kernel_name, "': cannot link object: ", ToString(std::move(err))));
    }
    auto lookup = [&](const std::string& name) -> absl::StatusOr<void*> {
      auto symbol = session_->lookup({&dylib}, session_->intern(name));
      if (!symbol) {
        return absl::InvalidArgumentError(
            absl::StrCat("kernel '", kernel_name, "': symbol '", name,
                         "' not found or not linkable: ", ToString(symbol.takeError())));
      }
      return symbol->getAddress().toPtr<void*>();
    };
    AOT_ASSIGN_OR_RETURN(auto entry, lookup(std::string(kernel_name)));
    auto arity = lookup(absl::StrCat(kernel_name, kHostKernelAritySuffix));
    if (!arity.ok()) return arity.status();
    int64_t arity_value = *static_cast<const int64_t*>(*arity);
    if (arity_value < 0 || arity_value > 4096) {
      return absl::InvalidArgumentError(
          absl::StrCat("kernel '", kernel_name, "' declares an invalid arity ", arity_value));
    }
    handles_.push_back(std::make_unique<HostKernelHandle>(
        std::string(kernel_name), reinterpret_cast<AotHostKernelFn>(entry), arity_value));
    cache_[key] = handles_.back().get();
    return handles_.back().get();
  }

 private:
  std::unique_ptr<llvm::orc::ExecutionSession> session_;
  std::unique_ptr<llvm::orc::ObjectLinkingLayer> layer_;
  llvm::orc::JITDylib* runtime_symbols_ = nullptr;
  std::vector<std::unique_ptr<HostKernelHandle>> handles_;
  std::map<std::string, const KernelHandle*> cache_;
};

}  // namespace

std::vector<std::string> HostKernelSymbolAllowList() {
  std::vector<std::string> names;
  for (const auto& [name, address] : AllowedSymbols()) names.push_back(name);
  return names;
}

absl::StatusOr<std::vector<std::string>> UndefinedSymbols(absl::string_view object) {
  auto file = llvm::object::ObjectFile::createObjectFile(
      llvm::MemoryBufferRef(llvm::StringRef(object.data(), object.size()), "kernel"));
  if (!file) {
    return absl::InvalidArgumentError(
        absl::StrCat("not an object file: ", ToString(file.takeError())));
  }
  if (!(*file)->isELF() || (*file)->getArch() != llvm::Triple::x86_64 ||
      !(*file)->isRelocatableObject()) {
    return absl::InvalidArgumentError("not an x86-64 ELF relocatable object");
  }
  std::vector<std::string> undefined;
  for (const llvm::object::SymbolRef& symbol : (*file)->symbols()) {
    auto flags = symbol.getFlags();
    if (!flags) {
      llvm::consumeError(flags.takeError());
      return absl::InvalidArgumentError("unreadable symbol table");
    }
    if (!(*flags & llvm::object::SymbolRef::SF_Undefined)) continue;
    auto name = symbol.getName();
    if (!name) {
      llvm::consumeError(name.takeError());
      return absl::InvalidArgumentError("unreadable symbol name");
    }
    // The GOT base is synthesized by the linker itself.
    if (name->empty() || *name == "_GLOBAL_OFFSET_TABLE_") continue;
    undefined.push_back(name->str());
  }
  std::sort(undefined.begin(), undefined.end());
  undefined.erase(std::unique(undefined.begin(), undefined.end()), undefined.end());
  return undefined;
}

absl::StatusOr<std::vector<std::string>> DisallowedSymbols(absl::string_view object) {
  AOT_ASSIGN_OR_RETURN(auto undefined, UndefinedSymbols(object));
  const auto& allowed = AllowedSymbols();
  std::vector<std::string> disallowed;
  for (std::string& name : undefined) {
    if (allowed.find(name) == allowed.end()) disallowed.push_back(std::move(name));
  }
  return disallowed;
}

absl::StatusOr<std::unique_ptr<KernelLoader>> CreateHostKernelLoader() {
  auto loader = std::make_unique<HostKernelLoader>();
  AOT_RETURN_IF_ERROR(loader->Init());
  return loader;
}

}  // namespace aot
