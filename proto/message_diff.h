#ifndef AOT_PROTO_MESSAGE_DIFF_H_
#define AOT_PROTO_MESSAGE_DIFF_H_

#include <string>

#include "absl/types/span.h"
#include "google/protobuf/message.h"

namespace aot {

// The differences between two messages as protobuf's MessageDifferencer
// reports them ("modified: path: a -> b", ...), empty when they are equal.
// Floats compare exactly, except that a NaN equals a NaN: an artifact whose
// embedded HLO holds a NaN constant equals itself. Fields named in `ignored`
// (full names, "aot.KernelBinaryProto.object") are skipped.
std::string DiffMessages(const google::protobuf::Message& expected,
                         const google::protobuf::Message& actual,
                         absl::Span<const std::string> ignored = {});

}  // namespace aot

#endif  // AOT_PROTO_MESSAGE_DIFF_H_
