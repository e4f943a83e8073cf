// aot-run, several participants (replicas x partitions of one executable):
// each on its own thread, compared replica by replica.

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "absl/strings/strip.h"
#include "absl/time/time.h"
#include "compiler/backend/compiler.h"
#include "compiler/backend/embedded_constants.h"
#include "compiler/hlo/hlo_module.h"
#include "compiler/hlo/hlo_module_loader.h"
#include "compiler/interpreter/evaluator.h"
#include "compiler/interpreter/replicated_evaluator.h"
#include "compiler/passes/spmd_partitioner.h"
#include "compiler/target/target_config.h"
#include "compiler/target/target_selection.h"
#include "compiler/tooling/compile_tool.h"
#include "compiler/tooling/input_files.h"
#include "compiler/tooling/literal_execution.h"
#include "compiler/tooling/literal_json.h"
#include "compiler/tooling/random_literal.h"
#include "compiler/tooling/run_runner.h"
#include "compiler/tooling/run_summary.h"
#include "compiler/tooling/stablehlo_checks.h"
#include "compiler/verifier/hlo_verifier.h"
#include "nlohmann/json.hpp"
#include "runtime/executable/client.h"
#include "support/file_io.h"
#include "support/status_macros.h"

namespace aot {
namespace run_internal {

int Runner::WriteReplicaOutputs(const std::vector<Literal>& results, size_t index, size_t count) {
  if (options_.outputs_path.empty()) return 0;
  const std::string out_path = OutputPathFor(options_.outputs_path, index, count);
  // Each replica's entry is LiteralsToJson's own object, so the format of a
  // result list is written once.
  std::vector<std::string> entries;
  for (const Literal& result : results) {
    entries.push_back(std::string(absl::StripTrailingAsciiWhitespace(
        LiteralsToJson(absl::MakeConstSpan(&result, 1), "results"))));
  }
  const std::string json =
      absl::StrCat("{\"replicas\": [\n", absl::StrJoin(entries, ",\n"), "\n]}\n");
  if (absl::Status s = WriteFileAtomically(out_path, json); !s.ok()) return Fail(s, 1);
  return 0;
}

// CUDA: one device per participant (its device assignment's), the
// executable loaded on each; the host runs the one loaded executable on
// every participant's thread.
int Runner::PerParticipant(const std::string& path, const Executable& exe,
                           std::vector<std::unique_ptr<Executable>>* per_device,
                           std::vector<const Executable*>* executables) {
  executables->assign(1, &exe);
  if (exe.platform()->kind() != PLATFORM_CUDA) return 0;
  executables->clear();
  const auto& device_ids = exe.proto().device_assignment().device_ids();
  for (int64_t p = 0; p < exe.participant_count(); ++p) {
    const int ordinal = static_cast<int>(p < device_ids.size() ? device_ids[p] : p);
    auto client = ClientFor(RunPlatform::kCuda, ordinal);
    AOT_RETURN_IF_ERROR_AND(client, Fail(_, 2));
    auto loaded = (*client)->Load(exe.proto());
    if (!loaded.ok()) {
      return Fail(WithPath(path, absl::Status(loaded.status().code(),
                                              absl::StrCat("cannot load on CUDA device ", ordinal,
                                                           ": ", loaded.status().message()))),
                  1);
    }
    executables->push_back(loaded->get());
    per_device->push_back(*std::move(loaded));
  }
  return 0;
}

int Runner::ExecuteReplicas(const std::string& path, const Executable& exe,
                            const Shape& result_shape, double load_ms,
                            const std::vector<std::vector<Literal>>& arguments,
                            const HloModule* reference_module, size_t index, size_t count) {
  const int64_t participants = exe.participant_count();
  const std::string label = absl::StrCat(path, " (", participants, " participants)");
  std::vector<std::unique_ptr<Executable>> per_device;
  std::vector<const Executable*> executables;
  if (int rc = PerParticipant(path, exe, &per_device, &executables); rc != 0) return rc;
  RunTiming timing;
  timing.load_ms = load_ms;
  auto start = std::chrono::steady_clock::now();
  auto results = ExecuteReplicatedWithLiterals(executables, arguments, options_.collective_timeout);
  timing.first_ms = MillisSince(start);
  if (!results.ok()) {
    return NotExecuted(path, label, result_shape, load_ms, results.status());
  }
  // Steady state: all participants again, each iteration timed whole (the
  // threads' start and the rendezvous included).
  std::vector<double> steady;
  for (int64_t i = 0; i < options_.iterations; ++i) {
    start = std::chrono::steady_clock::now();
    auto again = ExecuteReplicatedWithLiterals(executables, arguments, options_.collective_timeout);
    steady.push_back(MillisSince(start));
    AOT_RETURN_IF_ERROR_AND(again, Fail(WithPath(path, _), 1));
  }
  timing.steady_ms = MedianMs(std::move(steady));

  ReferenceOutcome reference;
  if (!options_.reference) {
    reference = SkippedReference("");
  } else if (reference_module == nullptr) {
    reference = SkippedReference("the executable embeds no HLO module");
  } else {
    ReplicatedEvaluationOptions evaluation;
    evaluation.timeout = options_.collective_timeout;
    auto expected = EvaluateReplicated(*reference_module, arguments, evaluation);
    if (!expected.ok()) {
      return Fail(WithPath(path, absl::Status(expected.status().code(),
                                              absl::StrCat("reference interpreter: ",
                                                           expected.status().message()))),
                  1);
    }
    // Replica by replica; the first mismatch is the outcome.
    for (int64_t r = 0; r < participants; ++r) {
      reference = CompareWithReference((*expected)[r], (*results)[r]);
      if (reference.result == ReferenceResult::kMismatch) {
        reference.detail = absl::StrCat("replica ", r, ": ", reference.detail);
        break;
      }
    }
  }
  std::printf("%s\n", FormatRunSummary(label, result_shape, timing, reference).c_str());
  if (options_.print) {
    for (int64_t r = 0; r < participants; ++r) {
      std::printf(" replica %lld:\n", static_cast<long long>(r));
      PrintValues((*results)[r]);
    }
  }
  std::fflush(stdout);
  if (int rc = WriteReplicaOutputs(*results, index, count); rc != 0) return rc;
  return MismatchExitCode(path, reference);
}

}  // namespace run_internal
}  // namespace aot
