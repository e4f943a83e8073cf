// libFuzzer target: the JSON literal input every tool reads (aot-run
// --inputs, golden io). Every input must parse or fail cleanly, and what
// parses must print and parse back to the same text (a fixed point).
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>

#include "absl/strings/string_view.h"
#include "compiler/tooling/literal_json.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  absl::string_view text(reinterpret_cast<const char*>(data), size);
  auto literals = aot::ParseLiteralsJson(text, "arguments");
  if (!literals.ok()) return 0;
  std::string printed = aot::LiteralsToJson(*literals, "arguments");
  auto again = aot::ParseLiteralsJson(printed, "arguments");
  if (!again.ok() || aot::LiteralsToJson(*again, "arguments") != printed) std::abort();
  return 0;
}
