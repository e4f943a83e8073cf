// libFuzzer target: the golden corpus's JSON readers on arbitrary bytes.
// Every input goes through both a version's MANIFEST.json reader and a
// release file's reader (as LoadReleases parses it); each must give a value
// or a clean error, and what it accepts must write back and read again to
// the same value.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>

#include "harness/golden/golden_store.h"
#include "harness/release/release_snapshot.h"
#include "nlohmann/json.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  auto manifest = aot::Manifest::FromJson(text, "fuzz/MANIFEST.json");
  if (manifest.ok()) {
    auto again = aot::Manifest::FromJson(manifest->ToJson().dump(), "again");
    if (!again.ok() || again->ToJson() != manifest->ToJson()) std::abort();
  }
  nlohmann::json j = nlohmann::json::parse(text, nullptr, /*allow_exceptions=*/false);
  if (j.is_discarded()) return 0;
  auto release = aot::ReleaseFromJson(j, "fuzz/release.json");
  if (release.ok()) {
    auto again = aot::ReleaseFromJson(nlohmann::json(aot::ReleaseToJson(*release)), "again");
    if (!again.ok() || aot::ReleaseToJson(*again) != aot::ReleaseToJson(*release)) std::abort();
  }
  return 0;
}
