// The MLIR text reader (mlir_text.h): modules as JAX prints them, types, typed
// list elements, other dialects' attributes and aliases, separators, nesting
// limits.
#include "compiler/stablehlo/stablehlo_test_util.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace aot::stablehlo {
namespace {

using test_util::Convert;
using test_util::HloOf;
using ::testing::HasSubstr;

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

}  // namespace
}  // namespace aot::stablehlo
