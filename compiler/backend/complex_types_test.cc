// Complex element types (c64, c128), staged behind the emission flag
// emit_extended_element_types: refused by default naming the flag (see
// XlaFormsTest), and with the flag on compiled, loaded by this runtime and
// matching the interpreter on host; compiled for CUDA where libdevice is.
#include <filesystem>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "compiler/backend/compiler.h"
#include "compiler/hlo/hlo_parser.h"
#include "compiler/interpreter/evaluator.h"
#include "compiler/rollout/emission_ledger.h"
#include "compiler/target/target_config.h"
#include "compiler/tooling/literal_execution.h"
#include "compiler/tooling/random_literal.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "runtime/executable/client.h"

namespace aot {
namespace {

constexpr char kFlag[] = "emit_extended_element_types";

TEST(ComplexTypesTest, TheLedgerGatesTheNewElementTypes) {
  const EmissionFlag* flag = FindEmissionFlag(kFlag);
  ASSERT_NE(flag, nullptr);
  EXPECT_FALSE(flag->enabled_by_default);
  EXPECT_EQ(flag->runtime_support_since, "2026-12-03");
}

// Modules XLA writes with complex values: arithmetic, conversions, a
// spectrum, a complex matrix product and reduction, complex state in a
// loop, a tuple result and a non-default layout.
const char* const kModules[] = {
    R"(HloModule arithmetic
ENTRY e {
  a = c64[64] parameter(0)
  b = c64[64] parameter(1)
  m = c64[64] multiply(a, b)
  d = c64[64] divide(m, b)
  e = c64[64] exponential(d)
  s = c64[64] sqrt(a)
  l = c64[64] log(b)
  x = c64[64] add(e, s)
  ROOT r = c64[64] subtract(x, l)
})",
    R"(HloModule parts
ENTRY e {
  x = f32[3,5] parameter(0)
  y = f32[3,5] parameter(1)
  z = c64[3,5] complex(x, y)
  w = c128[3,5] convert(z)
  n = f64[3,5] abs(w)
  re = f32[3,5] real(z)
  im = f32[3,5] imag(z)
  eq = pred[3,5] compare(z, z), direction=EQ
  ROOT t = (c128[3,5], f64[3,5], f32[3,5], f32[3,5], pred[3,5]) tuple(w, n, re, im, eq)
})",
    R"(HloModule spectrum
ENTRY e {
  x = f32[4,16] parameter(0)
  f = c64[4,9] fft(x), fft_type=RFFT, fft_length={16}
  p = f32[4,9] abs(f)
  b = f32[4,16] fft(f), fft_type=IRFFT, fft_length={16}
  c = c64[4,16] convert(x)
  g = c64[4,16] fft(c), fft_type=FFT, fft_length={4,16}
  ROOT t = (f32[4,9], f32[4,16], c64[4,16]) tuple(p, b, g)
})",
    R"(HloModule matmul_reduce
add_c {
  a = c128[] parameter(0)
  b = c128[] parameter(1)
  ROOT s = c128[] add(a, b)
}
ENTRY e {
  a = c128[8,6]{0,1} parameter(0)
  b = c128[6,4] parameter(1)
  d = c128[8,4] dot(a, b), lhs_contracting_dims={1}, rhs_contracting_dims={0}
  zero = c128[] constant((0, 0))
  ROOT r = c128[4] reduce(d, zero), dimensions={0}, to_apply=add_c
})",
    R"(HloModule rotate_loop
cond {
  s = (s32[], c64[8]) parameter(0)
  i = s32[] get-tuple-element(s), index=0
  n = s32[] constant(5)
  ROOT c = pred[] compare(i, n), direction=LT
}
body {
  s = (s32[], c64[8]) parameter(0)
  i = s32[] get-tuple-element(s), index=0
  z = c64[8] get-tuple-element(s), index=1
  one = s32[] constant(1)
  j = s32[] add(i, one)
  w = c64[] constant((0.6, 0.8))
  wb = c64[8] broadcast(w), dimensions={}
  r = c64[8] multiply(z, wb)
  ROOT t = (s32[], c64[8]) tuple(j, r)
}
ENTRY e {
  z = c64[8] parameter(0)
  zero = s32[] constant(0)
  s = (s32[], c64[8]) tuple(zero, z)
  w = (s32[], c64[8]) while(s), condition=cond, body=body
  ROOT r = c64[8] get-tuple-element(w), index=1
})",
};

TEST(ComplexTypesTest, WithTheFlagOnModulesMatchTheInterpreter) {
  CompileOptions options;
  options.emission_flags = {kFlag};
  auto client = Client::Create("host");
  ASSERT_TRUE(client.ok());
  const bool cuda = std::filesystem::exists("/usr/local/cuda/nvvm/libdevice/libdevice.10.bc");
  uint64_t seed = 0;
  for (const char* text : kModules) {
    SCOPED_TRACE(text);
    auto module = ParseHloModule(text);
    ASSERT_TRUE(module.ok()) << module.status();
    auto compiled = Compile(**module, *ShippedTargetConfig("host-x86-64-v3"), options);
    ASSERT_TRUE(compiled.ok()) << compiled.status();
    auto executable = (*client)->DeserializeExecutable((*compiled)->SerializeAsString());
    ASSERT_TRUE(executable.ok()) << executable.status();
    std::vector<Literal> args = RandomArguments(**module, ++seed);
    HloEvaluator evaluator;
    auto expected = evaluator.Evaluate(**module, args);
    ASSERT_TRUE(expected.ok()) << expected.status();
    auto actual = ExecuteWithLiterals(**executable, args);
    ASSERT_TRUE(actual.ok()) << actual.status();
    absl::Status same = CompareLiteralsWithDefaultTolerance(*expected, *actual);
    EXPECT_TRUE(same.ok()) << same;
    if (cuda) {
      for (const char* target : {"h100", "a100"}) {
        auto ptx = Compile(**module, *ShippedTargetConfig(target), options);
        EXPECT_TRUE(ptx.ok()) << target << ": " << ptx.status();
      }
    }
  }
}

}  // namespace
}  // namespace aot
