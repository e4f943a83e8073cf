#ifndef AOT_RUNTIME_PLATFORM_RNG_STATE_ABI_H_
#define AOT_RUNTIME_PLATFORM_RNG_STATE_ABI_H_

// The executable's random state, which XLA's rng-get-and-update-state
// reads and advances (the compiler emits it for rng; emission flag
// emit_rng_state): 128 bits as two u64 words {low, high}, zero when an
// executable is loaded, one per loaded executable and shared by all its
// kernels, so it persists across its runs as it does in XLA.
//
// A host kernel imports it as the data symbol kHostRngStateSymbol (16
// bytes, 16-byte aligned), which the runtime's loader defines for each
// executable. A CUDA kernel defines the u64 global
// kCudaRngStatePointerSymbol; the runtime's loader stores in it, at load,
// the device address of the executable's state.
namespace aot {
inline constexpr char kHostRngStateSymbol[] = "aot_rng_state";
inline constexpr char kCudaRngStatePointerSymbol[] = "aot_rng_state_ptr";
}  // namespace aot

#endif  // AOT_RUNTIME_PLATFORM_RNG_STATE_ABI_H_
