#ifndef AOT_RUNTIME_THUNKS_THUNK_REGISTRY_H_
#define AOT_RUNTIME_THUNKS_THUNK_REGISTRY_H_

#include <map>
#include <memory>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "runtime/thunks/thunk.h"

namespace aot {

// Per-kind deserializers, keyed by the ThunkProto.impl oneof case. Each
// thunk kind registers the FromProto that lives beside its ToProto and
// Execute (runtime/thunks/<kind>_thunk.cc).
class ThunkRegistry {
 public:
  using FromProtoFn = absl::StatusOr<std::unique_ptr<Thunk>> (*)(const ThunkProto& proto,
                                                                 LoadContext& context);

  // The registry with every thunk kind this runtime can deserialize.
  static const ThunkRegistry& Global();

  void Register(ThunkProto::ImplCase kind, std::string name, FromProtoFn fn);

  // Dispatches on proto.impl_case(); an unset or unknown case (a thunk kind
  // from a newer compiler) is an error naming the field number.
  absl::StatusOr<std::unique_ptr<Thunk>> FromProto(const ThunkProto& proto,
                                                   LoadContext& context) const;
  // Deserializes `protos` as `field`[i]; enforces the nesting bound.
  absl::StatusOr<ThunkSequence> SequenceFromProto(
      const google::protobuf::RepeatedPtrField<ThunkProto>& protos, absl::string_view field,
      LoadContext& context) const;

  // Names of the thunk kinds (oneof field names), sorted.
  std::vector<std::string> KindNames() const;

 private:
  struct Entry {
    std::string name;
    FromProtoFn fn;
  };
  std::map<int, Entry> entries_;
};

}  // namespace aot

#endif  // AOT_RUNTIME_THUNKS_THUNK_REGISTRY_H_
