#ifndef AOT_RUNTIME_PLATFORM_CUDA_NCCL_API_H_
#define AOT_RUNTIME_PLATFORM_CUDA_NCCL_API_H_

#include <cstddef>
#include <string>

#include "absl/status/statusor.h"
#include "proto/executable.pb.h"
#include "runtime/platform/collectives.h"

namespace aot {

// The NCCL entry points the CUDA collective backend calls, opened at run
// time with dlopen (like the driver, cuBLAS and cuDNN), so binaries start
// on machines without NCCL or a GPU. NCCL's header is not needed: the few
// types its entry points take are spelled here (nccl_api_test checks them
// against nccl.h where the toolkit ships it). Tests fill the table with a
// recording double.
using NcclResult = int;  // ncclResult_t; 0 is ncclSuccess
using NcclComm = void*;  // ncclComm_t
using NcclDataType = int;
using NcclRedOp = int;
using NcclStream = void*;  // cudaStream_t (a CUstream)
inline constexpr size_t kNcclUniqueIdBytes = 128;
struct NcclUniqueId {
  char internal[kNcclUniqueIdBytes];
};

struct NcclApi {
  NcclResult (*get_version)(int*) = nullptr;
  NcclResult (*get_unique_id)(NcclUniqueId*) = nullptr;
  NcclResult (*comm_init_rank)(NcclComm*, int, NcclUniqueId, int) = nullptr;
  NcclResult (*comm_destroy)(NcclComm) = nullptr;
  NcclResult (*comm_abort)(NcclComm) = nullptr;
  const char* (*get_error_string)(NcclResult) = nullptr;
  NcclResult (*all_reduce)(const void*, void*, size_t, NcclDataType, NcclRedOp, NcclComm,
                           NcclStream) = nullptr;
  NcclResult (*all_gather)(const void*, void*, size_t, NcclDataType, NcclComm,
                           NcclStream) = nullptr;
  NcclResult (*reduce_scatter)(const void*, void*, size_t, NcclDataType, NcclRedOp, NcclComm,
                               NcclStream) = nullptr;
  NcclResult (*broadcast)(const void*, void*, size_t, NcclDataType, int, NcclComm,
                          NcclStream) = nullptr;
  NcclResult (*send)(const void*, size_t, NcclDataType, int, NcclComm, NcclStream) = nullptr;
  NcclResult (*recv)(void*, size_t, NcclDataType, int, NcclComm, NcclStream) = nullptr;
  NcclResult (*group_start)() = nullptr;
  NcclResult (*group_end)() = nullptr;
};

// NCCL's enumerators the backend passes (nccl.h).
inline constexpr NcclDataType kNcclInt8 = 0;
inline constexpr NcclDataType kNcclUint8 = 1;
inline constexpr NcclDataType kNcclInt32 = 2;
inline constexpr NcclDataType kNcclUint32 = 3;
inline constexpr NcclDataType kNcclInt64 = 4;
inline constexpr NcclDataType kNcclUint64 = 5;
inline constexpr NcclDataType kNcclFloat16 = 6;
inline constexpr NcclDataType kNcclFloat32 = 7;
inline constexpr NcclDataType kNcclFloat64 = 8;
inline constexpr NcclDataType kNcclBfloat16 = 9;
inline constexpr NcclRedOp kNcclSum = 0;
inline constexpr NcclRedOp kNcclProd = 1;
inline constexpr NcclRedOp kNcclMax = 2;
inline constexpr NcclRedOp kNcclMin = 3;

// libnccl.so.2's table; Unavailable (naming the library or the missing
// entry point) where NCCL cannot be opened.
absl::StatusOr<NcclApi> OpenNccl();

// NCCL's element type and operation for a reduction of `type`
// elements. PRED reduces as uint8 0/1 with max for sum and max (logical
// or) and min for product and min (logical and), as the host backend
// does; types NCCL has no element type for (16-bit integers, complex)
// are InvalidArgument naming the type. Data movement (gather, all-to-all,
// permute, broadcast) moves bytes and needs no element type.
struct NcclReductionSpec {
  NcclDataType type = kNcclFloat32;
  NcclRedOp op = kNcclSum;
};
absl::StatusOr<NcclReductionSpec> NcclReductionFor(PrimitiveType type, ReductionOp reduction);

// "NCCL 2.28.3" from ncclGetVersion's code.
std::string NcclVersionString(int code);

}  // namespace aot

#endif  // AOT_RUNTIME_PLATFORM_CUDA_NCCL_API_H_
