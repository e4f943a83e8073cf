#ifndef AOT_COMPILER_BACKEND_COMPILE_ENV_FLAGS_H_
#define AOT_COMPILER_BACKEND_COMPILE_ENV_FLAGS_H_

// XLA_AOT_FLAGS: compile flags from the environment, in the spirit of
// XLA_FLAGS, read by the compiler library itself, so a program that compiles
// through the C++ API or the Python module dumps (or turns on an emission
// flag) without being changed:
//
//   XLA_AOT_FLAGS="--xla_aot_dump_to=dumps --xla_aot_emit_collectives=true"
//
// Flags: --xla_aot_dump_to=DIR (every stage of every compile, as
// module_NNNN.<name>.<stage>.<ext>) and the emission flags of the staged
// rollout, --xla_aot_<flag>[=true|false]. Any other flag is an error
// naming it.

#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"

namespace aot {

inline constexpr char kCompileFlagsVariable[] = "XLA_AOT_FLAGS";

struct EnvironmentCompileFlags {
  std::string dump_to;
  std::vector<std::string> emission_flags_on;
  std::vector<std::string> emission_flags_off;
};

// Parses the variable's text (flags separated by blanks). InvalidArgument
// "XLA_AOT_FLAGS: unknown flag '--x' (known: ...)" and the like.
absl::StatusOr<EnvironmentCompileFlags> ParseCompileFlags(absl::string_view text);

// ParseCompileFlags of the variable (none set: no flags).
absl::StatusOr<EnvironmentCompileFlags> ReadCompileFlagsFromEnvironment();

}  // namespace aot

#endif  // AOT_COMPILER_BACKEND_COMPILE_ENV_FLAGS_H_
