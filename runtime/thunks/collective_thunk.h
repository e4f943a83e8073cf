#ifndef AOT_RUNTIME_THUNKS_COLLECTIVE_THUNK_H_
#define AOT_RUNTIME_THUNKS_COLLECTIVE_THUNK_H_

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "absl/functional/function_ref.h"
#include "absl/status/statusor.h"
#include "runtime/platform/collectives.h"
#include "runtime/thunks/thunk.h"

namespace aot {

// What every collective thunk shares (CollectiveConfigProto), validated at
// load against the executable's participants: the groups partition
// [0, participant_count) (each participant in exactly one group), buffers
// are in bounds, destinations writable.
class CollectiveConfig {
 public:
  struct Buffer {
    BufferSlice source, destination;
  };

  // `sizes` checks each buffer's source/destination sizes for the kind
  // (the group size is known by then); it returns an error message or "".
  static absl::StatusOr<CollectiveConfig> FromProto(
      const CollectiveConfigProto& proto, LoadContext& context,
      absl::FunctionRef<std::string(const Buffer&, int64_t group_size)> sizes);
  CollectiveConfigProto ToProto() const;
  // The `sizes` rule of the kinds whose destination is as large as their
  // source (all-reduce, all-to-all, collective-permute, -broadcast).
  static std::string SameSizes(const Buffer& b, int64_t group_size);

  PrimitiveType element_type() const { return element_type_; }
  int64_t element_bytes() const;
  const std::vector<Buffer>& buffers() const { return buffers_; }
  int64_t group_size() const { return groups_.empty() ? 1 : groups_[0].size(); }
  // The group `participant` belongs to.
  absl::Span<const int64_t> GroupOf(int64_t participant) const;

 private:
  std::vector<std::vector<int64_t>> groups_;
  std::vector<int64_t> group_of_;  // by participant
  PrimitiveType element_type_ = F32;
  std::vector<Buffer> buffers_;
  int64_t channel_id_ = 0;
};

// Runs one collective for the executing participant: `op(backend, call)`
// with the backend of params.options->collectives, whose call count it
// advances; without one (an executable of one participant) with a backend
// for a group of one, which copies on the stream.
absl::Status RunCollective(
    const Thunk& thunk, absl::string_view opcode, const CollectiveConfig& config,
    const ExecuteParams& params,
    absl::FunctionRef<absl::Status(CollectiveBackend&, const CollectiveCall&)> op);

ReductionOp ReductionKindFromProto(ReductionKindProto kind);
ReductionKindProto ReductionKindToProto(ReductionOp kind);
// The reduction is set and the element type has one (checked at load).
absl::Status CheckReduction(ReductionKindProto kind, PrimitiveType type, LoadContext& context);

}  // namespace aot

#endif  // AOT_RUNTIME_THUNKS_COLLECTIVE_THUNK_H_
