#include "compiler/codegen/kernel_emitter.h"

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <memory>
#include <ostream>
#include <regex>
#include <set>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_replace.h"
#include "absl/strings/string_view.h"
#include "compiler/codegen/llvm_backend.h"
#include "compiler/hlo/hlo_computation.h"
#include "compiler/hlo/hlo_module.h"
#include "compiler/hlo/hlo_parser.h"
#include "compiler/target/target_config.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "runtime/kernel_payload.h"
#include "runtime/platform/host/cpu_features.h"
#include "runtime/platform/host/host_kernel_abi.h"
#include "runtime/platform/host/host_kernel_loader.h"
#include "runtime/testing/test_kernels.h"
#include "support/status_macros.h"
#include "support/testing/status_testing.h"

namespace aot {
namespace {

constexpr char kKernelName[] = "test_kernel";

// Compiles the kernel of the entry computation's root instruction, the way
// the thunk emitter builds its KernelSpec: the operands as inputs, the
// leaves of the result as outputs.
absl::StatusOr<CompiledKernel> CompileRootFor(absl::string_view hlo,
                                              const TargetConfigProto& target,
                                              KernelEmitOptions options = {}) {
  AOT_ASSIGN_OR_RETURN(std::unique_ptr<HloModule> module, ParseHloModule(hlo));
  const HloInstruction* root = module->entry_computation()->root_instruction();
  KernelSpec spec;
  spec.name = kKernelName;
  spec.instruction = root;
  for (const HloInstruction* input : KernelInputs(*root)) {
    spec.input_shapes.push_back(input->shape());
  }
  spec.output_shapes = root->shape().FlattenLeaves();
  spec.update_in_place = ScatterUsesAtomics(*root, target);
  return CompileKernel(spec, target, options);
}

absl::StatusOr<CompiledKernel> CompileRoot(absl::string_view hlo, absl::string_view target_name,
                                           KernelEmitOptions options = {}) {
  AOT_ASSIGN_OR_RETURN(TargetConfigProto target, ShippedTargetConfig(target_name));
  return CompileRootFor(hlo, target, options);
}

KernelEmitOptions KeepIr() {
  KernelEmitOptions options;
  options.keep_llvm_ir = true;
  options.compile_cubin = false;
  return options;
}

// An elementwise binary op over `type`[dims].
std::string Binary(absl::string_view op, absl::string_view type, absl::string_view dims) {
  std::string shape = absl::StrCat(type, "[", dims, "]");
  return absl::StrCat("HloModule m\nENTRY %main (x: ", shape, ", y: ", shape, ") -> ", shape,
                      " {\n  %x = ", shape, " parameter(0)\n  %y = ", shape,
                      " parameter(1)\n  ROOT %r = ", shape, " ", op, "(%x, %y)\n}\n");
}

// Lane counts of the vector operations `op` on `element` in the IR, e.g.
// {8} for "fadd <8 x float>".
std::set<int> VectorWidths(const std::string& ir, absl::string_view op, absl::string_view element) {
  std::regex re(absl::StrCat(" ", op, " <([0-9]+) x ", element, ">"));
  std::set<int> widths;
  for (auto it = std::sregex_iterator(ir.begin(), ir.end(), re); it != std::sregex_iterator();
       ++it) {
    widths.insert(std::stoi((*it)[1].str()));
  }
  return widths;
}

struct Dims {
  int64_t blocks;
  int64_t threads;
};

void ExpectLaunch(const LaunchDimensionsProto& dims, Dims expected) {
  EXPECT_EQ(dims.block_count_x(), expected.blocks);
  EXPECT_EQ(dims.block_count_y(), 1);
  EXPECT_EQ(dims.block_count_z(), 1);
  EXPECT_EQ(dims.threads_per_block_x(), expected.threads);
  EXPECT_EQ(dims.threads_per_block_y(), 1);
  EXPECT_EQ(dims.threads_per_block_z(), 1);
}

// ---------------------------------------------------------------------------
// Vectorization of elementwise loops on the host.

TEST(KernelEmitterTest, HostElementwiseF32LoopIsVectorizedWithAvx2Width) {
  auto kernel = CompileRoot(Binary("add", "f32", "4096"), "host-x86-64-v3", KeepIr());
  ASSERT_TRUE(kernel.ok()) << kernel.status();
  // The emitter writes a scalar loop...
  EXPECT_EQ(kernel->llvm_ir.find(" x float>"), std::string::npos) << kernel->llvm_ir;
  EXPECT_NE(kernel->llvm_ir.find("fadd float"), std::string::npos);
  // ... that O3 vectorizes to the 256-bit registers of x86-64-v3.
  const std::string& ir = kernel->optimized_llvm_ir;
  EXPECT_EQ(VectorWidths(ir, "fadd", "float"), std::set<int>{8}) << ir;
  EXPECT_EQ(VectorWidths(ir, "load", "float"), std::set<int>{8}) << ir;
  EXPECT_EQ(VectorWidths(ir, "store", "float"), std::set<int>{8}) << ir;
  EXPECT_NE(ir.find("!\"llvm.loop.isvectorized\", i32 1"), std::string::npos) << ir;
  EXPECT_NE(ir.find("\"target-cpu\"=\"x86-64-v3\""), std::string::npos) << ir;
}

TEST(KernelEmitterTest, HostVectorWidthFollowsTheIsaLevel) {
  // x86-64-v2 has 128-bit SSE registers only: 4 lanes of f32, never 8.
  auto v2 = CompileRoot(Binary("multiply", "f32", "4096"), "host-x86-64-v2", KeepIr());
  ASSERT_TRUE(v2.ok()) << v2.status();
  EXPECT_EQ(VectorWidths(v2->optimized_llvm_ir, "fmul", "float"), std::set<int>{4})
      << v2->optimized_llvm_ir;
  EXPECT_NE(v2->optimized_llvm_ir.find("llvm.loop.isvectorized"), std::string::npos);

  auto v3 = CompileRoot(Binary("multiply", "f32", "4096"), "host-x86-64-v3", KeepIr());
  ASSERT_TRUE(v3.ok()) << v3.status();
  EXPECT_EQ(VectorWidths(v3->optimized_llvm_ir, "fmul", "float"), std::set<int>{8});
}

TEST(KernelEmitterTest, HostVectorizesF64AndIntegerLoops) {
  auto f64 = CompileRoot(Binary("subtract", "f64", "2048"), "host-x86-64-v3", KeepIr());
  ASSERT_TRUE(f64.ok()) << f64.status();
  EXPECT_EQ(VectorWidths(f64->optimized_llvm_ir, "fsub", "double"), std::set<int>{4})
      << f64->optimized_llvm_ir;

  auto s32 = CompileRoot(Binary("add", "s32", "2048"), "host-x86-64-v3", KeepIr());
  ASSERT_TRUE(s32.ok()) << s32.status();
  EXPECT_EQ(VectorWidths(s32->optimized_llvm_ir, "add", "i32"), std::set<int>{8})
      << s32->optimized_llvm_ir;
}

constexpr char kLoopFusion[] = R"(
HloModule m
%fused (p0: f32[4096], p1: f32[4096]) -> f32[4096] {
  %p0 = f32[4096]{0} parameter(0)
  %p1 = f32[4096]{0} parameter(1)
  %m = f32[4096]{0} multiply(%p0, %p1)
  ROOT %a = f32[4096]{0} add(%m, %p0)
}
ENTRY %main (x: f32[4096], y: f32[4096]) -> f32[4096] {
  %x = f32[4096]{0} parameter(0)
  %y = f32[4096]{0} parameter(1)
  ROOT %f = f32[4096]{0} fusion(%x, %y), kind=kLoop, calls=%fused
}
)";

TEST(KernelEmitterTest, HostLoopFusionIsOneVectorizedLoop) {
  auto kernel = CompileRoot(kLoopFusion, "host-x86-64-v3", KeepIr());
  ASSERT_TRUE(kernel.ok()) << kernel.status();
  const std::string& ir = kernel->optimized_llvm_ir;
  EXPECT_EQ(VectorWidths(ir, "fmul", "float"), std::set<int>{8}) << ir;
  EXPECT_EQ(VectorWidths(ir, "fadd", "float"), std::set<int>{8}) << ir;
  // Bitwise-reproducible math: no fused multiply-add contraction.
  EXPECT_EQ(ir.find("llvm.fma"), std::string::npos);
  EXPECT_EQ(ir.find("llvm.fmuladd"), std::string::npos);
  // Two inputs and one output.
  EXPECT_NE(kernel->llvm_ir.find("@test_kernel__aot_arity = constant i64 3"), std::string::npos)
      << kernel->llvm_ir;
}

// ---------------------------------------------------------------------------
// Launch dimensions.

struct LaunchCase {
  std::string dims;  // of an f32 elementwise add
  Dims host;
  Dims cuda;
};

void PrintTo(const LaunchCase& c, std::ostream* os) { *os << "f32[" << c.dims << "]"; }

class LaunchDimensionsTest : public ::testing::TestWithParam<LaunchCase> {};

TEST_P(LaunchDimensionsTest, ElementParallelKernels) {
  const LaunchCase& c = GetParam();
  KernelEmitOptions options;
  options.compile_cubin = false;
  auto host = CompileRoot(Binary("add", "f32", c.dims), "host-x86-64-v3", options);
  ASSERT_TRUE(host.ok()) << host.status();
  // The host runs up to 1024 elements per block, one block per pool task.
  ExpectLaunch(host->launch_dimensions, c.host);
  auto cuda = CompileRoot(Binary("add", "f32", c.dims), "h100", options);
  ASSERT_TRUE(cuda.ok()) << cuda.status();
  // CUDA: 256 threads per block, one element per thread.
  ExpectLaunch(cuda->launch_dimensions, c.cuda);
}

INSTANTIATE_TEST_SUITE_P(
    KernelEmitterTest, LaunchDimensionsTest,
    ::testing::Values(LaunchCase{"", {1, 1}, {1, 1}},              // scalar
                      LaunchCase{"100", {1, 100}, {1, 100}},       // one partial block
                      LaunchCase{"256", {1, 256}, {1, 256}},       // one full CUDA block
                      LaunchCase{"257", {1, 257}, {2, 256}},       // CUDA tail block
                      LaunchCase{"1024", {1, 1024}, {4, 256}},     // one full host block
                      LaunchCase{"1025", {2, 1024}, {5, 256}},     // host tail block
                      LaunchCase{"5000", {5, 1024}, {20, 256}},    //
                      LaunchCase{"3,1000", {3, 1024}, {12, 256}},  // rank 2: 3000
                      LaunchCase{"2,3,4,5", {1, 120}, {1, 120}}),  // rank 4: 120
    [](const ::testing::TestParamInfo<LaunchCase>& info) {
      std::string name = info.param.dims.empty() ? "scalar" : "f32_" + info.param.dims;
      std::replace(name.begin(), name.end(), ',', 'x');
      return name;
    });

constexpr char kSortRows[] = R"(
HloModule m
%lt (a: f32[], b: f32[]) -> pred[] {
  %a = f32[] parameter(0)
  %b = f32[] parameter(1)
  ROOT %r = pred[] compare(%a, %b), direction=LT
}
ENTRY %main (x: f32[4,16]) -> f32[4,16] {
  %x = f32[4,16]{1,0} parameter(0)
  ROOT %s = f32[4,16]{1,0} sort(%x), dimensions={1}, to_apply=%lt
}
)";

int CountOf(const std::string& text, const std::string& what) {
  int n = 0;
  for (size_t p = text.find(what); p != std::string::npos; p = text.find(what, p + 1)) ++n;
  return n;
}

TEST(KernelEmitterTest, HostSortLaunchesOneSingleThreadBlockPerRow) {
  auto kernel = CompileRoot(kSortRows, "host-x86-64-v3", KeepIr());
  ASSERT_TRUE(kernel.ok()) << kernel.status();
  ExpectLaunch(kernel->launch_dimensions, {4, 1});
}

// CUDA: a row that fits shared memory is sorted by a block with a bitonic
// network (a barrier after each of its log2(P)(log2(P)+1)/2 stages, plus
// one after the load); longer rows keep the row-per-thread merge sort.
TEST(KernelEmitterTest, CudaSortIsABitonicNetworkInSharedMemory) {
  auto kernel = CompileRoot(kSortRows, "h100", KeepIr());
  ASSERT_TRUE(kernel.ok()) << kernel.status();
  ExpectLaunch(kernel->launch_dimensions, {4, 32});
  const std::string& ptx = kernel->binary.ptx();
  EXPECT_EQ(CountOf(ptx, "bar.sync"), 1 + 4 * 5 / 2) << ptx;  // P = 16
  EXPECT_NE(ptx.find(".shared .align 8 .b8 sort_keys0[64]"), std::string::npos) << ptx;
  EXPECT_NE(ptx.find(".shared .align 8 .b8 sort_positions[64]"), std::string::npos) << ptx;
  EXPECT_NE(ptx.find("ld.shared.f32"), std::string::npos) << ptx;
  // 1000 elements pad to 1024: 512 compare-exchanges a stage, 512 threads.
  const std::string longer = absl::StrReplaceAll(kSortRows, {{"16]", "1000]"}});
  auto wide = CompileRoot(longer, "h100", KeepIr());
  ASSERT_TRUE(wide.ok()) << wide.status();
  ExpectLaunch(wide->launch_dimensions, {4, 512});
  EXPECT_EQ(CountOf(wide->binary.ptx(), "bar.sync"), 1 + 10 * 11 / 2);
  // Too long for shared memory: one thread per row, as on the host.
  const std::string huge = absl::StrReplaceAll(kSortRows, {{"16]", "100000]"}});
  auto serial = CompileRoot(huge, "h100", KeepIr());
  ASSERT_TRUE(serial.ok()) << serial.status();
  ExpectLaunch(serial->launch_dimensions, {4, 1});
  EXPECT_EQ(serial->binary.ptx().find("bar.sync"), std::string::npos);
}

constexpr char kScatter[] = R"(
HloModule m
%add (x: f32[], y: f32[]) -> f32[] {
  %x = f32[] parameter(0)
  %y = f32[] parameter(1)
  ROOT %s = f32[] add(%x, %y)
}
ENTRY %main (acc: f32[10,4], idx: s32[5], upd: f32[5,4]) -> f32[10,4] {
  %acc = f32[10,4]{1,0} parameter(0)
  %idx = s32[5]{0} parameter(1)
  %upd = f32[5,4]{1,0} parameter(2)
  ROOT %sc = f32[10,4]{1,0} scatter(%acc, %idx, %upd), update_window_dims={1},)"
                            R"( inserted_window_dims={0}, scatter_dims_to_operand_dims={0},)"
                            R"( index_vector_dim=1, to_apply=%add
}
)";

TEST(KernelEmitterTest, HostScatterRunsSeriallyInOneThread) {
  auto kernel = CompileRoot(kScatter, "host-x86-64-v3", KeepIr());
  ASSERT_TRUE(kernel.ok()) << kernel.status();
  ExpectLaunch(kernel->launch_dimensions, {1, 1});
}

// CUDA: a scatter whose combiner has an atomic runs a thread per update
// element (the output already holds the operand); others stay serial.
TEST(KernelEmitterTest, CudaScatterAddIsParallelWithAtomics) {
  auto h100 = ShippedTargetConfig("h100");
  ASSERT_TRUE(h100.ok()) << h100.status();
  auto module = ParseHloModule(kScatter);
  ASSERT_TRUE(module.ok()) << module.status();
  EXPECT_TRUE(ScatterUsesAtomics(*(*module)->entry_computation()->root_instruction(), *h100));
  auto kernel = CompileRoot(kScatter, "h100", KeepIr());
  ASSERT_TRUE(kernel.ok()) << kernel.status();
  ExpectLaunch(kernel->launch_dimensions, {1, 20});  // 5 x 4 update elements
  EXPECT_NE(kernel->llvm_ir.find("atomicrmw fadd ptr"), std::string::npos) << kernel->llvm_ir;
  EXPECT_TRUE(
      std::regex_search(kernel->binary.ptx(), std::regex(R"((atom|red)\.global\.add\.f32)")))
      << kernel->binary.ptx();
  // No atomic for a multiply: serial, and the host never takes this path.
  const std::string product = absl::StrReplaceAll(kScatter, {{"add(%x, %y)", "multiply(%x, %y)"}});
  auto serial = CompileRoot(product, "h100", KeepIr());
  ASSERT_TRUE(serial.ok()) << serial.status();
  ExpectLaunch(serial->launch_dimensions, {1, 1});
  EXPECT_EQ(serial->llvm_ir.find("atomicrmw"), std::string::npos);
  auto product_module = ParseHloModule(product);
  ASSERT_TRUE(product_module.ok()) << product_module.status();
  EXPECT_FALSE(
      ScatterUsesAtomics(*(*product_module)->entry_computation()->root_instruction(), *h100));
  auto host = ShippedTargetConfig("host-x86-64-v3");
  ASSERT_TRUE(host.ok()) << host.status();
  EXPECT_FALSE(ScatterUsesAtomics(*(*module)->entry_computation()->root_instruction(), *host));
  // An overwriting scatter is parallel only with unique_indices (plain
  // stores); otherwise the last update must win, serially.
  const std::string overwrite =
      absl::StrReplaceAll(kScatter, {{"  %y = f32[] parameter(1)\n  ROOT %s = f32[] add(%x, %y)",
                                      "  ROOT %y = f32[] parameter(1)"}});
  auto racy = CompileRoot(overwrite, "h100", KeepIr());
  ASSERT_TRUE(racy.ok()) << racy.status();
  ExpectLaunch(racy->launch_dimensions, {1, 1});
  const std::string unique =
      absl::StrReplaceAll(overwrite, {{"to_apply=%add", "unique_indices=true, to_apply=%add"}});
  auto stores = CompileRoot(unique, "h100", KeepIr());
  ASSERT_TRUE(stores.ok()) << stores.status();
  ExpectLaunch(stores->launch_dimensions, {1, 20});
  EXPECT_EQ(stores->llvm_ir.find("atomicrmw"), std::string::npos);
}

// ---------------------------------------------------------------------------
// GPU row reductions: a block per row, warp shuffles and shared memory.

// Row sum of x[rows, len] (a plain reduce root).
std::string RowSum(int64_t rows, int64_t len, absl::string_view type = "f32") {
  return absl::StrCat("HloModule m\n%add (a: ", type, "[], b: ", type, "[]) -> ", type,
                      "[] {\n  %a = ", type, "[] parameter(0)\n  %b = ", type,
                      "[] parameter(1)\n  ROOT %s = ", type, "[] add(%a, %b)\n}\nENTRY %main {\n",
                      "  %x = ", type, "[", rows, ",", len, "] parameter(0)\n  %z = ", type,
                      "[] constant(0)\n  ROOT %r = ", type, "[", rows, "] reduce(%x, %z), ",
                      "dimensions={1}, to_apply=%add\n}\n");
}

// CUDA launch dimensions come from the target's limits: threads per block
// at most threads_per_block_limit, and a grid capped at block_dim_limit_x
// whose threads then stride over the elements.
TEST(KernelEmitterTest, CudaLaunchDimensionsFollowTheTargetLimits) {
  auto h100 = ShippedTargetConfig("h100");
  ASSERT_TRUE(h100.ok()) << h100.status();
  TargetConfigProto small = *h100;
  small.mutable_device_description()->set_threads_per_block_limit(64);
  small.mutable_device_description()->set_block_dim_limit_x(4);
  auto capped = CompileRootFor(Binary("add", "f32", "5000"), small, KeepIr());
  ASSERT_TRUE(capped.ok()) << capped.status();
  ExpectLaunch(capped->launch_dimensions, {4, 64});
  // A grid-stride loop (the "range" loop) stepping by 4 blocks x 64 threads.
  EXPECT_NE(capped->llvm_ir.find("range:"), std::string::npos) << capped->llvm_ir;
  EXPECT_TRUE(
      std::regex_search(capped->llvm_ir, std::regex(R"(add (nuw )?(nsw )?i64 %[^,]+, 256)")))
      << capped->llvm_ir;
  // Within the limits: one element per thread, no loop.
  auto plain = CompileRootFor(Binary("add", "f32", "256"), small, KeepIr());
  ASSERT_TRUE(plain.ok()) << plain.status();
  ExpectLaunch(plain->launch_dimensions, {4, 64});
  EXPECT_EQ(plain->llvm_ir.find("range:"), std::string::npos) << plain->llvm_ir;
  // A row reduction's blocks respect the thread limit too.
  const std::string kRows = RowSum(3, 5000);
  small.mutable_device_description()->set_block_dim_limit_x(1 << 20);
  auto rows = CompileRootFor(kRows, small, KeepIr());
  ASSERT_TRUE(rows.ok()) << rows.status();
  ExpectLaunch(rows->launch_dimensions, {3, 64});
  auto rows_h100 = CompileRootFor(kRows, *h100, KeepIr());
  ASSERT_TRUE(rows_h100.ok()) << rows_h100.status();
  // Fewer rows than SMs: a block of the target's 1024 threads per row.
  ExpectLaunch(rows_h100->launch_dimensions, {3, 1024});
}

TEST(KernelEmitterTest, CudaRowReductionIsABlockPerRowWithShufflesAndSharedMemory) {
  auto kernel = CompileRoot(RowSum(300, 5000), "h100", KeepIr());
  ASSERT_TRUE(kernel.ok()) << kernel.status();
  ExpectLaunch(kernel->launch_dimensions, {300, 256});
  const std::string& ptx = kernel->binary.ptx();
  // Two butterfly rounds of five shuffles (the warp, then the warps'
  // partials), partials in shared memory between two barriers.
  EXPECT_EQ(CountOf(ptx, "shfl.sync.bfly.b32"), 10) << ptx;
  EXPECT_NE(ptx.find(".shared .align 8 .b8 row_partials[128]"), std::string::npos) << ptx;
  EXPECT_NE(ptx.find("st.shared.f32"), std::string::npos) << ptx;
  EXPECT_NE(ptx.find("ld.shared.f32"), std::string::npos) << ptx;
  EXPECT_EQ(CountOf(ptx, "bar.sync"), 2) << ptx;
  // A short row gets one warp: shuffles only, no shared memory or barrier.
  auto short_row = CompileRoot(RowSum(7, 20), "h100", KeepIr());
  ASSERT_TRUE(short_row.ok()) << short_row.status();
  ExpectLaunch(short_row->launch_dimensions, {7, 32});
  EXPECT_EQ(CountOf(short_row->binary.ptx(), "shfl.sync.bfly.b32"), 5);
  EXPECT_EQ(short_row->binary.ptx().find("bar.sync"), std::string::npos);
  EXPECT_EQ(short_row->binary.ptx().find(".shared"), std::string::npos);
  // Many short rows: a warp each, 8 rows to a block once every SM has work
  // (1000 rows / 132 SMs -> 8 warps per block).
  auto many = CompileRoot(RowSum(1000, 100), "h100", KeepIr());
  ASSERT_TRUE(many.ok()) << many.status();
  ExpectLaunch(many->launch_dimensions, {125, 256});
  EXPECT_EQ(CountOf(many->binary.ptx(), "shfl.sync.bfly.b32"), 5);
  // 200 rows: 2 warps per block keeps 100 blocks for the SMs.
  auto few = CompileRoot(RowSum(200, 100), "h100", KeepIr());
  ASSERT_TRUE(few.ok()) << few.status();
  ExpectLaunch(few->launch_dimensions, {100, 64});
  // f64 accumulators move through two 32-bit shuffles each.
  auto f64 = CompileRoot(RowSum(4, 1000, "f64"), "h100", KeepIr());
  ASSERT_TRUE(f64.ok()) << f64.status();
  EXPECT_EQ(CountOf(f64->binary.ptx(), "shfl.sync.bfly.b32"), 20);
  // The host keeps its per-row loop.
  auto host = CompileRoot(RowSum(300, 5000), "host-x86-64-v3", KeepIr());
  ASSERT_TRUE(host.ok()) << host.status();
  EXPECT_EQ(host->llvm_ir.find("nvvm"), std::string::npos);
}

TEST(KernelEmitterTest, CudaColumnReductionIsTiledThroughSharedMemory) {
  constexpr char kColumnSum[] = R"(
HloModule m
%add (a: f32[], b: f32[]) -> f32[] {
  %a = f32[] parameter(0)
  %b = f32[] parameter(1)
  ROOT %s = f32[] add(%a, %b)
}
ENTRY %main {
  %x = f32[300,64] parameter(0)
  %z = f32[] constant(0)
  ROOT %r = f32[64] reduce(%x, %z), dimensions={0}, to_apply=%add
})";
  auto kernel = CompileRoot(kColumnSum, "h100", KeepIr());
  ASSERT_TRUE(kernel.ok()) << kernel.status();
  // Two tiles of 32 columns, 8 warps each walking every 8th row; the
  // partials meet in a [8][33] shared array behind one barrier.
  ExpectLaunch(kernel->launch_dimensions, {2, 256});
  const std::string& ptx = kernel->binary.ptx();
  EXPECT_NE(ptx.find(".shared .align 8 .b8 column_partials[1056]"), std::string::npos) << ptx;
  EXPECT_EQ(CountOf(ptx, "bar.sync"), 1) << ptx;
  EXPECT_NE(ptx.find("st.shared.f32"), std::string::npos) << ptx;
  EXPECT_NE(ptx.find("ld.shared.f32"), std::string::npos) << ptx;
  EXPECT_EQ(ptx.find("shfl.sync"), std::string::npos) << ptx;
}

// A softmax fusion (fusion.h's row reduction with an epilogue on the input's
// dimensions) and a fusion that broadcasts the reduce along the wrong axis.
constexpr char kSoftmaxFusion[] = R"(
HloModule m
%add (a: f32[], b: f32[]) -> f32[] {
  %a = f32[] parameter(0)
  %b = f32[] parameter(1)
  ROOT %s = f32[] add(%a, %b)
}
%fused (p: f32[64,64]) -> f32[64,64] {
  %p = f32[64,64] parameter(0)
  %e = f32[64,64] exponential(%p)
  %z = f32[] constant(0)
  %s = f32[64] reduce(%e, %z), dimensions={1}, to_apply=%add
  %b = f32[64,64] broadcast(%s), dimensions={BROADCAST}
  ROOT %d = f32[64,64] divide(%e, %b)
}
ENTRY %main {
  %x = f32[64,64] parameter(0)
  ROOT %f = f32[64,64] fusion(%x), kind=kInput, calls=%fused
})";

TEST(KernelEmitterTest, HostRowReductionKernelVectorizesTheReductionAndTheEpilogue) {
  std::string softmax = kSoftmaxFusion;
  softmax.replace(softmax.find("BROADCAST"), 9, "0");
  auto kernel = CompileRoot(softmax, "host-x86-64-v3", KeepIr());
  ASSERT_TRUE(kernel.ok()) << kernel.status();
  // Blocks of whole rows: 64 rows of 64 fit one block of <= 16K elements.
  ExpectLaunch(kernel->launch_dimensions, {1, 64});
  const std::string& ir = kernel->optimized_llvm_ir;
  // The row sum as a vector reduction (reassociated), the epilogue's
  // division on vectors (its loop marked parallel).
  EXPECT_NE(ir.find("llvm.vector.reduce.fadd.v8f32"), std::string::npos) << ir;
  EXPECT_THAT(VectorWidths(ir, "fdiv", "float"), ::testing::Contains(8)) << ir;
  EXPECT_NE(kernel->llvm_ir.find("llvm.loop.parallel_accesses"), std::string::npos);
  // exp(p) is computed once per element: the reduce loop stores it into the
  // output row, and the division reads it back (one exp polynomial, whose
  // range reduction rounds with llvm.roundeven, in the emitted IR).
  const std::string& emitted = kernel->llvm_ir;
  size_t exps = 0;
  for (size_t at = emitted.find("call float @llvm.roundeven"); at != std::string::npos;
       at = emitted.find("call float @llvm.roundeven", at + 1)) {
    ++exps;
  }
  EXPECT_EQ(exps, 1u) << emitted;
}

// A column reduction keeps the element-parallel grid (a block per run of
// 1024 outputs) but walks the operand row by row, adding each row's run
// into stack accumulators with vector operations.
TEST(KernelEmitterTest, HostColumnReductionWalksRowsIntoVectorAccumulators) {
  auto kernel = CompileRoot(R"(HloModule m
add {
  a = f32[] parameter(0)
  b = f32[] parameter(1)
  ROOT s = f32[] add(a, b)
}
ENTRY e {
  x = f32[300,4096] parameter(0)
  z = f32[] constant(0)
  ROOT r = f32[4096] reduce(x, z), dimensions={0}, to_apply=add
})",
                            "host-x86-64-v3", KeepIr());
  ASSERT_TRUE(kernel.ok()) << kernel.status();
  ExpectLaunch(kernel->launch_dimensions, {4, 1024});
  const std::string& ir = kernel->optimized_llvm_ir;
  EXPECT_NE(ir.find("alloca [1024 x float]"), std::string::npos) << ir;
  EXPECT_THAT(VectorWidths(ir, "fadd", "float"), ::testing::Contains(8)) << ir;
  // No reassociation: each column is summed in the serial order.
  EXPECT_EQ(ir.find("reassoc"), std::string::npos) << ir;
}

// A large transpose is walked in 32x32 tiles, one per block, staged in a
// stack buffer and stored with streaming stores; a fused one is tiled and
// staged but stores plainly; a small one keeps the row-major loop.
TEST(KernelEmitterTest, HostLargeTransposeIsTiledAndStreamed) {
  auto plain = CompileRoot(R"(HloModule m
ENTRY e {
  x = f32[512,1024] parameter(0)
  ROOT t = f32[1024,512] transpose(x), dimensions={1,0}
})",
                           "host-x86-64-v3", KeepIr());
  ASSERT_TRUE(plain.ok()) << plain.status();
  ExpectLaunch(plain->launch_dimensions, {(1024 / 32) * (512 / 32), 32});
  const std::string& ir = plain->optimized_llvm_ir;
  EXPECT_NE(ir.find("alloca [1024 x float], align 64"), std::string::npos) << ir;
  EXPECT_NE(ir.find("store <8 x float>"), std::string::npos) << ir;
  EXPECT_NE(ir.find("!nontemporal"), std::string::npos) << ir;
  EXPECT_NE(ir.find("llvm.x86.sse.sfence"), std::string::npos) << ir;

  auto fused = CompileRoot(R"(HloModule m
f {
  x = f32[500,1000] parameter(0)
  t = f32[1000,500] transpose(x), dimensions={1,0}
  ROOT e = f32[1000,500] exponential(t)
}
ENTRY e {
  x = f32[500,1000] parameter(0)
  ROOT r = f32[1000,500] fusion(x), kind=kLoop, calls=f
})",
                           "host-x86-64-v3", KeepIr());
  ASSERT_TRUE(fused.ok()) << fused.status();
  ExpectLaunch(fused->launch_dimensions, {32 * 16, 32});  // ragged: 1000 = 31 tiles + 8
  EXPECT_NE(fused->optimized_llvm_ir.find("alloca [1024 x float]"), std::string::npos);
  EXPECT_EQ(fused->optimized_llvm_ir.find("!nontemporal"), std::string::npos);

  auto small = CompileRoot(R"(HloModule m
ENTRY e {
  x = f32[64,64] parameter(0)
  ROOT t = f32[64,64] transpose(x), dimensions={1,0}
})",
                           "host-x86-64-v3", KeepIr());
  ASSERT_TRUE(small.ok()) << small.status();
  ExpectLaunch(small->launch_dimensions, {4, 1024});
  EXPECT_EQ(small->optimized_llvm_ir.find("alloca"), std::string::npos);
}

TEST(KernelEmitterTest, CudaSoftmaxEpilogueReadsTheRowValueOnce) {
  std::string softmax = kSoftmaxFusion;
  softmax.replace(softmax.find("BROADCAST"), 9, "0");
  auto kernel = CompileRoot(softmax, "h100", KeepIr());
  ASSERT_TRUE(kernel.ok()) << kernel.status();
  // Rows of 64: a warp per row, the row's value from the shuffles.
  ExpectLaunch(kernel->launch_dimensions, {64, 32});
  const std::string& ptx = kernel->binary.ptx();
  EXPECT_EQ(CountOf(ptx, "shfl.sync.bfly.b32"), 5) << ptx;
  // The epilogue divides by the row's value, computed once; the only
  // loads of the input are the two strided row loops'.
  EXPECT_EQ(CountOf(ptx, "ld.global"), 2) << ptx;
  // Rows of 4096 (fewer than the SMs): a block of 1024 threads per row.
  const std::string wide = absl::StrReplaceAll(softmax, {{"64,64]", "64,4096]"}});
  auto block = CompileRoot(wide, "h100", KeepIr());
  ASSERT_TRUE(block.ok()) << block.status();
  ExpectLaunch(block->launch_dimensions, {64, 1024});
  EXPECT_EQ(CountOf(block->binary.ptx(), "shfl.sync.bfly.b32"), 10);
  // Each thread has 4 elements of the row: both row loops (the reduce's,
  // the epilogue's) load them together, 4 loads in one iteration (no
  // single-element tail is left: LLVM knows every thread has exactly 4).
  EXPECT_EQ(CountOf(block->binary.ptx(), "ld.global"), 8);
  // Broadcast along the other axis: each element reads another row's sum,
  // so the block-per-row kernel does not apply.
  std::string transposed = kSoftmaxFusion;
  transposed.replace(transposed.find("BROADCAST"), 9, "1");
  auto other = CompileRoot(transposed, "h100", KeepIr());
  ASSERT_TRUE(other.ok()) << other.status();
  EXPECT_EQ(other->binary.ptx().find("shfl.sync"), std::string::npos);
}

// ---------------------------------------------------------------------------
// The emitted IR's use of the launch grid.

TEST(KernelEmitterTest, HostKernelReadsItsBlockFromTheFrameAndClampsToTheElementCount) {
  auto kernel = CompileRoot(Binary("add", "f32", "5000"), "host-x86-64-v3", KeepIr());
  ASSERT_TRUE(kernel.ok()) << kernel.status();
  const std::string& ir = kernel->llvm_ir;
  // void k(const AotHostKernelFrame*), C calling convention.
  EXPECT_NE(ir.find("define void @test_kernel(ptr %0)"), std::string::npos) << ir;
  // Reads frame->block_x (field 1) and frame->threads_x (field 7) ...
  EXPECT_NE(ir.find("ptr %0, i32 0, i32 1\n"), std::string::npos) << ir;
  EXPECT_NE(ir.find("ptr %0, i32 0, i32 7\n"), std::string::npos) << ir;
  // ... and loops over [block * threads, min(block * threads + threads, n)).
  EXPECT_TRUE(std::regex_search(ir, std::regex(R"(icmp ult i64 %[0-9]+, 5000)"))) << ir;
  EXPECT_TRUE(std::regex_search(ir, std::regex(R"(select i1 %[0-9]+, i64 %[0-9]+, i64 5000)")))
      << ir;
  EXPECT_EQ(ir.find("nvvm"), std::string::npos);
}

TEST(KernelEmitterTest, CudaKernelIsAPtxEntryIndexedByBlockAndThread) {
  auto kernel = CompileRoot(Binary("add", "f32", "5000"), "h100", KeepIr());
  ASSERT_TRUE(kernel.ok()) << kernel.status();
  const std::string& ir = kernel->llvm_ir;
  EXPECT_NE(ir.find("target triple = \"nvptx64-nvidia-cuda\""), std::string::npos) << ir;
  EXPECT_NE(ir.find("define ptx_kernel void @test_kernel(ptr %0, ptr %1, ptr %2)"),
            std::string::npos)
      << ir;
  EXPECT_NE(ir.find("!{ptr @test_kernel, !\"kernel\", i32 1}"), std::string::npos) << ir;
  for (const char* sreg : {"ctaid.x", "ntid.x", "tid.x"}) {
    EXPECT_NE(ir.find(absl::StrCat("@llvm.nvvm.read.ptx.sreg.", sreg, "()")), std::string::npos)
        << sreg;
  }
  // One element per thread, guarded by the element count; no loop.
  EXPECT_TRUE(std::regex_search(ir, std::regex(R"(icmp ult i64 %[0-9]+, 5000)"))) << ir;
  EXPECT_EQ(ir.find("phi "), std::string::npos) << ir;
  EXPECT_EQ(ir.find("__aot_arity"), std::string::npos);

  const KernelBinaryProto& binary = kernel->binary;
  EXPECT_EQ(binary.format(), KernelBinaryProto::CUDA_PTX);
  EXPECT_TRUE(binary.object().empty());
  EXPECT_TRUE(binary.cubin().empty());  // compile_cubin = false
  const std::string& ptx = binary.ptx();
  EXPECT_NE(ptx.find(".target sm_90"), std::string::npos) << ptx;
  EXPECT_NE(ptx.find(".version 7.8"), std::string::npos) << ptx;
  EXPECT_NE(ptx.find(".address_size 64"), std::string::npos) << ptx;
  EXPECT_NE(ptx.find(".visible .entry test_kernel("), std::string::npos) << ptx;
  EXPECT_NE(ptx.find(".param .u64 test_kernel_param_2"), std::string::npos) << ptx;
  EXPECT_EQ(ptx.find("test_kernel_param_3"), std::string::npos) << ptx;
  for (const char* sreg : {"%ctaid.x", "%ntid.x", "%tid.x"}) {
    EXPECT_NE(ptx.find(sreg), std::string::npos) << sreg;
  }
  EXPECT_TRUE(
      std::regex_search(ptx, std::regex(R"(setp\.[a-z]+\.u64\s+%p[0-9]+, %rd[0-9]+, 5000;)")))
      << ptx;
  EXPECT_NE(ptx.find("add.rn.f32"), std::string::npos) << ptx;
  EXPECT_EQ(binary.payload_sha256(), KernelPayloadSha256(binary));
  EXPECT_EQ(binary.payload_sha256().size(), 64u);
}

TEST(KernelEmitterTest, CudaCubinFromPtxasWhenInstalled) {
  if (FindPtxas().path.empty()) GTEST_SKIP() << "ptxas not installed";
  KernelEmitOptions options;
  options.compile_cubin = true;
  auto kernel = CompileRoot(Binary("add", "f32", "5000"), "h100", options);
  ASSERT_TRUE(kernel.ok()) << kernel.status();
  const std::string& cubin = kernel->binary.cubin();
  ASSERT_GE(cubin.size(), 20u);
  EXPECT_EQ(cubin.substr(0, 4),
            "\x7f"
            "ELF");
  uint16_t machine;
  std::memcpy(&machine, cubin.data() + 18, 2);
  EXPECT_EQ(machine, 190);  // EM_CUDA
  EXPECT_FALSE(kernel->binary.ptx().empty());
  EXPECT_EQ(kernel->binary.payload_sha256(), KernelPayloadSha256(kernel->binary));
}

// Every GPU kernel form with shared memory, shuffles, barriers or atomics
// assembles with ptxas for sm_80 and sm_90 (ptxas checks what LLVM's PTX
// printer does not: shared memory within the static limit, register and
// instruction legality on the architecture).
TEST(KernelEmitterTest, CudaReductionSortAndScatterKernelsAssembleWithPtxas) {
  if (FindPtxas().path.empty()) GTEST_SKIP() << "ptxas not installed";
  const std::string scatter_max =
      absl::StrReplaceAll(kScatter, {{"add(%x, %y)", "maximum(%x, %y)"}, {"f32", "s64"}});
  const std::string scatter_f64 = absl::StrReplaceAll(kScatter, {{"f32", "f64"}});
  const std::string sort_long = absl::StrReplaceAll(kSortRows, {{"f32", "f64"}, {"16]", "4000]"}});
  constexpr char kColumnMax[] = R"(
HloModule m
%max (a: f64[], b: f64[]) -> f64[] {
  %a = f64[] parameter(0)
  %b = f64[] parameter(1)
  ROOT %s = f64[] maximum(%a, %b)
}
ENTRY %main {
  %x = f64[1000,70] parameter(0)
  %z = f64[] constant(-inf)
  ROOT %r = f64[70] reduce(%x, %z), dimensions={0}, to_apply=%max
})";
  const std::vector<std::pair<std::string, std::string>> kernels = {
      {"warp row sum", RowSum(1000, 100)},
      {"block row sum", RowSum(16, 100000)},
      {"f64 block row sum", RowSum(300, 5000, "f64")},
      {"column max", kColumnMax},
      {"bitonic f32 16", kSortRows},
      {"bitonic f64 4000", sort_long},
      {"scatter add f32", kScatter},
      {"scatter add f64", scatter_f64},
      {"scatter max s64", scatter_max}};
  KernelEmitOptions options;
  options.compile_cubin = true;
  for (absl::string_view target : {"a100", "h100"}) {
    for (const auto& [name, hlo] : kernels) {
      auto kernel = CompileRoot(hlo, target, options);
      ASSERT_TRUE(kernel.ok()) << name << " for " << target << ": " << kernel.status();
      EXPECT_EQ(kernel->binary.cubin().substr(0, 4),
                "\x7f"
                "ELF")
          << name << " for " << target;
    }
  }
}

TEST(KernelEmitterTest, HostBinaryIsARelocatableX86ObjectWithTheAbiSymbols) {
  auto kernel = CompileRoot(Binary("add", "f32", "5000"), "host-x86-64-v3");
  ASSERT_TRUE(kernel.ok()) << kernel.status();
  const KernelBinaryProto& binary = kernel->binary;
  EXPECT_EQ(binary.format(), KernelBinaryProto::HOST_ELF_OBJECT);
  EXPECT_TRUE(binary.ptx().empty());
  const std::string& object = binary.object();
  ASSERT_GE(object.size(), 64u);
  EXPECT_EQ(object.substr(0, 4),
            "\x7f"
            "ELF");
  EXPECT_EQ(object[4], 2);  // ELFCLASS64
  uint16_t type, machine;
  std::memcpy(&type, object.data() + 16, 2);
  std::memcpy(&machine, object.data() + 18, 2);
  EXPECT_EQ(type, 1);      // ET_REL
  EXPECT_EQ(machine, 62);  // EM_X86_64
  EXPECT_NE(object.find("test_kernel__aot_arity"), std::string::npos);
  auto disallowed = DisallowedSymbols(object);
  ASSERT_TRUE(disallowed.ok()) << disallowed.status();
  EXPECT_TRUE(disallowed->empty());
  EXPECT_TRUE(kernel->llvm_ir.empty());  // keep_llvm_ir = false
  EXPECT_EQ(binary.payload_sha256(), KernelPayloadSha256(binary));
}

TEST(KernelEmitterTest, HostMathCallsLibmOnlyThroughTheAllowList) {
  constexpr char kMath[] = R"(
HloModule m
ENTRY %main (x: f32[64]) -> f32[64] {
  %x = f32[64]{0} parameter(0)
  ROOT %e = f32[64]{0} OP(%x)
}
)";
  auto compile = [&](absl::string_view op) {
    std::string hlo = kMath;
    hlo.replace(hlo.find("OP"), 2, std::string(op));
    return CompileRoot(hlo, "host-x86-64-v3");
  };
  // log stays a libm call, resolved through the allow-list.
  auto log = compile("log");
  ASSERT_TRUE(log.ok()) << log.status();
  auto undefined = UndefinedSymbols(log->binary.object());
  ASSERT_TRUE(undefined.ok()) << undefined.status();
  EXPECT_NE(std::find(undefined->begin(), undefined->end(), "logf"), undefined->end());
  auto disallowed = DisallowedSymbols(log->binary.object());
  ASSERT_TRUE(disallowed.ok()) << disallowed.status();
  EXPECT_TRUE(disallowed->empty());
  // f32 exp and tanh are polynomials in the kernel: no import at all.
  for (absl::string_view op : {"exponential", "tanh"}) {
    auto kernel = compile(op);
    ASSERT_TRUE(kernel.ok()) << kernel.status();
    auto imports = UndefinedSymbols(kernel->binary.object());
    ASSERT_TRUE(imports.ok()) << imports.status();
    EXPECT_TRUE(imports->empty()) << op << " imports " << absl::StrJoin(*imports, ", ");
  }
}

TEST(KernelEmitterTest, KernelWithoutOutputsIsAnErrorNamingTheInstruction) {
  auto module = ParseHloModule(Binary("add", "f32", "8"));
  ASSERT_TRUE(module.ok()) << module.status();
  auto target = ShippedTargetConfig("host-x86-64-v3");
  ASSERT_TRUE(target.ok()) << target.status();
  const HloInstruction* root = (*module)->entry_computation()->root_instruction();
  KernelSpec spec;
  spec.name = kKernelName;
  spec.instruction = root;
  spec.input_shapes = {root->operand(0)->shape(), root->operand(1)->shape()};
  auto kernel = CompileKernel(spec, *target, {});
  ASSERT_FALSE(kernel.ok());
  EXPECT_EQ(kernel.status().code(), absl::StatusCode::kUnimplemented);
  EXPECT_NE(kernel.status().message().find("'r'"), std::string::npos) << kernel.status();
  EXPECT_NE(kernel.status().message().find("without outputs"), std::string::npos);
}

// ---------------------------------------------------------------------------
// Running host kernels: layouts and the partitioning of the launch grid.

class HostExecutionTest : public ::testing::Test {
 protected:
  void SetUp() override {
    absl::Status isa = CheckHostIsaLevel(X86_64_V3, DetectHostCpuFeatures());
    if (!isa.ok()) GTEST_SKIP() << "cannot run x86-64-v3 code here: " << isa;
    auto loader = CreateHostKernelLoader();
    ASSERT_TRUE(loader.ok()) << loader.status();
    loader_ = *std::move(loader);
  }

  // Compiles the root of `hlo` for x86-64-v3 and loads it.
  const HostKernelHandle* Load(absl::string_view hlo, LaunchDimensionsProto* dims) {
    auto kernel = CompileRoot(hlo, "host-x86-64-v3");
    EXPECT_TRUE(kernel.ok()) << kernel.status();
    if (!kernel.ok()) return nullptr;
    *dims = kernel->launch_dimensions;
    return dynamic_cast<const HostKernelHandle*>(
        testing::ValueOrFailure(loader_->Load(kernel->binary, kernel->name)));
  }

  // Runs blocks [first, last) of the grid (all of it by default).
  static void Run(const HostKernelHandle& kernel, const LaunchDimensionsProto& dims,
                  std::vector<void*> args, int64_t first = 0, int64_t last = -1) {
    ASSERT_EQ(kernel.arity(), static_cast<int64_t>(args.size()));
    if (last < 0) last = dims.block_count_x();
    for (int64_t block = first; block < last; ++block) {
      AotHostKernelFrame frame;
      frame.args = args.data();
      frame.block_x = block;
      frame.block_y = 0;
      frame.block_z = 0;
      frame.grid_x = dims.block_count_x();
      frame.grid_y = dims.block_count_y();
      frame.grid_z = dims.block_count_z();
      frame.threads_x = dims.threads_per_block_x();
      frame.threads_y = dims.threads_per_block_y();
      frame.threads_z = dims.threads_per_block_z();
      kernel.fn()(&frame);
    }
  }

  static std::vector<float> Iota(size_t n, float scale = 1.0f) {
    std::vector<float> v(n);
    for (size_t i = 0; i < n; ++i) v[i] = static_cast<float>(i) * scale;
    return v;
  }

  std::unique_ptr<KernelLoader> loader_;
};

TEST_F(HostExecutionTest, CopyIntoColumnMajorLayout) {
  LaunchDimensionsProto dims;
  const HostKernelHandle* kernel = Load(R"(
HloModule m
ENTRY %main (x: f32[2,3]) -> f32[2,3] {
  %x = f32[2,3]{1,0} parameter(0)
  ROOT %c = f32[2,3]{0,1} copy(%x)
}
)",
                                        &dims);
  ASSERT_NE(kernel, nullptr);
  std::vector<float> in = Iota(6);  // row-major x(i,j) = 3i + j
  std::vector<float> out(6, -1.0f);
  Run(*kernel, dims, {in.data(), out.data()});
  // Column-major: element (i,j) at i + 2j.
  EXPECT_EQ(out, (std::vector<float>{0, 3, 1, 4, 2, 5}));
}

TEST_F(HostExecutionTest, ElementwiseOpMixesLayoutsByLogicalIndex) {
  LaunchDimensionsProto dims;
  const HostKernelHandle* kernel = Load(R"(
HloModule m
ENTRY %main (x: f32[2,3], y: f32[2,3]) -> f32[2,3] {
  %x = f32[2,3]{1,0} parameter(0)
  %y = f32[2,3]{0,1} parameter(1)
  ROOT %a = f32[2,3]{1,0} add(%x, %y)
}
)",
                                        &dims);
  ASSERT_NE(kernel, nullptr);
  std::vector<float> x = Iota(6);        // x(i,j) = 3i + j
  std::vector<float> y = Iota(6, 10.f);  // y(i,j) = 10 (i + 2j), column-major
  std::vector<float> out(6, -1.0f);
  Run(*kernel, dims, {x.data(), y.data(), out.data()});
  EXPECT_EQ(out, (std::vector<float>{0, 21, 42, 13, 34, 55}));
}

TEST_F(HostExecutionTest, TransposeOfColumnMajorInputIsAPhysicalCopy) {
  LaunchDimensionsProto dims;
  const HostKernelHandle* kernel = Load(R"(
HloModule m
ENTRY %main (x: f32[2,3]) -> f32[3,2] {
  %x = f32[2,3]{0,1} parameter(0)
  ROOT %t = f32[3,2]{1,0} transpose(%x), dimensions={1,0}
}
)",
                                        &dims);
  ASSERT_NE(kernel, nullptr);
  std::vector<float> in = Iota(6);  // x(i,j) = i + 2j
  std::vector<float> out(6, -1.0f);
  Run(*kernel, dims, {in.data(), out.data()});
  // t(a,b) = x(b,a) = b + 2a, row-major at 2a + b.
  EXPECT_EQ(out, Iota(6));
}

TEST_F(HostExecutionTest, ThreeDimensionalOutputLayout) {
  LaunchDimensionsProto dims;
  const HostKernelHandle* kernel = Load(R"(
HloModule m
ENTRY %main (x: f32[2,3,4]) -> f32[2,3,4] {
  %x = f32[2,3,4]{2,1,0} parameter(0)
  ROOT %c = f32[2,3,4]{0,2,1} copy(%x)
}
)",
                                        &dims);
  ASSERT_NE(kernel, nullptr);
  std::vector<float> in = Iota(24);
  std::vector<float> out(24, -1.0f);
  Run(*kernel, dims, {in.data(), out.data()});
  for (int i = 0; i < 2; ++i) {
    for (int j = 0; j < 3; ++j) {
      for (int k = 0; k < 4; ++k) {
        EXPECT_EQ(out[i + 2 * k + 8 * j], in[12 * i + 4 * j + k]) << i << "," << j << "," << k;
      }
    }
  }
}

TEST_F(HostExecutionTest, EachBlockComputesItsOwnRangeOfElements) {
  LaunchDimensionsProto dims;
  const HostKernelHandle* kernel = Load(Binary("add", "f32", "3001"), &dims);
  ASSERT_NE(kernel, nullptr);
  ExpectLaunch(dims, {3, 1024});
  std::vector<float> x = Iota(3001), y = Iota(3001, 0.5f);
  const float kUnwritten = -7.0f;
  std::vector<float> out(3001, kUnwritten);
  // Block 1 writes exactly [1024, 2048).
  Run(*kernel, dims, {x.data(), y.data(), out.data()}, 1, 2);
  for (int i = 0; i < 3001; ++i) {
    float expected = (i >= 1024 && i < 2048) ? 1.5f * static_cast<float>(i) : kUnwritten;
    ASSERT_EQ(out[i], expected) << i;
  }
  // The tail block stops at the element count: the 3001st element is
  // written, what follows it in memory is not (the buffers are padded to a
  // whole block so that an overrun shows as wrong values, not corruption).
  std::vector<float> padded_x = Iota(3072), padded_y = Iota(3072, 0.5f);
  std::vector<float> padded_out(3072, kUnwritten);
  Run(*kernel, dims, {padded_x.data(), padded_y.data(), padded_out.data()});
  for (int i = 0; i < 3072; ++i) {
    float expected = i < 3001 ? 1.5f * static_cast<float>(i) : kUnwritten;
    ASSERT_EQ(padded_out[i], expected) << i;
  }
}

TEST_F(HostExecutionTest, LoopFusionComputesTheFusedExpression) {
  LaunchDimensionsProto dims;
  const HostKernelHandle* kernel = Load(kLoopFusion, &dims);
  ASSERT_NE(kernel, nullptr);
  ExpectLaunch(dims, {4, 1024});
  std::vector<float> x = Iota(4096, 0.25f), y = Iota(4096, -0.5f);
  std::vector<float> out(4096);
  Run(*kernel, dims, {x.data(), y.data(), out.data()});
  for (int i = 0; i < 4096; ++i) ASSERT_EQ(out[i], x[i] * y[i] + x[i]) << i;
}

TEST_F(HostExecutionTest, SortBlockSortsItsRow) {
  LaunchDimensionsProto dims;
  const HostKernelHandle* kernel = Load(kSortRows, &dims);
  ASSERT_NE(kernel, nullptr);
  std::vector<float> in(64);
  for (int i = 0; i < 64; ++i) in[i] = static_cast<float>((i * 37) % 64);
  std::vector<float> out(64, -1.0f);
  // Only block 2: only row 2 is written, sorted.
  Run(*kernel, dims, {in.data(), out.data()}, 2, 3);
  for (int r = 0; r < 4; ++r) {
    std::vector<float> row(out.begin() + 16 * r, out.begin() + 16 * (r + 1));
    if (r == 2) {
      std::vector<float> expected(in.begin() + 32, in.begin() + 48);
      std::sort(expected.begin(), expected.end());
      EXPECT_EQ(row, expected);
    } else {
      EXPECT_EQ(row, std::vector<float>(16, -1.0f)) << "row " << r;
    }
  }
}

TEST(CheckHostObjectImportsTest, RefusesAnImportOutsideTheRuntimeAllowList) {
  // A crafted object: a kernel calling libc's system(), which the runtime's
  // loader refuses; the compiler refuses it first, naming the symbol.
  auto crafted = testing::CompileIrToObject(testing::SystemCallingKernelIr("evil"));
  ASSERT_TRUE(crafted.ok()) << crafted.status();
  absl::Status refused = CheckHostObjectImports("evil", *crafted);
  EXPECT_EQ(refused.code(), absl::StatusCode::kUnimplemented);
  EXPECT_THAT(std::string(refused.message()), ::testing::HasSubstr("kernel 'evil' imports system"));
  // An object importing only allow-listed libm functions passes.
  auto allowed = testing::CompileIrToObject(testing::BinaryF32KernelIr("fine", "fadd"));
  ASSERT_TRUE(allowed.ok()) << allowed.status();
  EXPECT_TRUE(CheckHostObjectImports("fine", *allowed).ok());
  // Bytes that are not an object are an error, not a pass.
  EXPECT_FALSE(CheckHostObjectImports("junk", "not an ELF object").ok());
}

}  // namespace
}  // namespace aot
