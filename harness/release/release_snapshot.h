#ifndef AOT_HARNESS_RELEASE_RELEASE_SNAPSHOT_H_
#define AOT_HARNESS_RELEASE_RELEASE_SNAPSHOT_H_

// A release as data: what golden/releases/<date>-<id>.json holds, read and
// written as JSON, ordered, and the windows of releases the gate checks
// against. No runtime here (capturing this binary's runtime is release.h),
// so the fuzz build links it alone.

#include <map>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "nlohmann/json.hpp"
#include "support/date.h"

namespace aot {

// What a released runtime can read (ARCHITECTURE.md "Windows, precisely"):
// the forward gate checks the current compiler's output against it, the
// triage diffs two of them. Stored as golden/releases/<date>-<id>.json
// next to the schema snapshot it references.
struct ReleaseAlias {
  std::string alias;
  std::string target;
  std::string expiry;  // YYYY-MM-DD
};

struct ReleaseSnapshot {
  std::string id;    // "<date>-<first 8 hex of the content hash>"
  std::string date;  // YYYY-MM-DD
  // When it was cut (UTC, YYYY-MM-DDTHH:MM:SSZ): orders releases of one day.
  // Absent in the first release.
  std::string cut_at;
  std::string git_commit;
  std::string git_describe;
  // The schema the release reads, relative to the golden directory
  // ("schema/<date>-<id>.binpb"), and its fingerprint.
  std::string descriptor_set;
  std::string schema_fingerprint;
  int abi_version = 0;
  // Toolchain versions the runtime offers ("llvm" -> "19.1.7", and
  // "cuda", "cublas", "ptxas" when built with CUDA).
  std::map<std::string, std::string> toolchain;
  std::vector<std::string> platforms;
  std::vector<std::string> thunk_kinds;  // ThunkProto.impl case names
  std::vector<std::string> hlo_opcodes;
  std::vector<std::string> ffi_handlers;
  std::vector<ReleaseAlias> ffi_aliases;
  // Symbols a host kernel object may import.
  std::vector<std::string> host_kernel_symbols;
  // Defaults of the flags the runtime reads at load (LoadOptions).
  std::map<std::string, std::string> flag_defaults;
  std::vector<std::string> load_passes;
  // Element types its GEMM thunks accept (PrimitiveType names). Releases
  // before the key existed accepted exactly F32 and F64
  // (GemmElementTypesOrDefault).
  std::vector<std::string> gemm_element_types;
  // The runtime's build fingerprint (runtime/runtime_fingerprint.h: its
  // sources and build configuration). Two builds that read the same schema
  // and names may still run artifacts differently (a fix, a new
  // conversion), and only a release's id says which build a deployment
  // runs, so a changed runtime is a new release. Absent from releases cut
  // before the key existed (their ids keep their hash).
  std::string runtime_fingerprint;

  // The GEMM element types: gemm_element_types, or F32 and F64 for a
  // release that predates the key.
  std::vector<std::string> GemmElementTypesOrDefault() const;
  // True when `name` resolves (a handler or an alias of one).
  bool ResolvesFfiName(absl::string_view name) const;
  // The custom-call / FFI names it resolves at `now`: handlers and the
  // aliases not yet past their expiry.
  std::vector<std::string> FfiNamesResolvedAt(const Date& now) const;
  bool KnowsThunkKind(absl::string_view kind) const;
  bool KnowsOpcode(absl::string_view opcode) const;
};

// The hash of what a release can read (everything but its id, date and
// build identity): a release's id ends in its first 8 hex digits.
std::string ReleaseCapabilityHash(const ReleaseSnapshot& release);

nlohmann::ordered_json ReleaseToJson(const ReleaseSnapshot& release);
// InvalidArgument naming `origin` and the bad key.
absl::StatusOr<ReleaseSnapshot> ReleaseFromJson(const nlohmann::json& json,
                                                absl::string_view origin);

// Every golden_dir/releases/*.json, oldest first (date, then cut_at, then
// id). An absent
// directory is an empty list; an unreadable file is an error.
absl::StatusOr<std::vector<ReleaseSnapshot>> LoadReleases(const std::string& golden_dir);

// The order LoadReleases sorts by.
bool ReleaseIsOlder(const ReleaseSnapshot& a, const ReleaseSnapshot& b);

// The runtimes current at any moment of [start, now]: the releases dated
// inside it plus the newest one dated before it. `releases` are oldest
// first (as LoadReleases returns them); releases after `now` are ignored.
struct ReleaseWindow {
  Date start;
  std::vector<ReleaseSnapshot> releases;  // oldest first
  std::vector<std::string> older;         // ids outside the window
};
ReleaseWindow ComputeReleaseWindow(const std::vector<ReleaseSnapshot>& releases, const Date& start,
                                   const Date& now);

// The forward window: [now - 14 days, now].
ReleaseWindow ComputeForwardWindow(const std::vector<ReleaseSnapshot>& releases, const Date& now);

}  // namespace aot

#endif  // AOT_HARNESS_RELEASE_RELEASE_SNAPSHOT_H_
