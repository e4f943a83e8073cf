// Randomized differential test of the host kernels at real sizes: programs
// of each kernel family (elementwise, transcendental, row reduction,
// softmax, tiled transpose, fused transpose, sort, scatter, concatenate,
// convolution) on random shapes, compiled for every host ISA level this CPU
// runs and compared with the interpreter. The shapes include dimensions
// that are not multiples of the vector width or the transpose tile, and
// sizes that span many blocks (so several pool workers run each kernel).
// Seeded: a failure names the program and its seed, and reproduces.
#include <cmath>
#include <functional>
#include <random>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "compiler/backend/compiler.h"
#include "compiler/bench/bench_programs.h"
#include "compiler/hlo/hlo_parser.h"
#include "compiler/interpreter/evaluator.h"
#include "compiler/target/target_config.h"
#include "compiler/tooling/literal_execution.h"
#include "compiler/tooling/random_literal.h"
#include "gtest/gtest.h"
#include "runtime/executable/client.h"
#include "runtime/platform/host/cpu_features.h"
#include "runtime/shape_util.h"

namespace aot {
namespace {

struct Program {
  std::string name;
  std::string hlo;
  // Float tolerance (host reductions reassociate: README, "Compiler and
  // runtime in one paragraph each").
  Tolerance tolerance;
};

constexpr char kReducers[] = R"(
add {
  a = f32[] parameter(0)
  b = f32[] parameter(1)
  ROOT s = f32[] add(a, b)
}
max {
  a = f32[] parameter(0)
  b = f32[] parameter(1)
  ROOT m = f32[] maximum(a, b)
})";

constexpr char kTranscendentals[] = R"(
ENTRY e {
  x = f32[$R,$C] parameter(0)
  t = f32[$R,$C] tanh(x)
  x2 = f32[$R,$C] multiply(x, x)
  l = f32[$R,$C] logistic(x2)
  ex = f32[$R,$C] exponential(x)
  s = f32[$R,$C] add(t, l)
  ROOT r = f32[$R,$C] add(s, ex)
})";

constexpr char kRowSumMax[] = R"(
ENTRY e {
  x = f32[$R,$C] parameter(0)
  z = f32[] constant(0)
  s = f32[$R] reduce(x, z), dimensions={1}, to_apply=add
  ninf = f32[] constant(-inf)
  m = f32[$R] reduce(x, ninf), dimensions={1}, to_apply=max
  ROOT t = (f32[$R], f32[$R]) tuple(s, m)
})";

// A column reduction of two leading dimensions.
constexpr char kColumnMaxS32[] = R"(
imax {
  a = s32[] parameter(0)
  b = s32[] parameter(1)
  ROOT m = s32[] maximum(a, b)
}
ENTRY e {
  x = s32[3,$R,$C] parameter(0)
  z = s32[] constant(-2147483648)
  ROOT m = s32[$C] reduce(x, z), dimensions={0,1}, to_apply=imax
})";

constexpr char kDotBf16[] = R"(
ENTRY e {
  a = bf16[$R,$C] parameter(0)
  b = bf16[$C,$R] parameter(1)
  ROOT d = bf16[$R,$R] dot(a, b), lhs_contracting_dims={1}, rhs_contracting_dims={0}
})";

constexpr char kTranspose[] = R"(
ENTRY e {
  x = f32[$C,$R] parameter(0)
  ROOT t = f32[$R,$C] transpose(x), dimensions={1,0}
})";

constexpr char kTransposeS32[] = R"(
ENTRY e {
  x = s32[$C,$R] parameter(0)
  ROOT t = s32[$R,$C] transpose(x), dimensions={1,0}
})";

constexpr char kTransposeF64[] = R"(
ENTRY e {
  x = f64[$C,$R] parameter(0)
  ROOT t = f64[$R,$C] transpose(x), dimensions={1,0}
})";

constexpr char kTransposeRank3[] = R"(
ENTRY e {
  x = f32[3,$R,$C] parameter(0)
  ROOT t = f32[$C,3,$R] transpose(x), dimensions={2,0,1}
})";

constexpr char kTransposeFused[] = R"(
ENTRY e {
  x = f32[$C,$R] parameter(0)
  y = f32[$R,$C] parameter(1)
  t = f32[$R,$C] transpose(x), dimensions={1,0}
  ex = f32[$R,$C] exponential(t)
  ROOT r = f32[$R,$C] multiply(ex, y)
})";

// Sorts of many ties (s32 keys in [-8, 8)) carrying a value operand: the
// merge sort must be stable to match. Along the minor and the major
// dimension.
constexpr char kSortKeyValue[] = R"(
cmp {
  a = s32[] parameter(0)
  b = s32[] parameter(1)
  c = f32[] parameter(2)
  d = f32[] parameter(3)
  ROOT lt = pred[] compare(a, b), direction=LT
}
ENTRY e {
  k = s32[$R,$C] parameter(0)
  v = f32[$R,$C] parameter(1)
  ROOT s = (s32[$R,$C], f32[$R,$C]) sort(k, v), dimensions={1}, is_stable=true, to_apply=cmp
})";

constexpr char kSortF32Major[] = R"(
gt {
  a = f32[] parameter(0)
  b = f32[] parameter(1)
  ROOT g = pred[] compare(a, b), direction=GT
}
ENTRY e {
  x = f32[$R,$C] parameter(0)
  ROOT s = f32[$R,$C] sort(x), dimensions={0}, to_apply=gt
})";

// A large concatenate (one loop per operand, rows split over blocks).
constexpr char kConcatenate[] = R"(
ENTRY e {
  x = f32[$R,2,$C] parameter(0)
  y = f32[$R,1,$C] parameter(1)
  ex = f32[$R,2,$C] exponential(x)
  ny = f32[$R,1,$C] negate(y)
  ROOT c = f32[$R,3,$C] concatenate(ex, ny), dimensions={1}
})";

// A 3x3 convolution: im2col (a concatenate of window slices) and a GEMM.
constexpr char kConv3x3[] = R"(
ENTRY e {
  x = f32[2,$R,$C,16] parameter(0)
  w = f32[3,3,16,24] parameter(1)
  ROOT y = f32[2,$R,$C,24] convolution(x, w), window={size=3x3 pad=1_1x1_1}, dim_labels=b01f_01io->b01f
})";

std::vector<Program> Programs(std::mt19937& rng) {
  // Rows and columns: 33..1100, rarely a multiple of 8 or 32.
  std::uniform_int_distribution<int64_t> dim(33, 1100);
  std::vector<Program> programs;
  // Draws the dimensions (rows first), adjusted by `shape`; `make` writes
  // the program.
  using Make = std::function<std::string(int64_t, int64_t)>;
  auto add = [&](absl::string_view name, const Make& make, Tolerance tolerance,
                 std::function<void(int64_t&, int64_t&)> shape = nullptr) {
    int64_t r = dim(rng);
    int64_t c = dim(rng);
    if (shape) shape(r, c);
    programs.push_back({absl::StrCat(name, "_", r, "x", c), make(r, c), tolerance});
  };
  auto entry = [](absl::string_view text) -> Make {
    return [text](int64_t r, int64_t c) {
      return bench::WithDims(absl::StrCat("HloModule m\n", kReducers, text), r, c);
    };
  };
  auto whole_tiles = [](int64_t&, int64_t& c) { c = c / 32 * 32 + 32; };
  const Tolerance elementwise{1e-5, 1e-4};
  const Tolerance exact{};
  add("fma", bench::Elementwise, elementwise);
  add("transcendentals", entry(kTranscendentals), elementwise);
  // Row sums of n values in [-1, 1): the reassociated sum differs from the
  // interpreter's sequential one by about sqrt(n) * eps * |partial sums|.
  add("row_sum_max", entry(kRowSumMax), Tolerance{1e-3, 1e-4});
  add("column_sum", bench::ColumnSum, Tolerance{1e-3, 1e-4});
  // Two stages (tree-reduction) when r * c >= 64K has a divisor that fits.
  add("full_sum", bench::FullSum, Tolerance{1e-2, 1e-3});
  add("column_max_s32", entry(kColumnMaxS32), exact, [](int64_t& r, int64_t& c) { r /= 8; });
  // bf16 dots of >= 64K multiply-adds go through an f32 GEMM (DotUpcast).
  add("dot_bf16", entry(kDotBf16), Tolerance{1e-2, 1e-2},
      [](int64_t& r, int64_t& c) { r /= 4, c /= 4; });
  add("softmax", bench::Softmax, Tolerance{1e-6, 1e-4}, [](int64_t& r, int64_t&) { r *= 2; });
  // Transposes: whole tiles with streaming stores (a multiple of 32
  // columns), ragged tiles, 8-byte elements, rank 3, fused.
  add("transpose", entry(kTranspose), exact, whole_tiles);
  add("transpose_ragged", entry(kTransposeS32), exact);
  add("transpose_f64", entry(kTransposeF64), exact, whole_tiles);
  add("transpose_rank3", entry(kTransposeRank3), exact,
      [](int64_t& r, int64_t& c) { r /= 4, c /= 4; });
  add("transpose_fused", entry(kTransposeFused), elementwise);
  // Merge sorts (rows longer than kSortMergeMinLength) and parallel
  // scatters (>= 128 columns), and their small forms.
  add("sort_key_value", entry(kSortKeyValue), exact, [](int64_t& r, int64_t&) { r /= 8; });
  add("sort_f32_major", entry(kSortF32Major), exact, [](int64_t& r, int64_t& c) { c /= 8; });
  // An embedding-gradient scatter: r rows added into 16 rows of c columns
  // (indices in [-8, 8): the negative ones skipped), in order.
  add(
      "scatter_rows", [](int64_t r, int64_t c) { return bench::ScatterAddRows(16, c, r); }, exact);
  add("concatenate", entry(kConcatenate), elementwise, [](int64_t& r, int64_t& c) { c /= 4; });
  add("conv3x3", entry(kConv3x3), Tolerance{1e-4, 1e-4},
      [](int64_t& r, int64_t& c) { r /= 16, c /= 16; });
  return programs;
}

class DifferentialTest : public ::testing::TestWithParam<uint32_t> {};

TEST_P(DifferentialTest, RandomShapesMatchTheInterpreterOnEveryHostLevel) {
  std::mt19937 rng(GetParam());
  std::vector<Program> programs = Programs(rng);
  auto client = Client::Create("host");
  ASSERT_TRUE(client.ok()) << client.status();
  const auto features = DetectHostCpuFeatures();
  int levels = 0;
  for (const char* level : {"host-x86-64-v2", "host-x86-64-v3", "host-x86-64-v4"}) {
    auto target = ShippedTargetConfig(level);
    ASSERT_TRUE(target.ok()) << target.status();
    if (!CheckHostIsaLevel(target->device_description().capability().host().isa_level(), features)
             .ok())
      continue;
    ++levels;
    for (const Program& program : programs) {
      SCOPED_TRACE(absl::StrCat(program.name, " for ", level, " (seed ", GetParam(), ")"));
      auto module = ParseHloModule(program.hlo);
      ASSERT_TRUE(module.ok()) << module.status();
      auto compiled = Compile(**module, *target);
      ASSERT_TRUE(compiled.ok()) << compiled.status();
      auto executable = (*client)->DeserializeExecutable((*compiled)->SerializeAsString());
      ASSERT_TRUE(executable.ok()) << executable.status();
      std::vector<Literal> args = RandomArguments(**module, GetParam());
      HloEvaluator evaluator;
      auto expected = evaluator.Evaluate(**module, args);
      ASSERT_TRUE(expected.ok()) << expected.status();
      // The steady-state path (aligned buffers: arguments read and results
      // written in place) and the literal path.
      auto prepared = PreparedExecution::Create(**executable, args);
      ASSERT_TRUE(prepared.ok()) << prepared.status();
      ASSERT_TRUE(prepared->Run().ok());
      auto actual = ExecuteWithLiterals(**executable, args);
      ASSERT_TRUE(actual.ok()) << actual.status();
      std::vector<const Literal*> leaves = actual->Leaves();
      ASSERT_EQ(prepared->results().size(), leaves.size());
      for (size_t i = 0; i < leaves.size(); ++i) {
        std::vector<uint8_t> logical(leaves[i]->raw().size());
        runtime_shape::PhysicalToLogical((*executable)->result().leaves(i).shape(),
                                         prepared->results()[i].data(), logical.data());
        EXPECT_EQ(logical, leaves[i]->raw()) << "prepared run, leaf " << i;
      }
      absl::Status match = program.tolerance.bitwise()
                               ? CompareLiteralsWithDefaultTolerance(*expected, *actual)
                               : CompareLiterals(*expected, *actual, program.tolerance);
      EXPECT_TRUE(match.ok()) << match;
    }
  }
  EXPECT_GE(levels, 1);
}

INSTANTIATE_TEST_SUITE_P(Seeds, DifferentialTest, ::testing::Values(1u, 2u, 3u));

}  // namespace
}  // namespace aot
