// The schema guard: each rule on schemas edited and compiled with protoc on
// the fly, positive and negative; the head against the committed snapshots;
// the aot-compat subcommands; a cross-check with `buf breaking`.
#include "harness/schema/schema_check.h"

#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "harness/schema/reachability.h"
#include "harness/schema/schema_test_util.h"
#include "proto/schema.h"
#include "support/file_io.h"

namespace aot {
namespace {

namespace fs = std::filesystem;
using schema_testing::RunShell;
using ::testing::Contains;
using ::testing::HasSubstr;
using ::testing::IsEmpty;
using ::testing::Not;

constexpr const char* kProtoFiles[] = {"compat_options", "hlo", "target", "executable",
                                       "golden_io"};

// One textual edit of a .proto file of proto/.
struct Edit {
  std::string file;  // "executable"
  std::string from;
  std::string to;
};

class SchemaCheckTest : public ::testing::Test {
 protected:
  void SetUp() override {
    root_ = fs::path(::testing::TempDir()) /
            absl::StrCat("schema_check_",
                         ::testing::UnitTest::GetInstance()->current_test_info()->name(), "_",
                         getpid());
    fs::remove_all(root_);
    fs::create_directories(root_);
  }
  void TearDown() override { fs::remove_all(root_); }

  // Copies proto/*.proto to a fresh directory (keeping proto/ so imports
  // resolve), applies `edits` in order (each must match), runs protoc and
  // returns the descriptor set's path.
  std::string BuildSetFile(const std::string& label, const std::vector<Edit>& edits) {
    std::vector<std::string> files;
    for (const char* name : kProtoFiles) files.push_back(absl::StrCat("proto/", name, ".proto"));
    std::vector<schema_testing::TreeEdit> tree_edits;
    for (const Edit& e : edits) {
      tree_edits.push_back({absl::StrCat("proto/", e.file, ".proto"), e.from, e.to});
    }
    return schema_testing::CompileEditedTree(AOT_SOURCE_DIR, files, tree_edits, root_, label);
  }

  SchemaVersion Build(const std::string& label, const std::vector<Edit>& edits = {}) {
    std::string path = BuildSetFile(label, edits);
    auto set = ReadDescriptorSet(path);
    EXPECT_TRUE(set.ok()) << set.status();
    return SchemaVersion{label, set.ok() ? *set : google::protobuf::FileDescriptorSet()};
  }

  static SchemaCheckReport Check(const std::vector<SchemaVersion>& history,
                                 const SchemaVersion& head) {
    auto report = CheckSchema(history, head);
    EXPECT_TRUE(report.ok()) << report.status();
    return report.ok() ? *report : SchemaCheckReport();
  }

  static std::vector<std::string> Rules(const std::vector<SchemaFinding>& findings) {
    std::vector<std::string> out;
    for (const SchemaFinding& f : findings) out.push_back(f.rule);
    return out;
  }
  static std::vector<std::string> Lines(const std::vector<SchemaFinding>& findings) {
    std::vector<std::string> out;
    for (const SchemaFinding& f : findings) out.push_back(f.ToString());
    return out;
  }

  fs::path root_;
};

constexpr char kCopySource[] = "  BufferSliceProto source = 1;\n";

TEST_F(SchemaCheckTest, ReachabilityFollowsFieldTypesFromExecutableProto) {
  SchemaVersion base = Build("base");
  auto pool = BuildDescriptorPool(base.set, "base");
  ASSERT_TRUE(pool.ok()) << pool.status();
  auto reach = ComputeReachable(**pool);
  ASSERT_TRUE(reach.ok()) << reach.status();
  EXPECT_TRUE(reach->HasMessage("aot.ExecutableProto"));
  EXPECT_TRUE(reach->HasMessage("aot.CopyThunkProto"));
  EXPECT_TRUE(reach->HasMessage("aot.SequentialThunkProto"));  // through the recursion
  EXPECT_TRUE(reach->HasMessage("aot.ShapeProto"));            // across files
  EXPECT_TRUE(reach->HasEnum("aot.KernelBinaryProto.Format"));
  EXPECT_TRUE(reach->HasEnum("aot.PrimitiveType"));
  EXPECT_TRUE(reach->fields.count("aot.CustomCallAttributeProto.i64"));
  EXPECT_TRUE(reach->oneofs.count("aot.ThunkProto.impl"));
  EXPECT_FALSE(reach->HasMessage("aot.GoldenIoProto"));
  EXPECT_FALSE(reach->HasMessage("aot.TargetConfigProto"));
  EXPECT_FALSE(reach->HasMessage("aot.CompatAnnotation"));
  EXPECT_FALSE(reach->HasMessage("google.protobuf.FieldOptions"));
}

TEST_F(SchemaCheckTest, UnchangedSchemaIsCleanAndMatchesTheBuiltInOne) {
  SchemaVersion base = Build("base");
  SchemaCheckReport same = Check({base}, base);
  EXPECT_THAT(Lines(same.violations), IsEmpty());
  EXPECT_THAT(Lines(same.additions), IsEmpty());
  // The built-in descriptors and protoc's agree both ways.
  SchemaVersion builtin{"builtin", SchemaDescriptorSet()};
  EXPECT_THAT(Lines(Check({base}, builtin).violations), IsEmpty());
  EXPECT_THAT(Lines(Check({builtin}, base).violations), IsEmpty());
}

TEST_F(SchemaCheckTest, DeletedFieldMustBeReserved) {
  SchemaVersion base = Build("base");
  SchemaCheckReport bad = Check({base}, Build("deleted", {{"executable", kCopySource, ""}}));
  EXPECT_THAT(Lines(bad.violations),
              Contains("[FIELD_REMOVED_NOT_RESERVED] proto/executable.proto: "
                       "aot.CopyThunkProto.source (number 1) removed without reserving number 1"));
  EXPECT_THAT(Rules(bad.violations), Contains("FIELD_NAME_REMOVED_NOT_RESERVED"));
  EXPECT_EQ(bad.violations[0].element, "aot.CopyThunkProto.source");

  // Number reserved, name not: still one violation.
  SchemaCheckReport half =
      Check({base}, Build("number_only", {{"executable", kCopySource, "  reserved 1;\n"}}));
  EXPECT_THAT(Rules(half.violations), Not(Contains("FIELD_REMOVED_NOT_RESERVED")));
  EXPECT_THAT(Rules(half.violations), Contains("FIELD_NAME_REMOVED_NOT_RESERVED"));

  SchemaCheckReport good = Check(
      {base},
      Build("reserved", {{"executable", kCopySource, "  reserved 1;\n  reserved \"source\";\n"}}));
  EXPECT_THAT(Lines(good.violations), IsEmpty());
}

TEST_F(SchemaCheckTest, ChangedTypeIsFlagged) {
  SchemaVersion base = Build("base");
  SchemaCheckReport scalar =
      Check({base}, Build("scalar", {{"executable", "uint32 pattern = 2;", "int64 pattern = 2;"}}));
  EXPECT_THAT(
      Lines(scalar.violations),
      Contains(HasSubstr("[FIELD_TYPE_CHANGED] proto/executable.proto: "
                         "aot.MemsetThunkProto.pattern (number 2) changed type uint32 -> int64")));
  SchemaCheckReport message =
      Check({base}, Build("message", {{"executable", "  BufferSliceProto destination = 2;\n}",
                                       "  ShapeProto destination = 2;\n}"}}));
  EXPECT_THAT(Lines(message.violations),
              Contains(HasSubstr("aot.BufferSliceProto -> aot.ShapeProto")));
  SchemaCheckReport cardinality =
      Check({base},
            Build("card", {{"executable", "uint32 pattern = 2;", "repeated uint32 pattern = 2;"}}));
  EXPECT_THAT(Rules(cardinality.violations), Contains("FIELD_CARDINALITY_CHANGED"));
  // Negative: a comment-only edit changes nothing.
  SchemaCheckReport comment =
      Check({base},
            Build("comment", {{"executable", "uint32 pattern = 2;", "uint32 pattern = 2;  // x"}}));
  EXPECT_THAT(Lines(comment.violations), IsEmpty());
}

TEST_F(SchemaCheckTest, RenumberedFieldIsFlagged) {
  SchemaVersion base = Build("base");
  SchemaCheckReport bad = Check(
      {base},
      Build("renumbered", {{"executable", "int64 trip_count = 4 [", "int64 trip_count = 5 ["}}));
  EXPECT_THAT(Lines(bad.violations),
              Contains("[FIELD_NUMBER_CHANGED] proto/executable.proto: "
                       "aot.WhileThunkProto.trip_count changed number 4 -> 5"));
}

TEST_F(SchemaCheckTest, MovingAFieldIntoAOneofIsFlagged) {
  SchemaVersion base = Build("base");
  SchemaCheckReport bad =
      Check({base}, Build("moved", {{"executable", "  string name = 1;\n  oneof value {\n",
                                     "  oneof value {\n    string name = 1;\n"}}));
  EXPECT_THAT(Lines(bad.violations),
              Contains(HasSubstr("[FIELD_ONEOF_CHANGED] proto/executable.proto: "
                                 "aot.CustomCallAttributeProto.name (number 1) moved from no "
                                 "oneof to oneof value")));
  // Negative: a new, annotated case in the same oneof is an addition.
  SchemaCheckReport good =
      Check({base}, Build("new_case", {{"executable", "    bool b = 5;\n",
                                        "    bool b = 5;\n    bytes raw = 6 [(compat) = "
                                        "{runtime_support_since: \"2026-12-01\", emission_flag: "
                                        "\"emit_raw_attributes\"}];\n"}}));
  EXPECT_THAT(Lines(good.violations), IsEmpty());
  EXPECT_THAT(Lines(good.additions),
              Contains(HasSubstr("[ONEOF_CASE_ADDED] proto/executable.proto: oneof case "
                                 "aot.CustomCallAttributeProto.raw (number 6, bytes, in oneof "
                                 "value) added: ignorable_by_older_runtimes=false, "
                                 "runtime_support_since=2026-12-01, "
                                 "emission_flag=emit_raw_attributes")));
}

TEST_F(SchemaCheckTest, DeletedEnumValueMustBeReserved) {
  SchemaVersion base = Build("base");
  SchemaCheckReport bad = Check({base}, Build("deleted", {{"executable", "    TEMP = 3;\n", ""}}));
  EXPECT_THAT(Lines(bad.violations),
              Contains("[ENUM_VALUE_REMOVED_NOT_RESERVED] proto/executable.proto: "
                       "aot.BufferAllocationProto.Kind.TEMP (number 3) removed without "
                       "reserving number 3"));
  EXPECT_THAT(Rules(bad.violations), Contains("ENUM_VALUE_NAME_REMOVED_NOT_RESERVED"));
  SchemaCheckReport good =
      Check({base}, Build("reserved", {{"executable", "    TEMP = 3;\n",
                                        "    reserved 3;\n    reserved \"TEMP\";\n"}}));
  EXPECT_THAT(Lines(good.violations), IsEmpty());
}

TEST_F(SchemaCheckTest, ReservedNumbersStayReservedAndUnused) {
  SchemaVersion base = Build("base");
  SchemaVersion reserved =
      Build("reserved", {{"executable", kCopySource, "  reserved 1;\n  reserved \"source\";\n"}});
  SchemaCheckReport unreserved =
      Check({base, reserved}, Build("unreserved", {{"executable", kCopySource, ""}}));
  EXPECT_THAT(Rules(unreserved.violations), Contains("RESERVED_REMOVED"));
  SchemaCheckReport reused = Check(
      {base, reserved},
      Build("reused", {{"executable", kCopySource,
                        "  int64 other = 1 [(compat) = {ignorable_by_older_runtimes: true}];\n"}}));
  EXPECT_THAT(Rules(reused.violations), Contains("RESERVED_REUSED"));
}

TEST_F(SchemaCheckTest, ReuseOfANumberRemovedTwoSnapshotsAgoIsFlagged) {
  constexpr char kDestination[] = "  BufferSliceProto destination = 2;\n}";
  SchemaVersion s1 = Build("s1");
  SchemaVersion s2 = Build("s2", {{"executable", kDestination, "}"}});
  // s1 -> s2: removed without reserving (flagged then).
  EXPECT_THAT(Rules(Check({s1}, s2).violations), Contains("FIELD_REMOVED_NOT_RESERVED"));
  SchemaVersion s3 =
      Build("s3", {{"executable", kDestination,
                    "  int64 stride = 2 [(compat) = {ignorable_by_older_runtimes: true}];\n}"}});
  // Against the newest snapshot alone (what buf sees) it looks like a clean
  // addition ...
  EXPECT_THAT(Lines(Check({s2}, s3).violations), IsEmpty());
  // ... against the whole history it reuses number 2 of s1.
  SchemaCheckReport history = Check({s1, s2}, s3);
  EXPECT_THAT(
      Lines(history.violations),
      Contains(HasSubstr("[HISTORY_REUSE] proto/executable.proto: aot.CopyThunkProto.stride "
                         "(number 2, int64) reuses what was "
                         "aot.CopyThunkProto.destination (number 2, "
                         "aot.BufferSliceProto) in snapshot s1")));
  // Negative: bringing back the same field with the same meaning is fine.
  SchemaVersion same = Build("same", {{"executable", kDestination,
                                       "  BufferSliceProto destination = 2 [(compat) = {}];\n}"}});
  EXPECT_THAT(Rules(Check({s1, s2}, same).violations), Not(Contains("HISTORY_REUSE")));
}

TEST_F(SchemaCheckTest, NewReachableFieldNeedsAnAnnotation) {
  constexpr char kDestination[] = "  BufferSliceProto destination = 2;\n";
  SchemaVersion base = Build("base");
  SchemaCheckReport bad =
      Check({base}, Build("bare", {{"executable", kDestination,
                                    absl::StrCat(kDestination, "  int64 alignment_hint = 3;\n")}}));
  EXPECT_THAT(Lines(bad.violations),
              Contains(HasSubstr("[MISSING_ANNOTATION] proto/executable.proto: "
                                 "aot.CopyThunkProto.alignment_hint (number 3, int64) was added "
                                 "after the first snapshot")));
  SchemaCheckReport good = Check(
      {base},
      Build("annotated",
            {{"executable", kDestination,
              absl::StrCat(kDestination,
                           "  int64 alignment_hint = 3 [(compat) = {ignorable_by_older_runtimes: "
                           "true, runtime_support_since: \"2026-12-01\"}];\n")}}));
  EXPECT_THAT(Lines(good.violations), IsEmpty());
  EXPECT_THAT(Lines(good.additions),
              Contains("[FIELD_ADDED] proto/executable.proto: field "
                       "aot.CopyThunkProto.alignment_hint (number 3, int64) added: "
                       "ignorable_by_older_runtimes=true, runtime_support_since=2026-12-01, "
                       "emission_flag=none"));
}

// A history walk reports a finding once, at the version where it appears,
// not again at every later one (the field is still unannotated in s3).
TEST_F(SchemaCheckTest, HistoryWalkReportsEachFindingOnce) {
  constexpr char kDestination[] = "  BufferSliceProto destination = 2;\n";
  const std::string bare = absl::StrCat(kDestination, "  int64 alignment_hint = 3;\n");
  SchemaVersion s1 = Build("s1");
  SchemaVersion s2 = Build("s2", {{"executable", kDestination, bare}});
  SchemaVersion s3 =
      Build("s3", {{"executable", kDestination, bare}, {"executable", kCopySource, ""}});
  auto walk = CheckSchemaHistory({s1, s2, s3});
  ASSERT_TRUE(walk.ok()) << walk.status();
  EXPECT_THAT(Lines(walk->violations),
              ::testing::ElementsAre(
                  HasSubstr("[MISSING_ANNOTATION] proto/executable.proto: "
                            "aot.CopyThunkProto.alignment_hint (number 3, int64) was added"),
                  HasSubstr("[FIELD_REMOVED_NOT_RESERVED]"),
                  HasSubstr("[FIELD_NAME_REMOVED_NOT_RESERVED]")));
  EXPECT_EQ(walk->violations[0].snapshot, "s2");
  EXPECT_THAT(walk->violations[0].ToString(), ::testing::EndsWith("(at s2)"));
  EXPECT_EQ(walk->violations[1].snapshot, "s3");
  // One version: nothing to compare, not an error.
  auto single = CheckSchemaHistory({s1});
  ASSERT_TRUE(single.ok()) << single.status();
  EXPECT_TRUE(single->ok());
  EXPECT_THAT(Rules(single->notes), Contains("HISTORY_TOO_SHORT"));
}

TEST_F(SchemaCheckTest, LoosenedAnnotationIsFlagged) {
  SchemaVersion base = Build("base");
  SchemaCheckReport bad =
      Check({base}, Build("loose", {{"executable", "  string name = 1;\n  // Annotation shown",
                                     "  string name = 1 [(compat) = {ignorable_by_older_runtimes: "
                                     "true}];\n  // Annotation shown"}}));
  EXPECT_THAT(Lines(bad.violations),
              Contains("[ANNOTATION_LOOSENED] proto/executable.proto: aot.ThunkInfoProto.name: "
                       "ignorable_by_older_runtimes changed false -> true"));
  // Tightening (true -> false) and notes are fine.
  SchemaCheckReport good = Check(
      {base},
      Build("tight", {{"executable",
                       "int64 trip_count = 4 [(compat) = {ignorable_by_older_runtimes: true}];",
                       "int64 trip_count = 4 [(compat) = {note: \"advisory\"}];"}}));
  EXPECT_THAT(Lines(good.violations), IsEmpty());
}

TEST_F(SchemaCheckTest, UnreachableChangesAreNotesNotErrors) {
  SchemaVersion base = Build("base");
  SchemaCheckReport report = Check(
      {base}, Build("golden_io", {{"golden_io", "  double rtol = 6;\n", "  int64 extra = 9;\n"}}));
  EXPECT_THAT(Lines(report.violations), IsEmpty());
  EXPECT_TRUE(report.ok());
  EXPECT_THAT(Lines(report.notes),
              Contains(HasSubstr("[FIELD_REMOVED_NOT_RESERVED] proto/golden_io.proto: "
                                 "aot.GoldenIoProto.rtol")));
  EXPECT_THAT(Rules(report.notes), Contains("FIELD_ADDED"));
}

TEST_F(SchemaCheckTest, JsonHasTheDocumentedShape) {
  SchemaVersion base = Build("base");
  SchemaCheckReport bad = Check({base}, Build("deleted", {{"executable", kCopySource, ""}}));
  nlohmann::ordered_json j = bad.ToJson();
  ASSERT_TRUE(j.contains("violations") && j.contains("warnings") && j.contains("additions") &&
              j.contains("notes"));
  ASSERT_FALSE(j["violations"].empty());
  EXPECT_EQ(j["violations"][0]["rule"], "FIELD_REMOVED_NOT_RESERVED");
  EXPECT_EQ(j["violations"][0]["file"], "proto/executable.proto");
  EXPECT_EQ(j["violations"][0]["element"], "aot.CopyThunkProto.source");
}

TEST_F(SchemaCheckTest, HeadIsCleanAgainstTheCommittedSnapshots) {
  auto snapshots = ListSnapshots(absl::StrCat(AOT_SOURCE_DIR, "/golden/schema"));
  ASSERT_TRUE(snapshots.ok()) << snapshots.status();
  std::vector<SchemaVersion> history;
  for (const std::string& path : *snapshots) {
    auto set = ReadDescriptorSet(path);
    ASSERT_TRUE(set.ok()) << set.status();
    history.push_back({path, *set});
  }
  SchemaCheckReport report = Check(history, {"head", SchemaDescriptorSet()});
  EXPECT_THAT(Lines(report.violations), IsEmpty());
}

// The subcommands, end to end.
TEST_F(SchemaCheckTest, AotCompatSchemaCheckExitCodes) {
  std::string tool = AOT_COMPAT_BINARY;
  std::string in_src = absl::StrCat("cd '", AOT_SOURCE_DIR, "' && '", tool, "' ");
  EXPECT_EQ(RunShell(in_src + "schema-check > /dev/null"), 0);
  std::string bad = BuildSetFile("deleted", {{"executable", kCopySource, ""}});
  std::string json = (root_ / "out.json").string();
  EXPECT_EQ(
      RunShell(absl::StrCat(in_src, "schema-check --head=", bad, " --json=", json, " > /dev/null")),
      1);
  auto text = ReadFileToString(json);
  ASSERT_TRUE(text.ok());
  EXPECT_THAT(*text, HasSubstr("FIELD_REMOVED_NOT_RESERVED"));
  std::string corrupt = (root_ / "corrupt.binpb").string();
  std::ofstream(corrupt) << "\xff\xff\xff garbage";
  std::string err = (root_ / "err.txt").string();
  EXPECT_EQ(RunShell(absl::StrCat(in_src, "schema-check --base=", corrupt, " 2> ", err)), 2);
  EXPECT_THAT(*ReadFileToString(err), HasSubstr("aot-compat: error: "));
  EXPECT_EQ(RunShell(absl::StrCat(in_src, "schema-check --base=/nonexistent.binpb 2>/dev/null")),
            2);

  // schema-snapshot writes a set equal to the built-in one, never overwrites.
  std::string snap = (root_ / "snap.binpb").string();
  EXPECT_EQ(RunShell(absl::StrCat(tool, " schema-snapshot --out=", snap, " > /dev/null")), 0);
  auto set = ReadDescriptorSet(snap);
  ASSERT_TRUE(set.ok()) << set.status();
  EXPECT_EQ(DescriptorSetFingerprint(*set), SchemaFingerprint());
  EXPECT_EQ(RunShell(absl::StrCat(tool, " schema-snapshot --out=", snap, " 2>/dev/null")), 2);
  EXPECT_EQ(RunShell(absl::StrCat(tool, " schema-snapshot --dir=", root_.string(),
                                  " --date=2026-01-02 > /dev/null")),
            0);
  EXPECT_TRUE(
      fs::exists(root_ / absl::StrCat("2026-01-02-", SchemaFingerprint().substr(0, 8), ".binpb")));
}

// `buf breaking --against` on the same pairs, category WIRE_JSON: where both
// speak, the verdicts agree. Ours is stricter on whole-history reuse,
// annotations and wire-compatible type changes (schema_check.h).
TEST_F(SchemaCheckTest, AgreesWithBufBreakingWhereBothSpeak) {
  std::string buf = schema_testing::FindBuf();
  if (buf.empty()) {
    GTEST_SKIP() << "buf is not installed (neither `buf` on PATH nor `npx --no-install buf`); "
                    "install the npm package @bufbuild/buf to run the cross-check";
  }
  std::string base = BuildSetFile("base", {});
  struct Case {
    std::string label;
    std::vector<Edit> edits;
  };
  std::vector<Case> cases = {
      {"deleted", {{"executable", kCopySource, ""}}},
      {"reserved", {{"executable", kCopySource, "  reserved 1;\n  reserved \"source\";\n"}}},
      {"renumbered", {{"executable", "int64 trip_count = 4 [", "int64 trip_count = 5 ["}}},
      {"msgtype",
       {{"executable", "  BufferSliceProto destination = 2;\n}",
         "  ShapeProto destination = 2;\n}"}}},
      {"oneof",
       {{"executable", "  string name = 1;\n  oneof value {\n",
         "  oneof value {\n    string name = 1;\n"}}},
      {"enum", {{"executable", "    TEMP = 3;\n", ""}}},
      {"renamed",
       {{"executable", "  BufferSliceProto destination = 2;\n}",
         "  BufferSliceProto target = 2;\n  reserved \"destination\";\n}"}}},
      {"added",
       {{"executable", "  BufferSliceProto destination = 2;\n",
         "  BufferSliceProto destination = 2;\n  int64 hint = 3 [(compat) = "
         "{ignorable_by_older_runtimes: true}];\n"}}},
  };
  auto base_set = ReadDescriptorSet(base);
  ASSERT_TRUE(base_set.ok());
  for (const Case& c : cases) {
    std::string head = BuildSetFile(c.label, c.edits);
    auto verdict = schema_testing::BufBreaking(
        buf, head, base, (root_ / absl::StrCat(c.label, ".buf.txt")).string());
    ASSERT_TRUE(verdict.ran) << c.label << ": " << verdict.output;
    auto head_set = ReadDescriptorSet(head);
    ASSERT_TRUE(head_set.ok());
    SchemaCheckReport ours = Check({{"base", *base_set}}, {c.label, *head_set});
    EXPECT_EQ(ours.ok(), !verdict.breaks) << c.label << ": buf said\n"
                                          << verdict.output << "ours:\n"
                                          << ours.ToText();
  }
}

}  // namespace
}  // namespace aot
