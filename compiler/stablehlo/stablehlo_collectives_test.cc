// Collectives and shardings (stablehlo_collectives.cc): mhlo shardings as HLO
// shardings.
#include "compiler/stablehlo/stablehlo_test_util.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace aot::stablehlo {
namespace {

using test_util::Convert;
using test_util::HloOf;
using ::testing::HasSubstr;

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

}  // namespace
}  // namespace aot::stablehlo
