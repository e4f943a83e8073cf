#ifndef AOT_RUNTIME_EXECUTABLE_EXECUTABLE_H_
#define AOT_RUNTIME_EXECUTABLE_EXECUTABLE_H_

#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/types/span.h"
#include "proto/executable.pb.h"
#include "runtime/executable/device_buffer.h"
#include "runtime/executable/load_passes.h"
#include "runtime/ffi/ffi_registry.h"
#include "runtime/platform/platform.h"
#include "runtime/thunks/thunk.h"

namespace aot {

// Checks everything in an executable that can be checked without building
// it, before anything is allocated: allocation table, constants inside
// `binary`, entry parameters and result leaves, sizes against the memory
// budget. Errors are InvalidArgument naming the field.
absl::Status ValidateExecutableProto(const ExecutableProto& proto, const LoadOptions& options);

// A loaded executable (CONTRACT.md s. 3): thunk graph rebuilt, load-time
// passes run, constants resident. Immutable and thread-safe: Execute may
// be called from several threads at once.
class Executable {
 public:
  struct LoadStats {
    double validate_ms = 0, thunks_ms = 0, passes_ms = 0, constants_ms = 0;
    int64_t thunk_count = 0;
    LoadPassStats passes;
  };

  // Environment checks (capability, ABI: FailedPrecondition), validation,
  // then the four load steps.
  static absl::StatusOr<std::unique_ptr<Executable>> Load(ExecutableProto proto,
                                                          std::shared_ptr<Platform> platform,
                                                          const FfiRegistry* ffi,
                                                          const LoadOptions& options);

  ~Executable();

  // Runs the executable. `arguments[i]` holds parameter i's bytes in the
  // physical layout of its shape. Returns the result leaves (depth-first),
  // each in the physical layout of its shape.
  // `options` bounds the run (deadline, cancellation; default: none).
  absl::StatusOr<std::vector<std::vector<uint8_t>>> Execute(
      absl::Span<const absl::Span<const uint8_t>> arguments,
      const ExecuteOptions& options = {}) const;

  // Execute without allocating buffers: result leaf i is written into `results[i]`
  // (exactly its byte size, in the physical layout of its shape). The
  // execution's buffers come from an arena of this executable, reused
  // across executions (one per concurrent execution); on the host an
  // argument whose bytes are 64-byte aligned is read in place, others are
  // copied into the arena, and a result leaf that is an allocation of its
  // own is computed in its 64-byte aligned result buffer (when that
  // overlaps no argument and no other result) instead of copied out. The fast path for callers that
  // keep their buffers (aot-run's steady state, the literal path, benchmarks).
  absl::Status ExecuteInto(absl::Span<const absl::Span<const uint8_t>> arguments,
                           absl::Span<const absl::Span<uint8_t>> results,
                           const ExecuteOptions& options = {}) const;

  // PjRt's Execute over buffers: argument i is read in place (no copy);
  // each result leaf comes back as a buffer of its own, computed in it when
  // the leaf is a whole allocation. An argument that a result leaf aliases
  // (input_output_aliases) is donated unless its number is in
  // `non_donatable`: the leaf is computed in the argument's memory and the
  // argument buffer is deleted once the execution starts (also when it
  // then fails). A may-alias argument that is not donated is copied into
  // the leaf's new buffer first; a must-alias one is InvalidArgument, as is
  // donating a buffer that is also passed as another argument.
  absl::StatusOr<std::vector<std::unique_ptr<DeviceBuffer>>> ExecuteBuffers(
      absl::Span<DeviceBuffer* const> arguments, absl::Span<const int64_t> non_donatable = {},
      const ExecuteOptions& options = {}) const;

  // The platform shared with this executable's buffers.
  const std::shared_ptr<Platform>& shared_platform() const { return platform_; }

  // Bytes of one execution arena (every allocation that is not a
  // constant, at 64-byte aligned offsets), and how many arenas exist now.
  int64_t arena_bytes() const { return arena_bytes_; }
  int64_t arena_count() const;

  // The serialized executable, rebuilt from the in-memory thunks (ToProto)
  // and the executable's tables; deterministic. Command buffers are
  // written as the kernels they grouped.
  std::string SerializeExecutable() const;
  ExecutableProto ToProto() const;

  const std::vector<EntryParameterProto>& parameters() const { return parameters_; }
  const EntryResultProto& result() const { return proto_.result(); }
  // Tables and payloads as loaded; on the host `binary` is empty (the
  // constants' bytes live in their buffers; ToProto has them).
  const ExecutableProto& proto() const { return proto_; }
  const ThunkSequence& thunks() const { return thunks_; }
  const LoadStats& load_stats() const { return stats_; }
  // Participants an execution runs on (device_assignment's replicas x
  // partitions; 1 without one). More than one: ExecuteReplicated.
  int64_t participant_count() const;
  Platform* platform() const { return platform_.get(); }
  // FailedPrecondition ("... cannot execute ...") when the platform cannot
  // run kernels on this machine (a device-less load); what Execute and
  // RunParticipants check first.
  absl::Status CheckPlatformCanExecute() const;

 private:
  Executable() = default;

  ExecutableProto proto_;  // tables and payloads; thunks are rebuilt from it
  // Shared: the executable keeps its platform alive.
  std::shared_ptr<Platform> platform_;
  std::unique_ptr<KernelLoader> kernels_;
  ThunkSequence thunks_;
  std::vector<EntryParameterProto> parameters_;  // by parameter number
  std::vector<DeviceMemory> constants_;          // by allocation index (or empty)
  // The size of proto_.binary when Load moved its bytes to constants_
  // (host), else -1.
  int64_t binary_size_ = -1;
  LoadStats stats_;

  // Execution arenas: one platform allocation each, holding every
  // non-constant allocation at arena_offsets_[index], with the allocation
  // table an execution fills. Taken by an execution and given back after
  // it, so concurrent executions never share one and a steady-state
  // execution allocates nothing.
  struct Arena {
    DeviceMemory memory;
    std::vector<DeviceMemory> table;  // by allocation index
  };
  absl::StatusOr<std::unique_ptr<Arena>> TakeArena() const;
  void ReturnArena(std::unique_ptr<Arena> arena) const;
  // An arena the device may still use (its stream failed to drain): freed,
  // never reused.
  void DropArena(std::unique_ptr<Arena> arena) const;
  // Allocation `a`'s place in `arena` (not a constant).
  DeviceMemory ArenaSlot(const Arena& arena, const BufferAllocationProto& a) const;
  // The platform can run kernels and `argument_count` is the parameter count.
  // ... and `options.collectives` fits the executable's participants.
  absl::Status CheckCanExecute(size_t argument_count, const ExecuteOptions& options) const;
  // Waits for the work queued on `stream` (which may still use the arena,
  // also on error paths), then gives the arena back, or drops it when the
  // stream failed to drain. Returns the drain status.
  absl::Status FinishExecution(Stream& stream, std::unique_ptr<Arena> arena) const;
  std::vector<int64_t> arena_offsets_;  // by allocation index (-1: constant)
  // By result leaf: the allocation the host may place in the caller's
  // result buffer (-1: copied out).
  std::vector<int64_t> result_in_place_;
  // By allocation index: a parameter's allocation that a result leaf
  // aliases (thunks write it).
  std::vector<bool> aliased_allocation_;
  // By result leaf: its alias (into proto_), or nullptr.
  std::vector<const InputOutputAliasProto*> alias_of_leaf_;
  int64_t arena_bytes_ = 0;
  // std::mutex, not absl::Mutex, here and in the platforms: ThreadSanitizer
  // sees std::mutex, and the system's Abseil is not built with it.
  mutable std::mutex arenas_mu_;
  mutable std::vector<std::unique_ptr<Arena>> free_arenas_;
  mutable int64_t arena_count_ = 0;  // taken or free
};

}  // namespace aot

#endif  // AOT_RUNTIME_EXECUTABLE_EXECUTABLE_H_
