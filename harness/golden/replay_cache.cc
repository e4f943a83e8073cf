#include "harness/golden/replay_cache.h"

#include <cstdlib>
#include <filesystem>
#include <system_error>
#include <utility>

#include "absl/strings/str_cat.h"
#include "nlohmann/json.hpp"
#include "runtime/runtime_fingerprint.h"
#include "support/file_io.h"
#include "support/sha256.h"

namespace aot {
namespace {

namespace fs = std::filesystem;

// Entries are a few hundred bytes; anything much larger is not one.
constexpr uint64_t kMaxEntryBytes = uint64_t{1} << 20;

// "<length>:<bytes>": fields of the key text are length-prefixed so no
// choice of values (a capability message with a newline, a feature list)
// can make two different keys spell the same text.
std::string Field(absl::string_view name, absl::string_view value) {
  return absl::StrCat(name, " ", value.size(), ":", value, "\n");
}

std::string LoadOptionsText(const LoadOptions& options) {
  // Structured bindings name every field: adding a field to LoadOptions
  // stops this from compiling until the new field is serialized too (a
  // cached verdict must never outlive a load option that changes it).
  const auto& [memory_budget_bytes, max_control_nesting, enable_command_buffers,
               host_cpu_features_override, device_less] = options;
  std::string text;
  absl::StrAppend(&text, Field("memory_budget_bytes", absl::StrCat(memory_budget_bytes)));
  absl::StrAppend(&text, Field("max_control_nesting", absl::StrCat(max_control_nesting)));
  absl::StrAppend(&text, Field("enable_command_buffers", enable_command_buffers ? "1" : "0"));
  std::string features;
  for (const std::string& f : host_cpu_features_override) absl::StrAppend(&features, Field("", f));
  absl::StrAppend(&text, Field("host_cpu_features_override", features));
  absl::StrAppend(&text, Field("device_less", device_less ? "1" : "0"));
  return text;
}

bool Cacheable(ReplayStatus status) {
  return status == ReplayStatus::kPass || status == ReplayStatus::kSkipped;
}

std::map<std::string, absl::StatusOr<std::unique_ptr<Client>>> CreateClients(
    const std::vector<std::string>& platforms, const LoadOptions& options) {
  std::map<std::string, absl::StatusOr<std::unique_ptr<Client>>> clients;
  for (const std::string& platform : platforms) {
    if (!clients.count(platform)) clients.emplace(platform, Client::Create(platform, options));
  }
  return clients;
}

}  // namespace

std::string DefaultReplayCacheDir() {
  const char* env = std::getenv("XLA_AOT_REPLAY_CACHE");
  if (env != nullptr && *env != '\0') return env;
  // $HOME (what ~ means to the shell that ran the tool), not getpwuid: the
  // password database may map NSS modules into the process, and every
  // library mapped is part of the runtime fingerprint.
  const char* home = std::getenv("HOME");
  if (home == nullptr || *home == '\0') return "";
  return (fs::path(home) / ".cache" / "xla-aot" / "replay").string();
}

ReplayCache::ReplayCache(std::string dir, std::string runtime_fingerprint)
    : dir_(std::move(dir)), runtime_fingerprint_(std::move(runtime_fingerprint)) {}

std::string ReplayCache::Key(const ReplayCacheKey& key) const {
  std::string text = absl::StrCat(
      "xla-aot replay cache\n", Field("format", absl::StrCat(kFormat)),
      Field("runtime_fingerprint", runtime_fingerprint_), Field("platform", key.platform),
      Field("artifact_digest", key.artifact_digest), Field("io_digest", key.io_digest),
      Field("can_execute", key.can_execute ? "1" : "0"),
      Field("capability_verdict", key.capability_verdict),
      Field("load_options", LoadOptionsText(key.load_options)),
      Field("require_execution", key.require_execution ? "1" : "0"));
  return Sha256Hex(text);
}

std::string ReplayCache::EntryPath(const ReplayCacheKey& key) const {
  std::string k = Key(key);
  return (fs::path(dir_) / k.substr(0, 2) / (k + ".json")).string();
}

std::optional<ReplayRecord> ReplayCache::Lookup(const ReplayCacheKey& key) const {
  if (key.artifact_digest.empty() || key.io_digest.empty()) return std::nullopt;
  const std::string k = Key(key);
  auto text =
      ReadFileToString((fs::path(dir_) / k.substr(0, 2) / (k + ".json")).string(), kMaxEntryBytes);
  if (!text.ok()) return std::nullopt;  // absent or unreadable: a miss
  nlohmann::json j = nlohmann::json::parse(*text, nullptr, /*allow_exceptions=*/false);
  if (!j.is_object()) return std::nullopt;
  // The path already encodes all of this; the entry repeats it so that a
  // file copied, renamed or edited under another key is not believed.
  auto string_is = [&](const char* name, const std::string& expected) {
    auto it = j.find(name);
    return it != j.end() && it->is_string() && it->get<std::string>() == expected;
  };
  auto number = [&](const char* name) -> std::optional<double> {
    auto it = j.find(name);
    if (it == j.end() || !it->is_number()) return std::nullopt;
    return it->get<double>();
  };
  auto format = j.find("format");
  if (format == j.end() || !format->is_number_integer() || format->get<int>() != kFormat) {
    return std::nullopt;
  }
  if (!string_is("key", k) || !string_is("runtime_fingerprint", runtime_fingerprint_) ||
      !string_is("platform", key.platform) || !string_is("artifact_digest", key.artifact_digest) ||
      !string_is("io_digest", key.io_digest)) {
    return std::nullopt;
  }
  ReplayRecord r;
  if (string_is("status", std::string(ReplayStatusName(ReplayStatus::kPass)))) {
    r.status = ReplayStatus::kPass;
  } else if (string_is("status", std::string(ReplayStatusName(ReplayStatus::kSkipped)))) {
    r.status = ReplayStatus::kSkipped;
  } else {
    return std::nullopt;  // a failure (or anything else) is never taken from the cache
  }
  auto reason = j.find("reason");
  std::optional<double> load_ms = number("load_ms"), run_ms = number("run_ms");
  if (reason == j.end() || !reason->is_string() || !load_ms || !run_ms) return std::nullopt;
  r.reason = reason->get<std::string>();
  r.load_ms = *load_ms;
  r.run_ms = *run_ms;
  // Libraries mapped after the fingerprint was taken, when this verdict was
  // stored: each must still be the same file.
  auto late = j.find("late_libraries");
  if (late == j.end() || !late->is_array()) return std::nullopt;
  for (const auto& library : *late) {
    if (!library.is_object() || !library.contains("path") || !library["path"].is_string() ||
        !library.contains("state") || !library["state"].is_string()) {
      return std::nullopt;
    }
    if (SharedLibraryState(library["path"].get<std::string>()) !=
        library["state"].get<std::string>()) {
      return std::nullopt;
    }
  }
  if (auto it = j.find("target"); it != j.end() && it->is_string()) r.target = *it;
  if (auto it = j.find("version"); it != j.end() && it->is_number_integer()) r.version = *it;
  if (auto it = j.find("test"); it != j.end() && it->is_string()) r.test = *it;
  return r;
}

absl::Status ReplayCache::Store(const ReplayCacheKey& key, const ReplayRecord& record,
                                const std::vector<MappedLibrary>& late_libraries) const {
  if (!Cacheable(record.status)) {
    return absl::InvalidArgumentError(
        absl::StrCat("replay cache: only pass and skipped verdicts are cached, not ",
                     ReplayStatusName(record.status), " (", record.target, " v", record.version,
                     " ", record.test, ")"));
  }
  if (key.artifact_digest.empty() || key.io_digest.empty()) {
    return absl::InvalidArgumentError(
        absl::StrCat("replay cache: ", record.target, " v", record.version, " ", record.test,
                     " has no blob digests (a format 1 version); it is never cached"));
  }
  const std::string k = Key(key);
  const fs::path shard = fs::path(dir_) / k.substr(0, 2);
  std::error_code ec;
  fs::create_directories(shard, ec);
  if (ec) {
    return absl::UnavailableError(
        absl::StrCat("replay cache: cannot create ", shard.string(), ": ", ec.message()));
  }
  nlohmann::ordered_json j;
  j["format"] = kFormat;
  j["key"] = k;
  j["runtime_fingerprint"] = runtime_fingerprint_;
  j["platform"] = key.platform;
  j["artifact_digest"] = key.artifact_digest;
  j["io_digest"] = key.io_digest;
  j["status"] = std::string(ReplayStatusName(record.status));
  j["reason"] = record.reason;
  j["load_ms"] = record.load_ms;
  j["run_ms"] = record.run_ms;
  nlohmann::ordered_json late = nlohmann::ordered_json::array();
  for (const MappedLibrary& library : late_libraries) {
    late.push_back({{"path", library.path}, {"state", library.state}});
  }
  j["late_libraries"] = late;
  // Which replay stored it (shown in reports, not part of the verdict).
  j["target"] = record.target;
  j["version"] = record.version;
  j["test"] = record.test;
  return WriteFileAtomically((shard / (k + ".json")).string(), j.dump(2) + "\n");
}

ReplayCacheRun::ReplayCacheRun(std::string dir, const std::vector<std::string>& platforms,
                               const LoadOptions& load_options, bool require_execution)
    : load_options_(load_options),
      require_execution_(require_execution),
      clients_(CreateClients(platforms, load_options)),
      libraries_(MappedSharedLibraryList()),
      cache_(std::move(dir), RuntimeFingerprintOf(libraries_)) {}

std::optional<ReplayCacheKey> ReplayCacheRun::KeyFor(const std::string& platform,
                                                     const GoldenArtifact& artifact) const {
  if (artifact.artifact_digest.empty() || artifact.io_digest.empty()) return std::nullopt;
  ReplayCacheKey key;
  key.platform = platform;
  key.artifact_digest = artifact.artifact_digest;
  key.io_digest = artifact.io_digest;
  key.load_options = load_options_;
  key.require_execution = require_execution_;
  auto it = clients_.find(platform);
  if (it == clients_.end()) {
    // Not a platform the run announced: no verdict to key by, no caching.
    return std::nullopt;
  }
  if (!it->second.ok()) {
    // Replay skips it the same way ("platform unavailable: ...").
    key.can_execute = false;
    key.capability_verdict = absl::StrCat("platform unavailable: ", it->second.status().ToString());
    return key;
  }
  const Platform* p = (*it->second)->platform();
  key.can_execute = p->CanExecute();
  absl::Status capability = p->CheckCapability(artifact.executable.capability());
  key.capability_verdict = capability.ok() ? "ok" : capability.ToString();
  return key;
}

void ReplayCacheRun::Store(const ReplayCacheKey& key, const ReplayRecord& record) {
  if (!Cacheable(record.status)) return;
  // Both lists are sorted by path: one merge finds the libraries mapped
  // since (late) and those of the fingerprint whose file changed.
  std::vector<MappedLibrary> now = MappedSharedLibraryList(), late;
  std::string changed;
  auto before = libraries_.begin();
  for (const MappedLibrary& library : now) {
    while (before != libraries_.end() && before->path < library.path) ++before;
    if (before == libraries_.end() || before->path != library.path) {
      late.push_back(library);
    } else if (before->state != library.state) {
      changed = library.path;
    }
  }
  absl::Status stored =
      changed.empty() ? cache_.Store(key, record, late)
                      : absl::FailedPreconditionError(absl::StrCat(
                            changed,
                            " changed on disk during the run: the runtime fingerprint no longer "
                            "names the libraries this process runs"));
  if (stored.ok()) return;
  std::lock_guard<std::mutex> lock(mu_);
  if (not_stored_++ == 0) first_not_stored_ = std::string(stored.message());
}

std::string ReplayCacheRun::Warning() const {
  std::lock_guard<std::mutex> lock(mu_);
  if (not_stored_ == 0) return "";
  return absl::StrCat("replay cache: ", not_stored_, " verdict(s) not stored: ", first_not_stored_);
}

}  // namespace aot
