#ifndef AOT_COMPILER_HLO_HLO_MODULE_H_
#define AOT_COMPILER_HLO_HLO_MODULE_H_

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "compiler/hlo/hlo_computation.h"
#include "proto/hlo.pb.h"

namespace aot {

struct ProgramShape {
  std::vector<Shape> parameters;
  std::vector<std::string> parameter_names;
  Shape result;

  // "(p0: f32[2]{0}, p1: s32[]) -> f32[2]{0}"
  std::string ToString() const;
  ProgramShapeProto ToProto() const;
};

// One entry of HLO's input_output_alias: the result leaf at `output_index`
// may (or must) share the buffer of leaf `parameter_index` of entry
// parameter `parameter_number`.
struct HloInputOutputAlias {
  std::vector<int64_t> output_index;
  int64_t parameter_number = 0;
  std::vector<int64_t> parameter_index;
  bool must_alias = false;

  // "{0}: (0, {}, may-alias)"
  std::string ToString() const;
  bool operator==(const HloInputOutputAlias&) const = default;
};

struct HloModuleConfig {
  // The entry computation's parameter and result shapes with layouts (from
  // the header's entry_computation_layout, or the entry's own shapes).
  std::optional<ProgramShape> entry_computation_layout;
  int64_t replica_count = 1;
  int64_t num_partitions = 1;
  uint64_t seed = 0;
  // The header's input_output_alias, in output-index order.
  std::vector<HloInputOutputAlias> input_output_aliases;
};

// A module: computations (callees before callers, as printed), one entry.
class HloModule {
 public:
  explicit HloModule(std::string name) : name_(std::move(name)) {}

  const std::string& name() const { return name_; }
  void set_name(std::string name) { name_ = std::move(name); }

  HloComputation* AddComputation(std::unique_ptr<HloComputation> computation,
                                 bool is_entry = false);
  HloComputation* entry_computation() const { return entry_; }
  void set_entry_computation(HloComputation* entry) { entry_ = entry; }
  std::vector<HloComputation*> computations() const;
  HloComputation* FindComputation(absl::string_view name) const;
  // Removes computations no instruction calls (other than the entry).
  void RemoveUnreachableComputations();

  const HloModuleConfig& config() const { return config_; }
  HloModuleConfig* mutable_config() { return &config_; }

  // The entry computation's program shape (from its instructions).
  ProgramShape EntryProgramShape() const;

  // Next id for a new instruction or computation (ids are unique per module).
  int64_t NewUniqueId() { return next_unique_id_++; }
  // Makes every later NewUniqueId() greater than `id`.
  void ReserveUniqueIdsUpTo(int64_t id) {
    if (id >= next_unique_id_) next_unique_id_ = id + 1;
  }
  // Renumbers every instruction and computation 1..N in print order.
  void Renumber();

  // HLO text in XLA's syntax; parsing it back gives an equal module.
  std::string ToString() const;
  HloModuleProto ToProto() const;
  HloModuleConfigProto ConfigToProto() const;
  // A deep copy (via text), same names and ids.
  std::unique_ptr<HloModule> Clone() const;

 private:
  std::string name_;
  std::vector<std::unique_ptr<HloComputation>> computations_;
  HloComputation* entry_ = nullptr;
  HloModuleConfig config_;
  int64_t next_unique_id_ = 1;
};

// Builds a module from its proto form (the inverse of ToProto). Every id
// reference is checked; errors name the computation and instruction.
absl::StatusOr<std::unique_ptr<HloModule>> HloModuleFromProto(
    const HloModuleProto& proto, const HloModuleConfigProto* config = nullptr);

}  // namespace aot

#endif  // AOT_COMPILER_HLO_HLO_MODULE_H_
