#ifndef AOT_COMPILER_BACKEND_COLLECTIVE_EMISSION_H_
#define AOT_COMPILER_BACKEND_COLLECTIVE_EMISSION_H_

#include <cstdint>

#include "absl/status/statusor.h"
#include "compiler/backend/buffer_assignment.h"
#include "compiler/hlo/hlo_instruction.h"
#include "compiler/hlo/hlo_module.h"
#include "proto/executable.pb.h"

namespace aot {

// Collectives behind the emission flag emit_collectives: the thunks of
// CollectiveConfigProto move flat buffers (concatenation and blocks along
// the most major dimension, as NCCL does). This pass makes that true: an
// all-gather, reduce-scatter or all-to-all whose dimension is not the
// major one of a default-layout operand and result becomes
//   transpose (dimension first) -> the op along dimension 0 -> transpose
// back; the transposes are ordinary kernels (fusible). Variadic forms
// that would need it are Unimplemented (naming the instruction). Returns
// whether it changed anything.
absl::StatusOr<bool> MakeCollectiveDimensionsMajor(HloModule* module);

// Participants of the module: replica_count x num_partitions.
int64_t ParticipantCount(const HloModule& module);

// The device assignment of a multi-participant module (participant i on
// device i).
DeviceAssignmentProto DeviceAssignmentFor(const HloModule& module);

// Whether the instruction becomes a collective thunk (the collectives, and
// replica-id / partition-id in a module of several participants).
bool EmitsCollectiveThunk(const HloInstruction& instruction);

// The thunk of a collective instruction, its buffers from `assignment`.
// Errors (Unimplemented) name the instruction: an all-reduce whose
// to_apply is not add/multiply/minimum/maximum (what NCCL reduces), an
// element type collectives do not move, a layout the thunk cannot take.
absl::StatusOr<ThunkProto> EmitCollectiveThunk(const HloInstruction& instruction,
                                               const BufferAssignment& assignment);

}  // namespace aot

#endif  // AOT_COMPILER_BACKEND_COLLECTIVE_EMISSION_H_
