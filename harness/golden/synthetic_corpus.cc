#include "harness/golden/synthetic_corpus.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <filesystem>
#include <map>
#include <memory>
#include <optional>
#include <random>
#include <set>
#include <thread>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "compiler/target/target_config.h"
#include "google/protobuf/text_format.h"
#include "google/protobuf/util/json_util.h"
#include "harness/golden/corpus.h"
#include "harness/golden/golden_ops.h"
#include "harness/golden/golden_store.h"
#include "harness/release/release.h"
#include "harness/release/release_snapshot.h"
#include "harness/schema/schema_check.h"
#include "proto/schema.h"
#include "runtime/platform/host/thread_pool.h"
#include "support/blob_store.h"
#include "support/date.h"
#include "support/file_io.h"
#include "support/proto_util.h"
#include "support/sha256.h"
#include "support/status_macros.h"

namespace aot {

namespace fs = std::filesystem;

std::string SyntheticModuleName(const std::string& test, int copy) {
  return copy == 0 ? test : absl::StrCat(test, "_s", copy);
}

namespace {

using Clock = std::chrono::steady_clock;

double SecondsSince(Clock::time_point start) {
  return std::chrono::duration<double>(Clock::now() - start).count();
}

Date PlusDays(const Date& date, int days) { return date.MinusDays(-days); }

// One module of a target's synthetic corpus: copy `copy` of `base`.
struct PlannedModule {
  const CorpusModule* base = nullptr;
  int copy = 0;
  std::string test;
};

// The target's `count` modules: its suites' modules of the source corpus,
// then renamed copies of them, round after round.
absl::StatusOr<std::vector<PlannedModule>> PlanModules(const std::vector<CorpusModule>& source,
                                                       const GoldenTarget& target, int count) {
  std::vector<const CorpusModule*> base;
  for (const CorpusModule& m : source) {
    if (!ModulesForTarget({m}, target).empty()) base.push_back(&m);
  }
  if (base.empty()) {
    return absl::FailedPreconditionError(
        absl::StrCat("the source corpus has no module for target ", target.name));
  }
  std::vector<PlannedModule> out;
  for (int i = 0; i < count; ++i) {
    PlannedModule p;
    p.base = base[i % base.size()];
    p.copy = i / static_cast<int>(base.size());
    p.test = SyntheticModuleName(p.base->test, p.copy);
    out.push_back(std::move(p));
  }
  return out;
}

// The module text of copy `copy`: the HloModule header names
// "<name>_s<copy>" (a header is added when the module has none), so the
// copy compiles to an artifact of its own.
std::string RenamedModuleText(const std::string& text, const std::string& test, int copy) {
  if (copy == 0) return text;
  size_t pos = 0;
  while (pos < text.size()) {
    const size_t end = std::min(text.find('\n', pos), text.size());
    if (absl::StartsWith(absl::string_view(text).substr(pos, end - pos), "HloModule ")) {
      size_t name_begin = pos + std::string("HloModule ").size();
      while (name_begin < end && text[name_begin] == ' ') ++name_begin;
      size_t name_end = name_begin;
      while (name_end < end && text[name_end] != ' ' && text[name_end] != ',' &&
             text[name_end] != '\t' && text[name_end] != '\r') {
        ++name_end;
      }
      std::string out = text;
      out.insert(name_end, absl::StrCat("_s", copy));
      return out;
    }
    pos = end + 1;
  }
  return absl::StrCat("HloModule ", SyntheticModuleName(test, copy), "\n\n", text);
}

std::string SidecarPath(const std::string& hlo_path) {
  return absl::StrCat(hlo_path.substr(0, hlo_path.size() - std::string(".hlo").size()),
                      ".options.json");
}

// The compiler of version `version`: a git describe and commit of its own.
struct SyntheticCompiler {
  std::string describe;
  std::string commit;
};
SyntheticCompiler CompilerOfVersion(int version) {
  const std::string hash = Sha256Hex(absl::StrCat("synthetic compiler ", version));
  return {absl::StrFormat("synthetic-%d-g%s", version, hash.substr(0, 12)), hash.substr(0, 40)};
}

absl::Status WriteModules(const SyntheticHistoryOptions& options,
                          const std::map<std::string, PlannedModule>& modules) {
  for (const auto& [test, planned] : modules) {
    const fs::path dir = fs::path(options.golden_dir) / "modules" / planned.base->suite;
    std::error_code ec;
    fs::create_directories(dir, ec);
    if (ec) return absl::InternalError(absl::StrCat("cannot create ", dir.string()));
    AOT_ASSIGN_OR_RETURN(std::string text, ReadFileToString(planned.base->path));
    AOT_RETURN_IF_ERROR(WriteFileAtomically((dir / (test + ".hlo")).string(),
                                            RenamedModuleText(text, test, planned.copy)));
    const std::string sidecar = SidecarPath(planned.base->path);
    if (fs::exists(sidecar, ec)) {
      AOT_ASSIGN_OR_RETURN(std::string json, ReadFileToString(sidecar));
      AOT_RETURN_IF_ERROR(WriteFileAtomically((dir / (test + ".options.json")).string(), json));
    }
  }
  return absl::OkStatus();
}

// The source corpus's schema snapshots, and the built-in schema's when none
// of them is it (dated `date`). Returns the built-in schema's snapshot,
// relative to the golden directory (what a release names).
absl::StatusOr<std::string> WriteSchemaSnapshots(const SyntheticHistoryOptions& options,
                                                 const std::string& date) {
  const fs::path dir = fs::path(options.golden_dir) / "schema";
  std::error_code ec;
  fs::create_directories(dir, ec);
  if (ec) return absl::InternalError(absl::StrCat("cannot create ", dir.string()));
  std::string current;
  if (auto snapshots = ListSnapshots(options.source_golden_dir + "/schema"); snapshots.ok()) {
    for (const std::string& path : *snapshots) {
      AOT_ASSIGN_OR_RETURN(std::string bytes, ReadFileToString(path));
      const std::string name = fs::path(path).filename().string();
      AOT_RETURN_IF_ERROR(WriteFileAtomically((dir / name).string(), bytes));
      AOT_ASSIGN_OR_RETURN(auto set, ReadDescriptorSet(path));
      if (DescriptorSetFingerprint(set) == SchemaFingerprint()) current = "schema/" + name;
    }
  }
  if (current.empty()) {
    const std::string path = DefaultSnapshotPath(dir.string(), date, SchemaDescriptorSet());
    AOT_RETURN_IF_ERROR(WriteSnapshot(path, SchemaDescriptorSet()));
    current = "schema/" + fs::path(path).filename().string();
  }
  return current;
}

// What every manifest of `target` shares.
Manifest ManifestTemplate(const GoldenTarget& target, const GoldenArtifact& first) {
  Manifest manifest;
  manifest.target = target.name;
  manifest.schema_fingerprint = SchemaFingerprint();
  manifest.emission_flags = target.emission_flags;
  std::sort(manifest.emission_flags.begin(), manifest.emission_flags.end());
  std::string json;
  google::protobuf::util::JsonPrintOptions json_options;
  (void)google::protobuf::util::MessageToJsonString(first.executable.abi_version(), &json,
                                                    json_options);
  manifest.abi_version = nlohmann::ordered_json::parse(json, nullptr, false);
  if (auto config = ShippedTargetConfig(target.target_config); config.ok()) {
    google::protobuf::TextFormat::PrintToString(*config, &manifest.target_config);
  }
  return manifest;
}

// Distinct blobs written, with their sizes.
struct BlobTally {
  std::map<std::string, uint64_t> artifacts, io;
};

absl::Status CheckOptions(const SyntheticHistoryOptions& options) {
  if (options.golden_dir.empty()) return absl::InvalidArgumentError("golden_dir is empty");
  if (options.versions < 1 || options.modules_per_target < 1 || options.days_per_version < 1 ||
      options.release_every_days < 0 || options.change_fraction < 0 ||
      options.change_fraction > 1) {
    return absl::InvalidArgumentError(absl::StrFormat(
        "bad synthetic history options: versions %d, modules_per_target %d, days_per_version %d, "
        "release_every_days %d, change_fraction %g (need versions, modules and days >= 1, "
        "release_every_days >= 0, change_fraction in [0, 1])",
        options.versions, options.modules_per_target, options.days_per_version,
        options.release_every_days, options.change_fraction));
  }
  return absl::OkStatus();
}

// A history is written only where no corpus is.
absl::Status CheckNoCorpus(const std::string& golden_dir) {
  std::error_code ec;
  for (const char* sub : {"executables", "store"}) {
    if (fs::exists(fs::path(golden_dir) / sub, ec)) {
      return absl::AlreadyExistsError(absl::StrCat(
          golden_dir, "/", sub,
          " exists: a synthetic history is written only into a directory that holds no corpus "
          "yet"));
    }
  }
  return absl::OkStatus();
}

// The targets of `options` and, per target, its planned modules.
struct Plan {
  std::vector<GoldenTarget> targets;
  std::vector<std::vector<PlannedModule>> modules;  // per target
  std::map<std::string, PlannedModule> all;         // test -> module
};
// `source` must outlive the plan (the planned modules point into it).
absl::StatusOr<Plan> MakePlan(const SyntheticHistoryOptions& options,
                              const std::vector<CorpusModule>& source) {
  Plan plan;
  for (const std::string& name :
       options.targets.empty() ? SelectGoldenTargets({}) : options.targets) {
    AOT_ASSIGN_OR_RETURN(GoldenTarget target, FindGoldenTarget(name));
    AOT_ASSIGN_OR_RETURN(auto modules, PlanModules(source, target, options.modules_per_target));
    for (const PlannedModule& p : modules) plan.all.emplace(p.test, p);
    plan.targets.push_back(std::move(target));
    plan.modules.push_back(std::move(modules));
  }
  return plan;
}

}  // namespace

absl::StatusOr<SyntheticSeeds> CompileSyntheticSeeds(const SyntheticHistoryOptions& options) {
  AOT_RETURN_IF_ERROR(CheckOptions(options));
  AOT_ASSIGN_OR_RETURN(auto source, DiscoverModules(options.source_golden_dir));
  AOT_ASSIGN_OR_RETURN(Plan plan, MakePlan(options, source));
  AOT_RETURN_IF_ERROR(WriteModules(options, plan.all));
  SyntheticSeeds seeds;
  seeds.modules = static_cast<int>(plan.all.size());
  for (const GoldenTarget& t : plan.targets) seeds.targets.push_back(t.name);

  // Every (target, module) compiled by the real compiler, from the
  // history's own modules/ (what its verification compiles).
  AOT_ASSIGN_OR_RETURN(auto written, DiscoverModules(options.golden_dir));
  std::map<std::string, const CorpusModule*> by_test;
  for (const CorpusModule& m : written) by_test[m.test] = &m;
  struct SeedJob {
    size_t target = 0;
    const CorpusModule* module = nullptr;
  };
  std::vector<SeedJob> jobs;
  for (size_t t = 0; t < plan.targets.size(); ++t) {
    for (const PlannedModule& p : plan.modules[t]) {
      auto it = by_test.find(p.test);
      if (it == by_test.end()) {
        return absl::InternalError(
            absl::StrCat(p.test, " was not written under ", options.golden_dir, "/modules"));
      }
      jobs.push_back({t, it->second});
    }
  }
  std::vector<std::optional<absl::StatusOr<GoldenArtifact>>> built(jobs.size());
  const int threads = options.jobs > 0
                          ? options.jobs
                          : std::max(1, static_cast<int>(std::thread::hardware_concurrency()));
  auto compile_start = Clock::now();
  {
    std::unique_ptr<ThreadPool> pool =
        threads > 1 ? std::make_unique<ThreadPool>(threads - 1) : nullptr;
    std::atomic<int64_t> started{0};
    // Two phases, never overlapping: the device targets' seeds (their
    // compile forks ptxas; their outputs come from the interpreter), then
    // the host targets' (each runs its artifact, GEMMs through OpenBLAS). A
    // fork runs OpenBLAS's pthread_atfork handler, which stops its worker
    // threads: a GEMM running in another thread at that moment waits for
    // them forever (seen here as a hang in exec_blas).
    std::vector<int64_t> phase;
    auto build = [&](int64_t n) {
      const int64_t i = phase[n];
      const SeedJob& job = jobs[i];
      if (options.progress != nullptr) {
        options.progress->Update(
            absl::StrCat("synthetic history: compile ", plan.targets[job.target].name, ": ",
                         job.module->test),
            ++started, static_cast<int64_t>(jobs.size()));
      }
      auto artifact = BuildArtifact(*job.module, plan.targets[job.target]);
      if (artifact.ok()) {
        // The stamp a corpus generated from the repository root records.
        artifact->executable.mutable_metadata()->set_source_path(
            absl::StrCat("golden/modules/", job.module->suite, "/", job.module->test, ".hlo"));
      }
      built[i] = std::move(artifact);
    };
    for (const bool host : {false, true}) {
      phase.clear();
      for (size_t i = 0; i < jobs.size(); ++i) {
        if ((plan.targets[jobs[i].target].platform == "host") == host) {
          phase.push_back(static_cast<int64_t>(i));
        }
      }
      if (pool != nullptr) {
        pool->ParallelFor(static_cast<int64_t>(phase.size()), build);
      } else {
        for (size_t n = 0; n < phase.size(); ++n) build(static_cast<int64_t>(n));
      }
    }
  }
  seeds.compile_seconds = SecondsSince(compile_start);
  seeds.artifacts.resize(plan.targets.size());
  for (size_t i = 0; i < jobs.size(); ++i) {
    if (!built[i]->ok()) {
      return absl::Status(built[i]->status().code(),
                          absl::StrCat("synthetic history: ", plan.targets[jobs[i].target].name,
                                       ": ", built[i]->status().message()));
    }
    seeds.artifacts[jobs[i].target].push_back(**std::move(built[i]));
  }
  return seeds;
}

absl::StatusOr<SyntheticHistoryStats> WriteSyntheticHistory(const SyntheticHistoryOptions& options,
                                                            const SyntheticSeeds& seeds) {
  AOT_RETURN_IF_ERROR(CheckOptions(options));
  AOT_RETURN_IF_ERROR(CheckNoCorpus(options.golden_dir));
  std::error_code ec;
  AOT_ASSIGN_OR_RETURN(auto source, DiscoverModules(options.source_golden_dir));
  AOT_ASSIGN_OR_RETURN(Plan plan, MakePlan(options, source));
  if (seeds.artifacts.size() != plan.targets.size()) {
    return absl::InvalidArgumentError("the seeds were compiled for other targets");
  }
  for (size_t t = 0; t < plan.targets.size(); ++t) {
    if (seeds.targets[t] != plan.targets[t].name ||
        seeds.artifacts[t].size() != plan.modules[t].size()) {
      return absl::InvalidArgumentError(
          absl::StrCat("the seeds of ", seeds.targets[t], " do not match the options (",
                       seeds.artifacts[t].size(), " modules, the options ask for ",
                       plan.modules[t].size(), " of ", plan.targets[t].name, ")"));
    }
  }
  AOT_RETURN_IF_ERROR(WriteModules(options, plan.all));

  const int span_days = (options.versions - 1) * options.days_per_version;
  Date start;
  if (options.start_date.empty()) {
    AOT_ASSIGN_OR_RETURN(Date today, Date::Parse(TodayDate()));
    start = today.MinusDays(span_days);
  } else {
    AOT_ASSIGN_OR_RETURN(start, Date::Parse(options.start_date));
  }
  SyntheticHistoryStats stats;
  stats.targets = static_cast<int>(plan.targets.size());
  stats.modules = static_cast<int>(plan.all.size());
  stats.seed_artifacts = 0;
  for (const auto& a : seeds.artifacts) stats.seed_artifacts += static_cast<int>(a.size());
  stats.compile_seconds = seeds.compile_seconds;
  stats.first_date = start.ToString();
  stats.last_date = PlusDays(start, span_days).ToString();
  AOT_ASSIGN_OR_RETURN(std::string schema_snapshot, WriteSchemaSnapshots(options, stats.last_date));

  // The versions, target by target.
  auto write_start = Clock::now();
  const BlobStore store = GoldenBlobStore(options.golden_dir);
  BlobTally tally;
  auto blob_size = [&](const char* kind, const std::string& digest) -> absl::StatusOr<uint64_t> {
    auto& sizes = std::string(kind) == kArtifactBlobs ? tally.artifacts : tally.io;
    if (auto it = sizes.find(digest); it != sizes.end()) return it->second;
    std::error_code size_ec;
    const uint64_t size = fs::file_size(store.PathOf(kind, digest), size_ec);
    if (size_ec) return absl::InternalError(absl::StrCat("missing blob ", digest));
    sizes[digest] = size;
    return size;
  };
  for (size_t t = 0; t < plan.targets.size(); ++t) {
    const GoldenTarget& target = plan.targets[t];
    const std::vector<GoldenArtifact>& seed_artifacts = seeds.artifacts[t];
    const Manifest base = ManifestTemplate(target, seed_artifacts.front());
    // Per test: its revision (0: the seed) and its entry in the newest version.
    std::vector<int> revision(seed_artifacts.size(), 0);
    std::vector<ManifestEntry> entries(seed_artifacts.size());
    std::mt19937_64 rng(options.seed * 1000003 + t);
    std::uniform_real_distribution<double> uniform(0.0, 1.0);
    for (int v = 1; v <= options.versions; ++v) {
      if (options.progress != nullptr) {
        options.progress->Update(absl::StrCat("synthetic history: write ", target.name, " v", v), v,
                                 options.versions);
      }
      const SyntheticCompiler compiler = CompilerOfVersion(v);
      Manifest manifest = base;
      manifest.version = v;
      manifest.created = PlusDays(start, (v - 1) * options.days_per_version).ToString();
      manifest.compiler_version = compiler.describe;
      manifest.compiler_commit = compiler.commit;
      const std::string dir = VersionDir(options.golden_dir, target.name, v);
      if (v == 1) {
        // The first version through the store's own writer.
        std::vector<GoldenArtifact> stamped = seed_artifacts;
        for (GoldenArtifact& a : stamped) {
          a.executable.mutable_metadata()->set_compiler_version(compiler.describe);
        }
        AOT_RETURN_IF_ERROR(WriteVersion(dir, stamped, manifest));
        AOT_ASSIGN_OR_RETURN(Manifest first, ReadManifest(dir));
        for (size_t i = 0; i < seed_artifacts.size(); ++i) {
          entries[i] = first.tests.at(seed_artifacts[i].test);
        }
      } else {
        // Later versions: the changed modules' new blobs, then a manifest
        // naming every blob (the unchanged ones are stored already).
        for (size_t i = 0; i < seed_artifacts.size(); ++i) {
          entries[i].compiler_version = compiler.describe;
          if (uniform(rng) >= options.change_fraction) continue;
          ExecutableProto changed = seed_artifacts[i].executable;
          VersionProto* built_with =
              changed.mutable_abi_version()->mutable_llvm()->mutable_built_with();
          built_with->set_patch(built_with->patch() + ++revision[i]);
          AOT_ASSIGN_OR_RETURN(entries[i].artifact,
                               store.Put(kArtifactBlobs, ArtifactBlobBytes(changed)));
          ++stats.changed_artifacts;
        }
        manifest.format = 2;
        for (size_t i = 0; i < seed_artifacts.size(); ++i) {
          manifest.tests[seed_artifacts[i].test] = entries[i];
        }
        fs::create_directories(dir, ec);
        if (ec) return absl::InternalError(absl::StrCat("cannot create ", dir));
        AOT_RETURN_IF_ERROR(
            WriteFileAtomically(dir + "/MANIFEST.json", manifest.ToJson().dump(2) + "\n"));
      }
      for (const ManifestEntry& e : entries) {
        AOT_ASSIGN_OR_RETURN(uint64_t artifact_size, blob_size(kArtifactBlobs, e.artifact));
        AOT_ASSIGN_OR_RETURN(uint64_t io_size, blob_size(kIoBlobs, e.io));
        stats.logical_bytes += artifact_size + io_size;
      }
      ++stats.versions;
      stats.entries += static_cast<int>(entries.size());
    }
    if (options.progress != nullptr) {
      options.progress->Line(absl::StrFormat("synthetic history: %s: %d versions of %d modules",
                                             target.name, options.versions,
                                             static_cast<int>(seed_artifacts.size())));
    }
  }
  for (const auto& [digest, size] : tally.artifacts) stats.artifact_bytes += size;
  for (const auto& [digest, size] : tally.io) stats.io_bytes += size;
  stats.distinct_artifacts = static_cast<int>(tally.artifacts.size());
  stats.distinct_io = static_cast<int>(tally.io.size());

  // The releases: this binary's runtime, every release_every_days.
  if (options.release_every_days > 0) {
    ReleaseSnapshot runtime = CaptureRuntimeCapabilities();
    runtime.descriptor_set = schema_snapshot;
    const fs::path releases = fs::path(options.golden_dir) / "releases";
    fs::create_directories(releases, ec);
    if (ec) return absl::InternalError(absl::StrCat("cannot create ", releases.string()));
    for (int day = 0; day <= span_days; day += options.release_every_days) {
      ReleaseSnapshot release = runtime;
      release.date = PlusDays(start, day).ToString();
      release.cut_at = absl::StrCat(release.date, "T12:00:00Z");
      // Built from the commit of the version of its day.
      const SyntheticCompiler built = CompilerOfVersion(1 + day / options.days_per_version);
      release.git_describe = built.describe;
      release.git_commit = built.commit;
      release.id = absl::StrCat(release.date, "-", ReleaseCapabilityHash(release).substr(0, 8));
      AOT_RETURN_IF_ERROR(WriteFileAtomically((releases / (release.id + ".json")).string(),
                                              ReleaseToJson(release).dump(2) + "\n"));
      ++stats.releases;
    }
  }
  stats.write_seconds = SecondsSince(write_start);
  return stats;
}

absl::StatusOr<SyntheticHistoryStats> WriteSyntheticHistory(
    const SyntheticHistoryOptions& options) {
  AOT_RETURN_IF_ERROR(CheckOptions(options));
  AOT_RETURN_IF_ERROR(CheckNoCorpus(options.golden_dir));
  AOT_ASSIGN_OR_RETURN(SyntheticSeeds seeds, CompileSyntheticSeeds(options));
  return WriteSyntheticHistory(options, seeds);
}

}  // namespace aot
