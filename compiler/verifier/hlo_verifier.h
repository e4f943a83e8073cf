#ifndef AOT_COMPILER_VERIFIER_HLO_VERIFIER_H_
#define AOT_COMPILER_VERIFIER_HLO_VERIFIER_H_

#include "absl/status/status.h"
#include "compiler/hlo/hlo_module.h"

namespace aot {

// Checks that `module` is well formed, as XLA's HloVerifier does, before
// any pass or the compiler relies on it:
//  - structure: an entry computation that belongs to the module; unique
//    computation names, and instruction names unique within each
//    computation (XLA text reuses names across computations); every
//    computation has a root
//    in it; parameter numbers unique and contiguous 0..n-1 and registered
//    as the computation's parameters; operands non-null, in the same
//    computation, acyclic, and recording the instruction as a user;
//    instructions know their computation;
//  - calls: called computations exist in the module, come in the count the
//    opcode needs, and no computation calls itself directly or indirectly;
//  - shapes: every declared shape is valid (array element types,
//    non-negative dimensions, layouts that are permutations of the right
//    rank); InferShape() succeeds and is Compatible() with the declared
//    shape (which also checks operand counts, attributes and the signatures
//    of called computations);
//  - the config's entry_computation_layout, if set, matches the entry
//    computation's parameters and result (ignoring layouts).
// Errors are InvalidArgument and name the computation and the instruction:
//   computation 'main': instruction 'add.3' (add): operand 1 has shape
//   s32[2] but operand 0 has f32[2]
absl::Status VerifyHloModule(const HloModule& module);

}  // namespace aot

#endif  // AOT_COMPILER_VERIFIER_HLO_VERIFIER_H_
