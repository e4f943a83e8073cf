// Malformed modules (as an unverified front end may hand them over) are
// errors, never crashes: numbers in valid modules are mutated at random and
// the results evaluated without the verifier. Run under the sanitizers by
// scripts/test.sh --sanitize.

#include <string>

#include "compiler/interpreter/test_util.h"
#include "compiler/tooling/random_literal.h"
#include "gtest/gtest.h"

namespace aot {
namespace interpreter_test {
namespace {

constexpr char kSeed[] = R"(
HloModule seed

add {
  a = f32[] parameter(0)
  b = f32[] parameter(1)
  ROOT r = f32[] add(a, b)
}

ge {
  a = f32[] parameter(0)
  b = f32[] parameter(1)
  ROOT r = pred[] compare(a, b), direction=GE
}

less {
  a = f32[] parameter(0)
  b = f32[] parameter(1)
  c = s32[] parameter(2)
  d = s32[] parameter(3)
  ROOT r = pred[] compare(a, b), direction=LT
}

ENTRY main {
  x = f32[4,6] parameter(0)
  idx = s32[3,1] parameter(1)
  k = f32[2,2,1,2] parameter(2)
  z = f32[] constant(0)
  g = f32[3,6] gather(x, idx), offset_dims={1}, collapsed_slice_dims={0}, start_index_map={0}, index_vector_dim=1, slice_sizes={1,6}
  u = f32[3,6] multiply(g, g)
  s = f32[4,6] scatter(x, idx, u), update_window_dims={1}, inserted_window_dims={0}, scatter_dims_to_operand_dims={0}, index_vector_dim=1, to_apply=add
  rw = f32[2,3] reduce-window(s, z), window={size=2x2 stride=2x2 pad=0_0x0_0}, to_apply=add
  ss = f32[4,6] select-and-scatter(x, rw, z), window={size=2x2 stride=2x2}, select=ge, scatter=add
  img = f32[1,4,6,1] reshape(ss)
  c = f32[1,3,5,2] convolution(img, k), window={size=2x2 pad=0_0x0_0 lhs_dilate=1x1 rhs_dilate=1x1}, dim_labels=b01f_01io->b01f
  r = f32[3,5,2] reshape(c)
  t = f32[2,5,3] transpose(r), dimensions={2,1,0}
  sl = f32[2,2,3] slice(t), slice={[0:2], [1:5:2], [0:3]}
  p = f32[3,5,5] pad(sl, z), padding=1_0x0_2_1x1_1
  red = f32[5] reduce(p, z), dimensions={0,2}, to_apply=add
  io = s32[5] iota(), iota_dimension=0
  srt = (f32[5], s32[5]) sort(red, io), dimensions={0}, to_apply=less
  v = f32[5] get-tuple-element(srt), index=0
  d = f32[] dot(v, v), lhs_contracting_dims={0}, rhs_contracting_dims={0}
  i0 = s32[] constant(1)
  ds = f32[2,3] dynamic-slice(x, i0, i0), dynamic_slice_sizes={2,3}
  dus = f32[4,6] dynamic-update-slice(x, ds, i0, i0)
  bc = f32[4,6] broadcast(d), dimensions={}
  sum = f32[4,6] add(dus, bc)
  cat = f32[8,6] concatenate(sum, x), dimensions={0}
  rev = f32[8,6] reverse(cat), dimensions={0,1}
  tk = (f32[8,2], s32[8,2]) custom-call(rev), custom_call_target="aot.topk", backend_config="2"
  tv = f32[8,2] get-tuple-element(tk), index=0
  ti = s32[8,2] get-tuple-element(tk), index=1
  ROOT out = (s32[8,2], f32[8,2]) tuple(ti, tv)
}
)";

bool SmallEnough(const HloModule& module) {
  for (const HloComputation* c : module.computations()) {
    for (const HloInstruction* i : c->instructions()) {
      for (const Shape& leaf : i->shape().FlattenLeaves()) {
        int64_t n = 1;
        for (int64_t d : leaf.dimensions()) {
          if (d < 0 || d > 4096) return false;
          n *= d;
          if (n > (1 << 16)) return false;
        }
      }
    }
  }
  return true;
}

// The unmutated seed parses and evaluates on random arguments.
void ExpectSeedRuns(const std::string& seed) {
  auto module = ParseHloModule(seed);
  ASSERT_TRUE(module.ok()) << module.status();
  std::vector<Literal> args;
  for (const HloInstruction* p : (*module)->entry_computation()->parameter_instructions()) {
    args.push_back(RandomLiteral(p->shape(), 3));
  }
  HloEvaluator evaluator;
  auto r = evaluator.Evaluate(**module, args);
  EXPECT_TRUE(r.ok()) << r.status();
}

TEST(RobustnessTest, TheSeedModuleRuns) { ExpectSeedRuns(kSeed); }

// Bounded dynamic dimensions: their sizes, dimensions and the attributes of
// the ops they flow through are what the mutations hit.
constexpr char kDynamicSeed[] = R"(
HloModule dynamic_seed

add {
  a = f32[] parameter(0)
  b = f32[] parameter(1)
  ROOT r = f32[] add(a, b)
}

ENTRY main {
  x = f32[4,6] parameter(0)
  w = f32[6,3] parameter(1)
  n = s32[] constant(3)
  d = f32[<=4,6] set-dimension-size(x, n), dimensions={0}
  t = f32[6,<=4] transpose(d), dimensions={1,0}
  b = f32[2,6,<=4] broadcast(t), dimensions={1,2}
  sl = f32[1,6,<=4] slice(b), slice={[1:2], [0:6], [0:4]}
  r = f32[6,<=4] reshape(sl)
  z = f32[] constant(0)
  p = f32[7,<=4] pad(r, z), padding=0_1x0_0
  m = s32[] constant(18)
  f = f32[<=28] dynamic-reshape(p, m)
  s = f32[] reduce(f, z), dimensions={0}, to_apply=add
  dt = f32[<=4,3] dot(d, w), lhs_contracting_dims={1}, rhs_contracting_dims={0}
  c = f32[3] reduce(dt, z), dimensions={0}, to_apply=add
  k = s32[] get-dimension-size(dt), dimensions={0}
  ROOT out = (f32[], f32[3], s32[]) tuple(s, c, k)
}
)";

TEST(RobustnessTest, TheDynamicSeedModuleRuns) { ExpectSeedRuns(kDynamicSeed); }

// Mutates the numbers of `seed` 3000 times and evaluates what still parses
// (no verifier): any status, never a crash.
void ExpectMutationsAreErrorsNotCrashes(const std::string& seed, int min_parsed,
                                        int min_evaluated) {
  std::vector<size_t> digits;
  for (size_t i = 0; i < seed.size(); ++i) {
    if (seed[i] >= '0' && seed[i] <= '9') digits.push_back(i);
  }
  SplitMix64 rng(2024);
  int parsed = 0, evaluated = 0;
  for (int trial = 0; trial < 3000; ++trial) {
    std::string text = seed;
    const int edits = 1 + static_cast<int>(rng.Next() % 3);
    for (int e = 0; e < edits; ++e) {
      const size_t pos = digits[rng.Next() % digits.size()];
      switch (rng.Next() % 4) {
        case 0:
          text[pos] = static_cast<char>('0' + rng.Next() % 10);
          break;
        case 1:
          text[pos] = '0';
          break;
        case 2:
          text[pos] = static_cast<char>('0' + (text[pos] - '0' + 1) % 10);
          break;
        default:
          text.insert(pos, "-");
          break;
      }
    }
    auto module = ParseHloModule(text);
    if (!module.ok()) continue;
    ++parsed;
    if (!SmallEnough(**module)) continue;
    std::vector<Literal> args;
    for (const HloInstruction* p : (*module)->entry_computation()->parameter_instructions()) {
      args.push_back(RandomLiteral(p->shape(), static_cast<uint64_t>(trial)));
    }
    HloEvaluator evaluator;
    auto r = evaluator.Evaluate(**module, args);  // any status, no crash
    evaluated += r.ok() ? 1 : 0;
  }
  EXPECT_GT(parsed, min_parsed);
  EXPECT_GT(evaluated, min_evaluated);
}

TEST(RobustnessTest, MutatedModulesAreErrorsNotCrashes) {
  ExpectMutationsAreErrorsNotCrashes(kSeed, 500, 10);
}

TEST(RobustnessTest, MutatedDynamicModulesAreErrorsNotCrashes) {
  ExpectMutationsAreErrorsNotCrashes(kDynamicSeed, 500, 10);
}

// Shuffles: the mutations hit their dimensions, shifts and the shapes and
// values of their tables.
constexpr char kShuffleSeed[] = R"(
HloModule shuffle_seed

ENTRY main {
  x = f32[3,4,2] parameter(0)
  r = f32[3,4,2] shuffle(x), dimensions={1,2}, mode=rotate, shifts={-5,3}
  p = f32[3,4,2] shuffle(r), dimensions={0}, mode=permute, indices=s32[3,1,1]{2,1,0} { { {2} }, { {0} }, { {1} } }
  q = f32[3,4,2] shuffle(p), dimensions={2,0}, mode=permute, indices=s8[1,4,2,2]{3,2,1,0} { { {{1,2},{0,1}}, {{0,0},{1,1}}, {{1,1},{0,2}}, {{0,2},{1,0}} } }
  ROOT m = f32[3,4,2] shuffle(q), dimensions={1}, mode=multi_rotate, multi_shifts=s32[3,1,2]{2,1,0} { { {1,-2} }, { {7,0} }, { {3,9} } }
}
)";

TEST(RobustnessTest, TheShuffleSeedModuleRuns) { ExpectSeedRuns(kShuffleSeed); }

TEST(RobustnessTest, MutatedShuffleModulesAreErrorsNotCrashes) {
  ExpectMutationsAreErrorsNotCrashes(kShuffleSeed, 500, 10);
}

}  // namespace
}  // namespace interpreter_test
}  // namespace aot
