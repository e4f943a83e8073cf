#include "compiler/passes/rng_expansion.h"

#include <array>
#include <vector>

#include "compiler/passes/pass_utils.h"
#include "support/counter_rng.h"
#include "support/status_macros.h"

namespace aot {

namespace {

// Builds one rng-bit-generator's replacement. Every instruction is created
// in a statement of its own, so the names it gets do not depend on the
// order in which a compiler evaluates function arguments.
class RngBuilder {
 public:
  RngBuilder(InstructionBuilder& b) : b_(b) {}

  HloInstruction* Slice(HloInstruction* x, std::vector<SliceSpec> specs, Shape shape) {
    HloInstruction* s = b_.Op(HloOpcode::kSlice, std::move(shape), {x});
    s->mutable_attrs()->slice = std::move(specs);
    return s;
  }

  // Element `i` of the u64[k] state as a scalar.
  HloInstruction* StateWord(HloInstruction* state, int64_t i) {
    HloInstruction* one = Slice(state, {{i, i + 1, 1}}, Shape(U64, {1}));
    return b_.Reshape(one, {});
  }

  // The low or high 32 bits of u64 `x`.
  HloInstruction* Low(HloInstruction* x) { return b_.Convert(x, U32); }
  HloInstruction* High(HloInstruction* x) {
    HloInstruction* shifted = ShiftRight(x, 32);
    return b_.Convert(shifted, U32);
  }
  HloInstruction* ShiftRight(HloInstruction* x, int amount) {
    HloInstruction* by = b_.Splat(x->shape().element_type(), amount, x->shape().dimensions());
    return b_.Binary(HloOpcode::kShiftRightLogical, x, by);
  }
  HloInstruction* ShiftLeft(HloInstruction* x, int amount) {
    HloInstruction* by = b_.Splat(x->shape().element_type(), amount, x->shape().dimensions());
    return b_.Binary(HloOpcode::kShiftLeft, x, by);
  }
  // `scalar` broadcast to `like`'s dimensions.
  HloInstruction* Spread(HloInstruction* scalar, HloInstruction* like) {
    return b_.Broadcast(scalar, Shape(scalar->shape().element_type(), like->shape().dimensions()),
                        {});
  }
  HloInstruction* Op(HloOpcode opcode, HloInstruction* x, HloInstruction* y) {
    return b_.Binary(opcode, x, y);
  }
  HloInstruction* AddConstant(HloInstruction* x, PrimitiveType type, double value) {
    HloInstruction* c = b_.Splat(type, value, x->shape().dimensions());
    return b_.Binary(HloOpcode::kAdd, x, c);
  }

  // The high and low halves of the 64-bit product of u32 `x` and `m`.
  std::array<HloInstruction*, 2> MultiplyWide(HloInstruction* x, uint32_t m) {
    HloInstruction* wide = b_.Convert(x, U64);
    HloInstruction* factor = b_.Splat(U64, m, x->shape().dimensions());
    HloInstruction* product = b_.Binary(HloOpcode::kMultiply, wide, factor);
    HloInstruction* high = High(product);
    HloInstruction* low = Low(product);
    return {high, low};
  }

  // Key word `j`: the low (0) or high (1) half of state[0]. Built at each
  // use; the pipeline's CSE merges the copies.
  HloInstruction* Key(HloInstruction* state, int j) {
    HloInstruction* s0 = StateWord(state, 0);
    return j == 0 ? Low(s0) : High(s0);
  }

  std::vector<HloInstruction*> Philox(std::array<HloInstruction*, 4> c, HloInstruction* state) {
    for (int round = 0; round < kPhiloxRounds; ++round) {
      // The key of round r: the key plus r steps (mod 2^32).
      HloInstruction* k0 = Key(state, 0);
      HloInstruction* k1 = Key(state, 1);
      if (round > 0) {
        k0 = AddConstant(k0, U32, static_cast<uint32_t>(round * kPhiloxKeyStep0));
        k1 = AddConstant(k1, U32, static_cast<uint32_t>(round * kPhiloxKeyStep1));
      }
      auto [high0, low0] = MultiplyWide(c[0], kPhiloxMultiplier0);
      auto [high1, low1] = MultiplyWide(c[2], kPhiloxMultiplier1);
      HloInstruction* k0s = Spread(k0, c[0]);
      HloInstruction* k1s = Spread(k1, c[0]);
      HloInstruction* x1 = Op(HloOpcode::kXor, high1, c[1]);
      HloInstruction* n0 = Op(HloOpcode::kXor, x1, k0s);
      HloInstruction* x3 = Op(HloOpcode::kXor, high0, c[3]);
      HloInstruction* n2 = Op(HloOpcode::kXor, x3, k1s);
      c = {n0, low1, n2, low0};
    }
    return {c[0], c[1], c[2], c[3]};
  }

  // Word `j` of Threefry's key schedule (k0, k1, k0 ^ k1 ^ parity), built
  // at each use, as Key.
  HloInstruction* Schedule(HloInstruction* state, int j) {
    if (j < 2) return Key(state, j);
    HloInstruction* k0 = Key(state, 0);
    HloInstruction* k1 = Key(state, 1);
    HloInstruction* k01 = Op(HloOpcode::kXor, k0, k1);
    HloInstruction* parity = b_.Constant(U32, kThreefryParity);
    return Op(HloOpcode::kXor, k01, parity);
  }

  std::vector<HloInstruction*> Threefry(std::array<HloInstruction*, 2> c, HloInstruction* state) {
    HloInstruction* k0 = Key(state, 0);
    HloInstruction* k1 = Key(state, 1);
    HloInstruction* ks0 = Spread(k0, c[0]);
    HloInstruction* ks1 = Spread(k1, c[0]);
    HloInstruction* x0 = Op(HloOpcode::kAdd, c[0], ks0);
    HloInstruction* x1 = Op(HloOpcode::kAdd, c[1], ks1);
    for (int round = 0; round < kThreefryRounds; ++round) {
      const int r = kThreefryRotations[round % 8];
      x0 = Op(HloOpcode::kAdd, x0, x1);
      HloInstruction* up = ShiftLeft(x1, r);
      HloInstruction* down = ShiftRight(x1, 32 - r);
      HloInstruction* rotated = Op(HloOpcode::kOr, up, down);
      x1 = Op(HloOpcode::kXor, rotated, x0);
      if (round % 4 == 3) {
        const int s = round / 4 + 1;
        HloInstruction* key0 = Schedule(state, s % 3);
        HloInstruction* a = Spread(key0, c[0]);
        x0 = Op(HloOpcode::kAdd, x0, a);
        HloInstruction* key1 = Schedule(state, (s + 1) % 3);
        HloInstruction* shifted_key = AddConstant(key1, U32, s);
        HloInstruction* b = Spread(shifted_key, c[0]);
        x1 = Op(HloOpcode::kAdd, x1, b);
      }
    }
    return {x0, x1};
  }

  absl::StatusOr<HloInstruction*> Expand(HloInstruction* rng) {
    AOT_ASSIGN_OR_RETURN(RngAlgorithm algorithm, ReadRngAlgorithm(*rng));
    HloInstruction* state = rng->operand(0);
    const int64_t state_size = state->shape().dimensions(0);
    const Shape& bits_shape = rng->shape().tuple_shapes(1);
    const PrimitiveType type = bits_shape.element_type();
    const int64_t n = bits_shape.ElementCount();
    const int64_t per_value = ByteWidth(type) == 8 ? 2 : 1;
    const int64_t words = n * per_value;
    const int64_t lanes = algorithm == RngAlgorithm::kPhilox ? 4 : 2;
    const int64_t blocks = (words + lanes - 1) / lanes;

    HloInstruction* bits;
    if (n == 0) {
      HloInstruction* zero = b_.Constant(type, 0);
      bits = b_.Broadcast(zero, Shape(type, bits_shape.dimensions()), {});
    } else {
      HloInstruction* block = b_.Op(HloOpcode::kIota, Shape(U64, {blocks}), {});
      block->mutable_attrs()->dimensions = {0};
      HloInstruction* s1 = StateWord(state, 1);
      HloInstruction* base = Spread(s1, block);
      HloInstruction* counter = Op(HloOpcode::kAdd, base, block);
      HloInstruction* c0 = Low(counter);
      HloInstruction* c1 = High(counter);
      std::vector<HloInstruction*> lane_words;
      if (algorithm == RngAlgorithm::kPhilox) {
        HloInstruction* c2;
        HloInstruction* c3;
        if (state_size > 2) {
          HloInstruction* s2 = StateWord(state, 2);
          HloInstruction* s2_low = Low(s2);
          HloInstruction* s2_high = High(s2);
          c2 = Spread(s2_low, counter);
          c3 = Spread(s2_high, counter);
        } else {
          c2 = b_.Splat(U32, 0, {blocks});
          c3 = b_.Splat(U32, 0, {blocks});
        }
        lane_words = Philox({c0, c1, c2, c3}, state);
      } else {
        lane_words = Threefry({c0, c1}, state);
      }
      // Lane-major within a block: [blocks, lanes], flattened, cut to size.
      std::vector<HloInstruction*> columns;
      for (HloInstruction* w : lane_words) columns.push_back(b_.Reshape(w, {blocks, 1}));
      HloInstruction* stacked =
          b_.Op(HloOpcode::kConcatenate, Shape(U32, {blocks, lanes}), columns);
      stacked->mutable_attrs()->dimensions = {1};
      HloInstruction* flat = b_.Reshape(stacked, {blocks * lanes});
      HloInstruction* stream = Slice(flat, {{0, words, 1}}, Shape(U32, {words}));
      HloInstruction* values = stream;
      if (per_value == 2) {
        HloInstruction* pairs = b_.Reshape(stream, {n, 2});
        HloInstruction* low_half = Slice(pairs, {{0, n, 1}, {0, 1, 1}}, Shape(U32, {n, 1}));
        HloInstruction* high_half = Slice(pairs, {{0, n, 1}, {1, 2, 1}}, Shape(U32, {n, 1}));
        HloInstruction* low_flat = b_.Reshape(low_half, {n});
        HloInstruction* high_flat = b_.Reshape(high_half, {n});
        HloInstruction* low64 = b_.Convert(low_flat, U64);
        HloInstruction* high64 = b_.Convert(high_flat, U64);
        HloInstruction* high_shifted = ShiftLeft(high64, 32);
        values = Op(HloOpcode::kOr, low64, high_shifted);
      }
      // The low bits, reinterpreted for the signed types.
      const PrimitiveType unsigned_type = ByteWidth(type) == 1   ? U8
                                          : ByteWidth(type) == 2 ? U16
                                          : ByteWidth(type) == 4 ? U32
                                                                 : U64;
      HloInstruction* narrowed = b_.Convert(values, unsigned_type);
      HloInstruction* typed = narrowed;
      if (unsigned_type != type) {
        typed = b_.Op(HloOpcode::kBitcastConvert, Shape(type, {n}), {narrowed});
      }
      HloInstruction* shaped = b_.Reshape(typed, bits_shape.dimensions());
      bits = b_.WithLayoutOf(shaped, bits_shape);
    }
    // The next state: state[1] advanced by the blocks used.
    HloInstruction* counter_word = StateWord(state, 1);
    HloInstruction* advanced = AddConstant(counter_word, U64, static_cast<double>(blocks));
    std::vector<HloInstruction*> parts;
    for (int64_t i = 0; i < state_size; ++i) {
      HloInstruction* word = i == 1 ? advanced : StateWord(state, i);
      parts.push_back(b_.Reshape(word, {1}));
    }
    HloInstruction* next = b_.Op(HloOpcode::kConcatenate, Shape(U64, {state_size}), parts);
    next->mutable_attrs()->dimensions = {0};
    HloInstruction* next_state = b_.WithLayoutOf(next, rng->shape().tuple_shapes(0));
    return b_.Tuple({next_state, bits});
  }

 private:
  InstructionBuilder& b_;
};

}  // namespace

absl::StatusOr<bool> ExpandRngBitGenerators(HloModule* module) {
  return ReplaceInTopLevelComputations(module,
                                       [](HloComputation* c, NameUniquer& names,
                                          HloInstruction* h) -> absl::StatusOr<HloInstruction*> {
                                         if (h->opcode() != HloOpcode::kRngBitGenerator)
                                           return nullptr;
                                         InstructionBuilder b(c, &names, *h);
                                         return RngBuilder(b).Expand(h);
                                       });
}

}  // namespace aot
