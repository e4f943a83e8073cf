#include "harness/schema/reachability.h"

#include <deque>
#include <functional>
#include <map>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "support/status_macros.h"

namespace aot {
namespace {

using google::protobuf::Descriptor;
using google::protobuf::DescriptorPool;
using google::protobuf::FieldDescriptor;
using google::protobuf::FileDescriptorProto;

class CollectingErrors : public DescriptorPool::ErrorCollector {
 public:
  void AddError(const std::string& filename, const std::string& element_name,
                const google::protobuf::Message*, ErrorLocation,
                const std::string& message) override {
    errors.push_back(absl::StrCat(filename, ": ", element_name, ": ", message));
  }
  std::vector<std::string> errors;
};

}  // namespace

ReachableSet ComputeReachable(const Descriptor* root) {
  return ComputeReachable(*root->file()->pool(), {root->full_name()}, {});
}

ReachableSet ComputeReachable(const DescriptorPool& pool, const std::vector<std::string>& roots,
                              const std::vector<SchemaPolicy::BytesCarried>& carried) {
  ReachableSet out;
  std::multimap<std::string, const SchemaPolicy::BytesCarried*> carried_by_field;
  for (const auto& c : carried) carried_by_field.emplace(c.field, &c);
  // A message is visited again when it is first reached name-insensitively
  // (through bytes carried in binary) and later name-sensitively.
  std::deque<std::pair<const Descriptor*, bool>> queue;
  auto push = [&](const Descriptor* d, bool sensitive) {
    bool fresh = out.messages.insert(d->full_name()).second;
    bool upgraded = sensitive && out.name_sensitive.insert(d->full_name()).second;
    if (fresh || upgraded) queue.emplace_back(d, sensitive);
  };
  for (const std::string& name : roots) {
    const Descriptor* root = pool.FindMessageTypeByName(name);
    if (root == nullptr) {
      out.missing_roots.push_back(name);
      continue;
    }
    out.roots.push_back(name);
    push(root, /*sensitive=*/true);
  }
  while (!queue.empty()) {
    auto [d, sensitive] = queue.front();
    queue.pop_front();
    for (int i = 0; i < d->field_count(); ++i) {
      const FieldDescriptor* f = d->field(i);
      out.fields.insert(f->full_name());
      if (f->message_type() != nullptr) push(f->message_type(), sensitive);
      if (f->enum_type() != nullptr) {
        out.enums.insert(f->enum_type()->full_name());
        if (sensitive) out.name_sensitive.insert(f->enum_type()->full_name());
      }
      auto [begin, end] = carried_by_field.equal_range(f->full_name());
      for (auto it = begin; it != end; ++it) {
        const Descriptor* inner = pool.FindMessageTypeByName(it->second->message);
        if (inner != nullptr) push(inner, it->second->json);
      }
    }
    for (int i = 0; i < d->oneof_decl_count(); ++i) {
      out.oneofs.insert(d->oneof_decl(i)->full_name());
    }
  }
  return out;
}

absl::StatusOr<ReachableSet> ComputeReachable(const DescriptorPool& pool, absl::string_view root) {
  ReachableSet out = ComputeReachable(pool, {std::string(root)}, {});
  if (!out.missing_roots.empty()) {
    return absl::NotFoundError(absl::StrCat("the schema has no message '", root, "'"));
  }
  return out;
}

absl::StatusOr<std::unique_ptr<DescriptorPool>> BuildDescriptorPool(
    const google::protobuf::FileDescriptorSet& set, absl::string_view origin) {
  std::map<std::string, const FileDescriptorProto*> by_name;
  for (const FileDescriptorProto& file : set.file()) {
    if (!by_name.emplace(file.name(), &file).second) {
      return absl::InvalidArgumentError(
          absl::StrCat(origin, ": file '", file.name(), "' appears twice in the descriptor set"));
    }
  }
  auto pool = std::make_unique<DescriptorPool>();
  std::map<std::string, int> state;  // 1 = in progress, 2 = built
  CollectingErrors errors;
  std::function<absl::Status(const FileDescriptorProto&)> build =
      [&](const FileDescriptorProto& file) -> absl::Status {
    int& s = state[file.name()];
    if (s == 2) return absl::OkStatus();
    if (s == 1) {
      return absl::InvalidArgumentError(
          absl::StrCat(origin, ": import cycle through '", file.name(), "'"));
    }
    s = 1;
    for (const std::string& dep : file.dependency()) {
      auto it = by_name.find(dep);
      if (it == by_name.end()) {
        return absl::InvalidArgumentError(absl::StrCat(
            origin, ": '", file.name(), "' imports '", dep,
            "', which the descriptor set lacks (was it written with --include_imports?)"));
      }
      AOT_RETURN_IF_ERROR(build(*it->second));
    }
    if (pool->BuildFileCollectingErrors(file, &errors) == nullptr) {
      return absl::InvalidArgumentError(
          absl::StrCat(origin, ": invalid descriptor: ", absl::StrJoin(errors.errors, "; ")));
    }
    state[file.name()] = 2;
    return absl::OkStatus();
  };
  for (const FileDescriptorProto& file : set.file()) {
    AOT_RETURN_IF_ERROR(build(file));
  }
  return pool;
}

}  // namespace aot
