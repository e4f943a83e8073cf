// Round-trip coverage of the serialized executable: every thunk kind,
// populated with every field at a non-default value (nested sequences
// non-empty), goes through the registry's FromProto (inside a minimal valid
// executable loaded on the host platform) and back through ToProto
// unchanged. So do a populated executable (host, with an embedded HLO module
// that sets what the corpus leaves at defaults), a CUDA executable (loaded
// device-less) and every golden artifact of the corpus (each artifact blob
// of the store, golden/store/artifacts/<aa>/<sha256>.pb, and each
// golden/executables/<target>/v<N>/<test>.pbtxt of a version not yet moved
// into the store).
//
// The meta-test walks the descriptors reachable from ExecutableProto, in
// every file (executable.proto, hlo.proto, target.proto), and fails when
// some field or oneof case (a thunk kind is a oneof case) is never set to a
// non-default value by any case that round-tripped: a new field cannot land
// without extending a round-trip case.
#include <algorithm>
#include <filesystem>
#include <functional>
#include <iostream>
#include <map>
#include <memory>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "absl/algorithm/container.h"
#include "absl/status/status.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "gmock/gmock.h"
#include "google/protobuf/descriptor.h"
#include "google/protobuf/descriptor.pb.h"
#include "gtest/gtest.h"
#include "proto/executable.pb.h"
#include "proto/message_diff.h"
#include "runtime/executable/client.h"
#include "runtime/kernel_payload.h"
#include "runtime/testing/executable_builder.h"
#include "runtime/testing/test_kernels.h"
#include "runtime/thunks/convolution_thunk.h"
#include "runtime/thunks/thunk_registry.h"
#include "support/blob_store.h"
#include "support/file_io.h"

namespace aot {
namespace {

using google::protobuf::Descriptor;
using google::protobuf::FieldDescriptor;
using google::protobuf::Message;
using google::protobuf::Reflection;
using ::testing::ElementsAre;
using ::testing::IsEmpty;

// Allocation 0: parameter 0 (f32[256]); 1: temp; 2: output (f32[256]).
constexpr int kParam = 0;
constexpr int kTemp = 1;
constexpr int kOut = 2;

BufferSliceProto Slice(int64_t alloc, int64_t offset, int64_t size) {
  BufferSliceProto s;
  s.set_allocation_index(alloc);
  s.set_offset(offset);
  s.set_size(size);
  return s;
}

ShapeProto Shape(PrimitiveType type, std::vector<int64_t> dims) {
  ShapeProto s;
  s.set_element_type(type);
  for (int64_t d : dims) s.add_dimensions(d);
  return s;
}

// The differences between two messages, empty when they are equal (a NaN
// equals a NaN).
std::string Diff(const Message& expected, const Message& actual) {
  return DiffMessages(expected, actual);
}

ExecutableProto Executable(std::vector<ThunkProto> thunks) {
  ExecutableProto e;
  e.set_name("round_trip");
  for (int i = 0; i < 3; ++i) {
    BufferAllocationProto* a = e.add_buffer_allocations();
    a->set_index(i);
    a->set_size(1024);
  }
  e.mutable_buffer_allocations(kParam)->set_kind(BufferAllocationProto::PARAMETER);
  e.mutable_buffer_allocations(kTemp)->set_kind(BufferAllocationProto::TEMP);
  e.mutable_buffer_allocations(kOut)->set_kind(BufferAllocationProto::OUTPUT);
  EntryParameterProto* p = e.add_parameters();
  *p->mutable_shape() = Shape(F32, {256});
  *p->mutable_slice() = Slice(kParam, 0, 1024);
  *e.mutable_result()->mutable_shape() = Shape(F32, {256});
  OutputLeafProto* leaf = e.mutable_result()->add_leaves();
  *leaf->mutable_shape() = Shape(F32, {256});
  *leaf->mutable_slice() = Slice(kOut, 0, 1024);
  e.mutable_capability()->mutable_host()->set_isa_level(X86_64_V2);
  e.mutable_abi_version()->set_runtime_abi_version(1);
  for (ThunkProto& t : thunks) *e.add_thunks() = std::move(t);
  return e;
}

ThunkProto Info(absl::string_view name) {
  ThunkProto t;
  t.mutable_info()->set_name(std::string(name));
  t.mutable_info()->set_profile_annotation(absl::StrCat("profile:", name));
  t.mutable_info()->set_execution_stream_id(1);
  return t;
}

ThunkProto Copy(absl::string_view name, int64_t offset) {
  ThunkProto t = Info(name);
  *t.mutable_copy()->mutable_source() = Slice(kParam, offset, 64);
  *t.mutable_copy()->mutable_destination() = Slice(kTemp, offset + 4, 64);
  return t;
}

ThunkProto KernelCase() {
  auto object = testing::CompileIrToObject(testing::CountdownKernelIr());
  EXPECT_TRUE(object.ok()) << object.status();
  ThunkProto t = Info("countdown");
  KernelThunkProto* k = t.mutable_kernel();
  k->set_kernel_name("countdown");
  LaunchDimensionsProto* d = k->mutable_launch_dimensions();
  d->set_block_count_x(2);
  d->set_block_count_y(1);
  d->set_block_count_z(1);
  d->set_threads_per_block_x(4);
  d->set_threads_per_block_y(1);
  d->set_threads_per_block_z(1);
  *k->add_arguments() = Slice(kTemp, 8, 4);
  *k->add_arguments() = Slice(kOut, 4, 1);
  k->add_written(true);
  k->add_written(true);
  KernelBinaryProto* b = k->mutable_binary();
  b->set_format(KernelBinaryProto::HOST_ELF_OBJECT);
  b->set_object(object.ok() ? *object : "");
  // Not read by the host loader, but carried through unchanged.
  b->set_ptx("// ptx kept as the JIT fallback");
  b->set_cubin("cubin");
  b->set_payload_sha256(KernelPayloadSha256(*b));
  k->set_shared_memory_bytes(128);
  return t;
}

ThunkProto GemmCase() {
  ThunkProto t = Info("dot");
  GemmThunkProto* g = t.mutable_gemm();
  // 2 batches of [2,3] x [3,4] -> [2,4], f32.
  *g->mutable_lhs() = Slice(kParam, 16, 2 * 8 * 4);
  *g->mutable_rhs() = Slice(kParam, 128, 2 * 12 * 4);
  *g->mutable_output() = Slice(kOut, 32, 2 * 8 * 4);
  g->set_element_type(F32);
  g->set_batch_size(2);
  g->set_m(2);
  g->set_n(4);
  g->set_k(3);
  g->set_transpose_lhs(true);
  g->set_transpose_rhs(true);
  g->set_alpha(1.5);
  g->set_beta(0.5);
  g->set_lhs_batch_stride(8);
  g->set_rhs_batch_stride(12);
  g->set_output_batch_stride(8);
  return t;
}

ThunkProto ConvolutionCase() {
  ThunkProto t = Info("conv");
  ConvolutionThunkProto* c = t.mutable_convolution();
  *c->mutable_input() = Slice(kParam, 0, 32 * 4);
  *c->mutable_filter() = Slice(kParam, 256, 54 * 4);
  *c->mutable_output() = Slice(kOut, 0, 12 * 4);
  ConvolutionThunk::ParamsToProto(::aot::testing::StridedConvolution(), c);
  return t;
}

ThunkProto MemsetCase() {
  ThunkProto t = Info("fill");
  *t.mutable_memset()->mutable_destination() = Slice(kOut, 8, 64);
  t.mutable_memset()->set_pattern(0x3f800000);
  return t;
}

ThunkProto CustomCallCase() {
  ThunkProto t = Info("topk");
  CustomCallThunkProto* c = t.mutable_custom_call();
  c->set_target_name("aot.topk");
  c->set_api_version(CustomCallThunkProto::API_VERSION_TYPED_FFI);
  CustomCallOperandProto* op = c->add_operands();
  *op->mutable_shape() = Shape(F32, {2, 5});
  *op->mutable_slice() = Slice(kParam, 4, 40);
  CustomCallOperandProto* r0 = c->add_results();
  *r0->mutable_shape() = Shape(F32, {2, 2});
  *r0->mutable_slice() = Slice(kOut, 4, 16);
  CustomCallOperandProto* r1 = c->add_results();
  *r1->mutable_shape() = Shape(S32, {2, 2});
  *r1->mutable_slice() = Slice(kTemp, 4, 16);
  c->set_opaque("backend_config");
  CustomCallAttributeProto* k = c->add_attributes();
  k->set_name("k");
  k->set_i64(2);
  CustomCallAttributeProto* f = c->add_attributes();
  f->set_name("scale");
  f->set_f64(0.25);
  CustomCallAttributeProto* s = c->add_attributes();
  s->set_name("mode");
  s->set_str("stable");
  CustomCallAttributeProto* b = c->add_attributes();
  b->set_name("sorted");
  b->set_b(true);
  return t;
}

ThunkProto SequentialCase() {
  ThunkProto t = Info("seq");
  *t.mutable_sequential()->add_thunks() = Copy("seq.copy0", 0);
  *t.mutable_sequential()->add_thunks() = MemsetCase();
  return t;
}

ThunkProto WhileCase() {
  ThunkProto t = Info("loop");
  WhileThunkProto* w = t.mutable_while_loop();
  *w->mutable_condition()->add_thunks() = Copy("loop.cond", 8);
  *w->mutable_body()->add_thunks() = Copy("loop.body", 16);
  *w->mutable_predicate() = Slice(kTemp, 3, 1);
  w->set_trip_count(3);
  return t;
}

ThunkProto ConditionalCase() {
  ThunkProto t = Info("cond");
  ConditionalThunkProto* c = t.mutable_conditional();
  *c->mutable_branch_index() = Slice(kParam, 1, 1);
  c->set_branch_index_is_bool(true);
  *c->add_branches()->add_thunks() = Copy("cond.true", 4);
  *c->add_branches()->add_thunks() = MemsetCase();
  return t;
}

// Collective thunks: an executable of 2 replicas x 2 partitions (devices
// 3, 2, 1, 0), so every config field, group and pair is non-trivial.
constexpr int64_t kCollectiveParticipants = 4;

void SetDeviceAssignment(ExecutableProto* e) {
  DeviceAssignmentProto* d = e->mutable_device_assignment();
  d->set_replica_count(2);
  d->set_partition_count(2);
  for (int64_t i = kCollectiveParticipants - 1; i >= 0; --i) d->add_device_ids(i);
}

// Groups {0, 2} and {1, 3}; one buffer of `source` -> `destination` bytes.
void FillCollectiveConfig(CollectiveConfigProto* config, int64_t source, int64_t destination) {
  for (int64_t first : {0, 1}) {
    CollectiveGroupProto* g = config->add_groups();
    g->add_participants(first);
    g->add_participants(first + 2);
  }
  config->set_element_type(F32);
  CollectiveBufferProto* b = config->add_buffers();
  *b->mutable_source() = Slice(kParam, 0, source);
  *b->mutable_destination() = Slice(kOut, 0, destination);
  config->set_channel_id(7);
}

ThunkProto AllReduceCase() {
  ThunkProto t = Info("all-reduce");
  FillCollectiveConfig(t.mutable_all_reduce()->mutable_config(), 64, 64);
  t.mutable_all_reduce()->set_reduction(REDUCTION_KIND_MAX);
  return t;
}

ThunkProto AllGatherCase() {
  ThunkProto t = Info("all-gather");
  FillCollectiveConfig(t.mutable_all_gather()->mutable_config(), 64, 128);
  return t;
}

ThunkProto ReduceScatterCase() {
  ThunkProto t = Info("reduce-scatter");
  FillCollectiveConfig(t.mutable_reduce_scatter()->mutable_config(), 128, 64);
  t.mutable_reduce_scatter()->set_reduction(REDUCTION_KIND_PRODUCT);
  return t;
}

ThunkProto AllToAllCase() {
  ThunkProto t = Info("all-to-all");
  FillCollectiveConfig(t.mutable_all_to_all()->mutable_config(), 64, 64);
  return t;
}

ThunkProto CollectivePermuteCase() {
  ThunkProto t = Info("collective-permute");
  CollectivePermuteThunkProto* c = t.mutable_collective_permute();
  CollectiveGroupProto* all = c->mutable_config()->add_groups();
  for (int64_t p = 0; p < kCollectiveParticipants; ++p) all->add_participants(p);
  c->mutable_config()->set_element_type(F32);
  CollectiveBufferProto* b = c->mutable_config()->add_buffers();
  *b->mutable_source() = Slice(kParam, 0, 64);
  *b->mutable_destination() = Slice(kOut, 0, 64);
  for (int64_t p = 0; p < kCollectiveParticipants; ++p) {
    SourceTargetProto* pair = c->add_pairs();
    pair->set_source(p);
    pair->set_target((p + 1) % kCollectiveParticipants);
  }
  return t;
}

ThunkProto CollectiveBroadcastCase() {
  ThunkProto t = Info("collective-broadcast");
  FillCollectiveConfig(t.mutable_collective_broadcast()->mutable_config(), 64, 64);
  return t;
}

ThunkProto ReplicaIdCase() {
  ThunkProto t = Info("replica-id");
  *t.mutable_replica_id()->mutable_destination() = Slice(kOut, 4, 4);
  return t;
}

ThunkProto PartitionIdCase() {
  ThunkProto t = Info("partition-id");
  *t.mutable_partition_id()->mutable_destination() = Slice(kOut, 8, 4);
  return t;
}

struct RoundTripCase {
  std::string kind;  // the ThunkProto.impl case it exercises
  std::function<ThunkProto()> make;
  bool collective = false;  // loaded in an executable of kCollectiveParticipants
};

const std::vector<RoundTripCase>& Cases() {
  static const auto* cases = new std::vector<RoundTripCase>{
      {"kernel", KernelCase},
      {"gemm", GemmCase},
      {"copy", [] { return Copy("copy", 12); }},
      {"memset", MemsetCase},
      {"custom_call", CustomCallCase},
      {"sequential", SequentialCase},
      {"while_loop", WhileCase},
      {"conditional", ConditionalCase},
      {"convolution", ConvolutionCase},
      {"all_reduce", AllReduceCase, true},
      {"all_gather", AllGatherCase, true},
      {"reduce_scatter", ReduceScatterCase, true},
      {"all_to_all", AllToAllCase, true},
      {"collective_permute", CollectivePermuteCase, true},
      {"collective_broadcast", CollectiveBroadcastCase, true},
      {"replica_id", ReplicaIdCase, true},
      {"partition_id", PartitionIdCase, true},
  };
  return *cases;
}

// The embedded HLO module with the fields the golden corpus leaves at their
// defaults: literals of every element type, batching dimensions, control
// predecessors, attributes kept verbatim, module id and config. The runtime
// reads only opcodes from it and must carry the rest through unchanged.
HloModuleWithConfigProto PopulatedHloModule() {
  HloModuleWithConfigProto with_config;
  HloModuleProto* m = with_config.mutable_hlo_module();
  m->set_name("round_trip");
  m->set_id(7);
  HloComputationProto* c = m->add_computations();
  c->set_name("main");
  HloInstructionProto* param = c->add_instructions();
  param->set_opcode("parameter");
  param->set_id(1);
  // A packed sub-byte parameter (LayoutProto.element_size_in_bits, 2026-12-04).
  ShapeProto* packed = param->mutable_shape();
  packed->set_element_type(S4);
  packed->add_dimensions(4);
  packed->mutable_layout()->add_minor_to_major(0);
  packed->mutable_layout()->set_element_size_in_bits(4);
  HloInstructionProto* constant = c->add_instructions();
  constant->set_opcode("constant");
  constant->set_id(2);
  constant->add_control_predecessor_ids(1);
  LiteralProto* literal = constant->mutable_literal();
  *literal->mutable_shape() = Shape(TUPLE, {});
  LiteralProto* l = literal->add_tuple_literals();
  l->add_preds(true);
  l->set_s8s("\x01");
  l->set_u8s("\x02");
  l->set_s16s(std::string("\x03\x00", 2));
  l->set_u16s(std::string("\x04\x00", 2));
  l->add_s64s(-5);
  l->add_u32s(6);
  l->add_u64s(7);
  l->set_f16s(std::string("\x00\x3c", 2));
  l->set_bf16s(std::string("\x80\x3f", 2));
  l->add_f64s(0.5);
  // The payloads of the element types of 2026-12-03.
  l->add_c64s(1.5f);
  l->add_c64s(-2.0f);
  l->add_c128s(0.25);
  l->add_c128s(4.0);
  l->set_narrow_ints(std::string("\xf9\x07", 2));
  l->set_narrow_floats(std::string("\x38\x80", 2));
  HloInstructionProto* gather = c->add_instructions();
  gather->set_opcode("gather");
  gather->set_id(3);
  gather->mutable_gather_dimension_numbers()->add_operand_batching_dims(0);
  gather->mutable_gather_dimension_numbers()->add_start_indices_batching_dims(0);
  gather->set_indices_are_sorted(true);
  gather->set_unique_indices(true);
  OpMetadataProto* md = gather->mutable_metadata();
  md->set_source_file("model.py");
  md->set_source_line(42);
  NamedStringProto* attr = gather->add_frontend_attributes();
  attr->set_name("_xla_stream_annotation");
  attr->set_value("1");
  gather->set_sharding("{replicated}");
  NamedStringProto* unknown = gather->add_unknown_attributes();
  unknown->set_name("statistics_viz");
  unknown->set_value("{}");
  HloInstructionProto* scatter = c->add_instructions();
  scatter->set_opcode("scatter");
  scatter->set_id(4);
  scatter->mutable_scatter_dimension_numbers()->add_input_batching_dims(0);
  scatter->mutable_scatter_dimension_numbers()->add_scatter_indices_batching_dims(0);
  HloInstructionProto* conv = c->add_instructions();
  conv->set_opcode("convolution");
  conv->set_id(5);
  conv->mutable_convolution_dimension_numbers()->set_input_batch_dimension(1);
  conv->mutable_convolution_dimension_numbers()->set_output_batch_dimension(1);
  conv->mutable_window()->add_dimensions()->set_window_reversal(true);
  conv->add_operand_precision("HIGHEST");
  HloInstructionProto* all_reduce = c->add_instructions();
  all_reduce->set_opcode("all-reduce");
  all_reduce->set_id(6);
  for (int64_t first : {0, 1}) {
    ReplicaGroupProto* g = all_reduce->add_replica_groups();
    g->add_replica_ids(first);
    g->add_replica_ids(first + 2);
  }
  IotaReplicaGroupListProto* iota = all_reduce->mutable_iota_replica_group_list();
  iota->set_num_groups(2);
  iota->set_group_size(2);
  iota->add_reshape_dims(2);
  iota->add_reshape_dims(2);
  iota->add_transpose_perm(1);
  iota->add_transpose_perm(0);
  all_reduce->set_channel_id(3);
  all_reduce->set_use_global_device_ids(true);
  all_reduce->set_constrain_layout(true);
  HloInstructionProto* permute = c->add_instructions();
  permute->set_opcode("collective-permute");
  permute->set_id(7);
  SourceTargetPairProto* pair = permute->add_source_target_pairs();
  pair->set_source(1);
  pair->set_target(2);
  c->set_root_id(5);
  HloInputOutputAliasProto* alias = m->add_input_output_alias();
  alias->add_output_shape_index(2);
  alias->set_parameter_number(1);
  alias->add_parameter_shape_index(0);
  alias->set_must_alias(true);
  HloModuleConfigProto* config = with_config.mutable_config();
  config->set_replica_count(1);
  config->set_seed(42);
  NamedStringProto* option = config->add_debug_options();
  option->set_name("xla_cpu_enable_fast_math");
  option->set_value("false");
  return with_config;
}

// Every executable-level field (allocations, constants, entry interface,
// ABI, metadata) at a non-default value: one more round-trip case.
ExecutableProto PopulatedExecutable() {
  ExecutableProto e = Executable({Copy("copy.populated", 8)});
  // A second parameter (parameter_number 1, a shape index), a constant at a
  // non-zero binary offset, alignment, live-out flag.
  BufferAllocationProto* p1 = e.add_buffer_allocations();
  p1->set_index(3);
  p1->set_size(16);
  p1->set_kind(BufferAllocationProto::PARAMETER);
  p1->set_parameter_number(1);
  p1->add_parameter_shape_index(0);
  p1->set_alignment(64);
  EntryParameterProto* param = e.add_parameters();
  param->set_parameter_number(1);
  *param->mutable_shape() = Shape(S32, {4});
  *param->mutable_slice() = Slice(3, 0, 16);
  BufferAllocationProto* c = e.add_buffer_allocations();
  c->set_index(4);
  c->set_size(8);
  c->set_kind(BufferAllocationProto::CONSTANT);
  ConstantProto* constant = e.add_constants();
  constant->set_name("constant.1");
  constant->set_allocation_index(4);
  constant->set_binary_offset(8);
  constant->set_size(8);
  e.set_binary(
      std::string("\x01\x02\x03\x04\x05\x06\x07\x08"
                  "abcdefgh",
                  16));
  e.mutable_buffer_allocations(kOut)->set_maybe_live_out(true);
  // A tuple result: leaves carry shape indices.
  EntryResultProto* result = e.mutable_result();
  *result->mutable_shape() = ShapeProto();
  result->mutable_shape()->set_element_type(TUPLE);
  *result->mutable_shape()->add_tuple_shapes() = Shape(F32, {128});
  *result->mutable_shape()->add_tuple_shapes() = Shape(F32, {128});
  result->clear_leaves();
  for (int i = 0; i < 2; ++i) {
    OutputLeafProto* leaf = result->add_leaves();
    leaf->add_shape_index(i);
    *leaf->mutable_shape() = Shape(F32, {128});
    *leaf->mutable_slice() = Slice(kOut, i * 512, 512);
  }
  // A third leaf computed in the buffer of a third parameter (donation).
  BufferAllocationProto* p2 = e.add_buffer_allocations();
  p2->set_index(5);
  p2->set_size(512);
  p2->set_kind(BufferAllocationProto::PARAMETER);
  p2->set_parameter_number(2);
  p2->set_maybe_live_out(true);
  EntryParameterProto* param2 = e.add_parameters();
  param2->set_parameter_number(2);
  *param2->mutable_shape() = Shape(F32, {128});
  *param2->mutable_slice() = Slice(5, 0, 512);
  *result->mutable_shape()->add_tuple_shapes() = Shape(F32, {128});
  OutputLeafProto* aliased = result->add_leaves();
  aliased->add_shape_index(2);
  *aliased->mutable_shape() = Shape(F32, {128});
  *aliased->mutable_slice() = Slice(5, 0, 512);
  InputOutputAliasProto* alias = e.add_input_output_aliases();
  alias->set_result_leaf(2);
  alias->set_parameter_number(2);
  alias->set_kind(InputOutputAliasProto::MUST_ALIAS);
  AbiVersionProto* abi = e.mutable_abi_version();
  for (ToolchainVersionProto* t :
       {abi->mutable_llvm(), abi->mutable_cuda(), abi->mutable_cublas(), abi->mutable_ptxas()}) {
    t->mutable_built_with()->set_major(19);
    t->mutable_built_with()->set_minor(1);
    t->mutable_built_with()->set_patch(7);
  }
  // Minimums this runtime meets whatever it was built with.
  abi->mutable_llvm()->mutable_minimum()->set_major(19);
  abi->mutable_llvm()->mutable_minimum()->set_minor(1);
  abi->mutable_llvm()->mutable_minimum()->set_patch(0);
  ExecutableMetadataProto* md = e.mutable_metadata();
  md->set_compiler_version("v1-test");
  md->set_module_fingerprint("00ff");
  md->set_target_name("host-x86-64-v2");
  md->set_source_path("golden/modules/x.hlo");
  NamedStringProto* option = md->add_compile_options();
  option->set_name("fusion");
  option->set_value("off");
  *e.mutable_hlo_module() = PopulatedHloModule();
  return e;
}

TEST(ExecutableRoundTripTest, EveryExecutableLevelFieldRoundTrips) {
  ExecutableProto proto = PopulatedExecutable();
  auto client = Client::Create("host");
  ASSERT_TRUE(client.ok()) << client.status();
  auto executable = (*client)->Load(proto);
  ASSERT_TRUE(executable.ok()) << executable.status();
  EXPECT_EQ(Diff(proto, (*executable)->ToProto()), "");
}

// Load moves the constants' bytes out of `binary` on the host when they
// account for all of it; ToProto gives them back. Also when two constants
// name one allocation (valid, the last copy wins there), where the binary
// must stay as it was.
TEST(ExecutableRoundTripTest, ConstantBytesRoundTripWhetherOrNotLoadDropsThem) {
  auto client = Client::Create("host");
  ASSERT_TRUE(client.ok()) << client.status();
  for (bool shared : {false, true}) {
    SCOPED_TRACE(shared ? "two constants in one allocation" : "one constant per allocation");
    ExecutableProto e = Executable({Copy("copy.constants", 8)});
    for (int i = 0; i < 2; ++i) {
      BufferAllocationProto* a = e.add_buffer_allocations();
      a->set_index(3 + i);
      a->set_size(8);
      a->set_kind(BufferAllocationProto::CONSTANT);
      ConstantProto* c = e.add_constants();
      c->set_name(absl::StrCat("constant.", i));
      c->set_allocation_index(shared ? 3 : 3 + i);
      c->set_binary_offset(8 * i);
      c->set_size(8);
    }
    e.set_binary("abcdefgh12345678");
    auto executable = (*client)->Load(e);
    ASSERT_TRUE(executable.ok()) << executable.status();
    EXPECT_EQ((*executable)->proto().binary().empty(), !shared);
    EXPECT_EQ(Diff(e, (*executable)->ToProto()), "");
  }
}

// A CUDA executable (capability case `cuda`), loaded device-less so the
// test does not depend on which GPU, if any, is present.
ExecutableProto PopulatedCudaExecutable() {
  ExecutableProto e = Executable({Copy("copy.cuda", 8)});
  e.mutable_capability()->mutable_cuda()->set_major(8);
  e.mutable_capability()->mutable_cuda()->set_minor(6);
  return e;
}

TEST(ExecutableRoundTripTest, CudaExecutableRoundTripsDeviceLess) {
  if (!absl::c_linear_search(AvailablePlatforms(), "cuda")) {
    GTEST_SKIP() << "this runtime was built without the CUDA platform";
  }
  LoadOptions options;
  options.device_less = true;
  auto client = Client::Create("cuda", options);
  ASSERT_TRUE(client.ok()) << client.status();
  EXPECT_FALSE((*client)->platform()->CanExecute());
  ExecutableProto proto = PopulatedCudaExecutable();
  auto executable = (*client)->Load(proto);
  ASSERT_TRUE(executable.ok()) << executable.status();
  EXPECT_EQ(Diff(proto, (*executable)->ToProto()), "");
}

// Every golden artifact of the corpus, loaded on its platform (CUDA ones
// device-less) and serialized again: the store's blobs (binary, the build
// stamp cleared) and the text artifacts of per-file (format 1) versions.
struct GoldenRoundTrips {
  int checked = 0;
  std::vector<std::string> failures;  // "<path>: <why>"
  std::vector<std::string> skipped;   // "<path>: <why>" (e.g. ISA above this CPU)
  std::vector<ExecutableProto> round_tripped;
};

const GoldenRoundTrips& GoldenArtifacts() {
  static const GoldenRoundTrips* result = [] {
    auto* r = new GoldenRoundTrips();
    namespace fs = std::filesystem;
    std::vector<std::pair<std::string, ArtifactFormat>> paths;
    std::error_code ec;
    for (fs::recursive_directory_iterator it("golden/executables", ec), end; !ec && it != end;
         it.increment(ec)) {
      if (it->path().extension() == ".pbtxt") {
        paths.emplace_back(it->path().string(), ArtifactFormat::kText);
      }
    }
    std::sort(paths.begin(), paths.end());
    // Files of the store not named <sha256>.pb (a writer's leftovers) are
    // aot-compat fsck's to report, not artifacts.
    for (const BlobStore::Entry& blob : BlobStore("golden/store").List("artifacts")) {
      if (!blob.digest.empty()) paths.emplace_back(blob.path, ArtifactFormat::kBinary);
    }
    std::map<std::string, std::unique_ptr<Client>> clients;
    for (const auto& [path, format] : paths) {
      auto bytes = ReadFileToString(path);
      auto proto = bytes.ok() ? ParseExecutableProto(*bytes, format)
                              : absl::StatusOr<ExecutableProto>(bytes.status());
      if (!proto.ok()) {
        r->failures.push_back(absl::StrCat(path, ": ", proto.status().message()));
        continue;
      }
      std::string platform = proto->capability().has_cuda() ? "cuda" : "host";
      if (!absl::c_linear_search(AvailablePlatforms(), platform)) {
        r->skipped.push_back(absl::StrCat(path, ": no ", platform, " platform"));
        continue;
      }
      std::unique_ptr<Client>& client = clients[platform];
      if (client == nullptr) {
        LoadOptions options;
        options.device_less = true;
        auto created = Client::Create(platform, options);
        if (!created.ok()) {
          r->failures.push_back(absl::StrCat(path, ": ", created.status().message()));
          continue;
        }
        client = *std::move(created);
      }
      auto executable = client->Load(*proto);
      if (!executable.ok()) {
        // An ISA level above this CPU is a capability mismatch, not a
        // round-trip failure.
        (absl::IsFailedPrecondition(executable.status()) ? r->skipped : r->failures)
            .push_back(absl::StrCat(path, ": ", executable.status().message()));
        continue;
      }
      ++r->checked;
      if (std::string diff = Diff(*proto, (*executable)->ToProto()); !diff.empty()) {
        r->failures.push_back(absl::StrCat(path, ": ToProto differs:\n", diff));
        continue;
      }
      r->round_tripped.push_back(*std::move(proto));
    }
    return r;
  }();
  return *result;
}

TEST(GoldenRoundTripTest, EveryGoldenArtifactRoundTrips) {
  const GoldenRoundTrips& goldens = GoldenArtifacts();
  EXPECT_THAT(goldens.failures, IsEmpty());
  EXPECT_GT(goldens.checked, 0)
      << "no golden artifacts under golden/store/artifacts or golden/executables";
  std::cout << goldens.checked << " golden artifacts round-tripped\n";
  for (const std::string& s : goldens.skipped) std::cout << "skipped " << s << "\n";
}

// --- Coverage -------------------------------------------------------------

bool IsNonDefault(const Message& m, const FieldDescriptor* f) {
  const Reflection* r = m.GetReflection();
  if (f->is_repeated()) return r->FieldSize(m, f) > 0;
  if (!r->HasField(m, f)) return false;
  switch (f->cpp_type()) {
    case FieldDescriptor::CPPTYPE_INT32:
      return r->GetInt32(m, f) != 0;
    case FieldDescriptor::CPPTYPE_INT64:
      return r->GetInt64(m, f) != 0;
    case FieldDescriptor::CPPTYPE_UINT32:
      return r->GetUInt32(m, f) != 0;
    case FieldDescriptor::CPPTYPE_UINT64:
      return r->GetUInt64(m, f) != 0;
    case FieldDescriptor::CPPTYPE_DOUBLE:
      return r->GetDouble(m, f) != 0;
    case FieldDescriptor::CPPTYPE_FLOAT:
      return r->GetFloat(m, f) != 0;
    case FieldDescriptor::CPPTYPE_BOOL:
      return r->GetBool(m, f);
    case FieldDescriptor::CPPTYPE_ENUM:
      return r->GetEnumValue(m, f) != 0;
    case FieldDescriptor::CPPTYPE_STRING:
      return !r->GetString(m, f).empty();
    case FieldDescriptor::CPPTYPE_MESSAGE:
      return true;
  }
  return false;
}

// Adds the full name of every field set to a non-default value anywhere in
// `m` (recursively) to `covered`.
void CollectCovered(const Message& m, std::set<std::string>* covered) {
  const Reflection* r = m.GetReflection();
  const Descriptor* d = m.GetDescriptor();
  for (int i = 0; i < d->field_count(); ++i) {
    const FieldDescriptor* f = d->field(i);
    if (!IsNonDefault(m, f)) continue;
    covered->insert(f->full_name());
    if (f->cpp_type() != FieldDescriptor::CPPTYPE_MESSAGE) continue;
    if (f->is_repeated()) {
      for (int j = 0; j < r->FieldSize(m, f); ++j)
        CollectCovered(r->GetRepeatedMessage(m, f, j), covered);
    } else {
      CollectCovered(r->GetMessage(m, f), covered);
    }
  }
}

// The fields (oneof cases included) of messages reachable from `root`, in
// any file, that `covered` lacks, sorted. Works on any descriptor pool, so a
// modified schema can be fed to it.
std::vector<std::string> UncoveredFields(const Descriptor* root,
                                         const std::set<std::string>& covered) {
  std::set<std::string> missing;
  std::set<const Descriptor*> seen;
  std::vector<const Descriptor*> stack = {root};
  while (!stack.empty()) {
    const Descriptor* d = stack.back();
    stack.pop_back();
    if (!seen.insert(d).second) continue;
    for (int i = 0; i < d->field_count(); ++i) {
      const FieldDescriptor* f = d->field(i);
      if (!covered.count(f->full_name())) missing.insert(f->full_name());
      if (f->message_type() != nullptr) stack.push_back(f->message_type());
    }
  }
  return {missing.begin(), missing.end()};
}

std::set<std::string> CoveredByAllCases() {
  std::set<std::string> covered;
  for (const RoundTripCase& c : Cases()) CollectCovered(c.make(), &covered);
  CollectCovered(PopulatedExecutable(), &covered);
  // The collective cases round-trip inside an executable with this device
  // assignment (FromProtoThenToProtoIsIdentity compares the whole proto).
  ExecutableProto assigned = Executable({});
  SetDeviceAssignment(&assigned);
  CollectCovered(assigned, &covered);
  if (absl::c_linear_search(AvailablePlatforms(), "cuda")) {
    CollectCovered(PopulatedCudaExecutable(), &covered);
  }
  for (const ExecutableProto& e : GoldenArtifacts().round_tripped) CollectCovered(e, &covered);
  return covered;
}

// --- Tests ----------------------------------------------------------------

class RoundTripTest : public ::testing::TestWithParam<RoundTripCase> {};

TEST_P(RoundTripTest, FromProtoThenToProtoIsIdentity) {
  ThunkProto thunk = GetParam().make();
  ASSERT_EQ(thunk.impl_case(),
            ThunkProto::descriptor()->FindFieldByName(GetParam().kind)->number());
  ExecutableProto proto = Executable({thunk});
  if (GetParam().collective) SetDeviceAssignment(&proto);
  LoadOptions options;
  options.enable_command_buffers = false;  // keep the thunk as serialized
  auto client = Client::Create("host", options);
  ASSERT_TRUE(client.ok()) << client.status();
  auto executable = (*client)->Load(proto);
  ASSERT_TRUE(executable.ok()) << executable.status();
  ExecutableProto again = (*executable)->ToProto();
  ASSERT_EQ(again.thunks_size(), 1);
  EXPECT_EQ(Diff(thunk, again.thunks(0)), "") << GetParam().kind;
  // The rest of the executable round-trips too.
  EXPECT_EQ(Diff(proto, again), "");
}

INSTANTIATE_TEST_SUITE_P(EveryThunkKind, RoundTripTest, ::testing::ValuesIn(Cases()),
                         [](const ::testing::TestParamInfo<RoundTripCase>& info) {
                           return info.param.kind;
                         });

TEST(RoundTripCoverageTest, EveryThunkKindHasACase) {
  std::vector<std::string> kinds;
  for (const RoundTripCase& c : Cases()) kinds.push_back(c.kind);
  std::sort(kinds.begin(), kinds.end());
  EXPECT_EQ(kinds, ThunkRegistry::Global().KindNames());
  const google::protobuf::OneofDescriptor* impl = ThunkProto::descriptor()->FindOneofByName("impl");
  ASSERT_NE(impl, nullptr);
  EXPECT_EQ(impl->field_count(), static_cast<int>(kinds.size()));
}

TEST(RoundTripCoverageTest, EveryReachableFieldIsSetBySomeCase) {
  // From the top-level container: every message it reaches, in every file
  // (thunks, the embedded HLO module, the capability).
  EXPECT_THAT(UncoveredFields(ExecutableProto::descriptor(), CoveredByAllCases()), IsEmpty())
      << "add the field to a round-trip case in runtime/executable/round_trip_test.cc";
}

// The mechanism: a ThunkProto with a new field in CopyThunkProto and a new
// thunk kind (as a later schema would have) is reported as uncovered.
TEST(RoundTripCoverageTest, ANewFieldWithoutACaseIsReported) {
  google::protobuf::FileDescriptorProto file;
  ThunkProto::descriptor()->file()->CopyTo(&file);
  bool edited = false;
  for (google::protobuf::DescriptorProto& m : *file.mutable_message_type()) {
    if (m.name() == "CopyThunkProto") {
      google::protobuf::FieldDescriptorProto* f = m.add_field();
      f->set_name("alignment_hint");
      f->set_number(3);
      f->set_type(google::protobuf::FieldDescriptorProto::TYPE_INT64);
      f->set_label(google::protobuf::FieldDescriptorProto::LABEL_OPTIONAL);
      edited = true;
    }
    if (m.name() == "ThunkProto") {
      google::protobuf::FieldDescriptorProto* f = m.add_field();
      f->set_name("fused_attention");
      f->set_number(49);
      f->set_type(google::protobuf::FieldDescriptorProto::TYPE_MESSAGE);
      f->set_type_name(".aot.CopyThunkProto");
      f->set_label(google::protobuf::FieldDescriptorProto::LABEL_OPTIONAL);
      f->set_oneof_index(0);
    }
  }
  ASSERT_TRUE(edited);
  // A fresh pool with the real imports (dependencies first) and the edited
  // file in place of proto/executable.proto.
  google::protobuf::DescriptorPool pool;
  std::set<std::string> built_files;
  std::function<void(const google::protobuf::FileDescriptor*)> add_deps =
      [&](const google::protobuf::FileDescriptor* f) {
        for (int i = 0; i < f->dependency_count(); ++i) {
          const google::protobuf::FileDescriptor* dep = f->dependency(i);
          if (!built_files.insert(dep->name()).second) continue;
          add_deps(dep);
          google::protobuf::FileDescriptorProto dep_proto;
          dep->CopyTo(&dep_proto);
          ASSERT_NE(pool.BuildFile(dep_proto), nullptr) << dep->name();
        }
      };
  add_deps(ThunkProto::descriptor()->file());
  const google::protobuf::FileDescriptor* built = pool.BuildFile(file);
  ASSERT_NE(built, nullptr);
  const Descriptor* root = built->FindMessageTypeByName("ThunkProto");
  ASSERT_NE(root, nullptr);
  std::set<std::string> covered = CoveredByAllCases();
  EXPECT_THAT(UncoveredFields(root, covered),
              ElementsAre("aot.CopyThunkProto.alignment_hint", "aot.ThunkProto.fused_attention"));
}

}  // namespace
}  // namespace aot
