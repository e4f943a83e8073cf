#ifndef AOT_RUNTIME_THUNKS_THUNK_H_
#define AOT_RUNTIME_THUNKS_THUNK_H_

#include <atomic>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "absl/functional/function_ref.h"
#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "absl/time/time.h"
#include "absl/types/span.h"
#include "proto/executable.pb.h"
#include "runtime/platform/collectives.h"
#include "runtime/platform/platform.h"
#include "runtime/thunks/buffer_slice.h"

namespace aot {

class FfiRegistry;

// Per-execution mapping from allocation index to memory. Slices were
// validated at load, so resolution cannot go out of bounds.
class BufferAllocations {
 public:
  // Does not own the table (an execution's is reused across executions).
  explicit BufferAllocations(absl::Span<const DeviceMemory> allocations)
      : allocations_(allocations) {}
  DeviceMemory Resolve(const BufferSlice& slice) const {
    const DeviceMemory& base = allocations_[slice.allocation_index];
    return DeviceMemory{static_cast<char*>(base.ptr) + slice.offset, slice.size};
  }
  const DeviceMemory& allocation(int64_t i) const { return allocations_[i]; }

 private:
  absl::Span<const DeviceMemory> allocations_;
};

// Limits on one execution. An artifact's while loop may run forever by
// design; these stop it between thunks (and between loop iterations).
struct ExecuteOptions {
  // Past this time the execution stops with DeadlineExceeded (default:
  // never).
  absl::Time deadline = absl::InfiniteFuture();
  // When set and it becomes true (from any thread), the execution stops
  // with Cancelled.
  const std::atomic<bool>* cancelled = nullptr;
  // One participant's share of a multi-participant execution (see
  // runtime/executable/replicated_execution.h); null: the executable has
  // one participant.
  CollectiveParams* collectives = nullptr;
};

struct ExecuteParams {
  Platform* platform = nullptr;
  Stream* stream = nullptr;  // this execution's: every operation goes here
  const BufferAllocations* buffers = nullptr;
  const ExecuteOptions* options = nullptr;  // null: no limits
};

// OK unless `params.options` says to stop now: DeadlineExceeded past the
// deadline, Cancelled once cancelled. `before` names what would run next; it
// is called only to word an error (this runs before every thunk).
absl::Status CheckExecutionLimits(const ExecuteParams& params,
                                  absl::FunctionRef<std::string()> before);

struct LoadOptions {
  // Upper bound on the memory an executable may declare (allocations,
  // constants, kernels), checked before anything is allocated.
  int64_t memory_budget_bytes = int64_t{8} << 30;
  // Deepest nesting of control thunks (sequential/while/conditional).
  int max_control_nesting = 16;
  // Run the load-time command-buffer pass.
  bool enable_command_buffers = true;
  // Test hook: pretend the host CPU has exactly these features.
  std::vector<std::string> host_cpu_features_override;
  // Accelerator platforms only: validate and rebuild the thunk graph without
  // opening a device even when one is present (checking artifacts compiled
  // for another GPU); execution then reports the platform unavailable.
  bool device_less = false;
};

// Whether the allocation is the buffer of an entry parameter that a result
// leaf aliases (ExecutableProto.input_output_aliases): thunks may write it.
bool IsAliasedParameterAllocation(const ExecutableProto& executable, int64_t allocation_index);

// State shared while rebuilding one executable's thunk graph: where the
// kernels and handlers come from, what slices may address, and the field
// path used in error messages ("thunks[3].while_loop.body.thunks[0]...").
class LoadContext {
 public:
  LoadContext(Platform* platform, KernelLoader* kernels, const FfiRegistry* ffi,
              const ExecutableProto* executable, const LoadOptions* options)
      : platform_(platform),
        kernels_(kernels),
        ffi_(ffi),
        executable_(executable),
        options_(options) {}

  Platform* platform() const { return platform_; }
  KernelLoader* kernels() const { return kernels_; }
  const FfiRegistry* ffi() const { return ffi_; }
  const LoadOptions& options() const { return *options_; }
  // Participants of the executable (its device assignment's replicas x
  // partitions; 1 without one).
  int64_t participant_count() const;

  // InvalidArgument "<path>.<field>: <message>".
  absl::Status Error(absl::string_view field, absl::string_view message) const;
  // The slice addresses an existing allocation, inside its bounds.
  absl::Status CheckSlice(const BufferSliceProto& slice, absl::string_view field) const;
  // ... and the allocation may be written (not a constant, nor a parameter
  // unless a result leaf aliases it).
  absl::Status CheckWritableSlice(const BufferSliceProto& slice, absl::string_view field) const;

  // Path bookkeeping for nested thunks.
  class PathScope {
   public:
    PathScope(LoadContext& context, std::string segment);
    ~PathScope();
    PathScope(const PathScope&) = delete;
    PathScope& operator=(const PathScope&) = delete;

   private:
    LoadContext& context_;
    size_t saved_size_;
  };
  const std::string& path() const { return path_; }
  int depth() const { return depth_; }
  void set_depth(int depth) { depth_ = depth; }

 private:
  Platform* platform_;
  KernelLoader* kernels_;
  const FfiRegistry* ffi_;
  const ExecutableProto* executable_;
  const LoadOptions* options_;
  std::string path_;
  int depth_ = 0;
};

// One step of the execution sequence. Immutable after load, so one loaded
// executable may run on several threads at once.
class Thunk {
 public:
  enum class Kind {
    kKernel,
    kGemm,
    kCopy,
    kMemset,
    kCustomCall,
    kSequential,
    kWhile,
    kConditional,
    kConvolution,
    kAllReduce,
    kAllGather,
    kReduceScatter,
    kAllToAll,
    kCollectivePermute,
    kCollectiveBroadcast,
    kReplicaId,
    kPartitionId,
    kCommandBuffer,  // built at load time, never serialized
  };

  Thunk(Kind kind, ThunkInfoProto info) : kind_(kind), info_(std::move(info)) {}
  virtual ~Thunk() = default;

  Kind kind() const { return kind_; }
  const ThunkInfoProto& info() const { return info_; }

  virtual absl::Status Execute(const ExecuteParams& params) const = 0;

  // The serialized form. A command buffer appends the thunks it was built
  // from, so the serialized executable never contains one.
  virtual ThunkProto ToProto() const = 0;
  virtual void AppendToProto(google::protobuf::RepeatedPtrField<ThunkProto>* out) const {
    *out->Add() = ToProto();
  }

 protected:
  ThunkProto ProtoWithInfo() const {
    ThunkProto proto;
    *proto.mutable_info() = info_;
    return proto;
  }

 private:
  Kind kind_;
  ThunkInfoProto info_;
};

using ThunkSequence = std::vector<std::unique_ptr<Thunk>>;

absl::string_view ThunkKindName(Thunk::Kind kind);

// Runs thunks in order, stopping at the first error (which names the thunk).
absl::Status ExecuteSequence(const ThunkSequence& thunks, const ExecuteParams& params);

}  // namespace aot

#endif  // AOT_RUNTIME_THUNKS_THUNK_H_
