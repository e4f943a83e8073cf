// libFuzzer target: the StableHLO text reader and the conversion to HLO,
// then the HLO parser and verifier on what converts. Every input must end
// in a module or a clean, positioned error; a converted module the HLO
// parser refuses is a conversion bug (it writes only HLO it checked).
#include <cstddef>
#include <cstdint>

#include "absl/strings/string_view.h"
#include "compiler/hlo/hlo_module_loader.h"
#include "compiler/stablehlo/stablehlo_to_hlo.h"
#include "compiler/verifier/hlo_verifier.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  absl::string_view text(reinterpret_cast<const char*>(data), size);
  auto tests = aot::stablehlo::ListStableHloTests(text, "fuzz.mlir");
  if (!tests.ok()) return 0;
  for (const aot::stablehlo::StableHloTest& test : *tests) {
    auto loaded = aot::LoadStableHloProgram(test.text, "fuzz.mlir", test.first_line, test.function);
    if (!loaded.ok()) continue;
    (void)aot::AtSource(*loaded, aot::VerifyHloModule(*loaded->module));
  }
  return 0;
}
