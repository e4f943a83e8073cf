#ifndef AOT_RUNTIME_PLATFORM_HOST_HOST_COLLECTIVES_H_
#define AOT_RUNTIME_PLATFORM_HOST_HOST_COLLECTIVES_H_

#include <memory>

#include "absl/time/time.h"
#include "runtime/platform/collectives.h"

namespace aot {

// Collectives between participants that run as threads of this process
// with host memory: the members of a group meet at a rendezvous
// (support/rendezvous.h), exchange their buffers' addresses, each computes
// its own result from the others' sources, and they meet again before
// anyone goes on (so no source is overwritten while a peer still reads
// it). Reductions fold the group's values in group order, f16/bf16 in
// float rounded after every step, integers wrapping: the reference
// interpreter's order, so results match it bit for bit.
std::unique_ptr<CollectiveBackend> CreateHostCollectiveBackend(absl::Duration timeout);

}  // namespace aot

#endif  // AOT_RUNTIME_PLATFORM_HOST_HOST_COLLECTIVES_H_
