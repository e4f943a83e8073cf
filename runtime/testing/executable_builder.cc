#include "runtime/testing/executable_builder.h"

#include "gtest/gtest.h"
#include "runtime/executable/client.h"

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
  auto executable = (*client)->Load(proto);
  EXPECT_TRUE(executable.ok()) << executable.status();
  if (!executable.ok()) return nullptr;
  // Every thunk round-trips through ToProto unchanged.
  ExecutableProto again = (*executable)->ToProto();
  EXPECT_EQ(again.SerializeAsString(), proto.SerializeAsString());
  return *std::move(executable);
}

}  // namespace aot::testing
