#include "harness/triage/git_sources.h"

#include <filesystem>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "harness/release/old_build.h"
#include "harness/schema/schema_check.h"
#include "support/status_macros.h"

#ifndef AOT_PROTOC
#define AOT_PROTOC "protoc"
#endif

namespace aot {

namespace fs = std::filesystem;

absl::StatusOr<google::protobuf::FileDescriptorSet> SchemaAtCommit(const std::string& repo,
                                                                   const std::string& commit) {
  std::string tmpl = (fs::temp_directory_path() / "aot_schema_XXXXXX").string();
  if (::mkdtemp(tmpl.data()) == nullptr) {
    return absl::InternalError("cannot create a temporary directory");
  }
  struct Cleanup {
    std::string dir;
    ~Cleanup() {
      std::error_code ec;
      fs::remove_all(dir, ec);
    }
  } cleanup{tmpl};
  CommandResult extract =
      RunShellCommand(absl::StrCat("git -C ", ShellQuote(repo), " archive ", ShellQuote(commit),
                                   " proto | tar -x -C ", ShellQuote(tmpl)));
  if (extract.exit_code != 0) {
    return absl::InvalidArgumentError(
        absl::StrCat("cannot extract proto/ at ", commit, ": ", extract.output));
  }
  std::string set_path = tmpl + "/schema.binpb";
  CommandResult protoc = RunShellCommand(absl::StrCat(
      "cd ", ShellQuote(tmpl), " && ", ShellQuote(AOT_PROTOC),
      " --include_imports --descriptor_set_out=", ShellQuote(set_path), " -I . proto/*.proto"));
  if (protoc.exit_code != 0) {
    return absl::InvalidArgumentError(
        absl::StrCat("protoc failed on proto/ at ", commit, ": ", protoc.output));
  }
  return ReadDescriptorSet(set_path);
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
