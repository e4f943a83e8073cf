#include "compiler/passes/hlo_pass.h"

#include <algorithm>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "compiler/passes/algebraic_simplifier.h"
#include "compiler/passes/call_inliner.h"
#include "compiler/passes/collective_async_to_sync.h"
#include "compiler/passes/complex_expansion.h"
#include "compiler/passes/composite_expansion.h"
#include "compiler/passes/constant_folding.h"
#include "compiler/passes/conv_im2col.h"
#include "compiler/passes/dynamic_padder.h"
#include "compiler/passes/factorization_expansion.h"
#include "compiler/passes/fusion.h"
#include "compiler/passes/hlo_cse.h"
#include "compiler/passes/hlo_dce.h"
#include "compiler/passes/layout_normalization.h"
#include "compiler/passes/narrow_type_expansion.h"
#include "compiler/passes/rng_expansion.h"
#include "compiler/passes/sharding_propagation.h"
#include "compiler/passes/static_lowering.h"
#include "compiler/passes/sub_byte_packing.h"
#include "compiler/passes/tree_reduction.h"
#include "compiler/passes/xla_custom_call_lowering.h"
#include "support/status_macros.h"

namespace aot {

HloPass::~HloPass() = default;

HloPassPipeline::HloPassPipeline(std::string name) : name_(std::move(name)) {}

HloPassPipeline& HloPassPipeline::AddStage(std::string stage_name, int max_iterations) {
  Stage stage;
  stage.name = std::move(stage_name);
  stage.max_iterations = std::max(1, max_iterations);
  stages_.push_back(std::move(stage));
  return *this;
}

HloPassPipeline& HloPassPipeline::AddPass(std::unique_ptr<HloPass> pass) {
  if (stages_.empty()) AddStage("default");
  stages_.back().passes.push_back(std::move(pass));
  return *this;
}

std::vector<std::string> HloPassPipeline::StageNames() const {
  std::vector<std::string> names;
  for (const Stage& s : stages_) names.push_back(s.name);
  return names;
}

std::vector<std::string> HloPassPipeline::PassNamesInStage(absl::string_view stage_name) const {
  std::vector<std::string> names;
  for (const Stage& s : stages_) {
    if (s.name != stage_name) continue;
    for (const auto& p : s.passes) names.push_back(std::string(p->name()));
  }
  return names;
}

std::vector<std::string> HloPassPipeline::PassNames() const {
  std::vector<std::string> names;
  for (const Stage& s : stages_) {
    for (const auto& p : s.passes) {
      std::string n(p->name());
      if (std::find(names.begin(), names.end(), n) == names.end()) {
        names.push_back(n);
      }
    }
  }
  return names;
}

std::string HloPassPipeline::Describe() const {
  std::string out;
  for (const Stage& s : stages_) {
    std::vector<std::string> passes;
    for (const auto& p : s.passes) passes.push_back(std::string(p->name()));
    absl::StrAppend(&out, "stage ", s.name);
    if (s.max_iterations > 1) {
      absl::StrAppend(&out, " (fixed point, at most ", s.max_iterations, " iterations)");
    }
    absl::StrAppend(&out, ": ", absl::StrJoin(passes, ", "), "\n");
  }
  return out;
}

HloPass* HloPassPipeline::FindPass(absl::string_view pass_name) const {
  for (const Stage& s : stages_) {
    for (const auto& p : s.passes) {
      if (p->name() == pass_name) return p.get();
    }
  }
  return nullptr;
}

absl::Status HloPassPipeline::VerifyInput(const HloModule& module) const {
  if (!verifier_) return absl::OkStatus();
  absl::Status s = verifier_(module);
  if (s.ok()) return s;
  return absl::Status(s.code(),
                      absl::StrCat("pipeline '", name_, "': the input module '", module.name(),
                                   "' is invalid before any pass: ", s.message()));
}

absl::StatusOr<bool> HloPassPipeline::RunOnePass(HloModule* module, HloPass& pass,
                                                 absl::string_view stage, int iteration) {
  absl::StatusOr<bool> changed = pass.Run(module);
  if (!changed.ok()) {
    return absl::Status(
        changed.status().code(),
        absl::StrCat("pass '", pass.name(), "' (stage '", stage, "') failed on module '",
                     module->name(), "': ", changed.status().message()));
  }
  run_log_.push_back({std::string(stage), std::string(pass.name()), iteration, *changed});
  if (verifier_) {
    absl::Status s = verifier_(*module);
    if (!s.ok()) {
      return absl::Status(
          s.code(),
          absl::StrCat("pass '", pass.name(), "' (stage '", stage, "', iteration ", iteration,
                       ") produced an invalid module '", module->name(), "': ", s.message()));
    }
  }
  return *changed;
}

absl::StatusOr<bool> HloPassPipeline::RunStage(HloModule* module, Stage& stage) {
  bool any_changed = false;
  for (int iteration = 1; iteration <= stage.max_iterations; ++iteration) {
    bool changed = false;
    for (auto& pass : stage.passes) {
      AOT_ASSIGN_OR_RETURN(bool c, RunOnePass(module, *pass, stage.name, iteration));
      changed |= c;
    }
    any_changed |= changed;
    if (!changed) break;
  }
  return any_changed;
}

absl::StatusOr<bool> HloPassPipeline::Run(HloModule* module) {
  return RunStagesThrough(module, nullptr);
}

absl::StatusOr<bool> HloPassPipeline::RunStagesThrough(HloModule* module, const Stage* last) {
  run_log_.clear();
  AOT_RETURN_IF_ERROR(VerifyInput(*module));
  bool changed = false;
  for (Stage& stage : stages_) {
    AOT_ASSIGN_OR_RETURN(bool c, RunStage(module, stage));
    changed |= c;
    if (&stage == last) break;
  }
  return changed;
}

absl::StatusOr<bool> HloPassPipeline::RunThroughStage(HloModule* module,
                                                      absl::string_view stage_name) {
  auto it = std::find_if(stages_.begin(), stages_.end(),
                         [&](const Stage& s) { return s.name == stage_name; });
  if (it == stages_.end()) {
    return absl::InvalidArgumentError(
        absl::StrCat("pipeline '", name_, "' has no stage '", stage_name,
                     "'; stages: ", absl::StrJoin(StageNames(), ", ")));
  }
  return RunStagesThrough(module, &*it);
}

absl::StatusOr<bool> HloPassPipeline::RunPasses(HloModule* module,
                                                absl::Span<const std::string> pass_names) {
  // Resolve every name first so that a typo fails before anything runs.
  std::vector<HloPass*> passes;
  std::vector<std::unique_ptr<HloPass>> created;
  for (const std::string& n : pass_names) {
    HloPass* pass = FindPass(n);
    if (pass == nullptr) {
      std::unique_ptr<HloPass> fresh = CreatePassByName(n);
      if (fresh == nullptr) {
        return absl::InvalidArgumentError(absl::StrCat(
            "unknown pass '", n, "'; known passes: ", absl::StrJoin(::aot::PassNames(), ", ")));
      }
      pass = fresh.get();
      created.push_back(std::move(fresh));
    }
    passes.push_back(pass);
  }
  run_log_.clear();
  AOT_RETURN_IF_ERROR(VerifyInput(*module));
  bool changed = false;
  for (HloPass* pass : passes) {
    AOT_ASSIGN_OR_RETURN(bool c, RunOnePass(module, *pass, "passes", 1));
    changed |= c;
  }
  return changed;
}

absl::Status ExpandBeforePipeline(HloModule* module) {
  AOT_RETURN_IF_ERROR(LowerDynamicDimensions(module).status());
  AOT_RETURN_IF_ERROR(LowerSubBytePacking(module).status());
  AOT_RETURN_IF_ERROR(LowerXlaCustomCalls(module).status());
  AOT_RETURN_IF_ERROR(LowerStaticOpcodes(module).status());
  AOT_RETURN_IF_ERROR(ExpandRngs(module).status());
  AOT_RETURN_IF_ERROR(InlineCalls(module).status());
  AOT_RETURN_IF_ERROR(FlattenCallGraph(module).status());
  AOT_RETURN_IF_ERROR(ExpandCompositeOpcodes(module).status());
  AOT_RETURN_IF_ERROR(ExpandFactorizations(module).status());
  AOT_RETURN_IF_ERROR(ExpandRngBitGenerators(module).status());
  AOT_RETURN_IF_ERROR(ExpandComplexArithmetic(module).status());
  return ExpandNarrowTypes(module).status();
}

HloPassPipeline DefaultPipeline(const PipelineOptions& options) {
  HloPassPipeline pipeline("default");
  pipeline.AddStage("simplify", options.simplify_iterations);
  // Leaves a module without async collectives untouched.
  pipeline.AddPass<CollectiveAsyncToSync>();
  if (options.enable_algebraic_simplification) {
    pipeline.AddPass<AlgebraicSimplifier>();
  }
  if (options.enable_constant_folding) {
    pipeline.AddPass<ConstantFolding>(options.constant_folding);
  }
  if (options.enable_cse) pipeline.AddPass<HloCse>();
  pipeline.AddPass<HloDce>();

  pipeline.AddStage("layout");
  if (options.enable_layout_normalization) {
    pipeline.AddPass<LayoutNormalization>();
  }
  if (options.enable_algebraic_simplification) {
    pipeline.AddPass<AlgebraicSimplifier>();
  }
  if (options.enable_cse) pipeline.AddPass<HloCse>();
  pipeline.AddPass<HloDce>();

  pipeline.AddStage("fusion");
  if (options.enable_conv_im2col) pipeline.AddPass<ConvIm2col>();
  if (options.enable_tree_reduction) pipeline.AddPass<TreeReduction>();
  if (options.enable_fusion) {
    pipeline.AddPass<InstructionFusion>(options.fusion);
  }
  pipeline.AddPass<HloDce>();
  return pipeline;
}

std::unique_ptr<HloPass> CreatePassByName(absl::string_view name) {
  if (name == AlgebraicSimplifier::kName) {
    return std::make_unique<AlgebraicSimplifier>();
  }
  if (name == ConstantFolding::kName) return std::make_unique<ConstantFolding>();
  if (name == CollectiveAsyncToSync::kName) return std::make_unique<CollectiveAsyncToSync>();
  if (name == HloCse::kName) return std::make_unique<HloCse>();
  if (name == HloDce::kName) return std::make_unique<HloDce>();
  if (name == LayoutNormalization::kName) {
    return std::make_unique<LayoutNormalization>();
  }
  if (name == InstructionFusion::kName) {
    return std::make_unique<InstructionFusion>();
  }
  if (name == TreeReduction::kName) return std::make_unique<TreeReduction>();
  if (name == ConvIm2col::kName) return std::make_unique<ConvIm2col>();
  if (name == ShardingPropagation::kName) return std::make_unique<ShardingPropagation>();
  return nullptr;
}

std::vector<std::string> PassNames() {
  std::vector<std::string> names = {std::string(AlgebraicSimplifier::kName),
                                    std::string(ConstantFolding::kName),
                                    std::string(CollectiveAsyncToSync::kName),
                                    std::string(HloCse::kName),
                                    std::string(HloDce::kName),
                                    std::string(LayoutNormalization::kName),
                                    std::string(InstructionFusion::kName),
                                    std::string(TreeReduction::kName),
                                    std::string(ConvIm2col::kName),
                                    std::string(ShardingPropagation::kName)};
  std::sort(names.begin(), names.end());
  return names;
}

}  // namespace aot
