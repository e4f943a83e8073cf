#ifndef AOT_RUNTIME_PLATFORM_COLLECTIVES_H_
#define AOT_RUNTIME_PLATFORM_COLLECTIVES_H_

#include <cstdint>
#include <optional>
#include <string>

#include "absl/status/status.h"
#include "absl/strings/string_view.h"
#include "absl/types/span.h"
#include "proto/executable.pb.h"
#include "runtime/platform/platform.h"

namespace aot {

enum class ReductionOp { kSum, kProduct, kMin, kMax };

// One collective operation as one participant sees it. Participants are
// global ids (replica * partition_count + partition).
struct CollectiveCall {
  // Names the operation in errors: "all-reduce 'ar.1'".
  std::string op_name;
  // The participants that run it together, in group order (ranks).
  absl::Span<const int64_t> group;
  int64_t participant = 0;  // this one (a member of `group`)
  // This participant's count of collective calls before this one: the
  // members of a group agree on it without talking (SPMD programs make the
  // same sequence of collective calls everywhere).
  int64_t sequence = 0;
  PrimitiveType element_type = F32;
  Stream* stream = nullptr;  // this participant's

  int64_t rank() const {
    for (size_t i = 0; i < group.size(); ++i) {
      if (group[i] == participant) return static_cast<int64_t>(i);
    }
    return -1;
  }
};

// The data movement of collective operations between the participants of
// one multi-participant execution (host: threads meeting at a rendezvous;
// CUDA: NCCL). One backend serves every participant of an execution; its
// methods are called from the participants' threads at once. Buffers are
// this participant's, flat; sizes in elements of `call.element_type`
// unless named bytes. Errors: DeadlineExceeded when a member never
// arrives (naming the operation and the missing members), InvalidArgument
// for an element type or reduction the backend cannot combine.
class CollectiveBackend {
 public:
  virtual ~CollectiveBackend() = default;

  // dst = the group's src combined element-wise (`count` elements each).
  virtual absl::Status AllReduce(const CollectiveCall& call, DeviceMemory src, DeviceMemory dst,
                                 int64_t count, ReductionOp reduction) = 0;
  // dst = the group's src (`bytes` each) concatenated in group order.
  virtual absl::Status AllGather(const CollectiveCall& call, DeviceMemory src, DeviceMemory dst,
                                 int64_t bytes) = 0;
  // dst (`count` elements) = block rank() of the group's src (group size *
  // count elements each) combined element-wise.
  virtual absl::Status ReduceScatter(const CollectiveCall& call, DeviceMemory src, DeviceMemory dst,
                                     int64_t count, ReductionOp reduction) = 0;
  // src[j] (`bytes`) goes to member j; dst[i] receives member i's src[rank].
  virtual absl::Status AllToAll(const CollectiveCall& call, absl::Span<const DeviceMemory> src,
                                absl::Span<const DeviceMemory> dst, int64_t bytes) = 0;
  // src goes to `send_to`'s dst, dst receives `receive_from`'s src (each
  // optional; `bytes` each). A dst that receives nothing is left alone.
  virtual absl::Status CollectivePermute(const CollectiveCall& call, DeviceMemory src,
                                         DeviceMemory dst, int64_t bytes,
                                         std::optional<int64_t> send_to,
                                         std::optional<int64_t> receive_from) = 0;
  // dst = the src of the group's first member (`bytes`).
  virtual absl::Status Broadcast(const CollectiveCall& call, DeviceMemory src, DeviceMemory dst,
                                 int64_t bytes) = 0;

  // A participant failed and will not reach its next collective: the
  // others stop waiting for it and fail with `status`.
  virtual void Abort(absl::Status status) = 0;
};

// What a participant of a multi-participant execution passes to it
// (ExecuteOptions::collectives).
struct CollectiveParams {
  int64_t participant = 0;  // replica * partition_count + partition
  int64_t replica = 0;
  int64_t partition = 0;
  int64_t participant_count = 1;
  CollectiveBackend* backend = nullptr;
  // Collective calls made so far by this participant's execution
  // (CollectiveCall::sequence); the execution advances it.
  int64_t calls = 0;
};

}  // namespace aot

#endif  // AOT_RUNTIME_PLATFORM_COLLECTIVES_H_
