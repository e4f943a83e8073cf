// The bundled corpus as ordinary GoogleTest tests against the goldens of
// every target: BackwardsCompatibility/v<N> loads golden v<N>,
// GoldenFileVerification/v<N> compiles with the current compiler. With
// XLA_AOT_TEST_ALL_VERSIONS=1 every version is checked (ci/sweep.sh, which
// shards it with GTEST_TOTAL_SHARDS / GTEST_SHARD_INDEX). CTest runs one
// process per target and mode (golden.backward.<target>,
// golden.verification.<target>: CtestGroupListing), each case by name still
// with --gtest_filter.
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "harness/golden/corpus.h"
#include "harness/golden/golden_store.h"
#include "harness/testing/aot_golden_test.h"

namespace aot {
namespace {

class HostGoldenTest : public AotGoldenTest {};
class HostV2GoldenTest : public AotGoldenTest {};
class CudaGoldenTest : public AotGoldenTest {};
class CudaSm80GoldenTest : public AotGoldenTest {};
class CollectiveHostGoldenTest : public AotGoldenTest {};
class CollectiveGpuGoldenTest : public AotGoldenTest {};
class ComplexHostGoldenTest : public AotGoldenTest {};
class ComplexGpuGoldenTest : public AotGoldenTest {};
class NarrowHostGoldenTest : public AotGoldenTest {};
class NarrowGpuGoldenTest : public AotGoldenTest {};
class PackedHostGoldenTest : public AotGoldenTest {};
class PackedGpuGoldenTest : public AotGoldenTest {};
class SpmdHostGoldenTest : public AotGoldenTest {};
class InverseMathHostGoldenTest : public AotGoldenTest {};
class InverseMathGpuGoldenTest : public AotGoldenTest {};
class AliasingHostGoldenTest : public AotGoldenTest {};
class AliasingGpuGoldenTest : public AotGoldenTest {};
class RngStateHostGoldenTest : public AotGoldenTest {};
class RngStateGpuGoldenTest : public AotGoldenTest {};
class LapackHostGoldenTest : public AotGoldenTest {};
class LowPrecisionGemmGpuGoldenTest : public AotGoldenTest {};
class CudnnConvGpuGoldenTest : public AotGoldenTest {};

// clang-format off
#define AOT_GOLDEN_CASES(X)                                                           \
  X(AddMul, "add_mul") X(Transcendental, "transcendental")                            \
  X(CompareSelect, "compare_select") X(IntegerOps, "integer_ops")                     \
  X(BroadcastReshapeTranspose, "broadcast_reshape_transpose")                         \
  X(SliceConcatPad, "slice_concat_pad") X(InteriorPadReverse, "interior_pad_reverse") \
  X(DynamicSliceUpdate, "dynamic_slice_update") X(IotaLayouts, "iota_layouts")        \
  X(ReduceSumRows, "reduce_sum_rows") X(ReduceMaxMultiDim, "reduce_max_multi_dim")    \
  X(ArgmaxVariadic, "argmax_variadic") X(ReduceWindowSum, "reduce_window_sum")        \
  X(Matmul, "matmul") X(BatchMatmul, "batch_matmul") X(Mlp, "mlp")                    \
  X(MatvecF64, "matvec_f64") X(Softmax, "softmax") X(LayerNorm, "layer_norm")         \
  X(Conv2d, "conv2d") X(CnnBlock, "cnn_block") X(DepthwiseConv, "depthwise_conv")     \
  X(MaxPoolGrad, "max_pool_grad") X(EmbeddingLookup, "embedding_lookup")              \
  X(Gather2dWindows, "gather_2d_windows") X(ScatterAdd, "scatter_add")                \
  X(SortPairs, "sort_pairs") X(WhileLoop, "while_loop")                               \
  X(ConditionalPred, "conditional_pred") X(ConditionalIndex, "conditional_index")     \
  X(CallNested, "call_nested") X(TopK, "topk") X(Gelu, "gelu")                        \
  X(Bf16Matmul, "bf16_matmul") X(F16Elementwise, "f16_elementwise")                   \
  X(Int8Quantize, "int8_quantize") X(MixedConvert, "mixed_convert")
// The collectives suite: the multi-replica targets only.
#define AOT_COLLECTIVE_CASES(X)                                                       \
  X(AllReduceSum, "all_reduce_sum") X(AllReduceMaxGroups, "all_reduce_max_groups")    \
  X(AllReduceVariadicProduct, "all_reduce_variadic_product")                          \
  X(AllGatherMinorDim, "all_gather_minor_dim") X(ReduceScatterSum, "reduce_scatter_sum") \
  X(AllToAllBlocks, "all_to_all_blocks") X(CollectivePermuteRing, "collective_permute_ring") \
  X(CollectiveBroadcastGroups, "collective_broadcast_groups")                         \
  X(ReplicaIdScale, "replica_id_scale") X(AllReduceInWhile, "all_reduce_in_while")    \
  X(AsyncCollectives, "async_collectives")
// The complex_types suite: the targets with emit_extended_element_types on.
#define AOT_COMPLEX_CASES(X)                                                          \
  X(ComplexArithmetic, "complex_arithmetic") X(Spectrum, "spectrum")                  \
  X(ComplexMatmulReduce, "complex_matmul_reduce") X(ComplexLoopState, "complex_loop_state") \
  X(ComplexConv, "complex_conv") X(ComplexSelectSort, "complex_select_sort")          \
  X(HermitianSolve, "hermitian_solve")
// The narrow_types suite: the same flag, its own targets.
#define AOT_NARROW_CASES(X)                                                           \
  X(Fp8ScaledMatmul, "fp8_scaled_matmul") X(Microscaling, "microscaling")             \
  X(Int4Weights, "int4_weights") X(NarrowLoopState, "narrow_loop_state")               \
  X(MxFp8ScaledDot, "mxfp8_scaled_dot") X(NarrowReductions, "narrow_reductions")
// The packed_types suite: packed sub-byte entry values, both flags.
#define AOT_PACKED_CASES(X) \
  X(PackedInt4Matmul, "packed_int4_matmul") X(PackedFp4Blocks, "packed_fp4_blocks") \
  X(PackedTupleCache, "packed_tuple_cache")
// The spmd suite: partitioned for 8 partitions (spmd_host_8).
#define AOT_SPMD_CASES(X)                                                              \
  X(MlpTensorParallel, "mlp_tensor_parallel") X(AttentionHeadsSharded, "attention_heads_sharded") \
  X(ConvSpatialHalo, "conv_spatial_halo") X(EmbeddingShardedTable, "embedding_sharded_table") \
  X(ReshardBetweenDims, "reshard_between_dims") X(PartiallyReplicated, "partially_replicated") \
  X(UnevenTiles, "uneven_tiles") X(ReshardAllToAll, "reshard_all_to_all")                   \
  X(MlpSequenceParallel, "mlp_sequence_parallel") X(ScanShardedLayers, "scan_sharded_layers")                  \
  X(NextTokenShift, "next_token_shift") X(ConvStridedHalo, "conv_strided_halo") \
  X(Mlp2dMesh, "mlp_2d_mesh") X(ConvDataParallel, "conv_data_parallel")
// The flag-on targets of the rollout audit, one suite per flag.
#define AOT_INVERSE_MATH_CASES(X) X(InverseHyperbolic, "inverse_hyperbolic")
#define AOT_ALIASING_CASES(X) \
  X(KvCacheAppend, "kv_cache_append") X(SgdMomentumInPlace, "sgd_momentum_in_place")
#define AOT_RNG_STATE_CASES(X) X(RngDraws, "rng_draws")
#define AOT_LAPACK_CASES(X)                                                          \
  X(ChoSolveLapack, "cho_solve_lapack") X(EigvalshBatchedLapack, "eigvalsh_batched_lapack") \
  X(SvdvalsComplexLapack, "svdvals_complex_lapack")
#define AOT_LOW_PRECISION_GEMM_CASES(X)                                               \
  X(Bf16DotGemm, "bf16_dot_gemm") X(Bf16Matmul, "bf16_matmul")                        \
  X(F16Elementwise, "f16_elementwise") X(Int8Quantize, "int8_quantize")               \
  X(MixedConvert, "mixed_convert")
#define AOT_CUDNN_CONV_CASES(X)                                                       \
  X(CnnBlock, "cnn_block") X(Conv2d, "conv2d") X(Conv3x3Im2col, "conv3x3_im2col")     \
  X(ConvNchwGrouped, "conv_nchw_grouped") X(DepthwiseConv, "depthwise_conv")          \
  X(MaxPoolGrad, "max_pool_grad")
// clang-format on

#define AOT_HOST_CASE(name, test) \
  TEST_P(HostGoldenTest, name) { CheckGolden(test); }
#define AOT_HOST_V2_CASE(name, test) \
  TEST_P(HostV2GoldenTest, name) { CheckGolden(test); }
#define AOT_CUDA_CASE(name, test) \
  TEST_P(CudaGoldenTest, name) { CheckGolden(test); }
#define AOT_CUDA_SM80_CASE(name, test) \
  TEST_P(CudaSm80GoldenTest, name) { CheckGolden(test); }
AOT_GOLDEN_CASES(AOT_HOST_CASE)
AOT_GOLDEN_CASES(AOT_HOST_V2_CASE)
AOT_GOLDEN_CASES(AOT_CUDA_CASE)
AOT_GOLDEN_CASES(AOT_CUDA_SM80_CASE)
#define AOT_COLLECTIVE_HOST_CASE(name, test) \
  TEST_P(CollectiveHostGoldenTest, name) { CheckGolden(test); }
#define AOT_COLLECTIVE_GPU_CASE(name, test) \
  TEST_P(CollectiveGpuGoldenTest, name) { CheckGolden(test); }
AOT_COLLECTIVE_CASES(AOT_COLLECTIVE_HOST_CASE)
AOT_COLLECTIVE_CASES(AOT_COLLECTIVE_GPU_CASE)
#define AOT_COMPLEX_HOST_CASE(name, test) \
  TEST_P(ComplexHostGoldenTest, name) { CheckGolden(test); }
#define AOT_COMPLEX_GPU_CASE(name, test) \
  TEST_P(ComplexGpuGoldenTest, name) { CheckGolden(test); }
AOT_COMPLEX_CASES(AOT_COMPLEX_HOST_CASE)
AOT_COMPLEX_CASES(AOT_COMPLEX_GPU_CASE)
#define AOT_NARROW_HOST_CASE(name, test) \
  TEST_P(NarrowHostGoldenTest, name) { CheckGolden(test); }
#define AOT_NARROW_GPU_CASE(name, test) \
  TEST_P(NarrowGpuGoldenTest, name) { CheckGolden(test); }
AOT_NARROW_CASES(AOT_NARROW_HOST_CASE)
AOT_NARROW_CASES(AOT_NARROW_GPU_CASE)
#define AOT_PACKED_HOST_CASE(name, test) \
  TEST_P(PackedHostGoldenTest, name) { CheckGolden(test); }
#define AOT_PACKED_GPU_CASE(name, test) \
  TEST_P(PackedGpuGoldenTest, name) { CheckGolden(test); }
AOT_PACKED_CASES(AOT_PACKED_HOST_CASE)
AOT_PACKED_CASES(AOT_PACKED_GPU_CASE)
#define AOT_SPMD_HOST_CASE(name, test) \
  TEST_P(SpmdHostGoldenTest, name) { CheckGolden(test); }
AOT_SPMD_CASES(AOT_SPMD_HOST_CASE)
#define AOT_INVERSE_MATH_HOST_CASE(name, test) \
  TEST_P(InverseMathHostGoldenTest, name) { CheckGolden(test); }
#define AOT_INVERSE_MATH_GPU_CASE(name, test) \
  TEST_P(InverseMathGpuGoldenTest, name) { CheckGolden(test); }
AOT_INVERSE_MATH_CASES(AOT_INVERSE_MATH_HOST_CASE)
AOT_INVERSE_MATH_CASES(AOT_INVERSE_MATH_GPU_CASE)
#define AOT_ALIASING_HOST_CASE(name, test) \
  TEST_P(AliasingHostGoldenTest, name) { CheckGolden(test); }
#define AOT_ALIASING_GPU_CASE(name, test) \
  TEST_P(AliasingGpuGoldenTest, name) { CheckGolden(test); }
AOT_ALIASING_CASES(AOT_ALIASING_HOST_CASE)
AOT_ALIASING_CASES(AOT_ALIASING_GPU_CASE)
#define AOT_RNG_STATE_HOST_CASE(name, test) \
  TEST_P(RngStateHostGoldenTest, name) { CheckGolden(test); }
#define AOT_RNG_STATE_GPU_CASE(name, test) \
  TEST_P(RngStateGpuGoldenTest, name) { CheckGolden(test); }
AOT_RNG_STATE_CASES(AOT_RNG_STATE_HOST_CASE)
AOT_RNG_STATE_CASES(AOT_RNG_STATE_GPU_CASE)
#define AOT_LAPACK_HOST_CASE(name, test) \
  TEST_P(LapackHostGoldenTest, name) { CheckGolden(test); }
AOT_LAPACK_CASES(AOT_LAPACK_HOST_CASE)
#define AOT_LOW_PRECISION_GEMM_GPU_CASE(name, test) \
  TEST_P(LowPrecisionGemmGpuGoldenTest, name) { CheckGolden(test); }
AOT_LOW_PRECISION_GEMM_CASES(AOT_LOW_PRECISION_GEMM_GPU_CASE)
#define AOT_CUDNN_CONV_GPU_CASE(name, test) \
  TEST_P(CudnnConvGpuGoldenTest, name) { CheckGolden(test); }
AOT_CUDNN_CONV_CASES(AOT_CUDNN_CONV_GPU_CASE)

// CTest gets an instance per version that runs: the boundary versions, or
// all of them with XLA_AOT_TEST_ALL_VERSIONS=1 (ci/sweep.sh).
TEST(GoldenParamsTest, OnlyTheVersionsThatRunAreInstantiated) {
  auto versions = DiscoverVersions("golden", "host-x86-64-v3");
  ASSERT_TRUE(versions.ok()) << versions.status();
  auto all = AllVersionsFromEnvironment();
  ASSERT_TRUE(all.ok()) << all.status();
  std::vector<int> instantiated;
  for (const GoldenParam& p : BackwardsCompatibilityParams("host-x86-64-v3")) {
    instantiated.push_back(p.version);
  }
  EXPECT_EQ(instantiated, SelectVersions(*versions, *all));
  if (!*all) {
    EXPECT_LT(instantiated.size(), versions->size());
  }
}

// CTest's groups (one test per target and mode) hold every suite of the
// binary, each in exactly one group, under distinct names.
TEST(GoldenParamsTest, CtestGroupsHoldEverySuiteOnce) {
  std::istringstream listing(CtestGroupListing());
  std::set<std::string> names;
  std::map<std::string, std::string> group_of_suite;
  std::string line;
  while (std::getline(listing, line)) {
    const size_t space = line.find(' ');
    ASSERT_NE(space, std::string::npos) << line;
    const std::string name = line.substr(0, space), filter = line.substr(space + 1);
    EXPECT_TRUE(names.insert(name).second) << "two groups named " << name;
    ASSERT_TRUE(filter.size() > 2 && filter.ends_with(".*")) << line;
    const std::string suite = filter.substr(0, filter.size() - 2);
    EXPECT_TRUE(group_of_suite.emplace(suite, name).second) << suite << " in two groups";
  }
  const ::testing::UnitTest& unit = *::testing::UnitTest::GetInstance();
  std::set<std::string> suites;
  for (int i = 0; i < unit.total_test_suite_count(); ++i) {
    suites.insert(unit.GetTestSuite(i)->name());
    EXPECT_TRUE(group_of_suite.contains(unit.GetTestSuite(i)->name()))
        << unit.GetTestSuite(i)->name() << " is in no CTest group";
  }
  for (const auto& [suite, name] : group_of_suite) {
    EXPECT_TRUE(suites.contains(suite)) << name << " runs " << suite << ", which has no test";
  }
  EXPECT_EQ(group_of_suite["BackwardsCompatibility/HostGoldenTest"],
            "golden.backward.host-x86-64-v3");
  EXPECT_EQ(group_of_suite["GoldenFileVerification/CudaGoldenTest"],
            "golden.verification.cuda-sm_90");
  EXPECT_EQ(group_of_suite["GoldenParamsTest"], "golden.GoldenParamsTest");
}

INSTANTIATE_AOT_GOLDEN_TESTS(HostGoldenTest, "host-x86-64-v3");
INSTANTIATE_AOT_GOLDEN_TESTS(HostV2GoldenTest, "host-x86-64-v2");
INSTANTIATE_AOT_GOLDEN_TESTS(CudaGoldenTest, "cuda-sm_90");
INSTANTIATE_AOT_GOLDEN_TESTS(CudaSm80GoldenTest, "cuda-sm_80");
INSTANTIATE_AOT_GOLDEN_TESTS(CollectiveHostGoldenTest, "collective_ops_host_4replica");
INSTANTIATE_AOT_GOLDEN_TESTS(CollectiveGpuGoldenTest, "collective_ops_4gpu_h100");
INSTANTIATE_AOT_GOLDEN_TESTS(ComplexHostGoldenTest, "complex_types_host");
INSTANTIATE_AOT_GOLDEN_TESTS(ComplexGpuGoldenTest, "complex_types_h100");
INSTANTIATE_AOT_GOLDEN_TESTS(NarrowHostGoldenTest, "narrow_types_host");
INSTANTIATE_AOT_GOLDEN_TESTS(NarrowGpuGoldenTest, "narrow_types_h100");
INSTANTIATE_AOT_GOLDEN_TESTS(PackedHostGoldenTest, "packed_types_host");
INSTANTIATE_AOT_GOLDEN_TESTS(PackedGpuGoldenTest, "packed_types_h100");
INSTANTIATE_AOT_GOLDEN_TESTS(SpmdHostGoldenTest, "spmd_host_8");
INSTANTIATE_AOT_GOLDEN_TESTS(InverseMathHostGoldenTest, "inverse_math_host");
INSTANTIATE_AOT_GOLDEN_TESTS(InverseMathGpuGoldenTest, "inverse_math_h100");
INSTANTIATE_AOT_GOLDEN_TESTS(AliasingHostGoldenTest, "aliasing_host");
INSTANTIATE_AOT_GOLDEN_TESTS(AliasingGpuGoldenTest, "aliasing_h100");
INSTANTIATE_AOT_GOLDEN_TESTS(RngStateHostGoldenTest, "rng_state_host");
INSTANTIATE_AOT_GOLDEN_TESTS(RngStateGpuGoldenTest, "rng_state_h100");
INSTANTIATE_AOT_GOLDEN_TESTS(LapackHostGoldenTest, "lapack_host");
INSTANTIATE_AOT_GOLDEN_TESTS(LowPrecisionGemmGpuGoldenTest, "low_precision_gemm_h100");
INSTANTIATE_AOT_GOLDEN_TESTS(CudnnConvGpuGoldenTest, "cudnn_conv_h100");

}  // namespace
}  // namespace aot

int main(int argc, char** argv) { return aot::RunGoldenTestMain(argc, argv); }
