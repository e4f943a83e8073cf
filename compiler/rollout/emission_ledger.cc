#include "compiler/rollout/emission_ledger.h"

#include <optional>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "support/date.h"
#include "support/status_macros.h"

namespace aot {

const std::vector<EmissionFlag>& EmissionLedger() {
  static const auto* ledger = new std::vector<EmissionFlag>{
      {.name = "emit_inverse_and_hyperbolic_math",
       .description = "HLO opcodes acos, acosh, asin, asinh, atan, atanh, cosh, sinh in the "
                      "embedded module, and the libm functions their host kernels import",
       .runtime_release = "2026-12-02-78f502db",
       .runtime_support_since = "2026-12-02",
       .enabled_by_default = false,
       .hlo_opcodes = {"acos", "acosh", "asin", "asinh", "atan", "atanh", "cosh", "sinh"}},
      {.name = "emit_input_output_alias",
       .description = "the module's input_output_alias honoured: ExecutableProto."
                      "input_output_aliases, result leaves in (and thunks writing) their "
                      "parameters' buffers, so a donated argument becomes the result; off, "
                      "may-alias entries are dropped and must-alias ones do not compile",
       .runtime_release = "2026-12-02-a1e9ef6e",
       .runtime_support_since = "2026-12-02",
       .enabled_by_default = false},
      {.name = "emit_low_precision_gemm",
       .description = "f16 and bf16 dots on CUDA as GEMM thunks of element type F16 / BF16 "
                      "(cuBLAS with tensor cores and f32 accumulation) instead of generated "
                      "kernels; runtimes before its support refuse those GEMM element types",
       .runtime_release = "2026-12-02-65e14415",
       .runtime_support_since = "2026-12-02",
       .enabled_by_default = false},
      {.name = "emit_cudnn_convolution",
       .description = "convolutions on CUDA that cuDNN takes (f16/bf16/f32/f64, 2 or 3 spatial "
                      "dimensions, symmetric padding) as ConvolutionThunkProto (cuDNN) instead "
                      "of generated kernels, their filters copied to a packed layout where "
                      "needed; runtimes before its support do not know the thunk kind",
       .runtime_release = "2026-12-02-e5716b21",
       .runtime_support_since = "2026-12-02",
       .enabled_by_default = false},
      {.name = "emit_collectives",
       .description = "multi-replica executables: collective thunks (all-reduce, all-gather, "
                      "reduce-scatter, all-to-all, collective-permute, collective-broadcast, "
                      "replica-id, partition-id) and ExecutableProto.device_assignment; off, a "
                      "module with collectives or more than one replica does not compile; "
                      "runtimes before its support do not know the thunk kinds",
       .runtime_release = "2026-12-03-30a5ac05",
       .runtime_support_since = "2026-12-03",
       .enabled_by_default = false,
       .hlo_opcodes = {"all-reduce", "all-reduce-start", "all-reduce-done", "all-gather",
                       "all-gather-start", "all-gather-done", "reduce-scatter", "all-to-all",
                       "collective-permute", "collective-permute-start", "collective-permute-done",
                       "collective-broadcast"}},
      {.name = "emit_extended_element_types",
       .description = "the element types added to PrimitiveType on 2026-12-03 in artifacts "
                      "(shapes, LiteralProto c64s/c128s/narrow_ints/narrow_floats): the "
                      "complex types c64 and c128, computed on their real and imaginary parts, "
                      "and the narrow types (f8*, f4e2m1fn, s4/u4/s2/u2/s1/u1, one byte per "
                      "element), computed in f32 or 8-bit integers; off, a module with such a "
                      "value does not compile; runtimes before its support refuse the enum "
                      "values",
       // The release of the support commit (2026-12-03-c125f0cd) loads
       // these artifacts, but its aot-run cannot read the element types in
       // their embedded modules: it runs none of them (rollout-audit).
       .runtime_release = "2026-12-03-d1ae2d74",
       .runtime_support_since = "2026-12-03",
       .enabled_by_default = false},
      {.name = "emit_rng_state",
       .description = "XLA's rng op, drawn from the executable's random state: the HLO opcode "
                      "rng-get-and-update-state in the embedded module, and host kernels that "
                      "import the runtime's state symbol aot_rng_state (CUDA kernels: the "
                      "pointer aot_rng_state_ptr the runtime fills at load); runtimes before "
                      "its support refuse the opcode",
       .runtime_release = "2026-12-03-d1ae2d74",
       .runtime_support_since = "2026-12-03",
       .enabled_by_default = false,
       .hlo_opcodes = {"rng-get-and-update-state"}},
      {.name = "emit_packed_sub_byte_layouts",
       .description = "XLA's packed sub-byte layouts (E(4), E(2), E(1)) on entry parameters "
                      "and result leaves: LayoutProto.element_size_in_bits in the artifact's "
                      "shapes, buffers of ceil(elements * bits / 8) bytes packed as XLA's "
                      "PackIntN, unpacked and packed at the entry by the compiled code; off, "
                      "a module whose entry signature packs does not compile; runtimes before "
                      "its support size such buffers one byte per element and refuse them",
       // Not 2026-12-04-fd9c2736, the release of the support commit: its
       // aot-run cannot make arguments for packed entry values (the
       // compiler embeds the packed module since 574fb4a, cut after it).
       .runtime_release = "2026-12-07-c75c19a8",
       .runtime_support_since = "2026-12-07",
       .enabled_by_default = false},
      {.name = "emit_lapack_custom_calls",
       .description = "JAX's CPU LAPACK custom calls (typed FFI, lapack_{s,d,c,z}<routine>_ffi: "
                      "potrf, getrf, geqrf, geqp3, orgqr/ungqr, syevd/heevd, geev, gees, gehrd, "
                      "sytrd/hetrd, gesdd, trsm, gtsv) as custom-call thunks naming the "
                      "runtime's FFI handlers (runtime/ffi/lapack_handlers.h); off, a module "
                      "calling one does not compile; runtimes before its support have no "
                      "handler of those names and refuse the artifact at load",
       .runtime_release = "2026-12-07-0ab912f5",
       .runtime_support_since = "2026-12-07",
       .enabled_by_default = false,
       .custom_call_targets = {"lapack_*"}},
  };
  return *ledger;
}

const EmissionFlag* FindEmissionFlag(absl::string_view name) {
  for (const EmissionFlag& f : EmissionLedger()) {
    if (f.name == name) return &f;
  }
  return nullptr;
}

std::string EmissionFlagCommandLine(absl::string_view name) {
  return absl::StrCat("--xla_aot_", name);
}

const EmissionFlag* EmissionFlagForOpcode(absl::string_view opcode) {
  for (const EmissionFlag& f : EmissionLedger()) {
    for (const std::string& op : f.hlo_opcodes) {
      if (op == opcode) return &f;
    }
  }
  return nullptr;
}

bool MatchesTargetPattern(absl::string_view target, const std::vector<std::string>& patterns) {
  for (const std::string& p : patterns) {
    if (!p.empty() && p.back() == '*' ? absl::StartsWith(target, p.substr(0, p.size() - 1))
                                      : target == p) {
      return true;
    }
  }
  return false;
}

const EmissionFlag* EmissionFlagForCustomCall(absl::string_view target) {
  for (const EmissionFlag& f : EmissionLedger()) {
    if (MatchesTargetPattern(target, f.custom_call_targets)) return &f;
  }
  return nullptr;
}

Date EarliestSwitchDay(const Date& support) { return support.PlusDays(kForwardWindowDays + 1); }

absl::StatusOr<std::vector<LedgerViolation>> CheckEmissionLedger(
    const std::vector<EmissionFlag>& ledger, absl::string_view now_text) {
  AOT_ASSIGN_OR_RETURN(auto now, Date::Parse(now_text));
  std::vector<LedgerViolation> violations;
  auto date = [&](const EmissionFlag& f, const std::string& text,
                  absl::string_view field) -> std::optional<Date> {
    if (text.empty()) return std::nullopt;
    auto d = Date::Parse(text);
    if (!d.ok()) {
      violations.push_back({f.name, "BAD_DATE", absl::StrCat(field, ": ", d.status().message())});
      return std::nullopt;
    }
    return *d;
  };
  for (const EmissionFlag& f : ledger) {
    std::optional<Date> support = date(f, f.runtime_support_since, "runtime_support_since");
    std::optional<Date> enabled = date(f, f.enabled_since, "enabled_since");
    std::optional<Date> removed = date(f, f.fallback_removed_on, "fallback_removed_on");
    if (f.runtime_support_since.empty()) {
      violations.push_back({f.name, "NO_RUNTIME_SUPPORT_DATE",
                            "every emission flag records when runtime support was released"});
      continue;
    }
    if (!support) continue;
    if (f.enabled_by_default) {
      const Date earliest = EarliestSwitchDay(*support);
      for (const Date& d : {now, enabled.value_or(now)}) {
        if (d < earliest) {
          violations.push_back(
              {f.name, "EMITTED_TOO_EARLY",
               absl::StrCat(
                   "on by default on ", d.ToString(), ", but runtime support was released on ",
                   support->ToString(), ": runtimes of the last ", kForwardWindowDays,
                   " days cannot read it (turn the flag off until ", earliest.ToString(), ")")});
          break;
        }
      }
    } else if (removed) {
      violations.push_back({f.name, "FALLBACK_REMOVED_BEFORE_EMISSION",
                            "the old form's fallback was removed but the new form is not emitted "
                            "by default: artifacts still use the old form"});
    }
    if (removed && enabled) {
      if (*enabled > removed->MinusMonths(kBackwardWindowMonths)) {
        violations.push_back(
            {f.name, "FALLBACK_REMOVED_TOO_EARLY",
             absl::StrCat("fallback removed on ", removed->ToString(),
                          ", less than 6 months after the compiler stopped emitting the old "
                          "form (",
                          enabled->ToString(), "): keep it until 6 months after that date")});
      }
    }
    if (enabled && *enabled < *support) {
      violations.push_back({f.name, "ENABLED_BEFORE_SUPPORT",
                            "enabled_since is earlier than runtime_support_since"});
    }
  }
  return violations;
}

}  // namespace aot
