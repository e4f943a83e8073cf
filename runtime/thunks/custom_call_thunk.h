#ifndef AOT_RUNTIME_THUNKS_CUSTOM_CALL_THUNK_H_
#define AOT_RUNTIME_THUNKS_CUSTOM_CALL_THUNK_H_

#include <memory>
#include <string>
#include <vector>

#include "runtime/ffi/ffi_registry.h"
#include "runtime/thunks/thunk.h"

namespace aot {

// Calls a registered custom-call / FFI handler by name; the name is
// resolved (aliases included) at load time, so a missing handler fails the
// load, not the run.
class CustomCallThunk : public Thunk {
 public:
  static absl::StatusOr<std::unique_ptr<CustomCallThunk>> FromProto(
      ThunkInfoProto info, const CustomCallThunkProto& proto, LoadContext& context);
  absl::Status Execute(const ExecuteParams& params) const override;
  ThunkProto ToProto() const override;

  // Set when the target was resolved through a deprecated alias.
  const std::string& resolved_alias() const { return resolved_.alias; }

 private:
  CustomCallThunk(ThunkInfoProto info) : Thunk(Kind::kCustomCall, std::move(info)) {}
  struct Operand {
    ShapeProto shape;
    BufferSlice slice;
  };
  std::string target_name_;
  CustomCallThunkProto::ApiVersion api_version_ = CustomCallThunkProto::API_VERSION_UNSPECIFIED;
  std::vector<Operand> operands_;
  std::vector<Operand> results_;
  std::string opaque_;
  google::protobuf::RepeatedPtrField<CustomCallAttributeProto> attributes_;
  FfiRegistry::Resolved resolved_;
  // The load platform's own handler (RegisterForPlatform), or null: the
  // host handler.
  const FfiHandler* device_handler_ = nullptr;
};

}  // namespace aot

#endif  // AOT_RUNTIME_THUNKS_CUSTOM_CALL_THUNK_H_
