#include "harness/golden/golden_store.h"

#include <signal.h>
#include <unistd.h>

#include <cerrno>
#include <filesystem>
#include <set>

#include "absl/strings/match.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "google/protobuf/io/tokenizer.h"
#include "google/protobuf/text_format.h"
#include "google/protobuf/unknown_field_set.h"
#include "support/crash_point.h"
#include "support/file_io.h"
#include "support/proto_util.h"
#include "support/sha256.h"
#include "support/status_macros.h"

namespace aot {

namespace fs = std::filesystem;

const std::string& ManifestEntry::digest(absl::string_view kind) const {
  return kind == kArtifactBlobs ? artifact : io;
}

nlohmann::ordered_json Manifest::ToJson() const {
  nlohmann::ordered_json j;
  // Format 1 manifests are written as they always were (no "format" key).
  if (format != 1) j["format"] = format;
  j["version"] = version;
  j["target"] = target;
  j["created"] = created;
  j["compiler_version"] = compiler_version;
  j["compiler_commit"] = compiler_commit;
  j["schema_fingerprint"] = schema_fingerprint;
  j["abi_version"] = abi_version;
  j["target_config"] = target_config;
  if (!emission_flags.empty()) j["emission_flags"] = emission_flags;
  nlohmann::ordered_json files_json = nlohmann::ordered_json::object();
  for (const auto& [name, sha] : files) files_json[name] = sha;
  if (format == 1) {
    j["files"] = files_json;
    return j;
  }
  nlohmann::ordered_json tests_json = nlohmann::ordered_json::object();
  for (const auto& [test, e] : tests) {
    nlohmann::ordered_json entry;
    entry["artifact"] = e.artifact;
    entry["io"] = e.io;
    // The stamp's compiler_version is written only where it is not the
    // version's own (absent: the manifest's compiler_version).
    if (e.compiler_version != compiler_version) entry["compiler_version"] = e.compiler_version;
    if (!e.source_path.empty()) entry["source_path"] = e.source_path;
    tests_json[test] = entry;
  }
  j["tests"] = tests_json;
  if (!files.empty()) j["legacy_files"] = files_json;
  return j;
}

absl::StatusOr<Manifest> Manifest::FromJson(const std::string& text, const std::string& path) {
  nlohmann::ordered_json j = nlohmann::ordered_json::parse(text, nullptr, false);
  auto bad = [&](absl::string_view what) {
    return absl::InvalidArgumentError(absl::StrCat(path, ": ", what));
  };
  if (j.is_discarded() || !j.is_object()) return bad("not a JSON object");
  Manifest m;
  try {
    m.format = j.value("format", 1);
    if (m.format != 1 && m.format != 2) {
      return bad(absl::StrCat("unknown manifest format ", m.format,
                              " (this harness reads formats 1 and 2)"));
    }
    m.version = j.at("version").get<int>();
    m.target = j.at("target").get<std::string>();
    m.created = j.at("created").get<std::string>();
    m.compiler_version = j.value("compiler_version", "");
    m.compiler_commit = j.value("compiler_commit", "");
    m.schema_fingerprint = j.value("schema_fingerprint", "");
    if (j.contains("abi_version")) m.abi_version = j["abi_version"];
    m.target_config = j.value("target_config", "");
    if (j.contains("emission_flags")) {
      m.emission_flags = j["emission_flags"].get<std::vector<std::string>>();
    }
    const char* files_key = m.format == 1 ? "files" : "legacy_files";
    if (m.format == 1 || j.contains(files_key)) {
      for (const auto& [name, sha] : j.at(files_key).items()) {
        m.files[name] = sha.get<std::string>();
      }
    }
    if (m.format == 2) {
      for (const auto& [test, e] : j.at("tests").items()) {
        ManifestEntry entry;
        entry.artifact = e.at("artifact").get<std::string>();
        entry.io = e.at("io").get<std::string>();
        entry.compiler_version = e.value("compiler_version", m.compiler_version);
        entry.source_path = e.value("source_path", "");
        for (const char* kind : {kArtifactBlobs, kIoBlobs}) {
          if (!IsSha256Hex(entry.digest(kind))) {
            return bad(absl::StrCat("test '", test, "': ", kind, " digest '", entry.digest(kind),
                                    "' is not a sha256 (64 lowercase hex digits)"));
          }
        }
        m.tests[test] = std::move(entry);
      }
    }
  } catch (const nlohmann::json::exception& e) {
    return bad(absl::StrCat("missing or mistyped field: ", e.what()));
  }
  if (m.created.size() != 10) return bad(absl::StrCat("'created' is not YYYY-MM-DD: ", m.created));
  return m;
}

std::vector<std::string> Manifest::TestNames() const {
  std::vector<std::string> names;
  if (format == 2) {
    for (const auto& [test, entry] : tests) names.push_back(test);
    return names;
  }
  for (const auto& [name, sha] : files) {
    if (absl::EndsWith(name, ".pbtxt")) names.push_back(name.substr(0, name.size() - 6));
  }
  return names;
}

void Manifest::AddBlobKeys(std::set<std::string>* keys) const {
  for (const auto& [test, entry] : tests) {
    for (const char* kind : {kArtifactBlobs, kIoBlobs})
      keys->insert(BlobKey(kind, entry.digest(kind)));
  }
}

std::string BlobKey(absl::string_view kind, absl::string_view digest) {
  return absl::StrCat(kind, "/", digest);
}

bool Manifest::HasTest(const std::string& test) const {
  return format == 2 ? tests.contains(test) : files.contains(test + ".pbtxt");
}

BlobStore GoldenBlobStore(const std::string& golden_dir) {
  return BlobStore((fs::path(golden_dir) / "store").string());
}

BlobStore StoreOfVersionDir(const std::string& version_dir) {
  fs::path dir(version_dir);
  if (!dir.has_filename()) dir = dir.parent_path();  // a trailing slash
  return GoldenBlobStore(dir.parent_path().parent_path().parent_path().string());
}

absl::StatusOr<Manifest> ReadManifest(const std::string& version_dir) {
  std::string path = (fs::path(version_dir) / "MANIFEST.json").string();
  auto text = ReadFileToString(path, 16 << 20);
  if (!text.ok()) {
    return absl::NotFoundError(
        absl::StrCat(version_dir, ": no readable MANIFEST.json (", text.status().message(), ")"));
  }
  return Manifest::FromJson(*text, path);
}

namespace {

// The files of a format 1 version: <test>.pbtxt and <test>.io.pb.
bool IsPerFileGolden(const std::string& name) {
  return absl::EndsWith(name, ".pbtxt") || absl::EndsWith(name, ".io.pb");
}

absl::Status VerifyPerFileManifest(const std::string& version_dir, const Manifest& manifest) {
  for (const auto& [name, sha] : manifest.files) {
    std::string path = (fs::path(version_dir) / name).string();
    auto bytes = ReadFileToString(path);
    if (!bytes.ok()) {
      return absl::DataLossError(
          absl::StrCat("corrupted golden: ", path, " is listed in MANIFEST.json but missing"));
    }
    std::string actual = Sha256Hex(*bytes);
    if (actual != sha) {
      return absl::DataLossError(absl::StrCat("corrupted or tampered golden: sha256 of ", path,
                                              " is ", actual, ", MANIFEST.json says ", sha));
    }
  }
  for (const std::string& test : ListTests(version_dir)) {
    if (manifest.files.count(test + ".pbtxt") == 0) {
      return absl::DataLossError(absl::StrCat("tampered golden: ", version_dir, "/", test,
                                              ".pbtxt is not listed in MANIFEST.json"));
    }
  }
  return absl::OkStatus();
}

}  // namespace

std::vector<std::string> StrayFiles(const std::string& version_dir, const Manifest& manifest,
                                    bool leftovers) {
  std::vector<std::string> out;
  if (manifest.format != 2) return out;
  std::error_code ec;
  for (const auto& entry : fs::directory_iterator(version_dir, ec)) {
    const std::string name = entry.path().filename().string();
    if (name == "MANIFEST.json") continue;
    // A file the version had before it was repacked, unchanged: left by a
    // repack killed before it removed it (harmless: nothing reads it).
    auto listed = manifest.files.find(name);
    // So is a killed writer's temporary file (dot-named: no reader reads it).
    bool leftover = name[0] == '.';
    if (listed != manifest.files.end() && IsPerFileGolden(name)) {
      auto bytes = ReadFileToString(entry.path().string());
      leftover = bytes.ok() && Sha256Hex(*bytes) == listed->second;
    }
    if (leftover == leftovers) out.push_back(entry.path().string());
  }
  std::sort(out.begin(), out.end());
  return out;
}

absl::Status VerifyManifest(const std::string& version_dir, const Manifest& manifest,
                            std::set<std::string>* verified) {
  if (manifest.format == 1) return VerifyPerFileManifest(version_dir, manifest);
  for (const std::string& path : StrayFiles(version_dir, manifest, /*leftovers=*/false)) {
    return absl::DataLossError(
        absl::StrCat("tampered golden: ", path,
                     " is not part of the version (a version in the store holds only "
                     "MANIFEST.json, and the per-file files it had before `aot-compat repack`)"));
  }
  const BlobStore store = StoreOfVersionDir(version_dir);
  for (const auto& [test, entry] : manifest.tests) {
    for (const char* kind : {kArtifactBlobs, kIoBlobs}) {
      const std::string key = BlobKey(kind, entry.digest(kind));
      if (verified != nullptr && verified->contains(key)) continue;
      auto bytes = store.Get(kind, entry.digest(kind));
      if (!bytes.ok()) {
        return absl::DataLossError(absl::StrCat(version_dir, "/MANIFEST.json: test '", test,
                                                "': ", bytes.status().message()));
      }
      if (verified != nullptr) verified->insert(key);
    }
  }
  return absl::OkStatus();
}

std::vector<std::string> ListTests(const std::string& version_dir) {
  std::error_code ec;
  if (fs::exists(fs::path(version_dir) / "MANIFEST.json", ec)) {
    auto manifest = ReadManifest(version_dir);
    if (manifest.ok() && manifest->format == 2) return manifest->TestNames();
  }
  std::vector<std::string> tests;
  for (const auto& entry : fs::directory_iterator(version_dir, ec)) {
    if (entry.path().extension() == ".pbtxt") tests.push_back(entry.path().stem().string());
  }
  std::sort(tests.begin(), tests.end());
  return tests;
}

namespace {

// Where in `message` a field the current schema does not know is: "path
// field N", or empty when there is none. Binary parsing keeps such fields
// silently (text format refused them by name).
std::string FindUnknownField(const google::protobuf::Message& message, const std::string& path) {
  const google::protobuf::Reflection* reflection = message.GetReflection();
  const google::protobuf::UnknownFieldSet& unknown = reflection->GetUnknownFields(message);
  if (!unknown.empty()) {
    return absl::StrCat(path, " (", message.GetDescriptor()->name(), ") field ",
                        unknown.field(0).number());
  }
  std::vector<const google::protobuf::FieldDescriptor*> fields;
  reflection->ListFields(message, &fields);
  for (const google::protobuf::FieldDescriptor* field : fields) {
    if (field->cpp_type() != google::protobuf::FieldDescriptor::CPPTYPE_MESSAGE) continue;
    if (field->is_repeated()) {
      for (int i = 0; i < reflection->FieldSize(message, field); ++i) {
        std::string found = FindUnknownField(reflection->GetRepeatedMessage(message, field, i),
                                             absl::StrCat(path, ".", field->name(), "[", i, "]"));
        if (!found.empty()) return found;
      }
    } else {
      std::string found = FindUnknownField(reflection->GetMessage(message, field),
                                           absl::StrCat(path, ".", field->name()));
      if (!found.empty()) return found;
    }
  }
  return "";
}

}  // namespace

std::string ArtifactBlobBytes(const ExecutableProto& executable) {
  if (!executable.has_metadata() || (executable.metadata().compiler_version().empty() &&
                                     executable.metadata().source_path().empty())) {
    return SerializeDeterministic(executable);
  }
  ExecutableProto stamp_free = executable;
  stamp_free.mutable_metadata()->clear_compiler_version();
  stamp_free.mutable_metadata()->clear_source_path();
  return SerializeDeterministic(stamp_free);
}

void RecordStamp(const ExecutableProto& executable, ManifestEntry* entry) {
  entry->compiler_version = executable.metadata().compiler_version();
  entry->source_path = executable.metadata().source_path();
}

absl::StatusOr<ExecutableProto> ArtifactFromBlob(const std::string& bytes,
                                                 const ManifestEntry& entry,
                                                 const std::string& where) {
  ExecutableProto executable;
  if (!ParseBinaryProto(bytes, &executable)) {
    return absl::InvalidArgumentError(absl::StrCat(where, ": not a binary ExecutableProto"));
  }
  std::string unknown = FindUnknownField(executable, "ExecutableProto");
  if (!unknown.empty()) {
    return absl::InvalidArgumentError(
        absl::StrCat(where, ": ", unknown,
                     " is not in the current schema (the artifact uses a field the current "
                     "schema no longer has)"));
  }
  if (!entry.compiler_version.empty() || !entry.source_path.empty()) {
    ExecutableMetadataProto* metadata = executable.mutable_metadata();
    if (!entry.compiler_version.empty()) metadata->set_compiler_version(entry.compiler_version);
    if (!entry.source_path.empty()) metadata->set_source_path(entry.source_path);
  }
  return executable;
}

namespace {

absl::StatusOr<GoldenArtifact> ReadPerFileArtifact(const std::string& version_dir,
                                                   const std::string& test) {
  GoldenArtifact a;
  a.test = test;
  std::string artifact_path = (fs::path(version_dir) / (test + ".pbtxt")).string();
  auto text = ReadFileToString(artifact_path);
  AOT_RETURN_IF_ERROR(text);
  // The parser's own message says what is wrong and where; a field the
  // current schema no longer has (a removed field or thunk kind of an old
  // golden) is a backward-compatibility failure, named as such.
  if (absl::Status parsed = ParseTextProto(*text, &a.executable); !parsed.ok()) {
    std::string why = parsed.message().empty() ? "not a text-format ExecutableProto"
                                               : std::string(parsed.message());
    if (absl::StrContains(why, "has no field named")) {
      absl::StrAppend(&why, " (the artifact uses a field the current schema no longer has)");
    }
    return absl::InvalidArgumentError(absl::StrCat(artifact_path, ":", why));
  }
  std::string io_path = (fs::path(version_dir) / (test + ".io.pb")).string();
  AOT_ASSIGN_OR_RETURN(auto io, ReadFileToString(io_path));
  if (!a.io.ParseFromString(io)) {
    return absl::InvalidArgumentError(absl::StrCat(io_path, ": not a GoldenIoProto"));
  }
  return a;
}

}  // namespace

absl::StatusOr<GoldenArtifact> ReadArtifact(const std::string& version_dir,
                                            const Manifest& manifest, const std::string& test) {
  if (manifest.format == 1) return ReadPerFileArtifact(version_dir, test);
  auto it = manifest.tests.find(test);
  if (it == manifest.tests.end()) {
    return absl::NotFoundError(
        absl::StrCat(version_dir, "/MANIFEST.json names no test '", test, "'"));
  }
  const ManifestEntry& entry = it->second;
  const BlobStore store = StoreOfVersionDir(version_dir);
  const std::string where = absl::StrCat(version_dir, "/", test);
  AOT_ASSIGN_OR_RETURN(std::string artifact_bytes, store.Get(kArtifactBlobs, entry.artifact));
  GoldenArtifact a;
  a.test = test;
  a.artifact_digest = entry.artifact;
  a.io_digest = entry.io;
  AOT_ASSIGN_OR_RETURN(
      a.executable,
      ArtifactFromBlob(
          artifact_bytes, entry,
          absl::StrCat(where, " (", store.PathOf(kArtifactBlobs, entry.artifact), ")")));
  AOT_ASSIGN_OR_RETURN(std::string io_bytes, store.Get(kIoBlobs, entry.io));
  if (!ParseBinaryProto(io_bytes, &a.io)) {
    return absl::InvalidArgumentError(absl::StrCat(where, " (", store.PathOf(kIoBlobs, entry.io),
                                                   "): not a binary GoldenIoProto"));
  }
  return a;
}

absl::StatusOr<GoldenArtifact> ReadArtifact(const std::string& version_dir,
                                            const std::string& test) {
  std::error_code ec;
  if (!fs::exists(fs::path(version_dir) / "MANIFEST.json", ec)) {
    return ReadPerFileArtifact(version_dir, test);
  }
  AOT_ASSIGN_OR_RETURN(Manifest manifest, ReadManifest(version_dir));
  return ReadArtifact(version_dir, manifest, test);
}

std::string ArtifactText(const ExecutableProto& executable) {
  std::string text;
  google::protobuf::TextFormat::Printer printer;
  printer.PrintToString(executable, &text);
  return text;
}

namespace {

// Removes the staging directories "<prefix><pid>" in `dir` left by a writer
// that was killed: those whose process no longer exists. (A live writer's
// staging directory is left alone; WriteVersion refuses to write a version
// that appeared meanwhile anyway.)
void RemoveStaleStaging(const fs::path& dir, const std::string& prefix) {
  std::error_code ec;
  for (const fs::directory_entry& entry : fs::directory_iterator(dir, ec)) {
    std::string name = entry.path().filename().string();
    if (!absl::StartsWith(name, prefix)) continue;
    int pid = 0;
    if (!absl::SimpleAtoi(name.substr(prefix.size()), &pid) || pid <= 0) continue;
    if (::kill(pid, 0) == 0 || errno != ESRCH) continue;
    std::error_code remove_ec;
    fs::remove_all(entry.path(), remove_ec);
  }
}

}  // namespace

absl::Status WriteVersion(const std::string& version_dir,
                          const std::vector<GoldenArtifact>& artifacts, Manifest manifest) {
  std::error_code ec;
  if (fs::exists(version_dir, ec)) {
    return absl::AlreadyExistsError(
        absl::StrCat(version_dir, " already exists; golden versions are never rewritten"));
  }
  // The blobs first (each written atomically; one already there is shared):
  // a version is never visible before everything it names is.
  const BlobStore store = StoreOfVersionDir(version_dir);
  manifest.format = 2;
  manifest.files.clear();
  manifest.tests.clear();
  for (const GoldenArtifact& a : artifacts) {
    ManifestEntry entry;
    RecordStamp(a.executable, &entry);
    AOT_ASSIGN_OR_RETURN(entry.artifact,
                         store.Put(kArtifactBlobs, ArtifactBlobBytes(a.executable)));
    AOT_ASSIGN_OR_RETURN(entry.io, store.Put(kIoBlobs, SerializeDeterministic(a.io)));
    manifest.tests[a.test] = std::move(entry);
  }
  CrashPoint("blobs stored, version not yet staged");
  fs::path final_dir(version_dir);
  fs::create_directories(final_dir.parent_path(), ec);
  const std::string staging_prefix = absl::StrCat(".tmp-", final_dir.filename().string(), "-");
  std::string temp = (final_dir.parent_path() / absl::StrCat(staging_prefix, ::getpid())).string();
  RemoveStaleStaging(final_dir.parent_path(), staging_prefix);
  fs::remove_all(temp, ec);
  if (!fs::create_directories(temp, ec)) {
    return absl::InternalError(absl::StrCat("cannot create ", temp, ": ", ec.message()));
  }
  auto cleanup = [&]() { fs::remove_all(temp, ec); };
  if (absl::Status s = WriteFileAtomically((fs::path(temp) / "MANIFEST.json").string(),
                                           manifest.ToJson().dump(2) + "\n");
      !s.ok()) {
    cleanup();
    return s;
  }
  // The version appears whole or not at all: its manifest and its entry in
  // `temp` are durable (WriteFileAtomically syncs both), then the directory
  // is renamed into place and the parent synced so the new entry survives a
  // crash.
  CrashPoint("version staged, not yet renamed");
  fs::rename(temp, final_dir, ec);
  if (ec) {
    cleanup();
    return absl::InternalError(
        absl::StrCat("cannot rename ", temp, " to ", version_dir, ": ", ec.message()));
  }
  CrashPoint("version renamed, parent not yet synced");
  fs::path parent = final_dir.parent_path();
  absl::Status synced = SyncDirectory(parent.empty() ? std::string(".") : parent.string());
  CrashPoint("version directory synced");
  return synced;
}

absl::StatusOr<std::map<std::string, std::string>> RebuildLegacyFiles(
    const std::string& version_dir, const Manifest& manifest) {
  if (manifest.format != 2) {
    return absl::FailedPreconditionError(
        absl::StrCat(version_dir, " is not in the store (manifest format 1)"));
  }
  const BlobStore store = StoreOfVersionDir(version_dir);
  std::map<std::string, std::string> files;
  for (const auto& [test, entry] : manifest.tests) {
    AOT_ASSIGN_OR_RETURN(GoldenArtifact artifact, ReadArtifact(version_dir, manifest, test));
    files[test + ".pbtxt"] = ArtifactText(artifact.executable);
    // The I/O record's blob is the file's bytes as they were.
    AOT_ASSIGN_OR_RETURN(files[test + ".io.pb"], store.Get(kIoBlobs, entry.io));
  }
  return files;
}

namespace {

// After a format 2 manifest is in place: removes the per-file files its
// `files` record names (those whose bytes still match it), then syncs.
absl::Status RemoveRepackedFiles(const std::string& version_dir, const Manifest& manifest) {
  for (const std::string& path : StrayFiles(version_dir, manifest, /*leftovers=*/false)) {
    return absl::DataLossError(
        absl::StrCat(path,
                     " is not a file this version had (not in its legacy_files record, or "
                     "changed since): left in place; remove it by hand once checked"));
  }
  for (const std::string& path : StrayFiles(version_dir, manifest, /*leftovers=*/true)) {
    std::error_code ec;
    fs::remove(path, ec);
    if (ec) return absl::InternalError(absl::StrCat("cannot remove ", path, ": ", ec.message()));
    CrashPoint("repack: removing per-file files");
  }
  return SyncDirectory(version_dir);
}

}  // namespace

absl::StatusOr<RepackResult> RepackVersion(const std::string& version_dir) {
  RepackResult result;
  result.version_dir = version_dir;
  AOT_ASSIGN_OR_RETURN(Manifest manifest, ReadManifest(version_dir));
  if (manifest.format == 2) {
    // Already moved; a repack killed after its manifest was replaced left
    // some per-file files behind.
    result.tests = static_cast<int>(manifest.tests.size());
    AOT_RETURN_IF_ERROR(RemoveRepackedFiles(version_dir, manifest));
    return result;
  }
  AOT_RETURN_IF_ERROR(VerifyManifest(version_dir, manifest));
  const BlobStore store = StoreOfVersionDir(version_dir);
  Manifest packed = manifest;
  packed.format = 2;
  for (const std::string& test : manifest.TestNames()) {
    if (!manifest.files.contains(test + ".io.pb")) {
      return absl::DataLossError(
          absl::StrCat(version_dir, "/", test, ".io.pb is not listed in MANIFEST.json"));
    }
    AOT_ASSIGN_OR_RETURN(GoldenArtifact artifact, ReadPerFileArtifact(version_dir, test));
    AOT_ASSIGN_OR_RETURN(std::string io,
                         ReadFileToString((fs::path(version_dir) / (test + ".io.pb")).string()));
    ManifestEntry entry;
    RecordStamp(artifact.executable, &entry);
    const std::string blob = ArtifactBlobBytes(artifact.executable);
    result.new_blobs += !store.Contains(kArtifactBlobs, Sha256Hex(blob));
    result.new_blobs += !store.Contains(kIoBlobs, Sha256Hex(io));
    AOT_ASSIGN_OR_RETURN(entry.artifact, store.Put(kArtifactBlobs, blob));
    AOT_ASSIGN_OR_RETURN(entry.io, store.Put(kIoBlobs, io));
    packed.tests[test] = std::move(entry);
    ++result.tests;
  }
  CrashPoint("repack: blobs stored, manifest not yet replaced");
  // Nothing is replaced until every file is rebuilt from the store exactly.
  AOT_ASSIGN_OR_RETURN(auto rebuilt, RebuildLegacyFiles(version_dir, packed));
  for (const auto& [name, sha] : manifest.files) {
    auto it = rebuilt.find(name);
    if (it == rebuilt.end()) {
      return absl::DataLossError(absl::StrCat(version_dir, "/", name,
                                              " is listed in MANIFEST.json but is not an "
                                              "artifact or I/O record; version left as it is"));
    }
    result.bytes_before += it->second.size();
    if (Sha256Hex(it->second) != sha) {
      return absl::DataLossError(
          absl::StrCat(version_dir, "/", name,
                       " does not rebuild byte for byte from the store; version left as it is"));
    }
  }
  AOT_RETURN_IF_ERROR(WriteFileAtomically((fs::path(version_dir) / "MANIFEST.json").string(),
                                          packed.ToJson().dump(2) + "\n"));
  CrashPoint("repack: manifest replaced, files not yet removed");
  AOT_RETURN_IF_ERROR(RemoveRepackedFiles(version_dir, packed));
  result.repacked = true;
  return result;
}

}  // namespace aot
