#ifndef AOT_HARNESS_TRIAGE_TRIAGE_H_
#define AOT_HARNESS_TRIAGE_TRIAGE_H_

#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "google/protobuf/descriptor.h"
#include "google/protobuf/descriptor.pb.h"
#include "harness/release/forward_check.h"
#include "harness/release/release.h"
#include "nlohmann/json.hpp"
#include "runtime/thunks/thunk.h"

namespace aot {

// "Is my change safe?" (CONTRACT.md s. 5) from the actual differences
// between a base and a head: schema, runtime registries (thunk kinds, FFI
// names, host kernel imports), opcode table, runtime flag defaults and load
// passes, and what the head compiler emits for the corpus.
struct TriageInput {
  std::string golden_dir = "golden";
  std::string now;  // YYYY-MM-DD: the windows are judged at this date

  ReleaseSnapshot base_runtime;
  google::protobuf::FileDescriptorSet base_schema;
  std::string base_source;  // where the base facts came from (for the report)

  ReleaseSnapshot head_runtime;
  google::protobuf::FileDescriptorSet head_schema;
  const google::protobuf::DescriptorPool* head_pool = nullptr;  // null: built-in
  LoadOptions head_load_options;
  std::vector<ForwardArtifact> head_artifacts;  // the head compiler's corpus output
  std::vector<std::string> targets;             // replayed for the backward steps
};

struct TriageChange {
  int step = 1;             // the decision-tree step that decides it (1-6)
  std::string what;         // e.g. "FFI handler 'aot.gelu_erf' removed"
  std::string verdict;      // safe | breaking-forward | breaking-backward | breaking-both | depends
  bool breaks_now = false;  // would break a window at `now`
  std::string evidence;     // why breaks_now is what it is
  std::string procedure;    // the safe procedure from the table
};

struct TriageReport {
  std::string base_source;
  std::vector<TriageChange> changes;
  bool ok() const;  // nothing breaks a window now
  nlohmann::ordered_json ToJson() const;
  std::string ToText() const;
};

absl::StatusOr<TriageReport> Triage(const TriageInput& input);

}  // namespace aot

#endif  // AOT_HARNESS_TRIAGE_TRIAGE_H_
