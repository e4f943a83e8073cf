#ifndef AOT_COMPILER_PASSES_PASS_UTILS_H_
#define AOT_COMPILER_PASSES_PASS_UTILS_H_

// Helpers shared by the HLO-to-HLO passes: cloning instructions, keeping
// the definition order valid after a pass appended instructions, unique
// names, layouts and call-graph roles of computations.

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "absl/container/flat_hash_set.h"
#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "absl/types/span.h"
#include "compiler/hlo/hlo_computation.h"
#include "compiler/hlo/hlo_instruction.h"
#include "compiler/hlo/hlo_module.h"
#include "compiler/hlo/shape.h"

namespace aot {

// A new instruction like `instruction` (opcode, shape, attributes, called
// computations, name) with `operands`. The unique id is not set.
std::unique_ptr<HloInstruction> CloneWithOperands(const HloInstruction& instruction,
                                                  absl::Span<HloInstruction* const> operands);

// Adds `instruction` to `computation` with a fresh unique id from the
// module (if the computation belongs to one) and returns it.
HloInstruction* AddWithNewId(HloComputation* computation,
                             std::unique_ptr<HloInstruction> instruction);

// Makes every use of `old_instruction` (and the root, if it is the root)
// use `replacement`, then removes `old_instruction` and every operand that
// became unused because of it (never parameters, never the root, never an
// instruction with side effects).
absl::Status ReplaceAndRemove(HloInstruction* old_instruction, HloInstruction* replacement);

// Removes `instruction` if it has no users, is not the root, not a
// parameter and has no side effects, then does the same for its operands.
// Returns whether anything was removed.
absl::StatusOr<bool> RemoveIfDead(HloInstruction* instruction);

// True for instructions a pass must never remove, merge or duplicate even
// when unused: custom-calls marked custom_call_has_side_effect=true, and
// collectives (as XLA treats them: every participant must make the same
// collective calls).
bool HasSideEffect(const HloInstruction& instruction);

// rng and rng-get-and-update-state: each call takes the executable's
// random state and advances it, so two calls are never one (CSE), and no
// call is computed at compile time (constant folding) or rewritten. One
// whose value is unused is dead like any other instruction: the
// interpreter does not evaluate it either, so both draw the same values.
bool DrawsRandomState(const HloInstruction& instruction);

// HloComputation keeps instructions in definition order (operands before
// users) and the parser relies on it, but appending an instruction that
// replaces an earlier one breaks it. This puts the computation into its
// canonical order: the printer's post order (MakeInstructionPostOrder),
// corrected to define operands first where unreachable instructions would
// not; parameters keep their places. An already canonical computation is
// left as it is. Keeping definition order equal to print order also makes
// the module's computation order (which follows definition order) the same
// before and after a text round trip. Returns whether anything moved.
// Instructions keep their names and ids; pointers to moved instructions
// (other than parameters) are invalidated.
absl::StatusOr<bool> EnsureDefinitionOrder(HloComputation* computation);
// Moves `h` to the end of its computation's definition order: a clone with
// its name and id takes over its uses (the root too) and `h` is removed.
// Returns the clone. How EnsureDefinitionOrder moves instructions.
absl::StatusOr<HloInstruction*> MoveToEnd(HloComputation* computation, HloInstruction* h);
// The same for every computation of the module.
absl::StatusOr<bool> EnsureDefinitionOrder(HloModule* module);
// EnsureDefinitionOrder() only when the order is not valid (passes call it
// first, so that they may rely on operands being defined first).
absl::Status EnsureValidDefinitionOrder(HloComputation* computation);

// Removes every unused instruction (not parameters, not the root, not
// side-effecting ones) until none is left. Returns whether any was.
absl::StatusOr<bool> RemoveDeadCode(HloComputation* computation);

// Whether every operand of every instruction is defined before it.
bool IsInDefinitionOrder(const HloComputation& computation);

// The default (descending) layout set explicitly on every array of rank
// >= 1 in `shape`, unpacked (no E(n)), tuples recursively.
Shape WithDefaultLayout(const Shape& shape);
// Whether every array in `shape` (tuples recursively) has the default
// layout.
bool HasDefaultLayoutEverywhere(const Shape& shape);
// Exact equality including layouts, recursively (Shape::operator== on
// tuples compares element layouts too; this is the same, spelled out).
bool SameShapeAndLayout(const Shape& a, const Shape& b);

// Names in use in one computation (instruction names) or in a module
// (computation names); hands out fresh ones deterministically.
class NameUniquer {
 public:
  NameUniquer() = default;
  static NameUniquer ForInstructions(const HloComputation& computation);
  static NameUniquer ForComputations(const HloModule& module);

  bool Contains(absl::string_view name) const;
  void Add(absl::string_view name);
  // `base` if unused, else the first unused "base.N" (N = 1, 2, ...).
  // The returned name is marked used.
  std::string GetUniqueName(absl::string_view base);

 private:
  absl::flat_hash_set<std::string> used_;
};

// Computations whose instructions are compiled as a scalar body of another
// instruction (to_apply of reduce, reduce-window, scatter, sort, map,
// select-and-scatter, custom-call) or that are fusion computations. Passes
// that build kernels (fusion) skip them.
absl::flat_hash_set<const HloComputation*> EmbeddedComputations(const HloModule& module);

// Fusion computations: marked is_fusion_computation or called by a fusion
// instruction (the HLO text parser does not set the mark).
absl::flat_hash_set<const HloComputation*> FusionComputations(const HloModule& module);

// How a per-computation rewrite leaves a computation it changed.
enum class AfterRewrite {
  kReorder,              // EnsureDefinitionOrder
  kRemoveDeadAndReorder  // RemoveDeadCode, then EnsureDefinitionOrder
};

// The loop every rewriting pass shares: for each computation that is not a
// fusion computation, restore a valid definition order, run `rewrite` on
// it, and when it changed something clean up as `after` says. Returns
// whether any computation changed.
absl::StatusOr<bool> RewriteUnfusedComputations(
    HloModule* module, AfterRewrite after,
    const std::function<absl::StatusOr<bool>(HloComputation*)>& rewrite);

// The loop of the passes that replace single instructions of the top-level
// computations (those no instruction calls as a reducer, comparator or
// fused computation): for each instruction, in post order, `rewrite`
// returns its replacement (already added to the computation, `names`
// giving it a unique name) or nullptr to leave it. Replaced instructions
// are removed; a changed computation gets a valid definition order.
// Returns whether anything changed.
absl::StatusOr<bool> ReplaceInTopLevelComputations(
    HloModule* module,
    const std::function<absl::StatusOr<HloInstruction*>(HloComputation*, NameUniquer&,
                                                        HloInstruction*)>& rewrite);

// Adds instructions to a computation, each named after the instruction
// being rewritten (`base`, made unique by `names`): the builder of the
// expansion passes.
class InstructionBuilder {
 public:
  InstructionBuilder(HloComputation* computation, NameUniquer* names,
                     const HloInstruction& expanded)
      : computation_(computation), names_(names), base_(expanded.name()) {}

  HloInstruction* Add(std::unique_ptr<HloInstruction> instruction);
  HloInstruction* Op(HloOpcode opcode, Shape shape, std::vector<HloInstruction*> operands);
  // A scalar constant of `type`.
  HloInstruction* Constant(PrimitiveType type, double value);
  HloInstruction* Constant(Literal literal);
  // `x` broadcast into `shape`, its dimensions going to `dims`.
  HloInstruction* Broadcast(HloInstruction* x, const Shape& shape, std::vector<int64_t> dims);
  // A scalar `value` broadcast to the array shape `like` (its type and
  // dimensions).
  HloInstruction* Splat(PrimitiveType type, double value, absl::Span<const int64_t> dims);
  HloInstruction* Convert(HloInstruction* x, PrimitiveType type);
  // Elementwise: the result has `a`'s type and dimensions.
  HloInstruction* Unary(HloOpcode opcode, HloInstruction* a);
  HloInstruction* Binary(HloOpcode opcode, HloInstruction* a, HloInstruction* b);
  HloInstruction* Compare(HloInstruction* a, HloInstruction* b, ComparisonDirection direction);
  HloInstruction* Select(HloInstruction* predicate, HloInstruction* on_true,
                         HloInstruction* on_false);
  HloInstruction* Reshape(HloInstruction* x, std::vector<int64_t> dims);
  HloInstruction* GetTupleElement(HloInstruction* tuple, int64_t index);
  // `value` with the layout `want` asks for (a copy when it differs).
  HloInstruction* WithLayoutOf(HloInstruction* value, const Shape& want);
  HloInstruction* Tuple(std::vector<HloInstruction*> elements);

 private:
  HloComputation* computation_;
  NameUniquer* names_;
  std::string base_;
};

// A new empty computation of the module named after `base` (made unique),
// with a fresh unique id.
HloComputation* AddEmptyComputation(HloModule* module, absl::string_view base);
// A new scalar computation of the module named after `base`: `body` makes
// its root from the parameters (of `parameter_types`).
HloComputation* AddScalarComputation(
    HloModule* module, absl::string_view base, std::vector<PrimitiveType> parameter_types,
    const std::function<std::unique_ptr<HloInstruction>(std::vector<HloInstruction*>)>& body);
// add(p0, p1) of scalars of `type`, as a new computation of the module.
HloComputation* AddComputationFor(HloModule* module, PrimitiveType type);

// A new scalar computation of `module` (named after `callee` with
// `suffix`) computing what `callee` computes, over other parameters: the
// new parameters are `params` (scalars of a type, with a name); the
// callee's parameter i is `rebuild(i, new_parameters, b)` (named as it
// was); its body is cloned on those; each output of its root (a scalar, or
// the operands of a root tuple instruction) becomes the outputs
// `split(output, b)`, the root a tuple when the callee's was or when they
// are several. Unimplemented, naming the callee, when a parameter is not a
// scalar or the root is neither a scalar nor a tuple instruction.
using ScalarRebuild = std::function<HloInstruction*(
    int64_t parameter, absl::Span<HloInstruction* const> parameters, InstructionBuilder& b)>;
using ScalarSplit =
    std::function<std::vector<HloInstruction*>(HloInstruction* output, InstructionBuilder& b)>;
absl::StatusOr<HloComputation*> RewriteScalarComputation(
    HloModule* module, const HloComputation& callee, absl::string_view suffix,
    const std::vector<std::pair<PrimitiveType, std::string>>& params, const ScalarRebuild& rebuild,
    const ScalarSplit& split);

// One iteration of a counted loop: from the counter `i` (s32[]) and the
// values carried in, the values carried out, built with `body`.
using LoopStep = std::function<std::vector<HloInstruction*>(
    InstructionBuilder& body, HloInstruction* i, std::vector<HloInstruction*> values)>;
// while (i < trip_count) { values = step(i, values); ++i }, i from 0, as a
// while loop in `outer`'s computation whose condition and body are new
// computations of `module` named after `base`: the loop's final values.
std::vector<HloInstruction*> CountedLoop(HloModule* module, InstructionBuilder& outer,
                                         const HloInstruction& base, int64_t trip_count,
                                         std::vector<HloInstruction*> init, const LoopStep& step);

}  // namespace aot

#endif  // AOT_COMPILER_PASSES_PASS_UTILS_H_
