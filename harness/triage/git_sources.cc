#include "harness/triage/git_sources.h"

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "harness/release/old_build.h"
#include "harness/schema/schema_check.h"
#include "harness/schema/schema_history.h"
#include "support/status_macros.h"
#include "support/subprocess.h"

#ifndef AOT_PROTOC
#define AOT_PROTOC "protoc"
#endif

namespace aot {

absl::StatusOr<google::protobuf::FileDescriptorSet> SchemaAtCommit(const std::string& repo,
                                                                   const std::string& commit) {
  CommandResult list = RunShellCommand(absl::StrCat(
      "git -C ", ShellQuote(repo), " ls-tree --name-only ", ShellQuote(commit), " proto/"));
  if (list.exit_code != 0) {
    return absl::InvalidArgumentError(absl::StrCat("git ls-tree at ", commit, ": ", list.output));
  }
  GitSchemaSource source;
  source.repo = repo;
  source.protoc = AOT_PROTOC;
  source.source_info = false;  // as a snapshot is written
  for (absl::string_view line : absl::StrSplit(list.output, '\n', absl::SkipEmpty())) {
    if (absl::EndsWith(line, ".proto")) source.paths.emplace_back(line);
  }
  if (source.paths.empty()) {
    return absl::InvalidArgumentError(absl::StrCat("commit ", commit, " has no proto/*.proto"));
  }
  return CompileProtosAtCommit(source, commit);
}

absl::StatusOr<ReleaseSnapshot> RuntimeAtCommit(const std::string& repo, const std::string& commit,
                                                std::string* source) {
  CommandResult list =
      RunShellCommand(absl::StrCat("git -C ", ShellQuote(repo), " ls-tree --name-only ",
                                   ShellQuote(commit), " golden/releases/"));
  if (list.exit_code != 0) {
    return absl::InvalidArgumentError(absl::StrCat("git ls-tree at ", commit, ": ", list.output));
  }
  std::string newest;
  ReleaseSnapshot best;
  for (absl::string_view line : absl::StrSplit(list.output, '\n', absl::SkipEmpty())) {
    std::string path(line);
    if (path.size() < 5 || path.substr(path.size() - 5) != ".json") continue;
    CommandResult show = RunShellCommand(absl::StrCat("git -C ", ShellQuote(repo), " show ",
                                                      ShellQuote(absl::StrCat(commit, ":", path))));
    if (show.exit_code != 0) {
      return absl::InternalError(absl::StrCat("git show ", commit, ":", path, ": ", show.output));
    }
    nlohmann::json j = nlohmann::json::parse(show.output, nullptr, /*allow_exceptions=*/false);
    if (j.is_discarded()) {
      return absl::InvalidArgumentError(absl::StrCat(commit, ":", path, ": not valid JSON"));
    }
    AOT_ASSIGN_OR_RETURN(auto release, ReleaseFromJson(j, absl::StrCat(commit, ":", path)));
    if (newest.empty() || ReleaseIsOlder(best, release)) {
      best = std::move(release);
      newest = path;
    }
  }
  if (newest.empty()) {
    return absl::NotFoundError(absl::StrCat(
        "commit ", commit.substr(0, 12),
        " has no release snapshot under golden/releases/; pass --build_base to build it"));
  }
  if (source != nullptr) *source = absl::StrCat(commit.substr(0, 12), ":", newest);
  return best;
}

}  // namespace aot
