#include "harness/schema/schema_policy.h"

#include <algorithm>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "harness/schema/schema_policy.pb.h"
#include "support/file_io.h"
#include "support/proto_util.h"
#include "support/status_macros.h"

namespace aot {

using schema_guard::SchemaPolicyProto;

const std::vector<std::string>& ViolationRuleIds() {
  static const auto* ids = new std::vector<std::string>{
      "FIELD_REMOVED_NOT_RESERVED",
      "FIELD_NAME_REMOVED_NOT_RESERVED",
      "ENUM_VALUE_REMOVED_NOT_RESERVED",
      "ENUM_VALUE_NAME_REMOVED_NOT_RESERVED",
      "RESERVED_REMOVED",
      "RESERVED_REUSED",
      "FIELD_NUMBER_CHANGED",
      "FIELD_TYPE_CHANGED",
      "FIELD_CARDINALITY_CHANGED",
      "FIELD_ONEOF_CHANGED",
      "FIELD_NAME_CHANGED",
      "ENUM_VALUE_NUMBER_CHANGED",
      "ENUM_VALUE_NAME_CHANGED",
      "HISTORY_REUSE",
      "ROOT_REMOVED",
      "ANNOTATION_LOOSENED",
      "MISSING_ANNOTATION",
  };
  return *ids;
}

absl::StatusOr<SchemaPolicy> ParseSchemaPolicy(absl::string_view text, absl::string_view origin) {
  SchemaPolicyProto proto;
  if (absl::Status s = ParseTextProto(text, &proto); !s.ok()) {
    return absl::InvalidArgumentError(
        absl::StrCat(origin, ":", s.message(), " (a SchemaPolicyProto in text format)"));
  }
  SchemaPolicy policy;
  for (const std::string& root : proto.root()) {
    if (root.empty()) {
      return absl::InvalidArgumentError(absl::StrCat(origin, ": root: empty message name"));
    }
    policy.roots.push_back(root);
  }
  switch (proto.annotation_rules()) {
    case SchemaPolicyProto::ANNOTATIONS_ON:
      policy.annotations = SchemaPolicy::Annotations::kOn;
      break;
    case SchemaPolicyProto::ANNOTATIONS_OFF:
      policy.annotations = SchemaPolicy::Annotations::kOff;
      break;
    default:
      policy.annotations = SchemaPolicy::Annotations::kAuto;
      break;
  }
  for (int i = 0; i < proto.bytes_carried_size(); ++i) {
    const auto& c = proto.bytes_carried(i);
    if (c.field().empty() || c.message().empty()) {
      return absl::InvalidArgumentError(absl::StrCat(origin, ": bytes_carried entry ", i + 1,
                                                     " needs both `field` and `message`"));
    }
    policy.bytes_carried.push_back(
        {c.field(), c.message(), c.encoding() == SchemaPolicyProto::JSON});
  }
  const std::vector<std::string>& known = ViolationRuleIds();
  for (const auto& s : proto.severity()) {
    if (std::find(known.begin(), known.end(), s.rule()) == known.end()) {
      return absl::InvalidArgumentError(absl::StrCat(origin, ": severity: unknown rule '", s.rule(),
                                                     "'; the rules are ",
                                                     absl::StrJoin(known, ", ")));
    }
    switch (s.level()) {
      case SchemaPolicyProto::ERROR:
        policy.severities[s.rule()] = RuleSeverity::kError;
        break;
      case SchemaPolicyProto::WARNING:
        policy.severities[s.rule()] = RuleSeverity::kWarning;
        break;
      case SchemaPolicyProto::IGNORE:
        policy.severities[s.rule()] = RuleSeverity::kIgnore;
        break;
      default:
        return absl::InvalidArgumentError(absl::StrCat(
            origin, ": severity of ", s.rule(), ": say `level: ERROR`, `WARNING` or `IGNORE`"));
    }
  }
  return policy;
}

absl::StatusOr<SchemaPolicy> ReadSchemaPolicy(const std::string& path) {
  AOT_ASSIGN_OR_RETURN(std::string text, ReadFileToString(path));
  return ParseSchemaPolicy(text, path);
}

}  // namespace aot
