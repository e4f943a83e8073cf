#include "compiler/verifier/hlo_verifier.h"

#include <algorithm>
#include <cstdint>
#include <limits>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/container/flat_hash_set.h"
#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "compiler/hlo/hlo_computation.h"
#include "compiler/hlo/hlo_instruction.h"
#include "compiler/hlo/hlo_opcode.h"
#include "compiler/hlo/hlo_sharding.h"
#include "compiler/verifier/diagnostics.h"
#include "compiler/verifier/shape_inference.h"
#include "support/status_macros.h"

namespace aot {
namespace {

using verifier_internal::Invalid;
using verifier_internal::Str;

std::string Describe(const HloComputation& computation) {
  return absl::StrCat("computation '", computation.name(), "'");
}

std::string Describe(const HloComputation& computation, const HloInstruction& instruction) {
  return absl::StrCat("computation '", computation.name(), "': instruction '", instruction.name(),
                      "' (", HloOpcodeString(instruction.opcode()), ")");
}

// Checks a declared shape: array element types, non-negative dimensions,
// and a layout that is a permutation of the dimensions (or unset).
absl::Status ValidateShape(const Shape& shape) {
  if (shape.IsTuple()) {
    if (!shape.dimensions().empty()) {
      return Invalid("tuple shape has dimensions");
    }
    if (shape.has_layout()) return Invalid("tuple shape has a layout");
    for (const Shape& element : shape.tuple_shapes()) {
      AOT_RETURN_IF_ERROR(ValidateShape(element));
    }
    return absl::OkStatus();
  }
  if (shape.IsToken()) {
    if (!shape.dimensions().empty() || shape.has_layout()) {
      return Invalid("token shape has dimensions or a layout");
    }
    return absl::OkStatus();
  }
  if (!shape.IsArray()) {
    return Invalid("invalid element type ", static_cast<int>(shape.element_type()));
  }
  if (!shape.tuple_shapes().empty()) {
    return Invalid("array shape ", Str(shape), " has tuple elements");
  }
  for (int64_t d : shape.dimensions()) {
    if (d < 0) {
      return Invalid("shape ", Str(shape), " has a negative dimension");
    }
  }
  __int128 bytes = ByteWidth(shape.element_type());
  for (int64_t d : shape.dimensions()) {
    if (d == 0) continue;  // also bound the other dimensions of empty arrays
    bytes *= d;
    if (bytes > std::numeric_limits<int64_t>::max()) {
      return Invalid("shape ", Str(shape),
                     " is too large (its byte size "
                     "overflows int64)");
    }
  }
  if (shape.has_layout()) {
    const std::vector<int64_t>& m2m = shape.minor_to_major();
    std::vector<int64_t> sorted = m2m;
    std::sort(sorted.begin(), sorted.end());
    bool ok = static_cast<int64_t>(m2m.size()) == shape.rank();
    for (int64_t i = 0; ok && i < shape.rank(); ++i) ok = sorted[i] == i;
    if (!ok) {
      return Invalid("layout {", absl::StrJoin(m2m, ","), "} of ", Str(shape),
                     " is not a permutation of its ", shape.rank(), " dimensions");
    }
  }
  return absl::OkStatus();
}

class ModuleVerifier {
 public:
  explicit ModuleVerifier(const HloModule& module) : module_(module) {}

  absl::Status Run() {
    const HloComputation* entry = module_.entry_computation();
    if (entry == nullptr) {
      return Invalid("module '", module_.name(), "' has no entry computation");
    }
    // HloModule::computations() walks the call graph, so null callees must
    // be caught before it runs (for computations reachable from the entry).
    AOT_RETURN_IF_ERROR(CheckNoNullCallees(entry));
    computations_ = module_.computations();
    // computations() also lists computations that are only called from the
    // module; it owns those whose parent it is.
    absl::flat_hash_set<std::string> names;
    for (const HloComputation* c : computations_) {
      if (c == nullptr) {
        return Invalid("module '", module_.name(), "' has a null computation");
      }
      if (c->parent() != &module_) continue;
      owned_.insert(c);
      if (c->name().empty()) {
        return Invalid("module '", module_.name(), "' has a computation without a name");
      }
      if (!names.insert(c->name()).second) {
        return Invalid("module '", module_.name(), "' has two computations named '", c->name(),
                       "'");
      }
    }
    if (!owned_.contains(entry)) {
      return Invalid("entry computation '", entry->name(), "' is not one of module '",
                     module_.name(), "''s computations");
    }
    for (const HloComputation* c : computations_) {
      if (owned_.contains(c)) {
        AOT_RETURN_IF_ERROR(VerifyStructure(*c));
      }
    }
    AOT_RETURN_IF_ERROR(CheckNoRecursion());
    for (const HloComputation* c : computations_) {
      AOT_RETURN_IF_ERROR(VerifyShapes(*c));
    }
    for (const HloComputation* c : computations_) {
      if (owned_.contains(c)) AOT_RETURN_IF_ERROR(VerifyShardings(*c));
    }
    AOT_RETURN_IF_ERROR(VerifyEntryLayout(*entry));
    return VerifyInputOutputAliases(*entry);
  }

 private:
  // input_output_alias: each entry names an array leaf of the result and an
  // array leaf of an entry parameter of the same shape (layout included);
  // no result leaf and no parameter leaf is aliased twice.
  absl::Status VerifyInputOutputAliases(const HloComputation& entry) const {
    std::set<std::vector<int64_t>> outputs;
    std::set<std::pair<int64_t, std::vector<int64_t>>> parameters;
    for (const HloInputOutputAlias& a : module_.config().input_output_aliases) {
      std::string what = absl::StrCat("input_output_alias ", a.ToString());
      const Shape* out = entry.root_instruction()->shape().FindSubshape(a.output_index);
      if (out == nullptr || !out->IsArray()) {
        return Invalid(what, ": the output index is not an array leaf of the result ",
                       entry.root_instruction()->shape().ToString());
      }
      if (a.parameter_number >= entry.num_parameters()) {
        return Invalid(what, ": the entry computation has ", entry.num_parameters(), " parameters");
      }
      const Shape& param_shape = entry.parameter_instruction(a.parameter_number)->shape();
      const Shape* in = param_shape.FindSubshape(a.parameter_index);
      if (in == nullptr || !in->IsArray()) {
        return Invalid(what, ": the parameter index is not an array leaf of parameter ",
                       a.parameter_number, " (", param_shape.ToString(), ")");
      }
      if (*in != *out) {
        return Invalid(what, ": the output ", out->ToString(), " and the parameter ",
                       in->ToString(), " differ in shape");
      }
      if (!outputs.insert(a.output_index).second) {
        return Invalid(what, ": the output index is aliased twice");
      }
      if (!parameters.insert({a.parameter_number, a.parameter_index}).second) {
        return Invalid(what, ": the parameter leaf is aliased twice");
      }
    }
    return absl::OkStatus();
  }

  absl::Status CheckNoNullCallees(const HloComputation* entry) const {
    absl::flat_hash_set<const HloComputation*> seen = {entry};
    std::vector<const HloComputation*> stack = {entry};
    while (!stack.empty()) {
      const HloComputation* c = stack.back();
      stack.pop_back();
      for (const HloInstruction* instruction : c->instructions()) {
        if (instruction == nullptr) {
          return Invalid(Describe(*c), " has a null instruction");
        }
        for (const HloComputation* callee : instruction->called_computations()) {
          if (callee == nullptr) {
            return Invalid(Describe(*c, *instruction), ": a called computation is null");
          }
          if (seen.insert(callee).second) stack.push_back(callee);
        }
      }
    }
    return absl::OkStatus();
  }

  absl::Status VerifyStructure(const HloComputation& c) const {
    const std::vector<HloInstruction*> instructions = c.instructions();
    absl::flat_hash_set<const HloInstruction*> members(instructions.begin(), instructions.end());
    if (c.root_instruction() == nullptr) {
      return Invalid(Describe(c), " has no root instruction");
    }
    absl::flat_hash_set<std::string> instruction_names;
    for (const HloInstruction* instruction : instructions) {
      if (instruction == nullptr) {
        return Invalid(Describe(c), " has a null instruction");
      }
      if (instruction->name().empty()) {
        return Invalid(Describe(c), ": an instruction (", HloOpcodeString(instruction->opcode()),
                       ") has no name");
      }
      if (!instruction_names.insert(instruction->name()).second) {
        return Invalid(Describe(c), " has two instructions named '", instruction->name(), "'");
      }
    }
    if (!members.contains(c.root_instruction())) {
      return Invalid(Describe(c), ": root instruction '", c.root_instruction()->name(),
                     "' is not in the computation");
    }

    // Parameters: numbers unique and contiguous, registered by number.
    std::vector<const HloInstruction*> parameters;
    for (const HloInstruction* instruction : instructions) {
      if (instruction->opcode() != HloOpcode::kParameter) continue;
      const int64_t number = instruction->parameter_number();
      if (number < 0) {
        return Invalid(Describe(c, *instruction), ": parameter number ", number, " is negative");
      }
      if (number >= static_cast<int64_t>(instructions.size())) {
        return Invalid(Describe(c, *instruction), ": parameter number ", number,
                       " is not contiguous from 0");
      }
      if (number >= static_cast<int64_t>(parameters.size())) {
        parameters.resize(number + 1, nullptr);
      }
      if (parameters[number] != nullptr) {
        return Invalid(Describe(c, *instruction), ": parameter number ", number,
                       " is also used by '", parameters[number]->name(), "'");
      }
      parameters[number] = instruction;
    }
    for (size_t i = 0; i < parameters.size(); ++i) {
      if (parameters[i] == nullptr) {
        return Invalid(Describe(c),
                       ": parameter numbers must be contiguous "
                       "from 0 but parameter ",
                       i, " is missing (the highest is ", parameters.size() - 1, ")");
      }
    }
    if (c.num_parameters() != static_cast<int64_t>(parameters.size())) {
      return Invalid(Describe(c), " registers ", c.num_parameters(), " parameters but has ",
                     parameters.size(), " parameter instructions");
    }
    for (size_t i = 0; i < parameters.size(); ++i) {
      if (c.parameter_instruction(static_cast<int64_t>(i)) != parameters[i]) {
        return Invalid(Describe(c, *parameters[i]), ": is not registered as parameter ", i,
                       " of the computation");
      }
    }

    for (const HloInstruction* instruction : instructions) {
      if (instruction->parent() != &c) {
        return Invalid(Describe(c, *instruction), ": its parent is not this computation");
      }
      absl::Status shape_status = ValidateShape(instruction->shape());
      if (!shape_status.ok()) {
        return Invalid(Describe(c, *instruction), ": declared shape: ", shape_status.message());
      }
      for (int64_t i = 0; i < instruction->operand_count(); ++i) {
        const HloInstruction* operand = instruction->operand(i);
        if (operand == nullptr) {
          return Invalid(Describe(c, *instruction), ": operand ", i, " is null");
        }
        if (!members.contains(operand)) {
          return Invalid(Describe(c, *instruction), ": operand ", i, " '", operand->name(),
                         "' is not an instruction of this computation");
        }
        const std::vector<HloInstruction*>& users = operand->users();
        if (std::find(users.begin(), users.end(), instruction) == users.end()) {
          return Invalid(Describe(c, *instruction), ": operand ", i, " '", operand->name(),
                         "' does not list it among its users");
        }
      }
      for (const HloComputation* callee : instruction->called_computations()) {
        if (callee == nullptr) {
          return Invalid(Describe(c, *instruction), ": a called computation is null");
        }
        if (!owned_.contains(callee)) {
          return Invalid(Describe(c, *instruction), ": called computation '", callee->name(),
                         "' is not in the module");
        }
      }
    }
    return CheckAcyclic(c, instructions);
  }

  // Operand edges must not form a cycle.
  absl::Status CheckAcyclic(const HloComputation& c,
                            const std::vector<HloInstruction*>& instructions) const {
    // 0 = unvisited, 1 = on the stack, 2 = done.
    absl::flat_hash_map<const HloInstruction*, int> state;
    for (const HloInstruction* start : instructions) {
      if (state[start] != 0) continue;
      std::vector<std::pair<const HloInstruction*, int64_t>> stack;
      stack.emplace_back(start, 0);
      state[start] = 1;
      while (!stack.empty()) {
        auto& [node, next] = stack.back();
        if (next < node->operand_count()) {
          const HloInstruction* operand = node->operand(next++);
          int& s = state[operand];
          if (s == 1) {
            return Invalid(Describe(c, *operand),
                           ": is its own (transitive) operand; the operand "
                           "graph has a cycle");
          }
          if (s == 0) {
            s = 1;
            stack.emplace_back(operand, 0);
          }
        } else {
          state[node] = 2;
          stack.pop_back();
        }
      }
    }
    return absl::OkStatus();
  }

  absl::Status CheckNoRecursion() const {
    absl::flat_hash_map<const HloComputation*, int> state;
    std::vector<const HloComputation*> path;
    for (const HloComputation* c : computations_) {
      AOT_RETURN_IF_ERROR(VisitCalls(c, state, path));
    }
    return absl::OkStatus();
  }

  absl::Status VisitCalls(const HloComputation* c,
                          absl::flat_hash_map<const HloComputation*, int>& state,
                          std::vector<const HloComputation*>& path) const {
    int& s = state[c];
    if (s == 2) return absl::OkStatus();
    if (s == 1) {
      auto start = std::find(path.begin(), path.end(), c);
      std::vector<std::string> names;
      for (auto it = start; it != path.end(); ++it) {
        names.push_back((*it)->name());
      }
      names.push_back(c->name());
      return Invalid(Describe(*c), " calls itself recursively: ", absl::StrJoin(names, " -> "));
    }
    s = 1;
    path.push_back(c);
    for (const HloInstruction* instruction : c->instructions()) {
      for (const HloComputation* callee : instruction->called_computations()) {
        AOT_RETURN_IF_ERROR(VisitCalls(callee, state, path));
      }
    }
    path.pop_back();
    state[c] = 2;
    return absl::OkStatus();
  }

  absl::Status VerifyShapes(const HloComputation& c) const {
    for (const HloInstruction* instruction : c.MakeInstructionPostOrder()) {
      absl::StatusOr<Shape> inferred = InferShape(*instruction);
      if (!inferred.ok()) {
        return absl::Status(inferred.status().code(),
                            absl::StrCat(Describe(c), ": ", inferred.status().message()));
      }
      if (!inferred->Compatible(instruction->shape())) {
        return Invalid(Describe(c, *instruction), ": declared shape ", Str(instruction->shape()),
                       " does not match the inferred shape ", Str(*inferred));
      }
    }
    return absl::OkStatus();
  }

  // Each sharding annotation parses and fits its value's shape and the
  // module's devices: its partitions (an SPMD program), or its replicas
  // when it has one partition.
  absl::Status VerifyShardings(const HloComputation& c) const {
    const int64_t partitions = module_.config().num_partitions;
    const int64_t devices = partitions > 1 ? partitions : module_.config().replica_count;
    for (const HloInstruction* instruction : c.instructions()) {
      const std::string& text = instruction->attrs().sharding;
      if (text.empty()) continue;
      absl::StatusOr<HloSharding> sharding = HloSharding::Parse(text);
      absl::Status valid =
          sharding.ok() ? sharding->Validate(instruction->shape(), std::max<int64_t>(devices, 1))
                        : sharding.status();
      AOT_RETURN_IF_ERROR_AND(valid, Invalid(Describe(c, *instruction), ": ", _.message()));
    }
    return absl::OkStatus();
  }

  absl::Status VerifyEntryLayout(const HloComputation& entry) const {
    const std::optional<ProgramShape>& layout = module_.config().entry_computation_layout;
    if (!layout.has_value()) return absl::OkStatus();
    const std::string where =
        absl::StrCat("entry_computation_layout of module '", module_.name(), "'");
    if (static_cast<int64_t>(layout->parameters.size()) != entry.num_parameters()) {
      return Invalid(where, " has ", layout->parameters.size(), " parameters but the entry ",
                     Describe(entry), " has ", entry.num_parameters());
    }
    for (int64_t i = 0; i < entry.num_parameters(); ++i) {
      const Shape& declared = layout->parameters[i];
      absl::Status valid = ValidateShape(declared);
      if (!valid.ok()) {
        return Invalid(where, ": parameter ", i, ": ", valid.message());
      }
      const HloInstruction* parameter = entry.parameter_instruction(i);
      if (!declared.Compatible(parameter->shape())) {
        return Invalid(where, ": parameter ", i, " is ", Str(declared), " but entry parameter '",
                       parameter->name(), "' is ", Str(parameter->shape()));
      }
    }
    absl::Status valid = ValidateShape(layout->result);
    if (!valid.ok()) {
      return Invalid(where, ": result: ", valid.message());
    }
    const Shape& root = entry.root_instruction()->shape();
    if (!layout->result.Compatible(root)) {
      return Invalid(where, ": result is ", Str(layout->result), " but the entry root '",
                     entry.root_instruction()->name(), "' is ", Str(root));
    }
    return absl::OkStatus();
  }

  const HloModule& module_;
  std::vector<HloComputation*> computations_;
  // The computations the module owns (computations() may list more).
  absl::flat_hash_set<const HloComputation*> owned_;
};

}  // namespace

absl::Status VerifyHloModule(const HloModule& module) { return ModuleVerifier(module).Run(); }

}  // namespace aot
