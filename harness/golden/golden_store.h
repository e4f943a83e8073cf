#ifndef AOT_HARNESS_GOLDEN_GOLDEN_STORE_H_
#define AOT_HARNESS_GOLDEN_GOLDEN_STORE_H_

#include <map>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "nlohmann/json.hpp"
#include "proto/executable.pb.h"
#include "proto/golden_io.pb.h"

namespace aot {

// MANIFEST.json of one golden version.
struct Manifest {
  int version = 0;
  std::string target;
  std::string created;           // YYYY-MM-DD
  std::string compiler_version;  // git describe
  std::string compiler_commit;
  std::string schema_fingerprint;
  nlohmann::ordered_json abi_version;  // the artifacts' AbiVersionProto
  std::string target_config;           // text proto
  // The emission flags the artifacts were compiled with (the target's own
  // and aot-compat generate's --xla_aot_<flag>=true), sorted; verify and
  // the gate compile the target with them. Absent from the JSON when empty.
  std::vector<std::string> emission_flags;
  std::map<std::string, std::string> files;  // file name -> sha256

  nlohmann::ordered_json ToJson() const;
  static absl::StatusOr<Manifest> FromJson(const std::string& text, const std::string& path);
};

// One test of a version: the artifact and its recorded inputs/outputs.
struct GoldenArtifact {
  std::string test;
  ExecutableProto executable;
  GoldenIoProto io;
};

absl::StatusOr<Manifest> ReadManifest(const std::string& version_dir);
// Every file the manifest lists exists with that sha256, and every artifact
// in the directory is listed. Errors say "corrupted" / "tampered" and name
// the file.
absl::Status VerifyManifest(const std::string& version_dir, const Manifest& manifest);
// Test names of a version directory (stems of *.pbtxt), sorted.
std::vector<std::string> ListTests(const std::string& version_dir);
absl::StatusOr<GoldenArtifact> ReadArtifact(const std::string& version_dir,
                                            const std::string& test);

// Text of an artifact as stored (<test>.pbtxt): deterministic text format.
std::string ArtifactText(const ExecutableProto& executable);

// Writes a new version directory: every file into a temporary directory
// next to it, then one rename. Refuses to overwrite an existing version.
absl::Status WriteVersion(const std::string& version_dir,
                          const std::vector<GoldenArtifact>& artifacts, Manifest manifest);

}  // namespace aot

#endif  // AOT_HARNESS_GOLDEN_GOLDEN_STORE_H_
