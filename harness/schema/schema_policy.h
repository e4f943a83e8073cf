#ifndef AOT_HARNESS_SCHEMA_SCHEMA_POLICY_H_
#define AOT_HARNESS_SCHEMA_SCHEMA_POLICY_H_

// What of a schema the guard puts under contract and how strictly: the roots,
// whether this project's (aot.compat) annotation rules apply, messages that
// travel serialized inside bytes fields, and per-rule severities. Read from a
// text proto (harness/schema/schema_policy.proto) by `schema-check --policy`.

#include <map>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"

namespace aot {

enum class RuleSeverity { kError, kWarning, kIgnore };

struct SchemaPolicy {
  // Full names of the contract's root messages; empty means kContractRoot.
  std::vector<std::string> roots;

  enum class Annotations {
    kAuto,  // on when the schema defines the (aot.compat) extension
    kOn,
    kOff,
  };
  Annotations annotations = Annotations::kAuto;

  // A message carried serialized inside a string/bytes field.
  struct BytesCarried {
    std::string field;    // "xla.HloInstructionProto.backend_config"
    std::string message;  // "xla.gpu.GpuBackendConfig"
    bool json = false;    // JSON/text encoded: names matter as well as numbers
  };
  std::vector<BytesCarried> bytes_carried;

  // Overrides of the default severity (kError for every violation rule).
  std::map<std::string, RuleSeverity> severities;

  RuleSeverity SeverityOf(const std::string& rule) const {
    auto it = severities.find(rule);
    return it == severities.end() ? RuleSeverity::kError : it->second;
  }
};

// The ids of the rules whose findings are violations (those a policy may
// re-grade), in the order schema_check.h documents them.
const std::vector<std::string>& ViolationRuleIds();

// Parses a policy in text format. InvalidArgument naming `origin` and the
// line:column of a syntax error, or the entry that is wrong (an unknown rule
// id, a bytes_carried entry without its field or message).
absl::StatusOr<SchemaPolicy> ParseSchemaPolicy(absl::string_view text, absl::string_view origin);

// ParseSchemaPolicy of the file at `path` (NotFound when it cannot be read).
absl::StatusOr<SchemaPolicy> ReadSchemaPolicy(const std::string& path);

}  // namespace aot

#endif  // AOT_HARNESS_SCHEMA_SCHEMA_POLICY_H_
