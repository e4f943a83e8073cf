// The custom-call thunk (an FFI handler, resolved by name or alias)
// executed on the host platform, and its FromProto -> ToProto round trip.
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "runtime/executable/client.h"
#include "runtime/executable/executable.h"
#include "runtime/ffi/ffi_registry.h"
#include "runtime/testing/executable_builder.h"

namespace aot {
namespace {

using ::aot::testing::As;
using ::aot::testing::Builder;
using ::aot::testing::Bytes;
using ::aot::testing::Load;
using ::aot::testing::Shape;
using ::testing::ElementsAre;

TEST(ThunksTest, CustomCallTopKAndAliases) {
  Builder b;
  int x = b.Parameter(Shape(F32, {2, 5}));
  int values = b.Allocation(2 * 2 * 4, BufferAllocationProto::OUTPUT);
  int indices = b.Allocation(2 * 2 * 4, BufferAllocationProto::OUTPUT);
  CustomCallThunkProto* c = b.Thunk("topk")->mutable_custom_call();
  c->set_target_name("aot.topk");
  c->set_api_version(CustomCallThunkProto::API_VERSION_TYPED_FFI);
  auto* op = c->add_operands();
  *op->mutable_shape() = Shape(F32, {2, 5});
  *op->mutable_slice() = Builder::Slice(x, 0, 40);
  auto* r0 = c->add_results();
  *r0->mutable_shape() = Shape(F32, {2, 2});
  *r0->mutable_slice() = Builder::Slice(values, 0, 16);
  auto* r1 = c->add_results();
  *r1->mutable_shape() = Shape(S32, {2, 2});
  *r1->mutable_slice() = Builder::Slice(indices, 0, 16);
  auto* k = c->add_attributes();
  k->set_name("k");
  k->set_i64(2);
  b.Result({{Shape(F32, {2, 2}), Builder::Slice(values, 0, 16)},
            {Shape(S32, {2, 2}), Builder::Slice(indices, 0, 16)}});
  auto executable = Load(b.Build());
  ASSERT_NE(executable, nullptr);
  std::vector<float> input = {3, 1, 4, 1, 5, -1, 9, 9, 2, 6};
  auto results = executable->Execute({Bytes(input)});
  ASSERT_TRUE(results.ok()) << results.status();
  EXPECT_THAT(As<float>((*results)[0]), ElementsAre(5, 4, 9, 9));
  EXPECT_THAT(As<int32_t>((*results)[1]), ElementsAre(4, 2, 1, 2));

  auto alias = FfiRegistry::Global().Resolve("aot.gelu_tanh");
  ASSERT_TRUE(alias.ok());
  EXPECT_EQ(alias->canonical_name, "aot.gelu");
  EXPECT_EQ(alias->alias_expiry, "2027-06-01");
  EXPECT_FALSE(FfiRegistry::Global().Resolve("aot.nope").ok());
}

// A handler registered only for a device platform does not serve the
// host: the load fails naming the target and the platform. Registering a
// second handler for the same platform is refused.
TEST(ThunksTest, DeviceOnlyFfiHandlerIsRefusedOnTheHost) {
  FfiRegistry registry;
  FfiHandler noop = [](const FfiCallFrame&) { return absl::OkStatus(); };
  ASSERT_TRUE(registry.RegisterForPlatform("test.device_only", PLATFORM_CUDA, noop).ok());
  EXPECT_EQ(registry.RegisterForPlatform("test.device_only", PLATFORM_CUDA, noop).code(),
            absl::StatusCode::kAlreadyExists);
  // A host handler beside it is fine, once.
  ASSERT_TRUE(registry.RegisterForPlatform("test.both", PLATFORM_CUDA, noop).ok());
  ASSERT_TRUE(registry.Register("test.both", noop).ok());
  EXPECT_EQ(registry.Register("test.both", noop).code(), absl::StatusCode::kAlreadyExists);
  auto resolved = registry.Resolve("test.device_only");
  ASSERT_TRUE(resolved.ok());
  EXPECT_EQ(resolved->handler, nullptr);
  ASSERT_NE(resolved->device_handlers, nullptr);
  EXPECT_EQ(resolved->device_handlers->count(PLATFORM_CUDA), 1u);

  for (const char* target : {"test.device_only", "test.both"}) {
    SCOPED_TRACE(target);
    Builder b;
    int x = b.Parameter(Shape(F32, {4}));
    int out = b.Allocation(16, BufferAllocationProto::OUTPUT);
    CustomCallThunkProto* c = b.Thunk("call")->mutable_custom_call();
    c->set_target_name(target);
    c->set_api_version(CustomCallThunkProto::API_VERSION_TYPED_FFI);
    auto* op = c->add_operands();
    *op->mutable_shape() = Shape(F32, {4});
    *op->mutable_slice() = Builder::Slice(x, 0, 16);
    auto* r = c->add_results();
    *r->mutable_shape() = Shape(F32, {4});
    *r->mutable_slice() = Builder::Slice(out, 0, 16);
    b.Result({{Shape(F32, {4}), Builder::Slice(out, 0, 16)}});
    auto platform = CreatePlatform("host", {});
    ASSERT_TRUE(platform.ok()) << platform.status();
    auto loaded =
        Executable::Load(b.Build(), std::shared_ptr<Platform>(*std::move(platform)), &registry, {});
    if (std::string(target) == "test.both") {
      EXPECT_TRUE(loaded.ok()) << loaded.status();
      continue;
    }
    ASSERT_FALSE(loaded.ok());
    EXPECT_THAT(std::string(loaded.status().message()),
                ::testing::HasSubstr("thunks[0].custom_call.target_name: FFI handler "
                                     "'test.device_only' has no handler for platform "
                                     "PLATFORM_HOST (and no host handler)"));
  }
}

}  // namespace
}  // namespace aot
