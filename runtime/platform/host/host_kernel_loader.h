#ifndef AOT_RUNTIME_PLATFORM_HOST_HOST_KERNEL_LOADER_H_
#define AOT_RUNTIME_PLATFORM_HOST_HOST_KERNEL_LOADER_H_

#include <memory>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "runtime/platform/host/host_kernel_abi.h"
#include "runtime/platform/platform.h"

namespace aot {

// Symbols a host kernel object may reference (libm functions the codegen
// uses, memcpy/memset, the runtime's own entry points), sorted.
std::vector<std::string> HostKernelSymbolAllowList();

// Undefined symbols of an ELF object (sorted, unique), the names a loader
// must resolve; InvalidArgument when the bytes are not an x86-64 ELF
// relocatable object.
absl::StatusOr<std::vector<std::string>> UndefinedSymbols(absl::string_view object);

// Every relocation of an ELF object writes inside the section it relocates
// and names a symbol of its symbol table; InvalidArgument naming the first
// that does not (JITLink would write outside the section).
absl::Status ValidateKernelRelocations(absl::string_view object);

// The value of `<kernel_name>__aot_arity`, read from the object's own
// section contents; InvalidArgument when it is missing, undefined, absolute
// or does not lie inside its section.
absl::StatusOr<int64_t> ReadKernelArity(absl::string_view object, absl::string_view kernel_name);

// Undefined symbols of an ELF object that are not on the allow-list;
// InvalidArgument when the bytes are not an x86-64 ELF relocatable object.
absl::StatusOr<std::vector<std::string>> DisallowedSymbols(absl::string_view object);

// Loads host kernel objects with LLVM ORC/JITLink into one JIT session per
// executable, resolving only allow-listed symbols.
absl::StatusOr<std::unique_ptr<KernelLoader>> CreateHostKernelLoader();

class HostKernelHandle : public KernelHandle {
 public:
  HostKernelHandle(std::string name, AotHostKernelFn fn, int64_t arity)
      : name_(std::move(name)), fn_(fn), arity_(arity) {}
  absl::string_view name() const override { return name_; }
  int64_t arity() const override { return arity_; }
  AotHostKernelFn fn() const { return fn_; }

 private:
  std::string name_;
  AotHostKernelFn fn_;
  int64_t arity_;
};

}  // namespace aot

#endif  // AOT_RUNTIME_PLATFORM_HOST_HOST_KERNEL_LOADER_H_
