#include "compiler/hlo/hlo_sharding.h"

#include <string>

#include "compiler/hlo/hlo_parser.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace aot {
namespace {

using ::testing::HasSubstr;

HloSharding MustParse(const std::string& text) {
  auto s = HloSharding::Parse(text);
  EXPECT_TRUE(s.ok()) << s.status();
  return s.ok() ? *s : HloSharding::Replicated();
}

TEST(HloShardingTest, EveryFormParsesAndPrintsAsXlaWritesIt) {
  for (const char* text : {
           "{replicated}",
           "{manual}",
           "{unknown}",
           "{maximal device=3}",
           "{devices=[2,1,4]0,1,2,3,4,5,6,7}",
           "{devices=[4,2]<=[8]}",
           "{devices=[2,4]<=[4,2]T(1,0)}",
           "{devices=[2,1,2]<=[4] last_tile_dim_replicate}",
           "{devices=[2,2,2]<=[8] last_tile_dims={manual, replicated}}",
           "{{replicated}, {devices=[2]0,1}, {maximal device=1}}",
       }) {
    SCOPED_TRACE(text);
    EXPECT_EQ(MustParse(text).ToString(), text);
  }
  // Metadata and shard groups are dropped; spacing is free.
  EXPECT_EQ(
      MustParse("{ devices=[2]<=[2] metadata={op_name=\"a\" source_file=\"x.py\"} }").ToString(),
      "{devices=[2]<=[2]}");
  EXPECT_EQ(MustParse("{replicated shard_as 1}").ToString(), "{replicated}");
}

TEST(HloShardingTest, IotaListsTransposeTheDeviceOrder) {
  // iota(8) as 4x2, transposed to 2x4, flattened: 0 2 4 6 1 3 5 7.
  EXPECT_EQ(MustParse("{devices=[2,4]<=[4,2]T(1,0)}").devices(),
            (std::vector<int64_t>{0, 2, 4, 6, 1, 3, 5, 7}));
  EXPECT_EQ(IotaDevices({2, 3}, {}), (std::vector<int64_t>{0, 1, 2, 3, 4, 5}));
  EXPECT_EQ(IotaDevices({2, 2, 2}, {2, 0, 1}), (std::vector<int64_t>{0, 2, 4, 6, 1, 3, 5, 7}));
}

TEST(HloShardingTest, PartialReplicationCountsTheSubgroupDimensions) {
  HloSharding s = MustParse("{devices=[4,1,2]<=[8] last_tile_dim_replicate}");
  EXPECT_EQ(s.kind(), HloSharding::Kind::kTiled);
  EXPECT_EQ(s.DataRank(), 2);
  EXPECT_EQ(s.ReplicationFactor(), 2);
  EXPECT_TRUE(s.replicate_on_last_tile_dim());
  EXPECT_TRUE(s.Validate(Shape(F32, {16, 8}), 8).ok());
}

TEST(HloShardingTest, MalformedShardingsAreRefusedSayingWhy) {
  struct Case {
    const char* sharding;
    Shape shape;
    int64_t devices;
    const char* message;
  };
  const Case cases[] = {
      {"{devices=[3,1]<=[4]}", Shape(F32, {6, 2}), 4, "3 tiles (3x1) but lists 4 devices"},
      {"{devices=[2,2]0,1,2,9}", Shape(F32, {4, 4}), 4, "names device 9, out of range for 4"},
      {"{devices=[2,2,2]<=[8]}", Shape(F32, {4, 4}), 8, "has 3 tile dimensions for the rank-2"},
      {"{devices=[2,1,2]<=[4] last_tile_dim_replicate}", Shape(F32, {4}), 4,
       "tile dimensions for the rank-1"},
      {"{devices=[2,2]0,1,1,3}", Shape(F32, {4, 4}), 4, "names device 1 twice"},
      {"{maximal device=8}", Shape(F32, {4}), 8, "names device 8, out of range"},
      {"{{replicated}}", Shape::Tuple({Shape(F32, {2}), Shape(S32, {})}), 2,
       "has 1 elements for 2 leaves"},
      {"{devices=[2]0,1}", Shape::Tuple({Shape(F32, {2})}), 2, "the value is the tuple"},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.sharding);
    HloSharding s = MustParse(c.sharding);
    absl::Status st = s.Validate(c.shape, c.devices);
    ASSERT_FALSE(st.ok());
    EXPECT_EQ(st.code(), absl::StatusCode::kInvalidArgument);
    EXPECT_THAT(st.message(), HasSubstr(c.message));
  }
  for (const char* bad : {"{devices=[2,2]<=[4]T(0,0)}", "{devices=[2}", "{frobnicate}",
                          "{replicated", "{maximal}", "{replicated last_tile_dim_replicate}",
                          "{devices=[2]<=[2] last_tile_dims={sideways}}", ""}) {
    SCOPED_TRACE(bad);
    auto parsed = HloSharding::Parse(bad);
    ASSERT_FALSE(parsed.ok());
    EXPECT_THAT(parsed.status().message(), HasSubstr("sharding '"));
  }
}

}  // namespace
}  // namespace aot
