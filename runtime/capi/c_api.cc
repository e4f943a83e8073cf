// The C API over aot::Client / aot::Executable (runtime/capi/xla_aot_c_api.h).
#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "absl/types/span.h"
#include "runtime/capi/xla_aot_c_api.h"
#include "runtime/executable/client.h"
#include "runtime/shape_util.h"
#include "support/status_macros.h"

// The opaque handles: plain structs in the global namespace, as the header
// declares them.
struct XlaAot_Error {
  absl::Status status;
  std::string message;  // status.message(), kept NUL-terminated
};

struct XlaAot_Client {
  std::unique_ptr<aot::Client> client;
};

// A shape's C view and the storage its arrays point into.
struct ShapeView {
  aot::ShapeProto proto;
  std::vector<int64_t> dimensions;
  std::vector<int64_t> minor_to_major;

  explicit ShapeView(aot::ShapeProto shape) : proto(std::move(shape)) {
    dimensions.assign(proto.dimensions().begin(), proto.dimensions().end());
    minor_to_major = aot::runtime_shape::MinorToMajor(proto);
  }
  void Fill(XlaAot_Shape* out) const {
    out->element_type = static_cast<XlaAot_ElementType>(proto.element_type());
    out->rank = dimensions.size();
    out->dimensions = dimensions.data();
    out->minor_to_major = minor_to_major.data();
    out->element_size_in_bytes =
        static_cast<size_t>(aot::runtime_shape::ElementBytes(proto.element_type()));
    out->byte_size = static_cast<size_t>(aot::runtime_shape::ByteSize(proto));
    if (out->struct_size >= XlaAot_Shape_STRUCT_SIZE_V1_1) {
      out->element_size_in_bits = static_cast<size_t>(aot::runtime_shape::PackedBits(proto));
    }
  }
};

struct XlaAot_Executable {
  std::unique_ptr<aot::Executable> executable;
  std::vector<ShapeView> parameters;  // by parameter number
  std::vector<ShapeView> results;     // result leaves, depth-first
};

struct XlaAot_Buffer {
  std::unique_ptr<ShapeView> shape;
  std::vector<uint8_t> owned;     // when not borrowed
  const uint8_t* data = nullptr;  // owned.data() or the caller's memory
  size_t size = 0;
};

// The C enum spells the schema's PrimitiveType numbers; they must agree.
#define AOT_SAME_ELEMENT_TYPE(name) \
  static_assert(static_cast<int>(XLA_AOT_##name) == static_cast<int>(aot::name), #name)
AOT_SAME_ELEMENT_TYPE(PRED);
AOT_SAME_ELEMENT_TYPE(S8);
AOT_SAME_ELEMENT_TYPE(S16);
AOT_SAME_ELEMENT_TYPE(S32);
AOT_SAME_ELEMENT_TYPE(S64);
AOT_SAME_ELEMENT_TYPE(U8);
AOT_SAME_ELEMENT_TYPE(U16);
AOT_SAME_ELEMENT_TYPE(U32);
AOT_SAME_ELEMENT_TYPE(U64);
AOT_SAME_ELEMENT_TYPE(F16);
AOT_SAME_ELEMENT_TYPE(F32);
AOT_SAME_ELEMENT_TYPE(F64);
AOT_SAME_ELEMENT_TYPE(BF16);
AOT_SAME_ELEMENT_TYPE(C64);
AOT_SAME_ELEMENT_TYPE(C128);
AOT_SAME_ELEMENT_TYPE(F8E5M2);
AOT_SAME_ELEMENT_TYPE(F8E4M3FN);
AOT_SAME_ELEMENT_TYPE(F8E4M3B11FNUZ);
AOT_SAME_ELEMENT_TYPE(F8E5M2FNUZ);
AOT_SAME_ELEMENT_TYPE(F8E4M3FNUZ);
AOT_SAME_ELEMENT_TYPE(F8E4M3);
AOT_SAME_ELEMENT_TYPE(F8E3M4);
AOT_SAME_ELEMENT_TYPE(F8E8M0FNU);
AOT_SAME_ELEMENT_TYPE(S4);
AOT_SAME_ELEMENT_TYPE(U4);
AOT_SAME_ELEMENT_TYPE(S2);
AOT_SAME_ELEMENT_TYPE(U2);
AOT_SAME_ELEMENT_TYPE(S1);
AOT_SAME_ELEMENT_TYPE(U1);
AOT_SAME_ELEMENT_TYPE(F4E2M1FN);
#undef AOT_SAME_ELEMENT_TYPE

namespace {

XlaAot_Error* MakeError(absl::Status status) {
  if (status.ok()) return nullptr;
  auto* e = new XlaAot_Error;
  e->message = std::string(status.message());
  e->status = std::move(status);
  return e;
}

XlaAot_Error* InvalidArgument(const std::string& what) {
  return MakeError(absl::InvalidArgumentError(what));
}

// A caller's struct must reach at least as far as this library reads.
template <typename T>
XlaAot_Error* CheckArgs(const T* args, size_t needed, const char* name) {
  if (args == nullptr) return InvalidArgument(absl::StrCat(name, ": args is NULL"));
  if (args->struct_size < needed) {
    return InvalidArgument(absl::StrCat(name, ": struct_size ", args->struct_size,
                                        " is smaller than the ", needed,
                                        " bytes this library reads; set it with the "
                                        "header's _STRUCT_SIZE macro"));
  }
  return nullptr;
}

XlaAot_Error* CheckShapeOut(const XlaAot_Shape& shape, const char* name) {
  if (shape.struct_size < XlaAot_Shape_STRUCT_SIZE) {
    return InvalidArgument(absl::StrCat(name, ": shape.struct_size ", shape.struct_size,
                                        " is smaller than XlaAot_Shape_STRUCT_SIZE"));
  }
  return nullptr;
}

void ErrorDestroy(XlaAot_Error* error) { delete error; }

XlaAot_ErrorCode ErrorGetCode(const XlaAot_Error* error) {
  return error == nullptr ? XLA_AOT_OK : static_cast<XlaAot_ErrorCode>(error->status.code());
}

void ErrorMessage(XlaAot_Error_Message_Args* args) {
  if (args == nullptr || args->struct_size < XlaAot_Error_Message_Args_STRUCT_SIZE) return;
  static const char kNone[] = "";
  args->message = args->error == nullptr ? kNone : args->error->message.c_str();
  args->message_size = args->error == nullptr ? 0 : args->error->message.size();
}

XlaAot_Error* ClientCreate(XlaAot_Client_Create_Args* args) {
  if (auto* e = CheckArgs(args, XlaAot_Client_Create_Args_STRUCT_SIZE, "Client_Create")) return e;
  auto client = aot::Client::Create(args->platform == nullptr ? "host" : args->platform);
  AOT_RETURN_IF_ERROR_AND(client, MakeError(_));
  args->client = new XlaAot_Client{*std::move(client)};
  return nullptr;
}

void ClientDestroy(XlaAot_Client* client) { delete client; }

XlaAot_Error* ClientLoad(XlaAot_Client_Load_Args* args) {
  if (auto* e = CheckArgs(args, XlaAot_Client_Load_Args_STRUCT_SIZE, "Client_Load")) return e;
  if (args->client == nullptr) return InvalidArgument("Client_Load: client is NULL");
  if (args->bytes == nullptr && args->size > 0)
    return InvalidArgument("Client_Load: bytes is NULL");
  auto executable =
      args->client->client->DeserializeExecutable(absl::string_view(args->bytes, args->size));
  AOT_RETURN_IF_ERROR_AND(executable, MakeError(_));
  auto* out = new XlaAot_Executable;
  out->executable = *std::move(executable);
  for (const aot::EntryParameterProto& p : out->executable->parameters()) {
    out->parameters.emplace_back(p.shape());
  }
  for (const aot::OutputLeafProto& leaf : out->executable->result().leaves()) {
    out->results.emplace_back(leaf.shape());
  }
  args->executable = out;
  return nullptr;
}

void ExecutableDestroy(XlaAot_Executable* executable) { delete executable; }

XlaAot_Error* ExecutableSignature(XlaAot_Executable_Signature_Args* args) {
  if (auto* e =
          CheckArgs(args, XlaAot_Executable_Signature_Args_STRUCT_SIZE, "Executable_Signature")) {
    return e;
  }
  if (args->executable == nullptr) return InvalidArgument("Executable_Signature: NULL executable");
  args->num_parameters = args->executable->parameters.size();
  args->num_results = args->executable->results.size();
  return nullptr;
}

XlaAot_Error* ShapeOf(XlaAot_Executable_Shape_Args* args, bool result, const char* name) {
  if (auto* e = CheckArgs(args, XlaAot_Executable_Shape_Args_STRUCT_SIZE, name)) return e;
  if (auto* e = CheckShapeOut(args->shape, name)) return e;
  if (args->executable == nullptr) return InvalidArgument(absl::StrCat(name, ": NULL executable"));
  const auto& list = result ? args->executable->results : args->executable->parameters;
  if (args->index >= list.size()) {
    return MakeError(
        absl::OutOfRangeError(absl::StrCat(name, ": index ", args->index, " of ", list.size(),
                                           result ? " result leaves" : " parameters")));
  }
  list[args->index].Fill(&args->shape);
  return nullptr;
}

XlaAot_Error* ExecutableParameterShape(XlaAot_Executable_Shape_Args* args) {
  return ShapeOf(args, /*result=*/false, "Executable_ParameterShape");
}
XlaAot_Error* ExecutableResultShape(XlaAot_Executable_Shape_Args* args) {
  return ShapeOf(args, /*result=*/true, "Executable_ResultShape");
}

bool SameShape(const ShapeView& a, const ShapeView& b) {
  return a.proto.element_type() == b.proto.element_type() && a.dimensions == b.dimensions &&
         a.minor_to_major == b.minor_to_major &&
         aot::runtime_shape::PackedBits(a.proto) == aot::runtime_shape::PackedBits(b.proto);
}

XlaAot_Error* ExecutableExecute(XlaAot_Executable_Execute_Args* args) {
  if (auto* e = CheckArgs(args, XlaAot_Executable_Execute_Args_STRUCT_SIZE, "Executable_Execute")) {
    return e;
  }
  const XlaAot_Executable* exe = args->executable;
  if (exe == nullptr) return InvalidArgument("Executable_Execute: NULL executable");
  if (args->num_arguments != exe->parameters.size()) {
    return InvalidArgument(absl::StrCat("Executable_Execute: ", args->num_arguments,
                                        " arguments for ", exe->parameters.size(), " parameters"));
  }
  if (args->results == nullptr || args->num_results != exe->results.size()) {
    return InvalidArgument(absl::StrCat("Executable_Execute: room for ", args->num_results,
                                        " results; the executable has ", exe->results.size(),
                                        " result leaves"));
  }
  std::vector<absl::Span<const uint8_t>> spans;
  spans.reserve(args->num_arguments);
  for (size_t i = 0; i < args->num_arguments; ++i) {
    const XlaAot_Buffer* b = args->arguments == nullptr ? nullptr : args->arguments[i];
    if (b == nullptr)
      return InvalidArgument(absl::StrCat("Executable_Execute: argument ", i, " is NULL"));
    if (!SameShape(*b->shape, exe->parameters[i])) {
      return InvalidArgument(absl::StrCat(
          "Executable_Execute: argument ", i, " is ", aot::runtime_shape::ToString(b->shape->proto),
          "; parameter ", i, " is ", aot::runtime_shape::ToString(exe->parameters[i].proto)));
    }
    spans.emplace_back(b->data, b->size);
  }
  auto results = exe->executable->Execute(spans);
  AOT_RETURN_IF_ERROR_AND(results, MakeError(_));
  for (size_t i = 0; i < results->size(); ++i) {
    auto* b = new XlaAot_Buffer;
    b->shape = std::make_unique<ShapeView>(exe->results[i].proto);
    b->owned = std::move((*results)[i]);
    b->data = b->owned.data();
    b->size = b->owned.size();
    args->results[i] = b;
  }
  return nullptr;
}

XlaAot_Error* BufferFromHost(XlaAot_Buffer_FromHost_Args* args) {
  if (auto* e = CheckArgs(args, XlaAot_Buffer_FromHost_Args_STRUCT_SIZE, "Buffer_FromHost")) {
    return e;
  }
  aot::ShapeProto shape;
  if (!aot::PrimitiveType_IsValid(args->element_type) ||
      aot::runtime_shape::ElementBytes(static_cast<aot::PrimitiveType>(args->element_type)) == 0) {
    return InvalidArgument(absl::StrCat("Buffer_FromHost: element type ", args->element_type,
                                        " is not an array type"));
  }
  shape.set_element_type(static_cast<aot::PrimitiveType>(args->element_type));
  if (args->rank > 0 && args->dimensions == nullptr) {
    return InvalidArgument("Buffer_FromHost: dimensions is NULL");
  }
  for (size_t i = 0; i < args->rank; ++i) {
    if (args->dimensions[i] < 0) {
      return InvalidArgument(absl::StrCat("Buffer_FromHost: dimension ", i, " is negative"));
    }
    shape.add_dimensions(args->dimensions[i]);
  }
  if (args->minor_to_major != nullptr) {
    std::vector<bool> seen(args->rank, false);
    for (size_t i = 0; i < args->rank; ++i) {
      int64_t d = args->minor_to_major[i];
      if (d < 0 || d >= static_cast<int64_t>(args->rank) || seen[d]) {
        return InvalidArgument(
            "Buffer_FromHost: minor_to_major is not a permutation of the dimensions");
      }
      seen[d] = true;
      shape.mutable_layout()->add_minor_to_major(d);
    }
  }
  if (args->struct_size >= XlaAot_Buffer_FromHost_Args_STRUCT_SIZE_V1_1 &&
      args->element_size_in_bits != 0) {
    if (args->element_size_in_bits > 8) {
      return InvalidArgument(absl::StrCat("Buffer_FromHost: element_size_in_bits ",
                                          args->element_size_in_bits, " is above 8"));
    }
    shape.mutable_layout()->set_element_size_in_bits(
        static_cast<int64_t>(args->element_size_in_bits));
    if (absl::Status packing = aot::runtime_shape::CheckElementSize(shape); !packing.ok()) {
      return InvalidArgument(absl::StrCat("Buffer_FromHost: ", packing.message()));
    }
  }
  int64_t bytes = aot::runtime_shape::ByteSize(shape);
  if (bytes < 0) return InvalidArgument("Buffer_FromHost: the shape's byte size overflows");
  if (static_cast<size_t>(bytes) != args->byte_size) {
    return InvalidArgument(absl::StrCat("Buffer_FromHost: ", aot::runtime_shape::ToString(shape),
                                        " holds ", bytes, " bytes, not ", args->byte_size));
  }
  if (args->data == nullptr && bytes > 0) return InvalidArgument("Buffer_FromHost: data is NULL");
  auto* b = new XlaAot_Buffer;
  b->shape = std::make_unique<ShapeView>(std::move(shape));
  b->size = args->byte_size;
  if (args->borrow) {
    b->data = static_cast<const uint8_t*>(args->data);
  } else {
    const auto* p = static_cast<const uint8_t*>(args->data);
    b->owned.assign(p, p + args->byte_size);
    b->data = b->owned.data();
  }
  args->buffer = b;
  return nullptr;
}

XlaAot_Error* BufferDescribe(XlaAot_Buffer_Describe_Args* args) {
  if (auto* e = CheckArgs(args, XlaAot_Buffer_Describe_Args_STRUCT_SIZE, "Buffer_Describe")) {
    return e;
  }
  if (auto* e = CheckShapeOut(args->shape, "Buffer_Describe")) return e;
  if (args->buffer == nullptr) return InvalidArgument("Buffer_Describe: NULL buffer");
  args->buffer->shape->Fill(&args->shape);
  args->data = args->buffer->data;
  return nullptr;
}

void BufferDestroy(XlaAot_Buffer* buffer) { delete buffer; }

constexpr XlaAot_Api kApi = {
    XlaAot_Api_STRUCT_SIZE, XLA_AOT_C_API_MAJOR, XLA_AOT_C_API_MINOR,
    ErrorDestroy,           ErrorGetCode,        ErrorMessage,
    ClientCreate,           ClientDestroy,       ClientLoad,
    ExecutableDestroy,      ExecutableSignature, ExecutableParameterShape,
    ExecutableResultShape,  ExecutableExecute,   BufferFromHost,
    BufferDescribe,         BufferDestroy,
};

}  // namespace

extern "C" const XlaAot_Api* XlaAot_GetApi(void) { return &kApi; }
