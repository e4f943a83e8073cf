#ifndef AOT_COMPILER_HLO_HLO_COMPUTATION_H_
#define AOT_COMPILER_HLO_HLO_COMPUTATION_H_

#include <memory>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "compiler/hlo/hlo_instruction.h"

namespace aot {

class HloModule;

// A computation: instructions in definition order (operands before users),
// one root, parameters indexed by number.
class HloComputation {
 public:
  explicit HloComputation(std::string name) : name_(std::move(name)) {}

  const std::string& name() const { return name_; }
  void set_name(std::string name) { name_ = std::move(name); }
  int64_t unique_id() const { return unique_id_; }
  void set_unique_id(int64_t id) { unique_id_ = id; }

  // Takes ownership; the instruction must not be in another computation.
  // Parameters are registered by their number.
  HloInstruction* AddInstruction(std::unique_ptr<HloInstruction> instruction);
  // Removes an instruction that has no users and is not the root.
  absl::Status RemoveInstruction(HloInstruction* instruction);

  HloInstruction* root_instruction() const { return root_; }
  void set_root_instruction(HloInstruction* root) { root_ = root; }

  int64_t num_parameters() const { return static_cast<int64_t>(parameters_.size()); }
  HloInstruction* parameter_instruction(int64_t i) const { return parameters_[i]; }
  const std::vector<HloInstruction*>& parameter_instructions() const { return parameters_; }

  int64_t instruction_count() const { return static_cast<int64_t>(instructions_.size()); }
  // Instructions in definition order.
  std::vector<HloInstruction*> instructions() const;
  // Every instruction after its operands: a depth-first post order started
  // from each instruction in definition order (so an already topologically
  // ordered computation keeps its order).
  std::vector<HloInstruction*> MakeInstructionPostOrder() const;
  HloInstruction* FindInstruction(absl::string_view name) const;

  HloModule* parent() const { return parent_; }
  void set_parent(HloModule* module) { parent_ = module; }

  bool is_fusion_computation() const { return is_fusion_computation_; }
  void set_is_fusion_computation(bool v) { is_fusion_computation_ = v; }

  // "%name (p0: f32[2], p1: f32[2]) -> f32[2] {\n  ...\n}"
  std::string ToString() const;
  HloComputationProto ToProto() const;

 private:
  std::string name_;
  int64_t unique_id_ = -1;
  std::vector<std::unique_ptr<HloInstruction>> instructions_;
  std::vector<HloInstruction*> parameters_;
  HloInstruction* root_ = nullptr;
  HloModule* parent_ = nullptr;
  bool is_fusion_computation_ = false;
};

// Whether `computation` is add(p0, p1) of its two parameters: a reducer
// whose reduction is a sum (linear, so it can act on the parts of a value).
bool AddsItsTwoParameters(const HloComputation* computation);

}  // namespace aot

#endif  // AOT_COMPILER_HLO_HLO_COMPUTATION_H_
