#include "proto/schema.h"

#include <functional>
#include <set>

#include "google/protobuf/io/coded_stream.h"
#include "google/protobuf/io/zero_copy_stream_impl_lite.h"
#include "proto/executable.pb.h"
#include "proto/golden_io.pb.h"
#include "proto/target.pb.h"
#include "support/proto_util.h"
#include "support/sha256.h"

namespace aot {

std::vector<const google::protobuf::FileDescriptor*> SchemaFiles() {
  std::vector<const google::protobuf::FileDescriptor*> order;
  std::set<const google::protobuf::FileDescriptor*> seen;
  std::function<void(const google::protobuf::FileDescriptor*)> visit =
      [&](const google::protobuf::FileDescriptor* file) {
        if (!seen.insert(file).second) return;
        for (int i = 0; i < file->dependency_count(); ++i) {
          visit(file->dependency(i));
        }
        order.push_back(file);
      };
  // The roots, in the order proto/CMakeLists.txt hands them to protoc.
  visit(CompatAnnotation::descriptor()->file());
  visit(HloModuleProto::descriptor()->file());
  visit(TargetConfigProto::descriptor()->file());
  visit(ExecutableProto::descriptor()->file());
  visit(GoldenIoProto::descriptor()->file());
  return order;
}

google::protobuf::FileDescriptorSet SchemaDescriptorSet() {
  google::protobuf::FileDescriptorSet set;
  for (const google::protobuf::FileDescriptor* file : SchemaFiles()) {
    google::protobuf::FileDescriptorProto* proto = set.add_file();
    file->CopyTo(proto);
    file->CopyJsonNameTo(proto);
  }
  return set;
}

std::string DescriptorSetFingerprint(const google::protobuf::FileDescriptorSet& set) {
  std::string bytes = SerializeDeterministic(set);
  return Sha256Hex(bytes);
}

std::string SchemaFingerprint() {
  static const std::string* fingerprint =
      new std::string(DescriptorSetFingerprint(SchemaDescriptorSet()));
  return *fingerprint;
}

}  // namespace aot
