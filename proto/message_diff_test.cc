#include "proto/message_diff.h"

#include <limits>
#include <string>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "proto/executable.pb.h"

namespace aot {
namespace {

using ::testing::HasSubstr;

// A NaN constant equals itself (MessageDifferencer's exact comparison alone
// made such an artifact differ from its own round trip); other floats still
// compare exactly, and ignored fields are skipped.
TEST(DiffMessagesTest, NanEqualsNanOtherFloatsCompareExactly) {
  ExecutableProto golden;
  HloInstructionProto* c =
      golden.mutable_hlo_module()->mutable_hlo_module()->add_computations()->add_instructions();
  c->mutable_literal()->add_f32s(std::numeric_limits<float>::quiet_NaN());
  c->mutable_literal()->add_f32s(1.5f);
  EXPECT_EQ(DiffMessages(golden, golden), "");
  ExecutableProto changed = golden;
  HloInstructionProto* d = changed.mutable_hlo_module()
                               ->mutable_hlo_module()
                               ->mutable_computations(0)
                               ->mutable_instructions(0);
  d->mutable_literal()->set_f32s(1, 1.5000001f);
  EXPECT_THAT(DiffMessages(golden, changed), HasSubstr("f32s[1]"));
  changed = golden;
  changed.set_name("other");
  EXPECT_THAT(DiffMessages(golden, changed), HasSubstr("name"));
  EXPECT_EQ(DiffMessages(golden, changed, {std::string("aot.ExecutableProto.name")}), "");
}

}  // namespace
}  // namespace aot
