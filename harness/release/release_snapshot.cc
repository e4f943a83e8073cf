#include "harness/release/release_snapshot.h"

#include <algorithm>
#include <filesystem>
#include <system_error>
#include <tuple>

#include "absl/algorithm/container.h"
#include "absl/strings/str_cat.h"
#include "support/file_io.h"
#include "support/sha256.h"
#include "support/status_macros.h"

namespace aot {
namespace {

namespace fs = std::filesystem;

template <typename T>
bool Contains(const std::vector<T>& v, absl::string_view x) {
  return absl::c_any_of(v, [&](const T& e) { return e == x; });
}

// The part of a release that describes capabilities (what the id hashes):
// everything but the id, date and build identity (the commit; the runtime
// fingerprint is in, as what the runtime runs follows from its code).
nlohmann::ordered_json CapabilityJson(const ReleaseSnapshot& r) {
  nlohmann::ordered_json j;
  j["schema_fingerprint"] = r.schema_fingerprint;
  j["abi_version"] = r.abi_version;
  j["toolchain"] = r.toolchain;
  j["platforms"] = r.platforms;
  j["thunk_kinds"] = r.thunk_kinds;
  j["hlo_opcodes"] = r.hlo_opcodes;
  j["ffi_handlers"] = r.ffi_handlers;
  nlohmann::ordered_json aliases = nlohmann::ordered_json::array();
  for (const ReleaseAlias& a : r.ffi_aliases) {
    aliases.push_back({{"alias", a.alias}, {"target", a.target}, {"expiry", a.expiry}});
  }
  j["ffi_aliases"] = aliases;
  j["host_kernel_symbols"] = r.host_kernel_symbols;
  j["flag_defaults"] = r.flag_defaults;
  j["load_passes"] = r.load_passes;
  // Only when recorded, so a release that predates the key keeps its id.
  if (!r.gemm_element_types.empty()) j["gemm_element_types"] = r.gemm_element_types;
  if (!r.runtime_fingerprint.empty()) j["runtime_fingerprint"] = r.runtime_fingerprint;
  return j;
}

}  // namespace

std::string ReleaseCapabilityHash(const ReleaseSnapshot& r) {
  return Sha256Hex(CapabilityJson(r).dump());
}

bool ReleaseSnapshot::ResolvesFfiName(absl::string_view name) const {
  if (Contains(ffi_handlers, name)) return true;
  return absl::c_any_of(ffi_aliases, [&](const ReleaseAlias& a) { return a.alias == name; });
}
std::vector<std::string> ReleaseSnapshot::FfiNamesResolvedAt(const Date& now) const {
  std::vector<std::string> names = ffi_handlers;
  for (const ReleaseAlias& a : ffi_aliases) {
    auto expiry = Date::Parse(a.expiry);
    if (!expiry.ok() || *expiry > now) names.push_back(a.alias);
  }
  return names;
}

std::vector<std::string> ReleaseSnapshot::GemmElementTypesOrDefault() const {
  if (!gemm_element_types.empty()) return gemm_element_types;
  return {"F32", "F64"};
}

bool ReleaseSnapshot::KnowsThunkKind(absl::string_view kind) const {
  return Contains(thunk_kinds, kind);
}
bool ReleaseSnapshot::KnowsOpcode(absl::string_view opcode) const {
  return Contains(hlo_opcodes, opcode);
}

nlohmann::ordered_json ReleaseToJson(const ReleaseSnapshot& r) {
  nlohmann::ordered_json j;
  j["id"] = r.id;
  j["date"] = r.date;
  if (!r.cut_at.empty()) j["cut_at"] = r.cut_at;
  j["git_commit"] = r.git_commit;
  j["git_describe"] = r.git_describe;
  j["descriptor_set"] = r.descriptor_set;
  nlohmann::ordered_json capabilities = CapabilityJson(r);
  for (auto& [key, value] : capabilities.items()) j[key] = value;
  return j;
}

absl::StatusOr<ReleaseSnapshot> ReleaseFromJson(const nlohmann::json& j, absl::string_view origin) {
  ReleaseSnapshot r;
  std::string key;
  try {
    if (!j.is_object()) throw std::runtime_error("not a JSON object");
    auto str = [&](const char* k, std::string* out) {
      key = k;
      *out = j.at(k).get<std::string>();
    };
    auto list = [&](const char* k, std::vector<std::string>* out) {
      key = k;
      *out = j.at(k).get<std::vector<std::string>>();
    };
    str("id", &r.id);
    str("date", &r.date);
    if (j.contains("cut_at")) str("cut_at", &r.cut_at);
    str("git_commit", &r.git_commit);
    str("git_describe", &r.git_describe);
    str("descriptor_set", &r.descriptor_set);
    str("schema_fingerprint", &r.schema_fingerprint);
    key = "abi_version";
    r.abi_version = j.at("abi_version").get<int>();
    key = "toolchain";
    r.toolchain = j.at("toolchain").get<std::map<std::string, std::string>>();
    list("platforms", &r.platforms);
    list("thunk_kinds", &r.thunk_kinds);
    list("hlo_opcodes", &r.hlo_opcodes);
    list("ffi_handlers", &r.ffi_handlers);
    key = "ffi_aliases";
    for (const auto& a : j.at("ffi_aliases")) {
      r.ffi_aliases.push_back({a.at("alias").get<std::string>(), a.at("target").get<std::string>(),
                               a.at("expiry").get<std::string>()});
    }
    list("host_kernel_symbols", &r.host_kernel_symbols);
    key = "flag_defaults";
    r.flag_defaults = j.at("flag_defaults").get<std::map<std::string, std::string>>();
    list("load_passes", &r.load_passes);
    if (j.contains("gemm_element_types")) list("gemm_element_types", &r.gemm_element_types);
    if (j.contains("runtime_fingerprint")) str("runtime_fingerprint", &r.runtime_fingerprint);
  } catch (const std::exception& e) {
    return absl::InvalidArgumentError(
        absl::StrCat(origin, ": release key '", key, "': ", e.what()));
  }
  if (!Date::Parse(r.date).ok()) {
    return absl::InvalidArgumentError(
        absl::StrCat(origin, ": release date '", r.date, "' is not YYYY-MM-DD"));
  }
  return r;
}

bool ReleaseIsOlder(const ReleaseSnapshot& a, const ReleaseSnapshot& b) {
  return std::tie(a.date, a.cut_at, a.id) < std::tie(b.date, b.cut_at, b.id);
}

absl::StatusOr<std::vector<ReleaseSnapshot>> LoadReleases(const std::string& golden_dir) {
  std::vector<ReleaseSnapshot> releases;
  fs::path dir = fs::path(golden_dir) / "releases";
  std::error_code ec;
  if (!fs::exists(dir, ec)) return releases;
  std::vector<std::string> paths;
  for (const fs::directory_entry& entry : fs::directory_iterator(dir, ec)) {
    if (entry.path().extension() == ".json") paths.push_back(entry.path().string());
  }
  if (ec) return absl::InternalError(absl::StrCat(dir.string(), ": ", ec.message()));
  for (const std::string& path : paths) {
    AOT_ASSIGN_OR_RETURN(auto text, ReadFileToString(path));
    nlohmann::json j = nlohmann::json::parse(text, nullptr, /*allow_exceptions=*/false);
    if (j.is_discarded()) {
      return absl::InvalidArgumentError(absl::StrCat(path, ": not valid JSON"));
    }
    AOT_ASSIGN_OR_RETURN(auto release, ReleaseFromJson(j, path));
    releases.push_back(std::move(release));
  }
  absl::c_sort(releases, ReleaseIsOlder);
  return releases;
}

ReleaseWindow ComputeReleaseWindow(const std::vector<ReleaseSnapshot>& releases, const Date& start,
                                   const Date& now) {
  ReleaseWindow w;
  w.start = start;
  const ReleaseSnapshot* newest_before = nullptr;
  for (const ReleaseSnapshot& r : releases) {
    auto date = Date::Parse(r.date);
    if (!date.ok() || *date > now) continue;
    if (*date >= start) {
      w.releases.push_back(r);
      continue;
    }
    if (newest_before != nullptr) w.older.push_back(newest_before->id);
    newest_before = &r;
  }
  if (newest_before != nullptr) w.releases.insert(w.releases.begin(), *newest_before);
  return w;
}

ReleaseWindow ComputeForwardWindow(const std::vector<ReleaseSnapshot>& releases, const Date& now) {
  return ComputeReleaseWindow(releases, now.MinusDays(kForwardWindowDays), now);
}

}  // namespace aot
