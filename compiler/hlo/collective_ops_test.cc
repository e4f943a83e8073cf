// Collectives in the HLO front end: parsing, printing and the proto form of
// their attributes, and the group logic of collective_ops.h.

#include "compiler/hlo/collective_ops.h"

#include <string>
#include <utility>
#include <vector>

#include "compiler/hlo/hlo_module.h"
#include "compiler/hlo/hlo_parser.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace aot {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;
using Groups = std::vector<std::vector<int64_t>>;

constexpr char kCollectives[] = R"(HloModule coll, replica_count=4, num_partitions=2

sum {
  a = f32[] parameter(0)
  b = f32[] parameter(1)
  ROOT r = f32[] add(a, b)
}

ENTRY main {
  p = f32[8] parameter(0)
  ar = f32[8] all-reduce(p), replica_groups={{0,1},{2,3}}, to_apply=sum
  ar.all = f32[8] all-reduce(p), replica_groups={}, to_apply=sum
  ar.global = f32[8] all-reduce(p), channel_id=1, replica_groups=[2,4]<=[4,2]T(1,0), use_global_device_ids=true, to_apply=sum
  ag = f32[16] all-gather(p), replica_groups=[2,2]<=[4], dimensions={0}
  rs = f32[4] reduce-scatter(p), channel_id=2, replica_groups={{0,1},{2,3}}, constrain_layout=true, dimensions={0}, to_apply=sum
  a2a = f32[8] all-to-all(p), replica_groups={{0,1,2,3}}, dimensions={0}
  a2a.t = (f32[8], f32[8]) all-to-all(p, p), replica_groups={{0,1},{2,3}}
  cp = f32[8] collective-permute(p), channel_id=3, source_target_pairs={{0,1},{1,0}}
  cb = f32[8] collective-broadcast(p), replica_groups={{0,1,2,3}}
  ars = f32[8] all-reduce-start(p), replica_groups={}, to_apply=sum
  ard = f32[8] all-reduce-done(ars)
  ags = (f32[8], f32[16]) all-gather-start(p), replica_groups={{0,1},{2,3}}, dimensions={0}
  agd = f32[16] all-gather-done(ags)
  cps = (f32[8], f32[8], u32[], u32[]) collective-permute-start(p), source_target_pairs={{0,1},{1,2},{2,3},{3,0}}
  cpd = f32[8] collective-permute-done(cps)
  rid = u32[] replica-id()
  pid = u32[] partition-id()
  ROOT t = (f32[8], f32[8], f32[8], f32[16], f32[4], f32[8], (f32[8], f32[8]), f32[8], f32[8], f32[8], f32[16], f32[8], u32[], u32[]) tuple(ar, ar.all, ar.global, ag, rs, a2a, a2a.t, cp, cb, ard, agd, cpd, rid, pid)
})";

std::unique_ptr<HloModule> Parse(absl::string_view text) {
  auto module = ParseHloModule(text);
  EXPECT_TRUE(module.ok()) << module.status();
  return module.ok() ? *std::move(module) : nullptr;
}

const HloInstruction& Find(const HloModule& module, absl::string_view name) {
  const HloInstruction* i = module.entry_computation()->FindInstruction(name);
  EXPECT_NE(i, nullptr) << name;
  return *i;
}

TEST(CollectiveParseTest, ParsesEveryCollectiveAndItsAttributes) {
  auto module = Parse(kCollectives);
  ASSERT_NE(module, nullptr);
  EXPECT_EQ(module->config().replica_count, 4);
  EXPECT_EQ(module->config().num_partitions, 2);
  const HloInstruction& ar = Find(*module, "ar");
  EXPECT_EQ(ar.opcode(), HloOpcode::kAllReduce);
  EXPECT_EQ(ar.attrs().replica_groups, (Groups{{0, 1}, {2, 3}}));
  EXPECT_FALSE(ar.attrs().channel_id.has_value());
  ASSERT_NE(ar.to_apply(), nullptr);
  EXPECT_EQ(ar.to_apply()->name(), "sum");
  const HloInstruction& global = Find(*module, "ar.global");
  EXPECT_EQ(global.attrs().channel_id, 1);
  EXPECT_TRUE(global.attrs().use_global_device_ids);
  EXPECT_EQ(global.attrs().replica_groups, (Groups{{0, 2, 4, 6}, {1, 3, 5, 7}}));
  ASSERT_TRUE(global.attrs().iota_replica_groups.has_value());
  EXPECT_EQ(global.attrs().iota_replica_groups->reshape_dims, (std::vector<int64_t>{4, 2}));
  EXPECT_EQ(global.attrs().iota_replica_groups->transpose_perm, (std::vector<int64_t>{1, 0}));
  EXPECT_EQ(Find(*module, "ag").attrs().replica_groups, (Groups{{0, 1}, {2, 3}}));
  EXPECT_EQ(Find(*module, "ag").dimensions(), std::vector<int64_t>{0});
  EXPECT_TRUE(Find(*module, "rs").attrs().constrain_layout);
  EXPECT_TRUE(Find(*module, "a2a.t").dimensions().empty());
  EXPECT_THAT(Find(*module, "cp").attrs().source_target_pairs,
              ElementsAre(std::pair<int64_t, int64_t>{0, 1}, std::pair<int64_t, int64_t>{1, 0}));
  EXPECT_TRUE(Find(*module, "ard").attrs().unknown_attributes.empty());
  for (const HloInstruction* i : module->entry_computation()->instructions()) {
    EXPECT_TRUE(i->attrs().unknown_attributes.empty()) << i->name();
  }
}

TEST(CollectiveParseTest, PrintsAsXlaWritesAndIsAFixedPoint) {
  auto module = Parse(kCollectives);
  ASSERT_NE(module, nullptr);
  const std::string printed = module->ToString();
  for (const char* expected : {
           "HloModule coll, entry_computation_layout={(f32[8]{0})->",
           "replica_count=4, num_partitions=2\n",
           "all-reduce(%p), replica_groups={{0,1},{2,3}}, to_apply=%sum",
           "all-reduce(%p), replica_groups={}, to_apply=%sum",
           "all-reduce(%p), channel_id=1, replica_groups=[2,4]<=[4,2]T(1,0), "
           "use_global_device_ids=true, to_apply=%sum",
           "all-gather(%p), replica_groups=[2,2]<=[4], dimensions={0}",
           "reduce-scatter(%p), channel_id=2, replica_groups={{0,1},{2,3}}, constrain_layout=true, "
           "dimensions={0}, to_apply=%sum",
           "all-to-all(%p), replica_groups={{0,1,2,3}}, dimensions={0}",
           "all-to-all(%p, %p), replica_groups={{0,1},{2,3}}\n",
           "collective-permute(%p), channel_id=3, source_target_pairs={{0,1},{1,0}}",
           "collective-broadcast(%p), replica_groups={{0,1,2,3}}",
           "all-reduce-done(%ars)\n",
           "all-gather-start(%p), replica_groups={{0,1},{2,3}}, dimensions={0}",
           "collective-permute-start(%p), source_target_pairs={{0,1},{1,2},{2,3},{3,0}}",
           "replica-id()\n",
       }) {
    EXPECT_THAT(printed, HasSubstr(expected));
  }
  auto again = ParseHloModule(printed);
  ASSERT_TRUE(again.ok()) << again.status() << "\n" << printed;
  EXPECT_EQ((*again)->ToString(), printed);
  // Groups changed after parsing print explicitly, not as the stale iota.
  HloInstruction* ag = module->entry_computation()->FindInstruction("ag");
  ag->mutable_attrs()->replica_groups = {{0, 2}, {1, 3}};
  EXPECT_THAT(ag->ToString(), HasSubstr("replica_groups={{0,2},{1,3}}, dimensions={0}"));
}

TEST(CollectiveParseTest, ProtoRoundTripKeepsEveryAttribute) {
  auto module = Parse(kCollectives);
  ASSERT_NE(module, nullptr);
  HloModuleProto proto = module->ToProto();
  HloModuleConfigProto config = module->ConfigToProto();
  EXPECT_EQ(config.replica_count(), 4);
  EXPECT_EQ(config.num_partitions(), 2);
  auto back = HloModuleFromProto(proto, &config);
  ASSERT_TRUE(back.ok()) << back.status();
  EXPECT_EQ((*back)->ToString(), module->ToString());
  EXPECT_EQ((*back)->ToProto().SerializeAsString(), proto.SerializeAsString());
  const HloInstruction& global = Find(**back, "ar.global");
  EXPECT_EQ(global.attrs().replica_groups, (Groups{{0, 2, 4, 6}, {1, 3, 5, 7}}));
  EXPECT_EQ(global.attrs().channel_id, 1);
  // A producer that writes only the iota form: the groups are expanded.
  for (HloComputationProto& c : *proto.mutable_computations()) {
    for (HloInstructionProto& i : *c.mutable_instructions()) {
      if (i.name() == "ar.global") i.clear_replica_groups();
    }
  }
  auto iota_only = HloModuleFromProto(proto, &config);
  ASSERT_TRUE(iota_only.ok()) << iota_only.status();
  EXPECT_EQ(Find(**iota_only, "ar.global").attrs().replica_groups,
            (Groups{{0, 2, 4, 6}, {1, 3, 5, 7}}));
  // Modules without collectives leave the new fields unset.
  auto plain = Parse("ENTRY e {\n  p = f32[2] parameter(0)\n  ROOT n = f32[2] negate(p)\n}");
  ASSERT_NE(plain, nullptr);
  const HloModuleProto plain_proto = plain->ToProto();
  for (const HloInstructionProto& i : plain_proto.computations(0).instructions()) {
    EXPECT_EQ(i.replica_groups_size(), 0);
    EXPECT_FALSE(i.has_iota_replica_group_list());
    EXPECT_EQ(i.channel_id(), 0);
    EXPECT_FALSE(i.use_global_device_ids());
    EXPECT_FALSE(i.constrain_layout());
  }
}

TEST(CollectiveParseTest, AttributesOfOtherOpcodesStayVerbatim) {
  auto module = Parse(R"(ENTRY e {
  p = f32[2] parameter(0)
  ROOT c = f32[2] custom-call(p), custom_call_target="x", channel_id=7, replica_groups={{0}}
})");
  ASSERT_NE(module, nullptr);
  const HloInstruction& c = Find(*module, "c");
  EXPECT_FALSE(c.attrs().channel_id.has_value());
  EXPECT_TRUE(c.attrs().replica_groups.empty());
  ASSERT_EQ(c.attrs().unknown_attributes.size(), 2u);
  EXPECT_THAT(module->ToString(), HasSubstr("channel_id=7, replica_groups={{0}}"));
}

TEST(CollectiveParseTest, ErrorsNamePositionAndInstruction) {
  struct Case {
    const char* attribute;
    const char* error;
  };
  // The attribute starts at column 47 of line 8, its value at column 62.
  const Case cases[] = {
      {"replica_groups={{0,1},{2,x}}",
       "8:72: instruction 'ar': invalid replica_groups "
       "'{{0,1},{2,x}}': expected an integer"},
      {"replica_groups={{0,1}{2,3}}",
       "8:68: instruction 'ar': invalid replica_groups "
       "'{{0,1}{2,3}}': expected ',' or '}' between groups"},
      {"replica_groups=[2,2]<=[5]",
       "8:62: instruction 'ar': invalid replica_groups "
       "'[2,2]<=[5]': iota replica groups [2,2]<=[5]: the reshape "
       "dimensions hold 5 ids, the groups 4"},
      {"replica_groups=[2,2]<=[2,2]T(0,0)", "the transpose is not a permutation"},
      {"replica_groups=[2,2]=[4]",
       "8:67: instruction 'ar': invalid replica_groups '[2,2]=[4]': "
       "expected '<=' after [num_groups,group_size]"},
      {"channel_id=0", "8:58: instruction 'ar': invalid channel_id '0': channel ids are >= 1"},
      {"use_global_device_ids=yes", "invalid use_global_device_ids 'yes': expected true or false"},
  };
  for (const Case& c : cases) {
    std::string text = absl::StrCat(
        "s {\n  a = f32[] parameter(0)\n  b = f32[] parameter(1)\n  ROOT r = f32[] add(a, b)\n}\n"
        "ENTRY e {\n  p = f32[4] parameter(0)\n  ROOT ar = f32[4] all-reduce(p), to_apply=s, ",
        c.attribute, "\n}");
    auto module = ParseHloModule(text);
    ASSERT_FALSE(module.ok()) << c.attribute;
    EXPECT_THAT(std::string(module.status().message()), HasSubstr(c.error)) << c.attribute;
  }
  auto pairs = ParseHloModule(
      "ENTRY e {\n  p = f32[4] parameter(0)\n"
      "  ROOT cp = f32[4] collective-permute(p), source_target_pairs={{0,1,2}}\n}");
  ASSERT_FALSE(pairs.ok());
  EXPECT_THAT(std::string(pairs.status().message()),
              HasSubstr("3:63: instruction 'cp': invalid source_target_pairs '{{0,1,2}}': "
                        "expected {{source,target},...}"));
}

TEST(CollectiveOpsTest, OpcodeClasses) {
  EXPECT_TRUE(IsCollectiveOpcode(HloOpcode::kAllReduce));
  EXPECT_TRUE(IsCollectiveOpcode(HloOpcode::kAllGatherDone));
  EXPECT_TRUE(IsCollectiveOpcode(HloOpcode::kCollectiveBroadcast));
  EXPECT_FALSE(IsCollectiveOpcode(HloOpcode::kReplicaId));
  EXPECT_FALSE(IsCollectiveOpcode(HloOpcode::kPartitionId));
  EXPECT_FALSE(IsCollectiveOpcode(HloOpcode::kAdd));
  EXPECT_TRUE(IsAsyncCollectiveStart(HloOpcode::kCollectivePermuteStart));
  EXPECT_TRUE(IsAsyncCollectiveDone(HloOpcode::kAllReduceDone));
  EXPECT_FALSE(HasReplicaGroups(HloOpcode::kCollectivePermute));
  for (const char* name :
       {"all-reduce", "all-gather", "reduce-scatter", "all-to-all", "collective-permute",
        "collective-broadcast", "all-reduce-start", "all-reduce-done", "all-gather-start",
        "all-gather-done", "collective-permute-start", "collective-permute-done"}) {
    auto opcode = StringToHloOpcode(name);
    ASSERT_TRUE(opcode.ok()) << name;
    EXPECT_EQ(HloOpcodeString(*opcode), name);
    EXPECT_TRUE(IsCollectiveOpcode(*opcode)) << name;
  }
}

// One instruction with the given opcode and attributes.
std::unique_ptr<HloInstruction> Make(HloOpcode opcode, Groups groups,
                                     std::optional<int64_t> channel = std::nullopt,
                                     bool global_ids = false) {
  auto i = HloInstruction::Create(opcode, Shape(F32, {4}), {});
  i->set_name("ar");
  i->mutable_attrs()->replica_groups = std::move(groups);
  i->mutable_attrs()->channel_id = channel;
  i->mutable_attrs()->use_global_device_ids = global_ids;
  return i;
}

TEST(CollectiveOpsTest, GroupModesFollowXla) {
  auto mode = [](HloOpcode op, std::optional<int64_t> channel, bool global) {
    return GetCollectiveOpGroupMode(*Make(op, {}, channel, global));
  };
  EXPECT_EQ(*mode(HloOpcode::kAllReduce, std::nullopt, false),
            CollectiveOpGroupMode::kCrossReplica);
  EXPECT_EQ(*mode(HloOpcode::kAllReduce, 1, false),
            CollectiveOpGroupMode::kCrossReplicaAndPartition);
  EXPECT_EQ(*mode(HloOpcode::kAllGather, 1, true), CollectiveOpGroupMode::kFlattenedId);
  EXPECT_EQ(*mode(HloOpcode::kReduceScatter, 1, true), CollectiveOpGroupMode::kFlattenedId);
  EXPECT_EQ(*mode(HloOpcode::kAllReduceStart, 1, true), CollectiveOpGroupMode::kFlattenedId);
  EXPECT_EQ(*mode(HloOpcode::kAllToAll, 1, false), CollectiveOpGroupMode::kCrossPartition);
  EXPECT_EQ(*mode(HloOpcode::kCollectivePermute, 1, false), CollectiveOpGroupMode::kCrossPartition);
  EXPECT_EQ(*mode(HloOpcode::kCollectiveBroadcast, std::nullopt, false),
            CollectiveOpGroupMode::kCrossReplica);
  auto no_channel = mode(HloOpcode::kAllReduce, std::nullopt, true);
  ASSERT_FALSE(no_channel.ok());
  EXPECT_THAT(std::string(no_channel.status().message()),
              HasSubstr("instruction 'ar' (all-reduce): use_global_device_ids=true needs a "
                        "channel_id"));
  EXPECT_FALSE(mode(HloOpcode::kAdd, std::nullopt, false).ok());
}

TEST(CollectiveOpsTest, ParticipantGroupsPerMode) {
  auto groups = [](HloOpcode op, Groups g, std::optional<int64_t> channel, bool global,
                   int64_t replicas, int64_t partitions) {
    auto result =
        CollectiveParticipantGroups(*Make(op, std::move(g), channel, global), replicas, partitions);
    EXPECT_TRUE(result.ok()) << result.status();
    return result.ok() ? *result : Groups{};
  };
  // Cross-replica: replica ids, once per partition.
  EXPECT_EQ(groups(HloOpcode::kAllReduce, {{0, 1}, {2, 3}}, std::nullopt, false, 4, 1),
            (Groups{{0, 1}, {2, 3}}));
  EXPECT_EQ(groups(HloOpcode::kAllReduce, {{1, 0}}, std::nullopt, false, 2, 2),
            (Groups{{2, 0}, {3, 1}}));
  EXPECT_EQ(groups(HloOpcode::kAllReduce, {}, std::nullopt, false, 3, 1), (Groups{{0, 1, 2}}));
  // Cross-partition: partition ids, once per replica.
  EXPECT_EQ(groups(HloOpcode::kAllToAll, {{0, 1}}, 1, false, 2, 2), (Groups{{0, 1}, {2, 3}}));
  EXPECT_EQ(groups(HloOpcode::kAllToAll, {}, 1, false, 2, 2), (Groups{{0, 1}, {2, 3}}));
  // Cross-replica-and-partition: every partition of the group's replicas.
  EXPECT_EQ(groups(HloOpcode::kAllReduce, {{0}, {1}}, 1, false, 2, 2), (Groups{{0, 1}, {2, 3}}));
  EXPECT_EQ(groups(HloOpcode::kAllReduce, {}, 1, false, 2, 2), (Groups{{0, 1, 2, 3}}));
  // Flattened ids as given.
  EXPECT_EQ(groups(HloOpcode::kAllGather, {{0, 3}, {1, 2}}, 1, true, 2, 2),
            (Groups{{0, 3}, {1, 2}}));
  // collective-permute: the sets its pairs connect.
  EXPECT_EQ(groups(HloOpcode::kCollectivePermute, {}, std::nullopt, false, 2, 2),
            (Groups{{0, 2}, {1, 3}}));
  EXPECT_EQ(groups(HloOpcode::kCollectivePermute, {}, 1, false, 2, 2), (Groups{{0, 1}, {2, 3}}));
}

TEST(CollectiveOpsTest, BadGroupsNameTheInstruction) {
  auto error = [](Groups g, int64_t replicas) {
    auto result =
        CollectiveParticipantGroups(*Make(HloOpcode::kAllReduce, std::move(g)), replicas, 1);
    EXPECT_FALSE(result.ok());
    return std::string(result.status().message());
  };
  EXPECT_EQ(error({{0, 1}, {1, 2}}, 4),
            "instruction 'ar' (all-reduce): replica_groups {{0,1},{1,2}} (cross-replica, 4 "
            "replicas x 1 partition): replica 1 appears more than once");
  EXPECT_THAT(error({{0, 4}}, 4), HasSubstr("replica 4 is out of range [0, 4)"));
  EXPECT_THAT(error({{0, 1}}, 4), HasSubstr("replica 2 is in no group"));
  EXPECT_THAT(error({{0, 1}, {}}, 2), HasSubstr("group 1 is empty"));
  auto flattened =
      CollectiveParticipantGroups(*Make(HloOpcode::kAllReduce, {{0, 1}, {2, 4}}, 1, true), 2, 2);
  ASSERT_FALSE(flattened.ok());
  EXPECT_THAT(std::string(flattened.status().message()),
              HasSubstr("(flattened-id, 2 replicas x 2 partitions): participant 4 is out of "
                        "range [0, 4)"));
}

TEST(CollectiveOpsTest, PermutePairs) {
  auto permute = HloInstruction::Create(HloOpcode::kCollectivePermute, Shape(F32, {4}), {});
  permute->set_name("cp");
  permute->mutable_attrs()->source_target_pairs = {{0, 1}, {1, 0}};
  auto pairs = CollectivePermutePairs(*permute, 2, 2);
  ASSERT_TRUE(pairs.ok()) << pairs.status();
  using Pairs = std::vector<std::pair<int64_t, int64_t>>;
  EXPECT_EQ(*pairs, (Pairs{{0, 2}, {1, 3}, {2, 0}, {3, 1}}));
  permute->mutable_attrs()->channel_id = 1;
  pairs = CollectivePermutePairs(*permute, 2, 2);
  ASSERT_TRUE(pairs.ok()) << pairs.status();
  EXPECT_EQ(*pairs, (Pairs{{0, 1}, {2, 3}, {1, 0}, {3, 2}}));
  permute->mutable_attrs()->channel_id.reset();
  permute->mutable_attrs()->source_target_pairs = {{0, 1}, {0, 2}};
  pairs = CollectivePermutePairs(*permute, 4, 1);
  ASSERT_FALSE(pairs.ok());
  EXPECT_EQ(pairs.status().message(),
            "instruction 'cp' (collective-permute): source_target_pairs {{0,1},{0,2}} "
            "(cross-replica, 4 replicas x 1 partition): source 0 appears more than once");
  permute->mutable_attrs()->source_target_pairs = {{0, 1}, {2, 1}};
  EXPECT_THAT(std::string(CollectivePermutePairs(*permute, 4, 1).status().message()),
              HasSubstr("target 1 appears more than once"));
  permute->mutable_attrs()->source_target_pairs = {{0, 5}};
  EXPECT_THAT(std::string(CollectivePermutePairs(*permute, 4, 1).status().message()),
              HasSubstr("replica 5 is out of range [0, 4)"));
}

TEST(CollectiveOpsTest, IotaExpansion) {
  auto expand = [](int64_t groups, int64_t size, std::vector<int64_t> dims,
                   std::vector<int64_t> perm) {
    IotaReplicaGroupList iota{groups, size, std::move(dims), std::move(perm)};
    return ExpandIotaReplicaGroupList(iota);
  };
  EXPECT_EQ(*expand(2, 2, {4}, {}), (Groups{{0, 1}, {2, 3}}));
  EXPECT_EQ(*expand(2, 4, {4, 2}, {1, 0}), (Groups{{0, 2, 4, 6}, {1, 3, 5, 7}}));
  EXPECT_EQ(*expand(4, 2, {2, 2, 2}, {2, 0, 1}), (Groups{{0, 2}, {4, 6}, {1, 3}, {5, 7}}));
  EXPECT_EQ(*expand(1, 3, {3}, {0}), (Groups{{0, 1, 2}}));
  EXPECT_FALSE(expand(2, 2, {5}, {}).ok());
  EXPECT_FALSE(expand(0, 2, {0}, {}).ok());
  EXPECT_FALSE(expand(2, 2, {2, 2}, {1}).ok());
  EXPECT_FALSE(expand(int64_t{1} << 40, int64_t{1} << 40, {1}, {}).ok());
}

TEST(CollectiveOpsTest, MatchesReductionComputations) {
  auto module = Parse(R"(
add { a = f32[] parameter(0)
  b = f32[] parameter(1)
  ROOT r = f32[] add(a, b) }
mul_swapped { a = s32[] parameter(0)
  b = s32[] parameter(1)
  ROOT r = s32[] multiply(b, a) }
min { a = f32[] parameter(0)
  b = f32[] parameter(1)
  ROOT r = f32[] minimum(a, b) }
max { a = u8[] parameter(0)
  b = u8[] parameter(1)
  ROOT r = u8[] maximum(a, b) }
sub { a = f32[] parameter(0)
  b = f32[] parameter(1)
  ROOT r = f32[] subtract(a, b) }
twice { a = f32[] parameter(0)
  b = f32[] parameter(1)
  ROOT r = f32[] add(a, a) }
ENTRY e { ROOT p = f32[] parameter(0) })");
  ASSERT_NE(module, nullptr);
  auto kind = [&](const char* name) {
    return MatchReductionComputation(*module->FindComputation(name));
  };
  EXPECT_EQ(kind("add"), ReductionKind::kSum);
  EXPECT_EQ(kind("mul_swapped"), ReductionKind::kProduct);
  EXPECT_EQ(kind("min"), ReductionKind::kMin);
  EXPECT_EQ(kind("max"), ReductionKind::kMax);
  EXPECT_EQ(kind("sub"), std::nullopt);
  EXPECT_EQ(kind("twice"), std::nullopt);
  EXPECT_EQ(ReductionKindName(ReductionKind::kSum), "sum");
  EXPECT_EQ(ReductionKindName(ReductionKind::kMax), "max");
}

}  // namespace
}  // namespace aot
