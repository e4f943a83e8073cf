#include "compiler/passes/rng_expansion.h"

#include <array>
#include <cmath>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/strings/str_cat.h"
#include "compiler/passes/pass_utils.h"
#include "support/counter_rng.h"
#include "support/status_macros.h"

namespace aot {

namespace {

HloInstruction* Slice(InstructionBuilder& b, HloInstruction* x, std::vector<SliceSpec> specs,
                      Shape shape) {
  HloInstruction* s = b.Op(HloOpcode::kSlice, std::move(shape), {x});
  s->mutable_attrs()->slice = std::move(specs);
  return s;
}

// Element `i` of the u64[k] state as a scalar.
HloInstruction* StateWord(InstructionBuilder& b, HloInstruction* state, int64_t i) {
  HloInstruction* one = Slice(b, state, {{i, i + 1, 1}}, Shape(U64, {1}));
  return b.Reshape(one, {});
}

// Builds one rng-bit-generator's replacement. Every instruction is created
// in a statement of its own, so the names it gets do not depend on the
// order in which a compiler evaluates function arguments.
class RngBuilder {
 public:
  RngBuilder(InstructionBuilder& b) : b_(b) {}

  HloInstruction* Slice(HloInstruction* x, std::vector<SliceSpec> specs, Shape shape) {
    return aot::Slice(b_, x, std::move(specs), std::move(shape));
  }
  HloInstruction* StateWord(HloInstruction* state, int64_t i) {
    return aot::StateWord(b_, state, i);
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

// Builds one rng's replacement (see ExpandRngs), each instruction in a
// statement of its own like RngBuilder.
class RngDrawBuilder {
 public:
  explicit RngDrawBuilder(InstructionBuilder& b) : b_(b) {}

  // `rng`'s replacement: its values drawn at the counter `state` (the
  // computation's take) + `offset` blocks.
  absl::StatusOr<HloInstruction*> Expand(HloInstruction* rng, HloInstruction* state,
                                         int64_t offset) {
    AOT_ASSIGN_OR_RETURN(RngDistribution distribution, ReadRngDistribution(*rng));
    const Shape& shape = rng->shape();
    const PrimitiveType type = shape.element_type();
    const int64_t n = shape.ElementCount();
    if (n == 0) {  // draws nothing
      HloInstruction* zero = b_.Constant(type, 0);
      return b_.Broadcast(zero, shape, {});
    }
    const PrimitiveType bits_type = RngBitsType(type);
    const int64_t draws = RngDraws(distribution, shape);
    Literal key_value(Shape(U64, {1}));
    key_value.SetFromUint64(0, kRngPhiloxKey);
    HloInstruction* key = b_.Constant(std::move(key_value));
    HloInstruction* counter = state;
    if (offset != 0) {  // {low + offset, high + carry}
      HloInstruction* low = StateWord(b_, state, 0);
      HloInstruction* high = StateWord(b_, state, 1);
      HloInstruction* step = b_.Constant(U64, static_cast<double>(offset));
      HloInstruction* moved = b_.Binary(HloOpcode::kAdd, low, step);
      HloInstruction* wrapped = b_.Compare(moved, low, ComparisonDirection::kLt);
      HloInstruction* carry = b_.Convert(wrapped, U64);
      HloInstruction* carried = b_.Binary(HloOpcode::kAdd, high, carry);
      HloInstruction* moved_word = b_.Reshape(moved, {1});
      HloInstruction* carried_word = b_.Reshape(carried, {1});
      counter = b_.Op(HloOpcode::kConcatenate, Shape(U64, {2}), {moved_word, carried_word});
      counter->mutable_attrs()->dimensions = {0};
    }
    HloInstruction* keyed = b_.Op(HloOpcode::kConcatenate, Shape(U64, {3}), {key, counter});
    keyed->mutable_attrs()->dimensions = {0};
    HloInstruction* generator =
        b_.Op(HloOpcode::kRngBitGenerator,
              Shape::Tuple({Shape(U64, {3}), Shape(bits_type, {draws})}), {keyed});
    generator->mutable_attrs()->unknown_attributes.emplace_back("algorithm", "rng_philox");
    HloInstruction* bits = b_.GetTupleElement(generator, 1);
    HloInstruction* a = rng->operand(0);
    HloInstruction* b = rng->operand(1);
    HloInstruction* values;
    if (IsFloatingPoint(type)) {
      const PrimitiveType compute = type == F64 ? F64 : F32;
      HloInstruction* lo = Converted(a, compute);
      HloInstruction* hi = Converted(b, compute);
      if (distribution == RngDistribution::kUniform) {
        HloInstruction* u = Uniform(bits, compute);
        HloInstruction* width = b_.Binary(HloOpcode::kSubtract, hi, lo);
        HloInstruction* scaled = b_.Binary(HloOpcode::kMultiply, u, Spread(width, n));
        values = b_.Binary(HloOpcode::kAdd, scaled, Spread(lo, n));
      } else {
        HloInstruction* x1 = Slice(bits, 0, n);
        HloInstruction* x2 = Slice(bits, n, 2 * n);
        HloInstruction* u1 = Uniform(x1, compute);
        HloInstruction* one = b_.Splat(compute, 1, {n});
        HloInstruction* one_minus = b_.Binary(HloOpcode::kSubtract, one, u1);
        HloInstruction* log = b_.Unary(HloOpcode::kLog, one_minus);
        HloInstruction* minus_two = b_.Splat(compute, -2, {n});
        HloInstruction* minus_two_log = b_.Binary(HloOpcode::kMultiply, minus_two, log);
        HloInstruction* radius = b_.Unary(HloOpcode::kSqrt, minus_two_log);
        HloInstruction* two_pi = b_.Splat(compute, 2 * M_PI, {n});
        HloInstruction* u2 = Uniform(x2, compute);
        HloInstruction* angle = b_.Binary(HloOpcode::kMultiply, two_pi, u2);
        HloInstruction* cosine = b_.Unary(HloOpcode::kCos, angle);
        HloInstruction* z = b_.Binary(HloOpcode::kMultiply, radius, cosine);
        HloInstruction* scaled = b_.Binary(HloOpcode::kMultiply, z, Spread(hi, n));
        values = b_.Binary(HloOpcode::kAdd, scaled, Spread(lo, n));
      }
      if (compute != type) values = b_.Convert(values, type);
    } else {
      // In the unsigned type of the width, where add and subtract wrap.
      HloInstruction* lo = Reinterpreted(a, bits_type);
      HloInstruction* hi = Reinterpreted(b, bits_type);
      HloInstruction* range = b_.Binary(HloOpcode::kSubtract, hi, lo);
      HloInstruction* zero = b_.Constant(bits_type, 0);
      HloInstruction* empty = b_.Compare(range, zero, ComparisonDirection::kEq);
      HloInstruction* one = b_.Constant(bits_type, 1);
      HloInstruction* divisor = b_.Select(empty, one, range);
      HloInstruction* offset = b_.Binary(HloOpcode::kRemainder, bits, Spread(divisor, n));
      HloInstruction* sum = b_.Binary(HloOpcode::kAdd, Spread(lo, n), offset);
      values = Reinterpreted(sum, type);
    }
    HloInstruction* shaped = b_.Reshape(values, shape.dimensions());
    return b_.WithLayoutOf(shaped, shape);
  }

 private:
  // U(x) (EvalRng): x's high bits as the mantissa of a float in [1, 2),
  // minus one.
  HloInstruction* Uniform(HloInstruction* x, PrimitiveType compute) {
    const bool f64 = compute == F64;
    const PrimitiveType word = x->shape().element_type();
    const std::vector<int64_t> dims = x->shape().dimensions();
    HloInstruction* by = b_.Splat(word, f64 ? 12 : 9, dims);
    HloInstruction* mantissa = b_.Binary(HloOpcode::kShiftRightLogical, x, by);
    HloInstruction* exponent =
        b_.Splat(word, f64 ? static_cast<double>(0x3FF0000000000000ull) : 0x3F800000, dims);
    HloInstruction* in_one_two = b_.Binary(HloOpcode::kOr, mantissa, exponent);
    HloInstruction* as_float =
        b_.Op(HloOpcode::kBitcastConvert, Shape(compute, dims), {in_one_two});
    HloInstruction* one = b_.Splat(compute, 1, dims);
    return b_.Binary(HloOpcode::kSubtract, as_float, one);
  }
  HloInstruction* Converted(HloInstruction* x, PrimitiveType type) {
    return x->shape().element_type() == type ? x : b_.Convert(x, type);
  }
  // Same width, another integer type: bitcast-convert (or `x` itself).
  HloInstruction* Reinterpreted(HloInstruction* x, PrimitiveType type) {
    if (x->shape().element_type() == type) return x;
    return b_.Op(HloOpcode::kBitcastConvert, Shape(type, x->shape().dimensions()), {x});
  }
  HloInstruction* Spread(HloInstruction* scalar, int64_t n) {
    return b_.Broadcast(scalar, Shape(scalar->shape().element_type(), {n}), {});
  }
  HloInstruction* Slice(HloInstruction* x, int64_t begin, int64_t end) {
    return aot::Slice(b_, x, {{begin, end, 1}}, Shape(x->shape().element_type(), {end - begin}));
  }

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

namespace {

// Moves `first` (an instruction without operands) before every other
// instruction of its computation but the parameters, by moving each of
// them to the end in turn. HloComputation only appends, and this is the one
// pass that needs an instruction in front.
absl::Status MoveToFront(HloComputation* computation, HloInstruction* first) {
  for (HloInstruction* h : computation->instructions()) {
    if (h == first || h->opcode() == HloOpcode::kParameter) continue;
    AOT_RETURN_IF_ERROR(MoveToEnd(computation, h).status());
  }
  return absl::OkStatus();
}

}  // namespace

absl::StatusOr<bool> ExpandRngs(HloModule* module) {
  // Each computation takes the state once, in its first instruction, for
  // all its draws, each at the advances of the draws defined before it
  // (EvalRng): a compiled program runs the take first, as the interpreter
  // does, whatever order the draws run in.
  struct Take {
    RngTake draws;
    HloInstruction* state = nullptr;
    int64_t state_id = -1;
  };
  absl::flat_hash_map<const HloComputation*, Take> takes;
  for (HloComputation* c : module->computations()) {
    AOT_ASSIGN_OR_RETURN(RngTake draws, RngTakeOf(c->instructions()));
    if (!draws.offsets.empty()) takes[c].draws = std::move(draws);
  }
  AOT_ASSIGN_OR_RETURN(
      bool changed, ReplaceInTopLevelComputations(
                        module,
                        [&](HloComputation* c, NameUniquer& names,
                            HloInstruction* h) -> absl::StatusOr<HloInstruction*> {
                          if (h->opcode() != HloOpcode::kRng) return nullptr;
                          Take& take = takes[c];
                          InstructionBuilder b(c, &names, *h);
                          if (take.state == nullptr) {
                            take.state =
                                b.Op(HloOpcode::kRngGetAndUpdateState, Shape(U64, {2}), {});
                            take.state->mutable_attrs()->unknown_attributes.emplace_back(
                                "delta", absl::StrCat(take.draws.advance));
                            take.state_id = take.state->unique_id();
                          }
                          return RngDrawBuilder(b).Expand(h, take.state, take.draws.offsets.at(h));
                        }));
  // The rewrite reordered the computations, replacing instructions by
  // clones of the same unique id: find each take again by its id.
  for (HloComputation* c : module->computations()) {
    auto it = takes.find(c);
    if (it == takes.end() || it->second.state_id < 0) continue;
    for (HloInstruction* h : c->instructions()) {
      if (h->unique_id() == it->second.state_id) {
        AOT_RETURN_IF_ERROR(MoveToFront(c, h));
        break;
      }
    }
  }
  return changed;
}

}  // namespace aot
