#ifndef AOT_HARNESS_RELEASE_OLD_RUN_VERDICT_H_
#define AOT_HARNESS_RELEASE_OLD_RUN_VERDICT_H_

// An older runtime's verdict on one artifact, header only with no
// dependencies, so that the old-runtime runs (old_runs.h) and the release
// qualification report (harness/report/) share it without the report
// depending on the release library.
//
// passed       ran and matched the old tool's reference interpreter;
// validated    loaded and validated, not executed or not compared (a CUDA
//              artifact where no device is; the reason is the detail);
// mismatched   ran, and differs from the old tool's reference;
// refused      the old runtime refused to load it (its error);
// not_runnable the old tool could not run it for another reason: it could
//              not make the arguments, its reference interpreter failed, it
//              crashed or printed nothing for it (why).

#include <optional>
#include <string_view>

namespace aot {

enum class OldRunVerdict { kPassed, kValidated, kMismatched, kRefused, kNotRunnable };
inline constexpr OldRunVerdict kOldRunVerdicts[] = {
    OldRunVerdict::kPassed, OldRunVerdict::kValidated, OldRunVerdict::kMismatched,
    OldRunVerdict::kRefused, OldRunVerdict::kNotRunnable};

// "passed", "validated", "mismatched", "refused", "not_runnable".
inline const char* OldRunVerdictName(OldRunVerdict verdict) {
  switch (verdict) {
    case OldRunVerdict::kPassed:
      return "passed";
    case OldRunVerdict::kValidated:
      return "validated";
    case OldRunVerdict::kMismatched:
      return "mismatched";
    case OldRunVerdict::kRefused:
      return "refused";
    case OldRunVerdict::kNotRunnable:
      return "not_runnable";
  }
  return "not_runnable";
}

inline std::optional<OldRunVerdict> OldRunVerdictFromName(std::string_view name) {
  for (OldRunVerdict v : kOldRunVerdicts) {
    if (std::string_view(OldRunVerdictName(v)) == name) return v;
  }
  return std::nullopt;
}

// One letter for tables: P, V, M, R, N.
inline char OldRunVerdictLetter(OldRunVerdict verdict) {
  return "PVMRN"[static_cast<int>(verdict)];
}

// The release runs the artifact: passed or validated.
inline bool OldRunOk(OldRunVerdict verdict) {
  return verdict == OldRunVerdict::kPassed || verdict == OldRunVerdict::kValidated;
}

}  // namespace aot

#endif  // AOT_HARNESS_RELEASE_OLD_RUN_VERDICT_H_
