#ifndef AOT_COMPILER_BENCH_BENCH_PROGRAMS_H_
#define AOT_COMPILER_BENCH_BENCH_PROGRAMS_H_

// The HLO programs the host and CUDA benchmarks share, so both measure the
// same shapes (issue 13's and issue 17's workloads), also run at other
// shapes by the differential and steady-state allocation tests.

#include <cstdint>
#include <string>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_replace.h"
#include "absl/strings/string_view.h"

namespace aot::bench {

inline constexpr int64_t kRows = 2048, kCols = 4096, kBytes = kRows * kCols * 4;

// `text` with "$R" and "$C" replaced by the row and column counts.
inline std::string WithDims(absl::string_view text, int64_t rows, int64_t cols) {
  return absl::StrReplaceAll(text, {{"$R", absl::StrCat(rows)}, {"$C", absl::StrCat(cols)}});
}

// x*y+x on f32[rows,cols].
inline std::string Elementwise(int64_t rows, int64_t cols) {
  return WithDims(R"(HloModule elementwise
ENTRY e {
  x = f32[$R,$C] parameter(0)
  y = f32[$R,$C] parameter(1)
  m = f32[$R,$C] multiply(x, y)
  ROOT r = f32[$R,$C] add(m, x)
})",
                  rows, cols);
}

// The sum of f32[rows,cols] over `dimensions` ("{1}": rows, "{0}":
// columns, "{0,1}": everything), of shape `result`.
inline std::string Sum(int64_t rows, int64_t cols, absl::string_view dimensions,
                       absl::string_view result) {
  return absl::StrReplaceAll(WithDims(R"(HloModule sum
add {
  a = f32[] parameter(0)
  b = f32[] parameter(1)
  ROOT s = f32[] add(a, b)
}
ENTRY e {
  x = f32[$R,$C] parameter(0)
  z = f32[] constant(0)
  ROOT r = RESULT reduce(x, z), dimensions=DIMS, to_apply=add
})",
                                      rows, cols),
                             {{"RESULT", WithDims(result, rows, cols)}, {"DIMS", dimensions}});
}
// Row sums f32[rows,cols] -> f32[rows], column sums -> f32[cols], and the
// sum of every element.
inline std::string RowSum(int64_t rows, int64_t cols) { return Sum(rows, cols, "{1}", "f32[$R]"); }
inline std::string ColumnSum(int64_t rows, int64_t cols) {
  return Sum(rows, cols, "{0}", "f32[$C]");
}
inline std::string FullSum(int64_t rows, int64_t cols) { return Sum(rows, cols, "{0,1}", "f32[]"); }

// Softmax over the rows of f32[rows,cols].
inline std::string Softmax(int64_t rows, int64_t cols) {
  return WithDims(R"(HloModule softmax
max {
  a = f32[] parameter(0)
  b = f32[] parameter(1)
  ROOT m = f32[] maximum(a, b)
}
add {
  a = f32[] parameter(0)
  b = f32[] parameter(1)
  ROOT s = f32[] add(a, b)
}
ENTRY e {
  x = f32[$R,$C] parameter(0)
  ninf = f32[] constant(-inf)
  mx = f32[$R] reduce(x, ninf), dimensions={1}, to_apply=max
  mxb = f32[$R,$C] broadcast(mx), dimensions={0}
  d = f32[$R,$C] subtract(x, mxb)
  e = f32[$R,$C] exponential(d)
  zero = f32[] constant(0)
  s = f32[$R] reduce(e, zero), dimensions={1}, to_apply=add
  sb = f32[$R,$C] broadcast(s), dimensions={0}
  ROOT r = f32[$R,$C] divide(e, sb)
})",
                  rows, cols);
}

// The benchmarks' shapes.
inline const std::string kElementwise = Elementwise(kRows, kCols);
inline const std::string kRowSum = RowSum(kRows, kCols);
inline const std::string kSoftmax = Softmax(4096, 1024);
inline constexpr int64_t kSoftmaxBytes = 2 * 4096 * 1024 * 4;  // read + written

// `type`[n,n] x `type`[n,n].
inline std::string Dot(int64_t n, absl::string_view type = "f32") {
  return absl::StrReplaceAll(WithDims(R"(HloModule dot
ENTRY e {
  a = T[$R,$R] parameter(0)
  b = T[$R,$R] parameter(1)
  ROOT c = T[$R,$R] dot(a, b), lhs_contracting_dims={1}, rhs_contracting_dims={0}
})",
                                      n, n),
                             {{"T[", absl::StrCat(type, "[")}});
}

// An MLP block: relu(x w1 + b1) w2 + b2, x f32[m,k], w1 f32[k,h], w2 f32[h,k].
inline std::string Mlp(int64_t m, int64_t k, int64_t h) {
  return absl::StrReplaceAll(
      R"(HloModule mlp
ENTRY e {
  x = f32[$M,$K] parameter(0)
  w1 = f32[$K,$H] parameter(1)
  b1 = f32[$H] parameter(2)
  w2 = f32[$H,$K] parameter(3)
  b2 = f32[$K] parameter(4)
  d1 = f32[$M,$H] dot(x, w1), lhs_contracting_dims={1}, rhs_contracting_dims={0}
  bb1 = f32[$M,$H] broadcast(b1), dimensions={1}
  a1 = f32[$M,$H] add(d1, bb1)
  z = f32[] constant(0)
  zb = f32[$M,$H] broadcast(z), dimensions={}
  r = f32[$M,$H] maximum(a1, zb)
  d2 = f32[$M,$K] dot(r, w2), lhs_contracting_dims={1}, rhs_contracting_dims={0}
  bb2 = f32[$M,$K] broadcast(b2), dimensions={1}
  ROOT o = f32[$M,$K] add(d2, bb2)
})",
      {{"$M", absl::StrCat(m)}, {"$K", absl::StrCat(k)}, {"$H", absl::StrCat(h)}});
}

// Ascending sort of each row of f32[rows,cols].
inline std::string SortRows(int64_t rows, int64_t cols) {
  return WithDims(R"(HloModule sort
lt {
  a = f32[] parameter(0)
  b = f32[] parameter(1)
  ROOT l = pred[] compare(a, b), direction=LT
}
ENTRY e {
  x = f32[$R,$C] parameter(0)
  ROOT s = f32[$R,$C] sort(x), dimensions={1}, to_apply=lt
})",
                  rows, cols);
}

// An embedding-gradient scatter: `updates` rows of f32[updates,cols] added
// into f32[rows,cols] at indices s32[updates,1].
inline std::string ScatterAddRows(int64_t rows, int64_t cols, int64_t updates) {
  return absl::StrReplaceAll(WithDims(R"(HloModule scatter
add {
  a = f32[] parameter(0)
  b = f32[] parameter(1)
  ROOT s = f32[] add(a, b)
}
ENTRY e {
  o = f32[$R,$C] parameter(0)
  i = s32[$U,1] parameter(1)
  u = f32[$U,$C] parameter(2)
  ROOT s = f32[$R,$C] scatter(o, i, u), update_window_dims={1}, inserted_window_dims={0}, scatter_dims_to_operand_dims={0}, index_vector_dim=1, to_apply=add
})",
                                      rows, cols),
                             {{"$U", absl::StrCat(updates)}});
}

// A ResNet 3x3 convolution, NHWC: f32[n,hw,hw,c] with f32[3,3,c,c], same
// padding.
inline std::string Conv3x3(int64_t n, int64_t hw, int64_t c) {
  return absl::StrReplaceAll(
      R"(HloModule conv
ENTRY e {
  x = f32[$N,$H,$H,$C] parameter(0)
  w = f32[3,3,$C,$C] parameter(1)
  ROOT y = f32[$N,$H,$H,$C] convolution(x, w), window={size=3x3 pad=1_1x1_1}, dim_labels=b01f_01io->b01f
})",
      {{"$N", absl::StrCat(n)}, {"$H", absl::StrCat(hw)}, {"$C", absl::StrCat(c)}});
}

// A while loop of `steps` steps writing row i of f32[rows,cols] at step i
// (a dynamic-update-slice of one row per step).
inline std::string DusLoop(int64_t steps, int64_t rows, int64_t cols) {
  return absl::StrReplaceAll(WithDims(R"(HloModule dus_loop
cond {
  s = (s32[], f32[$R,$C], f32[$C]) parameter(0)
  i = s32[] get-tuple-element(s), index=0
  n = s32[] constant($N)
  ROOT lt = pred[] compare(i, n), direction=LT
}
body {
  s = (s32[], f32[$R,$C], f32[$C]) parameter(0)
  i = s32[] get-tuple-element(s), index=0
  buf = f32[$R,$C] get-tuple-element(s), index=1
  row = f32[$C] get-tuple-element(s), index=2
  fi = f32[] convert(i)
  fb = f32[$C] broadcast(fi), dimensions={}
  new = f32[$C] add(row, fb)
  r2 = f32[1,$C] reshape(new)
  z = s32[] constant(0)
  buf2 = f32[$R,$C] dynamic-update-slice(buf, r2, i, z)
  one = s32[] constant(1)
  i2 = s32[] add(i, one)
  ROOT t = (s32[], f32[$R,$C], f32[$C]) tuple(i2, buf2, row)
}
ENTRY e {
  b = f32[$R,$C] parameter(0)
  r = f32[$C] parameter(1)
  z = s32[] constant(0)
  t = (s32[], f32[$R,$C], f32[$C]) tuple(z, b, r)
  w = (s32[], f32[$R,$C], f32[$C]) while(t), condition=cond, body=body
  ROOT o = f32[$R,$C] get-tuple-element(w), index=1
})",
                                      rows, cols),
                             {{"$N", absl::StrCat(steps)}});
}

}  // namespace aot::bench

#endif  // AOT_COMPILER_BENCH_BENCH_PROGRAMS_H_
