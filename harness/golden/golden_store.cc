#include "harness/golden/golden_store.h"

#include <signal.h>
#include <unistd.h>

#include <cerrno>
#include <filesystem>

#include "absl/strings/match.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "google/protobuf/io/tokenizer.h"
#include "google/protobuf/text_format.h"
#include "support/crash_point.h"
#include "support/file_io.h"
#include "support/proto_util.h"
#include "support/sha256.h"
#include "support/status_macros.h"

namespace aot {

namespace fs = std::filesystem;

nlohmann::ordered_json Manifest::ToJson() const {
  nlohmann::ordered_json j;
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
  j["files"] = files_json;
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
    for (const auto& [name, sha] : j.at("files").items()) {
      m.files[name] = sha.get<std::string>();
    }
  } catch (const nlohmann::json::exception& e) {
    return bad(absl::StrCat("missing or mistyped field: ", e.what()));
  }
  if (m.created.size() != 10) return bad(absl::StrCat("'created' is not YYYY-MM-DD: ", m.created));
  return m;
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

absl::Status VerifyManifest(const std::string& version_dir, const Manifest& manifest) {
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

std::vector<std::string> ListTests(const std::string& version_dir) {
  std::vector<std::string> tests;
  std::error_code ec;
  for (const auto& entry : fs::directory_iterator(version_dir, ec)) {
    if (entry.path().extension() == ".pbtxt") tests.push_back(entry.path().stem().string());
  }
  std::sort(tests.begin(), tests.end());
  return tests;
}

absl::StatusOr<GoldenArtifact> ReadArtifact(const std::string& version_dir,
                                            const std::string& test) {
  GoldenArtifact a;
  a.test = test;
  std::string artifact_path = (fs::path(version_dir) / (test + ".pbtxt")).string();
  auto text = ReadFileToString(artifact_path);
  if (!text.ok()) return text.status();
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
  manifest.files.clear();
  for (const GoldenArtifact& a : artifacts) {
    std::string text = ArtifactText(a.executable);
    std::string io;
    a.io.SerializeToString(&io);
    for (const auto& [name, bytes] :
         {std::pair<std::string, const std::string*>{a.test + ".pbtxt", &text},
          std::pair<std::string, const std::string*>{a.test + ".io.pb", &io}}) {
      if (absl::Status s = WriteFileAtomically((fs::path(temp) / name).string(), *bytes); !s.ok()) {
        cleanup();
        return s;
      }
      manifest.files[name] = Sha256Hex(*bytes);
    }
  }
  if (absl::Status s = WriteFileAtomically((fs::path(temp) / "MANIFEST.json").string(),
                                           manifest.ToJson().dump(2) + "\n");
      !s.ok()) {
    cleanup();
    return s;
  }
  // The version appears whole or not at all: each file and its entry in
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

}  // namespace aot
