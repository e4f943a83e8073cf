#ifndef AOT_RUNTIME_FFI_FFI_REGISTRY_H_
#define AOT_RUNTIME_FFI_FFI_REGISTRY_H_

#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "absl/synchronization/mutex.h"
#include "proto/executable.pb.h"
#include "proto/target.pb.h"

namespace aot {

// One buffer argument of a custom call, in the physical layout of `shape`:
// in host memory for a host handler, in device memory for a handler
// registered for a device platform (RegisterForPlatform).
struct FfiBuffer {
  void* data = nullptr;
  const ShapeProto* shape = nullptr;
};

struct FfiCallFrame {
  std::vector<FfiBuffer> operands;
  std::vector<FfiBuffer> results;
  // A device handler's stream (CUDA: the execution's CUstream): it queues
  // its work there, ordered after the thunks before it and before the ones
  // after it, and returns without waiting. Null for host handlers.
  void* stream = nullptr;
  // Legacy API: the opaque backend_config string.
  absl::string_view opaque;
  // Typed FFI: attributes in serialized order.
  const google::protobuf::RepeatedPtrField<CustomCallAttributeProto>* attributes = nullptr;
};

using FfiHandler = std::function<absl::Status(const FfiCallFrame&)>;

// Custom-call / FFI handlers by name, with deprecated aliases (CONTRACT.md
// s. 5 step 5: a renamed handler keeps its old name as an alias for at
// least 6 months). Thread-safe.
class FfiRegistry {
 public:
  struct Resolved {
    // The host handler (buffers in host memory); null when the name has
    // only device handlers.
    const FfiHandler* handler = nullptr;
    // Handlers for device platforms (buffers in device memory, a stream).
    const std::map<PlatformKind, FfiHandler>* device_handlers = nullptr;
    std::string canonical_name;
    // Set when resolved through a deprecated alias.
    std::string alias;
    std::string alias_expiry;  // YYYY-MM-DD
  };
  struct AliasInfo {
    std::string alias;
    std::string target;
    std::string expiry;
  };

  // The process-wide registry with the runtime's built-in handlers and
  // JAX's LAPACK custom calls (lapack_handlers.h).
  static FfiRegistry& Global();

  // The host handler of `name`: buffers in host memory (on a device
  // platform the runtime stages them through host memory around the call).
  absl::Status Register(absl::string_view name, FfiHandler handler);
  // A handler of `name` for a device platform (XLA FFI's per-platform
  // registration): it gets device buffers and the execution's stream, so
  // nothing goes through host memory. PLATFORM_HOST is Register. A name
  // may have a host handler, device handlers, or both.
  absl::Status RegisterForPlatform(absl::string_view name, PlatformKind platform,
                                   FfiHandler handler);
  // `alias` resolves to `target` until `expiry` (YYYY-MM-DD); the lint and
  // the release snapshot report aliases past their expiry.
  absl::Status RegisterAlias(absl::string_view alias, absl::string_view target,
                             absl::string_view expiry);
  // NotFound naming the target when nothing is registered under `name`.
  absl::StatusOr<Resolved> Resolve(absl::string_view name) const;

  std::vector<std::string> HandlerNames() const;  // sorted
  std::vector<AliasInfo> Aliases() const;         // sorted by alias

 private:
  mutable absl::Mutex mu_;
  struct Entry {
    std::optional<FfiHandler> host;
    std::map<PlatformKind, FfiHandler> device;
  };
  // std::map: stable addresses of handlers and sorted iteration.
  std::map<std::string, Entry, std::less<>> handlers_ ABSL_GUARDED_BY(mu_);
  std::map<std::string, AliasInfo, std::less<>> aliases_ ABSL_GUARDED_BY(mu_);
};

// Registers the runtime's built-in handlers (aot.topk, aot.gelu and their
// aliases) into `registry`.
void RegisterBuiltinFfiHandlers(FfiRegistry& registry);

}  // namespace aot

#endif  // AOT_RUNTIME_FFI_FFI_REGISTRY_H_
