#ifndef AOT_COMPILER_CODEGEN_KERNEL_EMITTER_INTERNAL_H_
#define AOT_COMPILER_CODEGEN_KERNEL_EMITTER_INTERNAL_H_

// The kernel emitter's builder, internal to compiler/codegen (the API is
// kernel_emitter.h). One KernelBuilder emits one kernel: the function and
// its launch (kernel_emitter.cc: Build, the element-parallel loops, sibling
// outputs, the rng state), and the kernels of op families that need more
// than one element per thread, one file each:
//   kernel_emitter_reduction.cc  row and column reductions (host and GPU,
//                                warp shuffles);
//   kernel_emitter_layout.cc     concatenated rows and tiled transposes;
//   kernel_emitter_sort.cc       merge sort and the GPU bitonic sort;
//   kernel_emitter_scatter.cc    scatter (atomics on GPU), in-place
//                                dynamic-update-slice, select-and-scatter.
// Each Emit* that returns bool says whether its plan applied (false: the
// caller emits the general form).

#include <algorithm>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "compiler/codegen/elemental_emitter.h"
#include "compiler/codegen/ir_array.h"
#include "compiler/codegen/kernel_emitter.h"
#include "compiler/codegen/llvm_backend.h"
#include "compiler/hlo/hlo_computation.h"
#include "llvm/IR/IntrinsicsNVPTX.h"
#include "llvm/IR/IntrinsicsX86.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"
#include "runtime/kernel_payload.h"
#include "runtime/platform/host/host_kernel_abi.h"
#include "runtime/platform/host/host_kernel_loader.h"
#include "runtime/platform/rng_state_abi.h"
#include "support/status_macros.h"

namespace aot {
namespace kernel_internal {

inline constexpr int64_t kHostThreadsPerBlock = 1024;
inline constexpr int64_t kGpuThreadsPerBlock = 256;
// GPU rows of at most this many elements are reduced by one warp each.
inline constexpr int64_t kGpuWarpRowMaxLength = 256;
// Elements of a row a GPU row-reduction thread loads before combining.
inline constexpr int64_t kGpuRowUnroll = 4;
// GPU sort rows of at most this many elements are sorted in shared memory
// (a bitonic network, one block per row).
inline constexpr int64_t kGpuSortMaxLength = 8192;
// Static shared memory a kernel may declare on every CUDA device (more
// needs a dynamic, opt-in allocation).
inline constexpr int64_t kGpuStaticSharedBytes = 48 * 1024;
// Insertion-sorted run length of a merge sort.
inline constexpr int64_t kSortRun = 16;
// Operand columns per block of a parallel scatter.
inline constexpr int64_t kScatterColumnsPerBlock = 64;

// How a GPU scatter combines an update with one atomic operation: a
// single-operand scatter whose combiner is one add / maximum / minimum /
// and / or / xor of its two parameters, on an element type the hardware
// has that atomic for (32- and 64-bit integers; f32 and f64 for add), or
// that overwrites (returns the update) with unique_indices on an element
// of 1, 2, 4 or 8 bytes (a plain store: no two updates meet).
struct ScatterAtomic {
  llvm::AtomicRMWInst::BinOp op = llvm::AtomicRMWInst::Xchg;
  bool overwrite = false;
};
std::optional<ScatterAtomic> ScatterAtomicOf(const HloInstruction& scatter);

class KernelBuilder {
 public:
  KernelBuilder(const KernelSpec& spec, const TargetConfigProto& target)
      : spec_(spec),
        target_(target),
        gpu_(target.platform() == PLATFORM_CUDA),
        module_(std::make_unique<llvm::Module>(spec.name, context_)),
        b_(context_) {}

  absl::Status Build();

  llvm::Module& module() { return *module_; }
  const LaunchDimensionsProto& dims() const { return dims_; }

 private:
  void CreateFunction();

  // rng-get-and-update-state, delta=N: one thread returns the executable's
  // state {low, high} (runtime/platform/rng_state_abi.h) and advances it
  // by N: an atomic add to the low word, then the carry added to the high
  // word (so concurrent runs of the executable each take their own
  // values; a carry happens once in 2^64 counts).
  absl::Status EmitRngGetAndUpdateState(const HloInstruction& instr);

  // The target's launch limits (DeviceDescriptionProto), with those of
  // every CUDA device this compiler targets where a spec leaves one unset.
  struct GpuLimits {
    int64_t threads_per_block = 1024;  // threads_per_block_limit
    int64_t cores = 1;                 // core_count (SMs)
    int64_t threads_per_core = 2048;   // threads_per_core_limit
    int64_t blocks_x = 2147483647;     // block_dim_limit_x
  };
  GpuLimits Limits() const;
  // Threads of a GPU block for `wanted` threads: at most the target's limit.
  int64_t GpuThreads(int64_t wanted) const;

  // One element per thread; on a GPU, a grid of more blocks than the
  // target's block_dim_limit_x is capped there and each thread strides
  // over the elements by the grid's size (ForEachElement).
  void SetElementParallelDims(int64_t n);
  void SetDims(int64_t blocks, int64_t threads);

  // Runs body(linear) for every element index this block/thread owns.
  absl::Status ForEachElement(int64_t n, const std::function<absl::Status(llvm::Value*)>& body);

  // Runs body once, on the first thread of the first block.
  absl::Status Serially(const std::function<absl::Status()>& body);

  // A host kernel whose root is a large concatenate (under reshapes, which
  // keep the row-major order) and whose output has the default layout:
  // XLA's form, one loop per operand writing its part of each output row,
  // so no element selects among the operands. Rows (the dimensions before
  // the concatenated one) are split over blocks; each operand's part of a
  // row is contiguous in the output, and its loop vectorizes when the
  // operand reads contiguously (conv-im2col's window slices).
  static constexpr int64_t kConcatenateRowsMinElements = 64 * 1024;
  static constexpr int64_t kConcatenateRowsMinRows = 64;
  absl::StatusOr<bool> EmitHostConcatenateRows(const HloInstruction& root);

  absl::Status EmitElementParallel(const HloInstruction& root);

  // A multi-output fusion whose outputs differ in dimensions (XLA's sibling
  // fusion: say a row reduction beside an elementwise result). One grid
  // covers the largest output; each group of same-dimensioned outputs is
  // computed, under a bound check, at the linear index of its own shape.
  // Subexpressions the groups share are computed once per group.
  absl::Status EmitSiblingOutputs(const HloInstruction& root);

  // A kernel whose reduce (the root, or the one reduce of a fusion,
  // fusion.h's "kInput") reduces the trailing dimensions of its operand
  // (rows; a full reduction is one row), with one output that is either
  // the reduce's dimensions (stored once per row) or the operand's (an
  // epilogue computed per element of the row, reading the reduce only as
  // its own row's value).
  struct RowReductionPlan {
    const HloInstruction* hero = nullptr;
    int64_t rows = 0, row_length = 0;
    bool per_row = false;  // else per element of the row
    // Per element: the reduce's operand is also read by the epilogue (as
    // softmax's exp(x - max) is by its division), so the reduce loop stores
    // it into the output row and the epilogue loads it back from there
    // (the row is in L1) instead of computing it again. Only when it is
    // computed (not a kernel input), of the output's element type, and
    // read by the epilogue only elementwise (at the element being stored).
    bool cache_operand = false;
    Shape in_logical;
  };
  std::optional<RowReductionPlan> PlanRowReduction(const HloInstruction& root);

  // Host: blocks of whole rows. Each row is reduced by one loop (the
  // combiner reassociable, so it vectorizes with several accumulators),
  // then its root values are computed by a second loop over the row that
  // reads the reduce as the row's value, so the epilogue (softmax's
  // exp / sum) vectorizes too instead of re-entering the reduction per
  // element.
  absl::StatusOr<bool> EmitHostRowReduction(const HloInstruction& root);

  // body() when v < limit; with `check` false (the bound always holds)
  // body() unguarded. For loops over tiles or runs whose last one may be
  // short.
  absl::Status IfBelow(bool check, llvm::Value* v, int64_t limit,
                       const std::function<absl::Status()>& body);

  // (rows, columns) of a kernel whose root is a single-output reduce of
  // the leading dimensions of its one operand (a column reduction: the
  // reduced dimensions' product by the kept ones'); nullopt otherwise.
  std::optional<std::pair<int64_t, int64_t>> PlanColumnReduction(const HloInstruction& root);

  // Host: a kernel whose root is a reduce of the leading dimensions of its
  // one operand (a column reduction). Each block owns the element-parallel
  // grid's run of up to kHostThreadsPerBlock outputs, keeps their
  // accumulators in a stack array, and walks the reduced rows in order,
  // combining each row's run of contiguous elements (a loop across columns,
  // which vectorizes) instead of striding through the operand once per
  // output. Every column is combined in the serial order, so the results
  // are those of the plain loop. Returns false (nothing emitted) otherwise.
  absl::StatusOr<bool> EmitHostColumnReduction(const HloInstruction& root);

  // GPU: a reduce of the leading dimensions of its one operand (a column
  // reduction), XLA's tiled form. A block owns a tile of 32 columns: lane
  // x of warp y accumulates the tile's column x over rows y, y + W, ... (W
  // warps), so each warp reads 32 consecutive elements of a row
  // (coalesced) instead of each thread striding down its own column; the W
  // partials of a column meet in shared memory (rows padded to 33 slots
  // against bank conflicts), and the first warp combines them and stores
  // the tile's 32 results. Reassociates the reduction, as the row kernels
  // do. Returns false (nothing emitted) for any other kernel.
  absl::StatusOr<bool> EmitGpuColumnReduction(const HloInstruction& root);

  // Host: an element-parallel kernel with a transpose that moves the
  // operand's minor dimension (say [4096,4096]{1,0} -> {0,1}) walks its
  // output in kTransposeTile x kTransposeTile tiles of (d, last), d the
  // output dimension that is the operand's minor one, so the strided reads
  // of a tile hit the cache lines its neighbouring rows just brought in
  // (row-by-row order touches a new line, and often a new page, per
  // element). One tile per block; partial tiles at the edges are guarded.
  // Small kernels (under kTransposeTiledMinElements, within L2 anyway)
  // keep the plain row-major loop. Returns false (nothing emitted) when the
  // kernel has no such transpose.
  static constexpr int64_t kTransposeTile = 32;
  static constexpr int64_t kTransposeTiledMinElements = 64 * 1024;

  absl::StatusOr<bool> EmitHostTiledTranspose(const HloInstruction& kernel,
                                              const HloInstruction& root);

  // A staged transpose that is the kernel's root and only output, in the
  // default layout, 4 or 8 bytes an element, whole tiles along rows of a
  // multiple of 32 bytes: each tile row goes from the buffer to the output
  // as 32-byte vectors with streaming (non-temporal) stores. A tile row is
  // whole cache lines written once, far from the previous tile's rows, so
  // the store need not read each line first (measured: the 4096x4096 f32
  // transpose ~1.5x faster than with plain stores). The rows are 32-byte
  // aligned: buffers start 64-byte aligned (runtime ABI) and each row and
  // tile column offset is a multiple of 32 bytes. An sfence ends the block
  // so its stores are visible before the block is reported done. Returns
  // false (nothing emitted) otherwise.
  bool StreamTileRows(const HloInstruction& staged, const HloInstruction& root, int64_t rows,
                      int64_t cols, llvm::Value* row0, llvm::Value* col0,
                      const std::function<IrIndex(llvm::Value*, llvm::Value*)>& tile_index);

  // The staged transpose of EmitHostTiledTranspose: its tile buffer holds
  // element (row0 + i, col0 + j) at i * kTransposeTile + j (the root reads
  // it row by row, contiguously, so that loop vectorizes).
  struct TileStage {
    int64_t d = 0;
    llvm::Value* row0 = nullptr;
    llvm::Value* col0 = nullptr;
    llvm::AllocaInst* buffer = nullptr;
  };
  TileStage tile_;
  llvm::Value* TileSlot(llvm::Value* i, llvm::Value* j);
  absl::StatusOr<llvm::Value*> LoadFromTile(const IrIndex& index);

  // GPU: rows of up to kGpuWarpRowMaxLength are reduced by a warp each
  // (several rows per block, sized by the target's SM count), longer rows
  // by a block each (up to the target's thread limit when there are fewer
  // rows than SMs). Each thread accumulates a strided slice of the row, the
  // warp combines with butterfly shuffles, a block's warps through shared
  // memory, and the row's value is broadcast to the block through shared
  // memory. The root is then stored once per row, or per element of the
  // row by the row's threads reading the reduce as the row's value (never
  // recomputed). Reassociates the reduction (XLA does too);
  // the goldens compare CUDA outputs with a tolerance. Returns false
  // (nothing emitted) for any other kernel: column reductions, variadic
  // reduces, several outputs, accumulators that are neither 1..32 nor 64
  // bits wide.
  absl::StatusOr<bool> EmitGpuRowReduction(const HloInstruction& root);

  // Whether `h` reaches `root` only through elementwise ops, with exactly
  // one broadcast of dimensions {0..kept-1} to the input's dimensions on
  // every path when `broadcast_needed` (none otherwise).
  static bool ReadsOwnRow(const HloInstruction& h, const HloInstruction& root, int64_t kept,
                          const Shape& in, bool broadcast_seen, bool broadcast_needed);

  // `v` from the lane whose id differs from this one's in bit `offset`
  // (shfl.sync.bfly over the full warp), for values of 1..32 or 64 bits.
  llvm::Value* ShuffleXor(llvm::Value* v, int offset);

  // Copies input i into output i element by element (the serial kernels'
  // first phase).
  absl::Status CopyInto(const IrArray& from, const IrArray& to);

  absl::Status EmitSort(const HloInstruction& sort);

  // GPU: a row of at most kGpuSortMaxLength elements whose operands fit
  // in the block's shared memory is sorted by one block with a bitonic
  // network: the row (padded to a power of two P) goes to shared memory,
  // each of the network's stages spreads its P/2 compare-exchanges over
  // the block's threads with a barrier after it, and the first `len` slots
  // go back to the outputs. Every slot carries its element's position in
  // the row: padding (position >= len) orders after every element, and
  // elements the comparator finds equivalent order by position, so the
  // result is the stable serial sort's whatever is_stable says. Returns
  // false (nothing emitted) otherwise: the row-per-thread merge sort.
  absl::StatusOr<bool> EmitGpuBitonicSort(const HloInstruction& sort, int64_t len, int64_t rows,
                                          const std::function<IrIndex(llvm::Value*)>& index_at);

  llvm::Value* Min(llvm::Value* a, llvm::Value* b);

  // Scatter with n operands (variadic when n > 1: n operands, one index
  // array, n updates, a combiner over n old and n new values), batching
  // dimensions included. Runs serially: updates may collide.
  absl::Status EmitScatter(const HloInstruction& scatter);

  // A dynamic-update-slice whose output is its operand's buffer: one
  // element-parallel pass over the update, written at the clamped start
  // (the rest of the buffer already holds the operand).
  absl::Status EmitDynamicUpdateSliceInPlace(const HloInstruction& dus);

  absl::Status EmitSelectAndScatter(const HloInstruction& sas);

  const KernelSpec& spec_;
  const TargetConfigProto& target_;
  bool gpu_;
  llvm::LLVMContext context_;
  std::unique_ptr<llvm::Module> module_;
  llvm::IRBuilder<> b_;
  llvm::Function* fn_ = nullptr;
  std::vector<llvm::Value*> arg_ptrs_;
  llvm::Value* block_ = nullptr;
  llvm::Value* thread_ = nullptr;
  llvm::Value* threads_ = nullptr;
  std::vector<IrArray> inputs_, outputs_, scratch_;
  std::map<const HloInstruction*, int64_t> input_index_;
  // Instructions whose values this kernel has already put in memory (a
  // staged transpose tile, a row's cached reduce operand): the emitter
  // loads them there instead of computing them again.
  std::map<const HloInstruction*, std::function<absl::StatusOr<llvm::Value*>(const IrIndex&)>>
      materialized_;
  std::unique_ptr<ElementalEmitter> emitter_;
  LaunchDimensionsProto dims_;
};

}  // namespace kernel_internal
}  // namespace aot

#endif  // AOT_COMPILER_CODEGEN_KERNEL_EMITTER_INTERNAL_H_
