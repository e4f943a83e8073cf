// The gate on synthetic histories in temp directories: golden versions,
// schema snapshots and releases with chosen dates, a runtime tree for the
// lint, and the "current compiler's output" given directly. Each scenario
// asserts the verdict and the blocker it names (issue: windows and gates).
//
// The clock is 2026-11-30 throughout: the backward window starts on
// 2026-05-30, the forward window on 2026-11-16.
#include "harness/gate/gate.h"

#include <filesystem>
#include <string>
#include <vector>

#include "absl/algorithm/container.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "compiler/backend/compiler.h"
#include "compiler/hlo/hlo_parser.h"
#include "compiler/rollout/emission_ledger.h"
#include "compiler/target/target_config.h"
#include "gmock/gmock.h"
#include "google/protobuf/descriptor.pb.h"
#include "gtest/gtest.h"
#include "harness/gate/qualification.h"
#include "harness/golden/golden_store.h"
#include "harness/release/release.h"
#include "harness/release/rollout_audit.h"
#include "harness/schema/reachability.h"
#include "harness/schema/schema_check.h"
#include "harness/testing/synthetic_history.h"
#include "proto/compat_options.pb.h"
#include "proto/schema.h"
#include "support/file_io.h"
#include "support/testing/temp_dir.h"

namespace aot {
namespace {

namespace fs = std::filesystem;
using google::protobuf::DescriptorProto;
using google::protobuf::FieldDescriptorProto;
using google::protobuf::FileDescriptorSet;
using ::testing::HasSubstr;

constexpr char kNow[] = "2026-11-30";
constexpr char kTarget[] = "host-x86-64-v2";
constexpr char kSnapshot[] = "golden/schema/2026-11-29-27123871.binpb";

// A corpus directory with a clean history: one golden version (created
// 2026-11-01) of two real tests, the committed schema snapshot, a release
// of this runtime (2026-11-01) and a runtime tree with one dated fallback.
class GateScenarioTest : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_FALSE(dir_.path().empty());
    root_ = dir_.path();
    fs::create_directories(fs::path(root_) / "schema");
    fs::copy_file(kSnapshot, fs::path(root_) / "schema" / fs::path(kSnapshot).filename());
    WriteRuntimeSource(
        "// Compatibility fallback: old names.\n"
        "// Can be removed in March 2027 (6 months backward compatibility window).\n");
    options_.golden_dir = root_;
    options_.source_root = (fs::path(root_) / "src").string();
    options_.now = kNow;
    options_.targets = {kTarget};
    options_.verify = false;  // the corpus is synthetic; verify has its own tests
    options_.ledger = std::vector<EmissionFlag>();
    options_.rollout = false;  // RolloutScenarioTest below
    options_.artifacts = [this]() -> absl::StatusOr<std::vector<ForwardArtifact>> {
      return current_output_;
    };
    EmitCurrent(testing::RealArtifact("add_mul").executable);
  }

  void WriteVersion(int version, const std::string& created,
                    const std::vector<GoldenArtifact>& artifacts) {
    testing::WriteGoldenVersion(root_, version, created, artifacts);
  }
  void WriteVersionWithLegacyKind(int version, const std::string& created) {
    testing::WriteGoldenVersionWithLegacyKind(root_, version, created);
  }
  void WriteCleanVersion(int version, const std::string& created) {
    WriteVersion(version, created,
                 {testing::RealArtifact("add_mul"), testing::RealArtifact("gelu")});
  }

  ReleaseSnapshot Release(const std::string& date) {
    ReleaseSnapshot r = CaptureRuntimeCapabilities();
    r.date = date;
    r.id = absl::StrCat(date, "-test");
    r.descriptor_set = absl::StrCat("schema/", fs::path(kSnapshot).filename().string());
    return r;
  }
  void WriteRelease(const ReleaseSnapshot& r) {
    fs::create_directories(fs::path(root_) / "releases");
    ASSERT_TRUE(WriteFileAtomically(absl::StrCat(root_, "/releases/", r.id, ".json"),
                                    ReleaseToJson(r).dump(2))
                    .ok());
  }
  void WriteSchemaSnapshot(const std::string& name, const FileDescriptorSet& set) {
    ASSERT_TRUE(WriteSnapshot(absl::StrCat(root_, "/schema/", name), set).ok());
  }
  void WriteRuntimeSource(const std::string& text) {
    fs::path path = fs::path(root_) / "src" / "runtime" / "fallbacks.cc";
    fs::create_directories(path.parent_path());
    ASSERT_TRUE(WriteFileAtomically(path.string(), text).ok());
  }
  void EmitCurrent(const ExecutableProto& e, const std::string& extra_bytes = "") {
    current_output_ = {{kTarget, e.name(), e.SerializeAsString() + extra_bytes}};
  }

  // The head schema gains ExecutableProto.scratch_alignment and the
  // current compiler sets it.
  void EmitWithNewField(bool ignorable) {
    options_.head_schema = testing::SchemaWithNewField(ignorable);
    head_pool_ = testing::PoolOf(*options_.head_schema);
    options_.head_pool = head_pool_.get();
    EmitCurrent(testing::RealArtifact("add_mul").executable, testing::ScratchAlignmentOnTheWire());
  }

  GateReport Run() {
    auto report = RunGate(options_);
    EXPECT_TRUE(report.ok()) << report.status();
    if (!report.ok()) return GateReport();
    return *report;
  }

  static std::string Blockers(const GateReport& r) { return r.Summary(); }

  testing::TempDir dir_{"aot_gate_test"};
  std::string root_;
  GateOptions options_;
  std::vector<ForwardArtifact> current_output_;
  std::unique_ptr<google::protobuf::DescriptorPool> head_pool_;
};

TEST_F(GateScenarioTest, CleanHistoryPasses) {
  WriteCleanVersion(1, "2026-11-01");
  WriteRelease(Release("2026-11-01"));
  GateReport report = Run();
  EXPECT_TRUE(report.ok()) << Blockers(report);
  EXPECT_EQ(report.backward.passed, 2);
  EXPECT_EQ(report.backward_window_start, "2026-05-30");
  EXPECT_EQ(report.forward_window_start, "2026-11-16");
  EXPECT_THAT(report.forward_releases, ::testing::ElementsAre("2026-11-01-test"));
}

// Backward, decision-tree step 3: a thunk kind removed from the runtime
// while a compiler of 5 months ago still emitted it.
TEST_F(GateScenarioTest, RemovedThunkKindStillEmitted5MonthsAgoIsBlocked) {
  WriteVersionWithLegacyKind(1, "2026-06-30");
  WriteCleanVersion(2, "2026-11-01");
  WriteRelease(Release("2026-11-01"));
  GateReport report = Run();
  EXPECT_FALSE(report.ok());
  ASSERT_TRUE(report.HasBlocker("backward", "REPLAY_FAILED")) << Blockers(report);
  EXPECT_THAT(Blockers(report), HasSubstr("host-x86-64-v2 v1 (2026-06-30) add_mul"));
  EXPECT_THAT(Blockers(report), HasSubstr("(ThunkProto) field 48 is not in the current schema (the "
                                          "artifact uses a field the current schema no longer "
                                          "has)"));
}

// The same kind, removed 7 months after its emission stopped (v2 no longer
// emits it), with its tag and name reserved: allowed; v1 is only expired.
TEST_F(GateScenarioTest, RemovedThunkKind7MonthsAfterEmissionStoppedIsAllowed) {
  WriteVersionWithLegacyKind(1, "2026-03-30");
  WriteCleanVersion(2, "2026-04-30");
  WriteCleanVersion(3, "2026-11-01");
  ReleaseSnapshot release = Release("2026-11-01");
  release.descriptor_set = "schema/2026-03-01-legacy00.binpb";  // it still read legacy_kind
  WriteRelease(release);
  // The schema before this change still had the kind (the change under the
  // gate removes it).
  fs::remove_all(fs::path(root_) / "schema");
  fs::create_directories(fs::path(root_) / "schema");
  WriteSchemaSnapshot("2026-03-01-legacy00.binpb", testing::SchemaWithLegacyKind());
  options_.head_schema = testing::SchemaWithLegacyKindReserved();
  GateReport report = Run();
  EXPECT_TRUE(report.ok()) << Blockers(report);
  EXPECT_EQ(report.backward.expired, 1);
  bool expired_notice = false, prune_notice = false;
  for (const GateNotice& n : report.notices) {
    if (n.check == "backward" && absl::StrContains(n.message, "v1 expired")) expired_notice = true;
    if (n.check == "prune") {
      prune_notice = true;
      EXPECT_THAT(n.message, HasSubstr("prunable (outside the 6-month backward window): "));
      EXPECT_THAT(n.message, HasSubstr(" v1. `aot-compat prune --golden_dir="));
    }
  }
  EXPECT_TRUE(expired_notice) << Blockers(report);
  EXPECT_TRUE(prune_notice) << report.Summary();

  // Without the reservation the schema rule blocks the cleanup.
  options_.head_schema.reset();
  GateReport unreserved = Run();
  EXPECT_TRUE(unreserved.HasBlocker("schema", "FIELD_REMOVED_NOT_RESERVED"))
      << Blockers(unreserved);
}

// Forward, step 4: a thunk kind the runtime of 20 days ago lacks, emitted
// by default 10 days after runtime support landed.
TEST_F(GateScenarioTest, NewThunkKindEmitted10DaysAfterRuntimeSupportIsBlocked) {
  WriteCleanVersion(1, "2026-11-01");
  ReleaseSnapshot before = Release("2026-11-10");
  std::erase(before.thunk_kinds, "conditional");
  WriteRelease(before);
  WriteRelease(Release("2026-11-20"));
  EmitCurrent(testing::RealArtifact("conditional_pred").executable);
  options_.ledger = std::vector<EmissionFlag>{
      {"emit_conditional_thunk", "conditional thunks", "", "2026-11-20", true, "2026-11-20", ""}};
  GateReport report = Run();
  EXPECT_FALSE(report.ok());
  EXPECT_TRUE(report.HasBlocker("forward", "UNKNOWN_THUNK_KIND")) << Blockers(report);
  EXPECT_THAT(Blockers(report), HasSubstr("release 2026-11-10-test"));
  EXPECT_THAT(Blockers(report), HasSubstr("thunk kind 'conditional'"));
  EXPECT_TRUE(report.HasBlocker("ledger", "EMITTED_TOO_EARLY")) << Blockers(report);
}

TEST_F(GateScenarioTest, NewThunkKindEmitted15DaysAfterRuntimeSupportIsAllowed) {
  WriteCleanVersion(1, "2026-11-01");
  ReleaseSnapshot before = Release("2026-11-01");
  std::erase(before.thunk_kinds, "conditional");
  WriteRelease(before);
  WriteRelease(Release("2026-11-15"));
  EmitCurrent(testing::RealArtifact("conditional_pred").executable);
  options_.ledger = std::vector<EmissionFlag>{
      {"emit_conditional_thunk", "conditional thunks", "", "2026-11-15", true, "2026-11-30", ""}};
  GateReport report = Run();
  EXPECT_TRUE(report.ok()) << Blockers(report);
  // Only the newest release before the window start is current.
  EXPECT_THAT(report.forward_releases, ::testing::ElementsAre("2026-11-15-test"));
}

// emit_collectives, the staged rollout as shipped: runtime support landed
// with the release of 2026-12-03; the release of 2026-11-30 before it
// knows neither the collective thunk kinds nor the device assignment.
// Switching the flag's default on (the compiler then emits collectives
// for every module that has them):
// - on the day of the support: blocked by the ledger (too early) and by
//   the forward window (the 2026-11-30 release cannot read the artifact);
// - on 2026-12-17 (support + 14 days): the ledger allows it, and the
//   forward window checks the 2026-12-03 release; the 2026-11-30 release
//   is in the window that day only if it was still current when the
//   window opened, i.e. when the support release was cut on an earlier
//   day than its date says. Dated 2026-12-03 like the window's first day,
//   it was current for part of that day, so the gate holds the switch one
//   more day (as the README says for emit_low_precision_gemm);
// - on 2026-12-18 the gate passes.
TEST_F(GateScenarioTest, SwitchingEmitCollectivesOnIsBlockedTodayAndAllowedFifteenDaysLater) {
  WriteCleanVersion(1, "2026-11-01");
  ReleaseSnapshot before = Release("2026-11-30");
  std::erase_if(before.thunk_kinds, [](const std::string& kind) {
    return kind == "all_reduce" || kind == "all_gather" || kind == "reduce_scatter" ||
           kind == "all_to_all" || kind == "collective_permute" || kind == "collective_broadcast" ||
           kind == "replica_id" || kind == "partition_id";
  });
  const EmissionFlag* shipped = FindEmissionFlag("emit_collectives");
  ASSERT_NE(shipped, nullptr);
  for (const std::string& opcode : shipped->hlo_opcodes) std::erase(before.hlo_opcodes, opcode);
  WriteRelease(before);  // reads the 2026-11-29 schema: no collective cases
  ReleaseSnapshot support = Release(shipped->runtime_support_since);
  WriteSchemaSnapshot("2026-12-03-collectives.binpb", SchemaDescriptorSet());
  support.descriptor_set = "schema/2026-12-03-collectives.binpb";
  WriteRelease(support);

  // The compiler's output with the default switched: an all-reduce over 4
  // replicas.
  auto module = ParseHloModule(R"(
HloModule all_reduce, replica_count=4
add {
  a = f32[] parameter(0)
  b = f32[] parameter(1)
  ROOT s = f32[] add(a, b)
}
ENTRY e {
  x = f32[8] parameter(0)
  ROOT r = f32[8] all-reduce(x), replica_groups={{0,1},{2,3}}, to_apply=add
})");
  ASSERT_TRUE(module.ok()) << module.status();
  CompileOptions compile;
  compile.emission_flags = {"emit_collectives"};
  auto compiled = Compile(**module, *ShippedTargetConfig(kTarget), compile);
  ASSERT_TRUE(compiled.ok()) << compiled.status();
  ASSERT_TRUE(absl::c_any_of((*compiled)->proto().thunks(),
                             [](const ThunkProto& t) { return t.has_all_reduce(); }));
  current_output_ = {{kTarget, "all_reduce", (*compiled)->SerializeAsString()}};
  EmissionFlag switched = *shipped;
  switched.enabled_by_default = true;

  options_.now = shipped->runtime_support_since;  // today: blocked
  switched.enabled_since = options_.now;
  options_.ledger = std::vector<EmissionFlag>{switched};
  GateReport today = Run();
  EXPECT_FALSE(today.ok());
  EXPECT_TRUE(today.HasBlocker("ledger", "EMITTED_TOO_EARLY")) << Blockers(today);
  EXPECT_TRUE(today.HasBlocker("forward", "UNKNOWN_ONEOF_CASE")) << Blockers(today);
  EXPECT_THAT(Blockers(today), HasSubstr("release 2026-11-30-test"));
  EXPECT_THAT(Blockers(today), HasSubstr("all_reduce"));

  // Support + 14 days: the 2026-11-30 release is still the newest before
  // the window's start, so the ledger and the forward check both block.
  options_.now = "2026-12-17";
  switched.enabled_since = options_.now;
  options_.ledger = std::vector<EmissionFlag>{switched};
  GateReport fourteen = Run();
  EXPECT_TRUE(fourteen.HasBlocker("ledger", "EMITTED_TOO_EARLY")) << Blockers(fourteen);
  EXPECT_THAT(Blockers(fourteen), HasSubstr("until 2026-12-18"));
  EXPECT_TRUE(fourteen.HasBlocker("forward", "UNKNOWN_ONEOF_CASE")) << Blockers(fourteen);
  EXPECT_THAT(fourteen.forward_releases,
              ::testing::ElementsAre("2026-11-30-test", "2026-12-03-test"));

  options_.now = "2026-12-18";  // the 2026-11-30 release out of the window: passes
  switched.enabled_since = options_.now;
  options_.ledger = std::vector<EmissionFlag>{switched};
  GateReport later = Run();
  EXPECT_TRUE(later.ok()) << Blockers(later);
  EXPECT_THAT(later.forward_releases, ::testing::ElementsAre("2026-12-03-test"));
}

// Phase 3 too early: the old form's fallback removed 4 months after the
// compiler switched to the new one.
TEST_F(GateScenarioTest, FallbackRemovedLessThan6MonthsAfterTheSwitchIsBlocked) {
  WriteCleanVersion(1, "2026-11-01");
  WriteRelease(Release("2026-11-01"));
  options_.ledger = std::vector<EmissionFlag>{{"emit_conditional_thunk", "conditional thunks", "",
                                               "2026-06-01", true, "2026-07-01", "2026-11-01"}};
  GateReport report = Run();
  EXPECT_TRUE(report.HasBlocker("ledger", "FALLBACK_REMOVED_TOO_EARLY")) << Blockers(report);
  // Removed 6 months after the switch: allowed.
  options_.ledger = std::vector<EmissionFlag>{{"emit_conditional_thunk", "conditional thunks", "",
                                               "2026-04-01", true, "2026-05-01", "2026-11-01"}};
  EXPECT_TRUE(Run().ok());
}

// Step 5: an FFI handler renamed without an alias breaks the goldens that
// call the old name and the names of the window's releases.
TEST_F(GateScenarioTest, RenamedFfiHandlerWithoutAliasIsBlocked) {
  GoldenArtifact gelu = testing::RealArtifact("gelu");
  gelu.executable.mutable_thunks(0)->mutable_custom_call()->set_target_name("aot.gelu_erf");
  WriteVersion(1, "2026-10-01", {gelu});
  ReleaseSnapshot old = Release("2026-10-01");
  old.ffi_handlers.push_back("aot.gelu_erf");
  WriteRelease(old);
  GateReport report = Run();
  EXPECT_FALSE(report.ok());
  EXPECT_TRUE(report.HasBlocker("backward", "REPLAY_FAILED")) << Blockers(report);
  EXPECT_TRUE(report.HasBlocker("registry", "FFI_NAME_REMOVED")) << Blockers(report);
  EXPECT_THAT(Blockers(report), HasSubstr("'aot.gelu_erf'"));
}

TEST_F(GateScenarioTest, RenamedFfiHandlerWithAliasIsAllowed) {
  // aot.gelu was called aot.gelu_tanh; the runtime keeps the old name as
  // an alias until 2027-06-01.
  GoldenArtifact gelu = testing::RealArtifact("gelu");
  ASSERT_TRUE(gelu.executable.thunks(0).has_custom_call());
  gelu.executable.mutable_thunks(0)->mutable_custom_call()->set_target_name("aot.gelu_tanh");
  WriteVersion(1, "2026-10-01", {gelu});
  ReleaseSnapshot old = Release("2026-10-01");
  std::erase(old.ffi_handlers, "aot.gelu");
  old.ffi_handlers.push_back("aot.gelu_tanh");
  old.ffi_aliases.clear();
  WriteRelease(old);
  WriteRelease(Release("2026-11-01"));
  GateReport report = Run();
  EXPECT_TRUE(report.ok()) << Blockers(report);
  EXPECT_EQ(report.backward.passed, 1);
}

// Step 4: a new field required for correctness, emitted without a staged
// rollout, is unknown to the releases of the forward window.
TEST_F(GateScenarioTest, NewRequiredFieldWithoutStagedRolloutIsBlocked) {
  WriteCleanVersion(1, "2026-11-01");
  WriteRelease(Release("2026-11-01"));
  EmitWithNewField(/*ignorable=*/false);
  GateReport report = Run();
  EXPECT_FALSE(report.ok());
  EXPECT_TRUE(report.HasBlocker("forward", "UNKNOWN_FIELD")) << Blockers(report);
  EXPECT_THAT(Blockers(report), HasSubstr("aot.ExecutableProto.scratch_alignment"));
}

// Step 6: a new optional field older runtimes may ignore.
TEST_F(GateScenarioTest, NewOptionalIgnorableFieldIsAllowed) {
  WriteCleanVersion(1, "2026-11-01");
  WriteRelease(Release("2026-11-01"));
  EmitWithNewField(/*ignorable=*/true);
  GateReport report = Run();
  EXPECT_TRUE(report.ok()) << Blockers(report);
  bool noticed = false;
  for (const ForwardFinding& f : report.forward) noticed |= f.rule == "IGNORABLE_FIELD";
  EXPECT_TRUE(noticed);
}

// Step 2: a runtime-read flag default changed in a way an old golden does
// not survive (a smaller memory budget than its allocations).
TEST_F(GateScenarioTest, ChangedRuntimeFlagDefaultThatBreaksAnOldGoldenIsBlocked) {
  WriteCleanVersion(1, "2026-09-01");
  WriteRelease(Release("2026-09-01"));
  options_.load_options.memory_budget_bytes = 64;
  GateReport report = Run();
  EXPECT_FALSE(report.ok());
  EXPECT_TRUE(report.HasBlocker("flags", "FLAG_DEFAULT_CHANGED")) << Blockers(report);
  EXPECT_THAT(Blockers(report), HasSubstr("memory_budget_bytes: 8589934592 -> 64"));
}

TEST_F(GateScenarioTest, ChangedRuntimeFlagDefaultThatEveryGoldenSurvivesIsANotice) {
  WriteCleanVersion(1, "2026-09-01");
  WriteRelease(Release("2026-09-01"));
  options_.load_options.max_control_nesting = 8;
  GateReport report = Run();
  EXPECT_TRUE(report.ok()) << Blockers(report);
}

TEST_F(GateScenarioTest, FallbackWithoutExpiryCommentIsBlocked) {
  WriteCleanVersion(1, "2026-11-01");
  WriteRelease(Release("2026-11-01"));
  WriteRuntimeSource("// Compatibility fallback: reads the v0 slice layout.\nint x;\n");
  GateReport report = Run();
  EXPECT_FALSE(report.ok());
  EXPECT_TRUE(report.HasBlocker("lint", "FALLBACK_WITHOUT_EXPIRY")) << Blockers(report);
  EXPECT_THAT(Blockers(report), HasSubstr("fallbacks.cc:1"));
}

TEST_F(GateScenarioTest, ExpiredFallbackIsANotice) {
  WriteCleanVersion(1, "2026-11-01");
  WriteRelease(Release("2026-11-01"));
  WriteRuntimeSource(
      "// Compatibility fallback: reads the v0 slice layout.\n"
      "// Can be removed in June 2026 (6 months backward compatibility window).\n");
  GateReport report = Run();
  EXPECT_TRUE(report.ok()) << Blockers(report);
  bool noticed = false;
  for (const GateNotice& n : report.notices) {
    noticed |= n.check == "lint" && absl::StrContains(n.message, "fallbacks.cc");
  }
  EXPECT_TRUE(noticed) << Blockers(report);
}

TEST_F(GateScenarioTest, NoReleaseBlocksTheForwardGate) {
  WriteCleanVersion(1, "2026-11-01");
  GateReport report = Run();
  EXPECT_TRUE(report.HasBlocker("forward", "NO_RELEASE")) << Blockers(report);
}

TEST_F(GateScenarioTest, BadDateIsAnError) {
  options_.now = "2026-02-30x";
  EXPECT_FALSE(RunGate(options_).ok());
}

// The rollout step: a flag whose flag-on artifacts the release at its
// runtime-support commit cannot run (the packed sub-byte case of
// 2026-12-04: that release's aot-run cannot make arguments for packed
// entry values). The clock is 2026-12-07; the flag's ledger date allows a
// switch on 2026-12-19, inside the next 14 days.
class RolloutScenarioTest : public GateScenarioTest {
 protected:
  void SetUp() override {
    GateScenarioTest::SetUp();
    options_.now = "2026-12-07";
    options_.rollout = true;
    WriteCleanVersion(1, "2026-11-01");
    // The flag-on targets' committed manifests: the audit reads their
    // artifacts' digests.
    for (const char* target : {"packed_types_host", "packed_types_h100"}) {
      for (const auto& t : testing::CopyCommittedManifest(root_, target)) {
        flag_on_.push_back({t.target, t.test, t.digest, OldRunVerdict::kPassed, ""});
      }
    }
    ASSERT_FALSE(flag_on_.empty());
    old_ = Release("2026-12-04");
    WriteRelease(old_);
  }
  void Record(const ReleaseSnapshot& release, OldRunVerdict verdict, const std::string& detail) {
    std::vector<OldRun> runs = flag_on_;
    for (OldRun& r : runs) {
      r.verdict = verdict;
      r.detail = detail;
    }
    ASSERT_TRUE(RecordReleaseRuns(root_, release, runs).ok());
  }
  void Ledger(const ReleaseSnapshot& release) {
    EmissionFlag f;
    f.name = "emit_packed_sub_byte_layouts";
    f.description = "packed sub-byte layouts";
    f.runtime_release = release.id;
    f.runtime_support_since = release.date;
    options_.ledger = std::vector<EmissionFlag>{f};
  }

  std::vector<OldRun> flag_on_;
  ReleaseSnapshot old_;
  const std::string no_args_ =
      "argument 1 has shape u8[1056]{0}, parameter 1 is s4[64,33]{1,0:E(4)}";
};

TEST_F(RolloutScenarioTest, FlagTheWindowsReleaseCannotRunIsBlockedNamingReleaseArtifactAndDate) {
  Record(old_, OldRunVerdict::kNotRunnable, no_args_);
  Ledger(old_);
  GateReport report = Run();
  EXPECT_FALSE(report.ok());
  ASSERT_TRUE(report.HasBlocker("rollout", "ROLLOUT_BLOCKED")) << Blockers(report);
  EXPECT_TRUE(report.HasBlocker("rollout", "LEDGER_RELEASE_CANNOT_RUN")) << Blockers(report);
  const std::string text = Blockers(report);
  EXPECT_THAT(text, HasSubstr("emit_packed_sub_byte_layouts may switch on from 2026-12-19"));
  EXPECT_THAT(text, HasSubstr("release 2026-12-04-test"));
  EXPECT_THAT(text, HasSubstr("packed_types_host/packed_int4_matmul: not_runnable: " + no_args_));
  EXPECT_THAT(text, HasSubstr("earliest allowed date: none yet"));
  ASSERT_EQ(report.rollout.size(), 1u);
  EXPECT_TRUE(report.rollout[0].first_release.empty());

  // A release whose runtime runs them: the switch may come 14 full days
  // after it, and the ledger must name it.
  ReleaseSnapshot fixed = Release("2026-12-07");
  WriteRelease(fixed);
  Record(fixed, OldRunVerdict::kPassed, "reference: match");
  report = Run();
  EXPECT_TRUE(report.HasBlocker("rollout", "ROLLOUT_BLOCKED")) << Blockers(report);
  EXPECT_THAT(Blockers(report),
              HasSubstr("earliest allowed date: 2026-12-22 (14 full days after 2026-12-07-test"));
  EXPECT_TRUE(report.HasBlocker("rollout", "LEDGER_RELEASE_CANNOT_RUN")) << Blockers(report);
  EXPECT_THAT(Blockers(report), HasSubstr("the first release that does: 2026-12-07-test"));

  // The ledger fixed: its switch (2026-12-22) is beyond the next 14 days.
  Ledger(fixed);
  report = Run();
  EXPECT_TRUE(report.ok()) << Blockers(report);
  ASSERT_EQ(report.rollout.size(), 1u);
  EXPECT_EQ(report.rollout[0].first_release, "2026-12-07-test");
  EXPECT_EQ(report.rollout[0].earliest_switch, "2026-12-22");
  // A day later the switch is inside them: every release of that day's
  // window (2026-12-07 only) runs them.
  options_.now = "2026-12-08";
  report = Run();
  EXPECT_TRUE(report.ok()) << Blockers(report);
}

TEST_F(RolloutScenarioTest, UnrecordedRunsAndUnknownReleasesBlock) {
  ReleaseSnapshot fixed = Release("2026-12-07");
  WriteRelease(fixed);
  Ledger(fixed);
  options_.now = "2026-12-08";
  GateReport report = Run();
  EXPECT_TRUE(report.HasBlocker("rollout", "ROLLOUT_UNRECORDED")) << Blockers(report);
  EXPECT_THAT(Blockers(report), HasSubstr("release 2026-12-07-test"));
  EXPECT_THAT(Blockers(report), HasSubstr("rollout-audit --build"));
  EmissionFlag f = (*options_.ledger)[0];
  f.runtime_release = "2026-12-06-nosuch";
  f.runtime_support_since = "2026-12-06";
  options_.ledger = std::vector<EmissionFlag>{f};
  report = Run();
  EXPECT_TRUE(report.HasBlocker("rollout", "LEDGER_RELEASE_UNKNOWN")) << Blockers(report);
  // A flag no golden target compiles with on cannot be checked at all.
  f.name = "emit_something_else";
  options_.ledger = std::vector<EmissionFlag>{f};
  report = Run();
  EXPECT_TRUE(report.HasBlocker("rollout", "NO_FLAG_ON_TARGET")) << Blockers(report);
}

// forward-check --build_runtime's JSON into the report: every runtime's
// verdict per artifact; anything else is refused naming the element.
TEST(QualificationTest, OldRuntimeRunsFromForwardCheckJson) {
  LabeledOldRuntimeRuns rt;
  rt.label = "2026-12-04-fd9c2736";
  rt.runs.commit = std::string(40, '5');
  rt.runs.runs = {{"packed_types_host", "packed_int4_matmul", "d1", OldRunVerdict::kNotRunnable,
                   "argument 1 has shape u8[1056]{0}"},
                  {"add_host", "add", "d2", OldRunVerdict::kPassed, "match"}};
  QualificationData data;
  nlohmann::json json = nlohmann::json::parse(OldRunsJson({rt}).dump());
  ASSERT_TRUE(AddOldRuntimeRuns(json, "fc.json", &data).ok());
  ASSERT_EQ(data.old_runtimes.size(), 2u);
  EXPECT_EQ(data.old_runtimes[0].runtime, "2026-12-04-fd9c2736");
  EXPECT_EQ(data.old_runtimes[0].commit, rt.runs.commit);
  EXPECT_EQ(data.old_runtimes[0].verdict, OldRunVerdict::kNotRunnable);
  EXPECT_EQ(data.old_runtimes[1].test, "add");
  json["runtimes"][0]["runs"][1]["verdict"] = "ok";
  absl::Status bad = AddOldRuntimeRuns(json, "fc.json", &data);
  EXPECT_FALSE(bad.ok());
  EXPECT_THAT(bad.message(), HasSubstr("fc.json: runtimes[0].runs[1]"));
  EXPECT_EQ(data.old_runtimes.size(), 2u);  // nothing added from a bad file
  EXPECT_FALSE(AddOldRuntimeRuns(nlohmann::json::array(), "x.json", &data).ok());
}

TEST(GateReportTest, SummaryAndJsonNameTheTargetsThatWereOnlyValidated) {
  GateReport report;
  report.now = "2026-12-02";
  auto record = [](const std::string& target, ReplayStatus status) {
    ReplayRecord r;
    r.target = target;
    r.status = status;
    return r;
  };
  report.backward.records = {record("host-x86-64-v3", ReplayStatus::kPass),
                             record("cuda-sm_90", ReplayStatus::kSkipped),
                             record("host-x86-64-v2", ReplayStatus::kSkipped),
                             record("host-x86-64-v2", ReplayStatus::kPass)};
  EXPECT_THAT(report.Summary(),
              ::testing::HasSubstr("targets: executed: host-x86-64-v2, host-x86-64-v3; loaded "
                                   "and validated only (not executed): cuda-sm_90\n"));
  nlohmann::ordered_json json = report.ToJson();
  EXPECT_EQ(json["executed_targets"], nlohmann::ordered_json({"host-x86-64-v2", "host-x86-64-v3"}));
  EXPECT_EQ(json["validated_only_targets"], nlohmann::ordered_json({"cuda-sm_90"}));
}

}  // namespace
}  // namespace aot
