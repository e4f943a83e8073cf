// The NCCL collective backend's protocol (communicators per group, the
// calls each collective queues, timeouts and aborts) against a recording
// NCCL table, and the real libnccl's table where the toolkit ships it.
#include "runtime/platform/cuda/nccl_collectives.h"

#include <algorithm>
#include <cstring>
#include <map>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "runtime/platform/cuda/nccl_api.h"
#include "support/status_macros.h"

#if __has_include(<nccl.h>)
#include <nccl.h>
// The types and enumerators nccl_api.h spells must be NCCL's.
static_assert(sizeof(ncclUniqueId) == sizeof(aot::NcclUniqueId));
static_assert(sizeof(ncclComm_t) == sizeof(aot::NcclComm));
static_assert(sizeof(ncclResult_t) == sizeof(aot::NcclResult));
static_assert(sizeof(ncclDataType_t) == sizeof(aot::NcclDataType));
static_assert(sizeof(ncclRedOp_t) == sizeof(aot::NcclRedOp));
static_assert(ncclSuccess == 0);
static_assert(ncclInt8 == aot::kNcclInt8 && ncclUint8 == aot::kNcclUint8);
static_assert(ncclInt32 == aot::kNcclInt32 && ncclUint32 == aot::kNcclUint32);
static_assert(ncclInt64 == aot::kNcclInt64 && ncclUint64 == aot::kNcclUint64);
static_assert(ncclFloat16 == aot::kNcclFloat16 && ncclFloat32 == aot::kNcclFloat32);
static_assert(ncclFloat64 == aot::kNcclFloat64 && ncclBfloat16 == aot::kNcclBfloat16);
static_assert(ncclSum == aot::kNcclSum && ncclProd == aot::kNcclProd);
static_assert(ncclMax == aot::kNcclMax && ncclMin == aot::kNcclMin);
#endif

namespace aot {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;

// Every call the backend makes, as text, per calling thread's stream.
struct Recorder {
  std::mutex mu;
  std::vector<std::string> calls;
  int next_id = 0;
  int next_comm = 0;
  // comm -> (nranks, id, rank)
  std::map<NcclComm, std::string> comms;

  void Add(std::string call) {
    std::lock_guard<std::mutex> lock(mu);
    calls.push_back(std::move(call));
  }
  std::vector<std::string> Matching(absl::string_view prefix) {
    std::lock_guard<std::mutex> lock(mu);
    std::vector<std::string> out;
    for (const std::string& c : calls) {
      if (absl::StartsWith(c, prefix)) out.push_back(c);
    }
    std::sort(out.begin(), out.end());
    return out;
  }
};
Recorder* recorder = nullptr;
thread_local int current_participant = -1;

std::string CommName(NcclComm comm) {
  std::lock_guard<std::mutex> lock(recorder->mu);
  return recorder->comms[comm];
}

NcclApi RecordingNccl() {
  NcclApi api;
  api.get_version = [](int* v) {
    *v = 22803;
    return 0;
  };
  api.get_unique_id = [](NcclUniqueId* id) {
    std::lock_guard<std::mutex> lock(recorder->mu);
    std::memset(id->internal, 0, sizeof(id->internal));
    std::snprintf(id->internal, sizeof(id->internal), "id%d", recorder->next_id++);
    return 0;
  };
  api.comm_init_rank = [](NcclComm* comm, int nranks, NcclUniqueId id, int rank) {
    std::lock_guard<std::mutex> lock(recorder->mu);
    *comm = reinterpret_cast<NcclComm>(static_cast<intptr_t>(++recorder->next_comm));
    std::string name = absl::StrCat(id.internal, "/", nranks, "/rank", rank);
    recorder->comms[*comm] = name;
    recorder->calls.push_back(absl::StrCat("init p", current_participant, " ", name));
    return 0;
  };
  api.comm_destroy = [](NcclComm comm) {
    recorder->Add(absl::StrCat("destroy ", CommName(comm)));
    return 0;
  };
  api.comm_abort = [](NcclComm comm) {
    recorder->Add(absl::StrCat("abort ", CommName(comm)));
    return 0;
  };
  api.get_error_string = [](NcclResult) { return "recorded error"; };
  api.all_reduce = [](const void*, void*, size_t count, NcclDataType type, NcclRedOp op,
                      NcclComm comm, NcclStream stream) {
    recorder->Add(absl::StrCat("all_reduce ", CommName(comm), " count=", count, " type=", type,
                               " op=", op, " stream=", reinterpret_cast<intptr_t>(stream)));
    return 0;
  };
  api.all_gather = [](const void*, void*, size_t count, NcclDataType type, NcclComm comm,
                      NcclStream) {
    recorder->Add(absl::StrCat("all_gather ", CommName(comm), " count=", count, " type=", type));
    return 0;
  };
  api.reduce_scatter = [](const void*, void*, size_t count, NcclDataType type, NcclRedOp op,
                          NcclComm comm, NcclStream) {
    recorder->Add(absl::StrCat("reduce_scatter ", CommName(comm), " count=", count, " type=", type,
                               " op=", op));
    return 0;
  };
  api.broadcast = [](const void*, void*, size_t count, NcclDataType, int root, NcclComm comm,
                     NcclStream) {
    recorder->Add(absl::StrCat("broadcast ", CommName(comm), " count=", count, " root=", root));
    return 0;
  };
  api.send = [](const void*, size_t count, NcclDataType, int peer, NcclComm comm, NcclStream) {
    recorder->Add(absl::StrCat("send ", CommName(comm), " to=", peer, " count=", count));
    return 0;
  };
  api.recv = [](void*, size_t count, NcclDataType, int peer, NcclComm comm, NcclStream) {
    recorder->Add(absl::StrCat("recv ", CommName(comm), " from=", peer, " count=", count));
    return 0;
  };
  api.group_start = [] {
    recorder->Add(absl::StrCat("group_start p", current_participant));
    return 0;
  };
  api.group_end = [] {
    recorder->Add(absl::StrCat("group_end p", current_participant));
    return 0;
  };
  return api;
}

// A participant's stream: its native handle names the participant.
class FakeStream : public Stream {
 public:
  explicit FakeStream(int participant) : participant_(participant) {}
  absl::Status CopyHostToDevice(const void*, DeviceMemory, int64_t) override { return Fail(); }
  absl::Status CopyDeviceToHost(DeviceMemory, void*, int64_t) override { return Fail(); }
  absl::Status CopyDeviceToDevice(DeviceMemory, DeviceMemory, int64_t) override { return Fail(); }
  absl::Status Memset32(DeviceMemory, uint32_t, int64_t) override { return Fail(); }
  absl::Status Launch(const KernelHandle&, const LaunchDimensionsProto&,
                      absl::Span<const DeviceMemory>) override {
    return Fail();
  }
  absl::Status Gemm(const GemmParams&, DeviceMemory, DeviceMemory, DeviceMemory) override {
    return Fail();
  }
  absl::Status Convolution(const ConvolutionParams&, DeviceMemory, DeviceMemory,
                           DeviceMemory) override {
    return Fail();
  }
  absl::Status Synchronize() override { return absl::OkStatus(); }
  void* native_handle() const override {
    return reinterpret_cast<void*>(static_cast<intptr_t>(100 + participant_));
  }
  int participant() const { return participant_; }

 private:
  static absl::Status Fail() { return absl::InternalError("not used by collectives"); }
  int participant_;
};

class NcclBackendTest : public ::testing::Test {
 protected:
  void SetUp() override { recorder = &recorder_; }
  void TearDown() override { recorder = nullptr; }

  std::unique_ptr<CollectiveBackend> Backend(absl::Duration timeout = absl::Seconds(10)) {
    return CreateNcclCollectiveBackend(RecordingNccl(), timeout, [this](Stream& stream) {
      std::lock_guard<std::mutex> lock(recorder_.mu);
      ++made_current_[static_cast<FakeStream&>(stream).participant()];
      return absl::OkStatus();
    });
  }

  // Runs `body(participant, call)` on a thread per participant of
  // `participants` and returns each one's status.
  std::vector<absl::Status> RunAll(int participants,
                                   const std::function<absl::Status(int, CollectiveCall&)>& body) {
    std::vector<absl::Status> status(participants);
    std::vector<std::thread> threads;
    for (int p = 0; p < participants; ++p) {
      threads.emplace_back([&, p] {
        current_participant = p;
        FakeStream stream(p);
        CollectiveCall call;
        call.op_name = "all-reduce 'ar'";
        call.participant = p;
        call.stream = &stream;
        status[p] = body(p, call);
      });
    }
    for (std::thread& t : threads) t.join();
    return status;
  }

  Recorder recorder_;
  std::map<int, int> made_current_;
};

DeviceMemory Mem(intptr_t at) { return DeviceMemory{reinterpret_cast<void*>(at), 64}; }

TEST_F(NcclBackendTest, OneCommunicatorPerGroupCreatedAtItsFirstCollective) {
  auto backend = Backend();
  const std::vector<int64_t> all = {0, 1, 2, 3};
  const std::vector<std::vector<int64_t>> pairs = {{0, 1}, {2, 3}};
  auto status = RunAll(4, [&](int p, CollectiveCall& call) -> absl::Status {
    call.group = all;
    call.element_type = F32;
    for (int i = 0; i < 2; ++i) {
      call.sequence = i;
      AOT_RETURN_IF_ERROR(backend->AllReduce(call, Mem(1), Mem(2), 16, ReductionOp::kSum));
    }
    call.group = pairs[p / 2];
    call.sequence = 2;
    call.element_type = S32;
    return backend->AllReduce(call, Mem(1), Mem(2), 8, ReductionOp::kMax);
  });
  for (const absl::Status& s : status) EXPECT_TRUE(s.ok()) << s;
  // Three groups: three ids, each taken by the group's first member; every
  // member joins with its rank in group order.
  EXPECT_EQ(recorder_.next_id, 3);
  std::vector<std::string> inits = recorder_.Matching("init");
  ASSERT_EQ(inits.size(), 8u);
  for (int p = 0; p < 4; ++p) {
    EXPECT_THAT(inits, ::testing::Contains(::testing::MatchesRegex(
                           absl::StrCat("init p", p, " id[0-9]/4/rank", p))));
    EXPECT_THAT(inits, ::testing::Contains(::testing::MatchesRegex(
                           absl::StrCat("init p", p, " id[0-9]/2/rank", p % 2))));
  }
  // The 4-member communicator serves both of its collectives.
  std::vector<std::string> reductions = recorder_.Matching("all_reduce");
  ASSERT_EQ(reductions.size(), 12u);
  EXPECT_THAT(reductions, ::testing::Contains(::testing::MatchesRegex(
                              "all_reduce id[0-9]/4/rank2 count=16 type=7 op=0 stream=102")));
  EXPECT_THAT(reductions, ::testing::Contains(::testing::MatchesRegex(
                              "all_reduce id[0-9]/2/rank1 count=8 type=2 op=2 stream=103")));
  EXPECT_EQ(made_current_[3], 3);
  backend.reset();
  EXPECT_EQ(recorder_.Matching("destroy").size(), 8u);
}

TEST_F(NcclBackendTest, DataMovementInBytesAndPeersAsGroupRanks) {
  auto backend = Backend();
  const std::vector<int64_t> group = {2, 0, 1};  // ranks follow group order
  auto status = RunAll(3, [&](int p, CollectiveCall& call) -> absl::Status {
    call.group = group;
    call.element_type = F16;
    call.sequence = 0;
    AOT_RETURN_IF_ERROR(backend->AllGather(call, Mem(1), Mem(2), 24));
    call.sequence = 1;
    AOT_RETURN_IF_ERROR(backend->ReduceScatter(call, Mem(1), Mem(2), 4, ReductionOp::kProduct));
    call.sequence = 2;
    std::vector<DeviceMemory> src = {Mem(1), Mem(2), Mem(3)}, dst = {Mem(4), Mem(5), Mem(6)};
    AOT_RETURN_IF_ERROR(backend->AllToAll(call, src, dst, 8));
    call.sequence = 3;
    // A ring 0 -> 1 -> 2 -> 0 in participants; participant 2 sends to 0.
    AOT_RETURN_IF_ERROR(
        backend->CollectivePermute(call, Mem(1), Mem(2), 12, (p + 1) % 3, (p + 2) % 3));
    call.sequence = 4;
    return backend->Broadcast(call, Mem(1), Mem(2), 40);
  });
  for (const absl::Status& s : status) EXPECT_TRUE(s.ok()) << s;
  EXPECT_THAT(recorder_.Matching("all_gather"), ElementsAre(HasSubstr("/3/rank0 count=24 type=1"),
                                                            HasSubstr("/3/rank1 count=24 type=1"),
                                                            HasSubstr("/3/rank2 count=24 type=1")));
  EXPECT_THAT(recorder_.Matching("reduce_scatter"),
              ElementsAre(HasSubstr("count=4 type=6 op=1"), HasSubstr("count=4 type=6 op=1"),
                          HasSubstr("count=4 type=6 op=1")));
  // Participant 2 is rank 0: all-to-all sends to and receives from every
  // rank; the permute sends to participant 0 (rank 1) and receives from
  // participant 1 (rank 2).
  std::vector<std::string> sends = recorder_.Matching("send id0/3/rank0");
  EXPECT_THAT(sends, ElementsAre("send id0/3/rank0 to=0 count=8", "send id0/3/rank0 to=1 count=12",
                                 "send id0/3/rank0 to=1 count=8", "send id0/3/rank0 to=2 count=8"));
  EXPECT_THAT(recorder_.Matching("recv id0/3/rank0"),
              ElementsAre("recv id0/3/rank0 from=0 count=8", "recv id0/3/rank0 from=1 count=8",
                          "recv id0/3/rank0 from=2 count=12", "recv id0/3/rank0 from=2 count=8"));
  EXPECT_EQ(recorder_.Matching("group_start p2").size(), 2u);
  EXPECT_EQ(recorder_.Matching("group_end p2").size(), 2u);
  EXPECT_THAT(recorder_.Matching("broadcast"),
              ElementsAre(HasSubstr("count=40 root=0"), HasSubstr("count=40 root=0"),
                          HasSubstr("count=40 root=0")));
}

TEST_F(NcclBackendTest, MissingParticipantIsDeadlineExceededNamingIt) {
  auto backend = Backend(absl::Milliseconds(200));
  const std::vector<int64_t> group = {0, 1, 2};
  auto status = RunAll(2, [&](int, CollectiveCall& call) {
    call.group = group;
    return backend->AllReduce(call, Mem(1), Mem(2), 4, ReductionOp::kSum);
  });
  for (const absl::Status& s : status) {
    EXPECT_EQ(s.code(), absl::StatusCode::kDeadlineExceeded) << s;
    EXPECT_THAT(s.message(), HasSubstr("all-reduce 'ar': replica 2 of group [0, 1, 2]"));
  }
  // Nothing reached NCCL: no communicator, no queued reduction.
  EXPECT_TRUE(recorder_.Matching("init").empty());
  EXPECT_TRUE(recorder_.Matching("all_reduce").empty());
}

TEST_F(NcclBackendTest, AbortStopsEveryCommunicatorAndLaterCollectives) {
  auto backend = Backend();
  const std::vector<int64_t> group = {0, 1};
  auto status = RunAll(2, [&](int, CollectiveCall& call) {
    call.group = group;
    return backend->AllReduce(call, Mem(1), Mem(2), 4, ReductionOp::kSum);
  });
  for (const absl::Status& s : status) ASSERT_TRUE(s.ok()) << s;
  backend->Abort(absl::AbortedError("replica 1: out of memory"));
  EXPECT_EQ(recorder_.Matching("abort").size(), 2u);
  status = RunAll(2, [&](int, CollectiveCall& call) {
    call.group = group;
    call.sequence = 1;
    return backend->AllReduce(call, Mem(1), Mem(2), 4, ReductionOp::kSum);
  });
  for (const absl::Status& s : status) {
    EXPECT_EQ(s.code(), absl::StatusCode::kAborted) << s;
    EXPECT_THAT(s.message(), HasSubstr("replica 1: out of memory"));
  }
  EXPECT_EQ(recorder_.Matching("all_reduce").size(), 2u);
  backend.reset();
  EXPECT_TRUE(recorder_.Matching("destroy").empty());  // aborted ones are gone
}

TEST_F(NcclBackendTest, ReductionsNcclCannotDoAreInvalidArgumentBeforeAnyMeeting) {
  auto backend = Backend(absl::Milliseconds(100));
  const std::vector<int64_t> group = {0};
  FakeStream stream(0);
  CollectiveCall call;
  call.op_name = "all-reduce 'ar'";
  call.group = group;
  call.stream = &stream;
  call.element_type = S16;
  absl::Status s = backend->AllReduce(call, Mem(1), Mem(2), 4, ReductionOp::kSum);
  EXPECT_EQ(s.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(s.message(),
              HasSubstr("all-reduce 'ar': NCCL has no reduction for element type S16"));
  EXPECT_TRUE(recorder_.Matching("init").empty());
}

TEST(NcclApiTest, ReductionTypes) {
  auto pred_sum = NcclReductionFor(PRED, ReductionOp::kSum);
  ASSERT_TRUE(pred_sum.ok());
  EXPECT_EQ(pred_sum->type, kNcclUint8);
  EXPECT_EQ(pred_sum->op, kNcclMax);  // logical or
  auto pred_product = NcclReductionFor(PRED, ReductionOp::kProduct);
  ASSERT_TRUE(pred_product.ok());
  EXPECT_EQ(pred_product->op, kNcclMin);  // logical and
  auto bf16_min = NcclReductionFor(BF16, ReductionOp::kMin);
  ASSERT_TRUE(bf16_min.ok());
  EXPECT_EQ(bf16_min->type, kNcclBfloat16);
  EXPECT_EQ(bf16_min->op, kNcclMin);
  auto f64 = NcclReductionFor(F64, ReductionOp::kProduct);
  ASSERT_TRUE(f64.ok());
  EXPECT_EQ(f64->type, kNcclFloat64);
  EXPECT_EQ(f64->op, kNcclProd);
  EXPECT_EQ(NcclReductionFor(U16, ReductionOp::kSum).status().code(),
            absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(NcclReductionFor(S16, ReductionOp::kMax).status().code(),
            absl::StatusCode::kInvalidArgument);
}

TEST(NcclApiTest, VersionString) {
  EXPECT_EQ(NcclVersionString(22803), "NCCL 2.28.3");
  EXPECT_EQ(NcclVersionString(2708), "NCCL 2.7.8");
}

// The toolkit's libnccl opens and answers without a GPU.
TEST(NcclApiTest, RealLibraryOpens) {
  auto api = OpenNccl();
  if (!api.ok()) GTEST_SKIP() << "no NCCL on this machine: " << api.status();
  int version = 0;
  ASSERT_EQ(api->get_version(&version), 0);
  EXPECT_GE(version, 20000);
  EXPECT_THAT(NcclVersionString(version), ::testing::StartsWith("NCCL 2."));
  EXPECT_NE(api->get_error_string(0), nullptr);
}

}  // namespace
}  // namespace aot
