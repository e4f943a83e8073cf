#include "runtime/platform/cuda/nccl_collectives.h"

#include <map>
#include <mutex>
#include <optional>
#include <shared_mutex>
#include <string>
#include <utility>
#include <vector>

#include "absl/functional/function_ref.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "support/rendezvous.h"
#include "support/status_macros.h"

namespace aot {
namespace {

// What a member brings to a group's meeting: on the group's first meeting,
// the first member brings the id of the communicator the group creates.
struct Arrival {
  bool has_id = false;
  NcclUniqueId id{};
};

class NcclCollectiveBackend : public CollectiveBackend {
 public:
  NcclCollectiveBackend(const NcclApi& api, absl::Duration timeout, MakeStreamCurrent make_current)
      : api_(api), rendezvous_(timeout), make_current_(std::move(make_current)) {}

  ~NcclCollectiveBackend() override {
    // Every participant has returned (RunParticipants joins them before
    // the backend goes); an aborted communicator is already gone.
    for (auto& [key, comm] : comms_) api_.comm_destroy(comm);
  }

  absl::Status AllReduce(const CollectiveCall& call, DeviceMemory src, DeviceMemory dst,
                         int64_t count, ReductionOp reduction) override {
    AOT_ASSIGN_OR_RETURN(NcclReductionSpec spec, ReductionFor(call, reduction));
    return Run(call, [&](const Member& m) {
      return Check(call, "ncclAllReduce",
                   api_.all_reduce(src.ptr, dst.ptr, static_cast<size_t>(count), spec.type, spec.op,
                                   m.comm, m.stream));
    });
  }

  absl::Status AllGather(const CollectiveCall& call, DeviceMemory src, DeviceMemory dst,
                         int64_t bytes) override {
    return Run(call, [&](const Member& m) {
      return Check(call, "ncclAllGather",
                   api_.all_gather(src.ptr, dst.ptr, static_cast<size_t>(bytes), kNcclUint8, m.comm,
                                   m.stream));
    });
  }

  absl::Status ReduceScatter(const CollectiveCall& call, DeviceMemory src, DeviceMemory dst,
                             int64_t count, ReductionOp reduction) override {
    AOT_ASSIGN_OR_RETURN(NcclReductionSpec spec, ReductionFor(call, reduction));
    return Run(call, [&](const Member& m) {
      return Check(call, "ncclReduceScatter",
                   api_.reduce_scatter(src.ptr, dst.ptr, static_cast<size_t>(count), spec.type,
                                       spec.op, m.comm, m.stream));
    });
  }

  absl::Status AllToAll(const CollectiveCall& call, absl::Span<const DeviceMemory> src,
                        absl::Span<const DeviceMemory> dst, int64_t bytes) override {
    if (src.size() != call.group.size() || dst.size() != call.group.size()) {
      return absl::InternalError(absl::StrCat(call.op_name, ": ", src.size(), " sources and ",
                                              dst.size(), " destinations for a group of ",
                                              call.group.size()));
    }
    return Run(call, [&](const Member& m) {
      return Grouped(call, [&]() -> absl::Status {
        for (size_t j = 0; j < call.group.size(); ++j) {
          const int peer = static_cast<int>(j);
          AOT_RETURN_IF_ERROR(Check(call, "ncclSend",
                                    api_.send(src[j].ptr, static_cast<size_t>(bytes), kNcclUint8,
                                              peer, m.comm, m.stream)));
          AOT_RETURN_IF_ERROR(Check(call, "ncclRecv",
                                    api_.recv(dst[j].ptr, static_cast<size_t>(bytes), kNcclUint8,
                                              peer, m.comm, m.stream)));
        }
        return absl::OkStatus();
      });
    });
  }

  absl::Status CollectivePermute(const CollectiveCall& call, DeviceMemory src, DeviceMemory dst,
                                 int64_t bytes, std::optional<int64_t> send_to,
                                 std::optional<int64_t> receive_from) override {
    std::optional<int> to, from;
    if (send_to) {
      AOT_ASSIGN_OR_RETURN(to, RankOf(call, *send_to));
    }
    if (receive_from) {
      AOT_ASSIGN_OR_RETURN(from, RankOf(call, *receive_from));
    }
    return Run(call, [&](const Member& m) {
      if (!to && !from) return absl::OkStatus();
      return Grouped(call, [&]() -> absl::Status {
        if (to) {
          AOT_RETURN_IF_ERROR(Check(
              call, "ncclSend",
              api_.send(src.ptr, static_cast<size_t>(bytes), kNcclUint8, *to, m.comm, m.stream)));
        }
        if (from) {
          AOT_RETURN_IF_ERROR(Check(
              call, "ncclRecv",
              api_.recv(dst.ptr, static_cast<size_t>(bytes), kNcclUint8, *from, m.comm, m.stream)));
        }
        return absl::OkStatus();
      });
    });
  }

  absl::Status Broadcast(const CollectiveCall& call, DeviceMemory src, DeviceMemory dst,
                         int64_t bytes) override {
    return Run(call, [&](const Member& m) {
      return Check(call, "ncclBroadcast",
                   api_.broadcast(src.ptr, dst.ptr, static_cast<size_t>(bytes), kNcclUint8,
                                  /*root=*/0, m.comm, m.stream));
    });
  }

  void Abort(absl::Status status) override {
    rendezvous_.Abort(status);
    // Waits for operations being queued (every member of their group has
    // met, so queueing does not wait for a peer), then stops what the
    // devices still run.
    std::unique_lock<std::shared_mutex> lock(mu_);
    if (aborted_.ok()) aborted_ = std::move(status);
    for (auto& [key, comm] : comms_) api_.comm_abort(comm);
    comms_.clear();
  }

 private:
  struct Member {
    NcclComm comm = nullptr;
    NcclStream stream = nullptr;
  };

  absl::StatusOr<NcclReductionSpec> ReductionFor(const CollectiveCall& call,
                                                 ReductionOp reduction) const {
    auto spec = NcclReductionFor(call.element_type, reduction);
    if (!spec.ok()) {
      return absl::InvalidArgumentError(absl::StrCat(call.op_name, ": ", spec.status().message()));
    }
    return spec;
  }

  static absl::StatusOr<int> RankOf(const CollectiveCall& call, int64_t participant) {
    for (size_t j = 0; j < call.group.size(); ++j) {
      if (call.group[j] == participant) return static_cast<int>(j);
    }
    return absl::InternalError(absl::StrCat(call.op_name, ": participant ", participant,
                                            " is not in the group [",
                                            absl::StrJoin(call.group, ", "), "]"));
  }

  absl::Status Check(const CollectiveCall& call, absl::string_view what, NcclResult r) const {
    if (r == 0) return absl::OkStatus();
    const char* text = api_.get_error_string != nullptr ? api_.get_error_string(r) : nullptr;
    return absl::InternalError(absl::StrCat(
        call.op_name, ": ", what, " failed: ", text != nullptr ? text : absl::StrCat("error ", r)));
  }

  // Runs `calls` between ncclGroupStart and ncclGroupEnd (the group is
  // closed even when a call fails).
  absl::Status Grouped(const CollectiveCall& call, absl::FunctionRef<absl::Status()> calls) {
    AOT_RETURN_IF_ERROR(Check(call, "ncclGroupStart", api_.group_start()));
    absl::Status status = calls();
    absl::Status end = Check(call, "ncclGroupEnd", api_.group_end());
    AOT_RETURN_IF_ERROR(status);
    return end;
  }

  // Joins the group (below) and queues the operation with `enqueue`,
  // unless the execution was aborted (the communicator is then gone).
  absl::Status Run(const CollectiveCall& call,
                   absl::FunctionRef<absl::Status(const Member&)> enqueue) {
    AOT_ASSIGN_OR_RETURN(Member m, Join(call));
    std::shared_lock<std::shared_mutex> lock(mu_);
    AOT_RETURN_IF_ERROR(aborted_);
    return enqueue(m);
  }

  // Meets the group on the host (DeadlineExceeded for a member that does
  // not come) and returns this member's communicator of the group (created
  // at the group's first meeting) and its stream.
  absl::StatusOr<Member> Join(const CollectiveCall& call) {
    if (call.stream == nullptr) {
      return absl::InternalError(absl::StrCat(call.op_name, ": no stream"));
    }
    const int rank = static_cast<int>(call.rank());
    if (rank < 0) {
      return absl::InvalidArgumentError(absl::StrCat(call.op_name, ": participant ",
                                                     call.participant, " is not in its group [",
                                                     absl::StrJoin(call.group, ", "), "]"));
    }
    AOT_RETURN_IF_ERROR(make_current_(*call.stream));
    const std::string group = absl::StrJoin(call.group, ",");
    const std::pair<std::string, int64_t> mine(group, call.participant);
    NcclComm comm = nullptr;
    {
      std::shared_lock<std::shared_mutex> lock(mu_);
      auto it = comms_.find(mine);
      if (it != comms_.end()) comm = it->second;
    }
    Arrival arrival;
    if (comm == nullptr && rank == 0) {
      AOT_RETURN_IF_ERROR(Check(call, "ncclGetUniqueId", api_.get_unique_id(&arrival.id)));
      arrival.has_id = true;
    }
    AOT_ASSIGN_OR_RETURN(std::vector<Arrival> all,
                         rendezvous_.Exchange(absl::StrCat(call.sequence, ":", group), call.group,
                                              call.participant, arrival, call.op_name));
    if (comm == nullptr) {
      if (!all[0].has_id) {
        return absl::InternalError(absl::StrCat(
            call.op_name, ": the group's first member has a communicator this member lacks"));
      }
      AOT_RETURN_IF_ERROR(
          Check(call, "ncclCommInitRank",
                api_.comm_init_rank(&comm, static_cast<int>(call.group.size()), all[0].id, rank)));
      std::unique_lock<std::shared_mutex> lock(mu_);
      if (!aborted_.ok()) {
        api_.comm_abort(comm);
        return aborted_;
      }
      comms_[mine] = comm;
    }
    return Member{comm, call.stream->native_handle()};
  }

  const NcclApi api_;
  Rendezvous<Arrival> rendezvous_;
  const MakeStreamCurrent make_current_;
  // Shared while an operation is queued, exclusive to change the map or
  // abort.
  std::shared_mutex mu_;
  absl::Status aborted_;
  // (group, participant) -> that participant's communicator of the group.
  std::map<std::pair<std::string, int64_t>, NcclComm> comms_;
};

}  // namespace

std::unique_ptr<CollectiveBackend> CreateNcclCollectiveBackend(const NcclApi& api,
                                                               absl::Duration timeout,
                                                               MakeStreamCurrent make_current) {
  return std::make_unique<NcclCollectiveBackend>(api, timeout, std::move(make_current));
}

}  // namespace aot
