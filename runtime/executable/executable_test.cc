// Loading, validating and executing hand-built executables on the host
// platform, without the project's compiler.
#include "runtime/executable/executable.h"

#include <cstring>
#include <random>
#include <thread>
#include <tuple>

#include "absl/strings/str_cat.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "runtime/executable/client.h"
#include "runtime/kernel_payload.h"
#include "runtime/platform/host/cpu_features.h"
#include "runtime/platform/host/host_kernel_loader.h"
#include "runtime/platform/host/host_platform.h"
#include "runtime/shape_util.h"
#include "runtime/testing/test_kernels.h"
#include "support/file_io.h"
#include "support/status_macros.h"

namespace aot {
namespace {

using ::testing::HasSubstr;

constexpr int64_t kN = 1024;
constexpr int64_t kBytes = kN * 4;

std::string KernelObject(absl::string_view name, absl::string_view op) {
  auto object = testing::CompileIrToObject(testing::BinaryF32KernelIr(name, op));
  EXPECT_TRUE(object.ok()) << object.status();
  return object.ok() ? *object : "";
}

ShapeProto F32Vector(int64_t n) {
  ShapeProto s;
  s.set_element_type(F32);
  s.add_dimensions(n);
  return s;
}

BufferSliceProto Slice(int64_t allocation, int64_t offset, int64_t size) {
  BufferSliceProto s;
  s.set_allocation_index(allocation);
  s.set_offset(offset);
  s.set_size(size);
  return s;
}

ThunkProto KernelThunkProtoFor(absl::string_view name, const std::string& object,
                               std::vector<BufferSliceProto> args) {
  ThunkProto t;
  t.mutable_info()->set_name(std::string(name));
  KernelThunkProto* k = t.mutable_kernel();
  k->set_kernel_name(std::string(name));
  auto* d = k->mutable_launch_dimensions();
  d->set_block_count_x(8);
  d->set_block_count_y(1);
  d->set_block_count_z(1);
  d->set_threads_per_block_x(kN / 8);
  d->set_threads_per_block_y(1);
  d->set_threads_per_block_z(1);
  for (size_t i = 0; i < args.size(); ++i) {
    *k->add_arguments() = args[i];
    k->add_written(i + 1 == args.size());
  }
  k->mutable_binary()->set_format(KernelBinaryProto::HOST_ELF_OBJECT);
  k->mutable_binary()->set_object(object);
  return t;
}

// out = (a + b) * a: parameters a (alloc 0), b (alloc 1); temp t (alloc 2);
// output (alloc 3).
ExecutableProto MakeExecutable() {
  ExecutableProto e;
  e.set_name("add_mul");
  for (int i = 0; i < 4; ++i) {
    BufferAllocationProto* a = e.add_buffer_allocations();
    a->set_index(i);
    a->set_size(kBytes);
    a->set_kind(i < 2    ? BufferAllocationProto::PARAMETER
                : i == 2 ? BufferAllocationProto::TEMP
                         : BufferAllocationProto::OUTPUT);
    if (i < 2) a->set_parameter_number(i);
  }
  for (int i = 0; i < 2; ++i) {
    EntryParameterProto* p = e.add_parameters();
    p->set_parameter_number(i);
    *p->mutable_shape() = F32Vector(kN);
    *p->mutable_slice() = Slice(i, 0, kBytes);
  }
  *e.mutable_result()->mutable_shape() = F32Vector(kN);
  OutputLeafProto* leaf = e.mutable_result()->add_leaves();
  *leaf->mutable_shape() = F32Vector(kN);
  *leaf->mutable_slice() = Slice(3, 0, kBytes);
  *e.add_thunks() =
      KernelThunkProtoFor("add_k", KernelObject("add_k", "fadd"),
                          {Slice(0, 0, kBytes), Slice(1, 0, kBytes), Slice(2, 0, kBytes)});
  *e.add_thunks() =
      KernelThunkProtoFor("mul_k", KernelObject("mul_k", "fmul"),
                          {Slice(2, 0, kBytes), Slice(0, 0, kBytes), Slice(3, 0, kBytes)});
  e.mutable_capability()->mutable_host()->set_isa_level(X86_64_V2);
  e.mutable_abi_version()->set_runtime_abi_version(1);
  e.mutable_abi_version()->mutable_llvm()->mutable_minimum()->set_major(19);
  HloModuleProto* m = e.mutable_hlo_module()->mutable_hlo_module();
  m->set_name("add_mul");
  HloComputationProto* c = m->add_computations();
  c->set_name("main");
  for (const char* op : {"parameter", "parameter", "add", "multiply"}) {
    c->add_instructions()->set_opcode(op);
  }
  return e;
}

std::vector<float> Iota(float start) {
  std::vector<float> v(kN);
  for (int64_t i = 0; i < kN; ++i) v[i] = start + static_cast<float>(i) * 0.5f;
  return v;
}

absl::Span<const uint8_t> Bytes(const std::vector<float>& v) {
  return absl::Span<const uint8_t>(reinterpret_cast<const uint8_t*>(v.data()),
                                   v.size() * sizeof(float));
}

void ExpectAddMul(const std::vector<std::vector<uint8_t>>& results, const std::vector<float>& a,
                  const std::vector<float>& b) {
  ASSERT_EQ(results.size(), 1u);
  ASSERT_EQ(results[0].size(), static_cast<size_t>(kBytes));
  const float* out = reinterpret_cast<const float*>(results[0].data());
  for (int64_t i = 0; i < kN; ++i) ASSERT_EQ(out[i], (a[i] + b[i]) * a[i]) << i;
}

std::unique_ptr<Client> HostClient(LoadOptions options = {}) {
  auto client = Client::Create("host", std::move(options));
  EXPECT_TRUE(client.ok()) << client.status();
  return *std::move(client);
}

std::string Serialize(const ExecutableProto& proto) {
  std::string bytes;
  proto.SerializeToString(&bytes);
  return bytes;
}

TEST(ExecutableTest, LoadsAndExecutes) {
  auto client = HostClient();
  auto executable = client->DeserializeExecutable(Serialize(MakeExecutable()));
  ASSERT_TRUE(executable.ok()) << executable.status();
  std::vector<float> a = Iota(1), b = Iota(-3);
  auto results = (*executable)->Execute({Bytes(a), Bytes(b)});
  ASSERT_TRUE(results.ok()) << results.status();
  ExpectAddMul(*results, a, b);
}

// result = copy of parameter 0, an array of `type` with dims {3, 5} in
// the column-major layout {0, 1} (`element_size_in_bits` packs it): only the
// bytes per element matter.
ExecutableProto MakeCopyExecutable(PrimitiveType type, int64_t element_size_in_bits = 0) {
  ExecutableProto e;
  e.set_name("copy");
  ShapeProto shape;
  shape.set_element_type(type);
  shape.add_dimensions(3);
  shape.add_dimensions(5);
  shape.mutable_layout()->add_minor_to_major(0);
  shape.mutable_layout()->add_minor_to_major(1);
  shape.mutable_layout()->set_element_size_in_bits(element_size_in_bits);
  const int64_t bytes = runtime_shape::ByteSize(shape);
  for (int i = 0; i < 2; ++i) {
    BufferAllocationProto* a = e.add_buffer_allocations();
    a->set_index(i);
    a->set_size(bytes);
    a->set_kind(i == 0 ? BufferAllocationProto::PARAMETER : BufferAllocationProto::OUTPUT);
    if (i == 0) a->set_parameter_number(0);
  }
  EntryParameterProto* p = e.add_parameters();
  p->set_parameter_number(0);
  *p->mutable_shape() = shape;
  *p->mutable_slice() = Slice(0, 0, bytes);
  *e.mutable_result()->mutable_shape() = shape;
  OutputLeafProto* leaf = e.mutable_result()->add_leaves();
  *leaf->mutable_shape() = shape;
  *leaf->mutable_slice() = Slice(1, 0, bytes);
  ThunkProto* t = e.add_thunks();
  t->mutable_info()->set_name("copy");
  *t->mutable_copy()->mutable_source() = Slice(0, 0, bytes);
  *t->mutable_copy()->mutable_destination() = Slice(1, 0, bytes);
  e.mutable_capability()->mutable_host()->set_isa_level(X86_64_V2);
  e.mutable_abi_version()->set_runtime_abi_version(1);
  e.mutable_abi_version()->mutable_llvm()->mutable_minimum()->set_major(19);
  HloModuleProto* m = e.mutable_hlo_module()->mutable_hlo_module();
  m->set_name("copy");
  HloComputationProto* c = m->add_computations();
  c->set_name("main");
  for (const char* op : {"parameter", "copy"}) c->add_instructions()->set_opcode(op);
  return e;
}

// The element types of 2026-12-03 (staged rollout, phase 1): this runtime
// sizes them (c64 8 bytes, c128 16, the 8-bit floats and the unpacked
// sub-byte types 1), loads artifacts holding them and moves their bytes.
TEST(ExecutableTest, ExtendedElementTypesLoadAndMoveTheirBytes) {
  auto client = HostClient();
  const std::vector<std::pair<PrimitiveType, int64_t>> types = {
      {C64, 8},        {C128, 16},      {F8E5M2, 1}, {F8E4M3FN, 1}, {F8E4M3B11FNUZ, 1},
      {F8E5M2FNUZ, 1}, {F8E4M3FNUZ, 1}, {F8E4M3, 1}, {F8E3M4, 1},   {F8E8M0FNU, 1},
      {S4, 1},         {U4, 1},         {S2, 1},     {U2, 1},       {S1, 1},
      {U1, 1},         {F4E2M1FN, 1}};
  for (const auto& [type, width] : types) {
    SCOPED_TRACE(PrimitiveType_Name(type));
    EXPECT_EQ(runtime_shape::ElementBytes(type), width);
    auto executable = client->DeserializeExecutable(Serialize(MakeCopyExecutable(type)));
    ASSERT_TRUE(executable.ok()) << executable.status();
    std::vector<uint8_t> in(15 * width);
    for (size_t i = 0; i < in.size(); ++i) in[i] = static_cast<uint8_t>(i * 7 + 1);
    auto results = (*executable)->Execute({absl::MakeConstSpan(in)});
    ASSERT_TRUE(results.ok()) << results.status();
    ASSERT_EQ(results->size(), 1u);
    EXPECT_EQ((*results)[0], in);
  }
}

// LayoutProto.element_size_in_bits (2026-12-04): a packed sub-byte buffer is
// ceil(elements * bits / 8) bytes, the parameter and result take that many,
// and a packing that is not the type's width is refused at load, naming
// the field.
TEST(ExecutableTest, PackedSubByteLayoutsSizeTheirBuffers) {
  auto client = HostClient();
  for (const auto& [type, bits, bytes] : std::vector<std::tuple<PrimitiveType, int64_t, int64_t>>{
           {S4, 4, 8}, {U4, 4, 8}, {F4E2M1FN, 4, 8}, {S2, 2, 4}, {U1, 1, 2}}) {
    SCOPED_TRACE(PrimitiveType_Name(type));
    ExecutableProto proto = MakeCopyExecutable(type, bits);
    EXPECT_EQ(runtime_shape::ByteSize(proto.parameters(0).shape()), bytes);
    auto executable = client->DeserializeExecutable(Serialize(proto));
    ASSERT_TRUE(executable.ok()) << executable.status();
    std::vector<uint8_t> in(bytes);
    for (size_t i = 0; i < in.size(); ++i) in[i] = static_cast<uint8_t>(i * 37 + 5);
    auto results = (*executable)->Execute({absl::MakeConstSpan(in)});
    ASSERT_TRUE(results.ok()) << results.status();
    ASSERT_EQ(results->size(), 1u);
    EXPECT_EQ((*results)[0], in);
    // One byte per element is the wrong size now.
    std::vector<uint8_t> unpacked(15);
    EXPECT_FALSE((*executable)->Execute({absl::MakeConstSpan(unpacked)}).ok());
  }
  for (const auto& [type, bits] :
       std::vector<std::pair<PrimitiveType, int64_t>>{{S4, 2}, {S8, 4}, {F32, 8}, {U2, 4}}) {
    SCOPED_TRACE(PrimitiveType_Name(type));
    ExecutableProto proto = MakeCopyExecutable(type, bits);
    auto executable = client->DeserializeExecutable(Serialize(proto));
    ASSERT_FALSE(executable.ok());
    EXPECT_THAT(std::string(executable.status().message()),
                HasSubstr("parameters[0].shape.layout.element_size_in_bits"));
  }
}

TEST(ExecutableTest, CommandBufferIsBuiltAtLoadAndNeverSerialized) {
  auto client = HostClient();
  std::string bytes = Serialize(MakeExecutable());
  auto executable = client->DeserializeExecutable(bytes);
  ASSERT_TRUE(executable.ok()) << executable.status();
  EXPECT_EQ((*executable)->load_stats().passes.command_buffers, 1);
  ASSERT_EQ((*executable)->thunks().size(), 1u);
  EXPECT_EQ((*executable)->thunks()[0]->kind(), Thunk::Kind::kCommandBuffer);
  ExecutableProto serialized = (*executable)->ToProto();
  ASSERT_EQ(serialized.thunks_size(), 2);
  for (const ThunkProto& t : serialized.thunks()) {
    EXPECT_EQ(t.impl_case(), ThunkProto::kKernel);
  }
  // Byte-identical round trip.
  EXPECT_EQ((*executable)->SerializeExecutable(), bytes);
  // Without the pass, the same results.
  LoadOptions no_cb;
  no_cb.enable_command_buffers = false;
  auto plain = HostClient(no_cb)->DeserializeExecutable(bytes);
  ASSERT_TRUE(plain.ok());
  EXPECT_EQ((*plain)->thunks().size(), 2u);
  std::vector<float> a = Iota(2), b = Iota(5);
  ExpectAddMul(*(*plain)->Execute({Bytes(a), Bytes(b)}), a, b);
  ExpectAddMul(*(*executable)->Execute({Bytes(a), Bytes(b)}), a, b);
}

TEST(ExecutableTest, ConcurrentExecutionFromEightThreads) {
  auto client = HostClient();
  auto executable = client->DeserializeExecutable(Serialize(MakeExecutable()));
  ASSERT_TRUE(executable.ok()) << executable.status();
  std::vector<std::thread> threads;
  std::atomic<int> failures{0};
  for (int t = 0; t < 8; ++t) {
    threads.emplace_back([&, t] {
      for (int iteration = 0; iteration < 50; ++iteration) {
        std::vector<float> a = Iota(static_cast<float>(t)), b = Iota(static_cast<float>(iteration));
        auto results = (*executable)->Execute({Bytes(a), Bytes(b)});
        if (!results.ok()) {
          ++failures;
          continue;
        }
        const float* out = reinterpret_cast<const float*>((*results)[0].data());
        for (int64_t i = 0; i < kN; ++i) {
          if (out[i] != (a[i] + b[i]) * a[i]) {
            ++failures;
            break;
          }
        }
      }
    });
  }
  for (auto& t : threads) t.join();
  EXPECT_EQ(failures.load(), 0);
}

TEST(ExecutableTest, ExecutionsReuseOneArenaAndConcurrentOnesGetTheirOwn) {
  auto executable = HostClient()->DeserializeExecutable(Serialize(MakeExecutable()));
  ASSERT_TRUE(executable.ok()) << executable.status();
  EXPECT_EQ((*executable)->arena_count(), 0);
  EXPECT_GE((*executable)->arena_bytes(), kBytes);
  std::vector<float> a = Iota(1), b = Iota(2);
  for (int i = 0; i < 5; ++i) ExpectAddMul(*(*executable)->Execute({Bytes(a), Bytes(b)}), a, b);
  EXPECT_EQ((*executable)->arena_count(), 1) << "sequential executions share one arena";
  // Concurrent executions take arenas of their own (never more than the
  // number running at once), and every result is right.
  std::vector<std::thread> threads;
  std::atomic<int> failures{0};
  for (int t = 0; t < 4; ++t) {
    threads.emplace_back([&, t] {
      std::vector<float> x = Iota(static_cast<float>(t)), y = Iota(3);
      for (int i = 0; i < 20; ++i) {
        auto results = (*executable)->Execute({Bytes(x), Bytes(y)});
        const float* out = reinterpret_cast<const float*>((*results)[0].data());
        for (int64_t k = 0; k < kN; ++k) failures += out[k] != (x[k] + y[k]) * x[k];
      }
    });
  }
  for (auto& t : threads) t.join();
  EXPECT_EQ(failures.load(), 0);
  EXPECT_GE((*executable)->arena_count(), 1);
  EXPECT_LE((*executable)->arena_count(), 5);
}

TEST(ExecutableTest, ExecuteIntoWritesTheCallersBuffers) {
  auto executable = HostClient()->DeserializeExecutable(Serialize(MakeExecutable()));
  ASSERT_TRUE(executable.ok()) << executable.status();
  std::vector<float> a = Iota(4), b = Iota(-1), out(kN, -7.0f);
  absl::Span<uint8_t> result(reinterpret_cast<uint8_t*>(out.data()), kBytes);
  ASSERT_TRUE((*executable)->ExecuteInto({Bytes(a), Bytes(b)}, {result}).ok());
  for (int64_t i = 0; i < kN; ++i) ASSERT_EQ(out[i], (a[i] + b[i]) * a[i]) << i;
  // Wrong result buffers are errors naming the leaf.
  std::vector<float> small(3);
  absl::Span<uint8_t> short_result(reinterpret_cast<uint8_t*>(small.data()), 12);
  absl::Status wrong_size = (*executable)->ExecuteInto({Bytes(a), Bytes(b)}, {short_result});
  EXPECT_THAT(std::string(wrong_size.message()), HasSubstr("result buffer 0 has 12 bytes"));
  absl::Status wrong_count = (*executable)->ExecuteInto({Bytes(a), Bytes(b)}, {});
  EXPECT_THAT(std::string(wrong_count.message()), HasSubstr("has 1 result leaves, got 0"));
}

// The host platform, counting the bytes its streams copy to the host.
class CopyCountingPlatform : public Platform {
 public:
  CopyCountingPlatform() : host_(*CreateHostPlatform({})) {}
  absl::string_view name() const override { return host_->name(); }
  PlatformKind kind() const override { return host_->kind(); }
  absl::Status CheckCapability(const CapabilityProto& c) const override {
    return host_->CheckCapability(c);
  }
  absl::Status CheckLaunchDimensions(const LaunchDimensionsProto& d) const override {
    return host_->CheckLaunchDimensions(d);
  }
  bool CanExecute() const override { return true; }
  absl::StatusOr<std::unique_ptr<KernelLoader>> CreateKernelLoader() override {
    return host_->CreateKernelLoader();
  }
  absl::StatusOr<DeviceMemory> Allocate(int64_t size) override { return host_->Allocate(size); }
  void Free(DeviceMemory memory) override { host_->Free(memory); }
  absl::StatusOr<std::unique_ptr<Stream>> AcquireStream() override {
    AOT_ASSIGN_OR_RETURN(std::unique_ptr<Stream> stream, host_->AcquireStream());
    return std::unique_ptr<Stream>(new CountingStream(std::move(stream), &copied_to_host_));
  }
  std::unique_ptr<CommandBuffer> CreateCommandBuffer(std::vector<KernelLaunch> l) override {
    return host_->CreateCommandBuffer(std::move(l));
  }
  absl::StatusOr<std::unique_ptr<CollectiveBackend>> CreateCollectiveBackend(
      int64_t participant_count, absl::Duration timeout) override {
    return host_->CreateCollectiveBackend(participant_count, timeout);
  }
  int64_t copied_to_host() const { return copied_to_host_; }

 private:
  class CountingStream : public Stream {
   public:
    CountingStream(std::unique_ptr<Stream> s, int64_t* counter) : s_(std::move(s)), n_(counter) {}
    absl::Status CopyHostToDevice(const void* src, DeviceMemory dst, int64_t size) override {
      return s_->CopyHostToDevice(src, dst, size);
    }
    absl::Status CopyDeviceToHost(DeviceMemory src, void* dst, int64_t size) override {
      *n_ += size;
      return s_->CopyDeviceToHost(src, dst, size);
    }
    absl::Status CopyDeviceToDevice(DeviceMemory src, DeviceMemory dst, int64_t size) override {
      return s_->CopyDeviceToDevice(src, dst, size);
    }
    absl::Status Memset32(DeviceMemory dst, uint32_t pattern, int64_t size) override {
      return s_->Memset32(dst, pattern, size);
    }
    absl::Status Convolution(const ConvolutionParams& p, DeviceMemory in, DeviceMemory filter,
                             DeviceMemory out) override {
      return s_->Convolution(p, in, filter, out);
    }
    absl::Status Launch(const KernelHandle& k, const LaunchDimensionsProto& d,
                        absl::Span<const DeviceMemory> args) override {
      return s_->Launch(k, d, args);
    }
    absl::Status Gemm(const GemmParams& p, DeviceMemory a, DeviceMemory b,
                      DeviceMemory c) override {
      return s_->Gemm(p, a, b, c);
    }
    absl::Status Synchronize() override { return s_->Synchronize(); }

   private:
    std::unique_ptr<Stream> s_;
    int64_t* n_;
  };
  std::unique_ptr<Platform> host_;
  int64_t copied_to_host_ = 0;
};

// A 64-byte aligned result buffer of a result leaf that is an allocation of
// its own is computed in place: nothing is copied out. A misaligned one, or
// one overlapping an argument, is copied out, and right.
TEST(ExecutableTest, ExecuteIntoComputesAlignedResultsInPlace) {
  auto platform = std::make_shared<CopyCountingPlatform>();
  auto executable = Executable::Load(MakeExecutable(), platform, nullptr, LoadOptions{});
  ASSERT_TRUE(executable.ok()) << executable.status();
  std::vector<float> a = Iota(4), b = Iota(-1);
  // Storage with a 64-byte aligned start (an over-allocated vector).
  std::vector<float> storage(2 * kN + 64, -7.0f);
  float* base = storage.data();
  while (reinterpret_cast<uintptr_t>(base) % 64 != 0) ++base;
  auto bytes = [](float* p) { return absl::Span<uint8_t>(reinterpret_cast<uint8_t*>(p), kBytes); };
  // Aligned: in place.
  ASSERT_TRUE((*executable)->ExecuteInto({Bytes(a), Bytes(b)}, {bytes(base)}).ok());
  for (int64_t i = 0; i < kN; ++i) ASSERT_EQ(base[i], (a[i] + b[i]) * a[i]) << i;
  EXPECT_EQ(platform->copied_to_host(), 0);
  // Misaligned by one float: copied out.
  ASSERT_TRUE((*executable)->ExecuteInto({Bytes(a), Bytes(b)}, {bytes(base + 1)}).ok());
  for (int64_t i = 0; i < kN; ++i) ASSERT_EQ(base[i + 1], (a[i] + b[i]) * a[i]) << i;
  EXPECT_EQ(platform->copied_to_host(), kBytes);
  // The result buffer overlaps argument a (both aligned; a is read in place,
  // 16 floats ahead of where the result is written): computed in place, the
  // kernel would read results as a. It is copied out instead.
  std::copy(a.begin(), a.end(), base);
  absl::Span<const uint8_t> a_in(reinterpret_cast<const uint8_t*>(base), kBytes);
  ASSERT_TRUE((*executable)->ExecuteInto({a_in, Bytes(b)}, {bytes(base + 16)}).ok());
  for (int64_t i = 0; i < kN; ++i) ASSERT_EQ(base[i + 16], (a[i] + b[i]) * a[i]) << i;
  EXPECT_EQ(platform->copied_to_host(), 2 * kBytes);
}

TEST(ExecutableTest, ArgumentErrorsNameTheParameter) {
  auto executable = HostClient()->DeserializeExecutable(Serialize(MakeExecutable()));
  ASSERT_TRUE(executable.ok());
  std::vector<float> a = Iota(0), small(3);
  auto wrong_count = (*executable)->Execute({Bytes(a)});
  EXPECT_THAT(std::string(wrong_count.status().message()), HasSubstr("takes 2 arguments"));
  auto wrong_size = (*executable)->Execute({Bytes(a), Bytes(small)});
  EXPECT_THAT(std::string(wrong_size.status().message()), HasSubstr("argument 1 has 12 bytes"));
}

struct Corruption {
  const char* name;
  std::function<void(ExecutableProto&)> mutate;
  absl::StatusCode code;
  const char* message;
};

TEST(ExecutableTest, MalformedArtifactsFailWithTheRightError) {
  const Corruption cases[] = {
      {"allocation index out of range",
       [](ExecutableProto& e) {
         e.mutable_thunks(0)->mutable_kernel()->mutable_arguments(1)->set_allocation_index(9);
       },
       absl::StatusCode::kInvalidArgument,
       "thunks[0].kernel.arguments[1]: allocation_index 9 out of range"},
      {"slice offset past the allocation",
       [](ExecutableProto& e) {
         e.mutable_thunks(1)->mutable_kernel()->mutable_arguments(0)->set_offset(kBytes - 4);
       },
       absl::StatusCode::kInvalidArgument, "thunks[1].kernel.arguments[0]: slice"},
      {"negative slice size",
       [](ExecutableProto& e) {
         e.mutable_thunks(0)->mutable_kernel()->mutable_arguments(0)->set_size(-1);
       },
       absl::StatusCode::kInvalidArgument, "negative offset"},
      {"corrupted kernel machine code",
       [](ExecutableProto& e) {
         KernelBinaryProto* b = e.mutable_thunks(0)->mutable_kernel()->mutable_binary();
         b->set_payload_sha256(KernelPayloadSha256(*b));
         (*b->mutable_object())[b->object().size() / 2] ^= 0x5a;
       },
       absl::StatusCode::kInvalidArgument,
       "thunks[0].kernel.binary.payload_sha256: payload_sha256 is"},
      {"huge declared allocation",
       [](ExecutableProto& e) { e.mutable_buffer_allocations(2)->set_size(int64_t{1} << 60); },
       absl::StatusCode::kInvalidArgument, "memory budget"},
      {"writes a parameter",
       [](ExecutableProto& e) {
         *e.mutable_thunks(0)->mutable_kernel()->mutable_arguments(2) = Slice(0, 0, kBytes);
       },
       absl::StatusCode::kInvalidArgument, "read-only PARAMETER"},
      {"launch dimensions out of range",
       [](ExecutableProto& e) {
         e.mutable_thunks(0)
             ->mutable_kernel()
             ->mutable_launch_dimensions()
             ->set_threads_per_block_x(1 << 20);
       },
       absl::StatusCode::kInvalidArgument, "thunks[0].kernel.launch_dimensions"},
      {"zero launch dimension",
       [](ExecutableProto& e) {
         e.mutable_thunks(0)->mutable_kernel()->mutable_launch_dimensions()->set_block_count_y(0);
       },
       absl::StatusCode::kInvalidArgument, "must be >= 1"},
      {"argument count differs from the kernel",
       [](ExecutableProto& e) {
         auto* k = e.mutable_thunks(0)->mutable_kernel();
         *k->add_arguments() = Slice(2, 0, 4);
         k->add_written(false);
       },
       absl::StatusCode::kInvalidArgument, "kernel 'add_k' takes 3 arguments, the thunk passes 4"},
      {"unknown thunk kind",
       [](ExecutableProto& e) {
         ThunkProto* t = e.mutable_thunks(1);
         t->clear_impl();
         t->GetReflection()->MutableUnknownFields(t)->AddLengthDelimited(48, "x");
       },
       absl::StatusCode::kInvalidArgument, "unknown thunk kind (ThunkProto field 48"},
      {"unknown HLO opcode",
       [](ExecutableProto& e) {
         e.mutable_hlo_module()
             ->mutable_hlo_module()
             ->mutable_computations(0)
             ->mutable_instructions(2)
             ->set_opcode("ragged-all-to-all");
       },
       absl::StatusCode::kInvalidArgument, "unknown HLO opcode 'ragged-all-to-all'"},
      {"missing FFI target",
       [](ExecutableProto& e) {
         ThunkProto* t = e.add_thunks();
         t->mutable_custom_call()->set_target_name("acme.fft");
         t->mutable_custom_call()->set_api_version(CustomCallThunkProto::API_VERSION_TYPED_FFI);
       },
       absl::StatusCode::kInvalidArgument,
       "thunks[2].custom_call.target_name: no custom-call/FFI handler registered for target "
       "'acme.fft'"},
      {"constant outside binary",
       [](ExecutableProto& e) {
         BufferAllocationProto* a = e.add_buffer_allocations();
         a->set_index(4);
         a->set_size(8);
         a->set_kind(BufferAllocationProto::CONSTANT);
         ConstantProto* c = e.add_constants();
         c->set_allocation_index(4);
         c->set_binary_offset(4);
         c->set_size(8);
         e.set_binary("12345678");
       },
       absl::StatusCode::kInvalidArgument, "constants[0]: [4, +8) lies outside binary"},
      {"control nesting too deep",
       [](ExecutableProto& e) {
         ThunkProto* t = e.add_thunks();
         for (int i = 0; i < 20; ++i) t = t->mutable_sequential()->add_thunks();
         t->mutable_memset()->mutable_destination()->CopyFrom(Slice(2, 0, 4));
       },
       absl::StatusCode::kInvalidArgument, "nested deeper than 16"},
      {"result leaf size mismatch",
       [](ExecutableProto& e) {
         e.mutable_result()->mutable_leaves(0)->mutable_slice()->set_size(8);
       },
       absl::StatusCode::kInvalidArgument, "result.leaves[0].slice"},
      {"too-old runtime ABI",
       [](ExecutableProto& e) { e.mutable_abi_version()->set_runtime_abi_version(99); },
       absl::StatusCode::kFailedPrecondition,
       "artifact requires runtime ABI version >= 99 (abi_version.runtime_abi_version); "
       "this runtime has ABI version 1"},
      {"newer LLVM required",
       [](ExecutableProto& e) {
         e.mutable_abi_version()->mutable_llvm()->mutable_minimum()->set_major(21);
       },
       absl::StatusCode::kFailedPrecondition, "artifact requires llvm >= 21.0.0"},
      {"alias of a leaf outside the parameter's buffer",
       [](ExecutableProto& e) {
         InputOutputAliasProto* alias = e.add_input_output_aliases();
         alias->set_result_leaf(0);
         alias->set_parameter_number(0);
         alias->set_kind(InputOutputAliasProto::MAY_ALIAS);
       },
       absl::StatusCode::kInvalidArgument,
       "input_output_aliases[0]: result leaf 0 is not the buffer of parameter 0"},
      {"alias without a kind",
       [](ExecutableProto& e) { e.add_input_output_aliases()->set_parameter_number(0); },
       absl::StatusCode::kInvalidArgument, "input_output_aliases[0].kind: is unset or unknown"},
      {"alias of a parameter out of range",
       [](ExecutableProto& e) {
         InputOutputAliasProto* alias = e.add_input_output_aliases();
         alias->set_parameter_number(5);
         alias->set_kind(InputOutputAliasProto::MUST_ALIAS);
       },
       absl::StatusCode::kInvalidArgument,
       "input_output_aliases[0].parameter_number: 5 is out of range [0, 2)"},
      {"CUDA artifact on the host",
       [](ExecutableProto& e) { e.mutable_capability()->mutable_cuda()->set_major(9); },
       absl::StatusCode::kFailedPrecondition,
       "compiled for CUDA compute capability 9.0; this is the host"},
  };
  auto client = HostClient();
  for (const Corruption& c : cases) {
    SCOPED_TRACE(c.name);
    ExecutableProto proto = MakeExecutable();
    c.mutate(proto);
    auto executable = client->DeserializeExecutable(Serialize(proto));
    ASSERT_FALSE(executable.ok());
    EXPECT_EQ(executable.status().code(), c.code) << executable.status();
    EXPECT_THAT(std::string(executable.status().message()), HasSubstr(c.message));
  }
}

// out = (a + b) * a computed in a's buffer (input_output_alias {}: (0, {})):
// mul_k writes parameter 0's allocation, which holds the result.
ExecutableProto MakeAliasedExecutable(InputOutputAliasProto::Kind kind) {
  ExecutableProto e = MakeExecutable();
  *e.mutable_thunks(1)->mutable_kernel()->mutable_arguments(2) = Slice(0, 0, kBytes);
  e.mutable_buffer_allocations(0)->set_maybe_live_out(true);
  *e.mutable_result()->mutable_leaves(0)->mutable_slice() = Slice(0, 0, kBytes);
  InputOutputAliasProto* alias = e.add_input_output_aliases();
  alias->set_result_leaf(0);
  alias->set_parameter_number(0);
  alias->set_kind(kind);
  return e;
}

std::vector<float> ToFloats(const std::vector<uint8_t>& bytes) {
  std::vector<float> v(bytes.size() / sizeof(float));
  std::memcpy(v.data(), bytes.data(), bytes.size());
  return v;
}

// A thunk may write a parameter only when a result leaf aliases it; the
// literal path still never writes the caller's bytes (the aliased
// parameter gets an arena buffer even when the argument is aligned).
TEST(ExecutableTest, AliasedParameterIsWrittenOnlyInItsOwnBuffer) {
  ExecutableProto unaliased = MakeAliasedExecutable(InputOutputAliasProto::MAY_ALIAS);
  unaliased.clear_input_output_aliases();
  auto rejected = HostClient()->DeserializeExecutable(Serialize(unaliased));
  ASSERT_FALSE(rejected.ok());
  EXPECT_THAT(std::string(rejected.status().message()), HasSubstr("read-only PARAMETER"));

  auto executable = HostClient()->DeserializeExecutable(
      Serialize(MakeAliasedExecutable(InputOutputAliasProto::MUST_ALIAS)));
  ASSERT_TRUE(executable.ok()) << executable.status();
  std::vector<float> storage(kN + 64);
  float* a = storage.data();
  while (reinterpret_cast<uintptr_t>(a) % 64 != 0) ++a;
  std::vector<float> a_values = Iota(1), b = Iota(-3);
  std::copy(a_values.begin(), a_values.end(), a);
  absl::Span<const uint8_t> a_bytes(reinterpret_cast<const uint8_t*>(a), kBytes);
  for (int run = 0; run < 2; ++run) {
    auto results = (*executable)->Execute({a_bytes, Bytes(b)});
    ASSERT_TRUE(results.ok()) << results.status();
    ExpectAddMul(*results, a_values, b);
    for (int64_t i = 0; i < kN; ++i) ASSERT_EQ(a[i], a_values[i]) << "argument written at " << i;
  }
}

// Buffers: a donated argument becomes the result in the same memory, and is
// deleted; a loop of donated executions updates one buffer in place.
TEST(ExecutableTest, DonatedArgumentBecomesTheResultInItsMemory) {
  auto client = HostClient();
  auto executable = client->DeserializeExecutable(
      Serialize(MakeAliasedExecutable(InputOutputAliasProto::MAY_ALIAS)));
  ASSERT_TRUE(executable.ok()) << executable.status();
  const std::shared_ptr<Platform>& platform = (*executable)->shared_platform();
  std::vector<float> expected(kN, 0.5f), b_values(kN, 0.25f);
  auto x = DeviceBuffer::FromHostBuffer(platform, F32Vector(kN), Bytes(expected));
  auto b = DeviceBuffer::FromHostBuffer(platform, F32Vector(kN), Bytes(b_values));
  ASSERT_TRUE(x.ok() && b.ok());
  std::unique_ptr<DeviceBuffer> state = *std::move(x);
  for (int step = 0; step < 5; ++step) {
    void* memory = state->memory().ptr;
    auto results = (*executable)->ExecuteBuffers({state.get(), b->get()});
    ASSERT_TRUE(results.ok()) << results.status();
    ASSERT_EQ(results->size(), 1u);
    EXPECT_TRUE(state->is_deleted());
    EXPECT_EQ((*results)[0]->memory().ptr, memory) << "step " << step;
    auto reused = (*executable)->ExecuteBuffers({state.get(), b->get()});
    EXPECT_EQ(reused.status().code(), absl::StatusCode::kFailedPrecondition);
    EXPECT_THAT(std::string(reused.status().message()),
                HasSubstr("argument 0 (f32[1024]{0}) was donated to an earlier execution"));
    for (int64_t i = 0; i < kN; ++i) expected[i] = (expected[i] + b_values[i]) * expected[i];
    state = std::move((*results)[0]);
  }
  auto host = state->ToHost();
  ASSERT_TRUE(host.ok());
  EXPECT_EQ(ToFloats(*host), expected);
  EXPECT_FALSE((*b)->is_deleted());
}

TEST(ExecutableTest, NonDonatedAliasedArgumentIsCopiedOrRefused) {
  auto client = HostClient();
  std::vector<float> a_values = Iota(1), b_values = Iota(-3);
  std::vector<float> expected(kN);
  for (int64_t i = 0; i < kN; ++i) {
    expected[i] = (a_values[i] + b_values[i]) * a_values[i];
  }
  for (auto kind : {InputOutputAliasProto::MAY_ALIAS, InputOutputAliasProto::MUST_ALIAS}) {
    SCOPED_TRACE(InputOutputAliasProto::Kind_Name(kind));
    auto executable = client->DeserializeExecutable(Serialize(MakeAliasedExecutable(kind)));
    ASSERT_TRUE(executable.ok()) << executable.status();
    const std::shared_ptr<Platform>& platform = (*executable)->shared_platform();
    auto a = DeviceBuffer::FromHostBuffer(platform, F32Vector(kN), Bytes(a_values));
    auto b = DeviceBuffer::FromHostBuffer(platform, F32Vector(kN), Bytes(b_values));
    ASSERT_TRUE(a.ok() && b.ok());
    auto results = (*executable)->ExecuteBuffers({a->get(), b->get()}, /*non_donatable=*/{0});
    if (kind == InputOutputAliasProto::MUST_ALIAS) {
      EXPECT_EQ(results.status().code(), absl::StatusCode::kInvalidArgument);
      EXPECT_THAT(std::string(results.status().message()), HasSubstr("argument 0 must be donated"));
      EXPECT_FALSE((*a)->is_deleted());
      continue;
    }
    ASSERT_TRUE(results.ok()) << results.status();
    EXPECT_FALSE((*a)->is_deleted());
    EXPECT_NE((*results)[0]->memory().ptr, (*a)->memory().ptr);
    EXPECT_EQ(ToFloats(*(*results)[0]->ToHost()), expected);
    EXPECT_EQ(ToFloats(*(*a)->ToHost()), a_values);
    // One buffer as both arguments: donating it is refused, reading it twice is not.
    auto twice = (*executable)->ExecuteBuffers({a->get(), a->get()});
    EXPECT_EQ(twice.status().code(), absl::StatusCode::kInvalidArgument);
    EXPECT_THAT(std::string(twice.status().message()),
                HasSubstr("the same buffer is also argument 1"));
    EXPECT_FALSE((*a)->is_deleted());
    auto shared = (*executable)->ExecuteBuffers({a->get(), a->get()}, {0});
    ASSERT_TRUE(shared.ok()) << shared.status();
    std::vector<float> doubled = ToFloats(*(*shared)[0]->ToHost());
    for (int64_t i = 0; i < kN; ++i) {
      ASSERT_EQ(doubled[i], (a_values[i] + a_values[i]) * a_values[i]) << i;
    }
  }
}

// Without aliases: arguments read in place, a result that is a whole
// allocation computed in its own new buffer; argument errors name the
// argument.
TEST(ExecutableTest, ExecuteBuffersReadsArgumentsInPlace) {
  auto executable = HostClient()->DeserializeExecutable(Serialize(MakeExecutable()));
  ASSERT_TRUE(executable.ok()) << executable.status();
  const std::shared_ptr<Platform>& platform = (*executable)->shared_platform();
  std::vector<float> a_values = Iota(1), b_values = Iota(-3);
  auto a = DeviceBuffer::FromHostBuffer(platform, F32Vector(kN), Bytes(a_values));
  auto b = DeviceBuffer::FromHostBuffer(platform, F32Vector(kN), Bytes(b_values));
  ASSERT_TRUE(a.ok() && b.ok());
  auto results = (*executable)->ExecuteBuffers({a->get(), b->get()});
  ASSERT_TRUE(results.ok()) << results.status();
  EXPECT_FALSE((*a)->is_deleted());
  auto out = (*results)[0]->ToHost();
  ASSERT_TRUE(out.ok());
  ExpectAddMul({*out}, a_values, b_values);
  auto wrong = DeviceBuffer::FromHostBuffer(platform, F32Vector(8), Bytes(std::vector<float>(8)));
  ASSERT_TRUE(wrong.ok());
  auto mismatch = (*executable)->ExecuteBuffers({a->get(), wrong->get()});
  EXPECT_THAT(std::string(mismatch.status().message()),
              HasSubstr("argument 1 is f32[8]{0}, parameter 1 is f32[1024]{0}"));
  (*b)->Delete();
  auto deleted = (*executable)->ExecuteBuffers({a->get(), b->get()});
  EXPECT_EQ(deleted.status().code(), absl::StatusCode::kFailedPrecondition);
  EXPECT_THAT(std::string(deleted.status().message()),
              HasSubstr("argument 1 (f32[1024]{0}) was deleted"));
}

TEST(ExecutableTest, BudgetCountsKernelMachineCodeAndTheEmbeddedModule) {
  LoadOptions options;
  options.memory_budget_bytes = int64_t{1} << 20;
  auto client = Client::Create("host", options);
  ASSERT_TRUE(client.ok()) << client.status();
  ASSERT_TRUE((*client)->Load(MakeExecutable()).ok());
  // Small allocations, but 2 MiB of kernel machine code, or a 2 MiB embedded
  // module: load would keep either resident.
  ExecutableProto big_kernel = MakeExecutable();
  big_kernel.mutable_thunks(0)->mutable_kernel()->mutable_binary()->mutable_object()->append(
      size_t{2} << 20, '\0');
  ExecutableProto big_module = MakeExecutable();
  big_module.mutable_hlo_module()->mutable_hlo_module()->set_name(
      std::string(size_t{2} << 20, 'm'));
  for (const ExecutableProto* proto : {&big_kernel, &big_module}) {
    auto executable = (*client)->Load(*proto);
    ASSERT_FALSE(executable.ok());
    EXPECT_EQ(executable.status().code(), absl::StatusCode::kInvalidArgument);
    EXPECT_THAT(std::string(executable.status().message()),
                HasSubstr("of constants, kernels and embedded module exceed the memory budget of "
                          "1048576"));
  }
}

// Inputs the fuzzers found (scripts/fuzz.sh), kept as regressions: each
// loads or fails with a Status naming the problem; none may crash.
TEST(ExecutableTest, FuzzFindingsLoadOrFailCleanly) {
  struct Finding {
    const char* file;
    bool loads;
    const char* message;
  };
  const Finding findings[] = {
      // A relocation 1 MiB past the end of .text: JITLink wrote outside the
      // section (SEGV) before relocations were checked.
      {"relocation_outside_section.pb", false,
       "kernel 'k3_fusion_4': relocation at offset 1048957 writes 4 bytes outside section "
       "'.text' of 436 bytes"},
      // .rodata without SHF_ALLOC: JITLink gave the arity symbol address 0 and
      // the loader dereferenced it. The arity is now read from the file.
      {"null_arity_symbol.pbtxt", true, ""},
  };
  auto client = HostClient();
  for (const Finding& f : findings) {
    SCOPED_TRACE(f.file);
    auto bytes = ReadFileToString(absl::StrCat("runtime/executable/testdata/fuzz/", f.file));
    ASSERT_TRUE(bytes.ok()) << bytes.status();
    auto executable = client->DeserializeExecutable(*bytes);
    if (f.loads) {
      // Loading is what the finding crashed; running needs the ISA level it
      // was compiled for, which this machine may lack.
      EXPECT_TRUE(executable.ok() ||
                  executable.status().code() == absl::StatusCode::kFailedPrecondition)
          << executable.status();
    } else {
      ASSERT_FALSE(executable.ok());
      EXPECT_THAT(std::string(executable.status().message()), HasSubstr(f.message));
    }
  }
}

TEST(ExecutableTest, KernelArityIsReadFromTheObjectNotThroughAnAddress) {
  auto object = testing::CompileIrToObject(testing::BinaryF32KernelIr("k", "fadd"));
  ASSERT_TRUE(object.ok()) << object.status();
  auto arity = ReadKernelArity(*object, "k");
  ASSERT_TRUE(arity.ok()) << arity.status();
  EXPECT_EQ(*arity, 3);
  EXPECT_TRUE(ValidateKernelRelocations(*object).ok());
  auto missing = ReadKernelArity(*object, "other");
  ASSERT_FALSE(missing.ok());
  EXPECT_THAT(std::string(missing.status().message()),
              HasSubstr("the object defines no 'other__aot_arity'"));
  EXPECT_FALSE(ReadKernelArity("not an object", "k").ok());
  EXPECT_FALSE(ValidateKernelRelocations("not an object").ok());
}

TEST(ExecutableTest, WrongIsaLevelIsFailedPreconditionStatingBothSides) {
  LoadOptions options;
  // A CPU with only the v2 features.
  options.host_cpu_features_override = RequiredCpuFeatures(X86_64_V2);
  auto client = HostClient(options);
  ExecutableProto proto = MakeExecutable();
  proto.mutable_capability()->mutable_host()->set_isa_level(X86_64_V4);
  auto executable = client->DeserializeExecutable(Serialize(proto));
  ASSERT_FALSE(executable.ok());
  EXPECT_EQ(executable.status().code(), absl::StatusCode::kFailedPrecondition);
  EXPECT_THAT(std::string(executable.status().message()),
              HasSubstr("compiled for x86-64-v4, which needs CPU features this machine "
                        "lacks: avx, avx2"));
  EXPECT_THAT(std::string(executable.status().message()),
              HasSubstr("this machine supports up to x86-64-v2"));
  proto.mutable_capability()->mutable_host()->set_isa_level(X86_64_V2);
  EXPECT_TRUE(client->DeserializeExecutable(Serialize(proto)).ok());
}

TEST(ExecutableTest, ObjectCallingSystemIsRejected) {
  auto object = testing::CompileIrToObject(testing::SystemCallingKernelIr("evil"));
  ASSERT_TRUE(object.ok()) << object.status();
  auto disallowed = DisallowedSymbols(*object);
  ASSERT_TRUE(disallowed.ok());
  EXPECT_EQ(*disallowed, std::vector<std::string>{"system"});
  ExecutableProto proto = MakeExecutable();
  ThunkProto* t = proto.add_thunks();
  t->mutable_kernel()->set_kernel_name("evil");
  auto* d = t->mutable_kernel()->mutable_launch_dimensions();
  d->set_block_count_x(1);
  d->set_block_count_y(1);
  d->set_block_count_z(1);
  d->set_threads_per_block_x(1);
  d->set_threads_per_block_y(1);
  d->set_threads_per_block_z(1);
  t->mutable_kernel()->mutable_binary()->set_format(KernelBinaryProto::HOST_ELF_OBJECT);
  t->mutable_kernel()->mutable_binary()->set_object(*object);
  auto executable = HostClient()->DeserializeExecutable(Serialize(proto));
  ASSERT_FALSE(executable.ok());
  EXPECT_THAT(std::string(executable.status().message()),
              HasSubstr("kernel 'evil' references symbols outside the runtime's "
                        "allow-list: system"));
}

TEST(ExecutableTest, TruncatedAndBitFlippedBytesNeverCrash) {
  std::string bytes = Serialize(MakeExecutable());
  auto client = HostClient();
  for (size_t n :
       {size_t{0}, size_t{1}, size_t{7}, bytes.size() / 3, bytes.size() / 2, bytes.size() - 1}) {
    auto e = client->DeserializeExecutable(bytes.substr(0, n));
    EXPECT_FALSE(e.ok() && n == 0);
  }
  std::mt19937_64 rng(7);
  int loaded = 0;
  for (int i = 0; i < 300; ++i) {
    std::string mutated = bytes;
    for (int f = 0; f < 3; ++f) {
      size_t pos = rng() % mutated.size();
      mutated[pos] = static_cast<char>(mutated[pos] ^ (1 << (rng() % 8)));
    }
    auto e = client->DeserializeExecutable(mutated);
    // A flip inside machine code may still load (the golden MANIFEST's
    // sha256 guards those bytes); loading itself must never crash.
    if (e.ok()) ++loaded;
  }
  SUCCEED() << loaded << " of 300 mutated artifacts still loaded";
}

}  // namespace
}  // namespace aot
