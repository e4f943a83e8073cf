#include "harness/schema/schema_history.h"

#include <filesystem>
#include <set>
#include <system_error>

#include "absl/status/status.h"
#include "absl/strings/ascii.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"
#include "support/file_io.h"
#include "support/scratch_dir.h"
#include "support/status_macros.h"
#include "support/subprocess.h"

#ifndef AOT_PROTOC
#define AOT_PROTOC "protoc"
#endif

namespace aot {
namespace {

namespace fs = std::filesystem;

std::string Git(const GitSchemaSource& source) {
  return absl::StrCat("git -C ", ShellQuote(source.repo), " ");
}

std::vector<std::string> Includes(const GitSchemaSource& source) {
  if (source.includes.empty()) return {"."};
  return source.includes;
}

// `path` relative to the include directory that holds it (protoc's name for
// the file), or empty when no include directory does.
std::string NameUnderInclude(const std::string& path, const std::vector<std::string>& includes) {
  for (const std::string& inc : includes) {
    if (inc == "." || inc.empty()) return path;
    std::string prefix = absl::StrCat(absl::StripSuffix(inc, "/"), "/");
    if (absl::StartsWith(path, prefix)) return path.substr(prefix.size());
  }
  return "";
}

}  // namespace

absl::StatusOr<std::vector<SchemaVersion>> ReadSchemaHistoryDir(const std::string& dir) {
  std::error_code ec;
  fs::path manifest = fs::path(dir) / kHistoryManifest;
  std::vector<std::string> paths;
  if (fs::exists(manifest, ec)) {
    AOT_ASSIGN_OR_RETURN(std::string text, ReadFileToString(manifest.string()));
    int line_number = 0;
    for (absl::string_view line : absl::StrSplit(text, '\n')) {
      ++line_number;
      line = absl::StripAsciiWhitespace(line.substr(0, line.find('#')));
      if (line.empty()) continue;
      fs::path file = fs::path(dir) / std::string(line);
      if (!fs::is_regular_file(file, ec)) {
        return absl::InvalidArgumentError(absl::StrCat(manifest.string(), ":", line_number, ": '",
                                                       line, "' is not a file of ", dir));
      }
      paths.push_back(file.string());
    }
    if (paths.empty()) {
      return absl::NotFoundError(absl::StrCat(manifest.string(), ": lists no descriptor set"));
    }
  } else {
    AOT_ASSIGN_OR_RETURN(paths, ListSnapshots(dir));
  }
  AOT_ASSIGN_OR_RETURN(std::vector<SchemaVersion> history, ReadSchemaHistory(paths));
  for (SchemaVersion& v : history) v.name = fs::path(v.name).filename().string();
  return history;
}

absl::StatusOr<google::protobuf::FileDescriptorSet> CompileProtosAtCommit(
    const GitSchemaSource& source, const std::string& commit) {
  const std::vector<std::string> includes = Includes(source);
  // Only the .proto files under the include directories are extracted, so a
  // large repository (XLA's) costs little per commit.
  std::string include_args;
  for (const std::string& inc : includes) absl::StrAppend(&include_args, " ", ShellQuote(inc));
  CommandResult listed = RunShellCommand(absl::StrCat(Git(source), "ls-tree -r --name-only ",
                                                      ShellQuote(commit), " --", include_args));
  if (listed.exit_code != 0) {
    return absl::InvalidArgumentError(
        absl::StrCat("git ls-tree at ", commit, ": ", absl::StripAsciiWhitespace(listed.output)));
  }
  std::set<std::string> protos;
  for (absl::string_view line : absl::StrSplit(listed.output, '\n', absl::SkipEmpty())) {
    if (absl::EndsWith(line, ".proto")) protos.insert(std::string(line));
  }
  std::vector<std::string> names;
  for (const std::string& path : source.paths) {
    if (protos.count(path) == 0) continue;
    std::string name = NameUnderInclude(path, includes);
    if (name.empty()) {
      return absl::InvalidArgumentError(absl::StrCat(
          path, " is under none of the include directories (", absl::StrJoin(includes, ", "), ")"));
    }
    names.push_back(name);
  }
  if (names.empty()) {
    return absl::NotFoundError(
        absl::StrCat("none of ", absl::StrJoin(source.paths, ", "), " exists at this commit"));
  }
  ScratchDir scratch("aot_schema_git");
  if (scratch.path().empty()) return absl::InternalError("cannot create a scratch directory");
  std::string files;
  for (const std::string& p : protos) absl::StrAppend(&files, " ", ShellQuote(p));
  CommandResult extract =
      RunShellCommand(absl::StrCat(Git(source), "archive ", ShellQuote(commit), " --", files,
                                   " | tar -x -C ", ShellQuote(scratch.path())));
  if (extract.exit_code != 0) {
    return absl::InvalidArgumentError(absl::StrCat("cannot extract the .proto files at ", commit,
                                                   ": ",
                                                   absl::StripAsciiWhitespace(extract.output)));
  }
  std::string set_path = absl::StrCat(scratch.path(), "/schema.binpb");
  std::string command =
      absl::StrCat("cd ", ShellQuote(scratch.path()), " && ",
                   ShellQuote(source.protoc.empty() ? std::string(AOT_PROTOC) : source.protoc),
                   " --include_imports", source.source_info ? " --include_source_info" : "",
                   " --descriptor_set_out=", ShellQuote(set_path));
  for (const std::string& inc : includes) absl::StrAppend(&command, " -I ", ShellQuote(inc));
  for (const std::string& name : names) absl::StrAppend(&command, " ", ShellQuote(name));
  CommandResult protoc = RunShellCommand(command);
  if (protoc.exit_code != 0) {
    return absl::InvalidArgumentError(
        absl::StrCat("protoc failed: ", absl::StripAsciiWhitespace(protoc.output)));
  }
  return ReadDescriptorSet(set_path);
}

absl::StatusOr<std::vector<SchemaVersion>> SchemaHistoryFromGit(const GitSchemaSource& source,
                                                                std::vector<std::string>* skipped) {
  if (source.paths.empty()) {
    return absl::InvalidArgumentError("--git needs the .proto file(s) to follow (--path)");
  }
  std::string paths;
  for (const std::string& p : source.paths) absl::StrAppend(&paths, " ", ShellQuote(p));
  CommandResult log =
      RunShellCommand(absl::StrCat(Git(source), "log --reverse --format='%H %cs' --", paths));
  if (log.exit_code != 0) {
    return absl::InvalidArgumentError(
        absl::StrCat(source.repo, ": git log failed: ", absl::StripAsciiWhitespace(log.output)));
  }
  std::vector<SchemaVersion> history;
  int commits = 0;
  for (absl::string_view line : absl::StrSplit(log.output, '\n', absl::SkipEmpty())) {
    std::vector<std::string> parts = absl::StrSplit(line, ' ');
    if (parts.size() != 2 || parts[0].size() != 40) continue;
    ++commits;
    std::string name = absl::StrCat(parts[1], " ", parts[0].substr(0, 12));
    auto set = CompileProtosAtCommit(source, parts[0]);
    if (!set.ok()) {
      if (skipped != nullptr) skipped->push_back(absl::StrCat(name, ": ", set.status().message()));
      continue;
    }
    history.push_back({name, *std::move(set)});
  }
  if (commits == 0) {
    return absl::InvalidArgumentError(
        absl::StrCat("no commit of ", source.repo, " touches", paths));
  }
  return history;
}

}  // namespace aot
