#ifndef AOT_COMPILER_PASSES_SPMD_PARTITIONER_H_
#define AOT_COMPILER_PASSES_SPMD_PARTITIONER_H_

// The SPMD partitioner (XLA's SpmdPartitioner, first form): a module whose
// values carry shardings (written, then propagated by ShardingPropagation)
// becomes one program that every partition runs, on its tile of each value,
// with partition-id based offsets and collectives where values change
// layout. The result has num_partitions = N and runs as N participants
// (emit_collectives); a module with replica_count R runs as R x N, every
// replica partitioned alike on its own data (the collectives' groups
// repeated within each replica).
//
// What each instruction becomes:
// - parameters: their tile (the entry takes each partition's tiles);
// - elementwise instructions whose operands are sharded like the result:
//   the same instruction on the tiles, no communication; operands sharded
//   alike but not as the result: on their tiles, the result resharded;
//   otherwise each operand resharded to the result's tiles;
// - a copy and a Sharding custom call (a sharding constraint): the operand
//   resharded (see Resharding below);
// - a scalar broadcast: made as the tile directly; broadcast, transpose,
//   reshape and a reduce over dimensions that are not split, when the
//   operand's sharding maps onto the result's: on the tile;
// - dot whose partitions each hold exactly the operand tiles their result
//   tile needs (no contraction split; on a 2-D mesh rows over one axis by
//   columns over the other): the dot of the tiles; with the contraction
//   also split alike, the partial sums all-reduced within the partitions
//   holding one result tile, each contraction tile counted once;
// - dot with one operand split on its batch or free dimensions, the other
//   replicated, and the result sharded as the split operand maps to it:
//   the dot on the tile (Megatron's column-parallel layer); both split
//   alike on batch dimensions (heads): the dot of the tiles; with both
//   operands split on their contracting dimensions alone, tile for tile:
//   the dot of the tiles, summed over the partitions (the row-parallel
//   layer): by one reduce-scatter where the result splits one dimension
//   over all partitions (sequence parallelism), else one all-reduce and the
//   result's tile;
// - a reduce over split dimensions (one add, multiply, maximum or minimum
//   from its identity): each tile reduced, the partial results combined by
//   one all-reduce within the partitions that share the kept coordinates;
// - a reduce-window whose window is one element wide along every split
//   dimension (pooling a batch split): on the tiles;
// - a convolution split by batch or by its kernel's output features (the
//   operands holding their result tile's tiles, as for dots): on the tiles;
// - a convolution split into strips along a spatial dimension (any
//   padding, stride and window dilation where output tile x stride = input
//   tile): the halo rows from the neighbours by at most two
//   collective-permutes, then the convolution of the extended strip;
// - gather along passthrough dimensions (the table split along dimensions
//   each slice takes whole, or the indices along their batch dimensions,
//   the other replicated): the gather of the tiles; an embedding lookup
//   from a table split along its gathered rows over all partitions: each
//   partition looks up the (clamped) indices in its rows, zeros elsewhere,
//   summed across partitions as the dot's partial sums are (the table is
//   never gathered);
// - slice, dynamic-slice, pad, reverse, concatenate, dynamic-update-slice
//   leaving every split dimension whole: on the tiles;
// - a slice of the one split dimension whose result tiles keep the
//   operand's tile size: rows from the partition's own and neighbours'
//   tiles by at most two collective-permutes;
// - a dot with one operand mapping onto the result, the other split some
//   other way: only the other gathered, then the dot on the tile;
// - a collective across replicas (no channel) on a value sharded as its
//   result: on the tiles (all-gather, reduce-scatter and all-to-all where
//   their dimensions are not split);
// - while and conditional: the bodies and branches partitioned with the
//   loop state's (branch operands') shardings, a body's root resharded to
//   the state's sharding, a condition's result replicated;
// - everything else (and any instruction whose operands are sharded
//   otherwise): its operands gathered to full values, the instruction on
//   full values, and the result's tile taken.
// Resharding a value: nothing where the shardings agree; a local cut where
// every partition's new tile lies inside its old one (replicated or
// partially replicated values refined); one all-to-all where one dimension
// split over all partitions becomes another over the same device list;
// otherwise gathered and cut. Any tiling is gathered by one all-gather
// whose group lists the devices in tile order (each tile sent once): along
// the split dimension for a split along one dimension, else the tiles
// stacked, the replicated copies but the first dropped and the tile grid
// interleaved into the array by a transpose.
// Tile offsets come from per-sharding tables indexed by partition-id.
// Uneven tiles: every tile has the first one's size (the dimension divided
// rounding up), the last ones padded past the array's end; gathering cuts
// the padding, slicing pads first; a contraction split unevenly takes the
// general form. Manual regions (shard_map): SPMDFullToShardShape gives its
// operand's tile, the instructions sharded {manual} (per-partition shapes,
// collectives included) run as written, SPMDShardToFullShape makes its
// operand the tile of its result. Partially manual regions (shard_map with
// axes left automatic: shardings with last_tile_dims={manual}) are
// partitioned along their automatic axes within each manual shard: every
// collective the partitioner adds there has its groups split by the manual
// subgroup; the custom calls check that both sides place each partition's
// automatic tile alike. Tuples, nested ones too, are handled element by
// element (a tuple sharding lists its leaves flattened, as XLA writes it).
// Collectives written in a partially manual region, and collectives
// between partitions outside a manual region, are refused by name.

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "compiler/hlo/hlo_module.h"
#include "compiler/hlo/hlo_sharding.h"

namespace aot {

struct PartitionedModule {
  std::unique_ptr<HloModule> module;  // one program for every partition
  // The shardings of the entry's parameters and result (per leaf of a
  // tuple result): how full values split into the partitions' arguments
  // and how their results assemble.
  std::vector<HloSharding> parameter_shardings;
  HloSharding result_sharding;
};

// Partitions `module` (not changed) for `num_partitions` partitions.
absl::StatusOr<PartitionedModule> PartitionSpmd(const HloModule& module, int64_t num_partitions);

// What every partition of `partitioned` communicates, as a user checks a
// sharding by it: each collective kind with its count and the bytes of its
// results (per partition; a loop body's counted once), e.g.
// "1 all-gather (16 KiB), 2 collective-permute (1 KiB)"; "no collectives"
// when there are none.
std::string DescribeCollectives(const HloModule& partitioned);

// Tile `partition` of the array `full` under `sharding` (replicated:
// `full`; uneven tiles zero-padded), and the full value back from every
// partition's tile (a tuple per element, with its leaf's sharding).
absl::StatusOr<Literal> TileOf(const Literal& full, const HloSharding& sharding, int64_t partition);
// Every partition's arguments: its tile of each of `arguments` under the
// parameters' shardings ([partition][parameter]).
absl::StatusOr<std::vector<std::vector<Literal>>> SplitArguments(
    const std::vector<Literal>& arguments, const PartitionedModule& partitioned);
absl::StatusOr<Literal> AssembleTiles(const std::vector<Literal>& tiles, const Shape& full_shape,
                                      const HloSharding& sharding);

}  // namespace aot

#endif  // AOT_COMPILER_PASSES_SPMD_PARTITIONER_H_
