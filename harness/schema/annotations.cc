#include "harness/schema/annotations.h"

namespace aot {
namespace {

// Options of a dynamically built pool carry the extension as unknown
// fields; a round trip through the generated options type resolves it.
template <typename Options, typename Ext>
Annotation ReadAnnotation(const Options& options, const Ext& ext) {
  Options copy;
  Annotation out;
  if (!copy.ParseFromString(options.SerializeAsString())) return out;
  if (!copy.HasExtension(ext)) return out;
  out.present = true;
  out.value = copy.GetExtension(ext);
  return out;
}

}  // namespace

Annotation FieldAnnotation(const google::protobuf::FieldDescriptor* field) {
  return ReadAnnotation(field->options(), compat);
}

Annotation ValueAnnotation(const google::protobuf::EnumValueDescriptor* value) {
  return ReadAnnotation(value->options(), compat_value);
}

}  // namespace aot
