#include "support/proto_util.h"

#include <string>

#include "gmock/gmock.h"
#include "google/protobuf/descriptor.pb.h"
#include "gtest/gtest.h"

namespace aot {
namespace {

using ::testing::HasSubstr;
using ::testing::StartsWith;

TEST(ProtoUtilTest, TextErrorsNameLineAndColumn) {
  google::protobuf::FileDescriptorProto file;
  ASSERT_TRUE(ParseTextProto("name: \"a.proto\"\npackage: \"p\"\n", &file).ok());
  EXPECT_EQ(file.package(), "p");
  absl::Status bad = ParseTextProto("name: \"a.proto\"\n  nonsense: 1\n", &file);
  ASSERT_FALSE(bad.ok());
  EXPECT_EQ(bad.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(std::string(bad.message()), StartsWith("2:"));
  EXPECT_THAT(std::string(bad.message()), HasSubstr("nonsense"));
}

TEST(ProtoUtilTest, BinaryRoundTripAndTruncation) {
  google::protobuf::FileDescriptorProto file;
  file.set_name("a.proto");
  file.add_message_type()->set_name("M");
  std::string bytes = SerializeDeterministic(file);
  google::protobuf::FileDescriptorProto back;
  ASSERT_TRUE(ParseBinaryProto(bytes, &back));
  EXPECT_EQ(back.message_type(0).name(), "M");
  EXPECT_FALSE(ParseBinaryProto(bytes.substr(0, bytes.size() - 1), &back));
}

TEST(ProtoUtilTest, RecursionLimitBoundsNesting) {
  // Messages nested 10 deep parse with a limit of 64, not with one of 4.
  google::protobuf::DescriptorProto outer;
  google::protobuf::DescriptorProto* m = &outer;
  for (int i = 0; i < 10; ++i) m = m->add_nested_type();
  m->set_name("deep");
  std::string bytes = SerializeDeterministic(outer);
  google::protobuf::DescriptorProto back;
  EXPECT_TRUE(ParseBinaryProto(bytes, &back));
  EXPECT_FALSE(ParseBinaryProto(bytes, &back, /*recursion_limit=*/4));
}

TEST(ProtoUtilTest, DeterministicSerializationIsStable) {
  google::protobuf::FileDescriptorProto file;
  file.set_name("x.proto");
  for (int i = 0; i < 20; ++i) file.add_dependency("dep" + std::to_string(i));
  EXPECT_EQ(SerializeDeterministic(file), SerializeDeterministic(file));
  EXPECT_EQ(SerializeDeterministic(file), file.SerializeAsString());
}

}  // namespace
}  // namespace aot
