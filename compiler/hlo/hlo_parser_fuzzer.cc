// libFuzzer target: the HLO text parser, then the verifier and the printer
// on whatever parses. Every input must end in a module or a clean error.
#include <cstddef>
#include <cstdint>

#include "absl/strings/string_view.h"
#include "compiler/hlo/hlo_parser.h"
#include "compiler/verifier/hlo_verifier.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  absl::string_view text(reinterpret_cast<const char*>(data), size);
  auto module = aot::ParseHloModule(text);
  if (!module.ok()) return 0;
  if (aot::VerifyHloModule(**module).ok()) {
    // A verified module prints back to text that parses again.
    auto again = aot::ParseHloModule((*module)->ToString());
    if (!again.ok()) __builtin_trap();
  }
  return 0;
}
