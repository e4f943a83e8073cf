// The schema's identity: the built-in descriptor set equals protoc's, its
// fingerprint is stable and sensitive, annotations are readable.
#include "proto/schema.h"

#include <string>

#include "google/protobuf/util/message_differencer.h"
#include "gtest/gtest.h"
#include "proto/compat_options.pb.h"
#include "proto/executable.pb.h"
#include "support/file_io.h"

namespace aot {
namespace {

using ::google::protobuf::FileDescriptorSet;
using ::google::protobuf::util::MessageDifferencer;

TEST(SchemaTest, BuiltInSetEqualsProtocDescriptorSet) {
  auto bytes = ReadFileToString(AOT_DESCRIPTOR_SET_PATH);
  ASSERT_TRUE(bytes.ok()) << bytes.status();
  FileDescriptorSet from_protoc;
  ASSERT_TRUE(from_protoc.ParseFromString(*bytes));
  FileDescriptorSet built_in = SchemaDescriptorSet();
  ASSERT_EQ(built_in.file_size(), from_protoc.file_size());
  for (int i = 0; i < built_in.file_size(); ++i) {
    std::string diff;
    MessageDifferencer differencer;
    differencer.ReportDifferencesToString(&diff);
    EXPECT_TRUE(differencer.Compare(from_protoc.file(i), built_in.file(i)))
        << built_in.file(i).name() << ":\n"
        << diff;
  }
  EXPECT_EQ(DescriptorSetFingerprint(from_protoc), SchemaFingerprint());
}

TEST(SchemaTest, DependenciesComeFirst) {
  auto files = SchemaFiles();
  ASSERT_FALSE(files.empty());
  EXPECT_EQ(files.front()->name(), "google/protobuf/descriptor.proto");
  EXPECT_EQ(files.back()->name(), "proto/golden_io.proto");
  for (size_t i = 0; i < files.size(); ++i) {
    for (int d = 0; d < files[i]->dependency_count(); ++d) {
      bool before = false;
      for (size_t j = 0; j < i; ++j) before |= files[j] == files[i]->dependency(d);
      EXPECT_TRUE(before) << files[i]->name() << " listed before its import "
                          << files[i]->dependency(d)->name();
    }
  }
}

TEST(SchemaTest, FingerprintIsStableHexAndSensitive) {
  std::string fp = SchemaFingerprint();
  EXPECT_EQ(fp.size(), 64u);
  EXPECT_EQ(fp.find_first_not_of("0123456789abcdef"), std::string::npos);
  EXPECT_EQ(fp, DescriptorSetFingerprint(SchemaDescriptorSet()));

  // Adding one field anywhere changes it.
  FileDescriptorSet edited = SchemaDescriptorSet();
  for (auto& file : *edited.mutable_file()) {
    if (file.name() != "proto/executable.proto") continue;
    for (auto& message : *file.mutable_message_type()) {
      if (message.name() != "CopyThunkProto") continue;
      auto* field = message.add_field();
      field->set_name("extra");
      field->set_number(99);
      field->set_type(google::protobuf::FieldDescriptorProto::TYPE_INT64);
      field->set_label(google::protobuf::FieldDescriptorProto::LABEL_OPTIONAL);
    }
  }
  EXPECT_NE(DescriptorSetFingerprint(edited), fp);
}

TEST(SchemaTest, CompatAnnotationsAreReadable) {
  const auto* info = ThunkInfoProto::descriptor();
  const auto* field = info->FindFieldByName("profile_annotation");
  ASSERT_NE(field, nullptr);
  const CompatAnnotation& compat = field->options().GetExtension(aot::compat);
  EXPECT_TRUE(compat.ignorable_by_older_runtimes());
  // A v1 field without annotation reads as "not ignorable".
  const auto* name = info->FindFieldByName("name");
  EXPECT_FALSE(name->options().GetExtension(aot::compat).ignorable_by_older_runtimes());
}

}  // namespace
}  // namespace aot
