// The schema guard on a schema that is not this project's
// (testdata/foreign/: package acme.model.v1, root ModelArtifact, no
// (aot.compat) annotations): roots, policies, map types, structural type
// identity, bytes-carried messages, history walks (directory and git), the
// buf-style output, and buf breaking as the peer.
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "harness/schema/schema_check.h"
#include "harness/schema/schema_history.h"
#include "harness/schema/schema_policy.h"
#include "harness/schema/schema_test_util.h"
#include "support/file_io.h"

namespace aot {
namespace {

namespace fs = std::filesystem;
using schema_testing::RunShell;
using schema_testing::TreeEdit;
using ::testing::AllOf;
using ::testing::Contains;
using ::testing::HasSubstr;
using ::testing::IsEmpty;
using ::testing::Not;

constexpr char kArtifact[] = "acme/model/v1/artifact.proto";
constexpr char kTypes[] = "acme/model/v1/types.proto";
constexpr char kRoot[] = "acme.model.v1.ModelArtifact";

std::string FixtureDir() {
  return absl::StrCat(AOT_SOURCE_DIR, "/harness/schema/testdata/foreign");
}

class ForeignSchemaTest : public ::testing::Test {
 protected:
  void SetUp() override {
    root_ = fs::path(::testing::TempDir()) /
            absl::StrCat("foreign_schema_",
                         ::testing::UnitTest::GetInstance()->current_test_info()->name(), "_",
                         getpid());
    fs::remove_all(root_);
    fs::create_directories(root_);
    policy_.roots = {kRoot};
  }
  void TearDown() override { fs::remove_all(root_); }

  std::string BuildFile(const std::string& label, const std::vector<TreeEdit>& edits = {}) {
    std::vector<std::string> compile = {kArtifact, kTypes};
    for (const TreeEdit& e : edits) {
      if (e.from.empty()) compile.push_back(e.file);
    }
    return schema_testing::CompileEditedTree(FixtureDir(), {kArtifact, kTypes}, edits, root_, label,
                                             /*source_info=*/true, compile);
  }
  SchemaVersion Build(const std::string& label, const std::vector<TreeEdit>& edits = {}) {
    auto set = ReadDescriptorSet(BuildFile(label, edits));
    EXPECT_TRUE(set.ok()) << set.status();
    return {label, set.value_or(google::protobuf::FileDescriptorSet())};
  }
  SchemaCheckReport Check(const std::vector<TreeEdit>& edits) {
    return Check({Build("base")}, Build("head", edits), policy_);
  }
  static SchemaCheckReport Check(const std::vector<SchemaVersion>& history,
                                 const SchemaVersion& head, const SchemaPolicy& policy) {
    auto report = CheckSchema(history, head, policy);
    EXPECT_TRUE(report.ok()) << report.status();
    return report.ok() ? *report : SchemaCheckReport();
  }
  static std::vector<std::string> Lines(const std::vector<SchemaFinding>& findings) {
    std::vector<std::string> out;
    for (const SchemaFinding& f : findings) out.push_back(f.ToString());
    return out;
  }
  static std::vector<std::string> Rules(const std::vector<SchemaFinding>& findings) {
    std::vector<std::string> out;
    for (const SchemaFinding& f : findings) out.push_back(f.rule);
    return out;
  }

  fs::path root_;
  SchemaPolicy policy_;
};

// A new field, a new enum value and a properly reserved removal: clean, and
// no annotation finding although nothing carries (aot.compat).
constexpr char kCreated[] = "  int64 created_unix = 6;\n";
const std::vector<TreeEdit>& CompatibleEdits() {
  static const auto* edits = new std::vector<TreeEdit>{
      {kArtifact, kCreated, "  reserved 6;\n  reserved \"created_unix\";\n  string owner = 8;\n"},
      {kTypes, "  BF16 = 2;\n", "  BF16 = 2;\n  F16 = 3;\n"},
  };
  return *edits;
}

TEST_F(ForeignSchemaTest, NeedsItsRootAndIsCleanWithoutAnnotationFindings) {
  // Without --root the project's root is looked for, and not found.
  auto no_root = CheckSchema({Build("base")}, Build("same"));
  EXPECT_FALSE(no_root.ok());
  EXPECT_THAT(std::string(no_root.status().message()),
              AllOf(HasSubstr("no message 'aot.ExecutableProto'"), HasSubstr("--root")));

  SchemaCheckReport report = Check(CompatibleEdits());
  EXPECT_TRUE(report.ok()) << report.ToText();
  EXPECT_THAT(Rules(report.violations), IsEmpty());
  EXPECT_THAT(Rules(report.warnings), IsEmpty());
  EXPECT_THAT(Lines(report.additions),
              Contains("[FIELD_ADDED] acme/model/v1/artifact.proto: field "
                       "acme.model.v1.ModelArtifact.owner (number 8, string) added"));
  EXPECT_THAT(Rules(report.additions), Contains("ENUM_VALUE_ADDED"));

  // The policy may ask for the annotation rules all the same.
  SchemaPolicy strict = policy_;
  strict.annotations = SchemaPolicy::Annotations::kOn;
  SchemaCheckReport annotated = Check({Build("base2")}, Build("head2", CompatibleEdits()), strict);
  EXPECT_THAT(Rules(annotated.violations), Contains("MISSING_ANNOTATION"));
}

TEST_F(ForeignSchemaTest, MapKeyAndValueTypesAreCompared) {
  constexpr char kLabels[] = "map<string, string> labels = 2;";
  EXPECT_THAT(Lines(Check({{kArtifact, kLabels, "map<string, bytes> labels = 2;"}}).violations),
              Contains("[FIELD_TYPE_CHANGED] acme/model/v1/artifact.proto: "
                       "acme.model.v1.ModelArtifact.labels (number 2) changed type "
                       "map<string, string> -> map<string, bytes>"));
  EXPECT_THAT(Lines(Check({{kArtifact, kLabels, "map<string, int64> labels = 2;"}}).violations),
              Contains(HasSubstr("map<string, string> -> map<string, int64>")));
  EXPECT_THAT(Lines(Check({{kArtifact, kLabels, "map<int32, string> labels = 2;"}}).violations),
              Contains(HasSubstr("map<string, string> -> map<int32, string>")));
  // Negative: the same map, reformatted.
  EXPECT_TRUE(Check({{kArtifact, kLabels, "map<string,string> labels = 2 ;"}}).ok());
}

TEST_F(ForeignSchemaTest, TypesMovedToAnotherPackageAreJudgedByStructure) {
  constexpr char kCommon[] = "acme/common/types.proto";
  const std::string common_enum =
      "syntax = \"proto3\";\npackage acme.common;\n"
      "enum DType {\n  DTYPE_UNSPECIFIED = 0;\n  F32 = 1;\n  BF16 = 2;\n}\n";
  // The enum moves to acme.common with the same names and numbers: the same
  // on the wire and in JSON, so not a break (buf agrees).
  std::vector<TreeEdit> moved_enum = {
      {kCommon, "", common_enum},
      {kArtifact, "import \"acme/model/v1/types.proto\";",
       "import \"acme/model/v1/types.proto\";\nimport \"acme/common/types.proto\";"},
      {kArtifact, "  DType default_dtype = 4;", "  acme.common.DType default_dtype = 4;"},
      {kArtifact, "  DType dtype = 5;", "  acme.common.DType dtype = 5;"},
  };
  SchemaCheckReport enum_report = Check(moved_enum);
  EXPECT_TRUE(enum_report.ok()) << enum_report.ToText();
  EXPECT_THAT(Lines(enum_report.notes),
              Contains("[TYPE_MOVED] acme/model/v1/artifact.proto: "
                       "acme.model.v1.ModelArtifact.default_dtype (number 4) now has type "
                       "acme.common.DType, structurally identical to acme.model.v1.DType (same "
                       "on the wire and in JSON)"));

  // Negative: moved and a value renumbered is a type change.
  std::vector<TreeEdit> changed_enum = moved_enum;
  changed_enum[0].to =
      absl::StrCat(common_enum.substr(0, common_enum.find("BF16")), "BF16 = 3;\n}\n");
  EXPECT_THAT(Lines(Check(changed_enum).violations),
              Contains(HasSubstr("default_dtype (number 4) changed type acme.model.v1.DType -> "
                                 "acme.common.DType")));

  // A message moved with identical fields is not a break either (buf, which
  // judges by full name, reports it: see the cross-check).
  std::vector<TreeEdit> moved_message = {
      {kCommon, "",
       "syntax = \"proto3\";\npackage acme.common;\nimport \"acme/model/v1/types.proto\";\n"
       "message Layer {\n  string op = 1;\n  repeated int64 shape = 2;\n  oneof weights {\n"
       "    bytes inline_data = 3;\n    string external_path = 4;\n  }\n"
       "  acme.model.v1.DType dtype = 5;\n}\n"},
      {kArtifact, "import \"acme/model/v1/types.proto\";",
       "import \"acme/model/v1/types.proto\";\nimport \"acme/common/types.proto\";"},
      {kArtifact, "  repeated Layer layers = 3;", "  repeated acme.common.Layer layers = 3;"},
  };
  SchemaCheckReport message_report = Check(moved_message);
  EXPECT_TRUE(message_report.ok()) << message_report.ToText();
  EXPECT_THAT(Rules(message_report.notes), Contains("TYPE_MOVED"));
  // Negative: a moved message that lost a field differs in structure.
  std::vector<TreeEdit> changed_message = moved_message;
  changed_message[0].to = absl::StrCat(
      changed_message[0].to.substr(0, changed_message[0].to.find("  acme.model.v1.DType")), "}\n");
  EXPECT_THAT(Rules(Check(changed_message).violations), Contains("FIELD_TYPE_CHANGED"));
}

TEST_F(ForeignSchemaTest, MessagesCarriedInBytesAreUnderContract) {
  constexpr char kThreads[] = "  int32 threads = 1;\n";
  const std::vector<TreeEdit> renamed = {
      {kArtifact, kThreads, "  int32 num_threads = 1;\n  reserved \"threads\";\n"}};
  const std::vector<TreeEdit> retyped = {{kArtifact, kThreads, "  int64 threads = 1;\n"}};
  // Without the policy's bytes_carried entry RuntimeConfig is unreachable:
  // its changes are notes.
  SchemaPolicy bare = policy_;
  EXPECT_TRUE(Check({Build("b1")}, Build("h1", retyped), bare).ok());
  EXPECT_THAT(Rules(Check({Build("b2")}, Build("h2", retyped), bare).notes),
              Contains("FIELD_TYPE_CHANGED"));

  auto policy = ReadSchemaPolicy(absl::StrCat(FixtureDir(), "/policy.txtpb"));
  ASSERT_TRUE(policy.ok()) << policy.status();
  ASSERT_EQ(policy->bytes_carried.size(), 1u);
  EXPECT_TRUE(policy->bytes_carried[0].json);
  EXPECT_THAT(Rules(Check({Build("b3")}, Build("h3", retyped), *policy).violations),
              Contains("FIELD_TYPE_CHANGED"));
  // Carried as JSON, a rename breaks the data even with the old name reserved.
  EXPECT_THAT(Lines(Check({Build("b4")}, Build("h4", renamed), *policy).violations),
              Contains(HasSubstr("[FIELD_NAME_CHANGED] acme/model/v1/artifact.proto: "
                                 "acme.model.v1.RuntimeConfig.threads (number 1) is now "
                                 "\"num_threads\"")));
  // Carried in binary, only the wire matters.
  SchemaPolicy binary = *policy;
  binary.bytes_carried[0].json = false;
  EXPECT_TRUE(Check({Build("b5")}, Build("h5", renamed), binary).ok());
  EXPECT_FALSE(Check({Build("b6")}, Build("h6", retyped), binary).ok());

  // A policy naming a field or message that no version has is an error.
  SchemaPolicy wrong = *policy;
  wrong.bytes_carried[0].message = "acme.model.v1.NoSuchConfig";
  auto bad = CheckSchema({Build("b7")}, Build("h7"), wrong);
  EXPECT_FALSE(bad.ok());
  EXPECT_THAT(std::string(bad.status().message()), HasSubstr("acme.model.v1.NoSuchConfig"));
  wrong = *policy;
  wrong.bytes_carried[0].field = "acme.model.v1.ModelArtifact.created_unix";
  bad = CheckSchema({Build("b8")}, Build("h8"), wrong);
  EXPECT_FALSE(bad.ok());
  EXPECT_THAT(std::string(bad.status().message()), HasSubstr("string or bytes"));
}

TEST_F(ForeignSchemaTest, NamesMatterInTypedMessagesAndEnums) {
  EXPECT_THAT(
      Rules(
          Check({{kTypes, "  BF16 = 2;\n", "  BFLOAT16 = 2;\n  reserved \"BF16\";\n"}}).violations),
      Contains("ENUM_VALUE_NAME_CHANGED"));
  EXPECT_THAT(Rules(Check({{kArtifact, "  string op = 1;\n",
                            "  string op_name = 1;\n  reserved \"op\";\n"}})
                        .violations),
              Contains("FIELD_NAME_CHANGED"));
}

TEST_F(ForeignSchemaTest, PolicySeveritiesRegradeRules) {
  const std::vector<TreeEdit> retyped = {
      {kArtifact, "  int64 created_unix = 6;", "  uint64 created_unix = 6;"}};
  auto policy = ParseSchemaPolicy(
      "root: \"acme.model.v1.ModelArtifact\"\n"
      "severity { rule: \"FIELD_TYPE_CHANGED\" level: WARNING }\n",
      "inline");
  ASSERT_TRUE(policy.ok()) << policy.status();
  SchemaCheckReport warned = Check({Build("b1")}, Build("h1", retyped), *policy);
  EXPECT_TRUE(warned.ok());
  EXPECT_THAT(Rules(warned.warnings), Contains("FIELD_TYPE_CHANGED"));
  EXPECT_THAT(warned.ToText(), HasSubstr("warning: [FIELD_TYPE_CHANGED]"));
  policy->severities["FIELD_TYPE_CHANGED"] = RuleSeverity::kIgnore;
  SchemaCheckReport ignored = Check({Build("b2")}, Build("h2", retyped), *policy);
  EXPECT_THAT(Rules(ignored.warnings), IsEmpty());
  EXPECT_THAT(Rules(ignored.violations), IsEmpty());

  // Bad policies say what and where.
  auto syntax = ParseSchemaPolicy("root: \"x\"\nbogus_field: 1\n", "p.txtpb");
  ASSERT_FALSE(syntax.ok());
  EXPECT_THAT(std::string(syntax.status().message()), HasSubstr("p.txtpb:2:"));
  auto unknown = ParseSchemaPolicy("severity { rule: \"NO_SUCH_RULE\" level: ERROR }", "p.txtpb");
  ASSERT_FALSE(unknown.ok());
  EXPECT_THAT(std::string(unknown.status().message()),
              AllOf(HasSubstr("NO_SUCH_RULE"), HasSubstr("FIELD_TYPE_CHANGED")));
  EXPECT_FALSE(ParseSchemaPolicy("bytes_carried { field: \"a.B.c\" }", "p").ok());
}

TEST_F(ForeignSchemaTest, RemovedRootIsABreak) {
  SchemaPolicy two = policy_;
  two.roots.push_back("acme.model.v1.DebugInfo");
  SchemaCheckReport report = Check(
      {Build("base")}, Build("head", {{kArtifact, "message DebugInfo {", "message Debug {"}}), two);
  EXPECT_THAT(Rules(report.violations), Contains("ROOT_REMOVED"));
}

// The history directory, in name order or the manifest's, walked once; the
// buf-style lines point at the declaration.
TEST_F(ForeignSchemaTest, HistoryDirectoryAndBufFormatEndToEnd) {
  fs::path history = root_ / "history";
  fs::create_directories(history);
  fs::copy_file(BuildFile("v1"), history / "2025-01-01-a.binpb");
  fs::copy_file(BuildFile("v2", CompatibleEdits()), history / "2025-02-01-b.binpb");
  std::vector<TreeEdit> broken = CompatibleEdits();
  broken.push_back({kArtifact, "  map<string, string> labels = 2;\n", ""});
  fs::copy_file(BuildFile("v3", broken), history / "2025-03-01-c.binpb");

  auto versions = ReadSchemaHistoryDir(history.string());
  ASSERT_TRUE(versions.ok()) << versions.status();
  ASSERT_EQ(versions->size(), 3u);
  EXPECT_EQ((*versions)[0].name, "2025-01-01-a.binpb");
  auto walk = CheckSchemaHistory(*versions, policy_);
  ASSERT_TRUE(walk.ok()) << walk.status();
  EXPECT_THAT(Rules(walk->violations), ::testing::ElementsAre("FIELD_REMOVED_NOT_RESERVED",
                                                              "FIELD_NAME_REMOVED_NOT_RESERVED"));
  EXPECT_EQ(walk->violations[0].snapshot, "2025-03-01-c.binpb");
  // Positions come from the head's source info: the enclosing message.
  EXPECT_EQ(walk->violations[0].line, 10);
  EXPECT_THAT(walk->violations[0].ToBufLine(),
              ::testing::StartsWith("acme/model/v1/artifact.proto:10:1:"));

  std::string tool = AOT_COMPAT_BINARY;
  std::string out = (root_ / "out.txt").string();
  std::string cmd = absl::StrCat(tool, " schema-check --root=", kRoot,
                                 " --history=", history.string(), " --format=buf > ", out, " 2>&1");
  EXPECT_EQ(RunShell(cmd), 1);
  auto text = ReadFileToString(out);
  ASSERT_TRUE(text.ok());
  EXPECT_THAT(*text, HasSubstr("acme/model/v1/artifact.proto:10:1:acme.model.v1.ModelArtifact."
                               "labels (number 2) removed without reserving number 2 (at "
                               "2025-03-01-c.binpb) (FIELD_REMOVED_NOT_RESERVED)"));
  // The manifest decides the order: without the broken version, clean.
  std::ofstream(history / kHistoryManifest) << "# oldest first\n2025-01-01-a.binpb\n\n"
                                               "2025-02-01-b.binpb  # compatible\n";
  EXPECT_EQ(RunShell(absl::StrCat(tool, " schema-check --root=", kRoot,
                                  " --history=", history.string(), " > ", out)),
            0);
  EXPECT_THAT(*ReadFileToString(out), Not(HasSubstr("MISSING_ANNOTATION")));
  std::ofstream(history / kHistoryManifest) << "2025-01-01-a.binpb\nmissing.binpb\n";
  EXPECT_EQ(RunShell(absl::StrCat(tool, " schema-check --root=", kRoot,
                                  " --history=", history.string(), " 2> ", out)),
            2);
  EXPECT_THAT(*ReadFileToString(out), HasSubstr("history.txt:2: 'missing.binpb'"));

  // --policy from a file, --root misspelt, a bad flag combination.
  EXPECT_EQ(RunShell(absl::StrCat(tool, " schema-check --policy=", FixtureDir(),
                                  "/policy.txtpb --base=", BuildFile("p1"),
                                  " --head=", BuildFile("p2", CompatibleEdits()), " > ", out)),
            0);
  EXPECT_EQ(RunShell(absl::StrCat(tool, " schema-check --root=acme.NoSuch --base=", BuildFile("p3"),
                                  " --head=", BuildFile("p4"), " 2> ", out)),
            2);
  EXPECT_THAT(*ReadFileToString(out), HasSubstr("no message 'acme.NoSuch'"));
  EXPECT_EQ(RunShell(absl::StrCat(tool, " schema-check --history=", history.string(),
                                  " --git=. 2> ", out)),
            2);
}

// --git builds the history from a repository's commits.
TEST_F(ForeignSchemaTest, GitHistoryIsBuiltFromCommits) {
  fs::path repo = root_ / "repo";
  fs::create_directories(repo / "protos");
  std::string git =
      absl::StrCat("git -C '", repo.string(), "' -c user.name=t -c user.email=t@example.com ");
  ASSERT_EQ(RunShell(absl::StrCat("git init -q '", repo.string(), "'")), 0);
  auto commit = [&](const std::string& label, const std::vector<TreeEdit>& edits,
                    const std::string& date) {
    fs::path tree = root_ / label;
    BuildFile(label, edits);  // writes the edited tree to root_/label
    fs::copy(tree / "acme", repo / "protos" / "acme",
             fs::copy_options::recursive | fs::copy_options::overwrite_existing);
    ASSERT_EQ(RunShell(absl::StrCat(git, "add -A && GIT_COMMITTER_DATE='", date,
                                    "T12:00:00Z' GIT_AUTHOR_DATE='", date, "T12:00:00Z' ", git,
                                    "commit -q -m ", label)),
              0);
  };
  commit("c1", {}, "2025-01-10");
  commit("c2", CompatibleEdits(), "2025-02-10");
  // A commit that does not compile is skipped with a note.
  std::ofstream(repo / "protos/acme/model/v1/types.proto", std::ios::app) << "garbage\n";
  ASSERT_EQ(RunShell(absl::StrCat(git, "commit -q -a -m broken")), 0);
  std::vector<TreeEdit> broken = CompatibleEdits();
  broken.push_back(
      {kArtifact, "  map<string, string> labels = 2;", "  map<string, int64> labels = 2;"});
  commit("c3", broken, "2025-03-10");

  GitSchemaSource source;
  source.repo = repo.string();
  source.paths = {absl::StrCat("protos/", kArtifact)};
  source.includes = {"protos"};
  std::vector<std::string> skipped;
  auto versions = SchemaHistoryFromGit(source, &skipped);
  ASSERT_TRUE(versions.ok()) << versions.status();
  // c1, c2, c3 (the broken commit touched only types.proto, so it is not in
  // the log of artifact.proto).
  ASSERT_EQ(versions->size(), 3u);
  EXPECT_THAT((*versions)[0].name, ::testing::StartsWith("2025-01-10 "));
  auto walk = CheckSchemaHistory(*versions, policy_);
  ASSERT_TRUE(walk.ok()) << walk.status();
  ASSERT_THAT(Rules(walk->violations), ::testing::ElementsAre("FIELD_TYPE_CHANGED"));
  EXPECT_THAT(walk->violations[0].snapshot, ::testing::StartsWith("2025-03-10 "));

  // Following types.proto too brings in the broken commit, which is skipped.
  source.paths.push_back(absl::StrCat("protos/", kTypes));
  skipped.clear();
  versions = SchemaHistoryFromGit(source, &skipped);
  ASSERT_TRUE(versions.ok()) << versions.status();
  EXPECT_EQ(versions->size(), 3u);
  ASSERT_EQ(skipped.size(), 1u);
  EXPECT_THAT(skipped[0], HasSubstr("protoc failed"));

  std::string out = (root_ / "out.txt").string();
  EXPECT_EQ(RunShell(absl::StrCat(AOT_COMPAT_BINARY, " schema-check --root=", kRoot,
                                  " --git=", repo.string(), " --path=protos/", kArtifact,
                                  " --include=protos > ", out, " 2>&1")),
            1);
  EXPECT_THAT(*ReadFileToString(out),
              HasSubstr("map<string, string> -> map<string, int64> (at 2025-03-10 "));
  EXPECT_EQ(RunShell(absl::StrCat(AOT_COMPAT_BINARY, " schema-check --root=", kRoot,
                                  " --git=/nonexistent --path=a.proto 2> ", out)),
            2);
}

// `buf breaking --against` (WIRE_JSON) on the same pairs: the verdicts
// agree except where this project is deliberately different (listed).
TEST_F(ForeignSchemaTest, AgreesWithBufBreakingExceptWhereDocumented) {
  std::string buf = schema_testing::FindBuf();
  if (buf.empty()) {
    GTEST_SKIP() << "buf is not installed (neither `buf` on PATH nor `npx --no-install buf`); "
                    "install the npm package @bufbuild/buf to run the cross-check";
  }
  struct Case {
    std::string label;
    std::vector<TreeEdit> edits;
    // Where ours differs from buf, and why (schema_check.h).
    bool ours_breaks;
    bool buf_breaks;
  };
  const std::string common_layer =
      "syntax = \"proto3\";\npackage acme.common;\nimport \"acme/model/v1/types.proto\";\n"
      "message Layer {\n  string op = 1;\n  repeated int64 shape = 2;\n  oneof weights {\n"
      "    bytes inline_data = 3;\n    string external_path = 4;\n  }\n"
      "  acme.model.v1.DType dtype = 5;\n}\n";
  const std::string import_common =
      "import \"acme/model/v1/types.proto\";\nimport \"acme/common/types.proto\";";
  std::vector<Case> cases = {
      {"compatible", CompatibleEdits(), false, false},
      {"map_value", {{kArtifact, "map<string, string>", "map<string, bytes>"}}, true, true},
      {"map_key", {{kArtifact, "map<string, string>", "map<int64, string>"}}, true, true},
      {"deleted", {{kArtifact, kCreated, ""}}, true, true},
      {"unreserved", {{kArtifact, "  reserved 7;\n", ""}}, true, true},
      {"renamed",
       {{kArtifact, "  string op = 1;\n", "  string kind = 1;\n  reserved \"op\";\n"}},
       true,
       true},
      {"enum_renamed",
       {{kTypes, "  LOW = 2;\n", "  LOWEST = 2;\n  reserved \"LOW\";\n"}},
       true,
       true},
      {"enum_moved",
       {{"acme/common/types.proto", "",
         "syntax = \"proto3\";\npackage acme.common;\n"
         "enum DType {\n  DTYPE_UNSPECIFIED = 0;\n  F32 = 1;\n  BF16 = 2;\n}\n"},
        {kArtifact, "import \"acme/model/v1/types.proto\";", import_common},
        {kArtifact, "  DType default_dtype = 4;", "  acme.common.DType default_dtype = 4;"}},
       false,
       false},
      // Deliberately more lenient: an identical message in another package
      // is the same data; buf judges the full name.
      {"message_moved",
       {{"acme/common/types.proto", "", common_layer},
        {kArtifact, "import \"acme/model/v1/types.proto\";", import_common},
        {kArtifact, "  repeated Layer layers = 3;", "  repeated acme.common.Layer layers = 3;"}},
       false,
       true},
      // Deliberately stricter: int32 -> uint32 is wire- and JSON-compatible, but the
      // reader's typed field changes.
      {"widened", {{kArtifact, "  int32 threads = 1;", "  uint32 threads = 1;"}}, true, false},
  };
  auto policy = ReadSchemaPolicy(absl::StrCat(FixtureDir(), "/policy.txtpb"));
  ASSERT_TRUE(policy.ok()) << policy.status();
  std::string base = BuildFile("base");
  auto base_set = ReadDescriptorSet(base);
  ASSERT_TRUE(base_set.ok());
  for (const Case& c : cases) {
    std::string head = BuildFile(c.label, c.edits);
    auto verdict = schema_testing::BufBreaking(
        buf, head, base, (root_ / absl::StrCat(c.label, ".buf.txt")).string());
    ASSERT_TRUE(verdict.ran) << c.label << ": " << verdict.output;
    auto head_set = ReadDescriptorSet(head);
    ASSERT_TRUE(head_set.ok());
    SchemaCheckReport ours = Check({{"base", *base_set}}, {c.label, *head_set}, *policy);
    EXPECT_EQ(verdict.breaks, c.buf_breaks) << c.label << ": buf said\n" << verdict.output;
    EXPECT_EQ(!ours.ok(), c.ours_breaks) << c.label << ": ours:\n" << ours.ToText();
  }
}

}  // namespace
}  // namespace aot
