#include "runtime/platform/cuda/nccl_api.h"

#include <dlfcn.h>

#include <type_traits>

#include "absl/strings/str_cat.h"

namespace aot {

absl::StatusOr<NcclApi> OpenNccl() {
  void* lib = nullptr;
  std::string errors;
  for (const char* name : {"libnccl.so.2", "libnccl.so"}) {
    lib = ::dlopen(name, RTLD_NOW | RTLD_LOCAL);
    if (lib != nullptr) break;
    absl::StrAppend(&errors, errors.empty() ? "" : "; ", ::dlerror());
  }
  if (lib == nullptr) return absl::UnavailableError(absl::StrCat("cannot open NCCL: ", errors));
  NcclApi api;
  const char* missing = nullptr;
  auto sym = [&](auto& fn, const char* name) {
    fn = reinterpret_cast<std::remove_reference_t<decltype(fn)>>(::dlsym(lib, name));
    if (fn == nullptr && missing == nullptr) missing = name;
  };
  sym(api.get_version, "ncclGetVersion");
  sym(api.get_unique_id, "ncclGetUniqueId");
  sym(api.comm_init_rank, "ncclCommInitRank");
  sym(api.comm_destroy, "ncclCommDestroy");
  sym(api.comm_abort, "ncclCommAbort");
  sym(api.get_error_string, "ncclGetErrorString");
  sym(api.all_reduce, "ncclAllReduce");
  sym(api.all_gather, "ncclAllGather");
  sym(api.reduce_scatter, "ncclReduceScatter");
  sym(api.broadcast, "ncclBroadcast");
  sym(api.send, "ncclSend");
  sym(api.recv, "ncclRecv");
  sym(api.group_start, "ncclGroupStart");
  sym(api.group_end, "ncclGroupEnd");
  if (missing != nullptr) {
    return absl::UnavailableError(absl::StrCat("NCCL lacks the entry point ", missing));
  }
  return api;
}

absl::StatusOr<NcclReductionSpec> NcclReductionFor(PrimitiveType type, ReductionOp reduction) {
  NcclReductionSpec spec;
  switch (reduction) {
    case ReductionOp::kSum:
      spec.op = kNcclSum;
      break;
    case ReductionOp::kProduct:
      spec.op = kNcclProd;
      break;
    case ReductionOp::kMax:
      spec.op = kNcclMax;
      break;
    case ReductionOp::kMin:
      spec.op = kNcclMin;
      break;
  }
  switch (type) {
    case PRED:
      spec.type = kNcclUint8;
      // 0/1 bytes: or is max, and is min.
      spec.op =
          reduction == ReductionOp::kSum || reduction == ReductionOp::kMax ? kNcclMax : kNcclMin;
      return spec;
    case S8:
      spec.type = kNcclInt8;
      return spec;
    case U8:
      spec.type = kNcclUint8;
      return spec;
    case S32:
      spec.type = kNcclInt32;
      return spec;
    case U32:
      spec.type = kNcclUint32;
      return spec;
    case S64:
      spec.type = kNcclInt64;
      return spec;
    case U64:
      spec.type = kNcclUint64;
      return spec;
    case F16:
      spec.type = kNcclFloat16;
      return spec;
    case BF16:
      spec.type = kNcclBfloat16;
      return spec;
    case F32:
      spec.type = kNcclFloat32;
      return spec;
    case F64:
      spec.type = kNcclFloat64;
      return spec;
    default:
      return absl::InvalidArgumentError(
          absl::StrCat("NCCL has no reduction for element type ", PrimitiveType_Name(type)));
  }
}

std::string NcclVersionString(int code) {
  // NCCL_VERSION(X, Y, Z): X*1000 + Y*100 + Z before 2.9, X*10000 + Y*100 + Z since.
  const bool wide = code >= 20900;
  const int major = wide ? code / 10000 : code / 1000;
  const int minor = wide ? code % 10000 / 100 : code % 1000 / 100;
  return absl::StrCat("NCCL ", major, ".", minor, ".", code % 100);
}

}  // namespace aot
