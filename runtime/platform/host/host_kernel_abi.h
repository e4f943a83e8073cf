#ifndef AOT_RUNTIME_PLATFORM_HOST_HOST_KERNEL_ABI_H_
#define AOT_RUNTIME_PLATFORM_HOST_HOST_KERNEL_ABI_H_

#include <cstdint>

// The host kernel ABI (version 1): the contract between code the compiler
// emits for the host platform and the runtime that launches it.
//
// A kernel `K` is an ELF x86-64 relocatable object defining:
//   void K(const AotHostKernelFrame* frame);   // C calling convention
//   const int64_t K__aot_arity;                 // number of buffer arguments
// The runtime calls K once per block of the launch grid, possibly from
// several threads at once; `frame->args[i]` is the i-th argument slice of
// the kernel thunk. A kernel runs all `threads_*` threads of its block
// itself (a loop), so the block is the unit of parallelism. Kernels may
// call only the symbols of the runtime's allow-list (libm functions and
// the runtime's own entry points).
extern "C" {
struct AotHostKernelFrame {
  void* const* args;
  int64_t block_x, block_y, block_z;
  int64_t grid_x, grid_y, grid_z;
  int64_t threads_x, threads_y, threads_z;
};
typedef void (*AotHostKernelFn)(const AotHostKernelFrame* frame);
}

namespace aot {
inline constexpr int kHostKernelAbiVersion = 1;
inline constexpr char kHostKernelAritySuffix[] = "__aot_arity";
}  // namespace aot

#endif  // AOT_RUNTIME_PLATFORM_HOST_HOST_KERNEL_ABI_H_
