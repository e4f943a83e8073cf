#ifndef AOT_HARNESS_SCHEMA_SCHEMA_CHECK_H_
#define AOT_HARNESS_SCHEMA_SCHEMA_CHECK_H_

// The schema guard: breaking-change rules for a protobuf schema, checked
// against the whole history of its snapshots (for this project, the
// serialized executable and golden/schema/).
//
// Inputs are standard FileDescriptorSets (protoc --include_imports). The
// contract covers what is reachable from the policy's roots (default
// aot.ExecutableProto; harness/schema/reachability.h), in the head OR in the
// newest snapshot, including messages a policy says travel serialized inside
// bytes fields; findings outside it are reported as notes, never as
// violations. A policy (harness/schema/schema_policy.h) may also re-grade a
// rule to a warning or turn it off.
//
// Rules (stable ids, printed as "[ID] file: element ..."):
//   FIELD_REMOVED_NOT_RESERVED       a field of the newest snapshot is gone
//                                    and its number is not `reserved`.
//   FIELD_NAME_REMOVED_NOT_RESERVED  ... and its name is not `reserved`.
//   ENUM_VALUE_REMOVED_NOT_RESERVED  the same for enum values (number) ...
//   ENUM_VALUE_NAME_REMOVED_NOT_RESERVED  ... and (name).
//   RESERVED_REMOVED                 a reserved number or name of the newest
//                                    snapshot is no longer reserved.
//   RESERVED_REUSED                  a new field / enum value uses a number or
//                                    name reserved in ANY snapshot.
//   FIELD_NUMBER_CHANGED             same name, other number.
//   FIELD_TYPE_CHANGED               another scalar type (even a
//                                    wire-compatible one such as int32 ->
//                                    int64: stricter than buf), another
//                                    map key or value type, or a message /
//                                    enum type that differs in structure.
//   FIELD_CARDINALITY_CHANGED        repeated <-> singular.
//   FIELD_ONEOF_CHANGED              moved into, out of or between oneofs
//                                    (proto3 `optional` synthetic oneofs are
//                                    ignored).
//   FIELD_NAME_CHANGED               same number, other name or JSON name, in
//                                    a message whose names matter (reached
//                                    through typed fields or JSON-carried
//                                    bytes): JSON and text-format data written
//                                    before no longer parse.
//   ENUM_VALUE_NUMBER_CHANGED        same enum value name, other number.
//   ENUM_VALUE_NAME_CHANGED          same number, other name, in an enum whose
//                                    names matter (JSON writes value names).
//   HISTORY_REUSE                    a field or enum value that is new with
//                                    respect to the newest snapshot takes a
//                                    number or name that meant something else
//                                    in some OLDER snapshot, even when that
//                                    removal was never reserved.
//   ROOT_REMOVED                     a root message of the newest snapshot is
//                                    gone from the head.
//   ANNOTATION_LOOSENED              an `(aot.compat)` / `(aot.compat_value)`
//                                    annotation of an existing element changed
//                                    in a way that loosens guarantees:
//                                      * ignorable_by_older_runtimes false->true;
//                                      * runtime_support_since set where it was
//                                        empty (v1) or moved to a later date;
//                                      * emission_flag removed or renamed on an
//                                        element added after the first
//                                        snapshot (its rollout is then no
//                                        longer gated);
//                                      * emission_stopped moved to an earlier
//                                        date (shortens the 6-month window).
//   MISSING_ANNOTATION               a reachable field (oneof cases included)
//                                    new with respect to the newest snapshot
//                                    and absent from the FIRST one has no
//                                    `(aot.compat)` annotation. New enum
//                                    values are reported with their
//                                    (aot.compat_value) annotation but are
//                                    not required to carry one.
// The two annotation rules apply when the policy says so, or by default when
// the head schema defines the (aot.compat) extension (this project's); a
// foreign schema is not held to this project's annotation policy.
//
// Additions (FIELD_ADDED, ONEOF_CASE_ADDED, ENUM_VALUE_ADDED, MESSAGE_ADDED,
// ENUM_ADDED) are reported with what their annotation says. Removed messages
// and enums are notes (their fields' removal is judged through the fields
// that referenced them), and so is TYPE_MOVED: a field whose message or enum
// type has another full name but the same structure.
//
// Renames are judged by structure, not by full name: an enum is the same type
// when it has the same value names and numbers; a message when it has the
// same fields (number, name, JSON name, cardinality, oneof, and recursively
// the same types). Such a type is identical on the wire, in JSON and in text
// format, so moving it to another package or file breaks no data; the
// generated code's names change, which is buf's FILE/PACKAGE concern, not a
// data-compatibility one.
//
// Every rule compares the head with the newest snapshot (the older ones only
// for reuse), so walking a history (CheckSchemaHistory) reports each finding
// once, at the snapshot where it first appears.
//
// Where this differs from `buf breaking --category WIRE_JSON` and why:
//   * History: buf compares against one baseline; a number removed without
//     reservation two snapshots ago and then reused passes buf but is a
//     HISTORY_REUSE here (old artifacts of the 6-month window still carry the
//     old meaning).
//   * Reservation of removed numbers and names, and keeping `reserved` lines:
//     buf's WIRE_JSON has the same (FIELD_NO_DELETE_UNLESS_{NUMBER,NAME}_
//     RESERVED, the ENUM_VALUE_ ones, and RESERVED_MESSAGE_NO_DELETE /
//     RESERVED_ENUM_NO_DELETE), so verdicts agree there.
//   * Type changes: buf allows wire-compatible changes (int32 <-> int64,
//     string <-> bytes ...) in WIRE; any scalar type change is an error here
//     because the runtime's FromProto reads the typed field.
//   * Moved messages: buf reports a field whose message type moved to another
//     package even when the message is identical; here that is TYPE_MOVED, a
//     note (see above). For enums buf already agrees.
//   * Annotations: buf knows nothing of (aot.compat); MISSING_ANNOTATION and
//     ANNOTATION_LOOSENED are ours.
//   * Reachability: buf gates every message of the files; we gate only what
//     is reachable from the roots (the rest is reported as notes), so here we
//     are more lenient.

#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "google/protobuf/descriptor.pb.h"
#include "harness/schema/schema_policy.h"
#include "nlohmann/json.hpp"

namespace aot {

// One schema version: where it came from (a path or a label) and its set.
struct SchemaVersion {
  std::string name;
  google::protobuf::FileDescriptorSet set;
};

struct SchemaFinding {
  std::string rule;     // e.g. "FIELD_REMOVED_NOT_RESERVED"
  std::string file;     // e.g. "proto/executable.proto"
  std::string element;  // e.g. "aot.CopyThunkProto.source"
  std::string message;  // a full sentence naming the element
  // The schema version where it appears, in a history walk (else empty).
  std::string snapshot;
  // Where the element (or, when it is gone, the nearest enclosing one) is
  // declared in the head's sources, 1-based; 0 when the descriptor set has
  // no source info (protoc --include_source_info).
  int line = 0;
  int column = 0;

  // "[RULE] file: message", then " (at SNAPSHOT)" in a history walk.
  std::string ToString() const;
  // "file:line:column:message (RULE)", as `buf breaking` prints (1:1 when
  // the position is unknown), for editors and CI annotations.
  std::string ToBufLine() const;
};

struct SchemaCheckReport {
  std::vector<SchemaFinding> violations;
  std::vector<SchemaFinding> warnings;  // violations a policy re-graded
  std::vector<SchemaFinding> additions;
  std::vector<SchemaFinding> notes;

  bool ok() const { return violations.empty(); }
  bool HasViolation(const std::string& rule) const;
  // {"violations": [{"rule","file","element","message"[,"snapshot"]
  //  [,"line","column"]}], "warnings": [...], "additions": [...],
  //  "notes": [...]}
  nlohmann::ordered_json ToJson() const;
  // Human-readable lines: violations, warnings, additions, notes, then a
  // summary line.
  std::string ToText() const;
  // Violations and warnings as ToBufLine() lines.
  std::string ToBufText() const;
};

// Checks `head` against `history` (oldest first; the last one is the base)
// under `policy`. An empty history is an error. InvalidArgument when a set
// cannot be built into a descriptor pool, when no version has any of the
// roots, or when the policy names a bytes-carried field or message that no
// version defines (or a field that is not string/bytes).
absl::StatusOr<SchemaCheckReport> CheckSchema(const std::vector<SchemaVersion>& history,
                                              const SchemaVersion& head,
                                              const SchemaPolicy& policy = {});

// Walks `versions` (oldest first): each one is checked against those before
// it, and its findings carry its name as `snapshot`. A single version is a
// note, not an error.
absl::StatusOr<SchemaCheckReport> CheckSchemaHistory(const std::vector<SchemaVersion>& versions,
                                                     const SchemaPolicy& policy = {});

// Reads a binary FileDescriptorSet; InvalidArgument naming the path when it
// does not parse or is empty.
absl::StatusOr<google::protobuf::FileDescriptorSet> ReadDescriptorSet(const std::string& path);

// The snapshots at `paths` (oldest first), each named by its path.
absl::StatusOr<std::vector<SchemaVersion>> ReadSchemaHistory(const std::vector<std::string>& paths);

// The snapshot files (*.binpb) of `dir`, sorted by file name (= date order,
// names are <YYYY-MM-DD>-<id>.binpb). NotFound when there is none.
absl::StatusOr<std::vector<std::string>> ListSnapshots(const std::string& dir);

// Writes `set` to `path` (deterministic serialization); AlreadyExists when
// the file exists (snapshots are never overwritten).
absl::Status WriteSnapshot(const std::string& path, const google::protobuf::FileDescriptorSet& set);

// golden/schema/<date>-<first 8 hex of the fingerprint>.binpb under `dir`.
std::string DefaultSnapshotPath(const std::string& dir, const std::string& date,
                                const google::protobuf::FileDescriptorSet& set);

}  // namespace aot

#endif  // AOT_HARNESS_SCHEMA_SCHEMA_CHECK_H_
