#include "support/counter_rng.h"

namespace aot {

std::array<uint32_t, 4> Philox4x32(std::array<uint32_t, 4> c, std::array<uint32_t, 2> k) {
  for (int round = 0; round < kPhiloxRounds; ++round) {
    if (round > 0) {
      k[0] += kPhiloxKeyStep0;
      k[1] += kPhiloxKeyStep1;
    }
    const uint64_t p0 = uint64_t{kPhiloxMultiplier0} * c[0];
    const uint64_t p1 = uint64_t{kPhiloxMultiplier1} * c[2];
    const auto hi = [](uint64_t p) { return static_cast<uint32_t>(p >> 32); };
    const auto lo = [](uint64_t p) { return static_cast<uint32_t>(p); };
    c = {hi(p1) ^ c[1] ^ k[0], lo(p1), hi(p0) ^ c[3] ^ k[1], lo(p0)};
  }
  return c;
}

std::array<uint32_t, 2> Threefry2x32(std::array<uint32_t, 2> c, std::array<uint32_t, 2> k) {
  const uint32_t schedule[3] = {k[0], k[1], k[0] ^ k[1] ^ kThreefryParity};
  uint32_t x0 = c[0] + schedule[0];
  uint32_t x1 = c[1] + schedule[1];
  for (int round = 0; round < kThreefryRounds; ++round) {
    const int r = kThreefryRotations[round % 8];
    x0 += x1;
    x1 = (x1 << r) | (x1 >> (32 - r));
    x1 ^= x0;
    if (round % 4 == 3) {  // a key injection every four rounds
      const uint32_t s = static_cast<uint32_t>(round / 4 + 1);
      x0 += schedule[s % 3];
      x1 += schedule[(s + 1) % 3] + s;
    }
  }
  return {x0, x1};
}

}  // namespace aot
