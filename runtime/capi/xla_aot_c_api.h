/* The runtime's C API: load a serialized executable, describe its
 * parameters and results, execute it on host buffers, and read errors, in
 * the manner of XLA's PJRT C API: opaque handles, one function table
 * versioned by its struct size and a major/minor version, arguments passed
 * in structs whose first member is their size (so a newer library accepts
 * an older caller's structs), and errors as objects with a code and a
 * message. Plain C (C99); no C++ type crosses it.
 *
 *   const XlaAot_Api* api = XlaAot_GetApi();
 *   XlaAot_Client_Create_Args create = {XlaAot_Client_Create_Args_STRUCT_SIZE};
 *   create.platform = "host";
 *   XlaAot_Error* error = api->Client_Create(&create);
 *   ...
 *
 * Every function that can fail returns NULL on success or an error the
 * caller destroys with Error_Destroy. Handles are destroyed with their
 * _Destroy function; an executable must not outlive its client. One
 * executable may be executed from several threads at once.
 */
#ifndef XLA_AOT_C_API_H_
#define XLA_AOT_C_API_H_

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define XLA_AOT_C_API_MAJOR 1
#define XLA_AOT_C_API_MINOR 1

/* The size of a struct up to and including `member`: what a caller built
 * against this header puts in struct_size. */
#define XLA_AOT_STRUCT_SIZE(type, member) (offsetof(type, member) + sizeof(((type*)0)->member))

typedef struct XlaAot_Error XlaAot_Error;
typedef struct XlaAot_Client XlaAot_Client;
typedef struct XlaAot_Executable XlaAot_Executable;
typedef struct XlaAot_Buffer XlaAot_Buffer;

/* absl::StatusCode's numbers. */
typedef enum {
  XLA_AOT_OK = 0,
  XLA_AOT_CANCELLED = 1,
  XLA_AOT_UNKNOWN = 2,
  XLA_AOT_INVALID_ARGUMENT = 3,
  XLA_AOT_DEADLINE_EXCEEDED = 4,
  XLA_AOT_NOT_FOUND = 5,
  XLA_AOT_ALREADY_EXISTS = 6,
  XLA_AOT_PERMISSION_DENIED = 7,
  XLA_AOT_RESOURCE_EXHAUSTED = 8,
  XLA_AOT_FAILED_PRECONDITION = 9,
  XLA_AOT_ABORTED = 10,
  XLA_AOT_OUT_OF_RANGE = 11,
  XLA_AOT_UNIMPLEMENTED = 12,
  XLA_AOT_INTERNAL = 13,
  XLA_AOT_UNAVAILABLE = 14,
  XLA_AOT_DATA_LOSS = 15,
  XLA_AOT_UNAUTHENTICATED = 16
} XlaAot_ErrorCode;

/* The schema's PrimitiveType numbers (proto/hlo.proto). */
typedef enum {
  XLA_AOT_PRED = 1,
  XLA_AOT_S8 = 2,
  XLA_AOT_S16 = 3,
  XLA_AOT_S32 = 4,
  XLA_AOT_S64 = 5,
  XLA_AOT_U8 = 6,
  XLA_AOT_U16 = 7,
  XLA_AOT_U32 = 8,
  XLA_AOT_U64 = 9,
  XLA_AOT_F16 = 10,
  XLA_AOT_F32 = 11,
  XLA_AOT_F64 = 12,
  XLA_AOT_BF16 = 16,
  /* Since 2026-12-03. Complex: (real, imaginary) pairs. */
  XLA_AOT_C64 = 15,
  XLA_AOT_C128 = 18,
  /* 8-bit floats, one byte each (raw bits). */
  XLA_AOT_F8E5M2 = 19,
  XLA_AOT_F8E4M3FN = 20,
  XLA_AOT_F8E4M3B11FNUZ = 23,
  XLA_AOT_F8E5M2FNUZ = 24,
  XLA_AOT_F8E4M3FNUZ = 25,
  XLA_AOT_F8E4M3 = 28,
  XLA_AOT_F8E3M4 = 29,
  XLA_AOT_F8E8M0FNU = 33,
  /* Narrower than a byte, stored one element per byte (sign- or
   * zero-extended; f4e2m1fn in the low four bits). */
  XLA_AOT_S4 = 21,
  XLA_AOT_U4 = 22,
  XLA_AOT_S2 = 26,
  XLA_AOT_U2 = 27,
  XLA_AOT_S1 = 30,
  XLA_AOT_U1 = 31,
  XLA_AOT_F4E2M1FN = 32
} XlaAot_ElementType;

/* The shape of an array parameter or result leaf. Bytes are in the
 * physical layout: dimension minor_to_major[0] varies fastest (row-major is
 * minor_to_major = {rank-1, ..., 0}). The arrays stay valid as long as the
 * executable (or buffer) they were read from. */
typedef struct {
  size_t struct_size;
  XlaAot_ElementType element_type;
  size_t rank;
  const int64_t* dimensions;
  const int64_t* minor_to_major;
  size_t element_size_in_bytes;
  size_t byte_size;
  /* Since minor version 1 (written when struct_size reaches it): XLA's
   * E(n), the bits each element takes when a sub-byte type is packed (8/n
   * per byte in physical order, the first in the most significant bits;
   * byte_size is then ceil(elements * n / 8)); 0 when unpacked. */
  size_t element_size_in_bits;
} XlaAot_Shape;
#define XlaAot_Shape_STRUCT_SIZE XLA_AOT_STRUCT_SIZE(XlaAot_Shape, byte_size)
#define XlaAot_Shape_STRUCT_SIZE_V1_1 XLA_AOT_STRUCT_SIZE(XlaAot_Shape, element_size_in_bits)

/* --- Errors --- */

typedef struct {
  size_t struct_size;
  const XlaAot_Error* error;
  const char* message; /* out; valid until the error is destroyed */
  size_t message_size; /* out */
} XlaAot_Error_Message_Args;
#define XlaAot_Error_Message_Args_STRUCT_SIZE \
  XLA_AOT_STRUCT_SIZE(XlaAot_Error_Message_Args, message_size)

/* --- Client --- */

typedef struct {
  size_t struct_size;
  const char* platform;  /* "host" or "cuda"; NULL: "host" */
  XlaAot_Client* client; /* out */
} XlaAot_Client_Create_Args;
#define XlaAot_Client_Create_Args_STRUCT_SIZE XLA_AOT_STRUCT_SIZE(XlaAot_Client_Create_Args, client)

typedef struct {
  size_t struct_size;
  XlaAot_Client* client;
  const char* bytes; /* a serialized executable, binary or text format */
  size_t size;
  XlaAot_Executable* executable; /* out */
} XlaAot_Client_Load_Args;
#define XlaAot_Client_Load_Args_STRUCT_SIZE XLA_AOT_STRUCT_SIZE(XlaAot_Client_Load_Args, executable)

/* --- Executable --- */

typedef struct {
  size_t struct_size;
  const XlaAot_Executable* executable;
  size_t num_parameters; /* out */
  size_t num_results;    /* out: result leaves (a tuple result, flattened) */
} XlaAot_Executable_Signature_Args;
#define XlaAot_Executable_Signature_Args_STRUCT_SIZE \
  XLA_AOT_STRUCT_SIZE(XlaAot_Executable_Signature_Args, num_results)

typedef struct {
  size_t struct_size;
  const XlaAot_Executable* executable;
  size_t index;       /* parameter number or result leaf index */
  XlaAot_Shape shape; /* out (set shape.struct_size before the call) */
} XlaAot_Executable_Shape_Args;
#define XlaAot_Executable_Shape_Args_STRUCT_SIZE \
  XLA_AOT_STRUCT_SIZE(XlaAot_Executable_Shape_Args, shape)

typedef struct {
  size_t struct_size;
  const XlaAot_Executable* executable;
  XlaAot_Buffer* const* arguments; /* one per parameter, in order */
  size_t num_arguments;
  XlaAot_Buffer** results; /* out: caller's array of num_results slots */
  size_t num_results;      /* the array's length: must be the result count */
} XlaAot_Executable_Execute_Args;
#define XlaAot_Executable_Execute_Args_STRUCT_SIZE \
  XLA_AOT_STRUCT_SIZE(XlaAot_Executable_Execute_Args, num_results)

/* --- Buffers (host memory) --- */

typedef struct {
  size_t struct_size;
  XlaAot_ElementType element_type;
  const int64_t* dimensions;
  size_t rank;
  const int64_t* minor_to_major; /* NULL: row-major */
  const void* data;              /* byte_size bytes in that layout */
  size_t byte_size;
  /* Nonzero: the buffer refers to `data`, which must stay valid and
   * unchanged until the buffer is destroyed (no copy). Zero: copied. */
  int borrow;
  XlaAot_Buffer* buffer; /* out */
  /* Since minor version 1 (read when struct_size reaches it): 0, or the
   * width of a sub-byte element type when `data` is packed (XlaAot_Shape's
   * element_size_in_bits). */
  size_t element_size_in_bits;
} XlaAot_Buffer_FromHost_Args;
#define XlaAot_Buffer_FromHost_Args_STRUCT_SIZE \
  XLA_AOT_STRUCT_SIZE(XlaAot_Buffer_FromHost_Args, buffer)
#define XlaAot_Buffer_FromHost_Args_STRUCT_SIZE_V1_1 \
  XLA_AOT_STRUCT_SIZE(XlaAot_Buffer_FromHost_Args, element_size_in_bits)

typedef struct {
  size_t struct_size;
  const XlaAot_Buffer* buffer;
  XlaAot_Shape shape; /* out (set shape.struct_size before the call) */
  const void* data;   /* out: shape.byte_size bytes, valid until destroyed */
} XlaAot_Buffer_Describe_Args;
#define XlaAot_Buffer_Describe_Args_STRUCT_SIZE \
  XLA_AOT_STRUCT_SIZE(XlaAot_Buffer_Describe_Args, data)

/* --- The function table --- */

typedef struct {
  size_t struct_size;
  int major_version;
  int minor_version;

  void (*Error_Destroy)(XlaAot_Error* error);
  XlaAot_ErrorCode (*Error_GetCode)(const XlaAot_Error* error);
  void (*Error_Message)(XlaAot_Error_Message_Args* args);

  XlaAot_Error* (*Client_Create)(XlaAot_Client_Create_Args* args);
  void (*Client_Destroy)(XlaAot_Client* client);
  XlaAot_Error* (*Client_Load)(XlaAot_Client_Load_Args* args);

  void (*Executable_Destroy)(XlaAot_Executable* executable);
  XlaAot_Error* (*Executable_Signature)(XlaAot_Executable_Signature_Args* args);
  XlaAot_Error* (*Executable_ParameterShape)(XlaAot_Executable_Shape_Args* args);
  XlaAot_Error* (*Executable_ResultShape)(XlaAot_Executable_Shape_Args* args);
  XlaAot_Error* (*Executable_Execute)(XlaAot_Executable_Execute_Args* args);

  XlaAot_Error* (*Buffer_FromHost)(XlaAot_Buffer_FromHost_Args* args);
  XlaAot_Error* (*Buffer_Describe)(XlaAot_Buffer_Describe_Args* args);
  void (*Buffer_Destroy)(XlaAot_Buffer* buffer);
} XlaAot_Api;
#define XlaAot_Api_STRUCT_SIZE XLA_AOT_STRUCT_SIZE(XlaAot_Api, Buffer_Destroy)

/* The table of this library (never NULL; static storage). A caller checks
 * major_version and that struct_size covers the functions it uses. */
const XlaAot_Api* XlaAot_GetApi(void);

#ifdef __cplusplus
}
#endif

#endif /* XLA_AOT_C_API_H_ */
