/* The C API, from C: errors (codes and messages), struct-size checks,
 * loading an artifact (argv[1], a golden host artifact of add_mul:
 * (a + b) * a - b over f32[4,8]; binary, or text when named .pbtxt), its
 * signature and shapes, executing on borrowed and copied buffers, and
 * refusals with the right codes (a shape mismatch, garbage bytes, a newer
 * runtime ABI). Exit 0 when every check holds; each failed check prints one
 * line. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "runtime/capi/xla_aot_c_api.h"

static int failures = 0;
#define CHECK(cond)                                                  \
  do {                                                               \
    if (!(cond)) {                                                   \
      fprintf(stderr, "%s:%d: CHECK failed: %s\n", __FILE__, __LINE__, #cond); \
      ++failures;                                                    \
    }                                                                \
  } while (0)

static const XlaAot_Api* api;

/* The error's message (a static copy) and destroys it; "" for NULL. */
static const char* Consume(XlaAot_Error* error, XlaAot_ErrorCode* code) {
  static char text[4096];
  text[0] = 0;
  *code = api->Error_GetCode(error);
  if (error != NULL) {
    XlaAot_Error_Message_Args m = {XlaAot_Error_Message_Args_STRUCT_SIZE};
    m.error = error;
    api->Error_Message(&m);
    snprintf(text, sizeof(text), "%.*s", (int)m.message_size, m.message);
    api->Error_Destroy(error);
  }
  return text;
}

static char* ReadFile(const char* path, size_t* size) {
  FILE* f = fopen(path, "rb");
  if (f == NULL) return NULL;
  fseek(f, 0, SEEK_END);
  long n = ftell(f);
  fseek(f, 0, SEEK_SET);
  char* bytes = malloc((size_t)n + 1);
  *size = fread(bytes, 1, (size_t)n, f);
  bytes[*size] = 0; /* for strstr on a text artifact */
  fclose(f);
  return bytes;
}

static XlaAot_Executable* Load(XlaAot_Client* client, const char* bytes, size_t size,
                               XlaAot_ErrorCode* code, const char** message) {
  XlaAot_Client_Load_Args load = {XlaAot_Client_Load_Args_STRUCT_SIZE};
  load.client = client;
  load.bytes = bytes;
  load.size = size;
  *message = Consume(api->Client_Load(&load), code);
  return *code == XLA_AOT_OK ? load.executable : NULL;
}

static XlaAot_Buffer* Buffer(const float* data, int borrow) {
  static const int64_t dims[2] = {4, 8};
  XlaAot_Buffer_FromHost_Args args = {XlaAot_Buffer_FromHost_Args_STRUCT_SIZE};
  args.element_type = XLA_AOT_F32;
  args.dimensions = dims;
  args.rank = 2;
  args.data = data;
  args.byte_size = 32 * sizeof(float);
  args.borrow = borrow;
  XlaAot_ErrorCode code;
  Consume(api->Buffer_FromHost(&args), &code);
  return code == XLA_AOT_OK ? args.buffer : NULL;
}

int main(int argc, char** argv) {
  if (argc != 2) {
    fprintf(stderr, "usage: c_api_test ADD_MUL_ARTIFACT\n");
    return 2;
  }
  api = XlaAot_GetApi();
  CHECK(api != NULL);
  CHECK(api->struct_size >= XlaAot_Api_STRUCT_SIZE);
  CHECK(api->major_version == XLA_AOT_C_API_MAJOR);

  XlaAot_ErrorCode code;
  const char* message;

  /* A caller's struct smaller than what the library reads. */
  XlaAot_Client_Create_Args small = {sizeof(size_t)};
  message = Consume(api->Client_Create(&small), &code);
  CHECK(code == XLA_AOT_INVALID_ARGUMENT);
  CHECK(strstr(message, "struct_size") != NULL);

  XlaAot_Client_Create_Args bad = {XlaAot_Client_Create_Args_STRUCT_SIZE};
  bad.platform = "no-such-platform";
  message = Consume(api->Client_Create(&bad), &code);
  CHECK(code != XLA_AOT_OK);
  CHECK(strstr(message, "no-such-platform") != NULL);

  XlaAot_Client_Create_Args create = {XlaAot_Client_Create_Args_STRUCT_SIZE};
  create.platform = "host";
  message = Consume(api->Client_Create(&create), &code);
  CHECK(code == XLA_AOT_OK);
  if (code != XLA_AOT_OK) {
    fprintf(stderr, "Client_Create: %s\n", message);
    return 1;
  }
  XlaAot_Client* client = create.client;

  Load(client, "\x01\x02garbage", 9, &code, &message);
  CHECK(code == XLA_AOT_INVALID_ARGUMENT);

  size_t size = 0;
  char* bytes = ReadFile(argv[1], &size);
  if (bytes == NULL) {
    fprintf(stderr, "cannot read %s\n", argv[1]);
    return 2;
  }
  XlaAot_Executable* executable = Load(client, bytes, size, &code, &message);
  CHECK(executable != NULL);
  if (executable == NULL) {
    fprintf(stderr, "Client_Load: %s\n", message);
    return 1;
  }

  /* A newer runtime ABI than this library's: FAILED_PRECONDITION. A text
   * artifact (.pbtxt) gets its runtime_abi_version rewritten; a binary one
   * gets abi_version { runtime_abi_version: 999 } appended (ExecutableProto
   * field 7, AbiVersionProto field 1: parsing merges the repeated message
   * and its last value wins). */
  {
    char* newer = malloc(size + 16);
    size_t newer_size = 0;
    size_t path_size = strlen(argv[1]);
    if (path_size >= 6 && strcmp(argv[1] + path_size - 6, ".pbtxt") == 0) {
      const char* key = "runtime_abi_version: ";
      char* at = strstr(bytes, key);
      CHECK(at != NULL);
      if (at != NULL) {
        size_t prefix = (size_t)(at - bytes) + strlen(key);
        memcpy(newer, bytes, prefix);
        int n = sprintf(newer + prefix, "999");
        const char* rest = bytes + prefix;
        while (*rest >= '0' && *rest <= '9') ++rest;
        size_t rest_size = size - (size_t)(rest - bytes);
        memcpy(newer + prefix + n, rest, rest_size);
        newer_size = prefix + (size_t)n + rest_size;
      }
    } else {
      static const char abi_999[] = {0x3a, 0x03, 0x08, (char)0xe7, 0x07};
      memcpy(newer, bytes, size);
      memcpy(newer + size, abi_999, sizeof(abi_999));
      newer_size = size + sizeof(abi_999);
    }
    if (newer_size > 0) {
      XlaAot_Executable* refused = Load(client, newer, newer_size, &code, &message);
      CHECK(refused == NULL);
      CHECK(code == XLA_AOT_FAILED_PRECONDITION);
    }
    free(newer);
  }

  XlaAot_Executable_Signature_Args signature = {XlaAot_Executable_Signature_Args_STRUCT_SIZE};
  signature.executable = executable;
  Consume(api->Executable_Signature(&signature), &code);
  CHECK(code == XLA_AOT_OK);
  CHECK(signature.num_parameters == 2);
  CHECK(signature.num_results == 1);

  XlaAot_Executable_Shape_Args shape = {XlaAot_Executable_Shape_Args_STRUCT_SIZE};
  shape.executable = executable;
  shape.shape.struct_size = XlaAot_Shape_STRUCT_SIZE;
  shape.index = 1;
  Consume(api->Executable_ParameterShape(&shape), &code);
  CHECK(code == XLA_AOT_OK);
  CHECK(shape.shape.element_type == XLA_AOT_F32);
  CHECK(shape.shape.rank == 2);
  CHECK(shape.shape.rank == 2 && shape.shape.dimensions[0] == 4 && shape.shape.dimensions[1] == 8);
  CHECK(shape.shape.rank == 2 && shape.shape.minor_to_major[0] == 1);
  CHECK(shape.shape.byte_size == 128);
  shape.index = 2;
  Consume(api->Executable_ParameterShape(&shape), &code);
  CHECK(code == XLA_AOT_OUT_OF_RANGE);

  float a[32], b[32];
  for (int i = 0; i < 32; ++i) {
    a[i] = 0.5f * (float)i - 3.0f;
    b[i] = 1.0f / (float)(i + 1);
  }
  XlaAot_Buffer* args[2] = {Buffer(a, /*borrow=*/1), Buffer(b, /*borrow=*/0)};
  CHECK(args[0] != NULL && args[1] != NULL);
  XlaAot_Buffer* results[1] = {NULL};
  XlaAot_Executable_Execute_Args execute = {XlaAot_Executable_Execute_Args_STRUCT_SIZE};
  execute.executable = executable;
  execute.arguments = args;
  execute.num_arguments = 2;
  execute.results = results;
  execute.num_results = 1;
  message = Consume(api->Executable_Execute(&execute), &code);
  CHECK(code == XLA_AOT_OK);
  if (code != XLA_AOT_OK) fprintf(stderr, "Executable_Execute: %s\n", message);
  if (results[0] != NULL) {
    XlaAot_Buffer_Describe_Args describe = {XlaAot_Buffer_Describe_Args_STRUCT_SIZE};
    describe.buffer = results[0];
    describe.shape.struct_size = XlaAot_Shape_STRUCT_SIZE;
    Consume(api->Buffer_Describe(&describe), &code);
    CHECK(code == XLA_AOT_OK);
    CHECK(describe.shape.byte_size == 128);
    const float* out = (const float*)describe.data;
    for (int i = 0; i < 32; ++i) {
      float expected = (a[i] + b[i]) * a[i] - b[i];
      CHECK(fabsf(out[i] - expected) <= 1e-5f * (1.0f + fabsf(expected)));
    }
    api->Buffer_Destroy(results[0]);
  }

  /* A buffer of another shape: INVALID_ARGUMENT naming both. */
  {
    static const int64_t dims[1] = {32};
    XlaAot_Buffer_FromHost_Args flat = {XlaAot_Buffer_FromHost_Args_STRUCT_SIZE};
    flat.element_type = XLA_AOT_F32;
    flat.dimensions = dims;
    flat.rank = 1;
    flat.data = a;
    flat.byte_size = sizeof(a);
    Consume(api->Buffer_FromHost(&flat), &code);
    CHECK(code == XLA_AOT_OK);
    XlaAot_Buffer* wrong[2] = {flat.buffer, args[1]};
    execute.arguments = wrong;
    message = Consume(api->Executable_Execute(&execute), &code);
    CHECK(code == XLA_AOT_INVALID_ARGUMENT);
    CHECK(strstr(message, "f32[32]") != NULL && strstr(message, "f32[4,8]") != NULL);
    api->Buffer_Destroy(flat.buffer);
    /* A byte size that does not match the shape. */
    flat.byte_size = 3;
    Consume(api->Buffer_FromHost(&flat), &code);
    CHECK(code == XLA_AOT_INVALID_ARGUMENT);
  }

  /* The element types of 2026-12-03: c64 is 8 bytes an element, so 32 of
   * them fill 256 bytes and 128 do not; an 8-bit float takes one byte. */
  {
    static const int64_t dims[1] = {32};
    static uint8_t raw[256];
    XlaAot_Buffer_FromHost_Args c = {XlaAot_Buffer_FromHost_Args_STRUCT_SIZE};
    c.element_type = XLA_AOT_C64;
    c.dimensions = dims;
    c.rank = 1;
    c.data = raw;
    c.byte_size = sizeof(raw);
    Consume(api->Buffer_FromHost(&c), &code);
    CHECK(code == XLA_AOT_OK);
    api->Buffer_Destroy(c.buffer);
    c.element_type = XLA_AOT_F8E4M3FN;
    Consume(api->Buffer_FromHost(&c), &code);
    CHECK(code == XLA_AOT_INVALID_ARGUMENT);
    c.byte_size = 32;
    Consume(api->Buffer_FromHost(&c), &code);
    CHECK(code == XLA_AOT_OK);
    api->Buffer_Destroy(c.buffer);
  }

  /* Packed sub-byte buffers (minor version 1): s4[5] with E(4) is 3 bytes,
   * and Describe reports the packing; E(2) on s4 is refused. A caller of
   * minor version 0 (the smaller struct_size) never has the field read. */
  {
    static const int64_t dims[1] = {5};
    static const uint8_t packed[3] = {0x1e, 0x38, 0x70};
    XlaAot_Buffer_FromHost_Args p = {XlaAot_Buffer_FromHost_Args_STRUCT_SIZE_V1_1};
    p.element_type = XLA_AOT_S4;
    p.dimensions = dims;
    p.rank = 1;
    p.data = packed;
    p.byte_size = sizeof(packed);
    p.element_size_in_bits = 4;
    Consume(api->Buffer_FromHost(&p), &code);
    CHECK(code == XLA_AOT_OK);
    XlaAot_Buffer_Describe_Args describe = {XlaAot_Buffer_Describe_Args_STRUCT_SIZE};
    describe.buffer = p.buffer;
    describe.shape.struct_size = XlaAot_Shape_STRUCT_SIZE_V1_1;
    Consume(api->Buffer_Describe(&describe), &code);
    CHECK(code == XLA_AOT_OK);
    CHECK(describe.shape.byte_size == 3 && describe.shape.element_size_in_bits == 4);
    api->Buffer_Destroy(p.buffer);
    p.element_size_in_bits = 2;
    message = Consume(api->Buffer_FromHost(&p), &code);
    CHECK(code == XLA_AOT_INVALID_ARGUMENT);
    CHECK(strstr(message, "element_size_in_bits 2") != NULL);
    p.struct_size = XlaAot_Buffer_FromHost_Args_STRUCT_SIZE; /* minor 0: 5 bytes unpacked */
    Consume(api->Buffer_FromHost(&p), &code);
    CHECK(code == XLA_AOT_INVALID_ARGUMENT);
    p.byte_size = 5;
    Consume(api->Buffer_FromHost(&p), &code);
    CHECK(code == XLA_AOT_OK);
    api->Buffer_Destroy(p.buffer);
  }

  api->Buffer_Destroy(args[0]);
  api->Buffer_Destroy(args[1]);
  api->Executable_Destroy(executable);
  api->Client_Destroy(client);
  free(bytes);
  if (failures == 0) printf("c_api_test: all checks passed\n");
  return failures == 0 ? 0 : 1;
}
