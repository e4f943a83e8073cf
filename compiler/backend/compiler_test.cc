// End to end: every corpus module compiled for the host, serialized,
// loaded by the runtime, executed, and compared with the interpreter.
#include "compiler/backend/compiler.h"

#include <cmath>
#include <cstring>
#include <filesystem>
#include <functional>
#include <limits>
#include <numeric>
#include <optional>

#include "absl/algorithm/container.h"
#include "absl/strings/str_cat.h"
#include "compiler/backend/embedded_constants.h"
#include "compiler/hlo/hlo_parser.h"
#include "compiler/hlo/hlo_sharding.h"
#include "compiler/interpreter/evaluator.h"
#include "compiler/interpreter/replicated_evaluator.h"
#include "compiler/passes/spmd_partitioner.h"
#include "compiler/rollout/emission_ledger.h"
#include "compiler/target/target_config.h"
#include "compiler/tooling/literal_execution.h"
#include "compiler/tooling/random_literal.h"
#include "compiler/verifier/hlo_verifier.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "runtime/executable/client.h"
#include "runtime/kernel_payload.h"
#include "runtime/shape_util.h"
#include "support/file_io.h"

namespace aot {
namespace {

using ::testing::HasSubstr;

std::vector<std::filesystem::path> CorpusFiles() {
  std::vector<std::filesystem::path> files;
  for (const auto& entry : std::filesystem::recursive_directory_iterator("golden/modules")) {
    if (entry.path().extension() == ".hlo") files.push_back(entry.path());
  }
  std::sort(files.begin(), files.end());
  return files;
}

// The options a corpus module compiles with, as its golden targets set: a
// module of several replicas (the collectives suite) needs
// emit_collectives, one with complex or narrow values (complex_types,
// narrow_types) emit_extended_element_types, one whose entry packs a
// sub-byte type (packed_types) emit_packed_sub_byte_layouts too; one with
// an input_output_alias (aliasing) emit_input_output_alias, and one with an
// opcode a flag gates (inverse_math; rng_state, whose rng becomes
// rng-get-and-update-state) or a custom-call target one gates (lapack)
// that flag.
CompileOptions CorpusCompileOptions(const HloModule& module) {
  CompileOptions options;
  auto add = [&](const std::string& flag) {
    if (!absl::c_linear_search(options.emission_flags, flag)) {
      options.emission_flags.push_back(flag);
    }
  };
  if (module.config().replica_count > 1 || module.config().num_partitions > 1) {
    add("emit_collectives");
  }
  if (!module.config().input_output_aliases.empty()) add("emit_input_output_alias");
  const ProgramShape abi =
      module.config().entry_computation_layout.value_or(module.EntryProgramShape());
  bool packed = HasPackedLeaf(abi.result);
  for (const Shape& p : abi.parameters) packed |= HasPackedLeaf(p);
  if (packed) add("emit_packed_sub_byte_layouts");
  for (const HloComputation* c : module.computations()) {
    for (const HloInstruction* h : c->instructions()) {
      if (HasComplexLeaf(h->shape()) || HasNarrowLeaf(h->shape())) {
        add("emit_extended_element_types");
      }
      if (h->opcode() == HloOpcode::kRng) add("emit_rng_state");
      if (h->opcode() == HloOpcode::kCustomCall) {
        if (const EmissionFlag* f = EmissionFlagForCustomCall(h->attrs().custom_call_target)) {
          add(f->name);
        }
      }
      if (const EmissionFlag* f = EmissionFlagForOpcode(HloOpcodeString(h->opcode()))) {
        add(f->name);
      }
    }
  }
  return options;
}

std::unique_ptr<HloModule> Parse(const std::filesystem::path& path) {
  auto text = ReadFileToString(path.string());
  EXPECT_TRUE(text.ok()) << text.status();
  auto module = ParseHloModule(*text);
  EXPECT_TRUE(module.ok()) << path << ": " << module.status();
  return module.ok() ? *std::move(module) : nullptr;
}

TEST(CompilerTest, EveryCorpusModuleMatchesTheInterpreterOnHost) {
  auto target = ShippedTargetConfig("host-x86-64-v2");
  ASSERT_TRUE(target.ok());
  auto client = Client::Create("host");
  ASSERT_TRUE(client.ok());
  int checked = 0;
  for (const auto& path : CorpusFiles()) {
    SCOPED_TRACE(path.string());
    auto module = Parse(path);
    ASSERT_NE(module, nullptr);
    if (module->config().replica_count > 1) continue;   // MultiReplicaCorpusModules...
    if (module->config().num_partitions > 1) continue;  // SpmdCorpusModules...
    const CompileOptions options = CorpusCompileOptions(*module);
    auto compiled = Compile(*module, *target, options);
    ASSERT_TRUE(compiled.ok()) << compiled.status();
    // Through bytes, as a deployment would.
    auto executable = (*client)->DeserializeExecutable((*compiled)->SerializeAsString());
    ASSERT_TRUE(executable.ok()) << executable.status();
    std::vector<Literal> args = RandomArguments(*module, 7);
    HloEvaluator evaluator;
    auto expected = evaluator.Evaluate(*module, args);
    ASSERT_TRUE(expected.ok()) << expected.status();
    // Deserialize -> serialize is the identity on the bytes.
    EXPECT_EQ((*executable)->SerializeExecutable(), (*compiled)->SerializeAsString());
    auto actual = ExecuteWithLiterals(**executable, args);
    ASSERT_TRUE(actual.ok()) << actual.status();
    EXPECT_TRUE(CompareLiteralsWithDefaultTolerance(*expected, *actual).ok())
        << CompareLiteralsWithDefaultTolerance(*expected, *actual);
    ++checked;
    // The prepared (steady-state) path gives the same bytes, run after run
    // on the reused arena; a module drawing from the executable's random
    // state (rng_state) draws anew each run, so only its first run compares.
    if (absl::c_linear_search(options.emission_flags, "emit_rng_state")) continue;
    auto prepared = PreparedExecution::Create(**executable, args);
    ASSERT_TRUE(prepared.ok()) << prepared.status();
    std::vector<const Literal*> leaves = actual->Leaves();
    for (int run = 0; run < 2; ++run) {
      ASSERT_TRUE(prepared->Run().ok());
      ASSERT_EQ(prepared->results().size(), leaves.size());
      for (size_t i = 0; i < leaves.size(); ++i) {
        std::vector<uint8_t> logical(leaves[i]->raw().size());
        runtime_shape::PhysicalToLogical((*executable)->result().leaves(i).shape(),
                                         prepared->results()[i].data(), logical.data());
        EXPECT_EQ(logical, leaves[i]->raw()) << "leaf " << i << ", run " << run;
      }
    }
  }
  EXPECT_GE(checked, 25);
}

// Two conditionals run the same branch computations (as inlining one
// function twice leaves them); the second predicate is computed from a
// value that is still live while the first conditional's branches run. The
// compiler gives each site its own computation (FlattenCallGraph): before
// that, both sites used the slices of the last one visited, and the first
// conditional's branch overwrote the live value.
TEST(CompilerTest, ConditionalsSharingBranchComputationsMatchTheInterpreter) {
  constexpr char kHlo[] = R"(
HloModule shared_branches

b0 {
  p = (f32[4]) parameter(0)
  x = f32[4] get-tuple-element(p), index=0
  one = f32[] constant(1)
  ones = f32[4] broadcast(one), dimensions={}
  ROOT r = f32[4] subtract(x, ones)
}

b1 {
  p = (f32[4]) parameter(0)
  x = f32[4] get-tuple-element(p), index=0
  ROOT r = f32[4] multiply(x, x)
}

add {
  a = f32[] parameter(0)
  b = f32[] parameter(1)
  ROOT s = f32[] add(a, b)
}

ENTRY main {
  x = f32[4] parameter(0)
  zero = f32[] constant(0)
  sum = f32[] reduce(x, zero), dimensions={0}, to_apply=add
  high = f32[] constant(10)
  p0 = pred[] compare(sum, high), direction=GT
  i0 = s32[] convert(p0)
  t = (f32[4]) tuple(x)
  c0 = f32[4] conditional(i0, t, t), branch_computations={b0, b1}
  p1 = pred[] compare(sum, zero), direction=GT
  i1 = s32[] convert(p1)
  c1 = f32[4] conditional(i1, t, t), branch_computations={b0, b1}
  ROOT r = (f32[4], f32[4]) tuple(c0, c1)
})";
  auto module = ParseHloModule(kHlo);
  ASSERT_TRUE(module.ok()) << module.status();
  auto target = ShippedTargetConfig("host-x86-64-v2");
  ASSERT_TRUE(target.ok());
  auto compiled = Compile(**module, *target, CompileOptions());
  ASSERT_TRUE(compiled.ok()) << compiled.status();
  auto client = Client::Create("host");
  ASSERT_TRUE(client.ok());
  auto executable = (*client)->DeserializeExecutable((*compiled)->SerializeAsString());
  ASSERT_TRUE(executable.ok()) << executable.status();
  std::vector<Literal> args;
  args.push_back(Literal::FromDoubles(Shape(F32, {4}), {1, -2, 3, 0.5}));
  HloEvaluator evaluator;
  auto expected = evaluator.Evaluate(**module, args);
  ASSERT_TRUE(expected.ok()) << expected.status();
  // sum = 2.5: the first conditional takes b0, the second b1.
  EXPECT_EQ(expected->tuple_element(1).GetAsDouble(0), 1.0);
  auto actual = ExecuteWithLiterals(**executable, args);
  ASSERT_TRUE(actual.ok()) << actual.status();
  EXPECT_TRUE(CompareLiteralsWithDefaultTolerance(*expected, *actual).ok())
      << CompareLiteralsWithDefaultTolerance(*expected, *actual);
}

// A typed-FFI custom call's attributes reach its handler by name: aot.topk
// reads k from the attribute (its backend_config text is not a number).
TEST(CompilerTest, TypedFfiCustomCallsCarryTheirAttributesToTheHandler) {
  auto module = ParseHloModule(R"(
HloModule typed_ffi

ENTRY e {
  x = f32[2,4] parameter(0)
  ROOT t = (f32[2,2], s32[2,2]) custom-call(x), custom_call_target="aot.topk",
    api_version=API_VERSION_TYPED_FFI, backend_config={k = 2 : i64}
})");
  ASSERT_TRUE(module.ok()) << module.status();
  auto target = ShippedTargetConfig("host-x86-64-v2");
  ASSERT_TRUE(target.ok());
  auto compiled = Compile(**module, *target, CompileOptions());
  ASSERT_TRUE(compiled.ok()) << compiled.status();
  const CustomCallThunkProto* call = nullptr;
  for (const ThunkProto& t : (*compiled)->proto().thunks()) {
    if (t.has_custom_call()) call = &t.custom_call();
  }
  ASSERT_NE(call, nullptr);
  EXPECT_EQ(call->api_version(), CustomCallThunkProto::API_VERSION_TYPED_FFI);
  ASSERT_EQ(call->attributes_size(), 1);
  EXPECT_EQ(call->attributes(0).name(), "k");
  EXPECT_EQ(call->attributes(0).i64(), 2);
  auto client = Client::Create("host");
  ASSERT_TRUE(client.ok());
  auto executable = (*client)->DeserializeExecutable((*compiled)->SerializeAsString());
  ASSERT_TRUE(executable.ok()) << executable.status();
  std::vector<Literal> args;
  args.push_back(Literal::FromDoubles(Shape(F32, {2, 4}), {1, 5, 3, 2, -1, -4, 0, 7}));
  auto actual = ExecuteWithLiterals(**executable, args);
  ASSERT_TRUE(actual.ok()) << actual.status();
  EXPECT_EQ(actual->tuple_element(0).GetAsDouble(0), 5);
  EXPECT_EQ(actual->tuple_element(0).GetAsDouble(1), 3);
  EXPECT_EQ(actual->tuple_element(0).GetAsDouble(2), 7);
  EXPECT_EQ(actual->tuple_element(1).GetAsInt64(3), 2);
}

// The module for `n` partitions: each tiled sharding (written for the
// module's own count) with its last split dimension scaled down, devices in
// order. nullptr where a sharding does not scale.
std::unique_ptr<HloModule> ForPartitions(const HloModule& module, int64_t n) {
  std::unique_ptr<HloModule> out = module.Clone();
  const int64_t own = module.config().num_partitions;
  if (own % n != 0) return nullptr;
  const int64_t factor = own / n;
  out->mutable_config()->num_partitions = n;
  std::function<std::optional<HloSharding>(const HloSharding&)> scale =
      [&](const HloSharding& s) -> std::optional<HloSharding> {
    if (s.kind() == HloSharding::Kind::kTuple) {
      std::vector<HloSharding> elements;
      for (const HloSharding& e : s.tuple_elements()) {
        std::optional<HloSharding> scaled = scale(e);
        if (!scaled) return std::nullopt;
        elements.push_back(*scaled);
      }
      return HloSharding::Tuple(std::move(elements));
    }
    if (!s.IsTiled() || factor == 1) return s;
    std::vector<int64_t> dims = s.tile_dims();
    for (int64_t i = static_cast<int64_t>(dims.size()) - 1; i >= 0; --i) {
      if (dims[i] > 1 && dims[i] % factor == 0) {
        dims[i] /= factor;
        std::vector<int64_t> devices(n);
        std::iota(devices.begin(), devices.end(), 0);
        return HloSharding::Tiled(dims, devices, s.replicate_on_last_tile_dim());
      }
    }
    return std::nullopt;
  };
  for (HloComputation* c : out->computations()) {
    for (HloInstruction* h : c->instructions()) {
      if (h->attrs().sharding.empty()) continue;
      auto parsed = HloSharding::Parse(h->attrs().sharding);
      if (!parsed.ok()) return nullptr;
      std::optional<HloSharding> scaled = scale(*parsed);
      if (!scaled) return nullptr;
      h->mutable_attrs()->sharding = scaled->ToString();
    }
  }
  return out;
}

// The spmd suite at 2, 4 and 8 partitions (its shardings, written for 8,
// scaled down): every module partitioned, compiled for the host with
// emit_collectives, run as one participant per partition on its tiles of
// the arguments; the assembled result matches the single-device
// interpreter.
TEST(CompilerTest, SpmdCorpusModulesMatchTheSingleDeviceInterpreterAt2And4And8Partitions) {
  auto target = ShippedTargetConfig("host-x86-64-v2");
  ASSERT_TRUE(target.ok());
  auto client = Client::Create("host");
  ASSERT_TRUE(client.ok());
  int checked = 0, split_parameters = 0;
  for (const auto& path : CorpusFiles()) {
    if (path.parent_path().filename() != "spmd") continue;
    auto written = Parse(path);
    ASSERT_NE(written, nullptr);
    ASSERT_EQ(written->config().num_partitions, 8) << path;
    for (int64_t n : {2, 4, 8}) {
      SCOPED_TRACE(absl::StrCat(path.string(), " at ", n, " partitions"));
      std::unique_ptr<HloModule> module = ForPartitions(*written, n);
      ASSERT_NE(module, nullptr);
      ASSERT_TRUE(VerifyHloModule(*module).ok()) << VerifyHloModule(*module);
      std::unique_ptr<HloModule> single = module->Clone();
      single->mutable_config()->num_partitions = 1;
      std::vector<Literal> args = RandomArguments(*single, 11);
      HloEvaluator evaluator;
      auto expected = evaluator.Evaluate(*single, args);
      ASSERT_TRUE(expected.ok()) << expected.status();
      auto partitioned = PartitionSpmd(*module, n);
      ASSERT_TRUE(partitioned.ok()) << partitioned.status();
      CompileOptions options;
      options.emission_flags = {"emit_collectives"};
      auto compiled = Compile(*partitioned->module, *target, options);
      ASSERT_TRUE(compiled.ok()) << compiled.status();
      EXPECT_EQ((*compiled)->proto().device_assignment().partition_count(), n);
      // Each partition's parameter buffers hold its tile: the full array's
      // bytes over the data tiles (of the array padded to whole tiles).
      for (const BufferAllocationProto& a : (*compiled)->proto().buffer_allocations()) {
        if (a.kind() != BufferAllocationProto::PARAMETER || a.parameter_shape_index_size() > 0) {
          continue;
        }
        const HloSharding& sh = partitioned->parameter_shardings.at(a.parameter_number());
        const Shape& whole = args.at(a.parameter_number()).shape();
        int64_t padded = 1;
        for (size_t d = 0; d < whole.dimensions().size(); ++d) {
          const int64_t tiles = sh.IsTiled() ? sh.tile_dims()[d] : 1;
          padded *= (whole.dimensions()[d] + tiles - 1) / tiles * tiles;
        }
        const int64_t bytes = padded * ByteWidth(whole.element_type());
        EXPECT_EQ(a.size() * (sh.IsTiled() ? sh.DataTileCount() : 1), bytes)
            << "parameter " << a.parameter_number();
        if (sh.IsTiled() && sh.DataTileCount() > 1) ++split_parameters;
      }
      auto executable = (*client)->DeserializeExecutable((*compiled)->SerializeAsString());
      ASSERT_TRUE(executable.ok()) << executable.status();
      auto per_partition = SplitArguments(args, *partitioned);
      ASSERT_TRUE(per_partition.ok()) << per_partition.status();
      auto results = ExecuteReplicatedWithLiterals(**executable, *per_partition);
      ASSERT_TRUE(results.ok()) << results.status();
      auto assembled = AssembleTiles(*results, expected->shape(), partitioned->result_sharding);
      ASSERT_TRUE(assembled.ok()) << assembled.status();
      EXPECT_TRUE(CompareLiteralsWithDefaultTolerance(*expected, *assembled).ok())
          << CompareLiteralsWithDefaultTolerance(*expected, *assembled);
      ++checked;
    }
  }
  EXPECT_GE(checked, 14 * 3);
  EXPECT_GE(split_parameters, 14 * 3);
}

// The collectives suite (emit_collectives on): every module, compiled for
// the host with 2, 4 and 8 replicas (where its groups allow: the verifier
// refuses groups that do not fit), runs on that many threads and matches
// the multi-replica interpreter replica by replica. Each module runs with
// its own replica count at least.
TEST(CompilerTest, MultiReplicaCorpusModulesMatchTheInterpreterWith2And4And8Replicas) {
  auto target = ShippedTargetConfig("host-x86-64-v2");
  ASSERT_TRUE(target.ok());
  auto client = Client::Create("host");
  ASSERT_TRUE(client.ok());
  CompileOptions options;
  options.emission_flags = {"emit_collectives"};
  int modules = 0, runs = 0;
  for (const auto& path : CorpusFiles()) {
    auto module = Parse(path);
    ASSERT_NE(module, nullptr);
    if (module->config().replica_count <= 1) continue;
    ++modules;
    const int64_t own = module->config().replica_count;
    for (int64_t replicas : {2, 4, 8}) {
      SCOPED_TRACE(absl::StrCat(path.string(), " with ", replicas, " replicas"));
      module->mutable_config()->replica_count = replicas;
      auto compiled = Compile(*module, *target, options);
      if (!compiled.ok() && replicas != own &&
          compiled.status().code() == absl::StatusCode::kInvalidArgument) {
        continue;  // groups or shapes written for another replica count (the verifier)
      }
      ASSERT_TRUE(compiled.ok()) << compiled.status();
      EXPECT_EQ((*compiled)->proto().device_assignment().replica_count(), replicas);
      auto executable = (*client)->DeserializeExecutable((*compiled)->SerializeAsString());
      ASSERT_TRUE(executable.ok()) << executable.status();
      std::vector<std::vector<Literal>> args;
      for (int64_t r = 0; r < replicas; ++r) args.push_back(RandomArguments(*module, 7 + r));
      auto expected = EvaluateReplicated(*module, args);
      ASSERT_TRUE(expected.ok()) << expected.status();
      auto actual = ExecuteReplicatedWithLiterals(**executable, args);
      ASSERT_TRUE(actual.ok()) << actual.status();
      ASSERT_EQ(actual->size(), static_cast<size_t>(replicas));
      for (int64_t r = 0; r < replicas; ++r) {
        EXPECT_TRUE(CompareLiteralsWithDefaultTolerance((*expected)[r], (*actual)[r]).ok())
            << "replica " << r << ": "
            << CompareLiteralsWithDefaultTolerance((*expected)[r], (*actual)[r]);
      }
      ++runs;
    }
    module->mutable_config()->replica_count = own;
    // Device-less for CUDA too.
    auto h100 = ShippedTargetConfig("h100");
    ASSERT_TRUE(h100.ok());
    CompileOptions cuda = options;
    cuda.compile_cubin = false;
    auto on_cuda = Compile(*module, *h100, cuda);
    EXPECT_TRUE(on_cuda.ok()) << path << ": " << on_cuda.status();
  }
  EXPECT_GE(modules, 8);
  // Each at its own count, and those whose groups and shapes allow it at 2
  // or 8 replicas too (7 more runs today).
  EXPECT_GE(runs, modules + 7);
}

// Off by default: a module with collectives, or of several replicas, does
// not compile; the error names the flag as the command line takes it and
// the date it may turn on by default.
TEST(CompilerTest, CollectivesNeedTheirEmissionFlag) {
  auto target = ShippedTargetConfig("host-x86-64-v2");
  ASSERT_TRUE(target.ok());
  for (const char* name : {"golden/modules/collectives/all_reduce_sum.hlo",
                           "golden/modules/collectives/replica_id_scale.hlo"}) {
    SCOPED_TRACE(name);
    auto module = Parse(name);
    ASSERT_NE(module, nullptr);
    auto compiled = Compile(*module, *target);
    ASSERT_FALSE(compiled.ok());
    EXPECT_EQ(compiled.status().code(), absl::StatusCode::kUnimplemented);
    EXPECT_THAT(compiled.status().message(), HasSubstr("--xla_aot_emit_collectives=true"));
    EXPECT_THAT(compiled.status().message(), HasSubstr("off by default until 2026-12-17"));
  }
  // One replica, the flag off: an all-reduce is still a collective opcode.
  auto single = ParseHloModule(R"(
HloModule m
add {
  a = f32[] parameter(0)
  b = f32[] parameter(1)
  ROOT s = f32[] add(a, b)
}
ENTRY e {
  x = f32[4] parameter(0)
  ROOT r = f32[4] all-reduce(x), replica_groups={}, to_apply=add
})");
  ASSERT_TRUE(single.ok()) << single.status();
  EXPECT_THAT(Compile(**single, *target).status().message(),
              HasSubstr("instruction 'r' (all-reduce)"));
  // On: one participant, no device assignment, the thunk runs as a copy.
  CompileOptions options;
  options.emission_flags = {"emit_collectives"};
  auto compiled = Compile(**single, *target, options);
  ASSERT_TRUE(compiled.ok()) << compiled.status();
  EXPECT_FALSE((*compiled)->proto().has_device_assignment());
  auto client = Client::Create("host");
  ASSERT_TRUE(client.ok());
  auto executable = (*client)->DeserializeExecutable((*compiled)->SerializeAsString());
  ASSERT_TRUE(executable.ok()) << executable.status();
  std::vector<Literal> args = RandomArguments(**single, 3);
  auto out = ExecuteWithLiterals(**executable, args);
  ASSERT_TRUE(out.ok()) << out.status();
  EXPECT_TRUE(CompareLiterals(args[0], *out, Tolerance{}).ok());
}

TEST(CompilerTest, CompilationIsDeterministic) {
  auto target = ShippedTargetConfig("host-x86-64-v3");
  ASSERT_TRUE(target.ok());
  for (const char* name : {"golden/modules/dot/mlp.hlo", "golden/modules/normalization/softmax.hlo",
                           "golden/modules/control_flow/while_loop.hlo"}) {
    auto module = Parse(name);
    ASSERT_NE(module, nullptr);
    auto a = Compile(*module, *target);
    auto b = Compile(*module, *target);
    ASSERT_TRUE(a.ok() && b.ok()) << name;
    EXPECT_EQ((*a)->SerializeAsString(), (*b)->SerializeAsString()) << name;
    // Kernels compile in parallel: one thread or four, the same bytes.
    for (int threads : {1, 4}) {
      CompileOptions options;
      options.compile_threads = threads;
      auto c = Compile(*module, *target, options);
      ASSERT_TRUE(c.ok()) << name;
      EXPECT_EQ((*a)->SerializeAsString(), (*c)->SerializeAsString()) << name << ", " << threads;
    }
  }
}

TEST(CompilerTest, UnsupportedCustomCallNamesTheInstruction) {
  auto module = ParseHloModule(R"(
HloModule m
ENTRY e {
  p = f32[4] parameter(0)
  ROOT c = f32[4] custom-call(p), custom_call_target="acme.fft"
})");
  ASSERT_TRUE(module.ok());
  auto compiled = Compile(**module, *ShippedTargetConfig("host-x86-64-v2"));
  ASSERT_FALSE(compiled.ok());
  EXPECT_THAT(std::string(compiled.status().message()),
              HasSubstr("instruction 'c' (custom-call): custom-call target 'acme.fft'"));
}

TEST(CompilerTest, IllTypedModuleIsRejectedNamingTheInstruction) {
  auto module = ParseHloModule(R"(
HloModule m
ENTRY e {
  p = f32[4] parameter(0)
  q = s32[4] parameter(1)
  ROOT a = f32[4] add(p, q)
})");
  ASSERT_TRUE(module.ok());
  auto compiled = Compile(**module, *ShippedTargetConfig("host-x86-64-v2"));
  ASSERT_FALSE(compiled.ok());
  EXPECT_THAT(std::string(compiled.status().message()), HasSubstr("'a'"));
}

}  // namespace
}  // namespace aot

namespace aot {
namespace {

TEST(CompilerTest, ComparisonCatchesWrongResults) {
  auto module = Parse("golden/modules/elementwise/add_mul.hlo");
  ASSERT_NE(module, nullptr);
  auto compiled = Compile(*module, *ShippedTargetConfig("host-x86-64-v2"));
  ASSERT_TRUE(compiled.ok()) << compiled.status();
  auto client = Client::Create("host");
  auto executable = (*compiled)->LoadExecutable(**client);
  ASSERT_TRUE(executable.ok()) << executable.status();
  HloEvaluator evaluator;
  auto expected = evaluator.Evaluate(*module, RandomArguments(*module, 7));
  auto actual = ExecuteWithLiterals(**executable, RandomArguments(*module, 8));
  ASSERT_TRUE(expected.ok() && actual.ok());
  absl::Status diff = CompareLiteralsWithDefaultTolerance(*expected, *actual);
  EXPECT_FALSE(diff.ok());
  EXPECT_THAT(std::string(diff.message()), HasSubstr("elements differ"));
}

TEST(CompilerTest, ElementwiseFusionIsVectorizedForTheIsaLevel) {
  auto module = Parse("golden/modules/elementwise/add_mul.hlo");
  ASSERT_NE(module, nullptr);
  CompileOptions options;
  options.keep_dumps = true;
  auto v3 = Compile(*module, *ShippedTargetConfig("host-x86-64-v3"), options);
  ASSERT_TRUE(v3.ok()) << v3.status();
  EXPECT_EQ((*v3)->kernel_count(), 1);
  // AVX2: 8 x f32 per vector.
  EXPECT_THAT((*v3)->llvm_ir(), HasSubstr("<8 x float>"));
  auto v2 = Compile(*module, *ShippedTargetConfig("host-x86-64-v2"), options);
  ASSERT_TRUE(v2.ok());
  EXPECT_THAT((*v2)->llvm_ir(), HasSubstr("<4 x float>"));
  EXPECT_THAT((*v2)->llvm_ir(), ::testing::Not(HasSubstr("<8 x float>")));
}

// The kernels at real sizes: a sort of rows longer than
// kSortMergeMinLength gets one TEMP scratch array per output (its merge
// sort's second buffer), a short one none; a scatter whose columns no
// index moves splits them over blocks; a large convolution is a GEMM.
// (differential_test compares their values with the interpreter.)
TEST(CompilerTest, LongSortsWideScattersAndLargeConvolutionsTakeTheirFastForms) {
  auto kernel_of = [](const ExecutableProto& e, absl::string_view name) -> const KernelThunkProto* {
    for (const ThunkProto& t : e.thunks()) {
      if (t.has_kernel() && t.info().name() == name) return &t.kernel();
    }
    return nullptr;
  };
  const TargetConfigProto target = *ShippedTargetConfig("host-x86-64-v2");
  for (const char* cuda : {"", "h100"}) {
    SCOPED_TRACE(*cuda ? "cuda" : "host");
    const TargetConfigProto t = *cuda ? *ShippedTargetConfig(cuda) : target;
    CompileOptions options;
    options.compile_cubin = false;
    auto long_sort = Parse("golden/modules/gather_scatter/sort_long_rows.hlo");
    ASSERT_NE(long_sort, nullptr);
    auto compiled = Compile(*long_sort, t, options);
    ASSERT_TRUE(compiled.ok()) << compiled.status();
    const KernelThunkProto* sort = kernel_of((*compiled)->proto(), "sort");
    ASSERT_NE(sort, nullptr) << (*compiled)->ThunksToString();
    // keys, values; two outputs; two scratch arrays in the TEMP allocation.
    ASSERT_EQ(sort->arguments_size(), 6);
    for (int i = 4; i < 6; ++i) {
      EXPECT_EQ(
          (*compiled)->proto().buffer_allocations(sort->arguments(i).allocation_index()).kind(),
          BufferAllocationProto::TEMP);
      EXPECT_TRUE(sort->written(i));
    }
    auto short_sort = Parse("golden/modules/gather_scatter/sort_pairs.hlo");
    ASSERT_NE(short_sort, nullptr);
    compiled = Compile(*short_sort, t, options);
    ASSERT_TRUE(compiled.ok()) << compiled.status();
    sort = kernel_of((*compiled)->proto(), "sort");
    ASSERT_NE(sort, nullptr) << (*compiled)->ThunksToString();
    EXPECT_EQ(sort->arguments_size(), 4);  // keys, iota; two outputs

    auto wide = Parse("golden/modules/gather_scatter/scatter_add_columns.hlo");
    ASSERT_NE(wide, nullptr);
    compiled = Compile(*wide, t, options);
    ASSERT_TRUE(compiled.ok()) << compiled.status();
    const KernelThunkProto* scatter = kernel_of((*compiled)->proto(), "sc");
    ASSERT_NE(scatter, nullptr) << (*compiled)->ThunksToString();
    // The thread count of a kernel's grid.
    auto threads = [](const KernelThunkProto& k) {
      return k.launch_dimensions().block_count_x() * k.launch_dimensions().threads_per_block_x();
    };
    // CUDA: the operand is copied into the output first (a copy thunk
    // just before the kernel), then a thread per update element adds
    // atomically. Host: blocks split the columns, 64 each.
    auto copied_first = [&](const ExecutableProto& e) {
      for (int i = 1; i < e.thunks_size(); ++i) {
        if (e.thunks(i).info().name() == "sc") {
          return e.thunks(i - 1).has_copy() && e.thunks(i - 1).info().name() == "sc.operand";
        }
      }
      return false;
    };
    if (*cuda) {
      EXPECT_EQ(threads(*scatter), 24 * 160);
      EXPECT_TRUE(copied_first((*compiled)->proto())) << (*compiled)->ThunksToString();
    } else {
      EXPECT_EQ(scatter->launch_dimensions().block_count_x(), 3);  // 160 columns, 64 per block
      EXPECT_FALSE(copied_first((*compiled)->proto())) << (*compiled)->ThunksToString();
    }
    auto narrow = Parse("golden/modules/gather_scatter/scatter_add.hlo");
    ASSERT_NE(narrow, nullptr);
    compiled = Compile(*narrow, t, options);
    ASSERT_TRUE(compiled.ok()) << compiled.status();
    scatter = kernel_of((*compiled)->proto(), "sc");
    ASSERT_NE(scatter, nullptr) << (*compiled)->ThunksToString();
    EXPECT_EQ(threads(*scatter), *cuda ? 5 * 4 : 1);

    auto conv = Parse("golden/modules/conv_pool/conv3x3_im2col.hlo");
    ASSERT_NE(conv, nullptr);
    compiled = Compile(*conv, t, options);
    ASSERT_TRUE(compiled.ok()) << compiled.status();
    EXPECT_EQ((*compiled)->gemm_count(), 1);
  }
}

// A loop writing one row of its state per step updates the state buffer in
// place: the body's dynamic-update-slice kernel reads and writes the
// state's slice and the body copies nothing back; an update whose operand is
// read afterwards writes a buffer of its own. (EveryCorpusModule... checks
// the values; BM_DusLoop* that the loop's cost scales with its steps.)
TEST(CompilerTest, DynamicUpdateSliceInALoopUpdatesItsStateInPlace) {
  auto module = Parse("golden/modules/control_flow/while_dus_rows.hlo");
  ASSERT_NE(module, nullptr);
  for (const char* name : {"host-x86-64-v2", "h100"}) {
    SCOPED_TRACE(name);
    CompileOptions options;
    options.compile_cubin = false;
    auto compiled = Compile(*module, *ShippedTargetConfig(name), options);
    ASSERT_TRUE(compiled.ok()) << compiled.status();
    const ThunkProto* loop = nullptr;
    const KernelThunkProto* entry_update = nullptr;
    for (const ThunkProto& t : (*compiled)->proto().thunks()) {
      if (t.has_while_loop()) loop = &t;
      if (t.has_kernel() && t.info().name() == "d") entry_update = &t.kernel();
    }
    ASSERT_NE(loop, nullptr) << (*compiled)->ThunksToString();
    ASSERT_NE(entry_update, nullptr) << (*compiled)->ThunksToString();
    auto same = [](const BufferSliceProto& a, const BufferSliceProto& b) {
      return a.allocation_index() == b.allocation_index() && a.offset() == b.offset() &&
             a.size() == b.size();
    };
    const KernelThunkProto* written = nullptr;
    for (const ThunkProto& t : loop->while_loop().body().thunks()) {
      if (t.has_kernel() && t.info().name() == "written") written = &t.kernel();
      EXPECT_NE(t.info().name(), "loop.update.1") << "the state is copied back";
    }
    ASSERT_NE(written, nullptr) << (*compiled)->ThunksToString();
    EXPECT_TRUE(same(written->arguments(0), written->arguments(written->arguments_size() - 1)));
    // One thread per element of the 8-element update.
    EXPECT_EQ(written->launch_dimensions().block_count_x() *
                  written->launch_dimensions().threads_per_block_x(),
              8);
    EXPECT_FALSE(same(entry_update->arguments(0),
                      entry_update->arguments(entry_update->arguments_size() - 1)));
  }
}

TEST(CompilerTest, ConstantsAreStoredOnceInBinary) {
  auto module = ParseHloModule(R"(
HloModule consts
ENTRY e {
  p = f32[128] parameter(0)
  c1 = f32[128] constant({...})
  a = f32[128] add(p, c1)
  ROOT t = (f32[128], f32[128]) tuple(a, c1)
})");
  ASSERT_TRUE(module.ok());
  auto compiled = Compile(**module, *ShippedTargetConfig("host-x86-64-v2"));
  ASSERT_TRUE(compiled.ok()) << compiled.status();
  const ExecutableProto& e = (*compiled)->proto();
  EXPECT_EQ(e.binary().size(), 128u * 4);
  ASSERT_GE(e.constants_size(), 1);
  for (const ConstantProto& c : e.constants()) EXPECT_EQ(c.binary_offset(), 0);
}

// A constant of 1 KiB or more is stored once (CONTRACT.md s. 7): its bytes
// in `binary`, its literal in the embedded module reduced to its shape;
// tools get the elements back from `binary` (a non-default layout
// included). A small constant keeps its literal.
TEST(CompilerTest, LargeConstantsAreNotRepeatedInTheEmbeddedModule) {
  std::string rows;
  for (int r = 0; r < 32; ++r) {
    absl::StrAppend(&rows, r == 0 ? "{" : ",{");
    for (int c = 0; c < 16; ++c) absl::StrAppend(&rows, c == 0 ? "" : ",", (r * 16 + c) % 7 - 3);
    absl::StrAppend(&rows, "}");
  }
  auto module = ParseHloModule(absl::StrCat(R"(HloModule consts
ENTRY e {
  p = f32[32,16]{0,1} parameter(0)
  big = f32[32,16]{0,1} constant({)",
                                            rows, R"(})
  small = f32[16]{0} constant({1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16})
  bs = f32[32,16]{0,1} broadcast(small), dimensions={1}
  a = f32[32,16]{0,1} add(p, big)
  ROOT m = f32[32,16]{0,1} multiply(a, bs)
})"));
  ASSERT_TRUE(module.ok()) << module.status();
  auto compiled = Compile(**module, *ShippedTargetConfig("host-x86-64-v2"));
  ASSERT_TRUE(compiled.ok()) << compiled.status();
  const ExecutableProto& e = (*compiled)->proto();
  int elided = 0, kept = 0;
  for (const HloComputationProto& c : e.hlo_module().hlo_module().computations()) {
    for (const HloInstructionProto& i : c.instructions()) {
      if (i.opcode() != "constant") continue;
      if (i.literal().f32s_size() == 0) {
        ++elided;
        EXPECT_EQ(i.name(), "big");
        EXPECT_EQ(i.literal().shape().dimensions_size(), 2);
      } else {
        ++kept;
      }
    }
  }
  EXPECT_EQ(elided, 1);
  EXPECT_GE(kept, 1);
  HloModuleProto restored = e.hlo_module().hlo_module();
  ASSERT_TRUE(RestoreEmbeddedConstantPayloads(e, &restored).ok());
  auto rebuilt = HloModuleFromProto(restored, &e.hlo_module().config());
  ASSERT_TRUE(rebuilt.ok()) << rebuilt.status();
  std::vector<Literal> args = RandomArguments(**module, 3);
  HloEvaluator evaluator;
  auto expected = evaluator.Evaluate(**module, args);
  auto actual = evaluator.Evaluate(**rebuilt, args);
  ASSERT_TRUE(expected.ok() && actual.ok());
  EXPECT_EQ(expected->raw(), actual->raw());
  // Without its bytes in binary, an elided literal is an error naming it.
  ExecutableProto no_constants = e;
  no_constants.clear_constants();
  HloModuleProto unrestorable = e.hlo_module().hlo_module();
  absl::Status status = RestoreEmbeddedConstantPayloads(no_constants, &unrestorable);
  EXPECT_EQ(status.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(std::string(status.message()), HasSubstr("embedded HLO constant 'big'"));
}

}  // namespace
}  // namespace aot

namespace aot {
namespace {

// Walks every kernel thunk, nested ones included.
void ForEachKernel(const google::protobuf::RepeatedPtrField<ThunkProto>& thunks,
                   const std::function<void(const KernelThunkProto&)>& fn) {
  for (const ThunkProto& t : thunks) {
    if (t.has_kernel()) fn(t.kernel());
    if (t.has_sequential()) ForEachKernel(t.sequential().thunks(), fn);
    if (t.has_while_loop()) {
      ForEachKernel(t.while_loop().condition().thunks(), fn);
      ForEachKernel(t.while_loop().body().thunks(), fn);
    }
    if (t.has_conditional()) {
      for (const auto& b : t.conditional().branches()) ForEachKernel(b.thunks(), fn);
    }
  }
}

// Compile-then-load is never a surprise: every elementwise float opcode, in
// every float type, compiles for every host ISA level and the runtime loads
// the result (no kernel imports a symbol outside its allow-list).
TEST(CompilerTest, EveryElementwiseOpcodeInEveryFloatTypeCompilesAndLoads) {
  const char* unary[] = {"abs",
                         "ceil",
                         "cosine",
                         "exponential",
                         "exponential-minus-one",
                         "floor",
                         "log",
                         "log-plus-one",
                         "negate",
                         "round-nearest-afz",
                         "round-nearest-even",
                         "rsqrt",
                         "sign",
                         "sine",
                         "sqrt",
                         "cbrt",
                         "tanh",
                         "tan",
                         "logistic",
                         "erf"};
  const char* binary[] = {"add",     "subtract", "multiply",  "divide", "maximum",
                          "minimum", "power",    "remainder", "atan2"};
  auto client = Client::Create("host");
  ASSERT_TRUE(client.ok());
  int loaded = 0;
  for (const char* isa : {"host-x86-64-v2", "host-x86-64-v3"}) {
    auto target = ShippedTargetConfig(isa);
    ASSERT_TRUE(target.ok());
    for (const char* type : {"f16", "bf16", "f32", "f64"}) {
      std::vector<std::string> modules;
      for (const char* op : unary) {
        modules.push_back(absl::StrCat("HloModule m\n\nENTRY e {\n  x = ", type,
                                       "[1000] parameter(0)\n  ROOT r = ", type, "[1000] ", op,
                                       "(x)\n}\n"));
      }
      for (const char* op : binary) {
        modules.push_back(absl::StrCat(
            "HloModule m\n\nENTRY e {\n  x = ", type, "[1000] parameter(0)\n  y = ", type,
            "[1000] parameter(1)\n  ROOT r = ", type, "[1000] ", op, "(x, y)\n}\n"));
      }
      for (const std::string& text : modules) {
        SCOPED_TRACE(absl::StrCat(isa, "\n", text));
        auto module = ParseHloModule(text);
        ASSERT_TRUE(module.ok()) << module.status();
        auto compiled = Compile(**module, *target);
        ASSERT_TRUE(compiled.ok()) << compiled.status();
        auto executable = (*client)->DeserializeExecutable((*compiled)->SerializeAsString());
        ASSERT_TRUE(executable.ok()) << executable.status();
        ++loaded;
      }
    }
  }
  EXPECT_EQ(loaded, 2 * 4 * (20 + 9));
}

// LLVM's libcall simplifier turns pow(2, x) into exp2f, which the runtime
// does not resolve: the optimizer is restricted to the runtime's allow-list,
// so the module compiles, loads and matches the interpreter.
TEST(CompilerTest, PowerOfTwoDoesNotImportExp2f) {
  auto module = ParseHloModule(R"(HloModule pow2

ENTRY e {
  x = f32[1000] parameter(0)
  two = f32[] constant(2)
  b = f32[1000] broadcast(two), dimensions={}
  ROOT r = f32[1000] power(b, x)
}
)");
  ASSERT_TRUE(module.ok()) << module.status();
  auto target = ShippedTargetConfig("host-x86-64-v3");
  ASSERT_TRUE(target.ok());
  auto compiled = Compile(**module, *target);
  ASSERT_TRUE(compiled.ok()) << compiled.status();
  auto client = Client::Create("host");
  ASSERT_TRUE(client.ok());
  auto executable = (*client)->DeserializeExecutable((*compiled)->SerializeAsString());
  ASSERT_TRUE(executable.ok()) << executable.status();
}

// Where the simplifier's result is lowered to a library call by the back
// end (pow(2, float(i)) -> llvm.ldexp -> ldexpf), the compiler refuses the
// module naming the import, instead of writing an artifact that will not
// load.
TEST(CompilerTest, AnImportTheRuntimeRefusesFailsTheCompileNamingIt) {
  auto module = ParseHloModule(R"(HloModule ldexp

ENTRY e {
  x = f32[1000] parameter(0)
  i = s32[1000] parameter(1)
  f = f32[1000] convert(i)
  two = f32[] constant(2)
  b = f32[1000] broadcast(two), dimensions={}
  p = f32[1000] power(b, f)
  ROOT r = f32[1000] multiply(x, p)
}
)");
  ASSERT_TRUE(module.ok()) << module.status();
  auto target = ShippedTargetConfig("host-x86-64-v3");
  ASSERT_TRUE(target.ok());
  auto compiled = Compile(**module, *target);
  ASSERT_FALSE(compiled.ok());
  EXPECT_EQ(compiled.status().code(), absl::StatusCode::kUnimplemented);
  EXPECT_THAT(std::string(compiled.status().message()),
              HasSubstr("imports ldexpf, which the runtime does not resolve"));
}

TEST(CompilerTest, EveryCorpusModuleCompilesForCudaDeviceLess) {
  bool have_ptxas = std::filesystem::exists("/usr/local/cuda/bin/ptxas");
  bool have_libdevice = std::filesystem::exists("/usr/local/cuda/nvvm/libdevice/libdevice.10.bc");
  if (!have_libdevice) GTEST_SKIP() << "CUDA libdevice not installed at /usr/local/cuda";
  for (const char* spec : {"a100", "h100"}) {
    auto target = ShippedTargetConfig(spec);
    ASSERT_TRUE(target.ok());
    std::string sm = target->llvm_cpu();
    for (const auto& path : CorpusFiles()) {
      SCOPED_TRACE(absl::StrCat(spec, " ", path.string()));
      auto module = Parse(path);
      // SPMD programs: partitioned first, as their golden target does.
      if (module != nullptr && module->config().num_partitions > 1) {
        auto partitioned = PartitionSpmd(*module, module->config().num_partitions);
        ASSERT_TRUE(partitioned.ok()) << partitioned.status();
        module = std::move(partitioned->module);
      }
      ASSERT_NE(module, nullptr);
      auto compiled = Compile(*module, *target, CorpusCompileOptions(*module));
      ASSERT_TRUE(compiled.ok()) << compiled.status();
      const ExecutableProto& e = (*compiled)->proto();
      EXPECT_EQ(e.capability().cuda().major(),
                target->device_description().capability().cuda().major());
      ForEachKernel(e.thunks(), [&](const KernelThunkProto& k) {
        EXPECT_EQ(k.binary().format(), KernelBinaryProto::CUDA_PTX);
        EXPECT_EQ(k.binary().payload_sha256(), KernelPayloadSha256(k.binary()));
        EXPECT_THAT(k.binary().ptx(), HasSubstr(absl::StrCat(".target ", sm)));
        EXPECT_THAT(k.binary().ptx(), HasSubstr(absl::StrCat(".entry ", k.kernel_name())));
        if (have_ptxas) {
          // An ELF image for the CUDA machine (e_machine EM_CUDA = 190).
          const std::string& cubin = k.binary().cubin();
          ASSERT_GE(cubin.size(), 20u);
          EXPECT_EQ(cubin.substr(0, 4),
                    "\x7f"
                    "ELF");
          int machine = static_cast<uint8_t>(cubin[18]) | (static_cast<uint8_t>(cubin[19]) << 8);
          EXPECT_EQ(machine, 190);
        }
      });
    }
  }
}

}  // namespace
}  // namespace aot

namespace aot {
namespace {

TEST(CompilerTest, EveryCorpusModuleCompilesForEveryHostIsaLevel) {
  for (const char* spec : {"host-x86-64-v3", "host-x86-64-v4"}) {
    auto target = ShippedTargetConfig(spec);
    ASSERT_TRUE(target.ok());
    for (const auto& path : CorpusFiles()) {
      SCOPED_TRACE(absl::StrCat(spec, " ", path.string()));
      auto module = Parse(path);
      // SPMD programs: partitioned first, as their golden target does.
      if (module != nullptr && module->config().num_partitions > 1) {
        auto partitioned = PartitionSpmd(*module, module->config().num_partitions);
        ASSERT_TRUE(partitioned.ok()) << partitioned.status();
        module = std::move(partitioned->module);
      }
      ASSERT_NE(module, nullptr);
      auto compiled = Compile(*module, *target, CorpusCompileOptions(*module));
      ASSERT_TRUE(compiled.ok()) << compiled.status();
      EXPECT_EQ(compiled.value()->proto().capability().host().isa_level(),
                target->device_description().capability().host().isa_level());
    }
  }
}

}  // namespace
}  // namespace aot

namespace aot {
namespace {

// Distance in units in the last place between two finite floats (0 when
// both are the same NaN or infinity).
int64_t UlpDistance(float a, float b) {
  if (std::isnan(a) || std::isnan(b)) return std::isnan(a) && std::isnan(b) ? 0 : INT64_MAX;
  if (a == b) return 0;
  if (std::isinf(a) || std::isinf(b)) return INT64_MAX;
  auto ordered = [](float f) {
    int32_t i;
    std::memcpy(&i, &f, 4);
    return i < 0 ? int64_t{INT32_MIN} - i : int64_t{i};
  };
  return std::llabs(ordered(a) - ordered(b));
}

// The host's polynomial exp, tanh and logistic (elemental_emitter.cc) over
// a sweep of f32 plus the special values, against the C library computed
// in double and rounded: the accuracy the emitter's comment states.
// input_output_alias (emission flag emit_input_output_alias): each form of
// aliased result, its placement, and both execution paths.
struct AliasCase {
  const char* name;
  const char* text;
  int copies;  // copy thunks expected at the top level
};

const AliasCase kAliasCases[] = {
    {"elementwise result computed over its own operand",
     R"(HloModule inplace, input_output_alias={ {}: (0, {}) }
ENTRY main {
  x = f32[4096]{0} parameter(0)
  y = f32[4096]{0} parameter(1)
  m = f32[4096]{0} multiply(x, y)
  ROOT a = f32[4096]{0} add(m, x)
})",
     0},
    {"old value also returned: copied in after it is read",
     R"(HloModule donate, input_output_alias={ {0}: (0, {}, may-alias), {1}: (2, {}, must-alias) }
ENTRY main {
  x = f32[1024]{0} parameter(0)
  y = f32[1024]{0} parameter(1)
  z = f32[1024]{0} parameter(2)
  m = f32[1024]{0} multiply(x, y)
  a = f32[1024]{0} add(m, x)
  s = f32[1024]{0} subtract(z, y)
  ROOT t = (f32[1024]{0}, f32[1024]{0}, f32[1024]{0}) tuple(a, s, x)
})",
     2},
    {"swapped parameters go through staging",
     R"(HloModule swap, input_output_alias={ {0}: (0, {}), {1}: (1, {}) }
ENTRY main {
  p0 = f32[64]{0} parameter(0)
  p1 = f32[64]{0} parameter(1)
  ROOT t = (f32[64]{0}, f32[64]{0}) tuple(p1, p0)
})",
     4},
    {"a reverse reads other elements: copied",
     R"(HloModule rev, input_output_alias={ {}: (0, {}, must-alias) }
ENTRY main {
  p0 = f32[1000]{0} parameter(0)
  ROOT r = f32[1000]{0} reverse(p0), dimensions={0}
})",
     1},
    {"a GEMM into an unread parameter",
     R"(HloModule gemm, input_output_alias={ {}: (2, {}) }
ENTRY main {
  a = f32[32,64]{1,0} parameter(0)
  b = f32[64,16]{1,0} parameter(1)
  c = f32[32,16]{1,0} parameter(2)
  ROOT d = f32[32,16]{1,0} dot(a, b), lhs_contracting_dims={1}, rhs_contracting_dims={0}
})",
     0},
    {"a while loop's state in a tuple parameter",
     R"(HloModule loop, input_output_alias={ {0}: (0, {0}), {1}: (0, {1}) }
cond {
  s = (s32[], f32[256]{0}) parameter(0)
  i = s32[] get-tuple-element(s), index=0
  n = s32[] constant(10)
  ROOT c = pred[] compare(i, n), direction=LT
}
body {
  s = (s32[], f32[256]{0}) parameter(0)
  i = s32[] get-tuple-element(s), index=0
  v = f32[256]{0} get-tuple-element(s), index=1
  one = s32[] constant(1)
  i2 = s32[] add(i, one)
  h = f32[] constant(0.5)
  hb = f32[256]{0} broadcast(h), dimensions={}
  v2 = f32[256]{0} multiply(v, hb)
  ROOT r = (s32[], f32[256]{0}) tuple(i2, v2)
}
ENTRY main {
  p = (s32[], f32[256]{0}) parameter(0)
  ROOT w = (s32[], f32[256]{0}) while(p), condition=cond, body=body
})",
     -1},
};

TEST(CompilerTest, InputOutputAliasIsHonouredOnlyBehindItsEmissionFlag) {
  auto target = ShippedTargetConfig("host-x86-64-v2");
  ASSERT_TRUE(target.ok());
  // Off (the default): may-alias is dropped, so the artifact is the one of
  // the module without it; must-alias does not compile, naming the flag.
  auto plain = ParseHloModule(R"(HloModule inplace
ENTRY main {
  x = f32[4096]{0} parameter(0)
  y = f32[4096]{0} parameter(1)
  m = f32[4096]{0} multiply(x, y)
  ROOT a = f32[4096]{0} add(m, x)
})");
  auto aliased = ParseHloModule(kAliasCases[0].text);
  ASSERT_TRUE(plain.ok() && aliased.ok());
  auto plain_compiled = Compile(**plain, *target);
  auto aliased_compiled = Compile(**aliased, *target);
  ASSERT_TRUE(plain_compiled.ok() && aliased_compiled.ok());
  EXPECT_EQ((*aliased_compiled)->proto().input_output_aliases_size(), 0);
  EXPECT_EQ((*aliased_compiled)->SerializeAsString(), (*plain_compiled)->SerializeAsString());
  auto must = ParseHloModule(kAliasCases[3].text);
  ASSERT_TRUE(must.ok());
  auto refused = Compile(**must, *target);
  EXPECT_EQ(refused.status().code(), absl::StatusCode::kUnimplemented);
  EXPECT_THAT(std::string(refused.status().message()),
              HasSubstr("pass --emission_flags=emit_input_output_alias"));
  EXPECT_THAT(std::string(refused.status().message()),
              HasSubstr("off by default until 2026-12-16"));
}

TEST(CompilerTest, AliasedResultsLiveInTheirParametersAndMatchTheInterpreter) {
  auto target = ShippedTargetConfig("host-x86-64-v2");
  ASSERT_TRUE(target.ok());
  auto client = Client::Create("host");
  ASSERT_TRUE(client.ok());
  CompileOptions options;
  options.emission_flags = {"emit_input_output_alias"};
  for (const AliasCase& c : kAliasCases) {
    SCOPED_TRACE(c.name);
    auto module = ParseHloModule(c.text);
    ASSERT_TRUE(module.ok()) << module.status();
    // The header prints and parses back.
    EXPECT_THAT((*module)->ToString(), HasSubstr("input_output_alias={ "));
    auto reparsed = ParseHloModule((*module)->ToString());
    ASSERT_TRUE(reparsed.ok()) << reparsed.status();
    EXPECT_EQ((*reparsed)->config().input_output_aliases, (*module)->config().input_output_aliases);
    auto compiled = Compile(**module, *target, options);
    ASSERT_TRUE(compiled.ok()) << compiled.status();
    const ExecutableProto& proto = (*compiled)->proto();
    ASSERT_EQ(proto.input_output_aliases_size(),
              static_cast<int>((*module)->config().input_output_aliases.size()));
    EXPECT_EQ(proto.hlo_module().hlo_module().input_output_alias_size(),
              proto.input_output_aliases_size());
    for (const InputOutputAliasProto& alias : proto.input_output_aliases()) {
      EXPECT_EQ(proto.result().leaves(alias.result_leaf()).slice().allocation_index(),
                proto.parameters(alias.parameter_number()).slice().allocation_index());
    }
    if (c.copies >= 0) {
      int copies = 0;
      for (const ThunkProto& t : proto.thunks()) copies += t.has_copy();
      EXPECT_EQ(copies, c.copies) << (*compiled)->ThunksToString();
    }
    auto executable = (*client)->DeserializeExecutable((*compiled)->SerializeAsString());
    ASSERT_TRUE(executable.ok()) << executable.status();
    std::vector<Literal> args = RandomArguments(**module, 11);
    HloEvaluator evaluator;
    auto expected = evaluator.Evaluate(**module, args);
    ASSERT_TRUE(expected.ok()) << expected.status();
    for (int run = 0; run < 2; ++run) {
      auto actual = ExecuteWithLiterals(**executable, args);
      ASSERT_TRUE(actual.ok()) << actual.status();
      ASSERT_TRUE(CompareLiteralsWithDefaultTolerance(*expected, *actual).ok())
          << CompareLiteralsWithDefaultTolerance(*expected, *actual);
    }
    // Buffers, every aliased argument donated: the same results, each
    // aliased one in its argument's memory.
    auto literal_result = ExecuteWithLiterals(**executable, args);
    ASSERT_TRUE(literal_result.ok());
    std::vector<std::unique_ptr<DeviceBuffer>> buffers;
    std::vector<DeviceBuffer*> pointers;
    for (const Literal& arg : args) {
      for (const Literal* leaf : arg.Leaves()) {
        auto buffer = DeviceBuffer::FromHostBuffer(
            (*executable)->shared_platform(), leaf->shape().ToProto(),
            absl::MakeConstSpan(reinterpret_cast<const uint8_t*>(leaf->raw().data()),
                                leaf->raw().size()));
        ASSERT_TRUE(buffer.ok()) << buffer.status();
        pointers.push_back(buffer->get());
        buffers.push_back(*std::move(buffer));
      }
    }
    std::vector<void*> memory;
    for (DeviceBuffer* b : pointers) memory.push_back(b->memory().ptr);
    auto results = (*executable)->ExecuteBuffers(pointers);
    ASSERT_TRUE(results.ok()) << results.status();
    std::vector<const Literal*> leaves = literal_result->Leaves();
    ASSERT_EQ(results->size(), leaves.size());
    for (size_t i = 0; i < leaves.size(); ++i) {
      auto bytes = (*results)[i]->ToHost();
      ASSERT_TRUE(bytes.ok());
      EXPECT_EQ(0, std::memcmp(bytes->data(), leaves[i]->raw().data(), bytes->size()))
          << "leaf " << i;
    }
    for (const InputOutputAliasProto& alias : proto.input_output_aliases()) {
      EXPECT_TRUE(pointers[alias.parameter_number()]->is_deleted());
      EXPECT_EQ((*results)[alias.result_leaf()]->memory().ptr, memory[alias.parameter_number()]);
    }
  }
}

// CUDA (device-less): the same placement; the runtime validates and loads
// the thunks that write parameters.
// emit_low_precision_gemm: f16 and bf16 dots on CUDA become GEMM thunks
// of that element type (cuBLAS, f32 accumulation) only with the flag on;
// off (the default) they stay generated kernels, and the host always
// upcasts to an f32 GEMM. The flag-on artifacts load in this runtime
// (device-less where the CUDA platform is built).
TEST(CompilerTest, LowPrecisionDotsBecomeGemmThunksOnlyBehindTheirFlag) {
  if (!std::filesystem::exists("/usr/local/cuda/nvvm/libdevice/libdevice.10.bc")) {
    GTEST_SKIP() << "CUDA libdevice not installed at /usr/local/cuda";
  }
  const bool cuda_runtime = absl::c_linear_search(AvailablePlatforms(), "cuda");
  for (const char* type : {"f16", "bf16"}) {
    SCOPED_TRACE(type);
    auto module = ParseHloModule(absl::StrCat(
        "HloModule m\nENTRY e {\n  a = ", type, "[4,128,64] parameter(0)\n  b = ", type,
        "[4,64,32] parameter(1)\n  ROOT d = ", type,
        "[4,128,32] dot(a, b), lhs_batch_dims={0}, rhs_batch_dims={0}, "
        "lhs_contracting_dims={2}, rhs_contracting_dims={1}\n}\n"));
    ASSERT_TRUE(module.ok()) << module.status();
    CompileOptions off;
    off.compile_cubin = false;
    CompileOptions on = off;
    on.emission_flags = {"emit_low_precision_gemm"};
    auto h100 = ShippedTargetConfig("h100");
    ASSERT_TRUE(h100.ok());
    auto plain = Compile(**module, *h100, off);
    ASSERT_TRUE(plain.ok()) << plain.status();
    EXPECT_EQ((*plain)->gemm_count(), 0);
    auto gemm = Compile(**module, *h100, on);
    ASSERT_TRUE(gemm.ok()) << gemm.status();
    ASSERT_EQ((*gemm)->gemm_count(), 1) << (*gemm)->ThunksToString();
    const GemmThunkProto* g = nullptr;
    for (const ThunkProto& t : (*gemm)->proto().thunks()) {
      if (t.has_gemm()) g = &t.gemm();
    }
    ASSERT_NE(g, nullptr);
    EXPECT_EQ(g->element_type(), std::string(type) == "f16" ? F16 : BF16);
    EXPECT_EQ(g->batch_size(), 4);
    EXPECT_EQ(g->m(), 128);
    EXPECT_EQ(g->n(), 32);
    EXPECT_EQ(g->k(), 64);
    // The host's form does not depend on the flag: an f32 GEMM between
    // converts (DotUpcast).
    auto host = ShippedTargetConfig("host-x86-64-v2");
    ASSERT_TRUE(host.ok());
    for (const CompileOptions& options : {off, on}) {
      auto compiled = Compile(**module, *host, options);
      ASSERT_TRUE(compiled.ok()) << compiled.status();
      for (const ThunkProto& t : (*compiled)->proto().thunks()) {
        if (t.has_gemm()) EXPECT_EQ(t.gemm().element_type(), F32);
      }
    }
    if (!cuda_runtime) continue;
    auto client = Client::Create("cuda");
    ASSERT_TRUE(client.ok()) << client.status();
    auto executable = (*client)->DeserializeExecutable((*gemm)->SerializeAsString());
    EXPECT_TRUE(executable.ok()) << executable.status();
  }
}

TEST(CompilerTest, AliasedResultsCompileAndLoadForCudaDeviceLess) {
  if (!std::filesystem::exists("/usr/local/cuda/nvvm/libdevice/libdevice.10.bc")) {
    GTEST_SKIP() << "CUDA libdevice not installed at /usr/local/cuda";
  }
  auto target = ShippedTargetConfig("h100");
  ASSERT_TRUE(target.ok());
  std::vector<std::string> platforms = AvailablePlatforms();
  const bool cuda_runtime = absl::c_linear_search(platforms, "cuda");
  CompileOptions options;
  options.emission_flags = {"emit_input_output_alias"};
  options.compile_cubin = false;
  for (const AliasCase& c : kAliasCases) {
    SCOPED_TRACE(c.name);
    auto module = ParseHloModule(c.text);
    ASSERT_TRUE(module.ok());
    auto compiled = Compile(**module, *target, options);
    ASSERT_TRUE(compiled.ok()) << compiled.status();
    const ExecutableProto& proto = (*compiled)->proto();
    ASSERT_GT(proto.input_output_aliases_size(), 0);
    for (const InputOutputAliasProto& alias : proto.input_output_aliases()) {
      EXPECT_EQ(proto.result().leaves(alias.result_leaf()).slice().allocation_index(),
                proto.parameters(alias.parameter_number()).slice().allocation_index());
    }
    if (!cuda_runtime) continue;
    auto client = Client::Create("cuda");
    ASSERT_TRUE(client.ok()) << client.status();
    auto executable = (*client)->DeserializeExecutable((*compiled)->SerializeAsString());
    EXPECT_TRUE(executable.ok()) << executable.status();
  }
}

TEST(CompilerTest, InvalidInputOutputAliasIsRejectedNamingTheEntry) {
  const std::pair<const char*, const char*> cases[] = {
      {"{}: (0, {})", "differ in shape"},
      {"{}: (3, {})", "the entry computation has 1 parameters"},
      {"{0}: (0, {})", "is not an array leaf of the result"},
  };
  for (const auto& [alias, message] : cases) {
    SCOPED_TRACE(alias);
    auto module = ParseHloModule(absl::StrCat("HloModule m, input_output_alias={ ", alias, R"( }
ENTRY main {
  p = f32[8]{0} parameter(0)
  ROOT c = f32[4]{0} slice(p), slice={[0:4]}
})"));
    ASSERT_TRUE(module.ok()) << module.status();
    auto compiled = Compile(**module, *ShippedTargetConfig("host-x86-64-v2"));
    EXPECT_EQ(compiled.status().code(), absl::StatusCode::kInvalidArgument);
    EXPECT_THAT(std::string(compiled.status().message()),
                HasSubstr(absl::StrCat("input_output_alias ",
                                       absl::string_view(alias).substr(0, strlen(alias) - 1),
                                       ", may-alias)")));
    EXPECT_THAT(std::string(compiled.status().message()), HasSubstr(message));
  }
  auto bad_kind = ParseHloModule(
      "HloModule m, input_output_alias={ {}: (0, {}, must-share) }\n"
      "ENTRY main {\n  ROOT p = f32[8]{0} parameter(0)\n}\n");
  EXPECT_EQ(bad_kind.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(std::string(bad_kind.status().message()),
              HasSubstr("1:47: expected may-alias or must-alias, got 'must-share'"));
}

TEST(HostMathTest, PolynomialExpTanhAndLogisticStayWithinTheirUlpBounds) {
  std::vector<double> inputs;
  for (double x = -110.0; x <= 95.0; x += 205.0 / 400000) inputs.push_back(x);
  for (double x = -1.0; x <= 1.0; x += 2.0 / 100000) inputs.push_back(x);  // tanh's small branch
  for (double x : {0.0, -0.0, 1e-30, -1e-30, 1e-45, 88.72283935546875, 88.8, -103.9, -104.5,
                   0.5624999, 0.5625, -0.5625}) {
    inputs.push_back(x);
  }
  inputs.push_back(std::numeric_limits<double>::infinity());
  inputs.push_back(-std::numeric_limits<double>::infinity());
  inputs.push_back(std::numeric_limits<double>::quiet_NaN());
  const int64_t n = static_cast<int64_t>(inputs.size());
  struct Case {
    const char* op;
    double (*reference)(double);
    int64_t max_ulp;
  };
  const Case cases[] = {
      {"exponential", [](double x) { return std::exp(x); }, 2},
      {"tanh", [](double x) { return std::tanh(x); }, 3},
      {"logistic", [](double x) { return 1.0 / (1.0 + std::exp(-x)); }, 4},
  };
  auto client = Client::Create("host");
  ASSERT_TRUE(client.ok());
  for (const Case& c : cases) {
    SCOPED_TRACE(c.op);
    std::string hlo = absl::StrCat("HloModule m\nENTRY e {\n  x = f32[", n, "] parameter(0)\n",
                                   "  ROOT r = f32[", n, "] ", c.op, "(x)\n}\n");
    auto module = ParseHloModule(hlo);
    ASSERT_TRUE(module.ok()) << module.status();
    for (const char* target : {"host-x86-64-v2", "host-x86-64-v3"}) {
      SCOPED_TRACE(target);
      auto compiled = Compile(**module, *ShippedTargetConfig(target));
      ASSERT_TRUE(compiled.ok()) << compiled.status();
      auto executable = (*compiled)->LoadExecutable(**client);
      if (!executable.ok()) continue;  // this CPU lacks the ISA level
      Literal x = Literal::FromDoubles(Shape(F32, {n}), inputs);
      auto result = ExecuteWithLiterals(**executable, {x});
      ASSERT_TRUE(result.ok()) << result.status();
      absl::Span<const float> in = x.data<float>(), out = result->data<float>();
      int64_t worst = 0;
      float worst_x = 0;
      for (int64_t i = 0; i < n; ++i) {
        float expected = static_cast<float>(c.reference(static_cast<double>(in[i])));
        // Below the normal range (logistic of x < -87) only the absolute
        // error is meaningful.
        int64_t d =
            std::fabs(expected) < std::numeric_limits<float>::min()
                ? (std::fabs(out[i] - expected) <= std::numeric_limits<float>::min() ? 0 : 1000)
                : UlpDistance(out[i], expected);
        if (d > worst) {
          worst = d;
          worst_x = in[i];
        }
      }
      EXPECT_LE(worst, c.max_ulp) << "at x = " << worst_x;
    }
  }
}

}  // namespace
}  // namespace aot
