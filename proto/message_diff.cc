#include "proto/message_diff.h"

#include "google/protobuf/descriptor.h"
#include "google/protobuf/util/field_comparator.h"
#include "google/protobuf/util/message_differencer.h"

namespace aot {

std::string DiffMessages(const google::protobuf::Message& expected,
                         const google::protobuf::Message& actual,
                         absl::Span<const std::string> ignored) {
  google::protobuf::util::MessageDifferencer differencer;
  google::protobuf::util::DefaultFieldComparator floats;
  floats.set_treat_nan_as_equal(true);
  differencer.set_field_comparator(&floats);
  const google::protobuf::DescriptorPool* pool = expected.GetDescriptor()->file()->pool();
  for (const std::string& name : ignored) {
    if (const google::protobuf::FieldDescriptor* f = pool->FindFieldByName(name)) {
      differencer.IgnoreField(f);
    }
  }
  std::string diff;
  differencer.ReportDifferencesToString(&diff);
  if (differencer.Compare(expected, actual)) return "";  // the report lists ignored fields too
  return diff.empty() ? "(differ)" : diff;
}

}  // namespace aot
