#ifndef AOT_HARNESS_TESTS_SYNTHETIC_HISTORY_H_
#define AOT_HARNESS_TESTS_SYNTHETIC_HISTORY_H_

// Synthetic golden histories for the gate and triage tests: versions of
// real bundled artifacts written with chosen creation dates.
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_replace.h"
#include "gtest/gtest.h"
#include "harness/golden/golden_store.h"
#include "runtime/support/file_io.h"
#include "runtime/support/sha256.h"

namespace aot {
namespace testing {

inline constexpr char kSyntheticTarget[] = "host-x86-64-v2";

// A bundled artifact (host-x86-64-v2 v1) with its recorded inputs/outputs.
inline GoldenArtifact RealArtifact(const std::string& test) {
  auto artifact = ReadArtifact("golden/executables/host-x86-64-v2/v1", test);
  EXPECT_TRUE(artifact.ok()) << artifact.status();
  return artifact.ok() ? *artifact : GoldenArtifact();
}

// Writes <root>/executables/host-x86-64-v2/v<version> created on `created`.
inline void WriteGoldenVersion(const std::string& root, int version, const std::string& created,
                               const std::vector<GoldenArtifact>& artifacts) {
  Manifest manifest;
  manifest.version = version;
  manifest.target = kSyntheticTarget;
  manifest.created = created;
  std::string dir = absl::StrCat(root, "/executables/", kSyntheticTarget, "/v", version);
  ASSERT_TRUE(WriteVersion(dir, artifacts, manifest).ok());
}

// A version written by a compiler that emitted `legacy_kind` (ThunkProto
// field 30 of its schema), a thunk kind this schema and runtime dropped: its
// text names the field, as such a golden would.
inline void WriteGoldenVersionWithLegacyKind(const std::string& root, int version,
                                             const std::string& created) {
  GoldenArtifact old = RealArtifact("add_mul");
  ThunkProto* t = old.executable.add_thunks();
  t->mutable_info()->set_name("legacy");
  t->GetReflection()->MutableUnknownFields(t)->AddLengthDelimited(30, "");
  WriteGoldenVersion(root, version, created, {old});
  std::string dir = absl::StrCat(root, "/executables/", kSyntheticTarget, "/v", version);
  std::string path = dir + "/add_mul.pbtxt";
  auto text = ReadFileToString(path);
  ASSERT_TRUE(text.ok());
  std::string renamed = absl::StrReplaceAll(*text, {{"30: \"\"", "legacy_kind {\n  }"}});
  ASSERT_NE(renamed, *text);
  auto manifest = ReadManifest(dir);
  ASSERT_TRUE(manifest.ok());
  manifest->files["add_mul.pbtxt"] = Sha256Hex(renamed);
  ASSERT_TRUE(WriteFileAtomically(path, renamed).ok());
  ASSERT_TRUE(WriteFileAtomically(dir + "/MANIFEST.json", manifest->ToJson().dump(2)).ok());
}

}  // namespace testing
}  // namespace aot

#endif  // AOT_HARNESS_TESTS_SYNTHETIC_HISTORY_H_
