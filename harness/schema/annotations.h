#ifndef AOT_HARNESS_SCHEMA_ANNOTATIONS_H_
#define AOT_HARNESS_SCHEMA_ANNOTATIONS_H_

#include "google/protobuf/descriptor.h"
#include "proto/compat_options.pb.h"

namespace aot {

// The (aot.compat) annotation of a schema element, read through the
// generated extension whatever pool the descriptor came from (a snapshot,
// an edited schema, the built-in one).
struct Annotation {
  bool present = false;
  CompatAnnotation value;
};

Annotation FieldAnnotation(const google::protobuf::FieldDescriptor* field);
Annotation ValueAnnotation(const google::protobuf::EnumValueDescriptor* value);

}  // namespace aot

#endif  // AOT_HARNESS_SCHEMA_ANNOTATIONS_H_
