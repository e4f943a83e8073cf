#ifndef AOT_COMPILER_PASSES_SUB_BYTE_PACKING_H_
#define AOT_COMPILER_PASSES_SUB_BYTE_PACKING_H_

#include "absl/status/statusor.h"
#include "compiler/hlo/hlo_module.h"

namespace aot {

// Packed sub-byte layouts at the entry (XLA's `E(n)`, emission flag
// emit_packed_sub_byte_layouts). An entry parameter or result leaf whose
// ABI shape (the module's entry_computation_layout, else the entry's own
// shapes) is a sub-byte type packed n bits per element (8/n per byte in
// physical order, the first in the most significant bits, as XLA's
// PackIntN) becomes a u8[ceil(elements * n / 8)] buffer here:
//  - a packed parameter is a u8 parameter, unpacked right after it (each
//    element's bits shifted out and masked, signed types sign-extended
//    through s8, in physical order, then transposed to logical order when
//    the layout is not the default);
//  - a packed result leaf is packed before it leaves (padded with zeros to
//    whole bytes, shifted into place and or-ed).
// The module's entry_computation_layout then names the u8 buffers; the
// caller records the ABI shapes it captured before (same byte sizes) in
// the executable. Everything inside computes on one byte per element, as
// without packing.
//
// f4e2m1fn is decoded from and encoded to its 4-bit codes arithmetically
// (DecodeFp4 / EncodeFp4), the integers by shifts and converts.
//
// Packed leaves of tuple-typed parameters and results are handled leaf by
// leaf, the tuples rebuilt around them. Returns whether anything changed.
absl::StatusOr<bool> LowerSubBytePacking(HloModule* module);

}  // namespace aot

#endif  // AOT_COMPILER_PASSES_SUB_BYTE_PACKING_H_
