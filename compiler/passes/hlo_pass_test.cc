#include "compiler/passes/hlo_pass.h"

#include <iostream>
#include <map>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "compiler/passes/complex_expansion.h"
#include "compiler/passes/factorization_expansion.h"
#include "compiler/passes/narrow_type_expansion.h"
#include "compiler/passes/rng_expansion.h"
#include "compiler/passes/test_util.h"
#include "compiler/verifier/hlo_verifier.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace aot {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;

// A pass that breaks the module: gives the entry root a wrong shape.
class BreakingPass : public HloPass {
 public:
  absl::string_view name() const override { return "breaker"; }
  absl::StatusOr<bool> Run(HloModule* module) override {
    HloInstruction* root = module->entry_computation()->root_instruction();
    *root->mutable_shape() = Shape(S8, {7, 7, 7});
    return true;
  }
};

class CountingPass : public HloPass {
 public:
  explicit CountingPass(int changes) : changes_left_(changes) {}
  absl::string_view name() const override { return "counting"; }
  absl::StatusOr<bool> Run(HloModule* module) override {
    ++runs;
    return changes_left_-- > 0;
  }
  int runs = 0;

 private:
  int changes_left_;
};

constexpr char kAddMul[] = R"(
HloModule add_mul
ENTRY %main (a: f32[4], b: f32[4]) -> f32[4] {
  %a = f32[4]{0} parameter(0)
  %b = f32[4]{0} parameter(1)
  %add = f32[4]{0} add(%a, %b)
  ROOT %mul = f32[4]{0} multiply(%add, %a)
}
)";

TEST(HloPassPipelineTest, RegistryKnowsEveryPass) {
  EXPECT_THAT(PassNames(),
              ElementsAre("algsimp", "collective-async-to-sync", "constant-folding", "conv-im2col",
                          "cse", "dce", "fusion", "layout-normalization", "sharding-propagation",
                          "tree-reduction"));
  for (const std::string& name : PassNames()) {
    std::unique_ptr<HloPass> pass = CreatePassByName(name);
    ASSERT_NE(pass, nullptr) << name;
    EXPECT_EQ(pass->name(), name);
  }
  EXPECT_EQ(CreatePassByName("no-such-pass"), nullptr);
}

TEST(HloPassPipelineTest, DefaultPipelineStages) {
  HloPassPipeline pipeline = DefaultPipeline();
  EXPECT_THAT(pipeline.StageNames(), ElementsAre("simplify", "layout", "fusion"));
  EXPECT_THAT(pipeline.PassNamesInStage("simplify"),
              ElementsAre("collective-async-to-sync", "algsimp", "constant-folding", "cse", "dce"));
  EXPECT_THAT(pipeline.PassNamesInStage("layout"),
              ElementsAre("layout-normalization", "algsimp", "cse", "dce"));
  EXPECT_THAT(pipeline.PassNamesInStage("fusion"),
              ElementsAre("conv-im2col", "tree-reduction", "fusion", "dce"));
  EXPECT_THAT(pipeline.PassNames(),
              ElementsAre("collective-async-to-sync", "algsimp", "constant-folding", "cse", "dce",
                          "layout-normalization", "conv-im2col", "tree-reduction", "fusion"));
  EXPECT_THAT(pipeline.Describe(),
              HasSubstr("stage fusion: conv-im2col, tree-reduction, fusion, dce"));

  PipelineOptions options;
  options.enable_fusion = false;
  options.enable_constant_folding = false;
  HloPassPipeline no_fusion = DefaultPipeline(options);
  EXPECT_THAT(no_fusion.PassNamesInStage("fusion"),
              ElementsAre("conv-im2col", "tree-reduction", "dce"));
  EXPECT_THAT(no_fusion.PassNamesInStage("simplify"),
              ElementsAre("collective-async-to-sync", "algsimp", "cse", "dce"));
}

TEST(HloPassPipelineTest, StopAfterStage) {
  auto m = testing_util::Parse(kAddMul);
  ASSERT_NE(m, nullptr);
  HloPassPipeline pipeline = DefaultPipeline();
  absl::StatusOr<bool> changed = pipeline.RunThroughStage(m.get(), "layout");
  ASSERT_TRUE(changed.ok()) << changed.status();
  EXPECT_EQ(testing_util::CountFusions(*m), 0);
  for (const auto& record : pipeline.run_log()) EXPECT_NE(record.stage, "fusion");
  changed = pipeline.RunThroughStage(m.get(), "fusion");
  ASSERT_TRUE(changed.ok()) << changed.status();
  EXPECT_EQ(testing_util::CountFusions(*m), 1);

  absl::StatusOr<bool> bad = pipeline.RunThroughStage(m.get(), "codegen");
  ASSERT_FALSE(bad.ok());
  EXPECT_THAT(std::string(bad.status().message()), HasSubstr("no stage 'codegen'"));
}

TEST(HloPassPipelineTest, RunNamedPasses) {
  auto m = testing_util::Parse(kAddMul);
  ASSERT_NE(m, nullptr);
  HloPassPipeline pipeline = DefaultPipeline();
  absl::StatusOr<bool> changed =
      pipeline.RunPasses(m.get(), std::vector<std::string>{"fusion", "dce"});
  ASSERT_TRUE(changed.ok()) << changed.status();
  EXPECT_TRUE(*changed);
  EXPECT_EQ(testing_util::CountFusions(*m), 1);
  ASSERT_EQ(pipeline.run_log().size(), 2u);
  EXPECT_EQ(pipeline.run_log()[0].pass, "fusion");
  EXPECT_TRUE(pipeline.run_log()[0].changed);
  EXPECT_EQ(pipeline.run_log()[1].pass, "dce");

  // Unknown names fail before anything runs.
  auto m2 = testing_util::Parse(kAddMul);
  const std::string before = m2->ToString();
  absl::StatusOr<bool> bad =
      pipeline.RunPasses(m2.get(), std::vector<std::string>{"fusion", "fuse"});
  ASSERT_FALSE(bad.ok());
  EXPECT_THAT(std::string(bad.status().message()), HasSubstr("unknown pass 'fuse'"));
  EXPECT_THAT(std::string(bad.status().message()), HasSubstr("layout-normalization"));
  EXPECT_EQ(m2->ToString(), before);

  // Passes not in the pipeline come from the registry.
  HloPassPipeline empty("empty");
  changed = empty.RunPasses(m2.get(), std::vector<std::string>{"fusion"});
  ASSERT_TRUE(changed.ok()) << changed.status();
  EXPECT_EQ(testing_util::CountFusions(*m2), 1);
}

TEST(HloPassPipelineTest, VerifierFailureNamesThePass) {
  auto m = testing_util::Parse(kAddMul);
  ASSERT_NE(m, nullptr);
  HloPassPipeline pipeline("test");
  pipeline.AddStage("first");
  pipeline.AddPass(CreatePassByName("cse"));
  pipeline.AddStage("second");
  pipeline.AddPass<BreakingPass>();
  pipeline.AddPass(CreatePassByName("dce"));
  pipeline.set_verifier(VerifyHloModule);
  absl::StatusOr<bool> result = pipeline.Run(m.get());
  ASSERT_FALSE(result.ok());
  const std::string message(result.status().message());
  EXPECT_THAT(message, HasSubstr("pass 'breaker' (stage 'second'"));
  EXPECT_THAT(message, HasSubstr("produced an invalid module"));
  EXPECT_THAT(message, HasSubstr("mul"));
  // dce never ran.
  ASSERT_EQ(pipeline.run_log().size(), 2u);
  EXPECT_EQ(pipeline.run_log()[1].pass, "breaker");
}

TEST(HloPassPipelineTest, InvalidInputIsReportedBeforeAnyPass) {
  auto m = testing_util::Parse(kAddMul);
  ASSERT_NE(m, nullptr);
  *m->entry_computation()->root_instruction()->mutable_shape() = Shape(S8, {3});
  HloPassPipeline pipeline = DefaultPipeline();
  pipeline.set_verifier(VerifyHloModule);
  absl::StatusOr<bool> result = pipeline.Run(m.get());
  ASSERT_FALSE(result.ok());
  EXPECT_THAT(std::string(result.status().message()), HasSubstr("before any pass"));
  EXPECT_TRUE(pipeline.run_log().empty());
}

TEST(HloPassPipelineTest, FixedPointStage) {
  auto m = testing_util::Parse(kAddMul);
  HloPassPipeline pipeline("fixed");
  pipeline.AddStage("loop", 5);
  CountingPass& counting = pipeline.AddPass<CountingPass>(2);
  absl::StatusOr<bool> changed = pipeline.Run(m.get());
  ASSERT_TRUE(changed.ok());
  EXPECT_TRUE(*changed);
  EXPECT_EQ(counting.runs, 3);  // changed, changed, unchanged
  HloPassPipeline bounded("bounded");
  bounded.AddStage("loop", 2);
  CountingPass& busy = bounded.AddPass<CountingPass>(100);
  ASSERT_TRUE(bounded.Run(m.get()).ok());
  EXPECT_EQ(busy.runs, 2);
}

TEST(HloPassPipelineTest, PassErrorsNameThePass) {
  class FailingPass : public HloPass {
   public:
    absl::string_view name() const override { return "failing"; }
    absl::StatusOr<bool> Run(HloModule*) override {
      return absl::InvalidArgumentError("instruction 'x' is bad");
    }
  };
  auto m = testing_util::Parse(kAddMul);
  HloPassPipeline pipeline("p");
  pipeline.AddStage("s");
  pipeline.AddPass<FailingPass>();
  absl::StatusOr<bool> result = pipeline.Run(m.get());
  ASSERT_FALSE(result.ok());
  EXPECT_EQ(result.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(std::string(result.status().message()),
              HasSubstr("pass 'failing' (stage 's') failed on module 'add_mul': "
                        "instruction 'x' is bad"));
}

// Kernels (fusions) per corpus module after the whole pipeline. A change
// here changes what the codegen emits; update deliberately.
const std::map<std::string, int>& ExpectedFusions() {
  static const auto* kExpected = new std::map<std::string, int>{
      // The spmd suite as written (before partitioning).
      {"spmd/attention_heads_sharded.hlo", 2},
      {"spmd/conv_data_parallel.hlo", 5},
      {"spmd/conv_spatial_halo.hlo", 0},
      {"spmd/conv_strided_halo.hlo", 3},
      {"spmd/embedding_sharded_table.hlo", 0},
      {"spmd/mlp_2d_mesh.hlo", 1},
      {"spmd/mlp_sequence_parallel.hlo", 1},
      {"spmd/mlp_tensor_parallel.hlo", 1},
      {"spmd/next_token_shift.hlo", 1},
      {"spmd/partially_replicated.hlo", 1},
      {"spmd/reshard_all_to_all.hlo", 2},
      {"spmd/reshard_between_dims.hlo", 1},
      {"spmd/scan_sharded_layers.hlo", 4},
      {"spmd/uneven_tiles.hlo", 2},
      // Collectives are never fused: only the elementwise work around them.
      {"collectives/all_gather_minor_dim.hlo", 0},
      {"collectives/all_reduce_in_while.hlo", 3},
      {"collectives/all_reduce_max_groups.hlo", 0},
      {"collectives/all_reduce_sum.hlo", 2},
      {"collectives/all_reduce_variadic_product.hlo", 0},
      {"collectives/all_to_all_blocks.hlo", 0},
      {"collectives/async_collectives.hlo", 1},
      {"collectives/collective_broadcast_groups.hlo", 0},
      {"collectives/collective_permute_ring.hlo", 0},
      {"collectives/reduce_scatter_sum.hlo", 0},
      {"collectives/replica_id_scale.hlo", 1},
      // Calls inlined first: the callees' elementwise work is one kernel.
      {"control_flow/call_nested.hlo", 1},
      {"control_flow/conditional_index.hlo", 3},
      {"control_flow/conditional_pred.hlo", 2},
      // The scans expanded into loops first: their bodies' steps and the
      // flag mask and results around them.
      {"control_flow/scan_recurrence.hlo", 13},
      {"control_flow/while_dus_rows.hlo", 6},
      {"control_flow/while_loop.hlo", 3},
      // Complex arithmetic on the parts (ExpandComplexArithmetic first):
      // each kernel reads its complex operands' parts itself; values with
      // several consumers (|b| in the division, the loop's product) are
      // kernels of their own, as for real types. The dots (four per complex
      // product, the DFT matrices' products) are GEMMs, not kernels.
      {"complex_types/complex_arithmetic.hlo", 21},
      // The part reads and the joins around the four real convolutions
      // (library calls, not kernels), and the power.
      {"complex_types/complex_conv.hlo", 8},
      {"complex_types/complex_loop_state.hlo", 4},
      // Factored and solved in loops (ExpandFactorizations), on the parts:
      // each body's part reads, updates and joins, and the Gram matrix's.
      {"complex_types/hermitian_solve.hlo", 62},
      {"complex_types/complex_matmul_reduce.hlo", 10},
      // The part reads and joins around the reduce, reduce-window and sorts
      // of the parts (their computations split too), the magnitude, phase.
      {"complex_types/complex_select_sort.hlo", 15},
      {"complex_types/spectrum.hlo", 11},
      {"conv_pool/cnn_block.hlo", 1},
      {"conv_pool/conv2d.hlo", 0},
      // The quantizing patch kernel, the filter's quantize, the reshape of
      // the GEMM's result (conv-im2col).
      {"conv_pool/conv3x3_im2col.hlo", 3},
      {"conv_pool/conv_nchw_grouped.hlo", 0},
      {"conv_pool/depthwise_conv.hlo", 0},
      {"conv_pool/max_pool_grad.hlo", 0},
      {"custom_calls/gelu.hlo", 1},
      {"custom_calls/topk.hlo", 0},
      {"dot/batch_matmul.hlo", 0},
      {"dot/matmul.hlo", 0},
      // The scaled-dot expanded first: its scales' broadcasts and products,
      // and the bias and ReLU after it.
      {"dot/block_scaled_dot.hlo", 3},
      {"dot/matvec_f64.hlo", 0},
      {"dot/mlp.hlo", 2},
      // The ragged-dots expanded first: each group's row mask and masked
      // operand, and the relu between them.
      {"dot/moe_ragged_dot.hlo", 10},
      // The same, with the transpose and the reshape around them.
      {"dot/moe_weight_grad.hlo", 18},
      {"dtypes/bf16_dot_gemm.hlo", 0},
      {"dtypes/bf16_matmul.hlo", 1},
      {"dtypes/f16_elementwise.hlo", 1},
      {"dtypes/int8_quantize.hlo", 2},
      {"dtypes/mixed_convert.hlo", 4},
      {"elementwise/add_mul.hlo", 1},
      {"elementwise/compare_select.hlo", 1},
      {"elementwise/donated_accumulate.hlo", 1},
      // The two generators' bits and the dropout and uniform kernels after
      // them; the scalar state and key words, shared, are kernels of their
      // own (slices with several consumers are not duplicated).
      {"elementwise/dropout_rng.hlo", 13},
      {"elementwise/integer_ops.hlo", 4},
      // mulhi left as it is here (the compiler expands it): the five results.
      {"elementwise/mulhi_divide.hlo", 5},
      {"elementwise/stochastic_quantize.hlo", 8},
      {"elementwise/transcendental.hlo", 4},
      {"gather_scatter/embedding_lookup.hlo", 0},
      {"gather_scatter/gather_2d_windows.hlo", 0},
      // Expanded first: the kernels of three loop bodies (cholesky, two
      // solves: the column or row update, its dynamic slices and update)
      // and of the operands around them; the dots are GEMMs.
      {"linalg/cholesky_solve.hlo", 21},
      {"linalg/triangular_solve_batched.hlo", 16},
      {"gather_scatter/scatter_add.hlo", 0},
      {"gather_scatter/scatter_add_columns.hlo", 0},
      {"gather_scatter/sort_long_rows.hlo", 0},
      {"gather_scatter/sort_pairs.hlo", 1},
      // Computations on narrow values widened first (ExpandNarrowTypes):
      // the converts fuse into their consumers like any elementwise op;
      // microscaling's six results are kernels of their own.
      {"narrow_types/fp8_scaled_matmul.hlo", 4},
      {"narrow_types/int4_weights.hlo", 3},
      {"narrow_types/microscaling.hlo", 7},
      {"narrow_types/mxfp8_scaled_dot.hlo", 3},
      {"narrow_types/narrow_loop_state.hlo", 4},
      // The widened operands of the reduce, reduce-window, sort and
      // scatter (their computations widened with them) and their results
      // narrowed back, and the magnitudes.
      {"narrow_types/narrow_reductions.hlo", 9},
      // Packed entry values unpacked and packed (LowerSubBytePacking): each
      // parameter's unpacking, the dot, each result's packing.
      {"packed_types/packed_fp4_blocks.hlo", 4},
      {"packed_types/packed_int4_matmul.hlo", 10},
      {"packed_types/packed_tuple_cache.hlo", 6},
      // The flag-on suites of the rollout audit: the cache update is one
      // dynamic-update-slice in place (no fusion); the momentum step's two
      // results; the eight inverse and hyperbolic functions' fusions; the
      // four rng draws (one in a loop), expanded before the pipeline into
      // state updates and bit mixing that fuse in many pieces.
      {"aliasing/kv_cache_append.hlo", 0},
      {"aliasing/sgd_momentum_in_place.hlo", 2},
      {"inverse_math/inverse_hyperbolic.hlo", 7},
      {"rng_state/rng_draws.hlo", 34},
      // JAX's LAPACK calls are custom calls (no fusion): the one fusion
      // builds each call's operand (K = x x^T + 16 I; the batch of
      // symmetric matrices; the complex matrix from its parts).
      {"lapack/cho_solve_lapack.hlo", 1},
      {"lapack/eigvalsh_batched_lapack.hlo", 1},
      {"lapack/svdvals_complex_lapack.hlo", 1},
      {"normalization/batch_norm_inference.hlo", 1},
      // Batch norm expanded first: its statistics and normalization.
      {"normalization/batch_norm_training.hlo", 9},
      {"normalization/layer_norm.hlo", 2},
      {"normalization/softmax.hlo", 2},
      {"reductions/argmax_variadic.hlo", 1},
      {"reductions/reduce_max_multi_dim.hlo", 1},
      {"reductions/reduce_sum_rows.hlo", 1},
      {"reductions/reduce_window_sum.hlo", 0},
      {"shape_ops/broadcast_reshape_transpose.hlo", 1},
      {"shape_ops/dynamic_slice_update.hlo", 1},
      {"shape_ops/interior_pad_reverse.hlo", 1},
      {"shape_ops/iota_layouts.hlo", 1},
      {"shape_ops/slice_concat_pad.hlo", 1},
      {"xla_syntax/async_copy_wrappers.hlo", 2},
      {"xla_syntax/batched_gather_scatter.hlo", 1},
      {"xla_syntax/bitcast_convert_widths.hlo", 1},
      // The length's count and clamp, the masked pooling and score
      // maximum, and dynamic-reshape's operand, indices, masks and
      // weights around its gather.
      {"xla_syntax/bounded_dynamic_shapes.hlo", 9},
      {"xla_syntax/conv_batch_group.hlo", 0},
      // The cuDNN convolutions lowered first: each convolution's scale,
      // side input, bias and activation fuse into one kernel after it.
      {"xla_syntax/cudnn_convolutions.hlo", 4},
      {"xla_syntax/cudnn_conv_gradients.hlo", 4},
      {"xla_syntax/gelu_aux_topk.hlo", 9},
      {"xla_syntax/cusolver_gp_solve.hlo", 24},
      {"xla_syntax/dump_attributes.hlo", 2},
      {"xla_syntax/headerless_entry.hlo", 1},
      // The map expanded first (one elementwise kernel), and topk's index
      // iota and the two slices of its sort.
      {"xla_syntax/map_topk.hlo", 4},
      {"xla_syntax/remat_barrier.hlo", 1},
      // The fusion the module was written with, and the divide after it.
      // Each rotation of the keys (slices and a concatenate), the scores'
      // sum with their per-head roll (a gather), the values' and the ids'
      // permutations (a gather each).
      {"xla_syntax/shuffles.hlo", 5},
      {"xla_syntax/sibling_fusion.hlo", 2},
      {"xla_syntax/tuple_constant_copy.hlo", 1},
      {"xla_syntax/tuple_parameters.hlo", 2},
      {"xla_syntax/unmarked_entry.hlo", 1},
      {"xla_syntax/variadic_scatter.hlo", 3},
      // XLA's custom calls lowered first: the rows' bitcast, the bias and
      // relu after the first GEMM, the residual add (and bitcast) after the
      // second, the scaled router scores, and TopK's iota and two slices;
      // the GEMMs are dots (library calls), the workspaces dead.
      {"xla_syntax/xla_custom_calls.hlo", 7},
  };
  return *kExpected;
}

std::string RelativeCorpusPath(const std::string& path) {
  const std::string prefix = "golden/modules/";
  return path.rfind(prefix, 0) == 0 ? path.substr(prefix.size()) : path;
}

// Every corpus module: the default pipeline (verifier after every pass)
// succeeds, the result verifies, prints/parses back, computes bitwise the
// same values as the original on seeded inputs, and a second run on a
// fresh copy prints byte-identical text.
TEST(PipelineCorpusTest, EveryModuleOptimizesVerifiesAndKeepsItsValues) {
  for (const std::string& path : testing_util::CorpusFiles()) {
    SCOPED_TRACE(path);
    auto original = testing_util::ParseFile(path);
    ASSERT_NE(original, nullptr);
    // Dynamic dimensions made static first, as the compiler does; the
    // original keeps them, so the values compared below check the
    // lowering against the interpreter's reading too.
    auto m = testing_util::ParseStaticFile(path);
    HloPassPipeline pipeline = DefaultPipeline();
    pipeline.set_verifier(VerifyHloModule);
    absl::StatusOr<bool> changed = pipeline.Run(m.get());
    ASSERT_TRUE(changed.ok()) << changed.status();
    testing_util::ExpectWellFormed(*m);
    // The ABI is unchanged.
    EXPECT_EQ(m->EntryProgramShape().ToString(), original->EntryProgramShape().ToString());
    for (uint64_t seed : {1u, 2u, 3u}) testing_util::ExpectSameResults(*original, *m, seed);

    auto again = testing_util::ParseStaticFile(path);
    HloPassPipeline pipeline2 = DefaultPipeline();
    ASSERT_TRUE(pipeline2.Run(again.get()).ok());
    EXPECT_EQ(again->ToString(), m->ToString());
    EXPECT_EQ(again->ToProto().SerializeAsString(), m->ToProto().SerializeAsString());
  }
}

TEST(PipelineCorpusTest, KernelCountsPerModule) {
  std::vector<std::string> seen;
  for (const std::string& path : testing_util::CorpusFiles()) {
    SCOPED_TRACE(path);
    auto m = testing_util::ParseFile(path);
    ASSERT_NE(m, nullptr);
    // Expanded first, as the compiler does (no-ops where nothing is to
    // expand).
    absl::Status expanded = ExpandBeforePipeline(m.get());
    ASSERT_TRUE(expanded.ok()) << expanded;
    HloPassPipeline pipeline = DefaultPipeline();
    ASSERT_TRUE(pipeline.Run(m.get()).ok());
    const std::string name = RelativeCorpusPath(path);
    seen.push_back(name);
    auto it = ExpectedFusions().find(name);
    if (it == ExpectedFusions().end()) {
      ADD_FAILURE() << "no expected fusion count for " << name << " (it has "
                    << testing_util::CountFusions(*m) << ")\n"
                    << m->ToString();
      continue;
    }
    EXPECT_EQ(testing_util::CountFusions(*m), it->second) << m->ToString();
  }
  EXPECT_EQ(seen.size(), ExpectedFusions().size());
}

// Prints every corpus module after the pipeline (a debugging aid):
//   hlo_passes_test --gtest_also_run_disabled_tests
//       --gtest_filter=PipelineCorpusTest.DISABLED_DumpCorpus
TEST(PipelineCorpusTest, DISABLED_DumpCorpus) {
  for (const std::string& path : testing_util::CorpusFiles()) {
    auto m = testing_util::ParseStaticFile(path);
    ASSERT_NE(m, nullptr);
    HloPassPipeline pipeline = DefaultPipeline();
    ASSERT_TRUE(pipeline.Run(m.get()).ok());
    std::cout << "=== " << path << " (" << testing_util::CountFusions(*m) << " fusions)\n"
              << m->ToString() << "\n";
  }
}

// Each pass alone, on every corpus module, keeps the values and verifies.
TEST(PipelineCorpusTest, EachPassAlonePreservesSemantics) {
  for (const std::string& pass_name : PassNames()) {
    for (const std::string& path : testing_util::CorpusFiles()) {
      SCOPED_TRACE(absl::StrCat(pass_name, " on ", path));
      auto original = testing_util::ParseFile(path);
      auto m = testing_util::ParseStaticFile(path);
      ASSERT_NE(m, nullptr);
      std::unique_ptr<HloPass> pass = CreatePassByName(pass_name);
      absl::StatusOr<bool> changed = pass->Run(m.get());
      ASSERT_TRUE(changed.ok()) << changed.status();
      testing_util::ExpectWellFormed(*m);
      testing_util::ExpectSameResults(*original, *m);
    }
  }
}

}  // namespace
}  // namespace aot
