#include "runtime/platform/host/host_kernel_loader.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <map>
#include <utility>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "llvm/BinaryFormat/ELF.h"
#include "llvm/ExecutionEngine/Orc/Core.h"
#include "llvm/ExecutionEngine/Orc/ExecutorProcessControl.h"
#include "llvm/ExecutionEngine/Orc/ObjectLinkingLayer.h"
#include "llvm/Object/ELF.h"
#include "llvm/Object/ObjectFile.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/TargetParser/Triple.h"
#include "runtime/platform/rng_state_abi.h"
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
    // Added 2026-12-02 with the HLO opcodes acos ... sinh (staged rollout
    // phase 1: runtime support; the compiler emits them behind the
    // emission flag emit_inverse_and_hyperbolic_math).
    add("acosf", static_cast<F1>(&::acosf));
    add("acos", static_cast<D1>(&::acos));
    add("acoshf", static_cast<F1>(&::acoshf));
    add("acosh", static_cast<D1>(&::acosh));
    add("asinf", static_cast<F1>(&::asinf));
    add("asin", static_cast<D1>(&::asin));
    add("asinhf", static_cast<F1>(&::asinhf));
    add("asinh", static_cast<D1>(&::asinh));
    add("atanf", static_cast<F1>(&::atanf));
    add("atan", static_cast<D1>(&::atan));
    add("atanhf", static_cast<F1>(&::atanhf));
    add("atanh", static_cast<D1>(&::atanh));
    add("coshf", static_cast<F1>(&::coshf));
    add("cosh", static_cast<D1>(&::cosh));
    add("sinhf", static_cast<F1>(&::sinhf));
    add("sinh", static_cast<D1>(&::sinh));
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
    // This executable's random state (runtime/platform/rng_state_abi.h).
    // Added 2026-12-03 with rng-get-and-update-state (staged rollout phase
    // 1; the compiler emits it behind the emission flag emit_rng_state).
    symbols[session_->intern(kHostRngStateSymbol)] = llvm::orc::ExecutorSymbolDef(
        llvm::orc::ExecutorAddr::fromPtr(&rng_state_[0]), llvm::JITSymbolFlags::Exported);
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
    // JITLink trusts relocation offsets and reads symbol values as
    // addresses: check both against the object itself first.
    if (absl::Status s = ValidateKernelRelocations(object); !s.ok()) {
      return absl::InvalidArgumentError(absl::StrCat("kernel '", kernel_name, "': ", s.message()));
    }
    auto declared_arity = ReadKernelArity(object, kernel_name);
    if (!declared_arity.ok()) {
      return absl::InvalidArgumentError(
          absl::StrCat("kernel '", kernel_name, "': ", declared_arity.status().message()));
    }
    const int64_t arity_value = *declared_arity;
    if (arity_value < 0 || arity_value > 4096) {
      return absl::InvalidArgumentError(
          absl::StrCat("kernel '", kernel_name, "' declares an invalid arity ", arity_value));
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
    if (entry == nullptr) {
      return absl::InvalidArgumentError(
          absl::StrCat("kernel '", kernel_name, "': the entry point has no address"));
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
  // The executable's random state {low, high} (kHostRngStateSymbol).
  alignas(16) uint64_t rng_state_[2] = {0, 0};
};

}  // namespace

std::vector<std::string> HostKernelSymbolAllowList() {
  std::vector<std::string> names;
  for (const auto& [name, address] : AllowedSymbols()) names.push_back(name);
  names.push_back(kHostRngStateSymbol);  // defined per executable by the loader
  std::sort(names.begin(), names.end());
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

namespace {

using Elf64 = llvm::object::ELF64LE;

// Bytes an x86-64 relocation of `type` writes; 8 for any type not listed
// (the conservative bound).
uint64_t RelocationWidth(uint32_t type) {
  switch (type) {
    case llvm::ELF::R_X86_64_8:
    case llvm::ELF::R_X86_64_PC8:
      return 1;
    case llvm::ELF::R_X86_64_16:
    case llvm::ELF::R_X86_64_PC16:
      return 2;
    case llvm::ELF::R_X86_64_PC32:
    case llvm::ELF::R_X86_64_GOT32:
    case llvm::ELF::R_X86_64_PLT32:
    case llvm::ELF::R_X86_64_GOTPCREL:
    case llvm::ELF::R_X86_64_32:
    case llvm::ELF::R_X86_64_32S:
    case llvm::ELF::R_X86_64_GOTPC32:
    case llvm::ELF::R_X86_64_SIZE32:
    case llvm::ELF::R_X86_64_GOTPCRELX:
    case llvm::ELF::R_X86_64_REX_GOTPCRELX:
      return 4;
    default:
      return 8;
  }
}

absl::StatusOr<llvm::object::ELFFile<Elf64>> OpenElf(absl::string_view object) {
  auto elf = llvm::object::ELFFile<Elf64>::create(llvm::StringRef(object.data(), object.size()));
  if (!elf)
    return absl::InvalidArgumentError(absl::StrCat("not an ELF file: ", ToString(elf.takeError())));
  return *std::move(elf);
}

template <typename T>
absl::StatusOr<T> Checked(llvm::Expected<T> value, absl::string_view what) {
  if (!value)
    return absl::InvalidArgumentError(absl::StrCat(what, ": ", ToString(value.takeError())));
  return *std::move(value);
}

}  // namespace

absl::Status ValidateKernelRelocations(absl::string_view object) {
  AOT_ASSIGN_OR_RETURN(auto elf, OpenElf(object));
  AOT_ASSIGN_OR_RETURN(auto sections, Checked(elf.sections(), "unreadable section table"));
  for (const auto& section : sections) {
    if (section.sh_type != llvm::ELF::SHT_RELA && section.sh_type != llvm::ELF::SHT_REL) continue;
    AOT_ASSIGN_OR_RETURN(const auto* target,
                         Checked(elf.getSection(section.sh_info), "relocated section"));
    AOT_ASSIGN_OR_RETURN(const auto* symtab,
                         Checked(elf.getSection(section.sh_link), "relocation symbol table"));
    const uint64_t symbols = symtab->sh_entsize == 0 ? 0 : symtab->sh_size / symtab->sh_entsize;
    AOT_ASSIGN_OR_RETURN(auto name, Checked(elf.getSectionName(*target), "section name"));
    auto check = [&](uint64_t offset, uint32_t type, uint32_t symbol) -> absl::Status {
      const uint64_t width = RelocationWidth(type);
      if (offset > target->sh_size || width > target->sh_size - offset) {
        return absl::InvalidArgumentError(absl::StrCat(
            "relocation at offset ", offset, " writes ", width, " bytes outside section '",
            name.str(), "' of ", static_cast<uint64_t>(target->sh_size), " bytes"));
      }
      if (symbol >= symbols) {
        return absl::InvalidArgumentError(absl::StrCat("relocation at offset ", offset,
                                                       " names symbol ", symbol, " of ", symbols));
      }
      return absl::OkStatus();
    };
    if (section.sh_type == llvm::ELF::SHT_RELA) {
      AOT_ASSIGN_OR_RETURN(auto relocations, Checked(elf.relas(section), "relocations"));
      for (const auto& r : relocations) {
        AOT_RETURN_IF_ERROR(check(r.r_offset, r.getType(false), r.getSymbol(false)));
      }
    } else {
      AOT_ASSIGN_OR_RETURN(auto relocations, Checked(elf.rels(section), "relocations"));
      for (const auto& r : relocations) {
        AOT_RETURN_IF_ERROR(check(r.r_offset, r.getType(false), r.getSymbol(false)));
      }
    }
  }
  return absl::OkStatus();
}

absl::StatusOr<int64_t> ReadKernelArity(absl::string_view object, absl::string_view kernel_name) {
  const std::string arity_name = absl::StrCat(kernel_name, kHostKernelAritySuffix);
  AOT_ASSIGN_OR_RETURN(auto elf, OpenElf(object));
  AOT_ASSIGN_OR_RETURN(auto sections, Checked(elf.sections(), "unreadable section table"));
  for (const auto& section : sections) {
    if (section.sh_type != llvm::ELF::SHT_SYMTAB) continue;
    AOT_ASSIGN_OR_RETURN(auto symbols, Checked(elf.symbols(&section), "symbol table"));
    AOT_ASSIGN_OR_RETURN(auto strings,
                         Checked(elf.getStringTableForSymtab(section, sections), "string table"));
    for (const auto& symbol : symbols) {
      auto name = symbol.getName(strings);
      if (!name) {
        llvm::consumeError(name.takeError());
        continue;
      }
      if (*name != arity_name) continue;
      // A defined 8-byte constant inside a section with contents: read it
      // from the file, never through an address the object chose.
      if (symbol.st_shndx == llvm::ELF::SHN_UNDEF || symbol.st_shndx >= llvm::ELF::SHN_LORESERVE) {
        return absl::InvalidArgumentError(
            absl::StrCat("'", arity_name, "' is not defined in a section of the object"));
      }
      AOT_ASSIGN_OR_RETURN(const auto* home,
                           Checked(elf.getSection(symbol.st_shndx), "arity section"));
      AOT_ASSIGN_OR_RETURN(auto contents,
                           Checked(elf.getSectionContents(*home), "arity section contents"));
      if (home->sh_type == llvm::ELF::SHT_NOBITS || symbol.st_value > contents.size() ||
          contents.size() - symbol.st_value < sizeof(int64_t)) {
        return absl::InvalidArgumentError(
            absl::StrCat("'", arity_name, "' does not lie inside its section's contents"));
      }
      int64_t arity = 0;
      std::memcpy(&arity, contents.data() + symbol.st_value, sizeof(arity));
      return arity;
    }
  }
  return absl::InvalidArgumentError(absl::StrCat("the object defines no '", arity_name, "'"));
}

absl::StatusOr<std::vector<std::string>> DisallowedSymbols(absl::string_view object) {
  AOT_ASSIGN_OR_RETURN(auto undefined, UndefinedSymbols(object));
  const std::vector<std::string> allowed = HostKernelSymbolAllowList();  // sorted
  std::vector<std::string> disallowed;
  for (std::string& name : undefined) {
    if (!std::binary_search(allowed.begin(), allowed.end(), name)) {
      disallowed.push_back(std::move(name));
    }
  }
  return disallowed;
}

absl::StatusOr<std::unique_ptr<KernelLoader>> CreateHostKernelLoader() {
  auto loader = std::make_unique<HostKernelLoader>();
  AOT_RETURN_IF_ERROR(loader->Init());
  return loader;
}

}  // namespace aot
