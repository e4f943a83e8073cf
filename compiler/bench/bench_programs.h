#ifndef AOT_COMPILER_BENCH_BENCH_PROGRAMS_H_
#define AOT_COMPILER_BENCH_BENCH_PROGRAMS_H_

// The HLO programs the host and CUDA benchmarks share, so both measure the
// same shapes (issue 13's and issue 17's workloads).

#include <cstdint>
#include <string>

#include "absl/strings/str_cat.h"

namespace aot::bench {

// x*y+x on f32[2048,4096].
inline constexpr int64_t kRows = 2048, kCols = 4096, kBytes = kRows * kCols * 4;
inline constexpr char kElementwise[] = R"(HloModule elementwise
ENTRY e {
  x = f32[2048,4096] parameter(0)
  y = f32[2048,4096] parameter(1)
  m = f32[2048,4096] multiply(x, y)
  ROOT r = f32[2048,4096] add(m, x)
})";

// Row sum f32[2048,4096] -> f32[2048].
inline constexpr char kRowSum[] = R"(HloModule row_sum
add {
  a = f32[] parameter(0)
  b = f32[] parameter(1)
  ROOT s = f32[] add(a, b)
}
ENTRY e {
  x = f32[2048,4096] parameter(0)
  z = f32[] constant(0)
  ROOT r = f32[2048] reduce(x, z), dimensions={1}, to_apply=add
})";

// Softmax over the rows of f32[4096,1024].
inline constexpr int64_t kSoftmaxBytes = 2 * 4096 * 1024 * 4;  // read + written
inline constexpr char kSoftmax[] = R"(HloModule softmax
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
  x = f32[4096,1024] parameter(0)
  ninf = f32[] constant(-inf)
  mx = f32[4096] reduce(x, ninf), dimensions={1}, to_apply=max
  mxb = f32[4096,1024] broadcast(mx), dimensions={0}
  d = f32[4096,1024] subtract(x, mxb)
  e = f32[4096,1024] exponential(d)
  zero = f32[] constant(0)
  s = f32[4096] reduce(e, zero), dimensions={1}, to_apply=add
  sb = f32[4096,1024] broadcast(s), dimensions={0}
  ROOT r = f32[4096,1024] divide(e, sb)
})";

// f32[n,n] x f32[n,n].
inline std::string Dot(int64_t n) {
  return absl::StrCat("HloModule dot\nENTRY e {\n  a = f32[", n, ",", n, "] parameter(0)\n",
                      "  b = f32[", n, ",", n, "] parameter(1)\n  ROOT c = f32[", n, ",", n,
                      "] dot(a, b), lhs_contracting_dims={1}, rhs_contracting_dims={0}\n}\n");
}

}  // namespace aot::bench

#endif  // AOT_COMPILER_BENCH_BENCH_PROGRAMS_H_
