// Running a partitioned program: a full value cut into its tiles, and the
// tiles assembled back.
#include "compiler/passes/spmd_partitioner.h"
#include "compiler/passes/spmd_partitioner_internal.h"

namespace aot {
namespace spmd_internal {

// Copies the elements of the box [start, start + size) of `from` into
// `to` at `to_start` (both logical row-major).
void CopyBox(const Literal& from, const std::vector<int64_t>& from_start, Literal* to,
             const std::vector<int64_t>& to_start, const std::vector<int64_t>& size) {
  const int64_t bytes = from.element_count() == 0
                            ? 0
                            : static_cast<int64_t>(from.raw().size()) / from.element_count();
  const auto& fd = from.shape().dimensions();
  const auto& td = to->shape().dimensions();
  std::vector<int64_t> index(size.size(), 0);
  int64_t count = 1;
  for (int64_t s : size) count *= s;
  for (int64_t k = 0; k < count; ++k) {
    int64_t fi = 0, ti = 0;
    for (size_t d = 0; d < size.size(); ++d) {
      fi = fi * fd[d] + from_start[d] + index[d];
      ti = ti * td[d] + to_start[d] + index[d];
    }
    std::memcpy(to->raw_data() + ti * bytes, from.raw().data() + fi * bytes, bytes);
    for (int64_t d = static_cast<int64_t>(size.size()) - 1; d >= 0; --d) {
      if (++index[d] < size[d]) break;
      index[d] = 0;
    }
  }
}

}  // namespace spmd_internal

using spmd_internal::CopyBox;
using spmd_internal::ElementShardings;
using spmd_internal::LocalShape;
using spmd_internal::TileCoordinates;

absl::StatusOr<Literal> TileOf(const Literal& full, const HloSharding& sharding,
                               int64_t partition) {
  if (!sharding.IsTiled()) return full;
  std::optional<std::vector<int64_t>> coords = TileCoordinates(sharding, partition);
  if (!coords) {
    return absl::InvalidArgumentError(
        absl::StrCat("sharding ", sharding.ToString(), " has no tile on partition ", partition));
  }
  AOT_ASSIGN_OR_RETURN(Shape local, LocalShape(full.shape(), sharding, "argument"));
  Literal tile(local);  // zeros where the tile runs past the array
  std::vector<int64_t> start(coords->size()), extent(coords->size());
  for (size_t d = 0; d < start.size(); ++d) {
    start[d] = (*coords)[d] * local.dimensions()[d];
    extent[d] = std::max<int64_t>(
        0, std::min(local.dimensions()[d], full.shape().dimensions()[d] - start[d]));
  }
  CopyBox(full, start, &tile, std::vector<int64_t>(start.size(), 0), extent);
  return tile;
}

absl::StatusOr<std::vector<std::vector<Literal>>> SplitArguments(
    const std::vector<Literal>& arguments, const PartitionedModule& partitioned) {
  if (arguments.size() != partitioned.parameter_shardings.size()) {
    return absl::InvalidArgumentError(absl::StrCat("the program takes ",
                                                   partitioned.parameter_shardings.size(),
                                                   " arguments, got ", arguments.size()));
  }
  const int64_t n = partitioned.module->config().num_partitions;
  std::vector<std::vector<Literal>> out(n);
  for (int64_t p = 0; p < n; ++p) {
    for (size_t i = 0; i < arguments.size(); ++i) {
      AOT_ASSIGN_OR_RETURN(Literal tile,
                           TileOf(arguments[i], partitioned.parameter_shardings[i], p));
      out[p].push_back(std::move(tile));
    }
  }
  return out;
}

absl::StatusOr<Literal> AssembleTiles(const std::vector<Literal>& tiles, const Shape& full_shape,
                                      const HloSharding& sharding) {
  if (tiles.empty()) return absl::InvalidArgumentError("no tiles to assemble");
  if (full_shape.IsTuple()) {
    // Per element, with its leaf's sharding.
    std::vector<Literal> elements;
    for (size_t i = 0; i < full_shape.tuple_shapes().size(); ++i) {
      std::vector<Literal> element_tiles;
      for (const Literal& t : tiles) {
        if (i >= t.tuple_elements().size()) {
          return absl::InvalidArgumentError("a partition's result is not the expected tuple");
        }
        element_tiles.push_back(t.tuple_element(i));
      }
      const HloSharding leaf = ElementShardings(sharding, full_shape).at(i);
      AOT_ASSIGN_OR_RETURN(Literal e,
                           AssembleTiles(element_tiles, full_shape.tuple_shapes()[i], leaf));
      elements.push_back(std::move(e));
    }
    return Literal::Tuple(std::move(elements));
  }
  if (!sharding.IsTiled()) return tiles[0];
  Literal full(full_shape);
  for (int64_t p = 0; p < static_cast<int64_t>(tiles.size()); ++p) {
    std::optional<std::vector<int64_t>> coords = TileCoordinates(sharding, p);
    if (!coords) continue;
    const auto& local = tiles[p].shape().dimensions();
    std::vector<int64_t> start(coords->size()), extent(coords->size());
    for (size_t d = 0; d < start.size(); ++d) {
      start[d] = (*coords)[d] * local[d];
      extent[d] = std::max<int64_t>(0, std::min(local[d], full_shape.dimensions()[d] - start[d]));
    }
    CopyBox(tiles[p], std::vector<int64_t>(start.size(), 0), &full, start, extent);
  }
  return full;
}

}  // namespace aot
