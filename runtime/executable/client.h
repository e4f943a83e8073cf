#ifndef AOT_RUNTIME_EXECUTABLE_CLIENT_H_
#define AOT_RUNTIME_EXECUTABLE_CLIENT_H_

#include <memory>
#include <string>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "runtime/executable/executable.h"

namespace aot {

enum class ArtifactFormat { kBinary, kText };

// Parses a serialized executable (binary protobuf or text format). Bad
// bytes are InvalidArgument; nothing is allocated in proportion to sizes
// the bytes declare.
absl::StatusOr<ExecutableProto> ParseExecutableProto(absl::string_view bytes,
                                                     ArtifactFormat format);
// Binary unless the bytes look like text format (or the path ends .pbtxt).
ArtifactFormat GuessArtifactFormat(absl::string_view bytes, absl::string_view path = "");

// PjRt-style entry point of the runtime.
class Client {
 public:
  // `platform`: "host" or "cuda". `device_ordinal` picks the CUDA device
  // (each participant of a multi-replica executable runs on its own); the
  // host platform has one (every replica is a thread of this process).
  static absl::StatusOr<std::unique_ptr<Client>> Create(absl::string_view platform,
                                                        LoadOptions options = {},
                                                        int device_ordinal = 0);
  ~Client();

  // Deserializes and loads (validation, thunk graph, load passes,
  // constants): PjRt's DeserializeExecutable, which loads eagerly here.
  absl::StatusOr<std::unique_ptr<Executable>> DeserializeExecutable(absl::string_view bytes) const;
  absl::StatusOr<std::unique_ptr<Executable>> Load(ExecutableProto proto) const;

  Platform* platform() const { return platform_.get(); }
  const LoadOptions& options() const { return options_; }

 private:
  Client() = default;
  std::shared_ptr<Platform> platform_;
  LoadOptions options_;
};

// The platforms this build of the runtime can create ("host", and "cuda"
// when built with CUDA).
std::vector<std::string> AvailablePlatforms();
absl::StatusOr<std::unique_ptr<Platform>> CreatePlatform(absl::string_view name,
                                                         const LoadOptions& options,
                                                         int device_ordinal = 0);

}  // namespace aot

#endif  // AOT_RUNTIME_EXECUTABLE_CLIENT_H_
