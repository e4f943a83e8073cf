#ifndef AOT_HARNESS_TESTING_SYNTHETIC_HISTORY_H_
#define AOT_HARNESS_TESTING_SYNTHETIC_HISTORY_H_

// Synthetic golden histories for the gate and triage tests: versions of
// real bundled artifacts written with chosen creation dates.
#include <filesystem>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "google/protobuf/descriptor.pb.h"
#include "gtest/gtest.h"
#include "harness/golden/golden_store.h"
#include "harness/schema/reachability.h"
#include "proto/compat_options.pb.h"
#include "proto/schema.h"

namespace aot {
namespace testing {

inline constexpr char kSyntheticTarget[] = "host-x86-64-v2";

// A bundled artifact (host-x86-64-v2 v1) with its recorded inputs/outputs.
inline GoldenArtifact RealArtifact(const std::string& test) {
  auto artifact = ReadArtifact("golden/executables/host-x86-64-v2/v1", test);
  EXPECT_TRUE(artifact.ok()) << artifact.status();
  return artifact.ok() ? *artifact : GoldenArtifact();
}

// A committed target's manifest copied to <root>/executables/<target>/v1
// (what the rollout audit reads: its artifacts' digests), and its tests
// with their artifact digests.
struct ManifestTest {
  std::string target;
  std::string test;
  std::string digest;
};
inline std::vector<ManifestTest> CopyCommittedManifest(const std::string& root,
                                                       const std::string& target) {
  const std::string to = absl::StrCat(root, "/executables/", target, "/v1");
  std::error_code ec;
  std::filesystem::create_directories(to, ec);
  std::filesystem::copy_file(absl::StrCat("golden/executables/", target, "/v1/MANIFEST.json"),
                             to + "/MANIFEST.json", ec);
  EXPECT_FALSE(ec) << target << ": " << ec.message();
  auto manifest = ReadManifest(to);
  EXPECT_TRUE(manifest.ok()) << manifest.status();
  std::vector<ManifestTest> tests;
  if (!manifest.ok()) return tests;
  for (const auto& [test, entry] : manifest->tests) tests.push_back({target, test, entry.artifact});
  return tests;
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
// field 48 of its schema), a thunk kind this schema and runtime dropped: its
// blob holds field 48, as such a golden would (binary artifacts carry field
// numbers, not names).
inline void WriteGoldenVersionWithLegacyKind(const std::string& root, int version,
                                             const std::string& created) {
  GoldenArtifact old = RealArtifact("add_mul");
  ThunkProto* t = old.executable.add_thunks();
  t->mutable_info()->set_name("legacy");
  t->GetReflection()->MutableUnknownFields(t)->AddLengthDelimited(48, "");
  WriteGoldenVersion(root, version, created, {old});
}

// The built-in schema with `edit` applied to one message of
// proto/executable.proto.
inline google::protobuf::FileDescriptorSet EditSchema(
    const std::function<void(google::protobuf::DescriptorProto* message)>& edit,
    const std::string& message_name) {
  google::protobuf::FileDescriptorSet set = SchemaDescriptorSet();
  bool found = false;
  for (auto& file : *set.mutable_file()) {
    if (file.name() != "proto/executable.proto") continue;
    for (google::protobuf::DescriptorProto& m : *file.mutable_message_type()) {
      if (m.name() == message_name) {
        edit(&m);
        found = true;
      }
    }
  }
  EXPECT_TRUE(found) << message_name;
  return set;
}

// ThunkProto with `legacy_kind = 48` in the impl oneof (the old schema).
inline google::protobuf::FileDescriptorSet SchemaWithLegacyKind() {
  return EditSchema(
      [](google::protobuf::DescriptorProto* m) {
        google::protobuf::FieldDescriptorProto* f = m->add_field();
        f->set_name("legacy_kind");
        f->set_number(48);
        f->set_label(google::protobuf::FieldDescriptorProto::LABEL_OPTIONAL);
        f->set_type(google::protobuf::FieldDescriptorProto::TYPE_MESSAGE);
        f->set_type_name(".aot.CopyThunkProto");
        f->set_oneof_index(0);
      },
      "ThunkProto");
}

// The head schema after the cleanup phase: 48 and its name reserved.
inline google::protobuf::FileDescriptorSet SchemaWithLegacyKindReserved() {
  return EditSchema(
      [](google::protobuf::DescriptorProto* m) {
        google::protobuf::DescriptorProto::ReservedRange* r = m->add_reserved_range();
        r->set_start(48);
        r->set_end(49);
        m->add_reserved_name("legacy_kind");
      },
      "ThunkProto");
}

// ExecutableProto with a new field 100, scratch_alignment, annotated as
// added on 2026-11-30 (ignorable by older runtimes or not).
inline google::protobuf::FileDescriptorSet SchemaWithNewField(bool ignorable) {
  return EditSchema(
      [ignorable](google::protobuf::DescriptorProto* m) {
        google::protobuf::FieldDescriptorProto* f = m->add_field();
        f->set_name("scratch_alignment");
        f->set_json_name("scratchAlignment");
        f->set_number(100);
        f->set_label(google::protobuf::FieldDescriptorProto::LABEL_OPTIONAL);
        f->set_type(google::protobuf::FieldDescriptorProto::TYPE_INT64);
        CompatAnnotation* a = f->mutable_options()->MutableExtension(compat);
        a->set_runtime_support_since("2026-11-30");
        a->set_ignorable_by_older_runtimes(ignorable);
      },
      "ExecutableProto");
}

// `set` as a descriptor pool (the head schema a test hands to a checker).
inline std::unique_ptr<google::protobuf::DescriptorPool> PoolOf(
    const google::protobuf::FileDescriptorSet& set) {
  auto pool = BuildDescriptorPool(set, "head");
  EXPECT_TRUE(pool.ok()) << pool.status();
  return pool.ok() ? *std::move(pool) : nullptr;
}

// Field 100 (varint 64) on the wire: what a compiler that sets
// scratch_alignment appends to an ExecutableProto.
inline std::string ScratchAlignmentOnTheWire() { return std::string("\xa0\x06\x40", 3); }

}  // namespace testing
}  // namespace aot

#endif  // AOT_HARNESS_TESTING_SYNTHETIC_HISTORY_H_
