#include "compiler/passes/xla_custom_call_lowering.h"

#include "compiler/passes/test_util.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace aot {
namespace {

using ::testing::HasSubstr;
using testing_util::ExpectExpansionKeepsValues;
using testing_util::Parse;

// XLA's GEMMs (both backend_config forms, beta and c, a bias and GELU,
// workspaces), TopK with its comparator and the annotations: lowered to
// HLO with the interpreter's values, no custom call left.
TEST(XlaCustomCallLoweringTest, GemmsTopKAndAnnotationsBecomeHlo) {
  std::unique_ptr<HloModule> m =
      ExpectExpansionKeepsValues(R"(
HloModule xla_custom_calls
greater {
  a = f32[] parameter(0)
  b = f32[] parameter(1)
  ROOT gt = pred[] compare(a, b), direction=GT
}
ENTRY main {
  a = f32[2,8,16]{2,1,0} parameter(0)
  b = f32[2,16,4]{2,1,0} parameter(1)
  c = f32[2,8,4]{2,1,0} parameter(2)
  bias = f32[4]{0} parameter(3)
  g = (f32[2,8,4]{2,1,0}, s8[256]{0}) custom-call(a, b, c), custom_call_target="__cublas$gemm", backend_config={"operation_queue_id":"0","gemm_backend_config":{"alpha_real":1.5,"alpha_imag":0,"beta":-1,"dot_dimension_numbers":{"lhs_contracting_dimensions":["2"],"rhs_contracting_dimensions":["1"],"lhs_batch_dimensions":["0"],"rhs_batch_dimensions":["0"]},"epilogue":"DEFAULT"}}
  g0 = f32[2,8,4]{2,1,0} get-tuple-element(g), index=0
  l = f32[2,8,4]{2,1,0} custom-call(a, b, bias), custom_call_target="__cublas$lt$matmul", backend_config={"alpha_real":1,"beta":0,"dot_dimension_numbers":{"lhs_contracting_dimensions":[2],"rhs_contracting_dimensions":[1],"lhs_batch_dimensions":[0],"rhs_batch_dimensions":[0]},"epilogue":"BIAS_GELU"}
  s = f32[2,8,4]{2,1,0} custom-call(l), custom_call_target="Sharding", sharding={replicated}
  sum = f32[2,8,4]{2,1,0} add(g0, s)
  t = (f32[2,8,2]{2,1,0}, s32[2,8,2]{2,1,0}) custom-call(sum), custom_call_target="TopK", to_apply=greater
  ROOT r = (f32[2,8,4]{2,1,0}, (f32[2,8,2]{2,1,0}, s32[2,8,2]{2,1,0})) tuple(sum, t)
})",
                                 LowerXlaCustomCalls, Tolerance{1e-5, 1e-5});
  ASSERT_NE(m, nullptr);
  for (const HloInstruction* h : m->entry_computation()->instructions()) {
    EXPECT_NE(h->opcode(), HloOpcode::kCustomCall) << h->ToString();
  }
}

TEST(XlaCustomCallLoweringTest, OtherCustomCallsStayAndWhatItCannotComputeIsRefused) {
  std::unique_ptr<HloModule> m = Parse(R"(
HloModule other
ENTRY main {
  x = f32[4,8] parameter(0)
  ROOT t = (f32[4,2], s32[4,2]) custom-call(x), custom_call_target="aot.topk", backend_config="2"
})");
  ASSERT_NE(m, nullptr);
  absl::StatusOr<bool> changed = LowerXlaCustomCalls(m.get());
  ASSERT_TRUE(changed.ok()) << changed.status();
  EXPECT_FALSE(*changed);
  struct Case {
    const char* text;
    const char* message;
  } cases[] = {
      {R"(
HloModule smallest
less {
  a = f32[] parameter(0)
  b = f32[] parameter(1)
  ROOT lt = pred[] compare(a, b), direction=LT
}
ENTRY main {
  x = f32[4,8] parameter(0)
  ROOT t = (f32[4,2], s32[4,2]) custom-call(x), custom_call_target="TopK", to_apply=less
})",
       "instruction 't' (custom-call): TopK with a comparator that is not a greater-than"},
      {R"(
HloModule complex_alpha
ENTRY main {
  a = f32[2,2] parameter(0)
  ROOT g = f32[2,2] custom-call(a, a), custom_call_target="__cublas$gemm", backend_config={"alpha_real":1,"alpha_imag":1,"dot_dimension_numbers":{"lhs_contracting_dimensions":["1"],"rhs_contracting_dimensions":["0"]}}
})",
       "instruction 'g' (custom-call): __cublas$gemm with a complex alpha"},
      {R"(
HloModule no_config
ENTRY main {
  a = f32[2,2] parameter(0)
  ROOT g = f32[2,2] custom-call(a, a), custom_call_target="__cublas$gemm", backend_config="not json"
})",
       "__cublas$gemm has a backend_config that is not a JSON object"},
      {R"(
HloModule missing_c
ENTRY main {
  a = f32[2,2] parameter(0)
  ROOT g = f32[2,2] custom-call(a, a), custom_call_target="__cublas$gemm", backend_config={"beta":1,"dot_dimension_numbers":{"lhs_contracting_dimensions":["1"],"rhs_contracting_dimensions":["0"]}}
})",
       "__cublas$gemm takes 3 operands (lhs, rhs, c) for beta 1 and the epilogue DEFAULT, has 2"},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.text);
    std::unique_ptr<HloModule> bad = Parse(c.text);
    ASSERT_NE(bad, nullptr);
    absl::StatusOr<bool> refused = LowerXlaCustomCalls(bad.get());
    ASSERT_FALSE(refused.ok());
    EXPECT_THAT(std::string(refused.status().message()), HasSubstr(c.message));
  }
}

}  // namespace
}  // namespace aot
