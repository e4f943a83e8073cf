#include "runtime/executable/client.h"

#include "absl/strings/ascii.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "google/protobuf/io/coded_stream.h"
#include "google/protobuf/io/tokenizer.h"
#include "google/protobuf/text_format.h"
#include "runtime/platform/host/host_platform.h"
#ifdef AOT_HAVE_CUDA_PLATFORM
#include "runtime/platform/cuda/cuda_platform.h"
#include "support/proto_util.h"
#include "support/status_macros.h"
#endif

namespace aot {

namespace {}  // namespace

ArtifactFormat GuessArtifactFormat(absl::string_view bytes, absl::string_view path) {
  if (absl::EndsWith(path, ".pbtxt") || absl::EndsWith(path, ".txtpb")) {
    return ArtifactFormat::kText;
  }
  if (absl::EndsWith(path, ".pb") || absl::EndsWith(path, ".binpb")) {
    return ArtifactFormat::kBinary;
  }
  // Text format is printable and starts with a field name or a comment;
  // binary protos have non-printable tag and length bytes early on.
  absl::string_view head = bytes.substr(0, 256);
  for (char c : head) {
    unsigned char u = static_cast<unsigned char>(c);
    if (u < 0x20 && c != '\n' && c != '\t' && c != '\r') return ArtifactFormat::kBinary;
    if (u >= 0x7f) return ArtifactFormat::kBinary;
  }
  head = absl::StripLeadingAsciiWhitespace(head);
  if (!head.empty() && (absl::ascii_isalpha(head[0]) || head[0] == '#')) {
    return ArtifactFormat::kText;
  }
  return ArtifactFormat::kBinary;
}

absl::StatusOr<ExecutableProto> ParseExecutableProto(absl::string_view bytes,
                                                     ArtifactFormat format) {
  ExecutableProto proto;
  if (format == ArtifactFormat::kText) {
    if (absl::Status parsed = ParseTextProto(bytes, &proto); !parsed.ok()) {
      return absl::InvalidArgumentError(
          absl::StrCat("artifact is not a valid text-format ExecutableProto: ", parsed.message()));
    }
    return proto;
  }
  if (!ParseBinaryProto(bytes, &proto)) {
    return absl::InvalidArgumentError(
        absl::StrCat("artifact is not a valid binary ExecutableProto (", bytes.size(),
                     " bytes: truncated or corrupted)"));
  }
  return proto;
}

std::vector<std::string> AvailablePlatforms() {
#ifdef AOT_HAVE_CUDA_PLATFORM
  return {"host", "cuda"};
#else
  return {"host"};
#endif
}

absl::StatusOr<std::unique_ptr<Platform>> CreatePlatform(absl::string_view name,
                                                         const LoadOptions& options,
                                                         int device_ordinal) {
  // The host platform is one device: every replica is a thread of it.
  if (name == "host") return CreateHostPlatform(options.host_cpu_features_override);
#ifdef AOT_HAVE_CUDA_PLATFORM
  if (name == "cuda") return CreateCudaPlatform(options.device_less, device_ordinal);
#else
  (void)device_ordinal;
#endif
  return absl::InvalidArgumentError(absl::StrCat("platform '", name,
                                                 "' is not available in this runtime (available: ",
                                                 absl::StrJoin(AvailablePlatforms(), ", "), ")"));
}

absl::StatusOr<std::unique_ptr<Client>> Client::Create(absl::string_view platform,
                                                       LoadOptions options, int device_ordinal) {
  AOT_ASSIGN_OR_RETURN(auto p, CreatePlatform(platform, options, device_ordinal));
  auto client = std::unique_ptr<Client>(new Client());
  client->platform_ = std::move(p);
  client->options_ = std::move(options);
  return client;
}

Client::~Client() = default;

absl::StatusOr<std::unique_ptr<Executable>> Client::DeserializeExecutable(
    absl::string_view bytes) const {
  if (static_cast<int64_t>(bytes.size()) > options_.memory_budget_bytes ||
      bytes.size() > static_cast<size_t>(INT32_MAX)) {
    return absl::InvalidArgumentError(
        absl::StrCat("artifact of ", bytes.size(), " bytes exceeds the memory budget"));
  }
  AOT_ASSIGN_OR_RETURN(auto proto, ParseExecutableProto(bytes, GuessArtifactFormat(bytes)));
  return Load(std::move(proto));
}

absl::StatusOr<std::unique_ptr<Executable>> Client::Load(ExecutableProto proto) const {
  return Executable::Load(std::move(proto), platform_, &FfiRegistry::Global(), options_);
}

}  // namespace aot
