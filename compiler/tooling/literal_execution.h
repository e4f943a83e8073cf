#ifndef AOT_COMPILER_TOOLING_LITERAL_EXECUTION_H_
#define AOT_COMPILER_TOOLING_LITERAL_EXECUTION_H_

#include <cstdint>
#include <memory>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/time/time.h"
#include "absl/types/span.h"
#include "compiler/hlo/hlo_module.h"
#include "compiler/hlo/literal.h"
#include "runtime/executable/executable.h"

namespace aot {

// Runs a loaded executable on Literals (row-major logical data), one per
// HLO parameter (a tuple-typed argument is passed as its leaves,
// depth-first, as the executable takes it; leaves already flattened are
// accepted too): converts each argument to its parameter's physical layout, and the result leaves
// back into a Literal (a tuple when the result shape is one).
// `options` as Executable::ExecuteInto's (a participant's share of a
// multi-participant execution carries its CollectiveParams).
absl::StatusOr<Literal> ExecuteWithLiterals(const Executable& executable,
                                            absl::Span<const Literal> arguments,
                                            const ExecuteOptions& options = {});

// An executable whose entry packs sub-byte values (E(n)) embeds the module
// it compiled, which takes and returns each packed value as its u8 buffer
// (the compiler's LowerSubBytePacking runs before it is embedded; the
// executable's parameters and results keep the packed shapes). These move
// between the two forms, the bytes being the same: `shapes` are the
// embedded module's entry parameters with each packed one replaced by the
// executable's shape (for making logical arguments); the arguments and
// result convert from and to the embedded module's form where `module`
// (the embedded one, or the source module, which needs nothing) takes or
// gives u8 buffers. Nothing changes for an executable without packed
// values.
std::vector<Shape> LogicalParameterShapes(const Executable& executable,
                                          std::vector<Shape> module_parameters);
absl::StatusOr<std::vector<Literal>> ToEmbeddedModuleArguments(const Executable& executable,
                                                               const HloModule& module,
                                                               absl::Span<const Literal> arguments);
absl::StatusOr<Literal> FromEmbeddedModuleResult(const Executable& executable, Literal result);

// A multi-participant executable run on Literals: participant i on
// `arguments[i]` (RunParticipants); returns participant i's result at [i].
// `executables`: one every participant runs (the host) or one per
// participant (CUDA: each loaded on its participant's device).
absl::StatusOr<std::vector<Literal>> ExecuteReplicatedWithLiterals(
    absl::Span<const Executable* const> executables,
    absl::Span<const std::vector<Literal>> arguments,
    absl::Duration collective_timeout = absl::Seconds(60));
inline absl::StatusOr<std::vector<Literal>> ExecuteReplicatedWithLiterals(
    const Executable& executable, absl::Span<const std::vector<Literal>> arguments,
    absl::Duration collective_timeout = absl::Seconds(60)) {
  const Executable* one = &executable;
  return ExecuteReplicatedWithLiterals(absl::MakeConstSpan(&one, 1), arguments, collective_timeout);
}

// Physical argument and result buffers for one executable, made once from
// Literals (64-byte aligned, so the host runtime reads the arguments in
// place): Run() is then Executable::ExecuteInto alone, the steady state a
// server that keeps its buffers sees (aot-run's timed iterations).
class PreparedExecution {
 public:
  static absl::StatusOr<PreparedExecution> Create(const Executable& executable,
                                                  absl::Span<const Literal> arguments);
  absl::Status Run(const ExecuteOptions& options = {});
  // The argument leaves, in their physical layouts.
  const std::vector<absl::Span<const uint8_t>>& arguments() const { return arguments_; }
  // The result leaves of the last Run, in their physical layouts.
  const std::vector<absl::Span<uint8_t>>& results() const { return results_; }

 private:
  struct AlignedFree {
    void operator()(uint8_t* p) const;
  };
  using Buffer = std::unique_ptr<uint8_t[], AlignedFree>;
  static Buffer Allocate(size_t bytes);

  const Executable* executable_ = nullptr;
  std::vector<Buffer> storage_;
  std::vector<absl::Span<const uint8_t>> arguments_;
  std::vector<absl::Span<uint8_t>> results_;
};

struct Tolerance {
  double atol = 0;
  double rtol = 0;
  bool bitwise() const { return atol == 0 && rtol == 0; }
};

// The tolerance used to compare a compiled result with the interpreter's for
// an element type: bitwise for integers and pred; for floats a bound that
// covers libm/libdevice differences and summation order; for the narrow
// floats (f8*, f4e2m1fn) one step of the format.
Tolerance DefaultTolerance(PrimitiveType type);

// OK when `actual` matches `expected` (same shape; integers bitwise; floats
// within the tolerance, NaN matching NaN); otherwise InvalidArgument naming
// the first mismatching leaf and element and the number of mismatches.
absl::Status CompareLiterals(const Literal& expected, const Literal& actual,
                             const Tolerance& tolerance);
// Same, with DefaultTolerance per leaf type.
absl::Status CompareLiteralsWithDefaultTolerance(const Literal& expected, const Literal& actual);

}  // namespace aot

#endif  // AOT_COMPILER_TOOLING_LITERAL_EXECUTION_H_
