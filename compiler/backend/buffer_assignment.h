#ifndef AOT_COMPILER_BACKEND_BUFFER_ASSIGNMENT_H_
#define AOT_COMPILER_BACKEND_BUFFER_ASSIGNMENT_H_

#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "compiler/hlo/hlo_module.h"
#include "proto/executable.pb.h"

namespace aot {

using ShapeIndex = std::vector<int64_t>;

// Where every array value of the module lives at run time:
//  - one PARAMETER allocation per array leaf of the entry parameters,
//    numbered depth-first (tuple-typed parameters are passed as leaves);
//  - one CONSTANT allocation per array leaf of a constant (bytes stored
//    once in the executable's `binary`);
//  - one OUTPUT allocation holding the result leaves;
//  - one TEMP allocation for everything else, slices reused between values
//    whose live ranges do not overlap (entry computation order), kernels'
//    scratch buffers included (live only at their instruction).
// get-tuple-element, tuple and layout-preserving bitcast/reshape define no
// buffer: they alias their operands. A while loop's state, its body's
// parameter and its result share slices; a conditional branch's parameter
// aliases the conditional's operand. A dynamic-update-slice whose operand
// nothing reads afterwards updates that buffer in place (UpdatesInPlace).
class BufferAssignment {
 public:
  // `module` must be scheduled: calls inlined, fusion done. Computations
  // reached through while/conditional are sequenced like the entry.
  static absl::StatusOr<std::unique_ptr<BufferAssignment>> Run(const HloModule& module);

  // The slice of leaf `index` of `instruction`'s value.
  absl::StatusOr<BufferSliceProto> GetSlice(const HloInstruction& instruction,
                                            const ShapeIndex& index = {}) const;
  // Slices of every array leaf, depth-first.
  absl::StatusOr<std::vector<BufferSliceProto>> GetLeafSlices(
      const HloInstruction& instruction) const;
  // Slices of the scratch buffers `instruction`'s kernel needs
  // (KernelScratchShapes), live only while it runs; empty for most.
  std::vector<BufferSliceProto> GetScratchSlices(const HloInstruction& instruction) const;
  // Whether dynamic-update-slice `instruction` writes its update into its
  // operand's buffer (its result's buffer): its kernel writes only the
  // update.
  bool UpdatesInPlace(const HloInstruction& instruction) const;
  // Whether `instruction` defines new buffers (false for aliases).
  bool DefinesBuffers(const HloInstruction& instruction) const;

  // Staging slice for leaf `leaf` of a while body's result when it must be
  // copied through a temporary (it aliases another state leaf); none when
  // a direct copy is safe.
  std::optional<BufferSliceProto> WhileStaging(const HloInstruction& while_instr,
                                               int64_t leaf) const;

  const std::vector<BufferAllocationProto>& allocations() const { return allocations_; }
  // Constant allocation index -> the constant instruction and the leaf
  // ordinal of its value held there (0 for an array constant).
  const std::map<int64_t, std::pair<const HloInstruction*, int64_t>>& constants() const {
    return constants_;
  }
  // Extra copies into the output allocation needed at the end of the entry
  // computation: (source, destination).
  const std::vector<std::pair<BufferSliceProto, BufferSliceProto>>& output_copies() const {
    return output_copies_;
  }
  // The entry result leaves' slices (in the OUTPUT allocation, or in the
  // PARAMETER allocation of the parameter leaf an aliased leaf lives in).
  const std::vector<BufferSliceProto>& result_slices() const { return result_slices_; }
  // The module's input_output_alias as placed: (result leaf ordinal, flat
  // parameter number, must-alias), sorted by leaf.
  struct ResultAlias {
    int64_t result_leaf = 0;
    int64_t parameter_number = 0;
    bool must_alias = false;
    auto operator<=>(const ResultAlias&) const = default;
  };
  const std::vector<ResultAlias>& result_aliases() const { return result_aliases_; }
  int64_t temp_bytes() const { return temp_bytes_; }

  // Human-readable dump (aotc --stage=buffer-assignment).
  std::string ToString() const;

 private:
  struct Buffer {
    int id = 0;
    std::string label;  // "instr{leaf}"
    int64_t size = 0;
    int64_t def = 0;       // entry-level position
    int64_t last_use = 0;  // entry-level position
    int64_t allocation = -1;
    int64_t offset = 0;
    bool output = false;
    // Entry-level position of the last instruction that reads it (-1: none).
    int64_t last_read = -1;
    // The instruction whose value it is (null for scratch and staging).
    const HloInstruction* definer = nullptr;
  };
  int NewBuffer(std::string label, int64_t size, int64_t position);

  std::vector<Buffer> buffers_;
  // (instruction, leaf ordinal) -> buffer id.
  std::map<std::pair<const HloInstruction*, int64_t>, int> value_buffer_;
  std::map<const HloInstruction*, bool> defines_;
  std::map<const HloInstruction*, std::vector<int>> scratch_;
  std::set<const HloInstruction*> in_place_;
  std::map<std::pair<const HloInstruction*, int64_t>, int> while_staging_;
  std::vector<BufferAllocationProto> allocations_;
  std::map<int64_t, std::pair<const HloInstruction*, int64_t>> constants_;
  std::vector<std::pair<BufferSliceProto, BufferSliceProto>> output_copies_;
  std::vector<BufferSliceProto> result_slices_;
  std::vector<ResultAlias> result_aliases_;
  std::map<int, BufferSliceProto> slice_of_buffer_;
  int64_t temp_bytes_ = 0;

  friend class BufferAssigner;
};

// Leaf ordinal of `index` in `shape` (depth-first numbering of array leaves).
int64_t LeafOrdinal(const Shape& shape, const ShapeIndex& index);
int64_t LeafCount(const Shape& shape);

}  // namespace aot

#endif  // AOT_COMPILER_BACKEND_BUFFER_ASSIGNMENT_H_
