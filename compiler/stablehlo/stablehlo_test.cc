// The converter as a whole (stablehlo_to_hlo.cc): positioned errors for
// malformed input, and every op of the support table named. Running programs
// and their checks is compiler/tooling/stablehlo_programs_test.cc.
#include "compiler/stablehlo/stablehlo_test_util.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace aot::stablehlo {
namespace {

using test_util::Convert;
using test_util::HloOf;
using ::testing::HasSubstr;

// Malformed input: each error names file:line:col and, past the reader,
// the operation.
struct Malformed {
  const char* what;
  const char* text;
  const char* message;
};

TEST(ConvertTest, MalformedInputGetsAPositionedError) {
  const Malformed cases[] = {
      {"unknown op",
       "func.func @main() {\n  %a = stablehlo.frobnicate : tensor<f32>\n  func.return\n}",
       "t.mlir:2:8: 'stablehlo.frobnicate': unsupported stablehlo operation"},
      {"unknown dialect", "func.func @main() {\n  %a = foo.bar : tensor<f32>\n  func.return\n}",
       "t.mlir:2:8: 'foo.bar': unknown operation"},
      {"unterminated region",
       "func.func @main() -> tensor<f32> {\n  %a = stablehlo.constant dense<1.0> : tensor<f32>\n",
       "t.mlir:1:"},
      {"bad dense literal",
       "func.func @main() -> tensor<2xf32> {\n  %a = stablehlo.constant dense<[1.0, 2.0, 3.0]> : "
       "tensor<2xf32>\n  func.return %a : tensor<2xf32>\n}",
       "t.mlir:2:27: 'stablehlo.constant': bad dense literal"},
      {"undefined value",
       "func.func @main() -> tensor<f32> {\n  %a = stablehlo.negate %b : tensor<f32>\n  "
       "func.return %a : tensor<f32>\n}",
       "t.mlir:2:25: 'stablehlo.negate': use of undefined value %b"},
      {"type mismatch",
       "func.func @main(%x: tensor<2xf32>, %y: tensor<3xf32>) -> tensor<2xf32> {\n  %a = "
       "stablehlo.add %x, %y : tensor<2xf32>\n  func.return %a : tensor<2xf32>\n}",
       "t.mlir:2:8 (stablehlo.add)"},
      {"unbounded dynamic dimension",
       "func.func @main(%x: tensor<?xf32>) -> tensor<?xf32> {\n  func.return %x : tensor<?xf32>\n}",
       "unbounded dynamic dimension 0 in tensor<?xf32>"},
      {"dynamic sizes not known",
       "func.func @main(%x: tensor<4xf32>, %s: tensor<2xi64>) -> tensor<2x2xf32> {\n  %r = "
       "stablehlo.dynamic_reshape %x, %s : (tensor<4xf32>, tensor<2xi64>) -> tensor<?x?xf32>\n  "
       "%c = stablehlo.reshape %r : (tensor<?x?xf32>) -> tensor<2x2xf32>\n  func.return %c : "
       "tensor<2x2xf32>\n}",
       "t.mlir:2:8: 'stablehlo.dynamic_reshape': result 0 has unbounded dynamic dimensions"},
      {"unknown rng algorithm",
       "func.func @main(%s: tensor<2xui64>) -> tensor<2xui64> {\n  %n, %b = "
       "stablehlo.rng_bit_generator %s, algorithm = MAGIC : (tensor<2xui64>) -> (tensor<2xui64>, "
       "tensor<4xui32>)\n  func.return %n : tensor<2xui64>\n}",
       "unknown RNG algorithm 'MAGIC'"},
      {"quantized type",
       "func.func @main(%x: tensor<2x!quant.uniform<i8:f32, 0.5>>) {\n  func.return\n}",
       "quantized element type"},
      {"wrong result count", "func.func @main() -> tensor<f32> {\n  func.return\n}",
       "t.mlir:2:3: 'func.return' returns 0 value(s); @main declares 1"},
      {"bad comparison direction",
       "func.func @main(%x: tensor<f32>) -> tensor<i1> {\n  %c = stablehlo.compare  XX, %x, %x : "
       "(tensor<f32>, tensor<f32>) -> tensor<i1>\n  func.return %c : tensor<i1>\n}",
       "unknown comparison direction 'XX'"},
      {"refused by name",
       "func.func @main(%x: tensor<f32>) -> tensor<f32> {\n  %c = chlo.zeta %x, %x : (tensor<f32>, "
       "tensor<f32>) -> tensor<f32>\n  func.return %c : tensor<f32>\n}",
       "'chlo.zeta': not supported"},
      {"bitcast_convert to i1 without a bit dimension",
       "func.func @main(%x: tensor<2xf32>) -> tensor<2x8xi1> {\n  %b = "
       "stablehlo.bitcast_convert %x : (tensor<2xf32>) -> tensor<2x8xi1>\n  func.return %b : "
       "tensor<2x8xi1>\n}",
       "t.mlir:2:8: 'stablehlo.bitcast_convert': bitcast_convert between tensor<2xf32> and "
       "tensor<2x8xi1>: the i1 side needs a minor-most dimension of the other type's bit width"},
      {"unterminated string", "module @m attributes {a = \"x\n",
       "t.mlir:1:27: unterminated string"},
      {"missing signature",
       "func.func @main() -> tensor<f32> {\n  %a = stablehlo.iota dim = 0\n  func.return %a : "
       "tensor<f32>\n}",
       "missing the type signature"},
      {"unterminated struct attribute",
       "func.func @main(%a: tensor<2xf32>) -> tensor<f32> {\n  %d = stablehlo.dot_general %a, "
       "%a,\n    contracting_dims = [0] x [0],\n    algorithm = <lhs_precision_type = f32\n    "
       ": (tensor<2xf32>, tensor<2xf32>) -> tensor<f32>\n  func.return %d : tensor<f32>\n}",
       "t.mlir:5:7: expected"},
      {"attributes after the signature without a value",
       "func.func @main() {\n  %x = stablehlo.constant dense<1.0> : tensor<f64>\n  "
       "check.expect_almost_eq_const %x, dense<1.0> : tensor<f64> {tolerance = }\n  "
       "func.return\n}",
       "t.mlir:3:74: expected an attribute value"},
      {"dynamic op with sizes known only at run time",
       "func.func @main(%x: tensor<2xi64>, %l: tensor<1xi64>) -> tensor<3xi64> {\n  %z = "
       "stablehlo.constant dense<0> : tensor<i64>\n  %p = stablehlo.dynamic_pad %x, %z, %l, %l, "
       "%l : (tensor<2xi64>, tensor<i64>, tensor<1xi64>, tensor<1xi64>, tensor<1xi64>) -> "
       "tensor<3xi64>\n  func.return %p : tensor<3xi64>\n}",
       "t.mlir:3:8: 'stablehlo.dynamic_pad': its edge_padding_low operand (%l) is not a constant"},
      {"run_parallel operands that do not match the programs",
       "func.func @f(%x: tensor<f32>) -> tensor<f32> {\n  return %x : tensor<f32>\n}\n"
       "func.func @main() {\n  %c = stablehlo.constant dense<1.0> : tensor<f32>\n  %r:2 = "
       "\"interpreter.run_parallel\"(%c) {programs = [[@f], [@f]]} : (tensor<f32>) -> "
       "(tensor<f32>, tensor<f32>)\n  func.return\n}",
       "t.mlir:6:10: 'interpreter.run_parallel': the programs take more operands than the 1 given"},
      {"run_parallel of an unknown function",
       "func.func @main() {\n  \"interpreter.run_parallel\"() {programs = [[@nowhere]]} : () "
       "-> ()\n  func.return\n}",
       "'interpreter.run_parallel': unknown function @nowhere"},
      {"run_parallel participants that never meet",
       "func.func @r(%t: !stablehlo.token) -> tensor<f32> {\n  %v, %u = \"stablehlo.recv\"(%t) "
       "{channel_handle = #stablehlo.channel_handle<handle = 5, type = 3>} : "
       "(!stablehlo.token) -> (tensor<f32>, !stablehlo.token)\n  return %v : tensor<f32>\n}\n"
       "func.func @main() {\n  %t = stablehlo.after_all : !stablehlo.token\n  %r = "
       "\"interpreter.run_parallel\"(%t) {programs = [[@r]]} : (!stablehlo.token) -> "
       "tensor<f32>\n  func.return\n}",
       "the participants wait for each other for ever: (0, 0) at t.mlir:2:12 stablehlo.recv"},
      {"run_parallel collective inside a loop",
       "func.func @w(%x: tensor<f32>) -> tensor<f32> {\n  %r = \"stablehlo.if\"(%b) ({\n    "
       "%i = stablehlo.replica_id : tensor<ui32>\n    stablehlo.return %x : tensor<f32>\n  }, "
       "{\n    stablehlo.return %x : tensor<f32>\n  }) : (tensor<i1>) -> tensor<f32>\n  return "
       "%r : tensor<f32>\n}\nfunc.func @main() {\n  %c = stablehlo.constant dense<1.0> : "
       "tensor<f32>\n  %r = \"interpreter.run_parallel\"(%c) {programs = [[@w]]} : "
       "(tensor<f32>) -> tensor<f32>\n  func.return\n}",
       "collectives of a run_parallel program must be at the top level"},
  };
  for (const Malformed& c : cases) {
    SCOPED_TRACE(c.what);
    // As the tools do: convert, parse, verify, and report at the source.
    auto loaded = LoadStableHloProgram(c.text, "t.mlir", 1, "");
    absl::Status status = loaded.status();
    if (loaded.ok()) status = AtSource(*loaded, VerifyHloModule(*loaded->module));
    ASSERT_FALSE(status.ok());
    EXPECT_EQ(status.code(), absl::StatusCode::kInvalidArgument);
    EXPECT_THAT(status.message(), HasSubstr(c.message));
  }
}

TEST(ConvertTest, EveryOpOfTheSupportTableHasAName) {
  std::vector<OpSupport> ops = StableHloOpSupport();
  EXPECT_GT(ops.size(), 100u);
  int refused = 0;
  for (const OpSupport& op : ops) {
    EXPECT_FALSE(op.name.empty());
    if (!op.supported) {
      ++refused;
      EXPECT_FALSE(op.note.empty()) << op.name << " is refused without a reason";
    }
  }
  EXPECT_GT(refused, 0);
}

}  // namespace
}  // namespace aot::stablehlo
