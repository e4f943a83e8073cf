#include "runtime/testing/executable_builder.h"

#include "gtest/gtest.h"
#include "runtime/executable/client.h"
#include "support/testing/status_testing.h"

namespace aot::testing {

ShapeProto Shape(PrimitiveType type, std::vector<int64_t> dims) {
  ShapeProto s;
  s.set_element_type(type);
  for (int64_t d : dims) s.add_dimensions(d);
  return s;
}

std::unique_ptr<Executable> Load(const ExecutableProto& proto) {
  auto client = Client::Create("host");
  EXPECT_TRUE(client.ok());
  std::unique_ptr<Executable> executable = ValueOrFailure((*client)->Load(proto));
  if (executable == nullptr) return nullptr;  // failed already
  // Every thunk round-trips through ToProto unchanged.
  ExecutableProto again = executable->ToProto();
  EXPECT_EQ(again.SerializeAsString(), proto.SerializeAsString());
  return executable;
}

}  // namespace aot::testing
