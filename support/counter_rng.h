#ifndef AOT_SUPPORT_COUNTER_RNG_H_
#define AOT_SUPPORT_COUNTER_RNG_H_

#include <array>
#include <cstdint>

namespace aot {

// The counter-based generators of Salmon, Moraes, Dror and Shaw, "Parallel
// random numbers: as easy as 1, 2, 3" (SC 2011), which XLA's
// rng-bit-generator offers: Philox-4x32 with 10 rounds and Threefry-2x32
// with 20 rounds. Each maps a counter and a key to random words; the same
// (counter, key) always gives the same words. Hand-written: nothing linked
// here provides them, and each is a dozen lines; the interpreter calls these
// and ExpandRngBitGenerator builds the same rounds out of HLO ops, so the
// constants are public.

inline constexpr uint32_t kPhiloxMultiplier0 = 0xD2511F53u;
inline constexpr uint32_t kPhiloxMultiplier1 = 0xCD9E8D57u;
inline constexpr uint32_t kPhiloxKeyStep0 = 0x9E3779B9u;  // the golden ratio
inline constexpr uint32_t kPhiloxKeyStep1 = 0xBB67AE85u;  // sqrt(3) - 1
inline constexpr int kPhiloxRounds = 10;

inline constexpr int kThreefryRotations[8] = {13, 15, 26, 6, 17, 29, 16, 24};
inline constexpr uint32_t kThreefryParity = 0x1BD11BDAu;
inline constexpr int kThreefryRounds = 20;

// The Philox key of XLA's rng op as this project defines it: rng draws
// rng-bit-generator words (Philox, state {key, counter, high}) keyed by this
// constant at the executable's 128-bit state, which rng-get-and-update-state
// returns and advances (the digits of pi; any fixed key would do).
inline constexpr uint64_t kRngPhiloxKey = 0x243F6A8885A308D3ull;

std::array<uint32_t, 4> Philox4x32(std::array<uint32_t, 4> counter, std::array<uint32_t, 2> key);
std::array<uint32_t, 2> Threefry2x32(std::array<uint32_t, 2> counter, std::array<uint32_t, 2> key);

}  // namespace aot

#endif  // AOT_SUPPORT_COUNTER_RNG_H_
