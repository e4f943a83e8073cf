#include "harness/schema/schema_verbs.h"

#include <cstdio>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "compiler/tooling/flags.h"
#include "google/protobuf/descriptor.pb.h"
#include "harness/cli/verb.h"
#include "harness/golden/golden_ops.h"
#include "harness/schema/schema_check.h"
#include "harness/schema/schema_history.h"
#include "harness/schema/schema_policy.h"
#include "proto/schema.h"
#include "support/status_macros.h"

namespace aot {
namespace {

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
  return ExitCodeOrBadInput([&]() -> absl::StatusOr<int> {
    auto usage = [](const std::string& why) { return UsageError(absl::InvalidArgumentError(why)); };
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
      AOT_ASSIGN_OR_RETURN(policy, ReadSchemaPolicy(policy_path));
    }
    if (!roots.empty()) policy.roots = roots;

    std::optional<SchemaVersion> head;
    if (!head_path.empty()) {
      AOT_ASSIGN_OR_RETURN(auto set, ReadDescriptorSet(head_path));
      head = SchemaVersion{head_path, std::move(set)};
    }
    absl::StatusOr<SchemaCheckReport> report;
    if (!history_dir.empty() || !git.repo.empty()) {
      std::vector<std::string> skipped;
      AOT_ASSIGN_OR_RETURN(auto versions, !git.repo.empty() ? SchemaHistoryFromGit(git, &skipped)
                                                            : ReadSchemaHistoryDir(history_dir));
      for (const std::string& line : skipped) {
        ReportToolNote(kProgram, absl::StrCat("skipped commit ", line));
      }
      if (head.has_value()) versions.push_back(*std::move(head));
      report = CheckSchemaHistory(versions, policy);
    } else {
      if (bases.empty()) {
        AOT_ASSIGN_OR_RETURN(bases, ListSnapshots(dir));
      }
      AOT_ASSIGN_OR_RETURN(auto history, ReadSchemaHistory(bases));
      report = CheckSchema(history,
                           head.value_or(SchemaVersion{"<built-in schema>", SchemaDescriptorSet()}),
                           policy);
    }
    AOT_RETURN_IF_ERROR(report);
    if (format == "json") {
      std::fputs((report->ToJson().dump(2) + "\n").c_str(), stdout);
    } else if (format == "buf") {
      std::fputs(report->ToBufText().c_str(), stdout);
    } else {
      std::fputs(report->ToText().c_str(), stdout);
    }
    AOT_RETURN_IF_ERROR(WriteJsonFile(json_path, report->ToJson()));
    return report->ok() ? 0 : 1;
  }());
}

}  // namespace

std::vector<Verb> SchemaVerbs() {
  return {
      {"schema-snapshot",
       "Write the built-in schema (a FileDescriptorSet) to\n"
       "golden/schema/<date>-<id>.binpb.",
       SchemaSnapshot},
      {"schema-check",
       "Check the schema against every snapshot: breaking\n"
       "changes, reservations, annotations.",
       SchemaCheck},
  };
}

}  // namespace aot
