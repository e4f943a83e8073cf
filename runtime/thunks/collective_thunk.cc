#include "runtime/thunks/collective_thunk.h"

#include <algorithm>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "runtime/shape_util.h"
#include "support/status_macros.h"

namespace aot {
namespace {

// The backend of an executable with one participant: every group has one
// member, so each collective moves this participant's own bytes.
class SelfCollectiveBackend : public CollectiveBackend {
 public:
  absl::Status AllReduce(const CollectiveCall& call, DeviceMemory src, DeviceMemory dst,
                         int64_t count, ReductionOp) override {
    return Copy(call, src, dst, dst.size);
  }
  absl::Status AllGather(const CollectiveCall& call, DeviceMemory src, DeviceMemory dst,
                         int64_t bytes) override {
    return Copy(call, src, dst, bytes);
  }
  absl::Status ReduceScatter(const CollectiveCall& call, DeviceMemory src, DeviceMemory dst,
                             int64_t, ReductionOp) override {
    return Copy(call, src, dst, dst.size);
  }
  absl::Status AllToAll(const CollectiveCall& call, absl::Span<const DeviceMemory> src,
                        absl::Span<const DeviceMemory> dst, int64_t bytes) override {
    return Copy(call, src[0], dst[0], bytes);
  }
  absl::Status CollectivePermute(const CollectiveCall& call, DeviceMemory src, DeviceMemory dst,
                                 int64_t bytes, std::optional<int64_t>,
                                 std::optional<int64_t> receive_from) override {
    return receive_from ? Copy(call, src, dst, bytes) : absl::OkStatus();
  }
  absl::Status Broadcast(const CollectiveCall& call, DeviceMemory src, DeviceMemory dst,
                         int64_t bytes) override {
    return Copy(call, src, dst, bytes);
  }
  void Abort(absl::Status) override {}

 private:
  static absl::Status Copy(const CollectiveCall& call, DeviceMemory src, DeviceMemory dst,
                           int64_t bytes) {
    if (bytes == 0 || src.ptr == dst.ptr) return absl::OkStatus();
    return call.stream->CopyDeviceToDevice(src, dst, bytes);
  }
};

bool IsCollectiveElementType(PrimitiveType type) {
  switch (type) {
    case PRED:
    case S8:
    case S16:
    case S32:
    case S64:
    case U8:
    case U16:
    case U32:
    case U64:
    case F16:
    case BF16:
    case F32:
    case F64:
      return true;
    default:
      return false;
  }
}

}  // namespace

absl::StatusOr<CollectiveConfig> CollectiveConfig::FromProto(
    const CollectiveConfigProto& proto, LoadContext& context,
    absl::FunctionRef<std::string(const Buffer&, int64_t group_size)> sizes) {
  LoadContext::PathScope scope(context, "config");
  CollectiveConfig config;
  const int64_t participants = context.participant_count();
  config.group_of_.assign(participants, -1);
  if (proto.groups().empty()) return context.Error("groups", "no groups");
  for (int g = 0; g < proto.groups_size(); ++g) {
    const auto& members = proto.groups(g).participants();
    const std::string field = absl::StrCat("groups[", g, "]");
    if (members.empty()) return context.Error(field, "empty group");
    if (members.size() != proto.groups(0).participants().size()) {
      return context.Error(
          field,
          absl::StrCat("has ", members.size(), " participants, group 0 has ",
                       proto.groups(0).participants().size(), " (groups must have one size)"));
    }
    for (int64_t p : members) {
      if (p < 0 || p >= participants) {
        return context.Error(field,
                             absl::StrCat("participant ", p, " out of range [0, ", participants,
                                          ") (the executable's replicas x "
                                          "partitions)"));
      }
      if (config.group_of_[p] != -1) {
        return context.Error(field, absl::StrCat("participant ", p, " is also in groups[",
                                                 config.group_of_[p], "]"));
      }
      config.group_of_[p] = g;
    }
    config.groups_.emplace_back(members.begin(), members.end());
  }
  std::vector<int64_t> uncovered;
  for (int64_t p = 0; p < participants; ++p) {
    if (config.group_of_[p] == -1) uncovered.push_back(p);
  }
  if (!uncovered.empty()) {
    return context.Error(
        "groups", absl::StrCat("do not cover participant", uncovered.size() == 1 ? " " : "s ",
                               absl::StrJoin(uncovered, ", "), " of ", participants));
  }
  if (!IsCollectiveElementType(proto.element_type())) {
    return context.Error("element_type", absl::StrCat(PrimitiveType_Name(proto.element_type()),
                                                      " is not an element type collectives move"));
  }
  config.element_type_ = proto.element_type();
  if (proto.buffers().empty()) return context.Error("buffers", "no buffers");
  for (int b = 0; b < proto.buffers_size(); ++b) {
    const CollectiveBufferProto& buffer = proto.buffers(b);
    const std::string field = absl::StrCat("buffers[", b, "]");
    LoadContext::PathScope buffer_scope(context, field);
    AOT_RETURN_IF_ERROR(context.CheckSlice(buffer.source(), "source"));
    AOT_RETURN_IF_ERROR(context.CheckWritableSlice(buffer.destination(), "destination"));
    Buffer parsed{BufferSlice::FromProto(buffer.source()),
                  BufferSlice::FromProto(buffer.destination())};
    const int64_t element = config.element_bytes();
    if (parsed.source.size % element != 0 || parsed.destination.size % element != 0) {
      return context.Error(
          "", absl::StrCat("sizes ", parsed.source.size, " and ", parsed.destination.size,
                           " are not multiples of ", element, " bytes"));
    }
    if (std::string why = sizes(parsed, config.group_size()); !why.empty()) {
      return context.Error("", why);
    }
    config.buffers_.push_back(parsed);
  }
  config.channel_id_ = proto.channel_id();
  return config;
}

CollectiveConfigProto CollectiveConfig::ToProto() const {
  CollectiveConfigProto proto;
  for (const std::vector<int64_t>& group : groups_) {
    auto* g = proto.add_groups();
    for (int64_t p : group) g->add_participants(p);
  }
  proto.set_element_type(element_type_);
  for (const Buffer& b : buffers_) {
    auto* out = proto.add_buffers();
    *out->mutable_source() = b.source.ToProto();
    *out->mutable_destination() = b.destination.ToProto();
  }
  proto.set_channel_id(channel_id_);
  return proto;
}

std::string CollectiveConfig::SameSizes(const Buffer& b, int64_t) {
  if (b.source.size == b.destination.size) return "";
  return absl::StrCat("destination size ", b.destination.size, " differs from source size ",
                      b.source.size);
}

int64_t CollectiveConfig::element_bytes() const {
  return runtime_shape::ElementBytes(element_type_);
}

absl::Span<const int64_t> CollectiveConfig::GroupOf(int64_t participant) const {
  return groups_[group_of_[participant]];
}

absl::Status RunCollective(
    const Thunk& thunk, absl::string_view opcode, const CollectiveConfig& config,
    const ExecuteParams& params,
    absl::FunctionRef<absl::Status(CollectiveBackend&, const CollectiveCall&)> op) {
  CollectiveParams* collectives = params.options ? params.options->collectives : nullptr;
  CollectiveCall call;
  call.op_name = absl::StrCat(opcode, " '", thunk.info().name(), "'");
  call.element_type = config.element_type();
  call.stream = params.stream;
  if (collectives == nullptr || collectives->backend == nullptr) {
    // Load checked the groups against the executable's participants; an
    // executable of several participants refuses to run without them.
    static const int64_t kSelf[] = {0};
    call.group = kSelf;
    SelfCollectiveBackend self;
    return op(self, call);
  }
  call.participant = collectives->participant;
  call.group = config.GroupOf(collectives->participant);
  call.sequence = collectives->calls++;
  return op(*collectives->backend, call);
}

ReductionOp ReductionKindFromProto(ReductionKindProto kind) {
  switch (kind) {
    case REDUCTION_KIND_PRODUCT:
      return ReductionOp::kProduct;
    case REDUCTION_KIND_MIN:
      return ReductionOp::kMin;
    case REDUCTION_KIND_MAX:
      return ReductionOp::kMax;
    default:
      return ReductionOp::kSum;
  }
}

ReductionKindProto ReductionKindToProto(ReductionOp kind) {
  switch (kind) {
    case ReductionOp::kSum:
      return REDUCTION_KIND_SUM;
    case ReductionOp::kProduct:
      return REDUCTION_KIND_PRODUCT;
    case ReductionOp::kMin:
      return REDUCTION_KIND_MIN;
    case ReductionOp::kMax:
      return REDUCTION_KIND_MAX;
  }
  return REDUCTION_KIND_UNSPECIFIED;
}

absl::Status CheckReduction(ReductionKindProto kind, PrimitiveType, LoadContext& context) {
  switch (kind) {
    case REDUCTION_KIND_SUM:
    case REDUCTION_KIND_PRODUCT:
    case REDUCTION_KIND_MIN:
    case REDUCTION_KIND_MAX:
      return absl::OkStatus();
    default:
      return context.Error("reduction",
                           absl::StrCat("unknown reduction kind ", static_cast<int>(kind)));
  }
}

}  // namespace aot
