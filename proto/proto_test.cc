// Proto text/binary round trips of a populated ExecutableProto.
#include <string>

#include "google/protobuf/text_format.h"
#include "google/protobuf/util/message_differencer.h"
#include "gtest/gtest.h"
#include "proto/executable.pb.h"
#include "support/file_io.h"

namespace aot {
namespace {

using ::google::protobuf::TextFormat;
using ::google::protobuf::util::MessageDifferencer;

ExecutableProto LoadPopulated() {
  auto text = ReadFileToString("proto/testdata/populated_executable.txtpb");
  EXPECT_TRUE(text.ok()) << text.status();
  ExecutableProto proto;
  EXPECT_TRUE(TextFormat::ParseFromString(*text, &proto));
  return proto;
}

TEST(ExecutableProtoTest, PopulatedFixtureSetsEveryThunkKindAndTopLevelField) {
  ExecutableProto proto = LoadPopulated();
  // Every oneof case of ThunkProto.impl appears at least once.
  const auto* oneof = ThunkProto::descriptor()->FindOneofByName("impl");
  ASSERT_NE(oneof, nullptr);
  for (int i = 0; i < oneof->field_count(); ++i) {
    int number = oneof->field(i)->number();
    bool found = false;
    for (const ThunkProto& t : proto.thunks()) {
      if (static_cast<int>(t.impl_case()) == number) found = true;
    }
    EXPECT_TRUE(found) << "no thunk of kind " << oneof->field(i)->name();
  }
  // Every top-level field is set.
  const auto* reflection = proto.GetReflection();
  const auto* descriptor = ExecutableProto::descriptor();
  for (int i = 0; i < descriptor->field_count(); ++i) {
    const auto* field = descriptor->field(i);
    bool set = field->is_repeated() ? reflection->FieldSize(proto, field) > 0
                                    : reflection->HasField(proto, field);
    EXPECT_TRUE(set) << "ExecutableProto." << field->name() << " not set";
  }
}

TEST(ExecutableProtoTest, BinaryRoundTrip) {
  ExecutableProto proto = LoadPopulated();
  std::string bytes;
  ASSERT_TRUE(proto.SerializeToString(&bytes));
  ExecutableProto parsed;
  ASSERT_TRUE(parsed.ParseFromString(bytes));
  EXPECT_TRUE(MessageDifferencer::Equals(proto, parsed));
  std::string again;
  ASSERT_TRUE(parsed.SerializeToString(&again));
  EXPECT_EQ(bytes, again);
}

TEST(ExecutableProtoTest, TextRoundTrip) {
  ExecutableProto proto = LoadPopulated();
  std::string text;
  ASSERT_TRUE(TextFormat::PrintToString(proto, &text));
  ExecutableProto parsed;
  ASSERT_TRUE(TextFormat::ParseFromString(text, &parsed));
  EXPECT_TRUE(MessageDifferencer::Equals(proto, parsed));
  // Binary bytes survive text (the kernel binary and constants are bytes).
  EXPECT_EQ(parsed.binary(), proto.binary());
  EXPECT_EQ(parsed.thunks(0).kernel().binary().cubin(), std::string("\x7f"
                                                                    "ELF"));
}

TEST(ExecutableProtoTest, CommandBufferIsNotASerializableThunkKind) {
  // CONTRACT.md s. 3: the command-buffer thunk is built at load time and is
  // never serialized, so the schema must not offer a case for it.
  const auto* oneof = ThunkProto::descriptor()->FindOneofByName("impl");
  for (int i = 0; i < oneof->field_count(); ++i) {
    EXPECT_EQ(oneof->field(i)->name().find("command"), std::string::npos);
  }
}

}  // namespace
}  // namespace aot
