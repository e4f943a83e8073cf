// libFuzzer target: the runtime's loader on arbitrary bytes, as a server
// would receive them (binary or text format, guessed as Client does), on the
// host platform and on the CUDA platform device-less (no GPU needed). Every
// input must load or fail with a Status; a loaded executable is not run
// (kernel machine code is trusted once loaded: README).
#include <cstddef>
#include <cstdint>
#include <memory>

#include "absl/strings/string_view.h"
#include "runtime/executable/client.h"

namespace {

const aot::Client* MakeClient(const char* platform, bool device_less) {
  aot::LoadOptions options;
  options.device_less = device_less;
  options.memory_budget_bytes = int64_t{256} << 20;
  auto client = aot::Client::Create(platform, options);
  return client.ok() ? client->release() : nullptr;  // lives for the process
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  static const aot::Client* host = MakeClient("host", false);
  static const aot::Client* cuda = MakeClient("cuda", true);  // null without CUDA
  absl::string_view bytes(reinterpret_cast<const char*>(data), size);
  if (host != nullptr) (void)host->DeserializeExecutable(bytes);
  if (cuda != nullptr) (void)cuda->DeserializeExecutable(bytes);
  return 0;
}
