// Each thunk kind executed on the host platform, and its FromProto ->
// ToProto round trip.
#include <cstring>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "runtime/executable/client.h"
#include "runtime/ffi/ffi_registry.h"
#include "runtime/shape_util.h"
#include "runtime/tests/test_kernels.h"

namespace aot {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;

// A small builder for executables in tests.
class Builder {
 public:
  int Allocation(int64_t size, BufferAllocationProto::Kind kind, int parameter = -1) {
    BufferAllocationProto* a = proto_.add_buffer_allocations();
    int index = proto_.buffer_allocations_size() - 1;
    a->set_index(index);
    a->set_size(size);
    a->set_kind(kind);
    if (parameter >= 0) a->set_parameter_number(parameter);
    return index;
  }
  int Parameter(const ShapeProto& shape) {
    int number = proto_.parameters_size();
    int64_t bytes = runtime_shape::ByteSize(shape);
    int alloc = Allocation(bytes, BufferAllocationProto::PARAMETER, number);
    EntryParameterProto* p = proto_.add_parameters();
    p->set_parameter_number(number);
    *p->mutable_shape() = shape;
    *p->mutable_slice() = Slice(alloc, 0, bytes);
    return alloc;
  }
  void Result(const std::vector<std::pair<ShapeProto, BufferSliceProto>>& leaves) {
    EntryResultProto* r = proto_.mutable_result();
    if (leaves.size() == 1) {
      *r->mutable_shape() = leaves[0].first;
    } else {
      r->mutable_shape()->set_element_type(TUPLE);
      for (const auto& [shape, slice] : leaves) *r->mutable_shape()->add_tuple_shapes() = shape;
    }
    for (const auto& [shape, slice] : leaves) {
      OutputLeafProto* leaf = r->add_leaves();
      *leaf->mutable_shape() = shape;
      *leaf->mutable_slice() = slice;
    }
  }
  ThunkProto* Thunk(absl::string_view name) {
    ThunkProto* t = proto_.add_thunks();
    t->mutable_info()->set_name(std::string(name));
    return t;
  }
  static BufferSliceProto Slice(int64_t alloc, int64_t offset, int64_t size) {
    BufferSliceProto s;
    s.set_allocation_index(alloc);
    s.set_offset(offset);
    s.set_size(size);
    return s;
  }
  ExecutableProto Build() {
    proto_.mutable_capability()->mutable_host()->set_isa_level(X86_64_V2);
    proto_.mutable_abi_version()->set_runtime_abi_version(1);
    return proto_;
  }

 private:
  ExecutableProto proto_;
};

ShapeProto Shape(PrimitiveType type, std::vector<int64_t> dims) {
  ShapeProto s;
  s.set_element_type(type);
  for (int64_t d : dims) s.add_dimensions(d);
  return s;
}

template <typename T>
absl::Span<const uint8_t> Bytes(const std::vector<T>& v) {
  return {reinterpret_cast<const uint8_t*>(v.data()), v.size() * sizeof(T)};
}

template <typename T>
std::vector<T> As(const std::vector<uint8_t>& bytes) {
  std::vector<T> out(bytes.size() / sizeof(T));
  std::memcpy(out.data(), bytes.data(), bytes.size());
  return out;
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

TEST(ThunksTest, GemmWithTransposedRhs) {
  Builder b;
  int lhs = b.Parameter(Shape(F32, {2, 3}));
  int rhs = b.Parameter(Shape(F32, {4, 3}));  // used transposed: [3,4]
  int out = b.Allocation(2 * 4 * 4, BufferAllocationProto::OUTPUT);
  GemmThunkProto* g = b.Thunk("dot")->mutable_gemm();
  *g->mutable_lhs() = Builder::Slice(lhs, 0, 24);
  *g->mutable_rhs() = Builder::Slice(rhs, 0, 48);
  *g->mutable_output() = Builder::Slice(out, 0, 32);
  g->set_element_type(F32);
  g->set_batch_size(1);
  g->set_m(2);
  g->set_n(4);
  g->set_k(3);
  g->set_transpose_rhs(true);
  g->set_alpha(1);
  b.Result({{Shape(F32, {2, 4}), Builder::Slice(out, 0, 32)}});
  auto executable = Load(b.Build());
  ASSERT_NE(executable, nullptr);
  std::vector<float> a = {1, 2, 3, 4, 5, 6};
  std::vector<float> r = {1, 0, 0, 0, 1, 0, 0, 0, 1, 1, 1, 1};
  auto results = executable->Execute({Bytes(a), Bytes(r)});
  ASSERT_TRUE(results.ok()) << results.status();
  EXPECT_THAT(As<float>((*results)[0]), ElementsAre(1, 2, 3, 6, 4, 5, 6, 15));
}

TEST(ThunksTest, GemmRejectsUndersizedSlices) {
  Builder b;
  int lhs = b.Parameter(Shape(F32, {2, 3}));
  int out = b.Allocation(32, BufferAllocationProto::OUTPUT);
  GemmThunkProto* g = b.Thunk("dot")->mutable_gemm();
  *g->mutable_lhs() = Builder::Slice(lhs, 0, 24);
  *g->mutable_rhs() = Builder::Slice(lhs, 0, 24);
  *g->mutable_output() = Builder::Slice(out, 0, 32);
  g->set_element_type(F32);
  g->set_batch_size(1);
  g->set_m(2);
  g->set_n(4);
  g->set_k(3);
  b.Result({{Shape(F32, {2, 4}), Builder::Slice(out, 0, 32)}});
  auto client = *Client::Create("host");
  auto executable = client->Load(b.Build());
  ASSERT_FALSE(executable.ok());
  EXPECT_THAT(std::string(executable.status().message()),
              HasSubstr("thunks[0].gemm.rhs: slice of 24 bytes is smaller than the 48 bytes"));
}

TEST(ThunksTest, CopyMemsetAndConditional) {
  Builder b;
  int index = b.Parameter(Shape(S32, {}));
  int x = b.Parameter(Shape(S32, {4}));
  int out = b.Allocation(16, BufferAllocationProto::OUTPUT);
  // branch 0: copy x; branch 1: fill with 7; out of range -> last (branch 1).
  ConditionalThunkProto* c = b.Thunk("cond")->mutable_conditional();
  *c->mutable_branch_index() = Builder::Slice(index, 0, 4);
  ThunkProto* copy = c->add_branches()->add_thunks();
  copy->mutable_info()->set_name("copy");
  *copy->mutable_copy()->mutable_source() = Builder::Slice(x, 0, 16);
  *copy->mutable_copy()->mutable_destination() = Builder::Slice(out, 0, 16);
  ThunkProto* fill = c->add_branches()->add_thunks();
  fill->mutable_info()->set_name("fill");
  *fill->mutable_memset()->mutable_destination() = Builder::Slice(out, 0, 16);
  fill->mutable_memset()->set_pattern(7);
  b.Result({{Shape(S32, {4}), Builder::Slice(out, 0, 16)}});
  auto executable = Load(b.Build());
  ASSERT_NE(executable, nullptr);
  std::vector<int32_t> values = {10, 20, 30, 40};
  for (int32_t i : {0, 1, 5, -1}) {
    std::vector<int32_t> selector = {i};
    auto results = executable->Execute({Bytes(selector), Bytes(values)});
    ASSERT_TRUE(results.ok()) << results.status();
    if (i == 0) {
      EXPECT_THAT(As<int32_t>((*results)[0]), ElementsAre(10, 20, 30, 40));
    } else {
      EXPECT_THAT(As<int32_t>((*results)[0]), ElementsAre(7, 7, 7, 7)) << i;
    }
  }
}

constexpr char kCountdownIr[] = R"(
@countdown__aot_arity = constant i64 2
define void @countdown(ptr %frame) {
  %args = load ptr, ptr %frame
  %counter = load ptr, ptr %args
  %pp = getelementptr ptr, ptr %args, i64 1
  %pred = load ptr, ptr %pp
  %c = load i32, ptr %counter
  %d = sub i32 %c, 1
  store i32 %d, ptr %counter
  %ge = icmp sge i32 %d, 0
  %b = zext i1 %ge to i8
  store i8 %b, ptr %pred
  ret void
}
)";

ThunkProto KernelThunk(absl::string_view name, const std::string& object,
                       std::vector<BufferSliceProto> args, int64_t blocks, int64_t threads,
                       std::vector<bool> written) {
  ThunkProto t;
  t.mutable_info()->set_name(std::string(name));
  KernelThunkProto* k = t.mutable_kernel();
  k->set_kernel_name(std::string(name));
  auto* d = k->mutable_launch_dimensions();
  d->set_block_count_x(blocks);
  d->set_block_count_y(1);
  d->set_block_count_z(1);
  d->set_threads_per_block_x(threads);
  d->set_threads_per_block_y(1);
  d->set_threads_per_block_z(1);
  for (size_t i = 0; i < args.size(); ++i) {
    *k->add_arguments() = args[i];
    k->add_written(written[i]);
  }
  k->mutable_binary()->set_format(KernelBinaryProto::HOST_ELF_OBJECT);
  k->mutable_binary()->set_object(object);
  return t;
}

TEST(ThunksTest, WhileLoopRunsTheBodyCounterTimes) {
  auto countdown = testing::CompileIrToObject(kCountdownIr);
  ASSERT_TRUE(countdown.ok()) << countdown.status();
  auto add = testing::CompileIrToObject(testing::BinaryF32KernelIr("acc", "fadd"));
  ASSERT_TRUE(add.ok()) << add.status();
  Builder b;
  int n = b.Parameter(Shape(S32, {}));
  int x = b.Parameter(Shape(F32, {64}));
  int state = b.Allocation(8, BufferAllocationProto::TEMP);  // counter @0, pred @4
  int out = b.Allocation(256, BufferAllocationProto::OUTPUT);
  *b.Thunk("zero")->mutable_memset()->mutable_destination() = Builder::Slice(out, 0, 256);
  ThunkProto* init = b.Thunk("init");
  *init->mutable_copy()->mutable_source() = Builder::Slice(n, 0, 4);
  *init->mutable_copy()->mutable_destination() = Builder::Slice(state, 0, 4);
  ThunkProto* loop = b.Thunk("loop");
  WhileThunkProto* w = loop->mutable_while_loop();
  *w->mutable_predicate() = Builder::Slice(state, 4, 1);
  *w->mutable_condition()->add_thunks() =
      KernelThunk("countdown", *countdown,
                  {Builder::Slice(state, 0, 4), Builder::Slice(state, 4, 1)}, 1, 1,
                  {true, true});
  *w->mutable_body()->add_thunks() =
      KernelThunk("acc", *add,
                  {Builder::Slice(out, 0, 256), Builder::Slice(x, 0, 256),
                   Builder::Slice(out, 0, 256)},
                  4, 16, {false, false, true});
  b.Result({{Shape(F32, {64}), Builder::Slice(out, 0, 256)}});
  auto executable = Load(b.Build());
  ASSERT_NE(executable, nullptr);
  std::vector<float> xs(64);
  for (int i = 0; i < 64; ++i) xs[i] = static_cast<float>(i);
  for (int32_t count : {0, 1, 3}) {
    std::vector<int32_t> counter = {count};
    auto results = executable->Execute({Bytes(counter), Bytes(xs)});
    ASSERT_TRUE(results.ok()) << results.status();
    std::vector<float> got = As<float>((*results)[0]);
    for (int i = 0; i < 64; ++i) ASSERT_EQ(got[i], count * xs[i]) << count << " " << i;
  }
}

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

TEST(ShapeUtilTest, RelayoutRoundTrips) {
  ShapeProto s = Shape(S32, {2, 3});
  s.mutable_layout()->add_minor_to_major(0);
  s.mutable_layout()->add_minor_to_major(1);
  std::vector<int32_t> logical = {1, 2, 3, 4, 5, 6}, physical(6), back(6);
  runtime_shape::LogicalToPhysical(s, reinterpret_cast<uint8_t*>(logical.data()),
                                   reinterpret_cast<uint8_t*>(physical.data()));
  EXPECT_THAT(physical, ElementsAre(1, 4, 2, 5, 3, 6));
  runtime_shape::PhysicalToLogical(s, reinterpret_cast<uint8_t*>(physical.data()),
                                   reinterpret_cast<uint8_t*>(back.data()));
  EXPECT_EQ(back, logical);
  EXPECT_EQ(runtime_shape::ToString(s), "s32[2,3]{0,1}");
}

}  // namespace
}  // namespace aot
