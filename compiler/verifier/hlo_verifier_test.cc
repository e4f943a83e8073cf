#include "compiler/verifier/hlo_verifier.h"

#include <filesystem>
#include <fstream>
#include <memory>
#include <sstream>
#include <string>

#include "absl/strings/str_cat.h"
#include "compiler/hlo/hlo_parser.h"
#include "compiler/verifier/test_util.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "support/testing/status_testing.h"

namespace aot {
namespace {

using ::testing::HasSubstr;
using verifier_test::FailsWith;
using verifier_test::FindInstruction;
using verifier_test::kAddF32;
using verifier_test::Module;
using verifier_test::Verifies;

// Text shaped like XLA's --xla_dump_to output.
constexpr char kXlaDump[] = R"hlo(
HloModule jit_f, is_scheduled=true, entry_computation_layout={(f32[2,3]{1,0}, f32[3]{0})->(f32[2,3]{1,0}, f32[2]{0})}

%region_0.4 (Arg_0.5: f32[], Arg_1.6: f32[]) -> f32[] {
  %Arg_0.5 = f32[] parameter(0), metadata={op_name="jit(f)/reduce_sum"}
  %Arg_1.6 = f32[] parameter(1)
  ROOT %add.7 = f32[] add(f32[] %Arg_0.5, f32[] %Arg_1.6)
}

ENTRY %main.10 (Arg_0.1: f32[2,3], Arg_1.2: f32[3]) -> (f32[2,3], f32[2]) {
  %Arg_0.1 = f32[2,3]{1,0} parameter(0), sharding={replicated}
  %Arg_1.2 = f32[3]{0} parameter(1)
  %broadcast.3 = f32[2,3]{1,0} broadcast(f32[3]{0} %Arg_1.2), dimensions={1}
  %multiply.4 = f32[2,3]{0,1} multiply(f32[2,3]{1,0} %Arg_0.1, f32[2,3]{1,0} %broadcast.3)
  %constant.8 = f32[] constant(0)
  %reduce.9 = f32[2]{0} reduce(f32[2,3]{0,1} %multiply.4, f32[] %constant.8), dimensions={1}, to_apply=%region_0.4
  ROOT %tuple = (f32[2,3]{1,0}, f32[2]{0}) tuple(%multiply.4, %reduce.9)
}
)hlo";

std::unique_ptr<HloModule> ParseOrDie(const std::string& text) {
  return testing::ValueOrFailure(ParseHloModule(text), text);
}

HloInstruction* Find(HloModule& module, absl::string_view name) {
  return const_cast<HloInstruction*>(FindInstruction(module, name));
}

TEST(HloVerifierTest, AcceptsAnXlaDump) { EXPECT_TRUE(Verifies(kXlaDump)); }

TEST(HloVerifierTest, AcceptsAWholeProgram) {
  // A small MLP step with control flow, touching many opcodes at once.
  EXPECT_TRUE(Verifies(absl::StrCat(R"(
HloModule mlp

max_f32 {
  a = f32[] parameter(0)
  b = f32[] parameter(1)
  ROOT m = f32[] maximum(a, b)
}

cond {
  s = (s32[], f32[8,16]) parameter(0)
  i = s32[] get-tuple-element(s), index=0
  n = s32[] constant(3)
  ROOT lt = pred[] compare(i, n), direction=LT
}

body {
  s = (s32[], f32[8,16]) parameter(0)
  i = s32[] get-tuple-element(s), index=0
  x = f32[8,16] get-tuple-element(s), index=1
  w = f32[16,16] constant({...})
  d = f32[8,16] dot(x, w), lhs_contracting_dims={1}, rhs_contracting_dims={0}
  z = f32[] constant(0)
  zb = f32[8,16] broadcast(z), dimensions={}
  relu = f32[8,16] maximum(d, zb)
  one = s32[] constant(1)
  i2 = s32[] add(i, one)
  ROOT t = (s32[], f32[8,16]) tuple(i2, relu)
}

ENTRY main {
  x = f32[8,16]{1,0} parameter(0)
  zero = s32[] constant(0)
  init = (s32[], f32[8,16]) tuple(zero, x)
  loop = (s32[], f32[8,16]) while(init), condition=cond, body=body
  y = f32[8,16] get-tuple-element(loop), index=1
  ninf = f32[] constant(-inf)
  m = f32[8] reduce(y, ninf), dimensions={1}, to_apply=max_f32
  mb = f32[8,16] broadcast(m), dimensions={0}
  sh = f32[8,16] subtract(y, mb)
  e = f32[8,16] exponential(sh)
  c0 = f32[] constant(0)
  s = f32[8] reduce(e, c0), dimensions={1}, to_apply=add_f32
  sb = f32[8,16] broadcast(s), dimensions={0}
  ROOT p = f32[8,16]{0,1} divide(e, sb)
}
)",
                                    kAddF32)));
}

// ---------------------------------------------------------------------------
// Declared vs inferred shapes.

TEST(HloVerifierTest, DeclaredShapeMustMatchInferredShape) {
  EXPECT_TRUE(FailsWith(Module(R"(
  a = f32[2] parameter(0)
  ROOT add.3 = f32[3] add(a, a))"),
                        {"computation 'main': instruction 'add.3' (add): "
                         "declared shape f32[3] does not match the inferred "
                         "shape f32[2]"}));
  // Errors from shape inference name the computation too.
  EXPECT_TRUE(FailsWith(Module(R"(
  a = f32[2] parameter(0)
  b = s32[2] parameter(1)
  ROOT add.3 = f32[2] add(a, b))"),
                        {"computation 'main': instruction 'add.3' (add): operand "
                         "1 has shape s32[2] but operand 0 has f32[2]"}));
  // Also inside called computations.
  EXPECT_TRUE(FailsWith(R"(
HloModule m
bad_add {
  a = f32[] parameter(0)
  b = f32[] parameter(1)
  ROOT r = s32[] add(a, b)
}
ENTRY main {
  p = f32[4] parameter(0)
  c = f32[] constant(0)
  ROOT r = f32[] reduce(p, c), dimensions={0}, to_apply=bad_add
})",
                        {"computation 'bad_add': instruction 'r' (add)", "declared shape s32[]",
                         "inferred shape f32[]"}));
}

// Sharding annotations are checked against the value's shape and the
// module's partitions; a malformed one names the instruction.
TEST(HloVerifierTest, ShardingsFitTheirShapesAndThePartitions) {
  EXPECT_TRUE(Verifies(R"(
HloModule m, num_partitions=8
ENTRY main {
  a = f32[16,8] parameter(0), sharding={devices=[4,1,2]<=[8] last_tile_dim_replicate}
  b = f32[16,8] parameter(1), sharding={devices=[2,4]<=[4,2]T(1,0)}
  c = f32[16,8] add(a, b), sharding={replicated}
  ROOT t = (f32[16,8], f32[16,8]) tuple(c, a), sharding={{replicated}, {maximal device=7}}
})"));
  EXPECT_TRUE(FailsWith(R"(
HloModule m, num_partitions=4
ENTRY main {
  ROOT a = f32[6,2] parameter(0), sharding={devices=[3,1]<=[4]}
})",
                        {"instruction 'a' (parameter)", "3 tiles (3x1) but lists 4 devices"}));
  EXPECT_TRUE(FailsWith(R"(
HloModule m, num_partitions=4
ENTRY main {
  ROOT a = f32[8,8] parameter(0), sharding={devices=[2,4]<=[8]}
})",
                        {"instruction 'a' (parameter)", "names device 4, out of range for 4"}));
  EXPECT_TRUE(FailsWith(R"(
HloModule m, num_partitions=4
ENTRY main {
  a = f32[8] parameter(0)
  ROOT n = f32[8] negate(a), sharding={devices=[2,2]<=[4]}
})",
                        {"instruction 'n' (negate)", "has 2 tile dimensions for the rank-1"}));
  EXPECT_TRUE(FailsWith(R"(
HloModule m, num_partitions=2
ENTRY main {
  ROOT a = f32[8] parameter(0), sharding={devices=[2]0,1 sideways}
})",
                        {"instruction 'a' (parameter)", "unknown sharding item"}));
}

TEST(HloVerifierTest, LayoutsAreIgnoredWhenComparingShapes) {
  EXPECT_TRUE(Verifies(Module(R"(
  a = f32[2,3]{0,1} parameter(0)
  b = f32[2,3]{1,0} parameter(1)
  ROOT c = f32[2,3]{0,1} add(a, b))")));
}

// ---------------------------------------------------------------------------
// Declared shapes themselves.

TEST(HloVerifierTest, LayoutsMustBePermutationsOfTheRank) {
  auto module = ParseOrDie(Module(R"(
  a = f32[2,3] parameter(0)
  s = f32[] parameter(1)
  ROOT n = f32[2,3] negate(a))"));
  ASSERT_NE(module, nullptr);
  ASSERT_TRUE(VerifyHloModule(*module).ok());
  HloInstruction* n = Find(*module, "n");
  n->mutable_shape()->set_minor_to_major({0, 0});
  EXPECT_TRUE(FailsWith(
      *module, {"instruction 'n' (negate)", "layout {0,0} of f32[2,3] is not a permutation"}));
  n->mutable_shape()->set_minor_to_major({0});
  EXPECT_TRUE(FailsWith(*module, {"instruction 'n' (negate)", "layout {0}"}));
  n->mutable_shape()->set_minor_to_major({1, 2});
  EXPECT_TRUE(FailsWith(*module, {"instruction 'n' (negate)", "layout {1,2}"}));
  n->mutable_shape()->set_minor_to_major({0, 1});
  EXPECT_TRUE(VerifyHloModule(*module).ok());
  // A scalar has no layout to speak of.
  Find(*module, "s")->mutable_shape()->set_minor_to_major({0});
  EXPECT_TRUE(FailsWith(
      *module, {"instruction 's' (parameter)", "layout {0} of f32[] is not a permutation"}));
}

TEST(HloVerifierTest, ShapesNeedValidTypesAndDimensions) {
  auto module = ParseOrDie(Module(R"(
  a = f32[2,3] parameter(0)
  ROOT t = (f32[2,3]) tuple(a))"));
  ASSERT_NE(module, nullptr);
  HloInstruction* a = Find(*module, "a");
  (*a->mutable_shape()->mutable_dimensions())[1] = -1;
  EXPECT_TRUE(FailsWith(*module, {"instruction 'a' (parameter)", "negative dimension"}));
  *a->mutable_shape() = Shape(PRIMITIVE_TYPE_INVALID, {2});
  EXPECT_TRUE(FailsWith(*module, {"instruction 'a' (parameter)", "invalid element type"}));
  HloInstruction* t = Find(*module, "t");
  *a->mutable_shape() = Shape(F32, {2, 3});
  t->mutable_shape()->mutable_tuple_shapes()->at(0).set_minor_to_major({5, 0});
  EXPECT_TRUE(FailsWith(*module, {"instruction 't' (tuple)", "layout {5,0}"}));
}

// ---------------------------------------------------------------------------
// Module structure.

TEST(HloVerifierTest, EntryComputationMustExist) {
  HloModule module("no_entry");
  auto c = std::make_unique<HloComputation>("c");
  HloInstruction* p = c->AddInstruction(HloInstruction::CreateParameter(0, Shape(F32, {}), "p"));
  c->set_root_instruction(p);
  module.AddComputation(std::move(c), /*is_entry=*/false);
  EXPECT_TRUE(FailsWith(module, {"module 'no_entry' has no entry computation"}));
}

TEST(HloVerifierTest, EveryComputationNeedsARootInIt) {
  auto module = ParseOrDie(Module(R"(
  a = f32[2] parameter(0)
  ROOT n = f32[2] negate(a))",
                                  kAddF32));
  ASSERT_NE(module, nullptr);
  HloComputation* add = module->FindComputation("add_f32");
  ASSERT_NE(add, nullptr);
  add->set_root_instruction(nullptr);
  EXPECT_TRUE(FailsWith(*module, {"computation 'add_f32' has no root"}));
  add->set_root_instruction(Find(*module, "n"));
  EXPECT_TRUE(FailsWith(*module, {"computation 'add_f32': root instruction 'n' "
                                  "is not in the computation"}));
}

TEST(HloVerifierTest, ParameterNumbersAreUniqueAndContiguous) {
  auto module = ParseOrDie(Module(R"(
  a = f32[2] parameter(0)
  b = f32[2] parameter(1)
  ROOT n = f32[2] add(a, b))"));
  ASSERT_NE(module, nullptr);
  HloInstruction* b = Find(*module, "b");
  b->mutable_attrs()->parameter_number = 2;
  EXPECT_TRUE(FailsWith(*module, {"computation 'main'", "parameter 1 is missing"}));
  b->mutable_attrs()->parameter_number = 0;
  EXPECT_TRUE(FailsWith(*module,
                        {"instruction 'b' (parameter)", "parameter number 0 is also used by 'a'"}));
  b->mutable_attrs()->parameter_number = -1;
  EXPECT_TRUE(
      FailsWith(*module, {"instruction 'b' (parameter)", "parameter number -1 is negative"}));
}

TEST(HloVerifierTest, ParametersMustBeRegisteredWithTheComputation) {
  HloModule module("m");
  auto c = std::make_unique<HloComputation>("main");
  HloInstruction* p0 = c->AddInstruction(HloInstruction::CreateParameter(0, Shape(F32, {2}), "p0"));
  // Registered under number 1, then renumbered 0: the computation's
  // parameter list no longer matches the instructions.
  HloInstruction* p1 = c->AddInstruction(HloInstruction::CreateParameter(5, Shape(F32, {2}), "p1"));
  p1->mutable_attrs()->parameter_number = 1;
  auto add = HloInstruction::Create(HloOpcode::kAdd, Shape(F32, {2}), {p0, p1});
  add->set_name("add");
  c->set_root_instruction(c->AddInstruction(std::move(add)));
  module.AddComputation(std::move(c), /*is_entry=*/true);
  EXPECT_TRUE(FailsWith(
      module, {"computation 'main'", "registers 6 parameters", "has 2 parameter instructions"}));
}

TEST(HloVerifierTest, ProgrammaticModuleVerifies) {
  HloModule module("m");
  auto c = std::make_unique<HloComputation>("main");
  HloInstruction* p0 = c->AddInstruction(HloInstruction::CreateParameter(0, Shape(F32, {2}), "p0"));
  HloInstruction* k = c->AddInstruction(
      HloInstruction::CreateConstant(Literal::FromDoubles(Shape(F32, {2}), {1.0, 2.0})));
  k->set_name("k");
  auto add = HloInstruction::Create(HloOpcode::kAdd, Shape(F32, {2}), {p0, k});
  add->set_name("add");
  c->set_root_instruction(c->AddInstruction(std::move(add)));
  module.AddComputation(std::move(c), /*is_entry=*/true);
  absl::Status status = VerifyHloModule(module);
  EXPECT_TRUE(status.ok()) << status;

  // Extra operands are counted.
  HloInstruction* root = module.entry_computation()->root_instruction();
  root->AppendOperand(p0);
  EXPECT_TRUE(FailsWith(module, {"instruction 'add' (add)", "expects 2 operands but has 3"}));
}

TEST(HloVerifierTest, InstructionsNeedUniqueNamesWithinAComputation) {
  auto module = ParseOrDie(Module(R"(
  a = f32[2] parameter(0)
  b = f32[2] negate(a)
  ROOT n = f32[2] negate(b))"));
  ASSERT_NE(module, nullptr);
  Find(*module, "b")->set_name("n");
  EXPECT_TRUE(FailsWith(*module, {"computation 'main' has two instructions "
                                  "named 'n'"}));
  Find(*module, "a")->set_name("");
  EXPECT_TRUE(FailsWith(*module, {"computation 'main': an instruction "
                                  "(parameter) has no name"}));
}

TEST(HloVerifierTest, SameInstructionNameInTwoComputationsIsFine) {
  EXPECT_TRUE(Verifies(R"(
HloModule m
add {
  x = s32[] parameter(0)
  y = s32[] parameter(1)
  ROOT r = s32[] add(x, y)
}
main {
  x = s32[4] parameter(0)
  c = s32[] constant(-7)
  ROOT r = s32[] reduce(x, c), dimensions={0}, to_apply=add
})"));
}

TEST(HloVerifierTest, OperandsMustBelongToTheSameComputation) {
  auto module = ParseOrDie(Module(R"(
  a = f32[] parameter(0)
  ROOT n = f32[] negate(a))",
                                  kAddF32));
  ASSERT_NE(module, nullptr);
  HloComputation* add = module->FindComputation("add_f32");
  HloInstruction* r = add->root_instruction();
  r->ReplaceOperandWith(1, module->entry_computation()->parameter_instruction(0));
  EXPECT_TRUE(FailsWith(*module, {"computation 'add_f32': instruction 'r' (add)",
                                  "operand 1 'a' is not an instruction of this "
                                  "computation"}));
}

TEST(HloVerifierTest, OperandCyclesAreReportedNotFollowedForever) {
  HloModule module("m");
  auto c = std::make_unique<HloComputation>("main");
  HloInstruction* p = c->AddInstruction(HloInstruction::CreateParameter(0, Shape(F32, {2}), "p"));
  auto n1 = HloInstruction::Create(HloOpcode::kNegate, Shape(F32, {2}), {p});
  n1->set_name("n1");
  HloInstruction* n1_raw = c->AddInstruction(std::move(n1));
  auto n2 = HloInstruction::Create(HloOpcode::kNegate, Shape(F32, {2}), {n1_raw});
  n2->set_name("n2");
  HloInstruction* n2_raw = c->AddInstruction(std::move(n2));
  c->set_root_instruction(n2_raw);
  n1_raw->ReplaceOperandWith(0, n2_raw);
  module.AddComputation(std::move(c), /*is_entry=*/true);
  EXPECT_TRUE(FailsWith(module, {"computation 'main'", "cycle"}));
}

TEST(HloVerifierTest, RecursionIsAnError) {
  EXPECT_TRUE(FailsWith(R"(
HloModule m
f {
  p = f32[] parameter(0)
  ROOT c = f32[] call(p), to_apply=f
}
ENTRY main {
  a = f32[] parameter(0)
  ROOT c = f32[] call(a), to_apply=f
})",
                        {"computation 'f' calls itself recursively: f -> f"}));
  EXPECT_TRUE(FailsWith(R"(
HloModule m
g {
  p = f32[] parameter(0)
  ROOT c = f32[] call(p), to_apply=h
}
h {
  p = f32[] parameter(0)
  n = f32[] negate(p)
  ROOT c = f32[] call(n), to_apply=g
}
ENTRY main {
  a = f32[] parameter(0)
  ROOT c = f32[] call(a), to_apply=g
})",
                        {"calls itself recursively", " -> "}));
}

TEST(HloVerifierTest, CalledComputationsMustBeInTheModule) {
  auto module = ParseOrDie(Module(R"(
  a = f32[] parameter(0)
  ROOT c = f32[] call(a, a), to_apply=add_f32)",
                                  kAddF32));
  ASSERT_NE(module, nullptr);
  // A computation that the module does not own.
  auto other = ParseOrDie(Module("ROOT x = f32[] parameter(0)", kAddF32));
  ASSERT_NE(other, nullptr);
  HloInstruction* call = module->entry_computation()->root_instruction();
  (*call->mutable_called_computations())[0] = other->FindComputation("add_f32");
  EXPECT_TRUE(FailsWith(*module, {"instruction 'c' (call)",
                                  "called computation 'add_f32' is not in the "
                                  "module"}));
  (*call->mutable_called_computations())[0] = nullptr;
  EXPECT_TRUE(FailsWith(*module, {"instruction 'c' (call)", "a called computation is null"}));
}

TEST(HloVerifierTest, CalledComputationCountsPerOpcode) {
  EXPECT_TRUE(
      FailsWith(Module(R"(
  a = f32[4] parameter(0)
  c = f32[] constant(0)
  ROOT r = f32[] reduce(a, c), dimensions={0})"),
                {"instruction 'r' (reduce)", "expects 1 called computation (to_apply) but has 0"}));
  EXPECT_TRUE(FailsWith(Module(R"(
  a = f32[] parameter(0)
  ROOT c = f32[] call(a, a))"),
                        {"instruction 'c' (call)", "expects 1 called computation"}));
  EXPECT_TRUE(FailsWith(Module(R"(
  a = f32[4] parameter(0)
  ROOT s = f32[4] sort(a), dimensions={0})"),
                        {"instruction 's' (sort)", "expects 1 called computation"}));
}

TEST(HloVerifierTest, EntryComputationLayoutMustMatchTheEntry) {
  EXPECT_TRUE(Verifies(R"(
HloModule m, entry_computation_layout={(f32[2,3]{0,1}, s32[])->f32[2,3]{1,0}}
ENTRY main {
  a = f32[2,3] parameter(0)
  i = s32[] parameter(1)
  ROOT n = f32[2,3] negate(a)
})"));
  EXPECT_TRUE(FailsWith(
      R"(
HloModule m, entry_computation_layout={(f32[2,4]{1,0}, s32[])->f32[2,3]{1,0}}
ENTRY main {
  a = f32[2,3] parameter(0)
  i = s32[] parameter(1)
  ROOT n = f32[2,3] negate(a)
})",
      {"entry_computation_layout of module 'm'", "parameter 0 is f32[2,4]",
       "entry parameter 'a' is f32[2,3]"}));
  EXPECT_TRUE(FailsWith(R"(
HloModule m, entry_computation_layout={(f32[2,3]{1,0})->f32[2,3]{1,0}}
ENTRY main {
  a = f32[2,3] parameter(0)
  i = s32[] parameter(1)
  ROOT n = f32[2,3] negate(a)
})",
                        {"entry_computation_layout", "has 1 parameters", "has 2"}));
  EXPECT_TRUE(FailsWith(
      R"(
HloModule m, entry_computation_layout={(f32[2,3]{1,0}, s32[])->(f32[2,3]{1,0})}
ENTRY main {
  a = f32[2,3] parameter(0)
  i = s32[] parameter(1)
  ROOT n = f32[2,3] negate(a)
})",
      {"entry_computation_layout", "result is (f32[2,3])", "entry root 'n' is f32[2,3]"}));
}

TEST(HloVerifierTest, ErrorsAreInvalidArgument) {
  auto module = ParseHloModule(Module(R"(
  a = f32[2] parameter(0)
  ROOT b = pred[2] not(a))"));
  ASSERT_TRUE(module.ok());
  absl::Status status = VerifyHloModule(**module);
  EXPECT_EQ(status.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(std::string(status.message()),
              HasSubstr("computation 'main': instruction 'b' (not)"));
}

// Every module of the golden corpus is valid HLO (tests run from the
// repository root).
TEST(HloVerifierTest, EveryGoldenModuleVerifies) {
  const std::filesystem::path root = "golden/modules";
  if (!std::filesystem::exists(root)) GTEST_SKIP() << "no golden/modules";
  int count = 0;
  for (const auto& entry : std::filesystem::recursive_directory_iterator(root)) {
    if (entry.path().extension() != ".hlo") continue;
    ++count;
    std::ifstream in(entry.path());
    std::stringstream text;
    text << in.rdbuf();
    auto module = ParseHloModule(text.str());
    if (!module.ok()) {
      ADD_FAILURE() << entry.path() << " does not parse: " << module.status();
      continue;
    }
    absl::Status status = VerifyHloModule(**module);
    EXPECT_TRUE(status.ok()) << entry.path() << ": " << status;
  }
  EXPECT_GT(count, 0);
}

TEST(HloVerifierTest, VerifiesAfterPrintAndReparse) {
  auto module = ParseOrDie(kXlaDump);
  ASSERT_NE(module, nullptr);
  auto again = ParseHloModule(module->ToString());
  ASSERT_TRUE(again.ok()) << again.status();
  absl::Status status = VerifyHloModule(**again);
  EXPECT_TRUE(status.ok()) << status;
}

}  // namespace
}  // namespace aot
