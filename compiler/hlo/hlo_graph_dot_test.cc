#include "compiler/hlo/hlo_graph_dot.h"

#include <string>

#include "compiler/hlo/hlo_parser.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace aot {
namespace {

using ::testing::HasSubstr;
using ::testing::Not;

constexpr char kModule[] = R"(
HloModule graph
fused {
  p = f32[8] parameter(0)
  ROOT e = f32[8] exponential(p)
}
ENTRY main {
  a = f32[8] parameter(0), sharding={devices=[2]<=[2]}
  b = f32[8] parameter(1)
  s = f32[8] add(a, b)
  f = f32[8] fusion(s), kind=kLoop, calls=fused
  n = f32[8] negate(f)
  ROOT r = f32[8] multiply(n, a)
})";

TEST(HloGraphDotTest, NodesEdgesClustersAndCalledComputations) {
  auto module = ParseHloModule(kModule);
  ASSERT_TRUE(module.ok()) << module.status();
  auto dot = HloModuleToDot(**module);
  ASSERT_TRUE(dot.ok()) << dot.status();
  EXPECT_THAT(*dot, HasSubstr("digraph \"graph\" {"));
  EXPECT_THAT(*dot, HasSubstr("subgraph \"cluster_main\" {"));
  EXPECT_THAT(*dot, HasSubstr("subgraph \"cluster_fused\" {"));
  EXPECT_THAT(*dot, HasSubstr("\"main/s\" [label=\"s\\nadd\\nf32[8]\""));
  EXPECT_THAT(*dot, HasSubstr("\"main/a\" -> \"main/s\";"));
  EXPECT_THAT(*dot, HasSubstr("\"main/b\" -> \"main/s\";"));
  // The fusion points at its computation's cluster; sharding on hover.
  EXPECT_THAT(*dot, HasSubstr("\"main/f\" -> \"fused/e\" [style=dashed, arrowhead=none, "
                              "lhead=\"cluster_fused\"];"));
  EXPECT_THAT(*dot, HasSubstr("sharding={devices=[2]<=[2]}"));
  EXPECT_THAT(*dot, HasSubstr("\"main/r\" [label=\"r\\nmultiply\\nf32[8]\""));
}

TEST(HloGraphDotTest, OneComputationOrTheNeighbourhoodOfAnInstruction) {
  auto module = ParseHloModule(kModule);
  ASSERT_TRUE(module.ok()) << module.status();
  auto only = HloModuleToDot(**module, {.computation = "fused"});
  ASSERT_TRUE(only.ok()) << only.status();
  EXPECT_THAT(*only, HasSubstr("\"fused/e\""));
  EXPECT_THAT(*only, Not(HasSubstr("main/")));
  // Within one edge of n: its operand f and its user r, nothing further.
  auto near = HloModuleToDot(**module, {.node = "n", .radius = 1});
  ASSERT_TRUE(near.ok()) << near.status();
  EXPECT_THAT(*near, HasSubstr("\"main/f\" -> \"main/n\";"));
  EXPECT_THAT(*near, HasSubstr("\"main/n\" -> \"main/r\";"));
  EXPECT_THAT(*near, Not(HasSubstr("\"main/s\" [")));
  EXPECT_THAT(*near, Not(HasSubstr("\"main/a\" [")));
  auto two = HloModuleToDot(**module, {.node = "n", .radius = 2});
  ASSERT_TRUE(two.ok()) << two.status();
  EXPECT_THAT(*two, HasSubstr("\"main/s\" -> \"main/f\";"));
  EXPECT_THAT(*two, HasSubstr("\"main/a\" -> \"main/r\";"));
}

TEST(HloGraphDotTest, UnknownNamesAndANegativeRadiusAreErrors) {
  auto module = ParseHloModule(kModule);
  ASSERT_TRUE(module.ok()) << module.status();
  auto no_node = HloModuleToDot(**module, {.node = "zz"});
  EXPECT_EQ(no_node.status().code(), absl::StatusCode::kNotFound);
  EXPECT_THAT(std::string(no_node.status().message()),
              HasSubstr("module graph has no instruction 'zz'"));
  auto no_comp = HloModuleToDot(**module, {.computation = "other"});
  EXPECT_THAT(std::string(no_comp.status().message()),
              HasSubstr("module graph has no computation 'other'"));
  auto negative = HloModuleToDot(**module, {.node = "n", .radius = -1});
  EXPECT_EQ(negative.status().code(), absl::StatusCode::kInvalidArgument);
}

}  // namespace
}  // namespace aot
