#ifndef AOT_COMPILER_HLO_HLO_SHARDING_H_
#define AOT_COMPILER_HLO_HLO_SHARDING_H_

// XLA's sharding annotations (`sharding={...}` on an instruction): how an
// array is laid out over the partitions of an SPMD program. The HLO text
// and HloModuleProto keep the annotation verbatim (HloInstruction::attrs()
// .sharding, field 39); this is its structured form, parsed from that text,
// printed back in XLA's canonical spelling, and checked against the
// instruction's shape and the module's partition count.
//
// Forms (as XLA's HloSharding::ToString writes them):
//   {replicated}  {manual}  {unknown}  {maximal device=3}
//   {devices=[2,1,4]0,1,2,3,4,5,6,7}          tiled, explicit device list
//   {devices=[4,2]<=[8]}  {devices=[2,4]<=[4,2]T(1,0)}   iota device lists
//   {devices=[2,1,2]<=[4] last_tile_dim_replicate}       partial replication
//   {devices=[2,2,2]<=[8] last_tile_dims={manual, replicated}}
//   {{replicated}, {devices=[2]0,1}}           tuple (one per leaf)
// metadata={...}, shard_as N and shard_like N are accepted and dropped.

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "compiler/hlo/shape.h"

namespace aot {

class HloSharding {
 public:
  enum class Kind { kReplicated, kManual, kUnknown, kMaximal, kTiled, kTuple };
  // The kind of each trailing tile dimension that does not split data.
  enum class Subgroup { kReplicated, kManual };

  // Parses the annotation's text, braces included. Errors say what is wrong
  // and where in the text.
  static absl::StatusOr<HloSharding> Parse(absl::string_view text);

  static HloSharding Replicated();
  // Tiled over `tile_dims` (the last one a replicated subgroup when
  // `replicate_last`) with `devices` in row-major order; printed as an iota
  // list when the devices are 0..n-1 in order. All data tiles 1 and no
  // replication: replicated.
  static HloSharding Tiled(std::vector<int64_t> tile_dims, std::vector<int64_t> devices,
                           bool replicate_last);
  // The sharding of tuple leaves.
  static HloSharding Tuple(std::vector<HloSharding> elements);
  bool IsTiled() const { return kind_ == Kind::kTiled; }
  bool IsReplicated() const { return kind_ == Kind::kReplicated; }
  // Whether any data dimension is split (more than one tile).
  int64_t DataTileCount() const;

  Kind kind() const { return kind_; }
  int64_t device() const { return device_; }  // kMaximal
  // kTiled: the tile assignment's dimensions (data dimensions, then the
  // subgroup dimensions) and its devices in row-major order.
  const std::vector<int64_t>& tile_dims() const { return tile_dims_; }
  const std::vector<int64_t>& devices() const { return devices_; }
  const std::vector<Subgroup>& subgroups() const { return subgroups_; }
  bool replicate_on_last_tile_dim() const { return replicate_on_last_tile_dim_; }
  const std::vector<HloSharding>& tuple_elements() const { return tuple_elements_; }

  // Tile dimensions over the data (without the subgroup dimensions).
  int64_t DataRank() const;
  // How many devices hold a copy of each tile (product of the subgroup
  // dimensions); 1 for a tiled sharding without them.
  int64_t ReplicationFactor() const;
  // Number of distinct devices named (tiled: the tile assignment's size).
  int64_t DeviceCount() const;
  // kTiled: where `device` sits in the tile assignment (one coordinate per
  // tile_dims() entry: the data tile, then the subgroups); nullopt when the
  // assignment does not name it.
  std::optional<std::vector<int64_t>> TileIndexOf(int64_t device) const;

  // XLA's canonical text: iota lists stay iota lists.
  std::string ToString() const;

  // Checks against the annotated value's shape and the number of devices
  // (the module's partitions): the tile assignment's rank against the
  // shape's, its size against its device list, every device in range and
  // named once, a tuple's element count against the shape's leaves.
  absl::Status Validate(const Shape& shape, int64_t num_devices) const;

  bool operator==(const HloSharding& other) const;

 private:
  Kind kind_ = Kind::kReplicated;
  int64_t device_ = 0;
  std::vector<int64_t> tile_dims_;
  std::vector<int64_t> devices_;
  // When the list was written as an iota (<=[dims] T(perm)): kept for
  // printing.
  std::vector<int64_t> iota_dims_;
  std::vector<int64_t> iota_perm_;
  bool iota_ = false;
  bool replicate_on_last_tile_dim_ = false;
  std::vector<Subgroup> subgroups_;
  std::vector<HloSharding> tuple_elements_;

  friend class ShardingParser;
};

// The devices of an iota tile assignment: iota(prod(dims)) reshaped to
// `dims`, transposed by `perm` (empty: identity), flattened.
std::vector<int64_t> IotaDevices(const std::vector<int64_t>& dims,
                                 const std::vector<int64_t>& perm);

}  // namespace aot

#endif  // AOT_COMPILER_HLO_HLO_SHARDING_H_
