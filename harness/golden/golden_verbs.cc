#include "harness/golden/golden_verbs.h"

#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "absl/algorithm/container.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "compiler/tooling/compile_tool.h"
#include "compiler/tooling/flags.h"
#include "google/protobuf/text_format.h"
#include "harness/cli/verb.h"
#include "harness/golden/corpus.h"
#include "harness/golden/corpus_store.h"
#include "harness/golden/golden_ops.h"
#include "harness/golden/golden_store.h"
#include "nlohmann/json.hpp"
#include "proto/message_diff.h"
#include "support/build_info.h"
#include "support/file_io.h"
#include "support/progress.h"
#include "support/proto_util.h"
#include "support/status_macros.h"

namespace aot {
namespace {

namespace fs = std::filesystem;

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
    AOT_RETURN_IF_ERROR_AND(clean, ReportToolError(kProgram, _, 1));
  }
  Progress progress;  // on stderr when it is a terminal
  auto results =
      GenerateGoldens(golden_dir, SelectGoldenTargets(targets), date, &progress, emission_flags);
  AOT_RETURN_IF_ERROR_AND(results, ReportToolError(kProgram, _, 1));
  for (const GenerateResult& r : *results) {
    std::printf("%-16s %s\n", r.target.c_str(), r.message.c_str());
  }
  return 0;
}

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
  AOT_RETURN_IF_ERROR_AND(env_all, ReportToolError(kProgram, _, 2));
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
  AOT_RETURN_IF_ERROR_AND(report, ReportToolError(kProgram, _, 2));
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
    AOT_RETURN_IF_ERROR_AND(pruned, ReportToolError(kProgram, _, 2));
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
  AOT_RETURN_IF_ERROR_AND(ref, UsageError(_));
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
  return ExitCodeOrBadInput([&]() -> absl::StatusOr<int> {
    if (args.size() != 1) {
      return UsageError(absl::InvalidArgumentError("show takes one TARGET/vN/TEST"));
    }
    if (part != "artifact" && part != "io" && part != "entry") {
      return UsageError(absl::InvalidArgumentError(
          absl::StrCat("--part must be artifact, io or entry, not '", part, "'")));
    }
    AOT_ASSIGN_OR_RETURN(GoldenArtifact artifact, ReadRefArgument(golden_dir, args[0]));
    const bool binary = absl::EndsWith(out, ".pb");
    std::string bytes;
    if (part == "entry") {
      auto ref = ParseGoldenRef(args[0]);
      AOT_ASSIGN_OR_RETURN(auto manifest, ReadManifest(GoldenRefDir(golden_dir, *ref)));
      nlohmann::ordered_json j;
      j["test"] = ref->ToString();
      j["format"] = manifest.format;
      const BlobStore store = GoldenBlobStore(golden_dir);
      if (manifest.format == 2) {
        const ManifestEntry& e = manifest.tests.at(ref->test);
        j["artifact"] = e.artifact;
        j["artifact_blob"] = store.PathOf(kArtifactBlobs, e.artifact);
        j["io"] = e.io;
        j["io_blob"] = store.PathOf(kIoBlobs, e.io);
        j["compiler_version"] = e.compiler_version;
        j["source_path"] = e.source_path;
      }
      bytes = j.dump(2) + "\n";
    } else if (part == "io") {
      bytes = binary ? SerializeDeterministic(artifact.io) : [&] {
        std::string text;
        google::protobuf::TextFormat::PrintToString(artifact.io, &text);
        return text;
      }();
    } else {
      bytes =
          binary ? SerializeDeterministic(artifact.executable) : ArtifactText(artifact.executable);
    }
    if (out.empty()) {
      std::fwrite(bytes.data(), 1, bytes.size(), stdout);
      return 0;
    }
    AOT_RETURN_IF_ERROR(WriteFileAtomically(out, bytes));
    return 0;
  }());
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
  return ExitCodeOrBadInput([&]() -> absl::StatusOr<int> {
    if (args.size() != 2) {
      return UsageError(absl::InvalidArgumentError("diff takes two TARGET/vN/TEST references"));
    }
    AOT_ASSIGN_OR_RETURN(GoldenArtifact a, ReadRefArgument(golden_dir, args[0]));
    AOT_ASSIGN_OR_RETURN(GoldenArtifact b, ReadRefArgument(golden_dir, args[1]));
    if (!a.artifact_digest.empty() && a.artifact_digest == b.artifact_digest &&
        a.io_digest == b.io_digest) {
      std::printf("same artifact and I/O blobs (%s, %s)\n", a.artifact_digest.substr(0, 12).c_str(),
                  a.io_digest.substr(0, 12).c_str());
    }
    std::string diff = verification
                           ? DiffMessages(a.executable, b.executable, VerificationIgnoreList())
                           : DiffMessages(a.executable, b.executable);
    std::string io_diff = DiffMessages(a.io, b.io);
    if (diff.empty() && io_diff.empty()) {
      std::printf("%s and %s: equal%s\n", args[0].c_str(), args[1].c_str(),
                  verification ? " under verification" : "");
      return 0;
    }
    if (!diff.empty()) std::printf("artifact:\n%s", diff.c_str());
    if (!io_diff.empty()) std::printf("io:\n%s", io_diff.c_str());
    return 1;
  }());
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
    AOT_RETURN_IF_ERROR_AND(result, ReportToolError(kProgram, _, 1));
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
  AOT_RETURN_IF_ERROR_AND(results, ReportToolError(kProgram, _, 2));
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

}  // namespace

std::vector<Verb> GoldenVerbs() {
  return {
      {"generate",
       "Compile the corpus; write golden v<N+1> for a target\n"
       "only when the output differs from v<N>.",
       Generate},
      {"replay",
       "Load and run golden versions (boundary versions, or\n"
       "all) with the current runtime; compare outputs.",
       Replay},
      {"verify",
       "Compile the corpus and compare with the newest golden\n"
       "version (structural diff, or bytes with --strict).",
       Verify},
      {"prune",
       "Delete golden versions expired at --now (outside the\n"
       "6-month backward window) and the blobs only they named.",
       Prune},
      {"show", "Print one golden test (TARGET/vN/TEST) as text.", Show},
      {"diff", "Field-path differences between two golden tests.", Diff},
      {"fsck", "Check every manifest and blob of the corpus store.", Fsck},
      {"repack", "Move per-file (format 1) versions into the store, checked.", Repack},
  };
}

}  // namespace aot
