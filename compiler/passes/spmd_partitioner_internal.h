#ifndef AOT_COMPILER_PASSES_SPMD_PARTITIONER_INTERNAL_H_
#define AOT_COMPILER_PASSES_SPMD_PARTITIONER_INTERNAL_H_

// The SPMD partitioner's shared state and its handlers, internal to
// compiler/passes (the API is spmd_partitioner.h). One Partitioner object
// partitions one module: it walks each computation (spmd_partitioner.cc:
// the visitor, the per-instruction dispatch, control flow and the running
// state), asks the handler of each op family for the instruction on its
// tiles, and reshards between them (spmd_reshard.cc: the collectives that
// gather, slice, move or sum tiles). The handlers, one file per family as
// XLA's partitioner splits them:
//   spmd_elementwise_handler.cc     elementwise and shape ops cut along whole
//                                   dimensions, slices across tiles;
//   spmd_dot_handler.cc             dot;
//   spmd_convolution_handler.cc     convolution;
//   spmd_reduce_handler.cc          reduce and reduce-window;
//   spmd_gather_scatter_handler.cc  gather and scatter;
//   spmd_sort_handler.cc            sort;
//   spmd_collective_handler.cc      the program's own collectives across
//                                   replicas, on tiles;
//   spmd_tiles.cc                   TileOf, SplitArguments, AssembleTiles
//                                   (running a partitioned program).
// Each handler returns nullopt where its rule does not apply (the
// instruction is then resharded to run whole), an error where the program
// cannot be partitioned.
//
// The state: module_ (being rewritten), n_ partitions and replicas_;
// while one computation is built, comp_ (the new computation), names_,
// pid_ (its partition-id), rows_ (the partition-dependent constant tables
// PartitionRow made), manual_
// (the partially manual sharding in force); local_ and sharding_ map each
// old instruction to its local (per-partition) value and its sharding;
// sums_ caches the add computations of the sums.

#include <cmath>
#include <cstring>
#include <functional>
#include <limits>
#include <map>
#include <numeric>
#include <string>

#include "absl/container/flat_hash_map.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "compiler/hlo/collective_ops.h"
#include "compiler/hlo/hlo_computation.h"
#include "compiler/hlo/hlo_instruction.h"
#include "compiler/passes/call_inliner.h"
#include "compiler/passes/pass_utils.h"
#include "compiler/passes/sharding_propagation.h"
#include "compiler/passes/spmd_partitioner.h"
#include "support/status_macros.h"

namespace aot {
namespace spmd_internal {

// The data coordinates of `partition`'s tile, or nullopt when the tile
// assignment does not name it.
std::optional<std::vector<int64_t>> TileCoordinates(const HloSharding& s, int64_t partition,
                                                    std::vector<int64_t>* subgroup = nullptr);

absl::StatusOr<Shape> LocalShape(const Shape& full, const HloSharding& s, absl::string_view what);

// The full shape padded to whole tiles.
Shape PaddedShape(const Shape& full, const Shape& local, const HloSharding& s);

bool IsEven(const Shape& full, const HloSharding& s);

// The sharding of every array leaf of a value of `shape` under `s`, in
// order (a tuple sharding lists them flattened, as XLA writes it).
std::vector<HloSharding> LeafShardings(const HloSharding& s, const Shape& shape);

// The sharding of each element of the tuple `shape` under `s` (a tuple
// sharding of its leaves where the element is itself a tuple); `s` itself
// for an array.
std::vector<HloSharding> ElementShardings(const HloSharding& s, const Shape& shape);

bool HasManualSubgroup(const HloSharding& s);

// The coordinates of `partition` along the manual subgroup dimensions of
// `s` (empty without them).
std::vector<int64_t> ManualCoordinates(const HloSharding& s, int64_t partition);

// Copies the elements of the box [start, start + size) of `from` into
// `to` at `to_start` (both logical row-major).
void CopyBox(const Literal& from, const std::vector<int64_t>& from_start, Literal* to,
             const std::vector<int64_t>& to_start, const std::vector<int64_t>& size);

class Partitioner {
 public:
  Partitioner(HloModule* module, int64_t n)
      : module_(module), n_(n), replicas_(std::max<int64_t>(module->config().replica_count, 1)) {}

  absl::Status Run(PartitionedModule* out);

 private:
  // `c` partitioned into a new computation of the module: its parameters
  // take `params` (nullptr: their own shardings), its root is resharded to
  // `root` (nullptr: its own sharding). The builder's state (the
  // computation, its names, partition-id and per-partition tables) is the
  // new computation's while it is built, then the caller's again.
  absl::StatusOr<HloComputation*> PartitionComputation(const HloComputation& c,
                                                       const std::vector<HloSharding>* params,
                                                       const HloSharding* root);

  absl::Status BuildPartitioned(const HloComputation& c, const std::vector<HloSharding>* params,
                                const HloSharding* root);

  absl::StatusOr<HloSharding> ShardingOf(const HloInstruction& h);

  // `h` again in the new entry, on `operands`, with the result shape
  // `shape` (nullopt: h's own), without its sharding; `adjust` edits the
  // copy before it is added.
  HloInstruction* Again(const HloInstruction& h, std::vector<HloInstruction*> operands,
                        std::optional<Shape> shape = std::nullopt,
                        const std::function<void(HloInstruction*)>& adjust = nullptr);

  std::vector<int64_t> AllPartitions() const;

  HloInstruction* PartitionId(InstructionBuilder& b);

  // This partition's row of `table` (n_ rows of `width` values) as scalar
  // s32 values: partition-dependent constants, looked up by partition-id.
  std::vector<HloInstruction*> PartitionRow(InstructionBuilder& b,
                                            const std::vector<int64_t>& table, int64_t width);

  // Where partition `p`'s tile of a value of `full` starts, per dimension.
  static std::vector<int64_t> TileStart(const Shape& full, const HloSharding& s, int64_t p);

  // Scalar s32 offsets of this partition's tile of a value of `full`.
  std::vector<HloInstruction*> Offsets(InstructionBuilder& b, const Shape& full,
                                       const HloSharding& s);

  HloComputation* SumComputation(PrimitiveType type);

  // The full array from this partition's tile (every partition runs it),
  // by one all-gather whose group lists the devices in tile order, so any
  // tiling and device order works and each tile is sent once. One split
  // dimension, nothing replicated: the tiles concatenated along it. Any
  // other tiling: the tiles stacked along a new leading dimension, the
  // replicated copies but the first dropped, and the tile grid interleaved
  // with the tiles' own dimensions (a transpose) into the array.
  HloInstruction* GatherArray(InstructionBuilder& b, HloInstruction* local, const Shape& full,
                              const HloSharding& s);

  // GatherArray's collectives, over `grid` (the data tiles and replicated
  // subgroups), within each manual shard.
  HloInstruction* GatherTiles(InstructionBuilder& b, HloInstruction* local, const Shape& full,
                              const HloSharding& s, const Shape& padded,
                              const std::vector<int64_t>& grid, int64_t manual_shards,
                              int64_t split_dim, int64_t splits);

  // `value` (of the padded shape) without the padding past `full`.
  HloInstruction* CutPadding(InstructionBuilder& b, HloInstruction* value, const Shape& full);

  // This partition's tile of a full array.
  absl::StatusOr<HloInstruction*> SliceArray(InstructionBuilder& b, HloInstruction* full_value,
                                             const Shape& full, const HloSharding& s,
                                             absl::string_view what);

  // The one dimension `s` splits over all the partitions, its tiles even,
  // nothing replicated; -1 for any other sharding.
  int64_t OneSplitDimension(const Shape& full, const HloSharding& s) const;

  // The collective's groups: `groups` of partitions, members in rank
  // order, within every replica. With use_global_device_ids (all-reduce,
  // all-gather, reduce-scatter) the groups name global ids, replica r's
  // partition p being r * n + p; all-to-all's groups are partitions, which
  // its channel says.
  // In a partially manual region (manual_ set: a sharding with manual
  // subgroups), every group is split by the manual subgroup: the devices of
  // one manual shard work together, each shard on its own data.
  void Groups(HloInstruction* collective, std::vector<std::vector<int64_t>> groups);

  void OneGroup(HloInstruction* collective, std::vector<int64_t> members);

  // Resharding between two dimensions, rows to columns (Megatron's and
  // XLA's all-to-all): `from` splits dimension a and `to` dimension b over
  // the same device list. Each partition cuts its tile into n blocks along
  // b, sends block j to the partition holding tile j and stacks what it
  // receives along a: one all-to-all, each element sent once. nullptr where
  // the shardings are not of that form.
  HloInstruction* AllToAll(InstructionBuilder& b, HloInstruction* local, const Shape& full,
                           const HloSharding& from, const HloSharding& to);

  // Where every partition's `to` tile lies inside its `from` tile (from
  // replicated, or coarser along every dimension), the tile is cut from
  // the local value without communication. nullptr otherwise.
  HloInstruction* CutLocally(InstructionBuilder& b, HloInstruction* local, const Shape& full,
                             const HloSharding& from, const HloSharding& to);

  // A value of `full` held as tiles of `from`, as tiles of `to`: the local
  // value itself, a cut of it, one all-to-all, or else the full value
  // gathered and cut.
  absl::StatusOr<HloInstruction*> Reshard(InstructionBuilder& b, HloInstruction* local,
                                          const Shape& full, const HloSharding& from,
                                          const HloSharding& to, absl::string_view what);

  // Element by element of a tuple (nested ones too), or the array itself.
  absl::StatusOr<HloInstruction*> Gather(InstructionBuilder& b, HloInstruction* local,
                                         const Shape& full, const HloSharding& s);

  absl::StatusOr<HloInstruction*> Slice(InstructionBuilder& b, HloInstruction* full_value,
                                        const Shape& full, const HloSharding& s,
                                        absl::string_view what);

  absl::StatusOr<Shape> Local(const Shape& full, const HloSharding& s, absl::string_view what);

  absl::StatusOr<HloInstruction*> Partition(const HloInstruction& h, const HloSharding& s);

  // Slice, dynamic-slice, pad, reverse, concatenate and
  // dynamic-update-slice that leave every split dimension whole (sliced
  // from 0 to its end, not padded, not reversed, not the concatenated
  // dimension, updated over its whole extent), with their array operands
  // sharded as the result and even tiles: the same instruction on the
  // tiles (slice limits and slice sizes cut to the tile along the split
  // dimensions). nullopt otherwise.
  std::optional<HloInstruction*> CutAlongWholeDimensions(const HloInstruction& h,
                                                         const HloSharding& s);

  // Operand `k` of dot `h` as each partition's result tile under `s`
  // needs it: split along the batch dimensions as `s` splits them, whole
  // along its other dimensions (resharded from what the partition holds:
  // a local cut of a replicated operand).
  absl::StatusOr<HloInstruction*> DotOperandFor(InstructionBuilder& b, const HloInstruction& h,
                                                int64_t k, const HloSharding& s,
                                                const std::string& what);

  // Whether every partition holds exactly the operand tiles its result
  // tile of dot or convolution `h` needs: each split operand dimension maps
  // to a result dimension split as it is, tile for tile (a 2-D mesh: rows
  // of the lhs over one axis, columns of the rhs over the other, each
  // replicated over the other axis; a convolution's batch, or its kernel's
  // output features), even tiles. With `contraction_split`, a dot's
  // contracting dimensions may be split too (the dot of the tiles is then
  // a partial sum; ContractionGroups checks the rest). A convolution's
  // split spatial dimensions need halos (PartitionConvolution); with
  // feature groups (depthwise) only its batch may be split.
  bool HoldsItsResultTilesOperands(const HloInstruction& h, const HloSharding& s,
                                   bool contraction_split);

  // A dot whose operands are split along their contracting dimensions
  // alike (each partition holding matching contraction tiles) and along
  // the rest as the result is (2-D meshes: the row-parallel layer with its
  // rows also split over the data axis): the dot of the tiles is a partial
  // sum of the partition's result tile, and the partitions holding one
  // result tile, each a different contraction tile exactly once, sum them
  // by one all-reduce. The groups, or nullopt.
  std::optional<std::vector<std::vector<int64_t>>> ContractionGroups(const HloInstruction& h,
                                                                     const HloSharding& s);

  // A slice along the one split dimension (stride 1, devices in order, the
  // operand's tiles even) whose result tiles have the operand's tile size
  // (the result padded where it does not divide, as x[1:] of 16 rows over
  // 8 partitions): result tile j is rows [r, T) of operand tile j + c and
  // rows [0, r) of tile j + c + 1, where the slice starts at c T + r. Each
  // arrives by one collective-permute (none from the partition itself);
  // the other dimensions are sliced locally first.
  std::optional<HloInstruction*> SliceAcrossTiles(InstructionBuilder& b, const HloInstruction& h,
                                                  const HloSharding& s);

  // A reduce-window (pooling) whose window spans one element along every
  // split dimension (size 1, stride 1, no padding or dilation there: a
  // batch split), its operand sharded as the result and its init value
  // replicated: the reduce-window of the tile.
  std::optional<HloInstruction*> ReduceWindowOnTiles(const HloInstruction& h, const HloSharding& s);

  // A collective across replicas (no channel: its groups name replicas,
  // each partition meeting the same partition of the other replicas) on a
  // value sharded as its result: the collective of the tiles. All-reduce
  // and collective-permute on any tiling; all-gather, reduce-scatter and
  // all-to-all where their dimensions are not split.
  std::optional<HloInstruction*> AcrossReplicasOnTiles(InstructionBuilder& b,
                                                       const HloInstruction& h,
                                                       const HloSharding& s);

  // A sort whose operands are all sharded alike, along a dimension that is
  // not split, even tiles: each partition sorts its tile's rows.
  std::optional<HloInstruction*> SortOnTiles(const HloInstruction& h, const HloSharding& s);

  // A scatter whose split dimensions are neither indexed nor inserted and
  // whose update windows span them (the updates split alike through the
  // window dimensions), the indices replicated, even tiles: the scatter of
  // the tiles (a window is in bounds on its tile exactly when it is in the
  // full array).
  std::optional<HloInstruction*> ScatterOnTiles(const HloInstruction& h, const HloSharding& s);

  // The dot on tiles, where the operands' shardings allow it:
  // - one operand split on its batch or free dimensions, the other
  //   replicated, the result sharded as the split operand maps to it: the
  //   dot of the tile with the full operand;
  // - both split on their contracting dimensions alone, each partition
  //   holding matching contraction tiles (and nothing replicated): the dot
  //   of the tiles is a partial sum, summed over the partitions by one
  //   all-reduce (Megatron's row-parallel layer), then the result's tile.
  // nullopt: the general form.
  absl::StatusOr<std::optional<HloInstruction*>> PartitionDot(InstructionBuilder& b,
                                                              const HloInstruction& h,
                                                              const HloSharding& s,
                                                              const std::string& what);

  // Dot `h` on operand `k`'s tiles where its sharding maps onto the
  // result's `s` (with as many copies), the other operand brought to the
  // batch tile each partition needs (DotOperandFor); nullopt otherwise.
  absl::StatusOr<std::optional<HloInstruction*>> DotOnOperandTiles(InstructionBuilder& b,
                                                                   const HloInstruction& h,
                                                                   int64_t k, const HloSharding& s,
                                                                   const std::string& what);

  absl::StatusOr<std::optional<HloInstruction*>> PartitionDotOnTiles(InstructionBuilder& b,
                                                                     const HloInstruction& h,
                                                                     const HloSharding& s,
                                                                     const std::string& what);

  // Every partition's `partial` (of the full shape) summed over all the
  // partitions, as tiles of `s`: where `s` splits one dimension, reduced
  // and scattered at once (each partition receives only its tile's sums);
  // otherwise all-reduced and cut.
  absl::StatusOr<HloInstruction*> SumAcross(InstructionBuilder& b, HloInstruction* partial,
                                            const HloSharding& s, absl::string_view what);

  // An embedding lookup from a table split along one gathered dimension
  // (its rows over all the partitions, each index vector naming one row
  // there), the indices replicated: each partition looks up the indices
  // that fall in its rows (clamped first, as gather clamps them), zeros
  // elsewhere, and the partial results are summed across the partitions.
  // Only the result's size crosses partitions, never the table.
  absl::StatusOr<std::optional<HloInstruction*>> PartitionGather(InstructionBuilder& b,
                                                                 const HloInstruction& h,
                                                                 const HloSharding& s,
                                                                 const std::string& what);

  // A convolution whose input is split into strips along one spatial
  // dimension (devices in order, even tiles), the kernel replicated, where
  // every output tile reads the same number of rows around its input tile
  // (output tile x stride = input tile; any padding, stride and window
  // dilation; no base dilation): each partition receives the rows its
  // windows need from its neighbours (the halos, by at most two
  // collective-permutes; the edge partitions get zeros, which are the
  // padding) and convolves its extended strip without padding along that
  // dimension.
  absl::StatusOr<std::optional<HloInstruction*>> PartitionConvolution(InstructionBuilder& b,
                                                                      const HloInstruction& h,
                                                                      const HloSharding& s,
                                                                      const std::string& what);

  // A reduce over split dimensions: each partition reduces its tile, and
  // the partitions that hold the same kept coordinates combine their
  // partial results with one all-reduce of the same reduction. Only where
  // the reduction is one add, multiply, maximum or minimum whose init value
  // is its identity (each partition's partial result includes it), the
  // tiles are even, and the result is sharded as the operand maps to it.
  absl::StatusOr<std::optional<HloInstruction*>> PartitionSplitReduce(InstructionBuilder& b,
                                                                      const HloInstruction& h,
                                                                      const HloSharding& s,
                                                                      const std::string& what);

  HloModule* module_;
  int64_t n_;
  int64_t replicas_;        // each runs the n partitions on its own data
  bool annotated_ = false;  // any instruction of the module carries a sharding
  // The instruction being partitioned is in a partially manual region: its
  // sharding, or an operand's, with manual subgroups (nullptr otherwise).
  const HloSharding* manual_ = nullptr;
  HloComputation* comp_ = nullptr;
  NameUniquer names_;
  HloInstruction* pid_ = nullptr;
  int64_t next_channel_ = 1;
  absl::flat_hash_map<const HloInstruction*, HloInstruction*> local_;
  absl::flat_hash_map<const HloInstruction*, HloSharding> sharding_;
  std::map<std::string, std::vector<HloInstruction*>> rows_;
  std::map<PrimitiveType, HloComputation*> sums_;
};

}  // namespace spmd_internal
}  // namespace aot

#endif  // AOT_COMPILER_PASSES_SPMD_PARTITIONER_INTERNAL_H_
