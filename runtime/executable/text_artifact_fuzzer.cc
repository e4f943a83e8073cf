// libFuzzer target: the text-format artifact parser (golden .pbtxt files)
// and, for what parses, the loader's validation on the host platform.
#include <cstddef>
#include <cstdint>

#include "absl/strings/string_view.h"
#include "runtime/executable/client.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  static const aot::Client* host = [] {
    aot::LoadOptions options;
    options.memory_budget_bytes = int64_t{256} << 20;
    auto client = aot::Client::Create("host", options);
    return client.ok() ? client->release() : nullptr;
  }();
  absl::string_view text(reinterpret_cast<const char*>(data), size);
  auto proto = aot::ParseExecutableProto(text, aot::ArtifactFormat::kText);
  if (proto.ok() && host != nullptr) (void)host->Load(*std::move(proto));
  return 0;
}
