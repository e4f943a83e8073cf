#ifndef AOT_HARNESS_SCHEMA_SCHEMA_CHECK_H_
#define AOT_HARNESS_SCHEMA_SCHEMA_CHECK_H_

// The schema guard: breaking-change rules for the serialized executable,
// checked against the whole history of schema snapshots (golden/schema/).
//
// Inputs are standard FileDescriptorSets (protoc --include_imports). The
// contract covers what is reachable from aot.ExecutableProto
// (harness/schema/reachability.h), in the head OR in the newest snapshot;
// findings outside it are reported as notes, never as violations.
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
//   FIELD_TYPE_CHANGED               other scalar type or other message/enum
//                                    type name (even wire-compatible ones such
//                                    as int32 -> int64: stricter than buf).
//   FIELD_CARDINALITY_CHANGED        repeated <-> singular.
//   FIELD_ONEOF_CHANGED              moved into, out of or between oneofs
//                                    (proto3 `optional` synthetic oneofs are
//                                    ignored).
//   ENUM_VALUE_NUMBER_CHANGED        same enum value name, other number.
//   HISTORY_REUSE                    a field or enum value that is new with
//                                    respect to the newest snapshot takes a
//                                    number or name that meant something else
//                                    in some OLDER snapshot, even when that
//                                    removal was never reserved.
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
//                                    absent from the FIRST snapshot has no
//                                    `(aot.compat)` annotation. New enum
//                                    values are reported with their
//                                    (aot.compat_value) annotation but are
//                                    not required to carry one.
// Additions (FIELD_ADDED, ONEOF_CASE_ADDED, ENUM_VALUE_ADDED, MESSAGE_ADDED,
// ENUM_ADDED) are reported with what their annotation says. Removed messages
// and enums are notes (their fields' removal is judged through the fields
// that referenced them).
//
// Where this is stricter than `buf breaking --category WIRE_JSON` and why:
//   * History: buf compares against one baseline; a number removed without
//     reservation two snapshots ago and then reused passes buf but is a
//     HISTORY_REUSE here (old artifacts of the 6-month window still carry the
//     old meaning).
//   * Reservation of removed numbers and names: buf's WIRE_JSON has the same
//     (FIELD_NO_DELETE_UNLESS_{NUMBER,NAME}_RESERVED and the ENUM_VALUE_
//     ones), so verdicts agree there; un-reserving is ours alone (buf has
//     no rule against dropping a `reserved` line).
//   * Type changes: buf allows wire-compatible changes (int32 <-> int64,
//     string <-> bytes ...) in WIRE; any type change is an error here because
//     the runtime's FromProto reads the typed field.
//   * Annotations: buf knows nothing of (aot.compat); MISSING_ANNOTATION and
//     ANNOTATION_LOOSENED are ours.
//   * Reachability: buf gates every message of the files; we gate only what
//     is reachable from aot.ExecutableProto (the rest is reported as notes),
//     so here we are more lenient.

#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "google/protobuf/descriptor.pb.h"
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

  // "[RULE] file: message".
  std::string ToString() const;
};

struct SchemaCheckReport {
  std::vector<SchemaFinding> violations;
  std::vector<SchemaFinding> additions;
  std::vector<SchemaFinding> notes;

  bool ok() const { return violations.empty(); }
  bool HasViolation(const std::string& rule) const;
  // {"violations": [{"rule","file","element","message"}], "additions": [...],
  //  "notes": [...]}
  nlohmann::ordered_json ToJson() const;
  // Human-readable lines: violations, additions, notes, then a summary line.
  std::string ToText() const;
};

// Checks `head` against `history` (oldest first; the last one is the base).
// An empty history is an error. InvalidArgument when a set cannot be built
// into a descriptor pool or lacks aot.ExecutableProto.
absl::StatusOr<SchemaCheckReport> CheckSchema(const std::vector<SchemaVersion>& history,
                                              const SchemaVersion& head);

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
