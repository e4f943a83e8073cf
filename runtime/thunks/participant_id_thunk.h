#ifndef AOT_RUNTIME_THUNKS_PARTICIPANT_ID_THUNK_H_
#define AOT_RUNTIME_THUNKS_PARTICIPANT_ID_THUNK_H_

#include <memory>

#include "runtime/thunks/thunk.h"

namespace aot {

// replica-id / partition-id: writes the executing participant's replica
// or partition number as a u32 scalar (0 in an execution of one
// participant). ThunkProto.replica_id and .partition_id share the message.
class ParticipantIdThunk : public Thunk {
 public:
  static absl::StatusOr<std::unique_ptr<ParticipantIdThunk>> FromProto(
      ThunkInfoProto info, const ParticipantIdThunkProto& proto, bool partition,
      LoadContext& context);
  absl::Status Execute(const ExecuteParams& params) const override;
  ThunkProto ToProto() const override;

 private:
  ParticipantIdThunk(ThunkInfoProto info, bool partition)
      : Thunk(partition ? Kind::kPartitionId : Kind::kReplicaId, std::move(info)) {}
  BufferSlice destination_;
};

}  // namespace aot

#endif  // AOT_RUNTIME_THUNKS_PARTICIPANT_ID_THUNK_H_
