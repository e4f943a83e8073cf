#ifndef AOT_HARNESS_RELEASE_FORWARD_CHECK_H_
#define AOT_HARNESS_RELEASE_FORWARD_CHECK_H_

#include <memory>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "google/protobuf/descriptor.h"
#include "google/protobuf/descriptor.pb.h"
#include "google/protobuf/dynamic_message.h"
#include "harness/release/release.h"
#include "nlohmann/json.hpp"

namespace aot {

// One serialized artifact of the current compiler.
struct ForwardArtifact {
  std::string target;  // golden target name ("host-x86-64-v3")
  std::string test;    // corpus module
  std::string bytes;   // serialized ExecutableProto
};

// Rules (each names the field path inside the artifact):
//   UNPARSABLE          the bytes do not parse with the release's schema;
//   UNKNOWN_FIELD       a field the release's schema lacks whose (aot.compat)
//                       annotation does not say older runtimes may ignore it
//                       (a notice, IGNORABLE_FIELD, when it does);
//   UNKNOWN_ONEOF_CASE  a oneof case (e.g. a thunk kind) the schema lacks;
//   UNKNOWN_ENUM_VALUE  an enum value the schema lacks;
//   UNKNOWN_THUNK_KIND  a thunk kind the release cannot deserialize;
//   UNKNOWN_OPCODE      an embedded HLO opcode the release does not know;
//   UNRESOLVED_FFI_NAME a custom call / FFI target without handler or alias;
//   UNRESOLVED_KERNEL_SYMBOL  a host kernel import outside its allow-list;
//   UNSUPPORTED_GEMM_TYPE  a GEMM thunk element type the release's GEMM
//                       thunk refuses (releases without the record: f32, f64);
//   ABI_TOO_NEW         runtime_abi_version above the release's ABI;
//   TOOLCHAIN_TOO_NEW   a toolchain minimum above what the release offers.
struct ForwardFinding {
  std::string release;
  std::string target;
  std::string test;
  std::string severity;  // "error" | "notice"
  std::string rule;
  std::string path;
  std::string message;
  nlohmann::ordered_json ToJson() const;
  std::string ToString() const;
};

// Checks artifacts against one release: parses them with the release's
// descriptor set (DynamicMessage) and scans unknown fields, oneof cases and
// enum values, then checks thunk kinds, opcodes, names and ABI against the
// release's capability snapshot. `head_pool` is the schema the compiler
// wrote with (annotations of fields the release lacks are read there).
class ForwardChecker {
 public:
  static absl::StatusOr<std::unique_ptr<ForwardChecker>> Create(
      ReleaseSnapshot release, const google::protobuf::FileDescriptorSet& release_schema,
      const google::protobuf::DescriptorPool* head_pool);

  std::vector<ForwardFinding> Check(const ForwardArtifact& artifact) const;
  const ReleaseSnapshot& release() const { return release_; }

 private:
  ForwardChecker() = default;
  void ScanMessage(const google::protobuf::Message& message, const std::string& path,
                   const ForwardArtifact& artifact, std::vector<ForwardFinding>* out) const;
  void Add(const ForwardArtifact& artifact, std::string severity, std::string rule,
           std::string path, std::string message, std::vector<ForwardFinding>* out) const;

  ReleaseSnapshot release_;
  const google::protobuf::DescriptorPool* head_pool_ = nullptr;
  std::unique_ptr<google::protobuf::DescriptorPool> release_pool_;
  std::unique_ptr<google::protobuf::DynamicMessageFactory> factory_;
  const google::protobuf::Descriptor* root_ = nullptr;
};

// Loads a release's descriptor set (release.descriptor_set, relative to
// golden_dir) and builds its checker.
absl::StatusOr<std::unique_ptr<ForwardChecker>> LoadForwardChecker(
    const std::string& golden_dir, const ReleaseSnapshot& release,
    const google::protobuf::DescriptorPool* head_pool);

}  // namespace aot

#endif  // AOT_HARNESS_RELEASE_FORWARD_CHECK_H_
