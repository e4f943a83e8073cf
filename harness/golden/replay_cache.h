#ifndef AOT_HARNESS_GOLDEN_REPLAY_CACHE_H_
#define AOT_HARNESS_GOLDEN_REPLAY_CACHE_H_

// The golden replay cache: replaying the same bytes twice against the same
// runtime proves nothing new, so a replay's verdict is kept under a key of
// everything it depends on (the runtime fingerprint, the artifact and I/O
// blobs, what this machine makes of the artifact, the load options) and a
// later replay with the same key takes it instead of loading and running
// the artifact again. A compiler-only change leaves the runtime fingerprint
// alone, so old artifacts are not replayed at all; any change to the
// runtime (its sources, build configuration or the shared libraries it
// runs with) is a new fingerprint and a full replay.
//
// Only passes and skips are kept: a failure is always replayed again. Only
// artifacts read from the content-addressed store (format 2: a digest for
// each blob) are cacheable. An entry that cannot be read, does not parse,
// or names another fingerprint or other digests is a miss, never an error.
//
// Libraries the runtime maps only when it needs them (cuDNN's parts, the
// CUDA PTX JIT, NCCL) are not in the fingerprint, taken before the run. A
// verdict stored after such a library was mapped records it ("late
// libraries": path, size, mtime), and the entry is a miss once any of them
// differs on disk.
//
// Layout: <dir>/<key[0:2]>/<key>.json, one small JSON object per verdict,
// each written atomically (concurrent replays sharing a directory are fine:
// the same key always holds the same verdict).

#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "harness/golden/golden_store.h"
#include "harness/golden/replay_record.h"
#include "runtime/executable/client.h"
#include "runtime/runtime_fingerprint.h"
#include "runtime/thunks/thunk.h"

namespace aot {

// Everything a replay's verdict depends on besides the runtime.
struct ReplayCacheKey {
  std::string platform;         // "host", "cuda"
  std::string artifact_digest;  // sha256 of the artifact blob
  std::string io_digest;        // sha256 of the I/O blob
  // What this machine makes of the artifact before loading it: whether a
  // client of the platform executes here (false: no device, or no client),
  // and its capability check of the artifact ("ok", or the error: a CUDA
  // compute capability or an x86-64 level this machine lacks). Two
  // machines sharing a cache directory (an NFS home) get different keys
  // when their verdicts could differ.
  bool can_execute = false;
  std::string capability_verdict;
  LoadOptions load_options;
  bool require_execution = false;
};

// The default directory of `aot-compat replay` and `gate`:
// $XLA_AOT_REPLAY_CACHE when set and not empty, else
// $HOME/.cache/xla-aot/replay; empty (no cache) without HOME.
std::string DefaultReplayCacheDir();

class ReplayCache {
 public:
  // Bumped when what a cached verdict means changes (the entry format, or
  // how replay decides pass and skip), so older entries stop matching.
  static constexpr int kFormat = 1;

  // A cache in `dir` for the runtime whose fingerprint is
  // `runtime_fingerprint` (runtime/runtime_fingerprint.h; tests pass their
  // own).
  ReplayCache(std::string dir, std::string runtime_fingerprint);

  const std::string& dir() const { return dir_; }
  const std::string& runtime_fingerprint() const { return runtime_fingerprint_; }

  // SHA-256 hex of the format, the runtime fingerprint and every field of
  // `key` (each LoadOptions field included).
  std::string Key(const ReplayCacheKey& key) const;
  // <dir>/<key[0:2]>/<key>.json
  std::string EntryPath(const ReplayCacheKey& key) const;

  // The verdict stored under `key`: status (pass or skipped), reason,
  // load_ms and run_ms of the replay that stored it, and the target,
  // version and test it was stored for; nullopt when there is none or the
  // entry is unusable (unreadable, corrupt, another fingerprint or other
  // digests, a status that is not cacheable, a late library that changed).
  std::optional<ReplayRecord> Lookup(const ReplayCacheKey& key) const;

  // Stores a pass or skipped verdict, with the libraries mapped since the
  // fingerprint was taken. InvalidArgument for anything else (a failure is
  // never cached, an expired record is no replay) and for a key without
  // both digests (format 1 versions are never cached); the error of the
  // directory or the write otherwise.
  absl::Status Store(const ReplayCacheKey& key, const ReplayRecord& record,
                     const std::vector<MappedLibrary>& late_libraries = {}) const;

 private:
  std::string dir_;
  std::string runtime_fingerprint_;
};

// One replay run's use of the cache (ReplayGoldens): the keys of its
// artifacts, lookups, and stores that are sound. Thread-safe.
class ReplayCacheRun {
 public:
  // Creates a client of each of `platforms` with `load_options` (what this
  // machine makes of an artifact is then known without loading it), and
  // only then takes the runtime fingerprint of the libraries mapped: those
  // the clients open (the CUDA driver, cuBLAS, cuDNN) are in it.
  ReplayCacheRun(std::string dir, const std::vector<std::string>& platforms,
                 const LoadOptions& load_options, bool require_execution);

  const ReplayCache& cache() const { return cache_; }

  // The key of an artifact of `platform` (one of the constructor's);
  // nullopt when it has no blob digests (format 1: never cached).
  std::optional<ReplayCacheKey> KeyFor(const std::string& platform,
                                       const GoldenArtifact& artifact) const;
  std::optional<ReplayRecord> Lookup(const ReplayCacheKey& key) const { return cache_.Lookup(key); }

  // Stores a pass or skipped verdict (anything else is ignored) with the
  // libraries mapped since the fingerprint was taken (they may have
  // produced it). Not stored when a library of the fingerprint changed on
  // disk during the run (the fingerprint no longer names the files). A
  // verdict not stored is counted in Warning(), never an error of the
  // replay.
  void Store(const ReplayCacheKey& key, const ReplayRecord& record);

  // "" when every cacheable verdict was stored; otherwise how many were
  // not and the first reason.
  std::string Warning() const;

 private:
  LoadOptions load_options_;
  bool require_execution_;
  // Per platform: a client, or why there is none. Declared before
  // libraries_ and cache_: the clients exist when the libraries are listed.
  std::map<std::string, absl::StatusOr<std::unique_ptr<Client>>> clients_;
  // The libraries the fingerprint names.
  std::vector<MappedLibrary> libraries_;
  ReplayCache cache_;
  mutable std::mutex mu_;
  int not_stored_ = 0;
  std::string first_not_stored_;
};

}  // namespace aot

#endif  // AOT_HARNESS_GOLDEN_REPLAY_CACHE_H_
