#ifndef AOT_HARNESS_SCHEMA_SCHEMA_HISTORY_H_
#define AOT_HARNESS_SCHEMA_SCHEMA_HISTORY_H_

// Where a schema's history comes from when it is not golden/schema/: a
// directory of descriptor sets, or a git repository whose commits are
// compiled with protoc one by one.

#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "google/protobuf/descriptor.pb.h"
#include "harness/schema/schema_check.h"

namespace aot {

// The name of the optional manifest of a history directory: one descriptor
// set file name per line, oldest first; blank lines and `#` comments skipped.
inline constexpr char kHistoryManifest[] = "history.txt";

// Every version of a history directory, oldest first: in the order of its
// manifest when it has one, else every *.binpb sorted by file name (name them
// by date, e.g. 2025-03-01-<id>.binpb). Each version is named by its file
// name. NotFound when the directory has none; InvalidArgument naming the
// manifest line of a missing file.
absl::StatusOr<std::vector<SchemaVersion>> ReadSchemaHistoryDir(const std::string& dir);

// .proto files in a git repository and how to compile them.
struct GitSchemaSource {
  std::string repo;                   // a path to the repository (or a worktree)
  std::vector<std::string> paths;     // repository-relative .proto files
  std::vector<std::string> includes;  // repository-relative -I dirs; empty: "."
  std::string protoc;                 // empty: the protoc the project was built with
  bool source_info = true;            // --include_source_info (positions in findings)
};

// The descriptor set of `source.paths` at `commit` (protoc --include_imports):
// every .proto under the include directories at that commit is extracted to
// a scratch directory and the paths that exist at that commit are compiled.
// NotFound when none of the paths exists there; InvalidArgument with
// protoc's message when it fails.
absl::StatusOr<google::protobuf::FileDescriptorSet> CompileProtosAtCommit(
    const GitSchemaSource& source, const std::string& commit);

// The history of `source.paths`: one version per commit that touched any of
// them (git log, oldest first), named "<date> <12-hex commit>". Commits where
// none of the files exists or protoc fails are left out and listed in
// `skipped` (one line each, saying why). InvalidArgument when `repo` is not a
// git repository or no commit touched the paths.
absl::StatusOr<std::vector<SchemaVersion>> SchemaHistoryFromGit(const GitSchemaSource& source,
                                                                std::vector<std::string>* skipped);

}  // namespace aot

#endif  // AOT_HARNESS_SCHEMA_SCHEMA_HISTORY_H_
