#ifndef AOT_RUNTIME_TESTING_TEST_KERNELS_H_
#define AOT_RUNTIME_TESTING_TEST_KERNELS_H_

#include <string>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"

namespace aot::testing {

// Compiles LLVM IR text to an x86-64 ELF object with LLVM (test-only: the
// runtime's tests build their kernels without the project's compiler).
absl::StatusOr<std::string> CompileIrToObject(absl::string_view ir,
                                              absl::string_view cpu = "x86-64-v2");

// IR of a host-ABI kernel `name` computing out[i] = a[i] <op> b[i] for f32
// over grid-of-blocks chunks of threads_x elements; arguments (a, b, out).
std::string BinaryF32KernelIr(absl::string_view name, absl::string_view op);

// IR of kernel `countdown`, the body of the tests' while loops: decrements
// the s32 counter (argument 0) and writes counter >= 0 to the pred
// (argument 1).
std::string CountdownKernelIr();

// IR of a kernel `name` that calls libc's system() (not allow-listed).
std::string SystemCallingKernelIr(absl::string_view name);

}  // namespace aot::testing

#endif  // AOT_RUNTIME_TESTING_TEST_KERNELS_H_
