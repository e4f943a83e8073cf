#ifndef AOT_COMPILER_PASSES_HLO_PASS_H_
#define AOT_COMPILER_PASSES_HLO_PASS_H_

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "absl/types/span.h"
#include "compiler/hlo/hlo_module.h"

namespace aot {

// An HLO-to-HLO transformation. Run() returns whether it changed the
// module; errors are absl::Status naming the instruction. Every pass is
// deterministic: the same input module gives byte-identical output.
class HloPass {
 public:
  virtual ~HloPass();
  // The name used on the command line (--passes=algsimp,dce) and in errors.
  virtual absl::string_view name() const = 0;
  virtual absl::StatusOr<bool> Run(HloModule* module) = 0;
};

// Checks a module between passes (e.g. VerifyHloModule).
using HloVerifierFn = std::function<absl::Status(const HloModule&)>;

// Named passes grouped into named stages, run in order. A stage may be run
// to a fixed point: its passes repeat while any of them changes the module,
// at most `max_iterations` times.
class HloPassPipeline {
 public:
  explicit HloPassPipeline(std::string name = "pipeline");
  HloPassPipeline(HloPassPipeline&&) = default;
  HloPassPipeline& operator=(HloPassPipeline&&) = default;

  const std::string& name() const { return name_; }

  // Starts a new stage; later AddPass calls add to it. Stage names are
  // unique; AddPass before any AddStage creates a stage named "default".
  HloPassPipeline& AddStage(std::string stage_name, int max_iterations = 1);
  HloPassPipeline& AddPass(std::unique_ptr<HloPass> pass);
  template <typename T, typename... Args>
  T& AddPass(Args&&... args) {
    auto pass = std::make_unique<T>(std::forward<Args>(args)...);
    T& ref = *pass;
    AddPass(std::move(pass));
    return ref;
  }

  // Runs after every pass (and once on the input); a failure stops the
  // pipeline with an error naming the pass that broke the module.
  void set_verifier(HloVerifierFn verifier) { verifier_ = std::move(verifier); }

  // Runs every stage.
  absl::StatusOr<bool> Run(HloModule* module);
  // Runs the stages up to and including `stage_name`, then stops.
  absl::StatusOr<bool> RunThroughStage(HloModule* module, absl::string_view stage_name);
  // Runs exactly the named passes, in the order given, once each (a name
  // may repeat). Each name is looked up in this pipeline (the first pass of
  // that name, with this pipeline's options), else created with default
  // options by CreatePassByName; an unknown name is an error listing the
  // known ones.
  absl::StatusOr<bool> RunPasses(HloModule* module, absl::Span<const std::string> pass_names);

  // Stage names in order.
  std::vector<std::string> StageNames() const;
  // Pass names of one stage in order (empty for an unknown stage).
  std::vector<std::string> PassNamesInStage(absl::string_view stage_name) const;
  // Distinct pass names in first-use order.
  std::vector<std::string> PassNames() const;
  // "stage simplify (fixed point, at most 4 iterations): algsimp, cse\n...".
  std::string Describe() const;

  // What the last Run*() did, one entry per pass execution, in order.
  struct PassRecord {
    std::string stage;
    std::string pass;
    int iteration = 0;
    bool changed = false;
  };
  const std::vector<PassRecord>& run_log() const { return run_log_; }

 private:
  struct Stage {
    std::string name;
    int max_iterations = 1;
    std::vector<std::unique_ptr<HloPass>> passes;
  };

  absl::Status VerifyInput(const HloModule& module) const;
  absl::StatusOr<bool> RunOnePass(HloModule* module, HloPass& pass, absl::string_view stage,
                                  int iteration);
  absl::StatusOr<bool> RunStage(HloModule* module, Stage& stage);
  // Runs the stages in order, stopping after `last` (all of them for null).
  absl::StatusOr<bool> RunStagesThrough(HloModule* module, const Stage* last);
  HloPass* FindPass(absl::string_view pass_name) const;

  std::string name_;
  std::vector<Stage> stages_;
  HloVerifierFn verifier_;
  std::vector<PassRecord> run_log_;
};

// Options of the fusion pass (see fusion.h).
struct FusionOptions {
  // A reduce absorbs a following elementwise epilogue with the reduce's
  // result shape (e.g. mean = sum / n).
  bool fuse_reduction_epilogue = true;
  // ... and an epilogue that broadcasts the reduced value back over the
  // reduced dimensions (softmax's divide by the broadcast row sum); see
  // fusion.h for the kernel contract.
  bool fuse_row_broadcast_epilogue = true;
  // Constants with at most this many elements are copied into fusions;
  // larger ones stay outside and become fusion operands.
  int64_t max_fused_constant_elements = 64;
};

// Options of constant folding (see constant_folding.h).
struct ConstantFoldingOptions {
  // Results with more elements than this are not folded.
  int64_t max_result_elements = 65536;
};

struct PipelineOptions {
  bool enable_algebraic_simplification = true;
  bool enable_constant_folding = true;
  bool enable_cse = true;
  bool enable_layout_normalization = true;
  bool enable_fusion = true;
  // Full reductions of large operands in two parallel stages.
  bool enable_tree_reduction = true;
  // Large convolutions as im2col plus a GEMM.
  bool enable_conv_im2col = true;
  // Fixed-point iteration bound of the "simplify" stage.
  int simplify_iterations = 4;
  FusionOptions fusion;
  ConstantFoldingOptions constant_folding;
};

// The compiler's HLO pipeline, in three stages:
//   simplify: collective-async-to-sync, algsimp, constant-folding, cse, dce
//             (to a fixed point)
//   layout:   layout-normalization, algsimp, cse, dce
//             (the optimized, unfused HLO)
//   fusion:   conv-im2col, tree-reduction, fusion, dce
//             (one fusion instruction per future kernel)
// Disabled passes are left out; the stages always exist.
HloPassPipeline DefaultPipeline(const PipelineOptions& options = {});

// What the compiler expands before DefaultPipeline, in its order: dynamic
// dimensions made static (LowerDynamicDimensions), packed
// sub-byte entry values unpacked (LowerSubBytePacking), the
// custom calls XLA's passes write (LowerXlaCustomCalls), async
// wrappers lowered (LowerStaticOpcodes, before inlining), rng draws
// (ExpandRngs: each computation's draws take the state first, so before
// inlining merges computations), calls inlined, then the composite
// opcodes, the factorizations, the rng-bit-generators, complex arithmetic
// on parts and computations on narrow types widened.
absl::Status ExpandBeforePipeline(HloModule* module);

// A pass with default options by name ("algsimp", "constant-folding",
// "cse", "dce", "layout-normalization", "fusion", "tree-reduction",
// "conv-im2col", "collective-async-to-sync"); nullptr if unknown.
std::unique_ptr<HloPass> CreatePassByName(absl::string_view name);
// The names CreatePassByName knows, sorted.
std::vector<std::string> PassNames();

}  // namespace aot

#endif  // AOT_COMPILER_PASSES_HLO_PASS_H_
