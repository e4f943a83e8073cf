#include "runtime/ffi/ffi_registry.h"

#include "absl/strings/str_cat.h"

namespace aot {

FfiRegistry& FfiRegistry::Global() {
  static FfiRegistry* registry = [] {
    auto* r = new FfiRegistry();
    RegisterBuiltinFfiHandlers(*r);
    return r;
  }();
  return *registry;
}

absl::Status FfiRegistry::Register(absl::string_view name, FfiHandler handler) {
  absl::MutexLock lock(&mu_);
  if (handlers_.count(name) > 0 || aliases_.count(name) > 0) {
    return absl::AlreadyExistsError(absl::StrCat("FFI handler '", name, "' is already registered"));
  }
  handlers_.emplace(std::string(name), std::move(handler));
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
  auto it = handlers_.find(name);
  if (it != handlers_.end()) {
    resolved.handler = &it->second;
    resolved.canonical_name = it->first;
    return resolved;
  }
  auto alias = aliases_.find(name);
  if (alias != aliases_.end()) {
    auto target = handlers_.find(alias->second.target);
    if (target != handlers_.end()) {
      resolved.handler = &target->second;
      resolved.canonical_name = target->first;
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
