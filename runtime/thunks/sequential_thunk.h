#ifndef AOT_RUNTIME_THUNKS_SEQUENTIAL_THUNK_H_
#define AOT_RUNTIME_THUNKS_SEQUENTIAL_THUNK_H_

#include <memory>

#include "runtime/thunks/thunk.h"

namespace aot {

// Runs nested thunks in order.
class SequentialThunk : public Thunk {
 public:
  SequentialThunk(ThunkInfoProto info, ThunkSequence thunks)
      : Thunk(Kind::kSequential, std::move(info)), thunks_(std::move(thunks)) {}

  static absl::StatusOr<std::unique_ptr<SequentialThunk>> FromProto(
      ThunkInfoProto info, const SequentialThunkProto& proto, LoadContext& context);
  absl::Status Execute(const ExecuteParams& params) const override;
  ThunkProto ToProto() const override;

  ThunkSequence& thunks() { return thunks_; }
  const ThunkSequence& thunks() const { return thunks_; }

 private:
  ThunkSequence thunks_;
};

// The in-memory form of SequentialThunkProto used inside control thunks.
absl::StatusOr<ThunkSequence> SequenceFromProto(const SequentialThunkProto& proto,
                                                absl::string_view field, LoadContext& context);
SequentialThunkProto SequenceToProto(const ThunkSequence& thunks);

}  // namespace aot

#endif  // AOT_RUNTIME_THUNKS_SEQUENTIAL_THUNK_H_
