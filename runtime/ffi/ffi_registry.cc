#include "runtime/ffi/ffi_registry.h"

#include "absl/strings/str_cat.h"
#include "proto/target.pb.h"
#include "runtime/ffi/lapack_handlers.h"

namespace aot {

FfiRegistry& FfiRegistry::Global() {
  static FfiRegistry* registry = [] {
    auto* r = new FfiRegistry();
    RegisterBuiltinFfiHandlers(*r);
    RegisterLapackFfiHandlers(*r);
    return r;
  }();
  return *registry;
}

absl::Status FfiRegistry::Register(absl::string_view name, FfiHandler handler) {
  return RegisterForPlatform(name, PLATFORM_HOST, std::move(handler));
}

absl::Status FfiRegistry::RegisterForPlatform(absl::string_view name, PlatformKind platform,
                                              FfiHandler handler) {
  absl::MutexLock lock(&mu_);
  if (aliases_.count(name) > 0) {
    return absl::AlreadyExistsError(absl::StrCat("FFI name '", name, "' is already an alias"));
  }
  Entry& entry = handlers_[std::string(name)];
  if (platform == PLATFORM_HOST) {
    if (entry.host.has_value()) {
      return absl::AlreadyExistsError(
          absl::StrCat("FFI handler '", name, "' is already registered"));
    }
    entry.host = std::move(handler);
    return absl::OkStatus();
  }
  if (!entry.device.emplace(platform, std::move(handler)).second) {
    return absl::AlreadyExistsError(absl::StrCat(
        "FFI handler '", name, "' is already registered for ", PlatformKind_Name(platform)));
  }
  return absl::OkStatus();
}

absl::Status FfiRegistry::RegisterAlias(absl::string_view alias, absl::string_view target,
                                        absl::string_view expiry) {
  absl::MutexLock lock(&mu_);
  if (handlers_.count(alias) > 0 || aliases_.count(alias) > 0) {
    return absl::AlreadyExistsError(absl::StrCat("FFI name '", alias, "' is already registered"));
  }
  if (handlers_.count(target) == 0) {
    return absl::NotFoundError(
        absl::StrCat("alias '", alias, "' targets '", target, "', which is not registered"));
  }
  if (expiry.size() != 10 || expiry[4] != '-' || expiry[7] != '-') {
    return absl::InvalidArgumentError(
        absl::StrCat("alias '", alias, "': expiry '", expiry, "' is not YYYY-MM-DD"));
  }
  aliases_.emplace(std::string(alias),
                   AliasInfo{std::string(alias), std::string(target), std::string(expiry)});
  return absl::OkStatus();
}

absl::StatusOr<FfiRegistry::Resolved> FfiRegistry::Resolve(absl::string_view name) const {
  absl::MutexLock lock(&mu_);
  Resolved resolved;
  auto bind = [&](const std::string& canonical, const Entry& entry) {
    resolved.handler = entry.host.has_value() ? &*entry.host : nullptr;
    resolved.device_handlers = &entry.device;
    resolved.canonical_name = canonical;
  };
  auto it = handlers_.find(name);
  if (it != handlers_.end()) {
    bind(it->first, it->second);
    return resolved;
  }
  auto alias = aliases_.find(name);
  if (alias != aliases_.end()) {
    auto target = handlers_.find(alias->second.target);
    if (target != handlers_.end()) {
      bind(target->first, target->second);
      resolved.alias = alias->first;
      resolved.alias_expiry = alias->second.expiry;
      return resolved;
    }
  }
  return absl::NotFoundError(
      absl::StrCat("no custom-call/FFI handler registered for target '", name, "'"));
}

std::vector<std::string> FfiRegistry::HandlerNames() const {
  absl::MutexLock lock(&mu_);
  std::vector<std::string> names;
  for (const auto& [name, handler] : handlers_) names.push_back(name);
  return names;
}

std::vector<FfiRegistry::AliasInfo> FfiRegistry::Aliases() const {
  absl::MutexLock lock(&mu_);
  std::vector<AliasInfo> out;
  for (const auto& [name, info] : aliases_) out.push_back(info);
  return out;
}

}  // namespace aot
