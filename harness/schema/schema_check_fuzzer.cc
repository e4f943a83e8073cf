// libFuzzer target: schema-check on arbitrary descriptor sets. The input is
// a binary FileDescriptorSet checked both ways against the project's own
// schema (as the head of a history whose base is ours, and as the base of
// ours), then walked as a foreign schema rooted at its first message, with
// the annotation rules on and its first bytes field carrying that message
// as JSON. Every input must give a report or a clean error.
#include <cstddef>
#include <cstdint>
#include <string>

#include "absl/strings/string_view.h"
#include "google/protobuf/descriptor.pb.h"
#include "harness/schema/schema_check.h"
#include "proto/schema.h"
#include "support/proto_util.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  static const google::protobuf::FileDescriptorSet* ours =
      new google::protobuf::FileDescriptorSet(aot::SchemaDescriptorSet());
  google::protobuf::FileDescriptorSet set;
  if (!aot::ParseBinaryProto(absl::string_view(reinterpret_cast<const char*>(data), size), &set)) {
    return 0;
  }
  (void)aot::CheckSchema({{"ours", *ours}}, {"fuzz", set});
  (void)aot::CheckSchema({{"fuzz", set}}, {"ours", *ours});
  for (const auto& file : set.file()) {
    if (file.message_type_size() == 0) continue;
    std::string prefix = file.package().empty() ? "" : file.package() + ".";
    aot::SchemaPolicy policy;
    policy.roots = {prefix + file.message_type(0).name()};
    policy.annotations = aot::SchemaPolicy::Annotations::kOn;
    for (const auto& field : file.message_type(0).field()) {
      if (field.type() == google::protobuf::FieldDescriptorProto::TYPE_BYTES) {
        policy.bytes_carried.push_back(
            {policy.roots[0] + "." + field.name(), policy.roots[0], /*json=*/true});
        break;
      }
    }
    (void)aot::CheckSchemaHistory({{"ours", *ours}, {"fuzz", set}, {"fuzz2", set}}, policy);
    break;
  }
  return 0;
}
