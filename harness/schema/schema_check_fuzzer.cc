// libFuzzer target: schema-check on arbitrary descriptor sets. The input is
// a binary FileDescriptorSet checked both ways against the project's own
// schema (as the head of a history whose base is ours, and as the base of
// ours). Every input must give a report or a clean error.
#include <cstddef>
#include <cstdint>

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
  return 0;
}
