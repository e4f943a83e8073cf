#include "harness/golden/corpus.h"

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <map>

#include "absl/algorithm/container.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "compiler/target/target_config.h"
#include "compiler/tooling/flags.h"
#include "nlohmann/json.hpp"
#include "runtime/platform/host/cpu_features.h"
#include "support/file_io.h"
#include "support/status_macros.h"

namespace aot {

namespace fs = std::filesystem;

absl::StatusOr<std::vector<CorpusModule>> DiscoverModules(const std::string& golden_dir) {
  fs::path root = fs::path(golden_dir) / "modules";
  std::error_code ec;
  if (!fs::is_directory(root, ec)) {
    return absl::NotFoundError(absl::StrCat("no module directory ", root.string()));
  }
  std::vector<CorpusModule> modules;
  std::map<std::string, std::string> seen;
  for (const auto& suite : fs::directory_iterator(root)) {
    if (!suite.is_directory()) continue;
    for (const auto& file : fs::directory_iterator(suite.path())) {
      // HLO text, or StableHLO (converted to HLO when compiled).
      if (file.path().extension() != ".hlo" && file.path().extension() != ".mlir") continue;
      CorpusModule m;
      m.suite = suite.path().filename().string();
      m.test = file.path().stem().string();
      m.path = file.path().string();
      if (auto it = seen.find(m.test); it != seen.end()) {
        return absl::InvalidArgumentError(
            absl::StrCat("test name '", m.test, "' is used twice: ", it->second, " and ", m.path));
      }
      seen[m.test] = m.path;
      fs::path sidecar = file.path();
      sidecar.replace_extension(".options.json");
      if (fs::exists(sidecar)) {
        AOT_ASSIGN_OR_RETURN(auto text, ReadFileToString(sidecar.string(), 1 << 20));
        nlohmann::json j = nlohmann::json::parse(text, nullptr, /*allow_exceptions=*/false);
        if (j.is_discarded() || !j.is_object()) {
          return absl::InvalidArgumentError(absl::StrCat(sidecar.string(), ": not a JSON object"));
        }
        for (const auto& [key, value] : j.items()) {
          if ((key == "atol" || key == "rtol") && value.is_number() && value.get<double>() >= 0) {
            (key == "atol" ? m.atol : m.rtol) = value.get<double>();
          } else if (key == "seed" && value.is_number_unsigned()) {
            m.seed = value.get<uint64_t>();
          } else {
            return absl::InvalidArgumentError(absl::StrCat(
                sidecar.string(), ": unknown or invalid option '", key,
                "' (known: atol, rtol: non-negative numbers; seed: unsigned integer)"));
          }
        }
      }
      modules.push_back(std::move(m));
    }
  }
  std::sort(modules.begin(), modules.end(), [](const CorpusModule& a, const CorpusModule& b) {
    return std::tie(a.suite, a.test) < std::tie(b.suite, b.test);
  });
  return modules;
}

const std::vector<GoldenTarget>& GoldenTargets() {
  static const auto* targets = new std::vector<GoldenTarget>{
      {"host-x86-64-v3", "host-x86-64-v3", "host"},
      {"host-x86-64-v2", "host-x86-64-v2", "host"},
      {"cuda-sm_90", "h100", "cuda"},
      {"cuda-sm_80", "a100", "cuda"},
      // XLA's collective_ops_* targets: the replica count and the device
      // in the name; emit_collectives is on for them.
      {"collective_ops_host_4replica",
       "host-x86-64-v2",
       "host",
       {"collectives"},
       {"emit_collectives"},
       4},
      {"collective_ops_4gpu_h100", "h100", "cuda", {"collectives"}, {"emit_collectives"}, 4},
      // The complex element types, compiled with their emission flag (off
      // by default until 2026-12-17): the flag-on path's goldens.
      {"complex_types_host",
       "host-x86-64-v2",
       "host",
       {"complex_types"},
       {"emit_extended_element_types"}},
      {"complex_types_h100", "h100", "cuda", {"complex_types"}, {"emit_extended_element_types"}},
      // The narrow element types (f8*, f4e2m1fn, sub-byte integers), with
      // the same flag.
      {"narrow_types_host",
       "host-x86-64-v2",
       "host",
       {"narrow_types"},
       {"emit_extended_element_types"}},
      {"narrow_types_h100", "h100", "cuda", {"narrow_types"}, {"emit_extended_element_types"}},
      // Packed sub-byte entry values (E(n)): the narrow types' flag and
      // emit_packed_sub_byte_layouts (off by default until 2026-12-18).
      {"packed_types_host",
       "host-x86-64-v2",
       "host",
       {"packed_types"},
       {"emit_extended_element_types", "emit_packed_sub_byte_layouts"}},
      {"packed_types_h100",
       "h100",
       "cuda",
       {"packed_types"},
       {"emit_extended_element_types", "emit_packed_sub_byte_layouts"}},
      // SPMD programs (the spmd suite's shardings), partitioned for 8
      // partitions and run as 8 participants (emit_collectives).
      {"spmd_host_8", "host-x86-64-v2", "host", {"spmd"}, {"emit_collectives"}, 0, 8},
      // The flag-on paths of the other emission flags, so that every flag
      // has artifacts the released runtimes are run on (rollout-audit):
      // the opcodes of emit_inverse_and_hyperbolic_math, ...
      {"inverse_math_host",
       "host-x86-64-v2",
       "host",
       {"inverse_math"},
       {"emit_inverse_and_hyperbolic_math"}},
      {"inverse_math_h100", "h100", "cuda", {"inverse_math"}, {"emit_inverse_and_hyperbolic_math"}},
      // ... donated state updated in place (must-alias) ...
      {"aliasing_host", "host-x86-64-v2", "host", {"aliasing"}, {"emit_input_output_alias"}},
      {"aliasing_h100", "h100", "cuda", {"aliasing"}, {"emit_input_output_alias"}},
      // ... the rng op's draws from the executable's state ...
      {"rng_state_host", "host-x86-64-v2", "host", {"rng_state"}, {"emit_rng_state"}},
      {"rng_state_h100", "h100", "cuda", {"rng_state"}, {"emit_rng_state"}},
      // ... JAX's CPU LAPACK custom calls as FFI thunks (host only: the
      // handlers run on the host's LAPACK; complex operands need the
      // extended element types) ...
      {"lapack_host",
       "host-x86-64-v2",
       "host",
       {"lapack"},
       {"emit_extended_element_types", "emit_lapack_custom_calls"}},
      // ... and the two CUDA-only flags on suites of the main corpus: f16 /
      // bf16 dots as cuBLAS GEMMs of their type, convolutions as cuDNN's.
      {"low_precision_gemm_h100", "h100", "cuda", {"dtypes"}, {"emit_low_precision_gemm"}},
      {"cudnn_conv_h100", "h100", "cuda", {"conv_pool"}, {"emit_cudnn_convolution"}},
  };
  return *targets;
}

std::vector<CorpusModule> ModulesForTarget(const std::vector<CorpusModule>& modules,
                                           const GoldenTarget& target) {
  std::vector<CorpusModule> out;
  for (const CorpusModule& m : modules) {
    const bool targeted = absl::c_linear_search(kTargetedSuites, m.suite);
    const bool selected =
        target.suites.empty() ? !targeted : absl::c_linear_search(target.suites, m.suite);
    if (selected) out.push_back(m);
  }
  return out;
}

std::vector<std::string> SelectGoldenTargets(const std::vector<std::string>& requested,
                                             absl::string_view platform) {
  if (!requested.empty()) return requested;
  std::vector<std::string> names;
  for (const GoldenTarget& t : GoldenTargets()) {
    if (platform.empty() || t.platform == platform) names.push_back(t.name);
  }
  return names;
}

std::vector<std::string> RunnableHostGoldenTargets(const std::set<std::string>& cpu_features) {
  const HostIsaLevel best = BestHostIsaLevel(cpu_features);
  std::vector<std::string> names;
  for (const GoldenTarget& t : GoldenTargets()) {
    if (t.platform != "host") continue;
    auto spec = ShippedTargetConfig(t.target_config);
    if (!spec.ok()) continue;
    HostIsaLevel level = spec->device_description().capability().host().isa_level();
    // x86-64-v2 is the floor every host golden set includes (the runtime
    // reports a lower CPU's replays as skipped, naming what is missing).
    if (level <= std::max(best, X86_64_V2)) names.push_back(t.name);
  }
  return names;
}

absl::StatusOr<GoldenTarget> FindGoldenTarget(absl::string_view name) {
  std::vector<std::string> names;
  for (const GoldenTarget& t : GoldenTargets()) {
    if (t.name == name) return t;
    names.push_back(t.name);
  }
  return absl::NotFoundError(
      absl::StrCat("unknown golden target '", name, "' (known: ", absl::StrJoin(names, ", "), ")"));
}

std::string VersionDir(const std::string& golden_dir, absl::string_view target, int version) {
  return (fs::path(golden_dir) / "executables" / std::string(target) / absl::StrCat("v", version))
      .string();
}

absl::StatusOr<std::vector<int>> DiscoverVersions(const std::string& golden_dir,
                                                  absl::string_view target) {
  fs::path dir = fs::path(golden_dir) / "executables" / std::string(target);
  std::vector<int> versions;
  std::error_code ec;
  if (fs::is_directory(dir, ec)) {
    for (const auto& entry : fs::directory_iterator(dir)) {
      if (!entry.is_directory()) continue;
      std::string name = entry.path().filename().string();
      int v;
      if (name.size() < 2 || name[0] != 'v' || !absl::SimpleAtoi(name.substr(1), &v) || v < 0 ||
          name.substr(1) != absl::StrCat(v)) {
        continue;
      }
      // A version has a MANIFEST.json (format 2 holds nothing else) or, in
      // format 1, at least one artifact.
      bool is_version = fs::exists(entry.path() / "MANIFEST.json", ec);
      for (const auto& f : fs::directory_iterator(entry.path(), ec)) {
        if (f.path().extension() == ".pbtxt") is_version = true;
      }
      if (is_version) versions.push_back(v);
    }
  }
  if (versions.empty()) {
    return absl::NotFoundError(absl::StrCat("target '", target, "' has no golden versions under ",
                                            dir.string(), " (expected v<N>/ directories)"));
  }
  std::sort(versions.begin(), versions.end());
  return versions;
}

std::vector<int> SelectVersions(const std::vector<int>& versions, bool all_versions) {
  if (all_versions || versions.size() <= 2) return versions;
  return {versions.front(), versions[versions.size() - 2]};
}

namespace {

absl::StatusOr<bool> BoolFromEnvironment(const char* name) {
  const char* value = std::getenv(name);
  if (value == nullptr || *value == '\0') return false;
  auto parsed = ParseBool(value);
  if (!parsed.ok()) {
    return absl::InvalidArgumentError(
        absl::StrCat(name, "=", value, " is not a boolean (use 1/0, true/false)"));
  }
  return *parsed;
}

}  // namespace

absl::StatusOr<bool> AllVersionsFromEnvironment() {
  return BoolFromEnvironment("XLA_AOT_TEST_ALL_VERSIONS");
}

absl::StatusOr<bool> UpdateGoldensFromEnvironment() {
  return BoolFromEnvironment("XLA_AOT_UPDATE_GOLDENS");
}

}  // namespace aot
