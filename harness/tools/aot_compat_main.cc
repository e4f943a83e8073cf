// aot-compat: the compatibility harness's command-line entry point.
#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "absl/algorithm/container.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "compiler/rollout/emission_ledger.h"
#include "compiler/tooling/compile_tool.h"
#include "compiler/tooling/flags.h"
#include "google/protobuf/text_format.h"
#include "harness/gate/gate.h"
#include "harness/gate/qualification.h"
#include "harness/golden/corpus.h"
#include "harness/golden/corpus_store.h"
#include "harness/golden/golden_ops.h"
#include "harness/golden/replay_cache.h"
#include "harness/lint/fallback_lint.h"
#include "harness/release/forward_check.h"
#include "harness/release/old_build.h"
#include "harness/release/old_runs.h"
#include "harness/release/release.h"
#include "harness/release/rollout_audit.h"
#include "harness/report/tool_versions.h"
#include "harness/schema/schema_check.h"
#include "harness/schema/schema_history.h"
#include "harness/schema/schema_policy.h"
#include "harness/triage/git_sources.h"
#include "harness/triage/triage.h"
#include "nlohmann/json.hpp"
#include "proto/message_diff.h"
#include "proto/schema.h"
#include "runtime/platform/host/cpu_features.h"
#include "support/build_info.h"
#include "support/date.h"
#include "support/file_io.h"
#include "support/proto_util.h"

namespace aot {
namespace {

namespace fs = std::filesystem;

constexpr char kProgram[] = "aot-compat";

constexpr char kCommands[] =
    "Commands:\n"
    "  version              Print the versions of the project, its schema\n"
    "                       fingerprint and its dependencies.\n"
    "  schema-fingerprint   Print the schema fingerprint (SHA-256 of the\n"
    "                       descriptor set) alone.\n"
    "  generate             Compile the corpus; write golden v<N+1> for a target\n"
    "                       only when the output differs from v<N>.\n"
    "  replay               Load and run golden versions (boundary versions, or\n"
    "                       all) with the current runtime; compare outputs.\n"
    "  verify               Compile the corpus and compare with the newest golden\n"
    "                       version (structural diff, or bytes with --strict).\n"
    "  prune                Delete golden versions expired at --now (outside the\n"
    "                       6-month backward window) and the blobs only they named.\n"
    "  show                 Print one golden test (TARGET/vN/TEST) as text.\n"
    "  diff                 Field-path differences between two golden tests.\n"
    "  fsck                 Check every manifest and blob of the corpus store.\n"
    "  repack               Move per-file (format 1) versions into the store, checked.\n"
    "  lint                 Fallback expiry lint of runtime/ and the emission-flag\n"
    "                       ledger check (staged rollout) at --now.\n"
    "  schema-snapshot      Write the built-in schema (a FileDescriptorSet) to\n"
    "                       golden/schema/<date>-<id>.binpb.\n"
    "  schema-check         Check the schema against every snapshot: breaking\n"
    "                       changes, reservations, annotations.\n"
    "  release              Cut a release: this runtime's capability snapshot to\n"
    "                       golden/releases/<date>-<id>.json.\n"
    "  forward-check        Check this compiler's output against the releases of\n"
    "                       the 2-week forward window (or build an old runtime /\n"
    "                       compiler from git and run across versions).\n"
    "  gate                 schema-check + backward + forward + ledger + rollout +\n"
    "                       lint + verify at --now: one verdict with each blocker's fix.\n"
    "  rollout-audit        Every emission flag against every release's built\n"
    "                       runtime (recorded runs of its flag-on goldens; --build\n"
    "                       makes the missing ones): first release, switch date.\n"
    "  report               Run the gate and write a release qualification report\n"
    "                       (report.json, junit.xml, index.html).\n"
    "  triage               Is my change safe? The decision tree of CONTRACT.md s. 5\n"
    "                       from the differences between --base=REF and the head.\n"
    "\nRun 'aot-compat COMMAND --help' for a command's flags.\n";

// Writes `json` to `path` when one was given (--json=). Returns the exit
// code when the write failed.
std::optional<int> WriteJsonOutput(const std::string& path, const nlohmann::ordered_json& json) {
  if (path.empty()) return std::nullopt;
  if (absl::Status s = WriteFileAtomically(path, json.dump(2) + "\n"); !s.ok()) {
    return ReportToolError(kProgram, s, 2);
  }
  return std::nullopt;
}

int Version(int argc, char** argv) {
  bool json = false;
  FlagSet flags(absl::StrCat(kProgram, " version"), absl::StrCat(kProgram, " version [--json]"),
                "Prints the project's git describe, runtime ABI version, schema "
                "fingerprint\nand the versions of LLVM, protobuf, Abseil, "
                "OpenBLAS and CUDA it was built with.");
  flags.AddBool("json", &json, "Print a JSON object instead of a table.");
  flags.ParseOrExit(argc, argv, /*first=*/2, /*allow_positional=*/false);
  auto versions = ToolVersions();
  if (json) {
    nlohmann::ordered_json out;
    for (const auto& [name, value] : versions) out[name] = value;
    std::printf("%s\n", out.dump(2).c_str());
    return 0;
  }
  for (const auto& [name, value] : versions) {
    std::printf("%-20s %s\n", name.c_str(), value.c_str());
  }
  return 0;
}

std::string TargetHelp() {
  return absl::StrCat("Golden target (repeatable or comma-separated): ",
                      absl::StrJoin(SelectGoldenTargets({}), ", "), ". Default: all.");
}

int Generate(int argc, char** argv) {
  std::string golden_dir = "golden";
  std::vector<std::string> targets;
  std::string date = TodayDate();
  FlagSet flags("aot-compat generate",
                "aot-compat generate [--golden_dir=DIR] [--target=T]... [--date=YYYY-MM-DD]",
                "Compiles every module of DIR/modules for each target and writes\n"
                "DIR/executables/<target>/v<N+1> only if the result differs from v<N> under\n"
                "golden verification. Existing versions are never touched; a version is\n"
                "written to a temporary directory and renamed into place.");
  flags.AddString("golden_dir", &golden_dir, "The corpus root.");
  flags.AddList("target", &targets, TargetHelp());
  flags.AddString("date", &date, "The 'created' date recorded in MANIFEST.json.");
  std::vector<std::string> emission_flags;
  AddEmissionFlagsFlag(flags, &emission_flags);
  bool allow_dirty = false;
  flags.AddBool("allow_dirty", &allow_dirty,
                "Generate even when this binary was not built from the golden directory's "
                "HEAD commit, or its modules/ has uncommitted changes (scratch corpora, "
                "experiments: such goldens name no commit that made them).");
  flags.ParseOrExit(argc, argv, /*first=*/2, /*allow_positional=*/false);
  if (!allow_dirty) {
    absl::Status clean =
        CheckGeneratedFromCleanCommit(golden_dir, BuildGitDescribe(), BuildGitCommit());
    if (!clean.ok()) return ReportToolError(kProgram, clean, 1);
  }
  Progress progress;  // on stderr when it is a terminal
  auto results =
      GenerateGoldens(golden_dir, SelectGoldenTargets(targets), date, &progress, emission_flags);
  if (!results.ok()) return ReportToolError(kProgram, results.status(), 1);
  for (const GenerateResult& r : *results) {
    std::printf("%-16s %s\n", r.target.c_str(), r.message.c_str());
  }
  return 0;
}

// --cache_dir and --no_cache (replay, gate, report): the replay cache's
// directory, DefaultReplayCacheDir() unless given, none with --no_cache.
struct ReplayCacheFlags {
  std::string cache_dir = DefaultReplayCacheDir();
  bool no_cache = false;
  void Add(FlagSet& flags) {
    flags.AddString("cache_dir", &cache_dir,
                    "The replay cache: a test whose artifact and I/O blobs this same runtime "
                    "(its runtime fingerprint: its sources, build and shared libraries) already "
                    "passed or skipped takes that verdict without loading; failures are never "
                    "cached. The gate and report also keep the corpus compiled there "
                    "(compile/): a module this same binary compiled for the same target is not "
                    "compiled again. Default: $XLA_AOT_REPLAY_CACHE, else "
                    "~/.cache/xla-aot/replay.");
    flags.AddBool("no_cache", &no_cache,
                  "Replay and compile everything: neither read nor write the caches.");
  }
  std::string Dir() const { return no_cache ? "" : cache_dir; }
};

int Replay(int argc, char** argv) {
  std::string golden_dir = "golden";
  std::vector<std::string> targets;
  bool all_versions = false;
  std::string json_path;
  FlagSet flags("aot-compat replay",
                "aot-compat replay [--golden_dir=DIR] [--target=T]... [--all_versions] "
                "[--jobs=N] [--json=OUT.json] [--require_execution] [--cache_dir=DIR | "
                "--no_cache]",
                "Loads each selected golden version of each target with the current\n"
                "runtime, oldest to newest, runs it on its recorded inputs and compares\n"
                "with the recorded outputs (bitwise unless the test declares a tolerance).\n"
                "Versions are discovered positionally (v<int> directories with artifacts).\n"
                "By default the boundary versions are replayed (the oldest and the second\n"
                "newest; all when there are two or fewer); --all_versions or\n"
                "XLA_AOT_TEST_ALL_VERSIONS=1 replays every version. MANIFEST.json sha256\n"
                "sums are checked first. A test this runtime already replayed (the same\n"
                "blobs, runtime fingerprint, machine verdict and load options) takes its\n"
                "pass or skip from the replay cache (--cache_dir) without loading; a\n"
                "runtime change replays everything, --no_cache forces it. Exit 1 on any\n"
                "failure.");
  flags.AddString("golden_dir", &golden_dir, "The corpus root.");
  flags.AddList("target", &targets, TargetHelp());
  flags.AddBool("all_versions", &all_versions, "Replay every version.");
  flags.AddString("json", &json_path, "Write the per-artifact results and a summary as JSON.");
  bool require_execution = false;
  flags.AddBool("require_execution", &require_execution,
                "Fail (not skip) an artifact this machine cannot execute: no device for its "
                "platform, or a capability mismatch.");
  int64_t jobs = 0;
  flags.AddInt("jobs", &jobs,
               "Artifacts replayed at once (0: one per hardware thread, at most 8; 1: serial).");
  std::string now;
  flags.AddString("now", &now,
                  "Backward-window mode (YYYY-MM-DD): replay every version current in the 6 "
                  "months before this date (those created inside the window and the newest one "
                  "before it); older versions are reported expired, never failures.");
  ReplayCacheFlags cache;
  cache.Add(flags);
  flags.ParseOrExit(argc, argv, /*first=*/2, /*allow_positional=*/false);
  auto env_all = AllVersionsFromEnvironment();
  if (!env_all.ok()) return ReportToolError(kProgram, env_all.status(), 2);
  ReplayOptions options;
  options.golden_dir = golden_dir;
  options.targets = SelectGoldenTargets(targets);
  options.all_versions = all_versions || *env_all;
  options.require_execution = require_execution;
  options.cache_dir = cache.Dir();
  Progress progress;  // on stderr when it is a terminal
  options.progress = &progress;
  options.now = now;
  if (jobs < 0 || jobs > 1024) {
    return ReportToolError(
        kProgram, UsageError(absl::InvalidArgumentError("--jobs must be between 0 and 1024")), 2);
  }
  options.jobs = static_cast<int>(jobs);
  auto report = ReplayGoldens(options);
  if (!report.ok()) return ReportToolError(kProgram, report.status(), 2);
  for (const ReplayRecord& r : report->records) {
    if (r.status != ReplayStatus::kPass) {
      std::printf("%-8s %s v%d %s: %s\n", std::string(ReplayStatusName(r.status)).c_str(),
                  r.target.c_str(), r.version, r.test.c_str(), r.reason.c_str());
    }
  }
  if (!report->cache_warning.empty()) {
    std::fprintf(stderr, "%s: warning: %s\n", kProgram, report->cache_warning.c_str());
  }
  std::printf("replay: %d passed, %d failed, %d skipped, %d expired%s\n", report->passed,
              report->failed, report->skipped, report->expired,
              options.cache_dir.empty()
                  ? ""
                  : absl::StrCat("; ", report->cached, " from the replay cache").c_str());
  if (std::optional<int> failed = WriteJsonOutput(json_path, report->ToJson())) return *failed;
  return report->ok() ? 0 : 1;
}

int Prune(int argc, char** argv) {
  std::string golden_dir = "golden";
  std::vector<std::string> targets;
  std::string now = TodayDate();
  bool dry_run = false;
  FlagSet flags("aot-compat prune",
                "aot-compat prune [--golden_dir=DIR] [--target=T]... [--now=YYYY-MM-DD] "
                "[--dry_run]",
                "Deletes golden versions that are expired at --now: created before the\n"
                "6-month backward window and superseded by a version also created before\n"
                "it. Versions inside the window (and the newest one before it) are never\n"
                "deleted.");
  flags.AddString("golden_dir", &golden_dir, "The corpus root.");
  flags.AddList("target", &targets, TargetHelp());
  flags.AddString("now", &now, "The date the window ends on.");
  flags.AddBool("dry_run", &dry_run, "List what would be deleted, delete nothing.");
  flags.ParseOrExit(argc, argv, /*first=*/2, /*allow_positional=*/false);
  for (const std::string& target : SelectGoldenTargets(targets)) {
    std::vector<std::string> blobs;
    auto pruned = PruneExpired(golden_dir, target, now, dry_run, &blobs);
    if (!pruned.ok()) return ReportToolError(kProgram, pruned.status(), 2);
    std::vector<std::string> names;
    for (int v : *pruned) names.push_back(absl::StrCat("v", v));
    std::printf("%-16s %s %s", target.c_str(), dry_run ? "would prune" : "pruned",
                names.empty() ? "nothing" : absl::StrJoin(names, ", ").c_str());
    if (!blobs.empty()) {
      std::printf(" (%zu blob%s no other version names %s)", blobs.size(),
                  blobs.size() == 1 ? "" : "s", dry_run ? "would retire" : "retired");
    }
    std::printf("\n");
  }
  return 0;
}

// TARGET/vN/TEST read from the corpus, or a usage error naming the form.
absl::StatusOr<GoldenArtifact> ReadRefArgument(const std::string& golden_dir,
                                               const std::string& text) {
  auto ref = ParseGoldenRef(text);
  if (!ref.ok()) return UsageError(ref.status());
  return ReadGoldenRef(golden_dir, *ref);
}

int Show(int argc, char** argv) {
  std::string golden_dir = "golden";
  std::string part = "artifact";
  std::string out;
  FlagSet flags("aot-compat show",
                "aot-compat show TARGET/vN/TEST [--part=artifact|io|entry] [--out=FILE]",
                "Prints one golden test of the corpus as its version holds it: the\n"
                "artifact (ExecutableProto, text format, with the build stamp its version\n"
                "recorded), its recorded inputs and outputs (GoldenIoProto), or its\n"
                "manifest entry (blob digests and paths, stamp). With --out the part is\n"
                "written to FILE instead: binary when FILE ends in .pb, text otherwise\n"
                "(what aot-run and the runtime's loaders take). Exit 2 on a bad reference,\n"
                "a missing test or a missing or corrupted blob.");
  flags.AddString("golden_dir", &golden_dir, "The corpus root.");
  flags.AddString("part", &part, "artifact, io or entry.");
  flags.AddString("out", &out, "Write to this file instead of stdout.");
  std::vector<std::string> args = flags.ParseOrExit(argc, argv, /*first=*/2);
  if (args.size() != 1) {
    return ReportToolError(
        kProgram, UsageError(absl::InvalidArgumentError("show takes one TARGET/vN/TEST")), 2);
  }
  if (part != "artifact" && part != "io" && part != "entry") {
    return ReportToolError(kProgram,
                           UsageError(absl::InvalidArgumentError(absl::StrCat(
                               "--part must be artifact, io or entry, not '", part, "'"))),
                           2);
  }
  auto artifact = ReadRefArgument(golden_dir, args[0]);
  if (!artifact.ok()) return ReportToolError(kProgram, artifact.status(), 2);
  const bool binary = absl::EndsWith(out, ".pb");
  std::string bytes;
  if (part == "entry") {
    auto ref = ParseGoldenRef(args[0]);
    auto manifest = ReadManifest(GoldenRefDir(golden_dir, *ref));
    if (!manifest.ok()) return ReportToolError(kProgram, manifest.status(), 2);
    nlohmann::ordered_json j;
    j["test"] = ref->ToString();
    j["format"] = manifest->format;
    const BlobStore store = GoldenBlobStore(golden_dir);
    if (manifest->format == 2) {
      const ManifestEntry& e = manifest->tests.at(ref->test);
      j["artifact"] = e.artifact;
      j["artifact_blob"] = store.PathOf(kArtifactBlobs, e.artifact);
      j["io"] = e.io;
      j["io_blob"] = store.PathOf(kIoBlobs, e.io);
      j["compiler_version"] = e.compiler_version;
      j["source_path"] = e.source_path;
    }
    bytes = j.dump(2) + "\n";
  } else if (part == "io") {
    bytes = binary ? SerializeDeterministic(artifact->io) : [&] {
      std::string text;
      google::protobuf::TextFormat::PrintToString(artifact->io, &text);
      return text;
    }();
  } else {
    bytes =
        binary ? SerializeDeterministic(artifact->executable) : ArtifactText(artifact->executable);
  }
  if (out.empty()) {
    std::fwrite(bytes.data(), 1, bytes.size(), stdout);
    return 0;
  }
  if (absl::Status s = WriteFileAtomically(out, bytes); !s.ok()) {
    return ReportToolError(kProgram, s, 2);
  }
  return 0;
}

int Diff(int argc, char** argv) {
  std::string golden_dir = "golden";
  bool verification = false;
  FlagSet flags("aot-compat diff", "aot-compat diff TARGET/vN/TEST TARGET/vM/TEST [--verification]",
                "Prints the differences between two golden tests (artifact and recorded\n"
                "I/O), one line per field path (\"modified: thunks[2].kernel.name: ...\").\n"
                "With --verification the fields golden verification ignores (kernel\n"
                "binaries, toolchain versions, the build stamp) are left out. When both\n"
                "name the same blobs it says so. Exit 0 when equal, 1 when they differ,\n"
                "2 on bad input.");
  flags.AddString("golden_dir", &golden_dir, "The corpus root.");
  flags.AddBool("verification", &verification,
                "Ignore what golden verification ignores (aot-compat verify).");
  std::vector<std::string> args = flags.ParseOrExit(argc, argv, /*first=*/2);
  if (args.size() != 2) {
    return ReportToolError(
        kProgram,
        UsageError(absl::InvalidArgumentError("diff takes two TARGET/vN/TEST references")), 2);
  }
  auto a = ReadRefArgument(golden_dir, args[0]);
  if (!a.ok()) return ReportToolError(kProgram, a.status(), 2);
  auto b = ReadRefArgument(golden_dir, args[1]);
  if (!b.ok()) return ReportToolError(kProgram, b.status(), 2);
  if (!a->artifact_digest.empty() && a->artifact_digest == b->artifact_digest &&
      a->io_digest == b->io_digest) {
    std::printf("same artifact and I/O blobs (%s, %s)\n", a->artifact_digest.substr(0, 12).c_str(),
                a->io_digest.substr(0, 12).c_str());
  }
  std::string diff = verification
                         ? DiffMessages(a->executable, b->executable, VerificationIgnoreList())
                         : DiffMessages(a->executable, b->executable);
  std::string io_diff = DiffMessages(a->io, b->io);
  if (diff.empty() && io_diff.empty()) {
    std::printf("%s and %s: equal%s\n", args[0].c_str(), args[1].c_str(),
                verification ? " under verification" : "");
    return 0;
  }
  if (!diff.empty()) std::printf("artifact:\n%s", diff.c_str());
  if (!io_diff.empty()) std::printf("io:\n%s", io_diff.c_str());
  return 1;
}

int Fsck(int argc, char** argv) {
  std::string golden_dir = "golden";
  bool remove_unreferenced = false;
  std::string json_path;
  FlagSet flags("aot-compat fsck",
                "aot-compat fsck [--golden_dir=DIR] [--remove_unreferenced] [--json=OUT.json]",
                "Checks the whole corpus: every MANIFEST.json reads, every blob a manifest\n"
                "names exists and hashes to its name (each blob read once), version\n"
                "directories hold nothing else, per-file (format 1) versions match their\n"
                "sha256. Reports dangling references (missing blobs) and unreferenced\n"
                "blobs (no manifest names them: left by a killed writer, or after a\n"
                "manual removal); --remove_unreferenced deletes those when nothing else\n"
                "is wrong. Exit 0 clean, 1 on any error.");
  flags.AddString("golden_dir", &golden_dir, "The corpus root.");
  flags.AddBool("remove_unreferenced", &remove_unreferenced,
                "Delete the blobs no manifest names (only when no error is found).");
  flags.AddString("json", &json_path, "Write the report as JSON.");
  flags.ParseOrExit(argc, argv, /*first=*/2, /*allow_positional=*/false);
  std::error_code ec;
  if (!fs::is_directory(fs::path(golden_dir) / "executables", ec)) {
    return ReportToolError(kProgram,
                           absl::NotFoundError(absl::StrCat(golden_dir,
                                                            "/executables does not exist: not a "
                                                            "golden corpus (--golden_dir)")),
                           2);
  }
  FsckReport report = FsckCorpus(golden_dir, remove_unreferenced);
  std::fputs(report.Summary().c_str(), stdout);
  if (std::optional<int> failed = WriteJsonOutput(json_path, report.ToJson())) return *failed;
  return report.ok() ? 0 : 1;
}

int Repack(int argc, char** argv) {
  std::string golden_dir = "golden";
  std::vector<std::string> targets;
  FlagSet flags("aot-compat repack", "aot-compat repack [--golden_dir=DIR] [--target=T]...",
                "Moves per-file golden versions (format 1: <test>.pbtxt + <test>.io.pb) into\n"
                "the content-addressed store, once, checked: each file against its\n"
                "MANIFEST.json sha256, then each artifact and I/O record stored, then every\n"
                "file rebuilt from the store and compared byte for byte; only then is the\n"
                "manifest replaced (atomically, keeping each file's sha256) and the files\n"
                "removed. No version is renumbered or regenerated. Safe to run again after\n"
                "an interruption; versions already in the store are left as they are.");
  flags.AddString("golden_dir", &golden_dir, "The corpus root.");
  flags.AddList("target", &targets, "Targets to repack (default: every target directory).");
  flags.ParseOrExit(argc, argv, /*first=*/2, /*allow_positional=*/false);
  int repacked = 0, already = 0, new_blobs = 0;
  uint64_t bytes_before = 0;
  for (const StoredVersion& v : ListStoredVersions(golden_dir)) {
    if (!targets.empty() && !absl::c_linear_search(targets, v.target)) continue;
    auto result = RepackVersion(v.dir);
    if (!result.ok()) return ReportToolError(kProgram, result.status(), 1);
    if (!result->repacked) {
      ++already;
      continue;
    }
    ++repacked;
    new_blobs += result->new_blobs;
    bytes_before += result->bytes_before;
    std::printf("repacked %s v%d: %d tests, %d new blobs\n", v.target.c_str(), v.version,
                result->tests, result->new_blobs);
  }
  std::printf(
      "repack: %d versions moved into the store (%.1f MB of files, %d new blobs), %d "
      "already there\n",
      repacked, bytes_before / 1e6, new_blobs, already);
  return 0;
}

int Verify(int argc, char** argv) {
  std::string golden_dir = "golden";
  std::vector<std::string> targets;
  bool strict = false;
  FlagSet flags("aot-compat verify",
                "aot-compat verify [--golden_dir=DIR] [--target=T]... [--strict]",
                "Compiles every module with the current compiler and compares with the\n"
                "newest golden version: a structural, field-order-insensitive diff that\n"
                "ignores kernel binaries, toolchain versions (built_with), the compiler's\n"
                "git describe and debug paths; --strict demands byte identity. A\n"
                "difference prints the diff and says to generate v<N+1>.");
  flags.AddString("golden_dir", &golden_dir, "The corpus root.");
  flags.AddList("target", &targets, TargetHelp());
  flags.AddBool("strict", &strict, "Byte-identical artifacts.");
  flags.ParseOrExit(argc, argv, /*first=*/2, /*allow_positional=*/false);
  auto results = VerifyGoldens(golden_dir, SelectGoldenTargets(targets), strict);
  if (!results.ok()) return ReportToolError(kProgram, results.status(), 2);
  bool ok = true;
  for (const VerifyResult& r : *results) {
    if (r.ok) {
      std::printf("verify %-16s v%d: ok\n", r.target.c_str(), r.version);
      continue;
    }
    ok = false;
    std::printf("verify %-16s v%d: DIFFERS\n%s", r.target.c_str(), r.version, r.diff.c_str());
    std::printf(
        "The current compiler no longer reproduces %s v%d. If the change is intended,\n"
        "run `aot-compat generate --target=%s` to write v%d.\n",
        r.target.c_str(), r.version, r.target.c_str(), r.version + 1);
  }
  return ok ? 0 : 1;
}

int SchemaSnapshot(int argc, char** argv) {
  std::string out;
  std::string dir = "golden/schema";
  std::string date = TodayDate();
  FlagSet flags("aot-compat schema-snapshot",
                "aot-compat schema-snapshot [--out=golden/schema/<date>-<id>.binpb]",
                "Writes the schema this binary was built with as a standard\n"
                "FileDescriptorSet (what protoc --include_imports --descriptor_set_out\n"
                "writes). The default name is <dir>/<date>-<first 8 hex of the schema\n"
                "fingerprint>.binpb. An existing file is never overwritten.");
  flags.AddString("out", &out, "The snapshot file to write.");
  flags.AddString("dir", &dir, "Directory of the default --out.");
  flags.AddString("date", &date, "Date of the default --out (YYYY-MM-DD).");
  flags.ParseOrExit(argc, argv, /*first=*/2, /*allow_positional=*/false);
  google::protobuf::FileDescriptorSet set = SchemaDescriptorSet();
  if (out.empty()) out = DefaultSnapshotPath(dir, date, set);
  if (absl::Status s = WriteSnapshot(out, set); !s.ok()) return ReportToolError(kProgram, s, 2);
  std::printf("%s\n", out.c_str());
  return 0;
}

int SchemaCheck(int argc, char** argv) {
  std::vector<std::string> bases;
  std::string head_path;
  std::string json_path;
  std::string dir = "golden/schema";
  std::vector<std::string> roots;
  std::string policy_path;
  std::string history_dir;
  GitSchemaSource git;
  std::string format = "text";
  FlagSet flags(
      "aot-compat schema-check",
      "aot-compat schema-check [--base=SET.binpb]... [--head=SET.binpb] [options]\n"
      "  aot-compat schema-check --history=DIR [--head=SET.binpb] [options]\n"
      "  aot-compat schema-check --git=REPO --path=FILE.proto... [--include=DIR]... [options]",
      "Checks a protobuf schema against the history of its snapshots: removed\n"
      "fields and enum values must be reserved; numbers, types (map keys and\n"
      "values included), cardinality and oneof membership never change; names\n"
      "never change where JSON or text format carry them; numbers and names are\n"
      "never reused with another meaning (in any snapshot); annotations never\n"
      "loosen, and every field added after the first snapshot carries\n"
      "(aot.compat) when the schema defines that extension. Only what is\n"
      "reachable from the root message(s) is gated; the rest is reported as\n"
      "notes. Types are compared by structure, so a message or enum moved to\n"
      "another package unchanged is not a break.\n"
      "\n"
      "With --base (default: every *.binpb of --dir) the head (default: this\n"
      "project's built-in schema) is checked against the snapshots. With\n"
      "--history or --git the whole history is walked, each version against\n"
      "those before it, and each finding is reported once, at the version where\n"
      "it first appears. --git builds the history itself: one version per\n"
      "commit that touched the --path files, compiled with protoc.\n"
      "\n"
      "Exit 0 clean, 1 when a rule is broken, 2 on bad input.");
  flags.AddList("base", &bases,
                "Snapshot(s), oldest first. Default: every *.binpb of --dir, sorted by name.");
  flags.AddString("head", &head_path,
                  "The schema to check. Default: the built-in schema (with --history or --git: "
                  "none, the newest version is the head).");
  flags.AddString("dir", &dir, "The snapshot directory.");
  flags.AddList("root", &roots,
                "Full name of a root message of the contract (repeatable). Default: the "
                "policy's roots, else aot.ExecutableProto.");
  flags.AddString("policy", &policy_path,
                  "A policy file (text proto, harness/schema/schema_policy.proto): roots, "
                  "annotation rules, messages carried inside bytes fields, rule severities.");
  flags.AddString("history", &history_dir,
                  "Walk every descriptor set of DIR: in the order of DIR/history.txt when "
                  "present, else every *.binpb sorted by file name.");
  flags.AddString("git", &git.repo, "Walk the history of --path in this git repository.");
  flags.AddList("path", &git.paths, "With --git: a repository-relative .proto file (repeatable).");
  flags.AddList("include", &git.includes,
                "With --git: a repository-relative protoc include directory (repeatable; "
                "default: the repository root).");
  flags.AddString("protoc", &git.protoc, "With --git: the protoc to run.");
  flags.AddString("format", &format,
                  "text (one line per finding), json, or buf (file:line:column:message for "
                  "editors and CI annotations; violations and warnings only).");
  flags.AddString("json", &json_path, "Also write the findings as JSON.");
  flags.ParseOrExit(argc, argv, /*first=*/2, /*allow_positional=*/false);
  auto usage = [&](const std::string& why) {
    return ReportToolError(kProgram, UsageError(absl::InvalidArgumentError(why)), 2);
  };
  if (format != "text" && format != "json" && format != "buf") {
    return usage(absl::StrCat("--format=", format, ": say text, json or buf"));
  }
  int sources = !bases.empty() + !history_dir.empty() + !git.repo.empty();
  if (sources > 1) return usage("--base, --history and --git are alternatives; give one");
  if (git.repo.empty() && (!git.paths.empty() || !git.includes.empty() || !git.protoc.empty())) {
    return usage("--path, --include and --protoc go with --git");
  }

  SchemaPolicy policy;
  if (!policy_path.empty()) {
    auto read = ReadSchemaPolicy(policy_path);
    if (!read.ok()) return ReportToolError(kProgram, read.status(), 2);
    policy = *std::move(read);
  }
  if (!roots.empty()) policy.roots = roots;

  std::optional<SchemaVersion> head;
  if (!head_path.empty()) {
    auto set = ReadDescriptorSet(head_path);
    if (!set.ok()) return ReportToolError(kProgram, set.status(), 2);
    head = SchemaVersion{head_path, *std::move(set)};
  }
  absl::StatusOr<SchemaCheckReport> report;
  if (!history_dir.empty() || !git.repo.empty()) {
    std::vector<std::string> skipped;
    auto versions =
        !git.repo.empty() ? SchemaHistoryFromGit(git, &skipped) : ReadSchemaHistoryDir(history_dir);
    if (!versions.ok()) return ReportToolError(kProgram, versions.status(), 2);
    for (const std::string& line : skipped) {
      ReportToolNote(kProgram, absl::StrCat("skipped commit ", line));
    }
    if (head.has_value()) versions->push_back(*std::move(head));
    report = CheckSchemaHistory(*versions, policy);
  } else {
    if (bases.empty()) {
      auto listed = ListSnapshots(dir);
      if (!listed.ok()) return ReportToolError(kProgram, listed.status(), 2);
      bases = *listed;
    }
    auto history = ReadSchemaHistory(bases);
    if (!history.ok()) return ReportToolError(kProgram, history.status(), 2);
    report = CheckSchema(
        *history, head.value_or(SchemaVersion{"<built-in schema>", SchemaDescriptorSet()}), policy);
  }
  if (!report.ok()) return ReportToolError(kProgram, report.status(), 2);
  if (format == "json") {
    std::fputs((report->ToJson().dump(2) + "\n").c_str(), stdout);
  } else if (format == "buf") {
    std::fputs(report->ToBufText().c_str(), stdout);
  } else {
    std::fputs(report->ToText().c_str(), stdout);
  }
  if (std::optional<int> failed = WriteJsonOutput(json_path, report->ToJson())) return *failed;
  return report->ok() ? 0 : 1;
}

int Lint(int argc, char** argv) {
  std::string root = ".";
  std::string now = TodayDate();
  bool json = false;
  FlagSet flags("aot-compat lint", "aot-compat lint [--root=DIR] [--now=YYYY-MM-DD] [--json]",
                "Lists runtime compatibility fallbacks without an expiry comment (error),\n"
                "expired fallbacks and FFI aliases past their expiry (notice), and checks\n"
                "the staged-rollout ledger of compiler emission flags (error when a flag\n"
                "is on by default less than 14 days after runtime support, or a fallback\n"
                "was removed less than 6 months after the switch). Exit 1 on an error.");
  flags.AddString("root", &root, "The repository root (runtime/ is scanned).");
  flags.AddString("now", &now, "The date to judge expiry and windows at.");
  flags.AddBool("json", &json, "Print JSON.");
  flags.ParseOrExit(argc, argv, /*first=*/2, /*allow_positional=*/false);
  auto date = Date::Parse(now);
  if (!date.ok()) return ReportToolError(kProgram, date.status(), 2);
  auto report = LintFallbacks(root, *date);
  if (!report.ok()) return ReportToolError(kProgram, report.status(), 2);
  auto ledger = CheckEmissionLedger(EmissionLedger(), now);
  if (!ledger.ok()) return ReportToolError(kProgram, ledger.status(), 2);
  for (const LedgerViolation& v : *ledger) {
    report->findings.push_back(
        {"error", "compiler/rollout", 0, absl::StrCat("[", v.rule, "] ", v.flag, ": ", v.message)});
  }
  if (json) {
    nlohmann::ordered_json out;
    out["fallbacks"] = report->fallbacks;
    out["ledger_flags"] = static_cast<int>(EmissionLedger().size());
    nlohmann::ordered_json list = nlohmann::ordered_json::array();
    for (const LintFinding& f : report->findings) {
      list.push_back(
          {{"severity", f.severity}, {"file", f.file}, {"line", f.line}, {"message", f.message}});
    }
    out["findings"] = list;
    std::printf("%s\n", out.dump(2).c_str());
  } else {
    for (const LintFinding& f : report->findings) {
      std::printf("%s: %s:%d: %s\n", f.severity.c_str(), f.file.c_str(), f.line, f.message.c_str());
    }
    std::printf("lint: %d fallbacks, %zu ledger flags, %s\n", report->fallbacks,
                EmissionLedger().size(), report->ok() ? "ok" : "errors");
  }
  return report->ok() ? 0 : 1;
}

int Release(int argc, char** argv) {
  std::string golden_dir = "golden";
  std::string date = TodayDate();
  bool print = false;
  FlagSet flags("aot-compat release", "aot-compat release [--golden_dir=DIR] [--date=YYYY-MM-DD]",
                "Cuts a release of this binary's runtime: writes\n"
                "DIR/releases/<date>-<id>.json with what it can read (schema snapshot\n"
                "reference, thunk kinds, HLO opcodes, FFI handlers and aliases with expiry,\n"
                "host kernel imports, runtime flag defaults, load passes, ABI and toolchain,\n"
                "git commit). The schema snapshot is reused when one matches, written\n"
                "otherwise. Nothing is overwritten; an unchanged runtime writes nothing.");
  flags.AddString("golden_dir", &golden_dir, "The corpus root.");
  flags.AddString("date", &date, "The release date.");
  flags.AddBool("print", &print, "Print this runtime's capability snapshot; write nothing.");
  bool allow_dirty = false;
  flags.AddBool("allow_dirty", &allow_dirty,
                "Allow a release from a build of uncommitted changes.");
  flags.ParseOrExit(argc, argv, /*first=*/2, /*allow_positional=*/false);
  if (print) {
    ReleaseSnapshot r = CaptureRuntimeCapabilities();
    r.date = date;
    std::printf("%s\n", ReleaseToJson(r).dump(2).c_str());
    return 0;
  }
  auto result = CutRelease(golden_dir, date, allow_dirty);
  if (!result.ok()) return ReportToolError(kProgram, result.status(), 2);
  if (result->wrote_snapshot)
    std::printf("wrote schema snapshot %s\n", result->snapshot_path.c_str());
  std::printf("%s %s\n", result->wrote_release ? "wrote" : "up to date:", result->path.c_str());
  return 0;
}

// forward-check --build_runtime: every named older runtime (a git ref, or
// `window`: each release of the forward window at `now`) on this
// compiler's artifacts, a verdict per artifact.
int ForwardCheckWithOldRuntimes(const std::string& golden_dir, const std::string& now,
                                const std::vector<std::string>& targets,
                                const std::vector<std::string>& refs, const std::string& cache_dir,
                                const std::string& json_path) {
  std::vector<std::pair<std::string, std::string>> runtimes;  // label, ref
  for (const std::string& ref : refs) {
    if (ref != "window") {
      runtimes.emplace_back(ref, ref);
      continue;
    }
    auto date = Date::Parse(now);
    if (!date.ok()) return ReportToolError(kProgram, date.status(), 2);
    auto releases = LoadReleases(golden_dir);
    if (!releases.ok()) return ReportToolError(kProgram, releases.status(), 2);
    for (const ReleaseSnapshot& r : ComputeForwardWindow(*releases, *date).releases) {
      runtimes.emplace_back(r.id, r.git_commit);
    }
  }
  if (runtimes.empty()) {
    return ReportToolError(kProgram,
                           absl::NotFoundError(absl::StrCat("no release in the forward window at ",
                                                            now, " under ", golden_dir)),
                           2);
  }
  Progress progress;  // on stderr when it is a terminal
  OldBuildOptions options;
  options.golden_dir = golden_dir;
  options.cache_dir = cache_dir;
  options.progress = &progress;
  for (const auto& [label, ref] : runtimes) {
    if (auto commit = ResolveCommit(options.repo, ref); !commit.ok()) {
      return ReportToolError(kProgram, commit.status(), 2);
    }
  }
  auto compiled = CompileCorpus(golden_dir, SelectGoldenTargets(targets), &progress);
  if (!compiled.ok()) return ReportToolError(kProgram, compiled.status(), 2);
  auto artifacts = ShippedArtifacts(*compiled);
  if (!artifacts.ok()) return ReportToolError(kProgram, artifacts.status(), 2);
  std::vector<LabeledOldRuntimeRuns> results;
  int failures = 0;
  for (const auto& [label, ref] : runtimes) {
    auto runs = RunWithOldRuntime(ref, *artifacts, options);
    if (!runs.ok()) {
      progress.Clear();
      return ReportToolError(kProgram, runs.status(), 2);
    }
    failures += runs->Failures();
    results.push_back({label, *std::move(runs)});
  }
  progress.Clear();
  std::printf("forward-check (old runtimes): %zu artifact(s) of this compiler x %zu runtime(s)\n%s",
              artifacts->size(), results.size(), OldRunsTable(results).c_str());
  if (std::optional<int> failed = WriteJsonOutput(json_path, OldRunsJson(results))) return *failed;
  std::printf("forward-check: %s\n", failures == 0 ? "every artifact ran in every old runtime"
                                                   : "some old runtime did not run some artifact");
  return failures == 0 ? 0 : 1;
}

int ForwardCheck(int argc, char** argv) {
  std::string golden_dir = "golden";
  std::string now = TodayDate();
  std::vector<std::string> targets;
  std::vector<std::string> release_ids;
  std::string json_path;
  std::vector<std::string> build_runtimes;
  std::string build_compiler, cache_dir = ".aot-cache/worktrees";
  FlagSet flags("aot-compat forward-check",
                "aot-compat forward-check [--now=D] [--release=ID]... [--target=T]... "
                "[--json=OUT]\n       aot-compat forward-check --build_runtime=REF|window... "
                "[--target=T]... [--json=OUT]\n       aot-compat forward-check "
                "--build_compiler=REF",
                "Compiles the corpus with this compiler and checks every artifact against\n"
                "the releases of the forward window (the releases of the last 14 days plus\n"
                "the newest before): parsed with each release's descriptor set, unknown\n"
                "fields judged by their annotations, unknown oneof cases, enum values,\n"
                "opcodes, names and ABI minimums are errors. Exit 1 on an error.\n"
                "--build_runtime=REF (repeatable; `window`: every release of the forward\n"
                "window at --now) builds the runtime of an older commit in a cached\n"
                "worktree, and its aot-run loads and runs each of this compiler's\n"
                "artifacts (CUDA ones loaded and validated without a device): one verdict\n"
                "per artifact and runtime (passed, validated, mismatched, refused by the\n"
                "old runtime, not runnable by the old tool), cached per commit and\n"
                "artifact; exit 1 when any artifact did not run.\n"
                "--build_compiler=REF regenerates goldens with an older compiler and\n"
                "replays them with this runtime.");
  flags.AddString("golden_dir", &golden_dir, "The corpus root.");
  flags.AddString("now", &now, "The date the window ends at.");
  flags.AddList("target", &targets, TargetHelp());
  flags.AddList("release", &release_ids, "Check these release ids instead of the window.");
  flags.AddString("json", &json_path, "Also write the findings as JSON.");
  flags.AddList("build_runtime", &build_runtimes,
                "Git refs (or `window`) whose runtimes run our artifacts.");
  flags.AddString("build_compiler", &build_compiler,
                  "A git ref whose compiler's artifacts our runtime replays.");
  flags.AddString("cache_dir", &cache_dir, "Where old worktrees, builds and runs are cached.");
  flags.ParseOrExit(argc, argv, /*first=*/2, /*allow_positional=*/false);
  if (!build_runtimes.empty()) {
    return ForwardCheckWithOldRuntimes(golden_dir, now, targets, build_runtimes, cache_dir,
                                       json_path);
  }
  if (!build_compiler.empty()) {
    Progress progress;  // on stderr when it is a terminal
    OldBuildOptions options;
    options.golden_dir = golden_dir;
    options.cache_dir = cache_dir;
    options.targets = targets;
    options.progress = &progress;
    auto result = RunWithOldCompiler(build_compiler, options);
    progress.Clear();
    if (!result.ok()) return ReportToolError(kProgram, result.status(), 2);
    std::fputs(result->log.c_str(), stdout);
    LabeledOldRuntimeRuns replayed{absl::StrCat("this runtime on ", build_compiler, "'s goldens"),
                                   {result->commit, {}}};
    for (const ReplayRecord& r : result->records) {
      replayed.runs.runs.push_back(OldRunFromReplay(r));
    }
    std::printf("forward-check (old compiler %s): %zu artifact(s) replayed by this runtime\n%s",
                result->commit.c_str(), replayed.runs.runs.size(),
                OldRunsTable({replayed}).c_str());
    if (std::optional<int> failed = WriteJsonOutput(json_path, OldRunsJson({replayed}))) {
      return *failed;
    }
    std::printf("forward-check (old compiler %s): %d passed, %d failed\n", result->commit.c_str(),
                result->passed, result->failed);
    return result->failed == 0 ? 0 : 1;
  }
  auto date = Date::Parse(now);
  if (!date.ok()) return ReportToolError(kProgram, date.status(), 2);
  auto releases = LoadReleases(golden_dir);
  if (!releases.ok()) return ReportToolError(kProgram, releases.status(), 2);
  std::vector<ReleaseSnapshot> selected;
  if (release_ids.empty()) {
    selected = ComputeForwardWindow(*releases, *date).releases;
  } else {
    for (const std::string& id : release_ids) {
      auto it = absl::c_find_if(*releases, [&](const ReleaseSnapshot& r) { return r.id == id; });
      if (it == releases->end()) {
        return ReportToolError(kProgram,
                               absl::NotFoundError(absl::StrCat("no release '", id, "' under ",
                                                                golden_dir, "/releases")),
                               2);
      }
      selected.push_back(*it);
    }
  }
  if (selected.empty()) {
    return ReportToolError(kProgram,
                           absl::NotFoundError(absl::StrCat("no release on or before ", now,
                                                            " under ", golden_dir, "/releases")),
                           2);
  }
  auto artifacts = CompileCorpusArtifacts(golden_dir, targets);
  if (!artifacts.ok()) return ReportToolError(kProgram, artifacts.status(), 2);
  int errors = 0;
  nlohmann::ordered_json list = nlohmann::ordered_json::array();
  for (const ReleaseSnapshot& release : selected) {
    auto checker = LoadForwardChecker(golden_dir, release, nullptr);
    if (!checker.ok()) return ReportToolError(kProgram, checker.status(), 2);
    int release_errors = 0;
    for (const ForwardArtifact& artifact : *artifacts) {
      for (const ForwardFinding& f : (*checker)->Check(artifact)) {
        if (f.severity == "error") ++release_errors;
        std::printf("%s\n", f.ToString().c_str());
        list.push_back(f.ToJson());
      }
    }
    std::printf("release %s (%s): %zu artifacts, %d error(s)\n", release.id.c_str(),
                release.date.c_str(), artifacts->size(), release_errors);
    errors += release_errors;
  }
  if (std::optional<int> failed = WriteJsonOutput(json_path, list)) return *failed;
  std::printf("forward-check: %s\n", errors == 0 ? "ok" : "errors");
  return errors == 0 ? 0 : 1;
}

// The flags `gate` and `report` share.
void AddGateFlags(FlagSet& flags, GateOptions* options, bool* no_verify, ReplayCacheFlags* cache) {
  flags.AddString("now", &options->now, "The clock.");
  flags.AddString("golden_dir", &options->golden_dir, "The corpus root.");
  flags.AddString("root", &options->source_root, "The repository root (for the lint).");
  flags.AddList("target", &options->targets, TargetHelp());
  flags.AddBool("no_verify", no_verify, "Skip golden verification.");
  flags.AddBool("build_old", &options->build_old,
                "Before the rollout check, make the released runtimes' runs it needs and "
                "golden/rollout/ lacks: each release built at its commit (cached in "
                "--old_cache_dir), its runs recorded.");
  flags.AddString("old_cache_dir", &options->old_build.cache_dir,
                  "Where old worktrees, builds and runs are cached.");
  cache->Add(flags);
}

int RolloutAudit(int argc, char** argv) {
  std::string golden_dir = "golden";
  std::string json_path;
  std::vector<std::string> release_ids;
  bool build = false;
  OldBuildOptions options;
  FlagSet flags("aot-compat rollout-audit",
                "aot-compat rollout-audit [--build [--release=ID]...] [--json=OUT]",
                "The staged-rollout ledger against the real released runtimes: for every\n"
                "emission flag, its flag-on targets (the golden targets compiled with it\n"
                "on) and, per release, whether that release's built runtime runs the\n"
                "targets' newest goldens (every artifact passed, or loaded and validated\n"
                "where no device is), from the runs recorded in golden/rollout/; then the\n"
                "first release that runs them, the ledger's date and the first day the\n"
                "flag may switch on (every release of that day's forward window runs\n"
                "them). --build first makes the runs the records lack: each release (or\n"
                "those of --release) built at its commit in a cached worktree, its aot-run\n"
                "on the flag-on goldens, the verdicts recorded. Exit 0; 1 when the ledger\n"
                "names a release that cannot run its flag's artifacts; 2 bad input.");
  flags.AddString("golden_dir", &golden_dir, "The corpus root.");
  flags.AddString("json", &json_path, "Also write the audit as JSON.");
  flags.AddBool("build", &build, "Build the releases and record the runs the records lack.");
  flags.AddList("release", &release_ids, "With --build: only these release ids.");
  flags.AddString("cache_dir", &options.cache_dir,
                  "Where old worktrees, builds and runs are cached.");
  flags.ParseOrExit(argc, argv, /*first=*/2, /*allow_positional=*/false);
  auto releases = LoadReleases(golden_dir);
  if (!releases.ok()) return ReportToolError(kProgram, releases.status(), 2);
  if (build) {
    std::vector<ReleaseSnapshot> selected;
    for (const ReleaseSnapshot& r : *releases) {
      if (release_ids.empty() || absl::c_linear_search(release_ids, r.id)) selected.push_back(r);
    }
    for (const std::string& id : release_ids) {
      if (!absl::c_any_of(*releases, [&](const ReleaseSnapshot& r) { return r.id == id; })) {
        return ReportToolError(kProgram,
                               absl::NotFoundError(absl::StrCat("no release '", id, "' under ",
                                                                golden_dir, "/releases")),
                               2);
      }
    }
    Progress progress;  // on stderr when it is a terminal
    options.golden_dir = golden_dir;
    options.progress = &progress;
    auto recorded = RecordMissingRuns(golden_dir, EmissionLedger(), selected, options);
    progress.Clear();
    if (!recorded.ok()) return ReportToolError(kProgram, recorded.status(), 2);
    std::printf("rollout-audit: recorded %d run(s)\n", *recorded);
  }
  auto records = LoadReleaseRunRecords(golden_dir);
  if (!records.ok()) return ReportToolError(kProgram, records.status(), 2);
  auto audits = AuditEmissionFlags(golden_dir, EmissionLedger(), *releases, *records);
  if (!audits.ok()) return ReportToolError(kProgram, audits.status(), 2);
  std::fputs(FlagAuditTable(*audits).c_str(), stdout);
  nlohmann::ordered_json list = nlohmann::ordered_json::array();
  int wrong = 0;
  for (const FlagAudit& a : *audits) {
    list.push_back(a.ToJson());
    for (const FlagReleaseCell& c : a.releases) {
      if (c.release == a.ledger_release && c.state == ReleaseRunsFlag::kFails) ++wrong;
    }
  }
  if (std::optional<int> failed = WriteJsonOutput(json_path, list)) return *failed;
  std::printf("rollout-audit: %zu flag(s), %zu release(s); %s\n", audits->size(), releases->size(),
              wrong == 0 ? "the ledger's releases run their flags' artifacts"
                         : "the ledger names a release that cannot run its flag's artifacts");
  return wrong == 0 ? 0 : 1;
}

int Gate(int argc, char** argv) {
  GateOptions options;
  options.now = TodayDate();
  std::string json_path;
  bool no_verify = false;
  FlagSet flags("aot-compat gate",
                "aot-compat gate [--now=YYYY-MM-DD] [--golden_dir=DIR] [--target=T]... "
                "[--json=OUT] [--cache_dir=DIR | --no_cache]",
                "One verdict for a change: schema-check against every snapshot, backward\n"
                "window (every golden of the last 6 months replays; runtime flag defaults\n"
                "and FFI names of the window's releases), forward window (this compiler's\n"
                "output against every release of the last 2 weeks), the staged-rollout\n"
                "ledger, the fallback expiry lint and golden verification. The backward\n"
                "replay takes the verdicts this runtime already gave from the replay cache\n"
                "(--cache_dir; --no_cache replays everything). Prints each blocker with\n"
                "its fix. Exit 0 pass, 1 blocked, 2 bad input.");
  ReplayCacheFlags cache;
  AddGateFlags(flags, &options, &no_verify, &cache);
  bool runnable_host_targets = false;
  bool replay_table = false;
  flags.AddString("json", &json_path, "Also write the full report as JSON.");
  flags.AddBool("runnable_host_targets", &runnable_host_targets,
                "Gate the host targets this machine's CPU can run (x86-64-v3 only with "
                "AVX2/FMA/BMI2...), in addition to any --target.");
  flags.AddBool("replay_table", &replay_table,
                "After the summary, print the backward replay per target and version, the "
                "forward window's releases and the verdict.");
  flags.ParseOrExit(argc, argv, /*first=*/2, /*allow_positional=*/false);
  options.verify = !no_verify;
  options.replay_cache_dir = cache.Dir();
  if (runnable_host_targets) {
    for (const std::string& t : RunnableHostGoldenTargets(DetectHostCpuFeatures())) {
      options.targets.push_back(t);
    }
  }
  Progress progress;  // on stderr when it is a terminal
  options.progress = &progress;
  auto report = RunGate(options);
  progress.Clear();
  if (!report.ok()) return ReportToolError(kProgram, report.status(), 2);
  std::fputs(report->Summary().c_str(), stdout);
  if (replay_table) {
    std::printf("\n%s\nforward window from %s: releases %s\ngate: %s\n",
                report->backward.VersionTable().c_str(), report->forward_window_start.c_str(),
                report->forward_releases.empty()
                    ? "none"
                    : absl::StrJoin(report->forward_releases, ", ").c_str(),
                report->ok() ? "PASS" : "BLOCKED");
  }
  if (std::optional<int> failed = WriteJsonOutput(json_path, report->ToJson())) return *failed;
  return report->ok() ? 0 : 1;
}

int Report(int argc, char** argv) {
  GateOptions options;
  options.now = TodayDate();
  std::string out;
  bool no_verify = false;
  FlagSet flags(
      "aot-compat report",
      "aot-compat report --out=DIR [--now=YYYY-MM-DD] [--target=T]... [--old_runs=FILE]... "
      "[--cache_dir=DIR | --no_cache]",
      "Runs the gate and writes a release qualification report to DIR:\n"
      "report.json, junit.xml (one testcase per target/version/test and per gate\n"
      "check) and a self-contained index.html (the target x version x test grid,\n"
      "the window boundaries on a timeline of versions and releases, load/run\n"
      "time per version, every blocker with its fix). The gate's backward\n"
      "replay uses the replay cache as `gate` does. Exit 0 pass, 1 blocked\n"
      "(the report is written either way), 2 bad input.");
  flags.AddString("out", &out, "The report directory (created).");
  std::vector<std::string> old_runs;
  flags.AddList("old_runs", &old_runs,
                "`forward-check --build_runtime=... --json` output: older runtimes' verdicts "
                "on this compiler's artifacts, shown beside the releases' recorded runs.");
  ReplayCacheFlags cache;
  AddGateFlags(flags, &options, &no_verify, &cache);
  flags.ParseOrExit(argc, argv, /*first=*/2, /*allow_positional=*/false);
  if (out.empty()) {
    return ReportToolError(kProgram, absl::InvalidArgumentError("--out=DIR is required"), 2);
  }
  options.verify = !no_verify;
  options.replay_cache_dir = cache.Dir();
  options.targets = SelectGoldenTargets(options.targets);
  Progress progress;  // on stderr when it is a terminal
  options.progress = &progress;
  auto gate = RunGate(options);
  progress.Clear();
  if (!gate.ok()) return ReportToolError(kProgram, gate.status(), 2);
  auto data = QualificationFromGate(*gate, options.golden_dir, options.targets);
  if (!data.ok()) return ReportToolError(kProgram, data.status(), 2);
  for (const std::string& path : old_runs) {
    auto text = ReadFileToString(path);
    if (!text.ok()) return ReportToolError(kProgram, text.status(), 2);
    nlohmann::json json = nlohmann::json::parse(*text, nullptr, /*allow_exceptions=*/false);
    if (json.is_discarded()) {
      return ReportToolError(kProgram, absl::InvalidArgumentError(path + ": not valid JSON"), 2);
    }
    if (absl::Status s = AddOldRuntimeRuns(json, path, &*data); !s.ok()) {
      return ReportToolError(kProgram, s, 2);
    }
  }
  if (absl::Status s = WriteQualificationReport(*data, out); !s.ok()) {
    return ReportToolError(kProgram, s, 2);
  }
  std::fputs(gate->Summary().c_str(), stdout);
  std::printf("report: %s/report.json %s/junit.xml %s/index.html\n", out.c_str(), out.c_str(),
              out.c_str());
  return gate->ok() ? 0 : 1;
}

int TriageCommand(int argc, char** argv) {
  std::string base, head = "worktree", json_path, cache_dir = ".aot-cache/worktrees";
  std::string golden_dir = "golden";
  std::string now = TodayDate();
  std::vector<std::string> targets;
  bool build_base = false;
  FlagSet flags("aot-compat triage",
                "aot-compat triage --base=REF [--head=worktree|REF] [--now=D] [--json=OUT]",
                "Is my change safe? Walks the decision tree of CONTRACT.md s. 5 from the\n"
                "actual differences between REF and the head: the schema (protoc on REF's\n"
                "proto/), runtime registries, opcode table, flag defaults and load passes\n"
                "(REF's newest committed release, or a build of REF with --build_base), and\n"
                "what the head compiler emits for the corpus (checked against REF's runtime).\n"
                "Prints each change with its verdict (safe / breaking-forward /\n"
                "breaking-backward / depends) and the safe procedure. Exit 1 when a change\n"
                "breaks a window at --now, 2 on bad input.");
  flags.AddString("base", &base, "The git ref the change is measured against (required).");
  flags.AddString("head", &head, "'worktree' (this build) or a git ref (built in a worktree).");
  flags.AddString("now", &now, "The date the windows are judged at.");
  flags.AddString("golden_dir", &golden_dir, "The corpus root.");
  flags.AddList("target", &targets, TargetHelp());
  flags.AddBool("build_base", &build_base,
                "Build REF's runtime to read its capabilities instead of its newest release.");
  flags.AddString("json", &json_path, "Also write the verdicts as JSON.");
  flags.AddString("cache_dir", &cache_dir, "Where built commits are cached.");
  flags.ParseOrExit(argc, argv, /*first=*/2, /*allow_positional=*/false);
  if (base.empty()) {
    return ReportToolError(kProgram, absl::InvalidArgumentError("--base=REF is required"), 2);
  }
  auto base_commit = ResolveCommit(".", base);
  if (!base_commit.ok()) return ReportToolError(kProgram, base_commit.status(), 2);
  Progress progress;  // on stderr when it is a terminal
  OldBuildOptions build_options;
  build_options.cache_dir = cache_dir;
  build_options.progress = &progress;
  if (head != "worktree") {
    // The head's own triage, from a build of the head commit.
    auto built = PrepareOldBuild(head, build_options);
    progress.Clear();
    if (!built.ok()) return ReportToolError(kProgram, built.status(), 2);
    std::string command =
        absl::StrCat("cd ", ShellQuote(built->source_dir), " && ", ShellQuote(built->aot_compat),
                     " triage --base=", *base_commit, " --now=", ShellQuote(now));
    if (!json_path.empty()) {
      absl::StrAppend(&command, " --json=", ShellQuote(fs::absolute(json_path).string()));
    }
    CommandResult result = RunShellCommand(command);
    std::fputs(result.output.c_str(), stdout);
    return result.exit_code;
  }
  TriageInput input;
  input.golden_dir = golden_dir;
  input.now = now;
  input.targets = SelectGoldenTargets(targets);
  auto base_schema = SchemaAtCommit(".", *base_commit);
  if (!base_schema.ok()) return ReportToolError(kProgram, base_schema.status(), 2);
  input.base_schema = *std::move(base_schema);
  if (build_base) {
    auto built = PrepareOldBuild(*base_commit, build_options);
    if (!built.ok()) return ReportToolError(kProgram, built.status(), 2);
    CommandResult printed = RunShellCommand(
        absl::StrCat(ShellQuote(built->aot_compat), " release --print 2>/dev/null"));
    nlohmann::json j = nlohmann::json::parse(printed.output, nullptr, false);
    if (printed.exit_code != 0 || j.is_discarded()) {
      return ReportToolError(kProgram,
                             absl::FailedPreconditionError(absl::StrCat(
                                 "the build of ", base_commit->substr(0, 12),
                                 " cannot print its capabilities (it predates `release "
                                 "--print`); drop --build_base to use its newest release")),
                             2);
    }
    auto runtime = ReleaseFromJson(j, "base build");
    if (!runtime.ok()) return ReportToolError(kProgram, runtime.status(), 2);
    input.base_runtime = *std::move(runtime);
    input.base_source = absl::StrCat(base, " (", base_commit->substr(0, 12), ", built)");
  } else {
    std::string source;
    auto runtime = RuntimeAtCommit(".", *base_commit, &source);
    if (!runtime.ok()) return ReportToolError(kProgram, runtime.status(), 2);
    input.base_runtime = *std::move(runtime);
    input.base_source = absl::StrCat(base, " (schema of ", base_commit->substr(0, 12),
                                     ", runtime of release ", source, ")");
  }
  input.head_runtime = CaptureRuntimeCapabilities();
  input.head_schema = SchemaDescriptorSet();
  auto artifacts = CompileCorpusArtifacts(golden_dir, input.targets);
  if (!artifacts.ok()) return ReportToolError(kProgram, artifacts.status(), 2);
  input.head_artifacts = *std::move(artifacts);
  auto report = Triage(input);
  if (!report.ok()) return ReportToolError(kProgram, report.status(), 2);
  std::fputs(report->ToText().c_str(), stdout);
  if (std::optional<int> failed = WriteJsonOutput(json_path, report->ToJson())) return *failed;
  return report->ok() ? 0 : 1;
}

int Main(int argc, char** argv) {
  std::string usage = absl::StrCat(kProgram, " COMMAND [flags]\n\n",
                                   "The compatibility harness of the XLA-style "
                                   "AOT compiler and runtime.\n\n",
                                   kCommands);
  if (argc < 2) {
    std::fputs(absl::StrCat("Usage: ", usage).c_str(), stderr);
    return 2;
  }
  std::string command = argv[1];
  if (command == "--help" || command == "-h" || command == "help") {
    std::fputs(absl::StrCat("Usage: ", usage).c_str(), stdout);
    return 0;
  }
  if (command == "version" || command == "--version") return Version(argc, argv);
  if (command == "generate") return Generate(argc, argv);
  if (command == "replay") return Replay(argc, argv);
  if (command == "verify") return Verify(argc, argv);
  if (command == "prune") return Prune(argc, argv);
  if (command == "show") return Show(argc, argv);
  if (command == "diff") return Diff(argc, argv);
  if (command == "fsck") return Fsck(argc, argv);
  if (command == "repack") return Repack(argc, argv);
  if (command == "lint") return Lint(argc, argv);
  if (command == "schema-snapshot") return SchemaSnapshot(argc, argv);
  if (command == "schema-check") return SchemaCheck(argc, argv);
  if (command == "release") return Release(argc, argv);
  if (command == "forward-check") return ForwardCheck(argc, argv);
  if (command == "gate") return Gate(argc, argv);
  if (command == "rollout-audit") return RolloutAudit(argc, argv);
  if (command == "report") return Report(argc, argv);
  if (command == "triage") return TriageCommand(argc, argv);
  if (command == "schema-fingerprint") {
    std::printf("%s\n", SchemaFingerprint().c_str());
    return 0;
  }
  return ReportToolError(kProgram,
                         absl::InvalidArgumentError(absl::StrCat("unknown command '", command,
                                                                 "' (see aot-compat --help)")),
                         2);
}

}  // namespace
}  // namespace aot

int main(int argc, char** argv) { return aot::Main(argc, argv); }
