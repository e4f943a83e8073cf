#ifndef AOT_HARNESS_TRIAGE_GIT_SOURCES_H_
#define AOT_HARNESS_TRIAGE_GIT_SOURCES_H_

#include <string>

#include "absl/status/statusor.h"
#include "google/protobuf/descriptor.pb.h"
#include "harness/release/release.h"

namespace aot {

// The schema of a commit: its proto/*.proto compiled by protoc
// (--include_imports --descriptor_set_out), as a snapshot would be.
absl::StatusOr<google::protobuf::FileDescriptorSet> SchemaAtCommit(const std::string& repo,
                                                                   const std::string& commit);

// The runtime capabilities of a commit without building it: the newest
// release snapshot committed under golden/releases/ at that commit.
// `source` says which release it was.
absl::StatusOr<ReleaseSnapshot> RuntimeAtCommit(const std::string& repo, const std::string& commit,
                                                std::string* source);

}  // namespace aot

#endif  // AOT_HARNESS_TRIAGE_GIT_SOURCES_H_
