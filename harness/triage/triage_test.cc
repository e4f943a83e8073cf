// Triage: each decision-tree step from a synthetic difference between a
// base and a head (base facts edited from this build's), judged against the
// bundled goldens at 2026-11-30.
#include "harness/triage/triage.h"

#include <string>
#include <vector>

#include "absl/strings/match.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "harness/golden/golden_store.h"
#include "harness/schema/reachability.h"
#include "harness/testing/synthetic_history.h"
#include "proto/compat_options.pb.h"
#include "proto/schema.h"
#include "support/testing/temp_dir.h"

namespace aot {
namespace {

using ::testing::HasSubstr;

ForwardArtifact Emitted(const std::string& test, const std::string& extra = "") {
  auto a = ReadArtifact("golden/executables/host-x86-64-v2/v1", test);
  EXPECT_TRUE(a.ok()) << a.status();
  return {"host-x86-64-v2", test, a.ok() ? a->executable.SerializeAsString() + extra : ""};
}

class TriageTest : public ::testing::Test {
 protected:
  void SetUp() override {
    in_.now = "2026-11-30";
    in_.targets = {"host-x86-64-v2"};
    in_.base_runtime = CaptureRuntimeCapabilities();
    in_.base_schema = SchemaDescriptorSet();
    in_.base_source = "synthetic base";
    in_.head_runtime = CaptureRuntimeCapabilities();
    in_.head_schema = SchemaDescriptorSet();
    in_.head_artifacts = {Emitted("add_mul"), Emitted("conditional_pred"), Emitted("gelu")};
  }

  // The head schema gains ExecutableProto.scratch_alignment (see
  // synthetic_history.h) and the head compiler sets it.
  void UseHeadSchemaWithNewField(bool ignorable) {
    in_.head_schema = testing::SchemaWithNewField(ignorable);
    head_pool_ = testing::PoolOf(in_.head_schema);
    in_.head_pool = head_pool_.get();
    in_.head_artifacts = {Emitted("add_mul", testing::ScratchAlignmentOnTheWire())};
  }

  TriageReport Run() {
    auto report = Triage(in_);
    EXPECT_TRUE(report.ok()) << report.status();
    return report.ok() ? *report : TriageReport();
  }

  // The one change whose `what` contains `needle`.
  static const TriageChange* Find(const TriageReport& r, const std::string& needle) {
    for (const TriageChange& c : r.changes) {
      if (absl::StrContains(c.what, needle)) return &c;
    }
    return nullptr;
  }

  TriageInput in_;
  std::unique_ptr<google::protobuf::DescriptorPool> head_pool_;
};

TEST_F(TriageTest, NoDifferenceIsSafe) {
  TriageReport r = Run();
  ASSERT_EQ(r.changes.size(), 1u) << r.ToText();
  EXPECT_EQ(r.changes[0].step, 1);
  EXPECT_EQ(r.changes[0].verdict, "safe");
  EXPECT_TRUE(r.ok());
}

TEST_F(TriageTest, RemovedThunkKindThatAGoldenOfTheWindowUsesBreaksBackward) {
  // Base: a runtime with `legacy_kind`; head (this build) has none, and a
  // golden of 5 months ago emits it.
  testing::TempDir dir("aot_triage_test");
  testing::WriteGoldenVersionWithLegacyKind(dir.path(), 1, "2026-06-30");
  in_.golden_dir = dir.path();
  in_.base_runtime.thunk_kinds.push_back("legacy_kind");
  // The base schema has the kind (ThunkProto field 48): the golden's blob
  // names it by that number.
  in_.base_schema = testing::SchemaWithLegacyKind();
  TriageReport r = Run();
  const TriageChange* c = Find(r, "thunk kind 'legacy_kind' removed");
  ASSERT_NE(c, nullptr) << r.ToText();
  EXPECT_EQ(c->step, 3);
  EXPECT_EQ(c->verdict, "breaking-backward");
  EXPECT_TRUE(c->breaks_now);
  EXPECT_THAT(c->evidence, HasSubstr("ThunkProto field 48 = 'legacy_kind' in the base schema"));
}

TEST_F(TriageTest, RemovedThunkKindNoGoldenOfTheWindowUsesIsAllowed) {
  in_.base_runtime.thunk_kinds.push_back("legacy_kind");
  TriageReport r = Run();
  const TriageChange* c = Find(r, "thunk kind 'legacy_kind' removed");
  ASSERT_NE(c, nullptr) << r.ToText();
  EXPECT_EQ(c->verdict, "breaking-backward");
  EXPECT_FALSE(c->breaks_now) << c->evidence;  // emission stopped >= 6 months ago
}

TEST_F(TriageTest, NewThunkKindInTheRuntimeIsPhaseOne) {
  std::erase(in_.base_runtime.thunk_kinds, "conditional");
  in_.head_artifacts = {Emitted("add_mul")};  // not emitted yet
  TriageReport r = Run();
  const TriageChange* c = Find(r, "runtime support for thunk kind 'conditional'");
  ASSERT_NE(c, nullptr) << r.ToText();
  EXPECT_EQ(c->step, 4);
  EXPECT_EQ(c->verdict, "safe");
  EXPECT_TRUE(r.ok()) << r.ToText();
}

TEST_F(TriageTest, EmittingAThunkKindTheBaseRuntimeLacksBreaksForward) {
  std::erase(in_.base_runtime.thunk_kinds, "conditional");
  TriageReport r = Run();
  const TriageChange* c = Find(r, "UNKNOWN_THUNK_KIND");
  ASSERT_NE(c, nullptr) << r.ToText();
  EXPECT_EQ(c->step, 4);
  EXPECT_EQ(c->verdict, "breaking-forward");
  EXPECT_TRUE(c->breaks_now);
  EXPECT_FALSE(r.ok());
}

TEST_F(TriageTest, RenamedFfiHandlerWithoutAliasBreaksBackward) {
  in_.base_runtime.ffi_handlers.push_back("aot.gelu_erf");
  TriageReport r = Run();
  const TriageChange* c = Find(r, "'aot.gelu_erf' no longer resolves");
  ASSERT_NE(c, nullptr) << r.ToText();
  EXPECT_EQ(c->step, 5);
  EXPECT_TRUE(c->breaks_now);
  EXPECT_THAT(c->procedure, HasSubstr("alias"));
}

TEST_F(TriageTest, RenamedFfiHandlerWithAliasIsSafe) {
  // Base: the handler was called aot.gelu_tanh; head: aot.gelu with the
  // old name as an alias (this build).
  std::erase(in_.base_runtime.ffi_handlers, "aot.gelu");
  in_.base_runtime.ffi_handlers.push_back("aot.gelu_tanh");
  in_.base_runtime.ffi_aliases.clear();
  in_.head_artifacts = {Emitted("add_mul")};
  TriageReport r = Run();
  const TriageChange* c = Find(r, "'aot.gelu_tanh' renamed");
  ASSERT_NE(c, nullptr) << r.ToText();
  EXPECT_EQ(c->verdict, "safe");
  EXPECT_TRUE(r.ok()) << r.ToText();
}

TEST_F(TriageTest, FlagDefaultChangeDependsOnTheGoldens) {
  in_.base_runtime.flag_defaults["max_control_nesting"] = "32";
  TriageReport r = Run();
  const TriageChange* c = Find(r, "max_control_nesting: 32 -> 16");
  ASSERT_NE(c, nullptr) << r.ToText();
  EXPECT_EQ(c->step, 2);
  EXPECT_EQ(c->verdict, "depends");
  EXPECT_FALSE(c->breaks_now) << c->evidence;  // every golden still replays

  in_.head_load_options.memory_budget_bytes = 64;
  in_.head_runtime.flag_defaults = RuntimeFlagDefaults(in_.head_load_options);
  TriageReport broken = Run();
  const TriageChange* b = Find(broken, "memory_budget_bytes");
  ASSERT_NE(b, nullptr) << broken.ToText();
  EXPECT_TRUE(b->breaks_now);
  EXPECT_THAT(b->evidence, HasSubstr("golden replay(s) fail"));
}

TEST_F(TriageTest, NewRequiredFieldEmittedAtOnceBreaksForward) {
  UseHeadSchemaWithNewField(/*ignorable=*/false);
  TriageReport r = Run();
  const TriageChange* c = Find(r, "aot.ExecutableProto.scratch_alignment");
  ASSERT_NE(c, nullptr) << r.ToText();
  EXPECT_EQ(c->step, 4);
  EXPECT_EQ(c->verdict, "breaking-forward");
  EXPECT_TRUE(c->breaks_now);

  // Not emitted yet: runtime support first is safe to land.
  in_.head_artifacts = {Emitted("add_mul")};
  TriageReport phase1 = Run();
  c = Find(phase1, "aot.ExecutableProto.scratch_alignment");
  ASSERT_NE(c, nullptr) << phase1.ToText();
  EXPECT_FALSE(c->breaks_now);
}

TEST_F(TriageTest, NewOptionalIgnorableFieldIsSafe) {
  UseHeadSchemaWithNewField(/*ignorable=*/true);
  TriageReport r = Run();
  const TriageChange* c = Find(r, "aot.ExecutableProto.scratch_alignment");
  ASSERT_NE(c, nullptr) << r.ToText();
  EXPECT_EQ(c->step, 6);
  EXPECT_EQ(c->verdict, "safe");
  EXPECT_THAT(c->evidence, HasSubstr("already emits it"));
  EXPECT_TRUE(r.ok()) << r.ToText();
}

TEST_F(TriageTest, ChangedFieldTypeBreaksBoth) {
  for (auto& file : *in_.base_schema.mutable_file()) {
    if (file.name() != "proto/executable.proto") continue;
    for (auto& m : *file.mutable_message_type()) {
      if (m.name() != "MemsetThunkProto") continue;
      for (auto& f : *m.mutable_field()) {
        if (f.name() == "pattern") f.set_type(google::protobuf::FieldDescriptorProto::TYPE_INT64);
      }
    }
  }
  TriageReport r = Run();
  bool found = false;
  for (const TriageChange& c : r.changes) {
    if (c.verdict == "breaking-both" && absl::StrContains(c.what, "MemsetThunkProto.pattern")) {
      found = c.breaks_now;
    }
  }
  EXPECT_TRUE(found) << r.ToText();
}

}  // namespace
}  // namespace aot
