#ifndef AOT_RUNTIME_PLATFORM_CUDA_NCCL_COLLECTIVES_H_
#define AOT_RUNTIME_PLATFORM_CUDA_NCCL_COLLECTIVES_H_

#include <cstdint>
#include <functional>
#include <memory>

#include "absl/status/status.h"
#include "absl/time/time.h"
#include "runtime/platform/collectives.h"
#include "runtime/platform/cuda/nccl_api.h"
#include "runtime/platform/platform.h"

namespace aot {

// Makes the CUDA context of a participant's stream current on the calling
// thread (NCCL works on the current device).
using MakeStreamCurrent = std::function<absl::Status(Stream&)>;

// The CUDA platform's collective backend: NCCL, one device per participant
// (each participant's stream lives on its own device's context).
//
// Every collective first meets at a host rendezvous of its group (keyed
// like the host backend's: the participant's call count and the group),
// so a participant that never reaches it fails the others with
// DeadlineExceeded naming the operation and the missing replicas within
// the timeout, as on the host, instead of leaving NCCL kernels waiting on
// the devices. The first meeting of a group also creates its communicator:
// the group's first member brings a fresh ncclUniqueId, every member calls
// ncclCommInitRank with its rank in group order. Then the operation is
// queued on the participant's stream:
//   all-reduce          ncclAllReduce
//   all-gather          ncclAllGather (bytes)
//   reduce-scatter      ncclReduceScatter
//   all-to-all          ncclSend/ncclRecv to and from every member, grouped
//   collective-permute  ncclSend/ncclRecv of the pair, grouped
//   collective-broadcast ncclBroadcast from the group's first member
// Abort aborts every communicator (ncclCommAbort), which also stops
// operations already queued, and fails every later meeting.
std::unique_ptr<CollectiveBackend> CreateNcclCollectiveBackend(const NcclApi& api,
                                                               absl::Duration timeout,
                                                               MakeStreamCurrent make_current);

}  // namespace aot

#endif  // AOT_RUNTIME_PLATFORM_CUDA_NCCL_COLLECTIVES_H_
