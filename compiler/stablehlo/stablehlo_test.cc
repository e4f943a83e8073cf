// The StableHLO front end on its own: the MLIR reader, dense literals, the
// conversion's HLO text (parsed back by the HLO parser), and positioned
// errors for malformed input. Running programs and their checks is
// compiler/tooling/stablehlo_programs_test.cc.
#include <string>

#include "absl/strings/str_cat.h"
#include "compiler/hlo/hlo_module_loader.h"
#include "compiler/hlo/hlo_parser.h"
#include "compiler/stablehlo/dense_literal.h"
#include "compiler/stablehlo/mlir_text.h"
#include "compiler/stablehlo/stablehlo_to_hlo.h"
#include "compiler/verifier/hlo_verifier.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "support/status_macros.h"

namespace aot::stablehlo {
namespace {

using ::testing::HasSubstr;
using ::testing::Not;

absl::StatusOr<ConvertedProgram> Convert(const std::string& text) {
  return ConvertStableHloText(text, "t.mlir");
}

// Converts and parses the HLO; returns the HLO text or the error.
std::string HloOf(const std::string& text) {
  auto converted = Convert(text);
  AOT_RETURN_IF_ERROR_AND(converted, std::string(_.message()));
  auto parsed = ParseHloModule(converted->hlo_text);
  if (!parsed.ok()) {
    return absl::StrCat("HLO does not parse: ", parsed.status().message(), "\n",
                        converted->hlo_text);
  }
  return converted->hlo_text;
}

TEST(MlirTextTest, ReadsAModuleAsJaxPrintsIt) {
  auto module = ParseMlirModule(R"(
module @jit_f attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<2x3xf32> {mhlo.layout_mode = "default", mhlo.sharding = "{replicated}"}) -> (tensor<2xf32> {jax.result_info = ""}) {
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32> loc(#loc3)
    %0 = stablehlo.reduce(%arg0 init: %cst) applies stablehlo.add across dimensions = [1] : (tensor<2x3xf32>, tensor<f32>) -> tensor<2xf32>
    %1 = "stablehlo.sort"(%0) <{dimension = 0 : i64, is_stable = true}> ({
    ^bb0(%a: tensor<f32>, %b: tensor<f32>):
      %c = stablehlo.compare  LT, %a, %b,  FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
      stablehlo.return %c : tensor<i1>
    }) : (tensor<2xf32>) -> tensor<2xf32>
    return %1 : tensor<2xf32>
  }
} loc(#loc)
#loc = loc(unknown)
#loc3 = loc("jit(f)/const"("x.py":3:0))
)",
                                "m.mlir");
  ASSERT_TRUE(module.ok()) << module.status();
  EXPECT_EQ(module->name, "jit_f");
  ASSERT_EQ(module->functions.size(), 1u);
  const MlirFunction& fn = module->functions[0];
  EXPECT_EQ(fn.name, "main");
  ASSERT_EQ(fn.arguments.size(), 1u);
  EXPECT_EQ(fn.arguments[0].second.dimensions, (std::vector<int64_t>{2, 3}));
  const auto& ops = fn.body.blocks[0].operations;
  ASSERT_EQ(ops.size(), 4u);
  EXPECT_EQ(ops[1].name, "stablehlo.reduce");
  EXPECT_EQ(ops[1].applies, "stablehlo.add");
  EXPECT_EQ(ops[1].num_inputs, 1);
  EXPECT_EQ(ops[2].name, "stablehlo.sort");
  ASSERT_EQ(ops[2].regions.size(), 1u);
  EXPECT_EQ(ops[2].regions[0].blocks[0].arguments.size(), 2u);
  EXPECT_EQ(ops[2].attributes.at("dimension").i, 0);
  EXPECT_EQ(ops[2].loc.line, 6);
  EXPECT_EQ(ops[2].loc.column, 10);
}

TEST(MlirTextTest, TypesWithBoundsAndElementTypes) {
  auto module = ParseMlirModule(R"(
func.func @f(%a: tensor<?x4xf32, #stablehlo.bounds<8, ?>>, %b: tensor<2xcomplex<f64>>, %c: tensor<3xui8>, %d: tensor<f8E4M3FN>, %e: !stablehlo.token, %f: tuple<tensor<i1>, tensor<2xbf16>>) {
  func.return
})",
                                "m.mlir");
  ASSERT_TRUE(module.ok()) << module.status();
  const auto& args = module->functions[0].arguments;
  ASSERT_EQ(args.size(), 6u);
  EXPECT_EQ(args[0].second.dimensions, (std::vector<int64_t>{-1, 4}));
  EXPECT_EQ(args[0].second.bounds, (std::vector<int64_t>{8, -1}));
  EXPECT_EQ(args[1].second.element, "complex<f64>");
  EXPECT_EQ(args[2].second.element, "ui8");
  EXPECT_EQ(args[3].second.element, "f8E4M3FN");
  EXPECT_EQ(args[4].second.kind, MlirType::kToken);
  EXPECT_EQ(args[5].second.kind, MlirType::kTuple);
  EXPECT_EQ(args[5].second.tuple.size(), 2u);
}

// As JAX writes its CPU exports: list elements with their own types, other
// dialects' attributes (kept opaque) and aliases at the top of the module.
TEST(MlirTextTest, TypedListElementsForeignAttributesAndAliases) {
  auto module = ParseMlirModule(R"(#map = affine_map<(d0, d1) -> (d1, d0)>
#mesh = #sdy.mesh<["x"=2, "y"=1]>
!pair = tuple<tensor<i1>, tensor<2xf32>>
module @m {
  func.func @main(%x: tensor<2x3xf32>) -> tensor<2x3xf32> {
    %r = stablehlo.custom_call @my_target(%x) {operand_layouts = [dense<[0, 1]> : tensor<2xindex>], result_layouts = [dense<[0, 1]> : tensor<2xindex>], sizes = [1 : i64, 2 : i64], rule = #sdy.op_sharding_rule<([i, j])->([i, j]) {i=2, j=3}>} : (tensor<2x3xf32>) -> tensor<2x3xf32>
    return %r : tensor<2x3xf32>
  }
})",
                                "m.mlir");
  ASSERT_TRUE(module.ok()) << module.status();
  const MlirOperation& call = module->functions[0].body.blocks[0].operations[0];
  const MlirAttr& layouts = call.attributes.at("operand_layouts");
  ASSERT_EQ(layouts.kind, MlirAttr::kList);
  ASSERT_EQ(layouts.list.size(), 1u);
  EXPECT_EQ(layouts.list[0].kind, MlirAttr::kDense);
  ASSERT_NE(layouts.list[0].type, nullptr);
  EXPECT_EQ(layouts.list[0].type->element, "index");
  const MlirAttr& sizes = call.attributes.at("sizes");
  ASSERT_EQ(sizes.list.size(), 2u);
  EXPECT_EQ(sizes.list[1].i, 2);
  EXPECT_EQ(call.attributes.at("rule").kind, MlirAttr::kWord);
  EXPECT_EQ(call.attributes.at("rule").s, "<([i, j])->([i, j]) {i=2, j=3}>");
  // A slice range is still a range.
  auto ranges = ParseMlirModule(R"(func.func @f(%x: tensor<8xf32>) -> tensor<3xf32> {
  %s = stablehlo.slice %x [1:7:2] : (tensor<8xf32>) -> tensor<3xf32>
  func.return %s : tensor<3xf32>
})",
                                "r.mlir");
  ASSERT_TRUE(ranges.ok()) << ranges.status();
  // A typed element with a malformed type is a positioned error.
  auto bad = ParseMlirModule(
      "func.func @f() {\n  %r = stablehlo.custom_call @t() {operand_layouts = [dense<[0]> : "
      "tensor<2xbogus]} : () -> tensor<f32>\n  func.return\n}",
      "b.mlir");
  ASSERT_FALSE(bad.ok());
  EXPECT_THAT(bad.status().message(), HasSubstr("b.mlir:2:"));
}

TEST(MlirTextTest, SplitsAtSeparatorLinesKeepingLineNumbers) {
  const std::string text = "func.func @a() {\n  func.return\n}\n// -----\nfunc.func @b() {\n}\n";
  std::vector<MlirChunk> chunks = SplitMlirInput(text);
  ASSERT_EQ(chunks.size(), 2u);
  EXPECT_EQ(chunks[0].first_line, 1);
  EXPECT_EQ(chunks[1].first_line, 5);
  auto listed = ListStableHloTests(text, "s.mlir");
  ASSERT_TRUE(listed.ok()) << listed.status();
  ASSERT_EQ(listed->size(), 2u);
  EXPECT_EQ((*listed)[1].function, "b");
  EXPECT_EQ((*listed)[1].first_line, 5);
}

TEST(MlirTextTest, DeepNestingIsAnErrorNotACrash) {
  const std::string lists = "module attributes {a = " + std::string(100000, '[') + "}";
  auto a = ParseMlirModule(lists, "d.mlir");
  ASSERT_FALSE(a.ok());
  EXPECT_THAT(a.status().message(), HasSubstr("nesting deeper than 256 levels"));
  std::string regions = "func.func @f() {\n";
  for (int i = 0; i < 100000; ++i) regions += "\"stablehlo.if\"(%p) ({";
  auto b = ParseMlirModule(regions, "d.mlir");
  ASSERT_FALSE(b.ok());
  EXPECT_THAT(b.status().message(), HasSubstr("nesting deeper than 256 levels"));
}

TEST(MlirTextTest, RecognisesMlirButNotHloText) {
  EXPECT_TRUE(LooksLikeMlirText("// c\nmodule @m {\n}"));
  EXPECT_TRUE(LooksLikeMlirText("\nfunc.func @f() {\n}"));
  EXPECT_FALSE(LooksLikeMlirText("HloModule m\nENTRY e {}"));
  EXPECT_FALSE(LooksLikeMlirText("# a comment\nHloModule m"));
}

TEST(DenseLiteralTest, FormsOfElements) {
  auto nested = ParseDenseElements("[[1, 2], [3, -4]]", "s32", {2, 2});
  ASSERT_TRUE(nested.ok()) << nested.status();
  EXPECT_EQ(nested->elements, (std::vector<std::string>{"1", "2", "3", "-4"}));
  EXPECT_EQ(HloLiteralBody(nested->elements, {2, 2}), "{{1, 2}, {3, -4}}");
  auto splat = ParseDenseElements("1.5", "f32", {3, 3});
  ASSERT_TRUE(splat.ok());
  EXPECT_TRUE(splat->splat);
  auto hex_float = ParseDenseElements("[0x7F800000, 0xFF800000, 0x3F800000]", "f32", {3});
  ASSERT_TRUE(hex_float.ok()) << hex_float.status();
  EXPECT_EQ(hex_float->elements, (std::vector<std::string>{"inf", "-inf", "1"}));
  auto blob = ParseDenseElements("\"0x0000803F00000040\"", "f32", {2});
  ASSERT_TRUE(blob.ok()) << blob.status();
  EXPECT_EQ(blob->elements, (std::vector<std::string>{"1", "2"}));
  auto complex = ParseDenseElements("[(1.0,2.0), (3.0,-1.0)]", "c64", {2});
  ASSERT_TRUE(complex.ok()) << complex.status();
  EXPECT_EQ(complex->elements[1], "(3.0, -1.0)");
  auto bools = ParseDenseElements("[true, false]", "pred", {2});
  ASSERT_TRUE(bools.ok());
  EXPECT_EQ(bools->elements, (std::vector<std::string>{"true", "false"}));
  auto half = ParseDenseElements("0x3C00", "f16", {});
  ASSERT_TRUE(half.ok());
  EXPECT_EQ(half->elements[0], "1");
  auto ubyte = ParseDenseElements("\"0xFF01\"", "u8", {2});
  ASSERT_TRUE(ubyte.ok());
  EXPECT_EQ(ubyte->elements, (std::vector<std::string>{"255", "1"}));
}

TEST(DenseLiteralTest, MalformedLiteralsAreRefusedSayingWhy) {
  EXPECT_THAT(ParseDenseElements("[1, 2, 3]", "s32", {2}).status().message(),
              HasSubstr("has 3 element(s); the type says 2"));
  EXPECT_THAT(ParseDenseElements("[1, 2]", "s32", {2, 1}).status().message(),
              HasSubstr("nesting does not match"));
  EXPECT_THAT(ParseDenseElements("[300]", "s8", {1}).status().message(),
              HasSubstr("out of range for s8"));
  EXPECT_THAT(ParseDenseElements("[-1]", "u8", {1}).status().message(), HasSubstr("out of range"));
  EXPECT_THAT(ParseDenseElements("[1.5x]", "f32", {1}).status().message(),
              HasSubstr("not a number"));
  EXPECT_THAT(ParseDenseElements("\"0x0000\"", "f32", {3}).status().message(),
              HasSubstr("2 bytes for 3 element(s)"));
  EXPECT_THAT(ParseDenseElements("[maybe]", "pred", {1}).status().message(),
              HasSubstr("not a boolean"));
  EXPECT_FALSE(ParseDenseElements("[1, 2", "s32", {2}).ok());
}

// JAX's CPU exports call LAPACK through typed-FFI custom calls whose
// attributes are a dictionary in mhlo.backend_config.
TEST(ConvertTest, TypedFfiCustomCallsKeepTheirAttributes) {
  auto converted = Convert(R"(func.func @main(%x: tensor<4x4xf32>) -> tensor<4x4xf32> {
  %r:2 = stablehlo.custom_call @lapack_spotrf_ffi(%x) {mhlo.backend_config = {uplo = 76 : ui8, flag = true}, operand_layouts = [dense<[0, 1]> : tensor<2xindex>], result_layouts = [dense<[0, 1]> : tensor<2xindex>, dense<> : tensor<0xindex>]} : (tensor<4x4xf32>) -> (tensor<4x4xf32>, tensor<i32>)
  func.return %r#0 : tensor<4x4xf32>
})");
  ASSERT_TRUE(converted.ok()) << converted.status();
  EXPECT_THAT(
      converted->hlo_text,
      HasSubstr("custom_call_target=\"lapack_spotrf_ffi\", api_version=API_VERSION_TYPED_FFI, "
                "backend_config={flag = true, uplo = 76 : ui8}"));
  // The legacy string form stays a string.
  auto legacy = Convert(R"(func.func @main(%x: tensor<2xf32>) -> tensor<2xf32> {
  %r = stablehlo.custom_call @my_op(%x) {backend_config = "k=2"} : (tensor<2xf32>) -> tensor<2xf32>
  func.return %r : tensor<2xf32>
})");
  ASSERT_TRUE(legacy.ok()) << legacy.status();
  EXPECT_THAT(legacy->hlo_text, HasSubstr("custom_call_target=\"my_op\", backend_config=\"k=2\""));
}

// As JAX exports with symbolic shapes: `?` sizes from the actual
// arguments, the size arithmetic folded, functions with `?` in their
// signature specialized at the call, dynamic ops then static.
constexpr char kPolymorphic[] = R"(module @jit_f attributes {jax.uses_shape_polymorphism = true} {
  func.func public @main(%arg0: tensor<?x3xf32>) -> tensor<?x2xf32> {
    %0 = stablehlo.get_dimension_size %arg0, dim = 0 : (tensor<?x3xf32>) -> tensor<i32>
    %1 = stablehlo.constant dense<2> : tensor<i32>
    %2 = stablehlo.compare  GE, %0, %1,  SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    stablehlo.custom_call @shape_assertion(%2, %0) {api_version = 2 : i32, error_message = "Expected value >= 2 for dimension variable 'b', got {0}", has_side_effect = true} : (tensor<i1>, tensor<i32>) -> ()
    %3 = call @_wrapped(%0, %arg0) : (tensor<i32>, tensor<?x3xf32>) -> tensor<?x2xf32>
    return %3 : tensor<?x2xf32>
  }
  func.func private @_wrapped(%b: tensor<i32>, %x: tensor<?x3xf32>) -> tensor<?x2xf32> {
    %c = stablehlo.constant dense<2> : tensor<i32>
    %k = stablehlo.subtract %c, %b : tensor<i32>
    %k2 = stablehlo.add %k, %b : tensor<i32>
    %v:2 = stablehlo.custom_call @stablehlo.dynamic_top_k(%x, %k2) {api_version = 2 : i32} : (tensor<?x3xf32>, tensor<i32>) -> (tensor<?x?xf32>, tensor<?x?xi32>)
    %r = stablehlo.reshape %b : (tensor<i32>) -> tensor<1xi32>
    %two = stablehlo.constant dense<2> : tensor<1xi32>
    %shape = stablehlo.concatenate %r, %two, dim = 0 : (tensor<1xi32>, tensor<1xi32>) -> tensor<2xi32>
    %z = stablehlo.constant dense<0.5> : tensor<f32>
    %h = stablehlo.dynamic_broadcast_in_dim %z, %shape, dims = [] : (tensor<f32>, tensor<2xi32>) -> tensor<?x2xf32>
    %s = stablehlo.add %v#0, %h : tensor<?x2xf32>
    return %s : tensor<?x2xf32>
  }
})";

TEST(ConvertTest, ShapePolymorphicProgramsTakeTheirSizesFromTheArguments) {
  ConvertOptions options;
  options.entry_argument_dims = {{4, 3}};
  auto converted = ConvertStableHloText(kPolymorphic, "p.mlir", options);
  ASSERT_TRUE(converted.ok()) << converted.status();
  EXPECT_THAT(converted->hlo_text, HasSubstr("f32[4,3] parameter(0)"));
  EXPECT_THAT(converted->hlo_text, HasSubstr("topk("));
  EXPECT_THAT(converted->hlo_text, HasSubstr("k=2, largest=true"));
  EXPECT_THAT(converted->hlo_text, HasSubstr("f32[4,2] add("));
  EXPECT_THAT(converted->hlo_text, ::testing::Not(HasSubstr(" call(")));
  // The shape assertion is JAX's check of the sizes, with its message.
  options.entry_argument_dims = {{1, 3}};
  auto small = ConvertStableHloText(kPolymorphic, "p.mlir", options);
  ASSERT_FALSE(small.ok());
  EXPECT_THAT(small.status().message(),
              HasSubstr("p.mlir:6:5: 'stablehlo.custom_call': Expected value >= 2 for dimension "
                        "variable 'b', got 1"));
  // Sizes that contradict the static ones, and none at all.
  options.entry_argument_dims = {{4, 5}};
  EXPECT_THAT(ConvertStableHloText(kPolymorphic, "p.mlir", options).status().message(),
              HasSubstr("@main argument %arg0 is tensor<?x3xf32>; the given value is [4x5]"));
  EXPECT_THAT(ConvertStableHloText(kPolymorphic, "p.mlir").status().message(),
              HasSubstr("unbounded dynamic dimension 0 in tensor<?x3xf32>"));
}

TEST(ConvertTest, ElementwiseAndStructuredOpsBecomeHlo) {
  const std::string hlo = HloOf(R"(
func.func @main(%a: tensor<2x3xf32>, %b: tensor<3xf32>) -> tensor<3x2xf32> {
  %0 = stablehlo.broadcast_in_dim %b, dims = [1] : (tensor<3xf32>) -> tensor<2x3xf32>
  %1 = stablehlo.add %a, %0 : tensor<2x3xf32>
  %2 = stablehlo.transpose %1, dims = [1, 0] : (tensor<2x3xf32>) -> tensor<3x2xf32>
  %3 = stablehlo.slice %2 [0:3, 0:2:1] : (tensor<3x2xf32>) -> tensor<3x2xf32>
  return %3 : tensor<3x2xf32>
})");
  EXPECT_THAT(hlo, HasSubstr("broadcast(%b), dimensions={1}"));
  EXPECT_THAT(hlo, HasSubstr("f32[2,3] add(%a, %bcast)"));
  EXPECT_THAT(hlo, HasSubstr("transpose(%v1), dimensions={1,0}"));
  EXPECT_THAT(hlo, HasSubstr("slice(%v2), slice={[0:3:1], [0:2:1]}"));
  EXPECT_THAT(hlo, HasSubstr("ENTRY %main"));
}

// Where StableHLO's semantics differ from HLO's opcode of the name, the
// converter emits what StableHLO means.
TEST(ConvertTest, StableHloSemanticsWhereHloOpcodesDiffer) {
  const std::string hlo = HloOf(R"(
func.func @main(%p: tensor<4xi1>, %q: tensor<4xi1>, %z: tensor<2xcomplex<f32>>, %w: tensor<2xcomplex<f32>>, %b: tensor<2x32xi1>, %f: tensor<3xf32>) -> (tensor<4xi1>, tensor<4xi1>, tensor<2xcomplex<f32>>, tensor<2xcomplex<f32>>, tensor<2xi32>, tensor<2xi1>, tensor<2xf32>, tensor<3x32xi1>, tensor<2xcomplex<f64>>) {
  %0 = stablehlo.add %p, %q : tensor<4xi1>
  %1 = stablehlo.multiply %p, %q : tensor<4xi1>
  %2 = stablehlo.maximum %z, %w : tensor<2xcomplex<f32>>
  %3 = stablehlo.atan2 %z, %w : tensor<2xcomplex<f32>>
  %4 = stablehlo.convert %z : (tensor<2xcomplex<f32>>) -> tensor<2xi32>
  %5 = stablehlo.convert %z : (tensor<2xcomplex<f32>>) -> tensor<2xi1>
  %6 = stablehlo.convert %z : (tensor<2xcomplex<f32>>) -> tensor<2xf32>
  %7 = stablehlo.bitcast_convert %f : (tensor<3xf32>) -> tensor<3x32xi1>
  %8 = stablehlo.iota dim = 0 : tensor<2xcomplex<f64>>
  return %0, %1, %2, %3, %4, %5, %6, %7, %8 : tensor<4xi1>, tensor<4xi1>, tensor<2xcomplex<f32>>, tensor<2xcomplex<f32>>, tensor<2xi32>, tensor<2xi1>, tensor<2xf32>, tensor<3x32xi1>, tensor<2xcomplex<f64>>
})");
  EXPECT_THAT(hlo, HasSubstr("pred[4] or(%p, %q)"));
  EXPECT_THAT(hlo, HasSubstr("pred[4] and(%p, %q)"));
  EXPECT_THAT(hlo, Not(HasSubstr("pred[4] add(")));
  EXPECT_THAT(hlo, Not(HasSubstr("maximum(%z, %w)")));
  EXPECT_THAT(hlo, HasSubstr("c64[2] select("));
  EXPECT_THAT(hlo, Not(HasSubstr("atan2(%z, %w)")));
  EXPECT_THAT(hlo, HasSubstr("c64[2] log("));
  EXPECT_THAT(hlo, HasSubstr("f32[2] real(%z)"));
  EXPECT_THAT(hlo, Not(HasSubstr("convert(%z)")));
  EXPECT_THAT(hlo, HasSubstr("u32[3] bitcast-convert(%f)"));
  EXPECT_THAT(hlo, HasSubstr("shift-right-logical("));
  EXPECT_THAT(hlo, HasSubstr("f64[2] iota(), iota_dimension=0"));
  EXPECT_THAT(hlo, HasSubstr("c128[2] convert("));
  // i1 to a wider type: an or-reduction of the shifted bits.
  const std::string gather = HloOf(R"(
func.func @main(%b: tensor<2x8xi1>) -> tensor<2xi8> {
  %0 = stablehlo.bitcast_convert %b : (tensor<2x8xi1>) -> tensor<2xi8>
  return %0 : tensor<2xi8>
})");
  EXPECT_THAT(gather, HasSubstr("u8[2,8] shift-left("));
  EXPECT_THAT(gather, HasSubstr("u8[2] reduce("));
  EXPECT_THAT(gather, HasSubstr("s8[2] bitcast-convert("));
}

// CHLO functions without an HLO opcode (or whose HLO opcode takes no
// complex operand) are decomposed.
TEST(ConvertTest, ChloErfcNextAfterAndComplexFunctionsAreDecomposed) {
  const std::string hlo = HloOf(R"(
func.func @main(%x: tensor<3xf16>, %y: tensor<3xf32>, %z: tensor<3xcomplex<f32>>, %p: tensor<3xi1>) -> (tensor<3xf16>, tensor<3xf32>, tensor<3xcomplex<f32>>, tensor<3xcomplex<f32>>, tensor<2xi1>, tensor<2xi32>) {
  %0 = chlo.erfc %x : tensor<3xf16> -> tensor<3xf16>
  %1 = chlo.next_after %y, %y : tensor<3xf32>, tensor<3xf32> -> tensor<3xf32>
  %2 = chlo.asin %z : tensor<3xcomplex<f32>> -> tensor<3xcomplex<f32>>
  %3 = chlo.sinh %z : tensor<3xcomplex<f32>> -> tensor<3xcomplex<f32>>
  %4, %5 = chlo.top_k(%p, k = 2) : tensor<3xi1> -> (tensor<2xi1>, tensor<2xi32>)
  return %0, %1, %2, %3, %4, %5 : tensor<3xf16>, tensor<3xf32>, tensor<3xcomplex<f32>>, tensor<3xcomplex<f32>>, tensor<2xi1>, tensor<2xi32>
})");
  EXPECT_THAT(hlo, HasSubstr("f64[3] convert(%x)"));
  EXPECT_THAT(hlo, HasSubstr("f64[3] exponential("));
  EXPECT_THAT(hlo, HasSubstr("f16[3] convert("));
  EXPECT_THAT(hlo, HasSubstr("u32[3] bitcast-convert(%y)"));
  EXPECT_THAT(hlo, HasSubstr("f64[3] atan2("));
  EXPECT_THAT(hlo, HasSubstr("f64[3] log-plus-one("));
  EXPECT_THAT(hlo, HasSubstr("f64[3] sinh("));
  EXPECT_THAT(hlo, Not(HasSubstr("c64[3] asin(")));
  EXPECT_THAT(hlo, Not(HasSubstr("c64[3] sinh(")));
  EXPECT_THAT(hlo, HasSubstr("u8[3] convert(%p)"));
  EXPECT_THAT(hlo, HasSubstr("topk("));
}

TEST(ConvertTest, DotGeneralConvolutionGatherAndDynamicShapes) {
  const std::string hlo = HloOf(R"(
func.func @main(%a: tensor<2x3x4xf32>, %b: tensor<2x4x5xf32>, %img: tensor<1x4x4x1xf32>, %k: tensor<2x2x1x1xf32>, %t: tensor<3x3xf32>, %i: tensor<2x1xi32>, %d: tensor<?xf32, #stablehlo.bounds<8>>) -> (tensor<2x3x5xf32>, tensor<1x3x3x1xf32>, tensor<2x3xf32>, tensor<?xf32, #stablehlo.bounds<8>>) {
  %0 = stablehlo.dot_general %a, %b, batching_dims = [0] x [0], contracting_dims = [2] x [1], precision = [DEFAULT, DEFAULT] : (tensor<2x3x4xf32>, tensor<2x4x5xf32>) -> tensor<2x3x5xf32>
  %1 = stablehlo.convolution(%img, %k) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {stride = [1, 1], pad = [[0, 0], [0, 0]], rhs_dilate = [1, 1]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<1x4x4x1xf32>, tensor<2x2x1x1xf32>) -> tensor<1x3x3x1xf32>
  %2 = "stablehlo.gather"(%t, %i) <{dimension_numbers = #stablehlo.gather<offset_dims = [1], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 1>, indices_are_sorted = false, slice_sizes = array<i64: 1, 3>}> : (tensor<3x3xf32>, tensor<2x1xi32>) -> tensor<2x3xf32>
  %3 = stablehlo.negate %d : tensor<?xf32, #stablehlo.bounds<8>>
  return %0, %1, %2, %3 : tensor<2x3x5xf32>, tensor<1x3x3x1xf32>, tensor<2x3xf32>, tensor<?xf32, #stablehlo.bounds<8>>
})");
  EXPECT_THAT(hlo, HasSubstr("lhs_batch_dims={0}, rhs_batch_dims={0}, lhs_contracting_dims={2}, "
                             "rhs_contracting_dims={1}"));
  EXPECT_THAT(hlo, HasSubstr("window={size=2x2 stride=1x1 pad=0_0x0_0 rhs_dilate=1x1}, "
                             "dim_labels=b01f_01io->b01f"));
  EXPECT_THAT(hlo, HasSubstr("offset_dims={1}, collapsed_slice_dims={0}, start_index_map={0}, "
                             "index_vector_dim=1, slice_sizes={1,3}"));
  EXPECT_THAT(hlo, HasSubstr("f32[<=8] negate(%d)"));
}

TEST(ConvertTest, RegionsThreadOuterValuesAndCopyConstants) {
  const std::string hlo = HloOf(R"(
func.func @main(%x: tensor<f32>, %n: tensor<i32>) -> tensor<f32> {
  %zero = stablehlo.constant dense<0> : tensor<i32>
  %r:2 = stablehlo.while(%i = %zero, %acc = %x) : tensor<i32>, tensor<f32>
   cond {
    %c = stablehlo.compare  LT, %i, %n,  SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    stablehlo.return %c : tensor<i1>
  } do {
    %one = stablehlo.constant dense<1> : tensor<i32>
    %i1 = stablehlo.add %i, %one : tensor<i32>
    %a1 = stablehlo.add %acc, %x : tensor<f32>
    stablehlo.return %i1, %a1 : tensor<i32>, tensor<f32>
  }
  return %r#1 : tensor<f32>
})");
  // %n and %x are threaded through the loop state after the two loop values.
  EXPECT_THAT(hlo, HasSubstr("tuple(%zero, %x, %n, %x)"));
  EXPECT_THAT(hlo, HasSubstr("while(%while_init), condition=%cond, body=%body"));
}

TEST(ConvertTest, MhloShardingsBecomeHloShardings) {
  const std::string hlo = HloOf(R"(
module @jit_f attributes {mhlo.num_partitions = 2 : i32} {
  func.func public @main(%a: tensor<4x2xf32> {mhlo.sharding = "{devices=[2,1]<=[2]}"}) -> (tensor<4x2xf32> {mhlo.sharding = "{replicated}"}, tensor<4x2xf32>) {
    %0 = stablehlo.custom_call @Sharding(%a) {mhlo.sharding = "{devices=[1,2]<=[2]}"} : (tensor<4x2xf32>) -> tensor<4x2xf32>
    return %0, %a : tensor<4x2xf32>, tensor<4x2xf32>
  }
})");
  EXPECT_THAT(hlo, HasSubstr("HloModule jit_f, num_partitions=2"));
  EXPECT_THAT(hlo, HasSubstr("f32[4,2] parameter(0), sharding={devices=[2,1]<=[2]}"));
  EXPECT_THAT(hlo, HasSubstr("custom_call_target=\"Sharding\", sharding={devices=[1,2]<=[2]}"));
  EXPECT_THAT(hlo, HasSubstr("tuple(%v0, %a), sharding={{replicated}, {replicated}}"));
}

TEST(ConvertTest, ChecksBecomeOutputsAfterTheResults) {
  auto converted = Convert(R"(
func.func @main() -> tensor<2xi32> {
  %a = stablehlo.constant dense<[1, 2]> : tensor<2xi32>
  %b = stablehlo.add %a, %a : tensor<2xi32>
  check.expect_eq_const %b, dense<[2, 4]> : tensor<2xi32>
  check.expect_almost_eq %b, %b, tolerance = 1.0e-3 : tensor<2xi32>
  stablehlo.custom_call @check.expect_close(%b, %b) {has_side_effect = true} : (tensor<2xi32>, tensor<2xi32>) -> ()
  return %b : tensor<2xi32>
})");
  ASSERT_TRUE(converted.ok()) << converted.status();
  ASSERT_EQ(converted->checks.size(), 3u);
  EXPECT_TRUE(converted->tuple_root);
  EXPECT_EQ(converted->num_results, 1);
  EXPECT_EQ(converted->checks[0].kind, CheckSpec::kEq);
  EXPECT_EQ(converted->checks[0].actual_output, 1);
  EXPECT_EQ(converted->checks[0].expected_output, 2);
  EXPECT_EQ(converted->checks[1].kind, CheckSpec::kAlmostEq);
  EXPECT_DOUBLE_EQ(converted->checks[1].tolerance, 1e-3);
  EXPECT_EQ(converted->checks[2].kind, CheckSpec::kClose);
  EXPECT_EQ(converted->checks[2].where, "t.mlir:7:3");
  EXPECT_TRUE(ParseHloModule(converted->hlo_text).ok());
}

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
