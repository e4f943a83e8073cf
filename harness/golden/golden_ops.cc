#include "harness/golden/golden_ops.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <ctime>
#include <filesystem>
#include <map>
#include <memory>
#include <set>
#include <thread>

#include "absl/algorithm/container.h"
#include "absl/strings/ascii.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"
#include "compiler/backend/compiler.h"
#include "compiler/hlo/hlo_module_loader.h"
#include "compiler/hlo/hlo_parser.h"
#include "compiler/interpreter/evaluator.h"
#include "compiler/interpreter/replicated_evaluator.h"
#include "compiler/passes/spmd_partitioner.h"
#include "compiler/target/target_config.h"
#include "compiler/tooling/literal_execution.h"
#include "compiler/tooling/random_literal.h"
#include "google/protobuf/text_format.h"
#include "google/protobuf/util/json_util.h"
#include "harness/golden/corpus_store.h"
#include "harness/golden/replay_cache.h"
#include "harness/golden/windows.h"
#include "proto/message_diff.h"
#include "proto/schema.h"
#include "runtime/executable/client.h"
#include "runtime/platform/host/thread_pool.h"
#include "runtime/runtime_fingerprint.h"
#include "support/build_info.h"
#include "support/file_io.h"
#include "support/sha256.h"
#include "support/status_macros.h"
#include "support/subprocess.h"

namespace aot {

namespace fs = std::filesystem;

std::string TodayDate() {
  std::time_t now = std::time(nullptr);
  std::tm tm;
  gmtime_r(&now, &tm);
  char buffer[16];
  std::strftime(buffer, sizeof(buffer), "%Y-%m-%d", &tm);
  return buffer;
}

const std::vector<std::string>& VerificationIgnoreList() {
  static const auto* list =
      new std::vector<std::string>{"aot.KernelBinaryProto.object",
                                   "aot.KernelBinaryProto.ptx",
                                   "aot.KernelBinaryProto.cubin",
                                   "aot.KernelBinaryProto.payload_sha256",
                                   "aot.ToolchainVersionProto.built_with",
                                   "aot.ExecutableMetadataProto.compiler_version",
                                   "aot.ExecutableMetadataProto.source_path"};
  return *list;
}

std::string DiffExecutables(const ExecutableProto& golden, const ExecutableProto& current) {
  std::string diff = DiffMessages(golden, current, VerificationIgnoreList());
  if (diff.size() > 4000) diff = diff.substr(0, 4000) + "... (diff truncated)\n";
  return diff;
}

namespace {

absl::StatusOr<std::unique_ptr<HloModule>> ParseFile(const std::string& path) {
  if (absl::EndsWith(path, ".mlir")) {
    // StableHLO: converted to HLO (errors name the MLIR file:line:col).
    AOT_ASSIGN_OR_RETURN(LoadedHloModule loaded, LoadHloModuleFile(path));
    return std::move(loaded.module);
  }
  AOT_ASSIGN_OR_RETURN(auto text, ReadFileToString(path));
  auto module = ParseHloModule(text);
  if (!module.ok()) {
    return absl::Status(module.status().code(),
                        absl::StrCat(path, ": ", module.status().message()));
  }
  return module;
}

bool HasGemm(const google::protobuf::RepeatedPtrField<ThunkProto>& thunks) {
  for (const ThunkProto& t : thunks) {
    if (t.has_gemm()) return true;
    if (t.has_sequential() && HasGemm(t.sequential().thunks())) return true;
    if (t.has_while_loop() &&
        (HasGemm(t.while_loop().condition().thunks()) || HasGemm(t.while_loop().body().thunks()))) {
      return true;
    }
    if (t.has_conditional()) {
      for (const auto& b : t.conditional().branches()) {
        if (HasGemm(b.thunks())) return true;
      }
    }
  }
  return false;
}

// Widest default tolerance of the result's floating-point leaves.
Tolerance ResultTolerance(const Literal& result) {
  Tolerance t;
  for (const Literal& leaf : result.FlattenLeaves()) {
    Tolerance d = DefaultTolerance(leaf.shape().element_type());
    t.atol = std::max(t.atol, d.atol);
    t.rtol = std::max(t.rtol, d.rtol);
  }
  return t;
}

absl::StatusOr<std::unique_ptr<Client>> ClientFor(const GoldenTarget& target,
                                                  const LoadOptions& options = {}) {
  return Client::Create(target.platform, options);
}

absl::StatusOr<std::unique_ptr<CompiledModule>> CompileForTarget(const CorpusModule& module,
                                                                 const GoldenTarget& target,
                                                                 const HloModule& hlo) {
  AOT_ASSIGN_OR_RETURN(auto config, ShippedTargetConfig(target.target_config));
  CompileOptions options;
  options.source_path = module.path;
  options.emission_flags = target.emission_flags;
  auto compiled = Compile(hlo, config, options);
  if (!compiled.ok()) {
    return absl::Status(compiled.status().code(),
                        absl::StrCat(module.path, ": ", compiled.status().message()));
  }
  return compiled;
}

}  // namespace

// The module as `target` compiles it (its replica count).
absl::StatusOr<std::unique_ptr<HloModule>> ParseForTarget(const CorpusModule& module,
                                                          const GoldenTarget& target) {
  AOT_ASSIGN_OR_RETURN(auto hlo, ParseFile(module.path));
  if (target.replica_count > 0) hlo->mutable_config()->replica_count = target.replica_count;
  if (target.partitions > 0) {
    auto partitioned = PartitionSpmd(*hlo, target.partitions);
    if (!partitioned.ok()) {
      return absl::Status(partitioned.status().code(),
                          absl::StrCat(module.path, ": ", partitioned.status().message()));
    }
    return std::move(partitioned->module);
  }
  return hlo;
}

absl::StatusOr<ExecutableProto> CompileCorpusModule(const CorpusModule& module,
                                                    const GoldenTarget& target) {
  AOT_ASSIGN_OR_RETURN(auto hlo, ParseForTarget(module, target));
  AOT_ASSIGN_OR_RETURN(auto compiled, CompileForTarget(module, target, *hlo));
  return compiled->proto();
}

absl::StatusOr<GoldenArtifact> BuildArtifact(const CorpusModule& module,
                                             const GoldenTarget& target) {
  AOT_ASSIGN_OR_RETURN(auto hlo, ParseForTarget(module, target));
  AOT_ASSIGN_OR_RETURN(auto compiled, CompileForTarget(module, target, *hlo));
  GoldenArtifact artifact;
  artifact.test = module.test;
  artifact.executable = compiled->proto();
  GoldenIoProto& io = artifact.io;
  io.set_test(module.test);
  io.set_input_seed(module.seed);
  const int64_t participants = std::max<int64_t>(hlo->config().replica_count, 1) *
                               std::max<int64_t>(hlo->config().num_partitions, 1);
  if (participants > 1) {
    // One set of inputs per participant (seed + participant), and its
    // results: by running the artifact on the host, from the interpreter on
    // CUDA (with a tolerance).
    std::vector<std::vector<Literal>> args;
    for (int64_t p = 0; p < participants; ++p) {
      args.push_back(RandomArguments(*hlo, module.seed + static_cast<uint64_t>(p)));
    }
    std::vector<Literal> results;
    Tolerance tolerance{module.atol, module.rtol};
    if (target.platform == "host") {
      AOT_ASSIGN_OR_RETURN(auto client, ClientFor(target));
      AOT_ASSIGN_OR_RETURN(auto executable,
                           client->DeserializeExecutable(compiled->SerializeAsString()));
      AOT_ASSIGN_OR_RETURN(results, ExecuteReplicatedWithLiterals(*executable, args));
    } else {
      AOT_ASSIGN_OR_RETURN(results, EvaluateReplicated(*hlo, args));
      if (tolerance.bitwise()) tolerance = ResultTolerance(results[0]);
    }
    for (int64_t p = 0; p < participants; ++p) {
      ReplicaIoProto* replica = io.add_replicas();
      for (const Literal& arg : args[p]) {
        for (const Literal& leaf : arg.FlattenLeaves()) *replica->add_arguments() = leaf.ToProto();
      }
      for (const Literal& leaf : results[p].FlattenLeaves()) {
        *replica->add_results() = leaf.ToProto();
      }
    }
    io.set_atol(tolerance.atol);
    io.set_rtol(tolerance.rtol);
    return artifact;
  }
  std::vector<Literal> args = RandomArguments(*hlo, module.seed);
  for (const Literal& arg : args) {
    // As the executable takes them: a tuple-typed argument as its leaves.
    for (const Literal& leaf : arg.FlattenLeaves()) *io.add_arguments() = leaf.ToProto();
  }
  Literal result;
  Tolerance tolerance{module.atol, module.rtol};
  if (target.platform == "host") {
    AOT_ASSIGN_OR_RETURN(auto client, ClientFor(target));
    AOT_ASSIGN_OR_RETURN(auto executable,
                         client->DeserializeExecutable(compiled->SerializeAsString()));
    AOT_ASSIGN_OR_RETURN(auto out, ExecuteWithLiterals(*executable, args));
    result = std::move(out);
    if (tolerance.bitwise() && HasGemm(artifact.executable.thunks())) {
      tolerance = ResultTolerance(result);
    }
  } else {
    HloEvaluator evaluator;
    AOT_ASSIGN_OR_RETURN(auto out, evaluator.Evaluate(*hlo, args));
    result = std::move(out);
    if (tolerance.bitwise()) tolerance = ResultTolerance(result);
  }
  for (const Literal& leaf : result.FlattenLeaves()) *io.add_results() = leaf.ToProto();
  io.set_atol(tolerance.atol);
  io.set_rtol(tolerance.rtol);
  return artifact;
}

namespace {

// `target` with `extra` emission flags on too: sorted, without repeats.
GoldenTarget WithEmissionFlags(GoldenTarget target, const std::vector<std::string>& extra) {
  target.emission_flags.insert(target.emission_flags.end(), extra.begin(), extra.end());
  std::sort(target.emission_flags.begin(), target.emission_flags.end());
  target.emission_flags.erase(
      std::unique(target.emission_flags.begin(), target.emission_flags.end()),
      target.emission_flags.end());
  return target;
}

}  // namespace

absl::StatusOr<GoldenTarget> TargetAsGenerated(const std::string& golden_dir,
                                               const std::string& name) {
  AOT_ASSIGN_OR_RETURN(GoldenTarget target, FindGoldenTarget(name));
  auto versions = DiscoverVersions(golden_dir, name);
  if (!versions.ok()) return target;  // nothing generated yet
  auto manifest = ReadManifest(VersionDir(golden_dir, name, versions->back()));
  if (!manifest.ok()) return target;  // verify reports the manifest itself
  return WithEmissionFlags(std::move(target), manifest->emission_flags);
}

absl::Status CheckGeneratedFromCleanCommit(const std::string& golden_dir,
                                           const std::string& git_describe,
                                           const std::string& git_commit) {
  constexpr char kHow[] = "commit, rebuild, then generate (or pass --allow_dirty)";
  if (!IsBuiltFromCommit(git_describe, git_commit)) {
    return absl::FailedPreconditionError(
        absl::StrCat("this binary was built from '", git_describe,
                     "', not a commit: goldens must name the commit that made them; ", kHow));
  }
  const std::string git = absl::StrCat("git -C ", ShellQuote(golden_dir));
  CommandResult head = RunShellCommand(absl::StrCat(git, " rev-parse HEAD 2>/dev/null"));
  if (head.exit_code != 0) return absl::OkStatus();  // not in a git work tree
  const std::string head_commit(absl::StripAsciiWhitespace(head.output));
  if (head_commit != git_commit) {
    return absl::FailedPreconditionError(
        absl::StrCat("this binary was built from ", git_commit.substr(0, 12), " but ", golden_dir,
                     " is at HEAD ", head_commit.substr(0, 12),
                     ": the goldens would name the wrong commit; ", kHow));
  }
  CommandResult changes =
      RunShellCommand(absl::StrCat(git, " status --porcelain --untracked-files=all -- modules"));
  const std::string changed(absl::StripAsciiWhitespace(changes.output));
  if (changes.exit_code == 0 && !changed.empty()) {
    return absl::FailedPreconditionError(absl::StrCat(
        golden_dir, "/modules has uncommitted changes (", changed.substr(0, changed.find('\n')),
        "...): goldens are generated from committed modules; ", kHow));
  }
  return absl::OkStatus();
}

absl::StatusOr<std::vector<GenerateResult>> GenerateGoldens(
    const std::string& golden_dir, const std::vector<std::string>& targets, const std::string& date,
    Progress* progress, const std::vector<std::string>& emission_flags) {
  AOT_ASSIGN_OR_RETURN(auto modules, DiscoverModules(golden_dir));
  std::vector<GenerateResult> results;
  for (const std::string& name : targets) {
    AOT_ASSIGN_OR_RETURN(auto own, FindGoldenTarget(name));
    const GoldenTarget target = WithEmissionFlags(std::move(own), emission_flags);
    std::vector<GoldenArtifact> artifacts;
    const std::vector<CorpusModule> selected = ModulesForTarget(modules, target);
    for (const CorpusModule& m : selected) {
      if (progress != nullptr) {
        progress->Update(absl::StrCat("generate ", name, ": ", m.test), artifacts.size() + 1,
                         selected.size());
      }
      AOT_ASSIGN_OR_RETURN(auto artifact, BuildArtifact(m, target));
      artifacts.push_back(std::move(artifact));
    }
    GenerateResult result;
    result.target = name;
    auto versions = DiscoverVersions(golden_dir, name);
    int next = 1;
    if (versions.ok()) {
      int newest = versions->back();
      std::string dir = VersionDir(golden_dir, name, newest);
      std::vector<std::string> tests = ListTests(dir);
      std::vector<std::string> differences;
      std::vector<std::string> current_tests;
      for (const GoldenArtifact& a : artifacts) current_tests.push_back(a.test);
      std::sort(current_tests.begin(), current_tests.end());
      if (tests != current_tests) differences.push_back("the set of tests changed");
      for (const GoldenArtifact& a : artifacts) {
        if (std::find(tests.begin(), tests.end(), a.test) == tests.end()) continue;
        auto golden = ReadArtifact(dir, a.test);
        if (!golden.ok()) {
          differences.push_back(absl::StrCat(a.test, ": ", golden.status().message()));
          continue;
        }
        if (!DiffExecutables(golden->executable, a.executable).empty()) {
          differences.push_back(a.test);
        }
      }
      if (differences.empty()) {
        result.version = newest;
        result.message = absl::StrCat("up to date with v", newest, "; nothing written");
        if (progress != nullptr)
          progress->Line(absl::StrCat("generate ", name, ": ", result.message));
        results.push_back(result);
        continue;
      }
      next = newest + 1;
      result.message =
          absl::StrCat("differs from v", newest, " (", absl::StrJoin(differences, ", "), ")");
    } else {
      result.message = "no version yet";
    }
    Manifest manifest;
    manifest.version = next;
    manifest.target = name;
    manifest.created = date;
    manifest.compiler_version = BuildGitDescribe();
    manifest.compiler_commit = BuildGitCommit();
    manifest.schema_fingerprint = SchemaFingerprint();
    manifest.emission_flags = target.emission_flags;
    if (!artifacts.empty()) {
      std::string json;
      google::protobuf::util::JsonPrintOptions json_options;
      (void)google::protobuf::util::MessageToJsonString(artifacts[0].executable.abi_version(),
                                                        &json, json_options);
      manifest.abi_version = nlohmann::ordered_json::parse(json, nullptr, false);
    }
    auto config = ShippedTargetConfig(target.target_config);
    if (config.ok()) google::protobuf::TextFormat::PrintToString(*config, &manifest.target_config);
    std::string dir = VersionDir(golden_dir, name, next);
    AOT_RETURN_IF_ERROR(WriteVersion(dir, artifacts, manifest));
    result.wrote = true;
    result.version = next;
    result.message = absl::StrCat("wrote v", next, ": ", result.message);
    if (progress != nullptr) progress->Line(absl::StrCat("generate ", name, ": ", result.message));
    results.push_back(result);
  }
  return results;
}

namespace {

// Literals from their protos; the error names `what`.
absl::StatusOr<std::vector<Literal>> FromProtos(
    const google::protobuf::RepeatedPtrField<LiteralProto>& protos, absl::string_view what) {
  std::vector<Literal> out;
  for (const LiteralProto& p : protos) {
    auto literal = Literal::FromProto(p);
    if (!literal.ok()) {
      return absl::InvalidArgumentError(
          absl::StrCat(what, " unreadable: ", literal.status().message()));
    }
    out.push_back(*std::move(literal));
  }
  return out;
}

// A multi-replica golden: every participant runs on its recorded inputs;
// each participant's results are compared with its recorded ones.
ReplayRecord ReplayReplicated(const Executable& executable, const GoldenArtifact& artifact,
                              ReplayRecord r) {
  const GoldenIoProto& io = artifact.io;
  auto fail = [&](std::string reason) {
    r.status = ReplayStatus::kFail;
    r.reason = std::move(reason);
    return r;
  };
  if (io.replicas_size() != executable.participant_count()) {
    return fail(absl::StrCat("recorded ", io.replicas_size(), " replicas, the executable runs on ",
                             executable.participant_count()));
  }
  std::vector<std::vector<Literal>> args;
  for (const ReplicaIoProto& replica : io.replicas()) {
    auto a = FromProtos(replica.arguments(), "recorded input");
    AOT_RETURN_IF_ERROR_AND(a, fail(std::string(_.message())));
    args.push_back(*std::move(a));
  }
  auto start = std::chrono::steady_clock::now();
  auto results = ExecuteReplicatedWithLiterals(executable, args);
  r.run_ms =
      std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
  AOT_RETURN_IF_ERROR_AND(results, fail(absl::StrCat("execution failed: ", _.message())));
  Tolerance tolerance{io.atol(), io.rtol()};
  for (int p = 0; p < io.replicas_size(); ++p) {
    std::vector<Literal> leaves = (*results)[p].FlattenLeaves();
    auto expected = FromProtos(io.replicas(p).results(), "recorded output");
    AOT_RETURN_IF_ERROR_AND(expected, fail(std::string(_.message())));
    if (leaves.size() != expected->size()) {
      return fail(absl::StrCat("replica ", p, " produced ", leaves.size(), " results, recorded ",
                               expected->size()));
    }
    for (size_t i = 0; i < leaves.size(); ++i) {
      if (absl::Status s = CompareLiterals((*expected)[i], leaves[i], tolerance); !s.ok()) {
        return fail(absl::StrCat("outputs differ from the recorded ones (replica ", p, ", result ",
                                 i, ", ", tolerance.bitwise() ? "bitwise" : "with tolerance",
                                 "): ", s.message()));
      }
    }
  }
  r.status = ReplayStatus::kPass;
  return r;
}

}  // namespace

ReplayRecord ReplayArtifact(const GoldenTarget& target, int version, const GoldenArtifact& artifact,
                            const LoadOptions& load_options) {
  ReplayRecord r;
  r.target = target.name;
  r.version = version;
  r.test = artifact.test;
  auto client = ClientFor(target, load_options);
  if (!client.ok()) {
    r.status = ReplayStatus::kSkipped;
    r.reason = absl::StrCat("platform unavailable: ", client.status().message());
    return r;
  }
  auto start = std::chrono::steady_clock::now();
  auto executable = (*client)->Load(artifact.executable);
  r.load_ms =
      std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
  if (!executable.ok()) {
    const std::string message(executable.status().message());
    // A capability mismatch is the machine's, not a versioning bug.
    if (executable.status().code() == absl::StatusCode::kFailedPrecondition &&
        message.find("capability mismatch") != std::string::npos) {
      r.status = ReplayStatus::kSkipped;
      r.reason = message;
    } else {
      r.status = ReplayStatus::kFail;
      r.reason = absl::StrCat("the current runtime refuses the artifact: ", message);
    }
    return r;
  }
  if (!(*executable)->platform()->CanExecute()) {
    r.status = ReplayStatus::kSkipped;
    r.reason = absl::StrCat("loaded and validated (load steps 1-2); not executed: no ",
                            target.platform, " device on this machine");
    return r;
  }
  if (artifact.io.replicas_size() > 0) return ReplayReplicated(**executable, artifact, r);
  std::vector<Literal> args;
  for (const LiteralProto& a : artifact.io.arguments()) {
    auto literal = Literal::FromProto(a);
    if (!literal.ok()) {
      r.status = ReplayStatus::kFail;
      r.reason = absl::StrCat("recorded input unreadable: ", literal.status().message());
      return r;
    }
    args.push_back(*std::move(literal));
  }
  start = std::chrono::steady_clock::now();
  auto result = ExecuteWithLiterals(**executable, args);
  r.run_ms =
      std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
  if (!result.ok()) {
    r.status = ReplayStatus::kFail;
    r.reason = absl::StrCat("execution failed: ", result.status().message());
    return r;
  }
  std::vector<Literal> leaves = result->FlattenLeaves();
  if (static_cast<int>(leaves.size()) != artifact.io.results_size()) {
    r.status = ReplayStatus::kFail;
    r.reason =
        absl::StrCat("produced ", leaves.size(), " results, recorded ", artifact.io.results_size());
    return r;
  }
  Tolerance tolerance{artifact.io.atol(), artifact.io.rtol()};
  for (size_t i = 0; i < leaves.size(); ++i) {
    auto expected = Literal::FromProto(artifact.io.results(static_cast<int>(i)));
    if (!expected.ok()) {
      r.status = ReplayStatus::kFail;
      r.reason = absl::StrCat("recorded output unreadable: ", expected.status().message());
      return r;
    }
    if (absl::Status s = CompareLiterals(*expected, leaves[i], tolerance); !s.ok()) {
      r.status = ReplayStatus::kFail;
      r.reason =
          absl::StrCat("outputs differ from the recorded ones (result ", i, ", ",
                       tolerance.bitwise() ? "bitwise" : "with tolerance", "): ", s.message());
      return r;
    }
  }
  r.status = ReplayStatus::kPass;
  return r;
}

std::string ReplayKey(absl::string_view platform, absl::string_view artifact_digest,
                      absl::string_view io_digest) {
  return absl::StrCat(platform, "/", artifact_digest, "/", io_digest);
}

std::string ReplayReport::VersionTable() const {
  struct Row {
    std::string target, date;
    int version = 0;
    int passed = 0, failed = 0, skipped = 0, expired = 0;
    double load_ms = 0, run_ms = 0;
  };
  std::vector<Row> rows;
  for (const ReplayRecord& r : records) {
    auto it = std::find_if(rows.begin(), rows.end(), [&](const Row& row) {
      return row.target == r.target && row.version == r.version;
    });
    if (it == rows.end()) {
      rows.push_back(Row{r.target, r.version_date, r.version});
      it = rows.end() - 1;
    }
    if (r.status == ReplayStatus::kPass) ++it->passed;
    if (r.status == ReplayStatus::kFail) ++it->failed;
    if (r.status == ReplayStatus::kSkipped) ++it->skipped;
    if (r.status == ReplayStatus::kExpired) ++it->expired;
    it->load_ms += r.load_ms;
    it->run_ms += r.run_ms;
  }
  std::string out =
      absl::StrFormat("%-16s %-8s %-10s %6s %6s %7s %7s %10s %10s\n", "target", "version",
                      "created", "passed", "failed", "skipped", "expired", "load_ms", "run_ms");
  for (const Row& row : rows) {
    absl::StrAppend(&out, absl::StrFormat("%-16s v%-7d %-10s %6d %6d %7d %7d %10.1f %10.1f\n",
                                          row.target, row.version, row.date, row.passed, row.failed,
                                          row.skipped, row.expired, row.load_ms, row.run_ms));
  }
  return out;
}

nlohmann::ordered_json ReplayReport::ToJson() const {
  nlohmann::ordered_json j;
  nlohmann::ordered_json list = nlohmann::ordered_json::array();
  for (const ReplayRecord& r : records) {
    nlohmann::ordered_json e;
    e["target"] = r.target;
    e["version"] = r.version;
    e["version_date"] = r.version_date;
    e["test"] = r.test;
    e["status"] = std::string(ReplayStatusName(r.status));
    e["reason"] = r.reason;
    if (!r.replayed_as.empty()) e["replayed_as"] = r.replayed_as;
    if (r.from_replay_cache) e["from_replay_cache"] = true;
    e["load_ms"] = r.load_ms;
    e["run_ms"] = r.run_ms;
    list.push_back(e);
  }
  j["results"] = list;
  j["summary"] = {{"passed", passed},   {"failed", failed},
                  {"skipped", skipped}, {"expired", expired},
                  {"cached", cached},   {"total", static_cast<int>(records.size())}};
  if (!cache_dir.empty()) {
    j["replay_cache"] = {{"dir", cache_dir}, {"runtime_fingerprint", runtime_fingerprint}};
    if (!cache_warning.empty()) j["replay_cache"]["warning"] = cache_warning;
  }
  return j;
}

absl::StatusOr<ReplayReport> ReplayGoldens(const ReplayOptions& options) {
  ReplayReport report;
  int jobs = options.jobs > 0 ? options.jobs
                              : std::clamp(static_cast<int>(std::thread::hardware_concurrency()), 1,
                                           kMaxReplayJobs);
  // The calling thread works too: jobs - 1 workers.
  std::unique_ptr<ThreadPool> pool = jobs > 1 ? std::make_unique<ThreadPool>(jobs - 1) : nullptr;
  // Each distinct (platform, artifact blob, I/O blob) replays once, by its
  // oldest holder; blobs shared by many versions are hashed once.
  std::set<std::string> claimed;
  std::map<std::string, ReplayRecord> replayed;
  std::set<std::string> verified_blobs;
  // The replay cache: a verdict this runtime already gave for the same
  // blobs is taken instead of loading the artifact again.
  std::unique_ptr<ReplayCacheRun> cache;
  if (!options.cache_dir.empty()) {
    std::vector<std::string> platforms;
    for (const std::string& name : options.targets) {
      // An unknown target is reported by the loop below.
      if (auto target = FindGoldenTarget(name); target.ok()) platforms.push_back(target->platform);
    }
    cache = std::make_unique<ReplayCacheRun>(options.cache_dir, platforms, options.load_options,
                                             options.require_execution);
    report.cache_dir = options.cache_dir;
    report.runtime_fingerprint = cache->cache().runtime_fingerprint();
  }
  for (const std::string& name : options.targets) {
    AOT_ASSIGN_OR_RETURN(auto target, FindGoldenTarget(name));
    AOT_ASSIGN_OR_RETURN(auto versions, DiscoverVersions(options.golden_dir, name));
    std::vector<int> selected = options.versions.empty()
                                    ? SelectVersions(versions, options.all_versions)
                                    : options.versions;
    if (!options.now.empty()) {
      AOT_ASSIGN_OR_RETURN(auto now, Date::Parse(options.now));
      AOT_ASSIGN_OR_RETURN(auto dated, DatedVersions(options.golden_dir, name));
      BackwardWindow window = ComputeBackwardWindow(dated, now);
      selected = window.in_window;
      for (int v : window.expired) {
        ReplayRecord r;
        r.target = name;
        r.version = v;
        for (const DatedVersion& d : dated) {
          if (d.version == v) r.version_date = d.created.ToString();
        }
        r.test = "*";
        r.status = ReplayStatus::kExpired;
        r.reason = absl::StrCat("created before the backward window (", window.start.ToString(),
                                " .. ", options.now, ") and superseded; may be pruned");
        ++report.expired;
        report.records.push_back(std::move(r));
      }
    }
    for (int version : selected) {
      std::string dir = VersionDir(options.golden_dir, name, version);
      int before_failed = report.failed, before_passed = report.passed,
          before_skipped = report.skipped, before_cached = report.cached;
      auto manifest = ReadManifest(dir);
      auto add = [&](ReplayRecord r) {
        if (manifest.ok()) r.version_date = manifest->created;
        if (r.from_replay_cache) ++report.cached;
        if (r.status == ReplayStatus::kPass)
          ++report.passed;
        else if (r.status == ReplayStatus::kFail)
          ++report.failed;
        else
          ++report.skipped;
        report.records.push_back(std::move(r));
      };
      absl::Status integrity =
          manifest.ok() ? VerifyManifest(dir, *manifest, &verified_blobs) : manifest.status();
      if (!integrity.ok()) {
        ReplayRecord r;
        r.target = name;
        r.version = version;
        r.test = "*";
        r.status = ReplayStatus::kFail;
        r.reason = std::string(integrity.message());
        add(std::move(r));
      } else {
        // The tests of a version are independent: each reads, loads and
        // runs its own artifact with its own client, on `pool` when there
        // is one. Records keep the test order whatever the schedule. A test
        // whose artifact and I/O blobs were already replayed in this run (on
        // this platform, with these load options) is not replayed again: it
        // gets that replay's record, naming it.
        const std::vector<std::string> tests = manifest->TestNames();
        std::vector<ReplayRecord> records(tests.size());
        std::vector<std::string> keys(tests.size());
        std::vector<int64_t> to_run;
        for (size_t i = 0; i < tests.size(); ++i) {
          if (manifest->format == 2) {
            const ManifestEntry& e = manifest->tests.at(tests[i]);
            keys[i] = ReplayKey(target.platform, e.artifact, e.io);
            if (!claimed.insert(keys[i]).second) continue;
          }
          to_run.push_back(static_cast<int64_t>(i));
        }
        std::atomic<int64_t> started{0};
        auto replay_one = [&](int64_t n) {
          const int64_t i = to_run[n];
          if (options.progress != nullptr) {
            options.progress->Update(absl::StrCat("replay ", name, " v", version, ": ", tests[i]),
                                     ++started, static_cast<int64_t>(to_run.size()));
          }
          auto artifact = ReadArtifact(dir, *manifest, tests[i]);
          if (!artifact.ok()) {
            ReplayRecord& r = records[i];
            r.target = name;
            r.version = version;
            r.test = tests[i];
            r.status = ReplayStatus::kFail;
            r.reason = std::string(artifact.status().message());
            return;
          }
          std::optional<ReplayCacheKey> cache_key;
          if (cache != nullptr && manifest->format == 2) {
            cache_key = cache->KeyFor(target.platform, *artifact);
          }
          std::optional<ReplayRecord> hit;
          if (cache_key) hit = cache->Lookup(*cache_key);
          if (hit) {
            records[i] = *hit;
            records[i].target = name;
            records[i].version = version;
            records[i].test = tests[i];
            records[i].from_replay_cache = true;
          } else {
            records[i] = ReplayArtifact(target, version, *artifact, options.load_options);
          }
          if (options.require_execution && records[i].status == ReplayStatus::kSkipped) {
            records[i].status = ReplayStatus::kFail;
            records[i].reason = absl::StrCat("--require_execution: ", records[i].reason);
          }
          // Only verdicts of real replays; Store keeps passes and skips only.
          if (cache_key && !hit) cache->Store(*cache_key, records[i]);
        };
        if (pool != nullptr) {
          pool->ParallelFor(static_cast<int64_t>(to_run.size()), replay_one);
        } else {
          for (size_t n = 0; n < to_run.size(); ++n) replay_one(static_cast<int64_t>(n));
        }
        for (int64_t i : to_run) {
          if (!keys[i].empty()) replayed[keys[i]] = records[i];
        }
        for (size_t i = 0; i < tests.size(); ++i) {
          if (keys[i].empty() || !records[i].test.empty()) continue;
          const ReplayRecord& earlier = replayed.at(keys[i]);
          ReplayRecord& r = records[i];
          r.target = name;
          r.version = version;
          r.test = tests[i];
          r.status = earlier.status;
          r.reason = earlier.reason;
          r.replayed_as = earlier.replayed_as.empty()
                              ? absl::StrCat(earlier.target, " v", earlier.version)
                              : earlier.replayed_as;
        }
        for (ReplayRecord& r : records) add(std::move(r));
      }
      if (options.progress != nullptr) {
        options.progress->Line(absl::StrFormat(
            "replay %s v%d: %d passed, %d failed, %d skipped%s", name, version,
            report.passed - before_passed, report.failed - before_failed,
            report.skipped - before_skipped,
            cache == nullptr
                ? ""
                : absl::StrCat(" (", report.cached - before_cached, " from the replay cache)")));
      }
    }
  }
  if (cache != nullptr) report.cache_warning = cache->Warning();
  return report;
}

absl::StatusOr<std::vector<int>> PruneExpired(const std::string& golden_dir,
                                              const std::string& target, const std::string& now,
                                              bool dry_run,
                                              std::vector<std::string>* retired_blobs) {
  AOT_ASSIGN_OR_RETURN(auto date, Date::Parse(now));
  AOT_ASSIGN_OR_RETURN(auto dated, DatedVersions(golden_dir, target));
  BackwardWindow window = ComputeBackwardWindow(dated, date);
  // The blobs the expired versions name: those no remaining version of any
  // target names retire with them (only those: a blob another writer has
  // just stored for a version not yet renamed into place is not touched).
  std::set<std::string> candidates;
  for (int v : window.expired) {
    AOT_ASSIGN_OR_RETURN(Manifest manifest, ReadManifest(VersionDir(golden_dir, target, v)));
    manifest.AddBlobKeys(&candidates);
  }
  if (!dry_run) {
    for (int v : window.expired) {
      std::error_code ec;
      fs::remove_all(VersionDir(golden_dir, target, v), ec);
      if (ec) {
        return absl::InternalError(
            absl::StrCat("cannot remove ", VersionDir(golden_dir, target, v), ": ", ec.message()));
      }
    }
  }
  // What remains: every manifest but the expired ones (after the removal
  // the skip matches nothing; a dry run reads what would remain).
  AOT_ASSIGN_OR_RETURN(
      std::set<std::string> kept, ReferencedBlobs(golden_dir, [&](const StoredVersion& sv) {
        return sv.target == target && absl::c_linear_search(window.expired, sv.version);
      }));
  const BlobStore store = GoldenBlobStore(golden_dir);
  for (const std::string& key : candidates) {
    if (kept.contains(key)) continue;
    const size_t slash = key.find('/');
    const std::string kind = key.substr(0, slash), digest = key.substr(slash + 1);
    if (retired_blobs != nullptr) retired_blobs->push_back(store.PathOf(kind, digest));
    if (!dry_run) AOT_RETURN_IF_ERROR(store.Remove(kind, digest));
  }
  return window.expired;
}

namespace {

// The compiling binary as the compile cache trusts it: a rebuilt binary has
// another size or modification time (the replay cache trusts mapped
// libraries the same way).
const std::string& CompilerBinaryIdentity() {
  static const std::string* identity = [] {
    std::error_code ec;
    std::string exe = std::filesystem::read_symlink("/proc/self/exe", ec).string();
    return new std::string(ec ? std::string() : absl::StrCat(exe, " ", SharedLibraryState(exe)));
  }();
  return *identity;
}

// <cache_dir>/compile/<key>.pb for the module compiled for the target;
// empty when the module cannot be read (it is compiled, and fails, then).
std::string CompileCachePath(const std::string& cache_dir, const GoldenTarget& target,
                             const CorpusModule& module) {
  if (cache_dir.empty() || CompilerBinaryIdentity().empty()) return "";
  auto text = ReadFileToString(module.path);
  if (!text.ok()) return "";
  const std::string key = Sha256Hex(absl::StrCat(
      "compile v1\n", CompilerBinaryIdentity(), "\n", target.name, "\n", target.target_config, "\n",
      target.platform, "\n", absl::StrJoin(target.emission_flags, ","), "\n", target.replica_count,
      "\n", target.partitions, "\n", module.test, "\n", module.path, "\n", *text));
  return (std::filesystem::path(cache_dir) / "compile" / (key + ".pb")).string();
}

}  // namespace

absl::StatusOr<std::vector<CompiledTest>> CompileCorpus(const std::string& golden_dir,
                                                        const std::vector<std::string>& targets,
                                                        Progress* progress,
                                                        const std::string& cache_dir) {
  AOT_ASSIGN_OR_RETURN(auto modules, DiscoverModules(golden_dir));
  struct Job {
    GoldenTarget target;
    CorpusModule module;
  };
  std::vector<Job> jobs;
  for (const std::string& name : targets) {
    AOT_ASSIGN_OR_RETURN(auto target, TargetAsGenerated(golden_dir, name));
    for (const CorpusModule& module : ModulesForTarget(modules, target)) {
      jobs.push_back({target, module});
    }
  }
  // Modules compile independently: one per hardware thread (the calling
  // thread works too), results in target then module order whatever the
  // schedule; the first error in that order is the one reported.
  std::vector<absl::StatusOr<ExecutableProto>> compiled(jobs.size(),
                                                        absl::UnknownError("not compiled"));
  std::atomic<int64_t> started{0};
  auto compile_one = [&](int64_t i) {
    if (progress != nullptr) {
      progress->Update(absl::StrCat("compile ", jobs[i].target.name, ": ", jobs[i].module.test),
                       ++started, static_cast<int64_t>(jobs.size()));
    }
    const std::string cached = CompileCachePath(cache_dir, jobs[i].target, jobs[i].module);
    if (!cached.empty()) {
      ExecutableProto e;
      auto bytes = ReadFileToString(cached);
      if (bytes.ok() && e.ParseFromString(*bytes)) {
        compiled[i] = std::move(e);
        return;
      }
    }
    compiled[i] = CompileCorpusModule(jobs[i].module, jobs[i].target);
    if (!cached.empty() && compiled[i].ok()) {
      std::error_code ec;
      std::filesystem::create_directories(std::filesystem::path(cached).parent_path(), ec);
      // A cache that cannot be written only costs the next run a compile.
      (void)WriteFileAtomically(cached, compiled[i]->SerializeAsString());
    }
  };
  const int threads =
      std::clamp(static_cast<int>(std::thread::hardware_concurrency()), 1, kMaxReplayJobs);
  if (threads > 1 && jobs.size() > 1) {
    ThreadPool pool(threads - 1);
    pool.ParallelFor(static_cast<int64_t>(jobs.size()), compile_one);
  } else {
    for (size_t i = 0; i < jobs.size(); ++i) compile_one(static_cast<int64_t>(i));
  }
  std::vector<CompiledTest> out;
  out.reserve(jobs.size());
  for (size_t i = 0; i < jobs.size(); ++i) {
    if (!compiled[i].ok()) return compiled[i].status();
    out.push_back({jobs[i].target.name, jobs[i].module.test, *std::move(compiled[i])});
  }
  return out;
}

absl::StatusOr<std::vector<VerifyResult>> VerifyGoldens(const std::string& golden_dir,
                                                        const std::vector<std::string>& targets,
                                                        bool strict) {
  AOT_ASSIGN_OR_RETURN(auto compiled, CompileCorpus(golden_dir, targets));
  return VerifyCompiled(golden_dir, targets, compiled, strict);
}

absl::StatusOr<std::vector<VerifyResult>> VerifyCompiled(const std::string& golden_dir,
                                                         const std::vector<std::string>& targets,
                                                         const std::vector<CompiledTest>& compiled,
                                                         bool strict) {
  std::vector<VerifyResult> results;
  for (const std::string& name : targets) {
    AOT_ASSIGN_OR_RETURN(auto versions, DiscoverVersions(golden_dir, name));
    VerifyResult result;
    result.target = name;
    result.version = versions.back();
    std::string dir = VersionDir(golden_dir, name, result.version);
    std::vector<std::string> tests = ListTests(dir);
    std::vector<std::string> current;
    for (const CompiledTest& c : compiled) {
      if (c.target != name) continue;
      current.push_back(c.test);
      if (std::find(tests.begin(), tests.end(), c.test) == tests.end()) {
        result.ok = false;
        absl::StrAppend(&result.diff, c.test, ": new test, not in v", result.version, "\n");
        continue;
      }
      auto golden = ReadArtifact(dir, c.test);
      if (!golden.ok()) {
        result.ok = false;
        absl::StrAppend(&result.diff, c.test, ": ", golden.status().message(), "\n");
        continue;
      }
      if (strict) {
        if (ArtifactText(golden->executable) != ArtifactText(c.executable)) {
          result.ok = false;
          absl::StrAppend(&result.diff, c.test, ": not byte-identical (--strict)\n");
        }
        continue;
      }
      std::string diff = DiffExecutables(golden->executable, c.executable);
      if (!diff.empty()) {
        result.ok = false;
        absl::StrAppend(&result.diff, c.test, ":\n", diff);
      }
    }
    for (const std::string& t : tests) {
      if (std::find(current.begin(), current.end(), t) == current.end()) {
        result.ok = false;
        absl::StrAppend(&result.diff, t, ": in v", result.version,
                        " but no longer in the corpus\n");
      }
    }
    results.push_back(result);
  }
  return results;
}

}  // namespace aot
