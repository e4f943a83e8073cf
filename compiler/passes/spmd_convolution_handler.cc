// Convolution on tiles: batch, feature and spatial splits with halos.
#include "compiler/passes/spmd_partitioner_internal.h"

namespace aot {
namespace spmd_internal {

absl::StatusOr<std::optional<HloInstruction*>> Partitioner::PartitionConvolution(
    InstructionBuilder& b, const HloInstruction& h, const HloSharding& s, const std::string& what) {
  const HloSharding& in = sharding_.at(h.operand(0));
  if (!in.IsTiled() || sharding_.at(h.operand(1)).IsTiled() || !s.IsTiled() ||
      in.ReplicationFactor() != 1 || !h.attrs().convolution_dimension_numbers ||
      !h.attrs().window || h.attrs().feature_group_count != 1 || h.attrs().batch_group_count != 1 ||
      !IsEven(h.operand(0)->shape(), in)) {
    return std::optional<HloInstruction*>();
  }
  for (size_t i = 0; i < in.devices().size(); ++i) {
    if (in.devices()[i] != static_cast<int64_t>(i)) return std::optional<HloInstruction*>();
  }
  const ConvolutionDimensionNumbersProto& dn = *h.attrs().convolution_dimension_numbers;
  int64_t split = -1, spatial = -1;
  for (int64_t d = 0; d < in.DataRank(); ++d) {
    if (in.tile_dims()[d] == 1) continue;
    if (split >= 0) return std::optional<HloInstruction*>();
    split = d;
  }
  for (int i = 0; i < dn.input_spatial_dimensions_size(); ++i) {
    if (dn.input_spatial_dimensions(i) == split) spatial = i;
  }
  if (spatial < 0 || spatial >= h.attrs().window->dimensions_size()) {
    return std::optional<HloInstruction*>();
  }
  const WindowDimensionProto& w = h.attrs().window->dimensions(spatial);
  const int64_t size = h.operand(0)->shape().dimensions()[split];
  const int64_t tile = size / in.tile_dims()[split];
  const int64_t lo = w.padding_low(), hi = w.padding_high();
  const int64_t out_dim = dn.output_spatial_dimensions(spatial);
  const int64_t out_size = h.shape().dimensions()[out_dim];
  const int64_t stride = std::max<int64_t>(w.stride(), 1);
  const int64_t parts = in.tile_dims()[split];
  // Output tile j covers output rows [j T, (j + 1) T), which read input
  // rows [j T s - lo, j T s - lo + (T - 1) s + extent): with T s equal to
  // the input tile, the same `lo` rows from the left neighbour and
  // `right` rows from the right one for every partition (the edges'
  // missing neighbours give zeros, which are the padding).
  const int64_t extent = (w.size() - 1) * std::max<int64_t>(w.window_dilation(), 1) + 1;
  const int64_t out_tile = out_size % parts == 0 ? out_size / parts : -1;
  const int64_t right = (out_tile - 1) * stride + extent - lo - tile;
  if (w.base_dilation() > 1 || w.window_reversal() || lo < 0 || hi < 0 || out_tile <= 0 ||
      out_tile * stride != tile || lo > tile || right > tile || tile + lo + right <= 0) {
    return std::optional<HloInstruction*>();
  }
  std::optional<std::vector<int64_t>> m = OperandToResultMapping(h, 0);
  std::optional<HloSharding> mapped;
  if (m) {
    mapped = MapSharding(in, static_cast<int64_t>(h.operand(0)->shape().dimensions().size()), *m);
  }
  if (!mapped || !(*mapped == s)) return std::optional<HloInstruction*>();
  HloInstruction* local = local_.at(h.operand(0));
  const Shape& local_shape = local->shape();
  // Rows [from, to) of the strip along the split dimension.
  auto rows = [&](int64_t from, int64_t to) {
    Shape shape = local_shape;
    (*shape.mutable_dimensions())[split] = to - from;
    HloInstruction* slice = b.Op(HloOpcode::kSlice, shape, {local});
    for (int64_t d = 0; d < static_cast<int64_t>(local_shape.dimensions().size()); ++d) {
      slice->mutable_attrs()->slice.push_back(
          d == split ? SliceSpec{from, to, 1} : SliceSpec{0, local_shape.dimensions()[d], 1});
    }
    return slice;
  };
  auto permute = [&](HloInstruction* x, int64_t step) {
    HloInstruction* moved = b.Op(HloOpcode::kCollectivePermute, x->shape(), {x});
    for (int64_t p = 0; p < n_; ++p) {
      if (p + step >= 0 && p + step < n_) {
        moved->mutable_attrs()->source_target_pairs.emplace_back(p, p + step);
      }
    }
    moved->mutable_attrs()->channel_id = next_channel_++;
    return moved;
  };
  std::vector<HloInstruction*> pieces;
  if (lo > 0) pieces.push_back(permute(rows(tile - lo, tile), +1));  // from the left
  // The strip itself, without its last rows where the windows stop short
  // of them (a negative `right`).
  pieces.push_back(right < 0 ? rows(0, tile + right) : local);
  if (right > 0) pieces.push_back(permute(rows(0, right), -1));  // from the right
  HloInstruction* extended = pieces[0];
  if (pieces.size() > 1) {
    Shape shape = local_shape;
    (*shape.mutable_dimensions())[split] = tile + lo + right;
    extended = b.Op(HloOpcode::kConcatenate, shape, pieces);
    extended->mutable_attrs()->dimensions = {split};
  }
  AOT_ASSIGN_OR_RETURN(Shape out_local, Local(h.shape(), s, what));
  return std::optional<HloInstruction*>(
      Again(h, {extended, local_.at(h.operand(1))}, out_local, [&](HloInstruction* conv) {
        WindowDimensionProto* cw = conv->mutable_attrs()->window->mutable_dimensions(spatial);
        cw->set_padding_low(0);
        cw->set_padding_high(0);
      }));
}

}  // namespace spmd_internal
}  // namespace aot
