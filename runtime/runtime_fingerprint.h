#ifndef AOT_RUNTIME_RUNTIME_FINGERPRINT_H_
#define AOT_RUNTIME_RUNTIME_FINGERPRINT_H_

// Which runtime this process runs, as one digest: two processes with the
// same fingerprint load and execute an artifact with the same code. The
// golden replay cache (harness/golden/replay_cache.h) trusts an earlier
// replay's verdict only under the same fingerprint.

#include <string>
#include <vector>

namespace aot {

// The build half, generated at build time by cmake/RuntimeFingerprint.cmake:
// SHA-256 hex over every source file of support/, proto/ and runtime/ (not
// their tests) and the build configuration (compiler and version, build
// type, C++ flags, compile options, sanitizers, CUDA). A compiler-only
// change leaves it as it is.
const char* RuntimeBuildFingerprint();
// How many source files RuntimeBuildFingerprint() covers.
int RuntimeBuildFingerprintSourceCount();

// A shared library mapped into this process.
struct MappedLibrary {
  std::string path;
  // SharedLibraryState(path) when it was listed.
  std::string state;
};

// "<size> <mtime seconds>.<nanoseconds>" of the file at `path` now, or
// "unreadable" (a library deleted or replaced since it was mapped).
std::string SharedLibraryState(const std::string& path);

// The shared libraries mapped into this process now (/proc/self/maps),
// sorted by path. The main executable is left out: its runtime part is the
// build half, and the rest of it (compiler, harness) must not count.
std::vector<MappedLibrary> MappedSharedLibraryList();
// The same, one "<path> <state>" line each.
std::string MappedSharedLibraries();

// SHA-256 hex of the build half, `libraries` and LD_LIBRARY_PATH (which
// decides the files later dlopen calls map).
std::string RuntimeFingerprintOf(const std::vector<MappedLibrary>& libraries);

// RuntimeFingerprintOf(MappedSharedLibraryList()) at the first call, kept:
// a different libLLVM, OpenBLAS or libcuda changes it. Libraries the
// runtime opens later (dlopen: the CUDA driver, cuBLAS and cuDNN when a
// CUDA client is created; cuDNN's parts, the PTX JIT and NCCL at first use)
// are in it only if they were mapped by then.
std::string RuntimeFingerprint();

// The same digest computed now, not kept: it differs from
// RuntimeFingerprint() once a library was mapped or unmapped since.
std::string CurrentRuntimeFingerprint();

}  // namespace aot

#endif  // AOT_RUNTIME_RUNTIME_FINGERPRINT_H_
