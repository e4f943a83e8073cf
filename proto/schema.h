#ifndef AOT_PROTO_SCHEMA_H_
#define AOT_PROTO_SCHEMA_H_

#include <string>
#include <vector>

#include "google/protobuf/descriptor.h"
#include "google/protobuf/descriptor.pb.h"

namespace aot {

// The .proto files of the project's schema that this binary was built with,
// and their imports, dependencies first (the order protoc --include_imports
// writes).
std::vector<const google::protobuf::FileDescriptor*> SchemaFiles();

// The schema as a standard FileDescriptorSet, equal to what
// `protoc --include_imports --descriptor_set_out` writes for proto/*.proto
// (json names included, source info omitted).
google::protobuf::FileDescriptorSet SchemaDescriptorSet();

// Stable identity of the schema: lower-case hex SHA-256 of the deterministic
// serialization of SchemaDescriptorSet(). Changes whenever any message,
// field, enum, option or annotation of the schema changes.
std::string SchemaFingerprint();

// The same, for an arbitrary descriptor set (used on snapshots and on sets
// built from edited .proto files).
std::string DescriptorSetFingerprint(const google::protobuf::FileDescriptorSet& set);

}  // namespace aot

#endif  // AOT_PROTO_SCHEMA_H_
