#ifndef AOT_HARNESS_SCHEMA_REACHABILITY_H_
#define AOT_HARNESS_SCHEMA_REACHABILITY_H_

#include <memory>
#include <set>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "google/protobuf/descriptor.h"
#include "google/protobuf/descriptor.pb.h"
#include "harness/schema/schema_policy.h"

namespace aot {

// The root of the compatibility contract (CONTRACT.md section 2).
inline constexpr char kContractRoot[] = "aot.ExecutableProto";

// The part of a schema that is under contract: every message, field, oneof
// and enum transitively reachable from the root messages through message- and
// enum-typed fields (map entries included) and through the string/bytes
// fields a policy says carry a serialized message. Names are full names
// ("aot.CopyThunkProto", "aot.CopyThunkProto.source", "aot.ThunkProto.impl").
struct ReachableSet {
  std::set<std::string> messages;
  std::set<std::string> fields;
  std::set<std::string> oneofs;
  std::set<std::string> enums;
  // The messages and enums whose names matter as well as their numbers:
  // reached through typed fields (the executable also travels as text
  // format) or through bytes carried as JSON. Those reached only through
  // bytes carried in binary are judged on the wire alone.
  std::set<std::string> name_sensitive;
  // The roots found in the pool, and those it lacks.
  std::vector<std::string> roots;
  std::vector<std::string> missing_roots;

  bool HasMessage(absl::string_view name) const { return messages.count(std::string(name)) > 0; }
  bool HasEnum(absl::string_view name) const { return enums.count(std::string(name)) > 0; }
  bool NameSensitive(absl::string_view name) const {
    return name_sensitive.count(std::string(name)) > 0;
  }
};

// Walks the descriptors from `root` (breadth-first over field types).
ReachableSet ComputeReachable(const google::protobuf::Descriptor* root);

// Walks from every root of `roots` that `pool` has (the others are listed in
// missing_roots), crossing the `carried` edges: a field named there leads to
// the message it carries, when the pool has both.
ReachableSet ComputeReachable(const google::protobuf::DescriptorPool& pool,
                              const std::vector<std::string>& roots,
                              const std::vector<SchemaPolicy::BytesCarried>& carried);

// Looks `root` up in `pool` first; NotFound when the pool lacks it.
absl::StatusOr<ReachableSet> ComputeReachable(const google::protobuf::DescriptorPool& pool,
                                              absl::string_view root = kContractRoot);

// Builds a fresh pool from a FileDescriptorSet (as protoc --include_imports
// writes it: every import present). Files may come in any order. Errors name
// the file and protobuf's reason; `origin` (a path) prefixes them.
absl::StatusOr<std::unique_ptr<google::protobuf::DescriptorPool>> BuildDescriptorPool(
    const google::protobuf::FileDescriptorSet& set, absl::string_view origin);

}  // namespace aot

#endif  // AOT_HARNESS_SCHEMA_REACHABILITY_H_
