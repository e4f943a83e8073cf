#ifndef AOT_COMPILER_TOOLING_RANDOM_LITERAL_H_
#define AOT_COMPILER_TOOLING_RANDOM_LITERAL_H_

#include <cstdint>
#include <vector>

#include "compiler/hlo/hlo_module.h"
#include "compiler/hlo/literal.h"
#include "compiler/hlo/shape.h"

namespace aot {

// A value of `shape` filled from a splitmix64 stream seeded with `seed`:
// the same bits on every machine and standard library.
//  - floats: uniform in [-1, 1) on a grid the type represents exactly
//    (steps of 2^-52 for f64, 2^-23 for f32, 2^-10 for f16, 2^-7 for
//    bf16);
//  - signed integers: uniform in [-8, 8); unsigned: [0, 16);
//  - pred: a fair coin.
// Tuple leaves are filled depth-first from the same stream.
Literal RandomLiteral(const Shape& shape, uint64_t seed);

// One random value per entry parameter of `module` (a tuple-typed one as a
// tuple), argument i drawn with seed + i: the inputs aot-run, the goldens
// and the tests use.
std::vector<Literal> RandomArguments(const HloModule& module, uint64_t seed);

// The splitmix64 generator RandomLiteral uses.
class SplitMix64 {
 public:
  explicit SplitMix64(uint64_t seed) : state_(seed) {}
  uint64_t Next() {
    uint64_t z = (state_ += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
  }

 private:
  uint64_t state_;
};

}  // namespace aot

#endif  // AOT_COMPILER_TOOLING_RANDOM_LITERAL_H_
