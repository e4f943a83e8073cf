#include "compiler/backend/compile_env_flags.h"

#include <cstdlib>

#include "absl/status/status.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"
#include "compiler/rollout/emission_ledger.h"
#include "support/bool_text.h"
#include "support/status_macros.h"

namespace aot {

absl::StatusOr<EnvironmentCompileFlags> ParseCompileFlags(absl::string_view text) {
  EnvironmentCompileFlags out;
  for (absl::string_view token :
       absl::StrSplit(text, absl::ByAnyChar(" \t\n"), absl::SkipEmpty())) {
    const size_t eq = token.find('=');
    const absl::string_view name = token.substr(0, eq);
    const bool has_value = eq != absl::string_view::npos;
    const absl::string_view value = has_value ? token.substr(eq + 1) : "";
    auto bad = [&](absl::string_view why) {
      return absl::InvalidArgumentError(
          absl::StrCat(kCompileFlagsVariable, ": ", token, ": ", why));
    };
    if (name == "--xla_aot_dump_to") {
      if (value.empty()) return bad("needs a directory (--xla_aot_dump_to=DIR)");
      out.dump_to = std::string(value);
      continue;
    }
    const EmissionFlag* flag = nullptr;
    for (const EmissionFlag& f : EmissionLedger()) {
      if (name == EmissionFlagCommandLine(f.name)) flag = &f;
    }
    if (flag == nullptr) {
      std::vector<std::string> known = {"--xla_aot_dump_to"};
      for (const EmissionFlag& f : EmissionLedger())
        known.push_back(EmissionFlagCommandLine(f.name));
      return absl::InvalidArgumentError(absl::StrCat(kCompileFlagsVariable, ": unknown flag '",
                                                     name, "' (known: ", absl::StrJoin(known, ", "),
                                                     ")"));
    }
    bool on = true;
    if (has_value) {
      auto parsed = ParseBool(value);
      AOT_RETURN_IF_ERROR_AND(parsed, bad(_.message()));
      on = *parsed;
    }
    (on ? out.emission_flags_on : out.emission_flags_off).push_back(flag->name);
  }
  return out;
}

absl::StatusOr<EnvironmentCompileFlags> ReadCompileFlagsFromEnvironment() {
  const char* text = std::getenv(kCompileFlagsVariable);
  if (text == nullptr) return EnvironmentCompileFlags();
  return ParseCompileFlags(text);
}

}  // namespace aot
