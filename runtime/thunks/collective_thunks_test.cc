// The collective thunks executed by several participants on the host
// platform (ExecuteReplicated), their load-time validation and their
// FromProto -> ToProto round trip (testing::Load checks it).
#include <cstdint>
#include <vector>

#include "absl/time/clock.h"
#include "absl/time/time.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "proto/executable.pb.h"
#include "runtime/executable/replicated_execution.h"
#include "runtime/platform/host/host_platform.h"
#include "runtime/testing/executable_builder.h"

namespace aot {
namespace {

using ::aot::testing::As;
using ::aot::testing::Builder;
using ::aot::testing::Load;
using ::aot::testing::Shape;
using ::testing::ElementsAre;
using ::testing::ElementsAreArray;
using ::testing::HasSubstr;

void AddGroups(CollectiveConfigProto* config, const std::vector<std::vector<int64_t>>& groups) {
  for (const auto& g : groups) {
    auto* group = config->add_groups();
    for (int64_t p : g) group->add_participants(p);
  }
}

// An executable of one collective thunk: parameter f32[in] -> result
// f32[out]; `fill` sets the thunk's oneof and returns its config.
template <typename Fill>
ExecutableProto OneCollective(int64_t replicas, int64_t in, int64_t out, Fill fill,
                              PrimitiveType type = F32) {
  Builder b;
  b.DeviceAssignment(replicas);
  int x = b.Parameter(Shape(type, {in}));
  int y = b.Allocation(out * 4, BufferAllocationProto::OUTPUT);
  ThunkProto* t = b.Thunk("op");
  CollectiveConfigProto* config = fill(t);
  config->set_element_type(type);
  auto* buffer = config->add_buffers();
  *buffer->mutable_source() = Builder::Slice(x, 0, in * 4);
  *buffer->mutable_destination() = Builder::Slice(y, 0, out * 4);
  b.Result({{Shape(type, {out}), Builder::Slice(y, 0, out * 4)}});
  return b.Build();
}

std::vector<uint8_t> F32Bytes(std::vector<float> v) {
  std::vector<uint8_t> out(v.size() * 4);
  std::memcpy(out.data(), v.data(), out.size());
  return out;
}

// Participant p's argument: {10p, 10p+1, ...} (n elements).
std::vector<std::vector<std::vector<uint8_t>>> Ramps(int64_t participants, int64_t n) {
  std::vector<std::vector<std::vector<uint8_t>>> args;
  for (int64_t p = 0; p < participants; ++p) {
    std::vector<float> v(n);
    for (int64_t i = 0; i < n; ++i) v[i] = 10 * p + i;
    args.push_back({F32Bytes(v)});
  }
  return args;
}

std::vector<std::vector<float>> RunAll(const ExecutableProto& proto,
                                       const ReplicatedExecuteOptions& options = {}) {
  std::unique_ptr<Executable> e = Load(proto);
  if (e == nullptr) return {};
  const Executable* executables[] = {e.get()};
  auto r = ExecuteReplicated(
      executables, Ramps(e->participant_count(), proto.parameters(0).slice().size() / 4), options);
  EXPECT_TRUE(r.ok()) << r.status();
  if (!r.ok()) return {};
  std::vector<std::vector<float>> out;
  for (const auto& leaves : *r) out.push_back(As<float>(leaves[0]));
  return out;
}

TEST(CollectiveThunksTest, AllReduceSumsOverEveryGroup) {
  for (int64_t replicas : {2, 4, 8}) {
    auto out = RunAll(OneCollective(replicas, 3, 3, [&](ThunkProto* t) {
      t->mutable_all_reduce()->set_reduction(REDUCTION_KIND_SUM);
      std::vector<int64_t> all;
      for (int64_t p = 0; p < replicas; ++p) all.push_back(p);
      AddGroups(t->mutable_all_reduce()->mutable_config(), {all});
      return t->mutable_all_reduce()->mutable_config();
    }));
    ASSERT_EQ(out.size(), replicas);
    const float base = 10.0f * replicas * (replicas - 1) / 2;
    for (const auto& r : out)
      EXPECT_THAT(r, ElementsAre(base, base + replicas, base + 2 * replicas));
  }
}

TEST(CollectiveThunksTest, AllReduceMaxWithinGroupsOfTwo) {
  auto out = RunAll(OneCollective(4, 2, 2, [](ThunkProto* t) {
    t->mutable_all_reduce()->set_reduction(REDUCTION_KIND_MAX);
    AddGroups(t->mutable_all_reduce()->mutable_config(), {{0, 2}, {3, 1}});
    return t->mutable_all_reduce()->mutable_config();
  }));
  ASSERT_EQ(out.size(), 4);
  EXPECT_THAT(out[0], ElementsAre(20, 21));
  EXPECT_THAT(out[2], ElementsAre(20, 21));
  EXPECT_THAT(out[1], ElementsAre(30, 31));
  EXPECT_THAT(out[3], ElementsAre(30, 31));
}

TEST(CollectiveThunksTest, AllGatherConcatenatesInGroupOrder) {
  auto out = RunAll(OneCollective(4, 2, 4, [](ThunkProto* t) {
    AddGroups(t->mutable_all_gather()->mutable_config(), {{1, 0}, {2, 3}});
    return t->mutable_all_gather()->mutable_config();
  }));
  ASSERT_EQ(out.size(), 4);
  EXPECT_THAT(out[0], ElementsAre(10, 11, 0, 1));
  EXPECT_THAT(out[1], ElementsAre(10, 11, 0, 1));
  EXPECT_THAT(out[3], ElementsAre(20, 21, 30, 31));
}

TEST(CollectiveThunksTest, ReduceScatterGivesEachMemberItsBlock) {
  auto out = RunAll(OneCollective(2, 4, 2, [](ThunkProto* t) {
    t->mutable_reduce_scatter()->set_reduction(REDUCTION_KIND_SUM);
    AddGroups(t->mutable_reduce_scatter()->mutable_config(), {{0, 1}});
    return t->mutable_reduce_scatter()->mutable_config();
  }));
  ASSERT_EQ(out.size(), 2);
  EXPECT_THAT(out[0], ElementsAre(10, 12));
  EXPECT_THAT(out[1], ElementsAre(14, 16));
}

TEST(CollectiveThunksTest, AllToAllExchangesBlocks) {
  auto out = RunAll(OneCollective(2, 4, 4, [](ThunkProto* t) {
    AddGroups(t->mutable_all_to_all()->mutable_config(), {{0, 1}});
    return t->mutable_all_to_all()->mutable_config();
  }));
  ASSERT_EQ(out.size(), 2);
  EXPECT_THAT(out[0], ElementsAre(0, 1, 10, 11));
  EXPECT_THAT(out[1], ElementsAre(2, 3, 12, 13));
}

TEST(CollectiveThunksTest, CollectivePermuteShiftsAndZeroesTheUntargeted) {
  auto out = RunAll(OneCollective(3, 2, 2, [](ThunkProto* t) {
    auto* p = t->mutable_collective_permute();
    AddGroups(p->mutable_config(), {{0, 1, 2}});
    for (auto [s, d] : std::vector<std::pair<int, int>>{{0, 1}, {1, 2}}) {
      auto* pair = p->add_pairs();
      pair->set_source(s);
      pair->set_target(d);
    }
    return p->mutable_config();
  }));
  ASSERT_EQ(out.size(), 3);
  EXPECT_THAT(out[0], ElementsAre(0, 0));
  EXPECT_THAT(out[1], ElementsAre(0, 1));
  EXPECT_THAT(out[2], ElementsAre(10, 11));
}

TEST(CollectiveThunksTest, BroadcastSendsTheFirstMembersBuffer) {
  auto out = RunAll(OneCollective(4, 2, 2, [](ThunkProto* t) {
    AddGroups(t->mutable_collective_broadcast()->mutable_config(), {{3, 0}, {1, 2}});
    return t->mutable_collective_broadcast()->mutable_config();
  }));
  ASSERT_EQ(out.size(), 4);
  EXPECT_THAT(out[0], ElementsAre(30, 31));
  EXPECT_THAT(out[2], ElementsAre(10, 11));
}

TEST(CollectiveThunksTest, ReplicaIdWritesEachReplicasNumber) {
  Builder b;
  b.DeviceAssignment(4);
  b.Parameter(Shape(F32, {1}));
  int y = b.Allocation(4, BufferAllocationProto::OUTPUT);
  *b.Thunk("id")->mutable_replica_id()->mutable_destination() = Builder::Slice(y, 0, 4);
  b.Result({{Shape(U32, {}), Builder::Slice(y, 0, 4)}});
  std::unique_ptr<Executable> e = Load(b.Build());
  ASSERT_NE(e, nullptr);
  const Executable* executables[] = {e.get()};
  auto r = ExecuteReplicated(executables, Ramps(4, 1));
  ASSERT_TRUE(r.ok()) << r.status();
  for (uint32_t p = 0; p < 4; ++p) EXPECT_THAT(As<uint32_t>((*r)[p][0]), ElementsAre(p));
}

TEST(CollectiveThunksTest, AMissingReplicaFailsEveryoneWithDeadlineExceeded) {
  ExecutableProto proto = OneCollective(4, 2, 2, [](ThunkProto* t) {
    t->mutable_all_reduce()->set_reduction(REDUCTION_KIND_SUM);
    AddGroups(t->mutable_all_reduce()->mutable_config(), {{0, 1, 2, 3}});
    return t->mutable_all_reduce()->mutable_config();
  });
  std::unique_ptr<Executable> e = Load(proto);
  ASSERT_NE(e, nullptr);
  const Executable* executables[] = {e.get()};
  ReplicatedExecuteOptions options;
  options.collective_timeout = absl::Milliseconds(300);
  options.absent_participants = {2};
  const absl::Time start = absl::Now();
  auto r = ExecuteReplicated(executables, Ramps(4, 2), options);
  EXPECT_LT(absl::Now() - start, absl::Seconds(20));
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().code(), absl::StatusCode::kDeadlineExceeded);
  EXPECT_THAT(r.status().message(), HasSubstr("all-reduce 'op': replica 2 of group [0, 1, 2, 3]"));
}

TEST(CollectiveThunksTest, GroupsMustCoverEveryParticipantExactlyOnce) {
  struct Case {
    std::vector<std::vector<int64_t>> groups;
    const char* error;
  };
  for (const Case& c : std::vector<Case>{
           {{{0, 1}}, "do not cover participants 2, 3 of 4"},
           {{{0, 1}, {1, 2}}, "participant 1 is also in groups[0]"},
           {{{0, 1}, {2, 7}}, "participant 7 out of range [0, 4)"},
           {{{0, 1, 2}, {3}}, "has 1 participants, group 0 has 3"},
       }) {
    ExecutableProto proto = OneCollective(4, 2, 2, [&](ThunkProto* t) {
      t->mutable_all_reduce()->set_reduction(REDUCTION_KIND_SUM);
      AddGroups(t->mutable_all_reduce()->mutable_config(), c.groups);
      return t->mutable_all_reduce()->mutable_config();
    });
    auto platform = CreateHostPlatform();
    ASSERT_TRUE(platform.ok());
    auto e = Executable::Load(proto, std::shared_ptr<Platform>(std::move(*platform)),
                              &FfiRegistry::Global(), LoadOptions());
    ASSERT_FALSE(e.ok()) << c.error;
    EXPECT_EQ(e.status().code(), absl::StatusCode::kInvalidArgument);
    EXPECT_THAT(e.status().message(), HasSubstr("thunks[0].all_reduce.config.groups"));
    EXPECT_THAT(e.status().message(), HasSubstr(c.error));
  }
}

TEST(CollectiveThunksTest, AMultiReplicaExecutableRefusesAPlainExecute) {
  ExecutableProto proto = OneCollective(2, 2, 2, [](ThunkProto* t) {
    AddGroups(t->mutable_all_gather()->mutable_config(), {{0}, {1}});
    return t->mutable_all_gather()->mutable_config();
  });
  std::unique_ptr<Executable> e = Load(proto);
  ASSERT_NE(e, nullptr);
  std::vector<float> x = {1, 2};
  auto r = e->Execute({testing::Bytes(x)});
  EXPECT_EQ(r.status().code(), absl::StatusCode::kFailedPrecondition);
  EXPECT_THAT(r.status().message(), HasSubstr("ExecuteReplicated"));
}

TEST(CollectiveThunksTest, DeviceAssignmentIsValidated) {
  ExecutableProto proto = OneCollective(2, 2, 2, [](ThunkProto* t) {
    AddGroups(t->mutable_all_gather()->mutable_config(), {{0}, {1}});
    return t->mutable_all_gather()->mutable_config();
  });
  proto.mutable_device_assignment()->set_device_ids(1, 0);
  EXPECT_THAT(ValidateExecutableProto(proto, LoadOptions()).message(),
              HasSubstr("device_assignment.device_ids[1]"));
}

}  // namespace
}  // namespace aot
