#ifndef AOT_SUPPORT_PROTO_UTIL_H_
#define AOT_SUPPORT_PROTO_UTIL_H_

// The project's one way to read and write protobuf messages as bytes: text
// format with the first error's line and column, bounded binary parsing,
// and deterministic serialization (the byte-stable form every artifact,
// snapshot and fingerprint is written in).

#include <string>

#include "absl/status/status.h"
#include "absl/strings/string_view.h"
#include "google/protobuf/message.h"

namespace aot {

// Parses text format into `message` (cleared first). On failure,
// InvalidArgument whose message is the first error as "<line>:<column>:
// <what>" (1-based), or empty when protobuf reported none; callers put their
// own "what was being parsed" in front.
absl::Status ParseTextProto(absl::string_view text, google::protobuf::Message* message);

// Parses binary wire format into `message`, with a nesting bound (a
// hostile artifact cannot exhaust the stack); false when the bytes are not
// one whole message.
bool ParseBinaryProto(absl::string_view bytes, google::protobuf::Message* message,
                      int recursion_limit = 64);

// Binary wire format with map entries sorted: the same message gives the
// same bytes in every process.
std::string SerializeDeterministic(const google::protobuf::Message& message);

}  // namespace aot

#endif  // AOT_SUPPORT_PROTO_UTIL_H_
