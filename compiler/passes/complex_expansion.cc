#include "compiler/passes/complex_expansion.h"

#include <cmath>
#include <complex>
#include <numbers>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/container/flat_hash_set.h"
#include "absl/strings/str_cat.h"
#include "compiler/passes/pass_utils.h"
#include "support/status_macros.h"

namespace aot {

namespace {

// A complex value as two arrays of its component type.
struct Parts {
  HloInstruction* re = nullptr;
  HloInstruction* im = nullptr;
};

bool IsComplexArray(const Shape& shape) {
  return shape.IsArray() && IsComplex(shape.element_type());
}

// Ops that only move values stay on the complex type; bitcast-convert
// reads or writes the (real, imaginary) pairs.
bool MovesValuesOnly(HloOpcode opcode) {
  return PassesValuesOn(opcode) || opcode == HloOpcode::kBitcastConvert;
}

bool TouchesComplex(const HloInstruction& h) {
  auto has = [](const Shape& s) { return HasComplexLeaf(s); };
  if (has(h.shape())) return true;
  for (const HloInstruction* op : h.operands()) {
    if (has(op->shape())) return true;
  }
  return false;
}

class ComplexExpander {
 public:
  // `split_scalars`: `computation` is a scalar computation made by
  // SplitComplexScalars, where complex constants and selects are split too
  // (nothing complex may be left in it).
  ComplexExpander(HloModule* module, HloComputation* computation, bool split_scalars = false)
      : module_(module),
        computation_(computation),
        names_(NameUniquer::ForInstructions(*computation)),
        split_scalars_(split_scalars) {}

  absl::StatusOr<bool> Run() {
    bool changed = false;
    for (HloInstruction* h : computation_->MakeInstructionPostOrder()) {
      // real / imag of a real value too: the value itself, zeros.
      const bool part_of_real = h->opcode() == HloOpcode::kReal || h->opcode() == HloOpcode::kImag;
      const bool split_move = split_scalars_ && (h->opcode() == HloOpcode::kConstant ||
                                                 h->opcode() == HloOpcode::kSelect);
      if (!TouchesComplex(*h) && !part_of_real) continue;
      if (MovesValuesOnly(h->opcode()) && !split_move) continue;
      // A custom call gets its complex buffers as they are: its handler
      // reads them (JAX's LAPACK calls, runtime/ffi/lapack_handlers.h), or
      // refuses their type when it runs.
      if (h->opcode() == HloOpcode::kCustomCall) continue;
      InstructionBuilder b(computation_, &names_, *h);
      AOT_ASSIGN_OR_RETURN(HloInstruction * replacement, Rewrite(h, b));
      h->ReplaceAllUsesWith(replacement);
      changed = true;
    }
    return changed;
  }

 private:
  absl::Status Refuse(const HloInstruction& h, absl::string_view why) {
    return absl::UnimplementedError(
        absl::StrCat(DescribeInstruction(h), " on ", h.shape().ToString(false), ": ", why));
  }

  // The parts of a complex operand: those of a value this pass made, else
  // read through bitcast-convert (c64[d] -> f32[d,2]) and a slice.
  Parts PartsOf(HloInstruction* x, InstructionBuilder& b) {
    if (auto it = parts_.find(x); it != parts_.end()) return it->second;
    const PrimitiveType part = ComplexComponentType(x->shape().element_type());
    std::vector<int64_t> dims = x->shape().dimensions();
    std::vector<int64_t> pair_dims = dims;
    pair_dims.push_back(2);
    HloInstruction* pairs = b.Op(HloOpcode::kBitcastConvert, Shape(part, pair_dims), {x});
    auto component = [&](int64_t which) {
      std::vector<int64_t> one = dims;
      one.push_back(1);
      HloInstruction* s = b.Op(HloOpcode::kSlice, Shape(part, one), {pairs});
      for (int64_t d : dims) s->mutable_attrs()->slice.push_back({0, d, 1});
      s->mutable_attrs()->slice.push_back({which, which + 1, 1});
      return b.Reshape(s, dims);
    };
    Parts p{component(0), component(1)};
    parts_[x] = p;
    return p;
  }

  // A real operand as parts: itself and zeros.
  Parts PartsOfAny(HloInstruction* x, PrimitiveType part, InstructionBuilder& b) {
    if (IsComplexArray(x->shape())) return PartsOf(x, b);
    HloInstruction* re = b.Convert(x, part);
    return {re, b.Splat(part, 0, x->shape().dimensions())};
  }

  // The complex value of `shape` made of `p` (pairs concatenated along a
  // new minor dimension, then bitcast-convert), remembered as its parts.
  HloInstruction* Join(Parts p, const Shape& shape, InstructionBuilder& b) {
    const PrimitiveType part = ComplexComponentType(shape.element_type());
    std::vector<int64_t> dims = shape.dimensions();
    std::vector<int64_t> one = dims;
    one.push_back(1);
    std::vector<int64_t> pair_dims = dims;
    pair_dims.push_back(2);
    HloInstruction* pairs = b.Op(HloOpcode::kConcatenate, Shape(part, pair_dims),
                                 {b.Reshape(p.re, one), b.Reshape(p.im, one)});
    pairs->mutable_attrs()->dimensions = {static_cast<int64_t>(dims.size())};
    HloInstruction* joined =
        b.Op(HloOpcode::kBitcastConvert, Shape(shape.element_type(), dims), {pairs});
    HloInstruction* result = b.WithLayoutOf(joined, shape);
    parts_[result] = p;
    return result;
  }

  // a / b by Smith's algorithm: the larger of |c|, |d| divides first, so
  // c*c + d*d never overflows where the quotient does not.
  Parts Divide(Parts x, Parts y, InstructionBuilder& b) {
    auto op = [&](HloOpcode o, HloInstruction* l, HloInstruction* r) { return b.Binary(o, l, r); };
    const HloOpcode add = HloOpcode::kAdd, sub = HloOpcode::kSubtract, mul = HloOpcode::kMultiply,
                    div = HloOpcode::kDivide;
    HloInstruction* c_larger = b.Compare(b.Unary(HloOpcode::kAbs, y.re),
                                         b.Unary(HloOpcode::kAbs, y.im), ComparisonDirection::kGe);
    // |c| >= |d|: r = d/c, t = c + d r, ((a + b r) / t, (b - a r) / t).
    HloInstruction* r1 = op(div, y.im, y.re);
    HloInstruction* t1 = op(add, y.re, op(mul, y.im, r1));
    HloInstruction* re1 = op(div, op(add, x.re, op(mul, x.im, r1)), t1);
    HloInstruction* im1 = op(div, op(sub, x.im, op(mul, x.re, r1)), t1);
    // |c| < |d|: r = c/d, t = c r + d, ((a r + b) / t, (b r - a) / t).
    HloInstruction* r2 = op(div, y.re, y.im);
    HloInstruction* t2 = op(add, op(mul, y.re, r2), y.im);
    HloInstruction* re2 = op(div, op(add, op(mul, x.re, r2), x.im), t2);
    HloInstruction* im2 = op(div, op(sub, op(mul, x.im, r2), x.re), t2);
    return {b.Select(c_larger, re1, re2), b.Select(c_larger, im1, im2)};
  }

  // |z| = m sqrt(1 + (n/m)^2), m = max(|re|, |im|), n = min: no overflow
  // of the squares; 0 at 0, +inf when a part is infinite.
  HloInstruction* Abs(Parts z, InstructionBuilder& b) {
    const PrimitiveType t = z.re->shape().element_type();
    const std::vector<int64_t>& dims = z.re->shape().dimensions();
    HloInstruction* ar = b.Unary(HloOpcode::kAbs, z.re);
    HloInstruction* ai = b.Unary(HloOpcode::kAbs, z.im);
    HloInstruction* m = b.Binary(HloOpcode::kMaximum, ar, ai);
    HloInstruction* n = b.Binary(HloOpcode::kMinimum, ar, ai);
    HloInstruction* q = b.Binary(HloOpcode::kDivide, n, m);
    HloInstruction* one = b.Splat(t, 1, dims);
    HloInstruction* root = b.Unary(
        HloOpcode::kSqrt, b.Binary(HloOpcode::kAdd, one, b.Binary(HloOpcode::kMultiply, q, q)));
    HloInstruction* value = b.Binary(HloOpcode::kMultiply, m, root);
    HloInstruction* zero = b.Splat(t, 0, dims);
    HloInstruction* inf = b.Splat(t, std::numeric_limits<double>::infinity(), dims);
    value = b.Select(b.Compare(m, zero, ComparisonDirection::kEq), zero, value);
    return b.Select(b.Compare(m, inf, ComparisonDirection::kEq), inf, value);
  }

  // Principal square root: t = sqrt((|z| + |re|) / 2); re >= 0 gives
  // (t, im / 2t), re < 0 gives (|im| / 2t, t with the sign of im).
  Parts Sqrt(Parts z, InstructionBuilder& b) {
    const PrimitiveType type = z.re->shape().element_type();
    const std::vector<int64_t>& dims = z.re->shape().dimensions();
    HloInstruction* zero = b.Splat(type, 0, dims);
    HloInstruction* half = b.Splat(type, 0.5, dims);
    HloInstruction* t =
        b.Unary(HloOpcode::kSqrt,
                b.Binary(HloOpcode::kMultiply, half,
                         b.Binary(HloOpcode::kAdd, Abs(z, b), b.Unary(HloOpcode::kAbs, z.re))));
    HloInstruction* two_t = b.Binary(HloOpcode::kAdd, t, t);
    HloInstruction* t_zero = b.Compare(t, zero, ComparisonDirection::kEq);
    HloInstruction* im_over = b.Select(t_zero, zero, b.Binary(HloOpcode::kDivide, z.im, two_t));
    HloInstruction* abs_im_over = b.Unary(HloOpcode::kAbs, im_over);
    HloInstruction* signed_t = b.Select(b.Compare(z.im, zero, ComparisonDirection::kLt),
                                        b.Unary(HloOpcode::kNegate, t), t);
    HloInstruction* re_nonneg = b.Compare(z.re, zero, ComparisonDirection::kGe);
    return {b.Select(re_nonneg, t, abs_im_over), b.Select(re_nonneg, im_over, signed_t)};
  }

  // e^a (cos b, sin b).
  Parts Exp(Parts z, InstructionBuilder& b) {
    HloInstruction* e = b.Unary(HloOpcode::kExp, z.re);
    return {b.Binary(HloOpcode::kMultiply, e, b.Unary(HloOpcode::kCos, z.im)),
            b.Binary(HloOpcode::kMultiply, e, b.Unary(HloOpcode::kSin, z.im))};
  }

  // sin(a + bi) = (sin a cosh b, cos a sinh b); cos(a + bi) = (cos a cosh
  // b, -sin a sinh b). cosh and sinh from exp (their own opcodes are
  // behind another emission flag).
  Parts SinOrCos(Parts z, bool sine, InstructionBuilder& b) {
    const PrimitiveType type = z.re->shape().element_type();
    const std::vector<int64_t>& dims = z.re->shape().dimensions();
    HloInstruction* half = b.Splat(type, 0.5, dims);
    HloInstruction* ep = b.Unary(HloOpcode::kExp, z.im);
    HloInstruction* en = b.Unary(HloOpcode::kExp, b.Unary(HloOpcode::kNegate, z.im));
    HloInstruction* cosh = b.Binary(HloOpcode::kMultiply, half, b.Binary(HloOpcode::kAdd, ep, en));
    HloInstruction* sinh =
        b.Binary(HloOpcode::kMultiply, half, b.Binary(HloOpcode::kSubtract, ep, en));
    HloInstruction* s = b.Unary(HloOpcode::kSin, z.re);
    HloInstruction* c = b.Unary(HloOpcode::kCos, z.re);
    if (sine) {
      return {b.Binary(HloOpcode::kMultiply, s, cosh), b.Binary(HloOpcode::kMultiply, c, sinh)};
    }
    return {b.Binary(HloOpcode::kMultiply, c, cosh),
            b.Unary(HloOpcode::kNegate, b.Binary(HloOpcode::kMultiply, s, sinh))};
  }

  // log(z) = (log |z|, atan2(im, re)).
  Parts Log(Parts z, InstructionBuilder& b) {
    return {b.Unary(HloOpcode::kLog, Abs(z, b)), b.Binary(HloOpcode::kAtan2, z.im, z.re)};
  }

  Parts Mul(Parts x, Parts y, InstructionBuilder& b) {
    auto mul = [&](HloInstruction* l, HloInstruction* r) {
      return b.Binary(HloOpcode::kMultiply, l, r);
    };
    return {b.Binary(HloOpcode::kSubtract, mul(x.re, y.re), mul(x.im, y.im)),
            b.Binary(HloOpcode::kAdd, mul(x.re, y.im), mul(x.im, y.re))};
  }

  // tanh(a + bi) = (tanh a (1 + tan^2 b), tan b (1 - tanh^2 a)) /
  // (1 + tanh^2 a tan^2 b): bounded for large |a|, unlike the sinh/cosh
  // form.
  Parts Tanh(Parts z, InstructionBuilder& b) {
    const PrimitiveType type = z.re->shape().element_type();
    const std::vector<int64_t>& dims = z.re->shape().dimensions();
    auto mul = [&](HloInstruction* l, HloInstruction* r) {
      return b.Binary(HloOpcode::kMultiply, l, r);
    };
    HloInstruction* one = b.Splat(type, 1, dims);
    HloInstruction* t = b.Unary(HloOpcode::kTanh, z.re);
    HloInstruction* u = b.Unary(HloOpcode::kTan, z.im);
    HloInstruction* t2 = mul(t, t);
    HloInstruction* u2 = mul(u, u);
    HloInstruction* den = b.Binary(HloOpcode::kAdd, one, mul(t2, u2));
    return {b.Binary(HloOpcode::kDivide, mul(t, b.Binary(HloOpcode::kAdd, one, u2)), den),
            b.Binary(HloOpcode::kDivide, mul(u, b.Binary(HloOpcode::kSubtract, one, t2)), den)};
  }

  // `like` with the component type and `operands`.
  HloInstruction* RealClone(const HloInstruction& like, PrimitiveType part,
                            std::vector<HloInstruction*> operands, InstructionBuilder& b) {
    std::unique_ptr<HloInstruction> clone = CloneWithOperands(like, operands);
    Shape shape = like.shape();
    shape.set_element_type(part);
    shape.ClearLayout();
    *clone->mutable_shape() = shape;
    return b.Add(std::move(clone));
  }

  // x (rank r) times the matrix w along dimension `axis`: contracts x's
  // `axis` with w's rows and puts w's columns back at `axis`.
  HloInstruction* AlongAxis(HloInstruction* x, HloInstruction* w, int64_t axis,
                            InstructionBuilder& b) {
    const int64_t rank = x->shape().rank();
    std::vector<int64_t> dims;
    for (int64_t d = 0; d < rank; ++d) {
      if (d != axis) dims.push_back(x->shape().dimensions(d));
    }
    dims.push_back(w->shape().dimensions(1));
    HloInstruction* dot = b.Op(HloOpcode::kDot, Shape(x->shape().element_type(), dims), {x, w});
    DotDimensionNumbersProto dnums;
    dnums.add_lhs_contracting_dimensions(axis);
    dnums.add_rhs_contracting_dimensions(0);
    dot->mutable_attrs()->dot_dimension_numbers = dnums;
    if (axis == rank - 1) return dot;
    std::vector<int64_t> permutation;
    std::vector<int64_t> out_dims;
    for (int64_t d = 0; d < rank; ++d) {
      const int64_t from = d < axis ? d : d == axis ? rank - 1 : d - 1;
      permutation.push_back(from);
      out_dims.push_back(dims[from]);
    }
    HloInstruction* t =
        b.Op(HloOpcode::kTranspose, Shape(x->shape().element_type(), out_dims), {dot});
    t->mutable_attrs()->dimensions = std::move(permutation);
    return t;
  }

  // The n x cols matrix cos(sign 2 pi j k / n) * scale(k) (or sin).
  HloInstruction* DftMatrix(PrimitiveType part, int64_t n, int64_t cols, double sign, bool sine,
                            bool irfft, InstructionBuilder& b) {
    Literal m(Shape(part, {n, cols}));
    const int64_t out_n = irfft ? cols : n;  // IRFFT: rows are the n/2+1 bins
    for (int64_t j = 0; j < n; ++j) {
      for (int64_t k = 0; k < cols; ++k) {
        const double angle =
            sign * 2.0 * std::numbers::pi * static_cast<double>((j * k) % out_n) / out_n;
        double v = sine ? std::sin(angle) : std::cos(angle);
        if (irfft) {
          // Row j is bin j of a length-cols real signal: bins 0 and n/2
          // count once, the others twice (their conjugates); 1/n scale.
          const bool once = j == 0 || 2 * j == cols;
          v *= (once ? 1.0 : 2.0) / static_cast<double>(cols);
        }
        m.SetFromDouble(j * cols + k, v);
      }
    }
    return b.Constant(std::move(m));
  }

  // One transformed dimension of a complex value.
  Parts Transform(Parts x, int64_t axis, int64_t n, bool inverse, InstructionBuilder& b) {
    const PrimitiveType part = x.re->shape().element_type();
    const double sign = inverse ? 1.0 : -1.0;
    HloInstruction* wr = DftMatrix(part, n, n, sign, false, false, b);
    HloInstruction* wi = DftMatrix(part, n, n, sign, true, false, b);
    HloInstruction* re =
        b.Binary(HloOpcode::kSubtract, AlongAxis(x.re, wr, axis, b), AlongAxis(x.im, wi, axis, b));
    HloInstruction* im =
        b.Binary(HloOpcode::kAdd, AlongAxis(x.re, wi, axis, b), AlongAxis(x.im, wr, axis, b));
    if (inverse) {
      HloInstruction* scale = b.Splat(part, 1.0 / static_cast<double>(n), re->shape().dimensions());
      re = b.Binary(HloOpcode::kMultiply, re, scale);
      im = b.Binary(HloOpcode::kMultiply, im, scale);
    }
    return {re, im};
  }

  absl::StatusOr<HloInstruction*> Fft(HloInstruction* h, InstructionBuilder& b) {
    AOT_ASSIGN_OR_RETURN(const FftAttributes fft, ReadFftAttributes(*h));
    const std::string& type = fft.type;
    const std::vector<int64_t>& length = fft.length;
    for (int64_t n : length) {
      if (n > kMaxFftLength) {
        return Refuse(*h, absl::StrCat("a transformed dimension of length ", n,
                                       " is longer than the ", kMaxFftLength,
                                       " this compiler computes an fft for (as a product with "
                                       "the DFT matrix)"));
      }
    }
    HloInstruction* x = h->operand(0);
    const int64_t rank = x->shape().rank();
    const int64_t k = static_cast<int64_t>(length.size());
    const int64_t last = rank - 1;
    if (type == "RFFT") {
      const PrimitiveType part = x->shape().element_type();
      const int64_t n = length.back();
      const int64_t bins = n / 2 + 1;
      HloInstruction* cr = DftMatrix(part, n, bins, -1, false, false, b);
      HloInstruction* ci = DftMatrix(part, n, bins, -1, true, false, b);
      Parts z{AlongAxis(x, cr, last, b), AlongAxis(x, ci, last, b)};
      for (int64_t a = rank - k; a < last; ++a)
        z = Transform(z, a, length[a - (rank - k)], false, b);
      return Join(z, h->shape(), b);
    }
    Parts z = PartsOf(x, b);
    if (type == "IRFFT") {
      for (int64_t a = rank - k; a < last; ++a)
        z = Transform(z, a, length[a - (rank - k)], true, b);
      const PrimitiveType part = z.re->shape().element_type();
      const int64_t n = length.back();
      const int64_t bins = n / 2 + 1;
      // out = Xr A + Xi B, A = c cos(2 pi j t / n) / n, B = -c sin(...) / n.
      HloInstruction* a = DftMatrix(part, bins, n, 1, false, true, b);
      HloInstruction* bm = DftMatrix(part, bins, n, -1, true, true, b);
      HloInstruction* out =
          b.Binary(HloOpcode::kAdd, AlongAxis(z.re, a, last, b), AlongAxis(z.im, bm, last, b));
      return b.WithLayoutOf(out, h->shape());
    }
    for (int64_t a = rank - k; a <= last; ++a) {
      z = Transform(z, a, length[a - (rank - k)], type == "IFFT", b);
    }
    return Join(z, h->shape(), b);
  }

  absl::StatusOr<HloInstruction*> Rewrite(HloInstruction* h, InstructionBuilder& b) {
    const Shape& shape = h->shape();
    const HloOpcode opcode = h->opcode();
    const bool complex_result = IsComplexArray(shape);
    const PrimitiveType part = complex_result ? ComplexComponentType(shape.element_type())
                               : h->operand_count() > 0
                                   ? ComplexComponentType(h->operand(0)->shape().element_type())
                                   : shape.element_type();
    auto operand = [&](int64_t i) { return PartsOfAny(h->operand(i), part, b); };
    auto result = [&](Parts p) { return Join(p, shape, b); };
    auto real_result = [&](HloInstruction* value) { return b.WithLayoutOf(value, shape); };
    switch (opcode) {
      case HloOpcode::kAdd:
      case HloOpcode::kSubtract: {
        Parts x = operand(0), y = operand(1);
        return result({b.Binary(opcode, x.re, y.re), b.Binary(opcode, x.im, y.im)});
      }
      case HloOpcode::kMultiply: {
        Parts x = operand(0), y = operand(1);  // in this order: names follow it
        return result(Mul(x, y, b));
      }
      case HloOpcode::kDivide:
        return result(Divide(operand(0), operand(1), b));
      case HloOpcode::kNegate: {
        Parts x = operand(0);
        return result({b.Unary(HloOpcode::kNegate, x.re), b.Unary(HloOpcode::kNegate, x.im)});
      }
      case HloOpcode::kSign: {
        // z / |z|, 0 at 0.
        Parts x = operand(0);
        HloInstruction* r = Abs(x, b);
        HloInstruction* zero = b.Splat(part, 0, shape.dimensions());
        HloInstruction* is_zero = b.Compare(r, zero, ComparisonDirection::kEq);
        return result({b.Select(is_zero, zero, b.Binary(HloOpcode::kDivide, x.re, r)),
                       b.Select(is_zero, zero, b.Binary(HloOpcode::kDivide, x.im, r))});
      }
      case HloOpcode::kExp:
        return result(Exp(operand(0), b));
      case HloOpcode::kLog:
        return result(Log(operand(0), b));
      case HloOpcode::kLog1p: {
        // |1+z|^2 = 1 + (2a + a^2 + b^2): log1p keeps small z exact.
        Parts x = operand(0);
        HloInstruction* one = b.Splat(part, 1, shape.dimensions());
        HloInstruction* half = b.Splat(part, 0.5, shape.dimensions());
        HloInstruction* two_plus =
            b.Binary(HloOpcode::kAdd, b.Binary(HloOpcode::kAdd, one, one), x.re);
        HloInstruction* s =
            b.Binary(HloOpcode::kAdd, b.Binary(HloOpcode::kMultiply, x.re, two_plus),
                     b.Binary(HloOpcode::kMultiply, x.im, x.im));
        return result({b.Binary(HloOpcode::kMultiply, half, b.Unary(HloOpcode::kLog1p, s)),
                       b.Binary(HloOpcode::kAtan2, x.im, b.Binary(HloOpcode::kAdd, one, x.re))});
      }
      case HloOpcode::kExpm1: {
        // e^a cos b - 1 = expm1(a) cos b - 2 sin^2(b/2): exact near zero.
        Parts x = operand(0);
        HloInstruction* half = b.Splat(part, 0.5, shape.dimensions());
        HloInstruction* sh = b.Unary(HloOpcode::kSin, b.Binary(HloOpcode::kMultiply, x.im, half));
        HloInstruction* two_sh2 = b.Binary(HloOpcode::kAdd, b.Binary(HloOpcode::kMultiply, sh, sh),
                                           b.Binary(HloOpcode::kMultiply, sh, sh));
        HloInstruction* re =
            b.Binary(HloOpcode::kSubtract,
                     b.Binary(HloOpcode::kMultiply, b.Unary(HloOpcode::kExpm1, x.re),
                              b.Unary(HloOpcode::kCos, x.im)),
                     two_sh2);
        HloInstruction* im = b.Binary(HloOpcode::kMultiply, b.Unary(HloOpcode::kExp, x.re),
                                      b.Unary(HloOpcode::kSin, x.im));
        return result({re, im});
      }
      case HloOpcode::kLogistic: {
        // 1 / (1 + e^-z).
        Parts x = operand(0);
        Parts e = Exp({b.Unary(HloOpcode::kNegate, x.re), b.Unary(HloOpcode::kNegate, x.im)}, b);
        HloInstruction* one = b.Splat(part, 1, shape.dimensions());
        HloInstruction* zero = b.Splat(part, 0, shape.dimensions());
        return result(Divide({one, zero}, {b.Binary(HloOpcode::kAdd, one, e.re), e.im}, b));
      }
      case HloOpcode::kTanh:
        return result(Tanh(operand(0), b));
      case HloOpcode::kTan: {
        // tan z = -i tanh(iz).
        Parts x = operand(0);
        Parts t = Tanh({b.Unary(HloOpcode::kNegate, x.im), x.re}, b);
        return result({t.im, b.Unary(HloOpcode::kNegate, t.re)});
      }
      case HloOpcode::kCbrt:
      case HloOpcode::kPower: {
        // exp(y log x); XLA's cases at x = 0: x^0 = 1, 0^y = 0 for Re(y) > 0
        // (cbrt: y = 1/3).
        Parts x = operand(0);
        HloInstruction* zero = b.Splat(part, 0, shape.dimensions());
        HloInstruction* one = b.Splat(part, 1, shape.dimensions());
        Parts y = opcode == HloOpcode::kPower
                      ? operand(1)
                      : Parts{b.Splat(part, 1.0 / 3.0, shape.dimensions()), zero};
        Parts p = Exp(Mul(y, Log(x, b), b), b);
        auto both = [&](HloInstruction* re, HloInstruction* im, ComparisonDirection d) {
          return b.Binary(HloOpcode::kAnd, b.Compare(re, zero, d), b.Compare(im, zero, d));
        };
        HloInstruction* x_zero = both(x.re, x.im, ComparisonDirection::kEq);
        HloInstruction* y_zero = both(y.re, y.im, ComparisonDirection::kEq);
        HloInstruction* y_positive = b.Compare(y.re, zero, ComparisonDirection::kGt);
        HloInstruction* to_zero = b.Binary(HloOpcode::kAnd, x_zero, y_positive);
        HloInstruction* re = b.Select(y_zero, one, b.Select(to_zero, zero, p.re));
        HloInstruction* im = b.Select(y_zero, zero, b.Select(to_zero, zero, p.im));
        return result({re, im});
      }
      case HloOpcode::kSqrt:
        return result(Sqrt(operand(0), b));
      case HloOpcode::kRsqrt: {
        HloInstruction* one = b.Splat(part, 1, shape.dimensions());
        HloInstruction* zero = b.Splat(part, 0, shape.dimensions());
        return result(Divide({one, zero}, Sqrt(operand(0), b), b));
      }
      case HloOpcode::kSin:
      case HloOpcode::kCos:
        return result(SinOrCos(operand(0), opcode == HloOpcode::kSin, b));
      case HloOpcode::kAbs:
        return real_result(Abs(operand(0), b));
      case HloOpcode::kReal:
        return real_result(operand(0).re);
      case HloOpcode::kImag:
        return real_result(operand(0).im);
      case HloOpcode::kComplex:
        return result({h->operand(0), h->operand(1)});
      case HloOpcode::kConvert: {
        if (!complex_result) break;
        HloInstruction* x = h->operand(0);
        if (!IsComplexArray(x->shape())) {
          return result({b.Convert(x, part), b.Splat(part, 0, shape.dimensions())});
        }
        Parts p = PartsOf(x, b);
        return result({b.Convert(p.re, part), b.Convert(p.im, part)});
      }
      case HloOpcode::kCompare: {
        const ComparisonDirection d = *h->attrs().comparison_direction;
        Parts x = operand(0), y = operand(1);
        HloInstruction* re = b.Compare(x.re, y.re, d);
        HloInstruction* im = b.Compare(x.im, y.im, d);
        return real_result(
            b.Binary(d == ComparisonDirection::kEq ? HloOpcode::kAnd : HloOpcode::kOr, re, im));
      }
      case HloOpcode::kDot:
      case HloOpcode::kConvolution: {
        // Bilinear: four real products.
        if (!complex_result) break;
        Parts x = operand(0), y = operand(1);
        auto dot = [&](HloInstruction* l, HloInstruction* r) {
          return RealClone(*h, part, {l, r}, b);
        };
        return result({b.Binary(HloOpcode::kSubtract, dot(x.re, y.re), dot(x.im, y.im)),
                       b.Binary(HloOpcode::kAdd, dot(x.re, y.im), dot(x.im, y.re))});
      }
      case HloOpcode::kIota:
        // The real iota, imaginary parts 0.
        if (!complex_result) break;
        return result({RealClone(*h, part, {}, b), b.Splat(part, 0, shape.dimensions())});
      case HloOpcode::kConstant: {
        // Only in split scalar computations (elsewhere constants move).
        if (!complex_result) break;
        Literal re(Shape(part, shape.dimensions())), im(Shape(part, shape.dimensions()));
        for (int64_t i = 0; i < re.element_count(); ++i) {
          const std::complex<double> v = h->literal().GetAsComplex(i);
          re.SetFromDouble(i, v.real());
          im.SetFromDouble(i, v.imag());
        }
        return result({b.Constant(std::move(re)), b.Constant(std::move(im))});
      }
      case HloOpcode::kSelect: {
        // Only in split scalar computations (elsewhere selects move).
        if (!complex_result) break;
        Parts x = operand(1), y = operand(2);
        HloInstruction* p = h->operand(0);
        return result({b.Select(p, x.re, y.re), b.Select(p, x.im, y.im)});
      }
      case HloOpcode::kReduceWindow:
      case HloOpcode::kSort:
        return SplitCall(h, b);
      case HloOpcode::kReduce: {
        if (!complex_result || h->operand_count() != 2 || !AddsItsTwoParameters(h->to_apply())) {
          return SplitCall(h, b);
        }
        Parts x = operand(0), init = operand(1);
        auto reduce = [&](HloInstruction* v, HloInstruction* i) {
          HloInstruction* r = RealClone(*h, part, {v, i}, b);
          *r->mutable_called_computations() = {add_for(part)};
          return r;
        };
        return result({reduce(x.re, init.re), reduce(x.im, init.im)});
      }
      case HloOpcode::kScatter: {
        // A scatter that adds: the same scatter of each part.
        if (!complex_result || h->operand_count() != 3 || !AddsItsTwoParameters(h->to_apply())) {
          return SplitCall(h, b);
        }
        Parts x = operand(0), updates = operand(2);
        HloInstruction* indices = h->operand(1);
        auto scatter = [&](HloInstruction* into, HloInstruction* from) {
          HloInstruction* r = RealClone(*h, part, {into, indices, from}, b);
          *r->mutable_called_computations() = {add_for(part)};
          return r;
        };
        return result({scatter(x.re, updates.re), scatter(x.im, updates.im)});
      }
      case HloOpcode::kFft:
        return Fft(h, b);
      default:
        break;
    }
    return Refuse(*h,
                  "this compiler does not compute this op on complex values (it computes the "
                  "elementwise ops XLA defines on them, real, imag, complex, convert, compare "
                  "EQ/NE, dot, convolution, fft, iota, and reduce, reduce-window, scatter and "
                  "sort with any computation of those; ops that move values and custom calls "
                  "are compiled as they are)");
  }

  // `callee` as a computation of real scalars: old parameter i becomes the
  // new parameters `places[i]` (two for a complex one: its real, then its
  // imaginary part), and each complex output of its root two outputs in its
  // place. The body is the callee's with its complex arithmetic expanded;
  // refused (naming `caller`) where a complex value would be left in it.
  absl::StatusOr<HloComputation*> SplitComplexScalars(
      const HloInstruction& caller, const HloComputation& callee,
      const std::vector<std::vector<int64_t>>& places) {
    int64_t count = 0;
    for (const std::vector<int64_t>& p : places) count += static_cast<int64_t>(p.size());
    std::vector<std::pair<PrimitiveType, std::string>> spec(static_cast<size_t>(count));
    for (int64_t i = 0; i < callee.num_parameters(); ++i) {
      const HloInstruction* old = callee.parameter_instruction(i);
      const PrimitiveType type = old->shape().element_type();
      const std::vector<int64_t>& at = places[static_cast<size_t>(i)];
      if (at.size() == 2) {
        spec[at[0]] = {ComplexComponentType(type), absl::StrCat(old->name(), ".re")};
        spec[at[1]] = {ComplexComponentType(type), absl::StrCat(old->name(), ".im")};
      } else {
        spec[at[0]] = {type, old->name()};
      }
    }
    absl::StatusOr<HloComputation*> split = RewriteScalarComputation(
        module_, callee, "_parts", spec,
        [&](int64_t i, absl::Span<HloInstruction* const> params, InstructionBuilder& b) {
          const std::vector<int64_t>& at = places[static_cast<size_t>(i)];
          if (at.size() == 1) return params[at[0]];
          return b.Op(HloOpcode::kComplex, callee.parameter_instruction(i)->shape(),
                      {params[at[0]], params[at[1]]});
        },
        [](HloInstruction* out, InstructionBuilder& b) {
          if (!IsComplexArray(out->shape())) return std::vector<HloInstruction*>{out};
          const Shape part = Shape::Scalar(ComplexComponentType(out->shape().element_type()));
          return std::vector<HloInstruction*>{b.Op(HloOpcode::kReal, part, {out}),
                                              b.Op(HloOpcode::kImag, part, {out})};
        });
    AOT_RETURN_IF_ERROR_AND(split, Refuse(caller, _.message()));
    HloComputation* c = *split;
    AOT_RETURN_IF_ERROR(ComplexExpander(module_, c, /*split_scalars=*/true).Run().status());
    AOT_RETURN_IF_ERROR(RemoveDeadCode(c).status());
    AOT_RETURN_IF_ERROR(EnsureDefinitionOrder(c).status());
    // Named as the callee's own instruction where one is left (rather than
    // the value this pass joined for it).
    const HloInstruction* kept = nullptr;
    for (const HloInstruction* i : c->instructions()) {
      if (!HasComplexLeaf(i->shape())) continue;
      const HloInstruction* own = callee.FindInstruction(i->name());
      if (kept == nullptr || (own != nullptr && own->opcode() == i->opcode())) kept = i;
    }
    if (kept != nullptr) {
      return Refuse(caller,
                    absl::StrCat("its computation '", callee.name(), "' keeps complex values in '",
                                 kept->name(), "' (", HloOpcodeString(kept->opcode()),
                                 "), which this compiler does not split into parts"));
    }
    return c;
  }

  // reduce, reduce-window, scatter or sort of complex values as the same op
  // on their parts: each complex operand of the n the op computes on becomes
  // two (real, imaginary), and the computation SplitComplexScalars of the
  // callee; the results are joined back.
  absl::StatusOr<HloInstruction*> SplitCall(HloInstruction* h, InstructionBuilder& b) {
    const HloOpcode opcode = h->opcode();
    const bool sort = opcode == HloOpcode::kSort;
    const bool scatter = opcode == HloOpcode::kScatter;
    const int64_t n = sort ? h->operand_count() : (h->operand_count() - (scatter ? 1 : 0)) / 2;
    // Where each of the n values' parts go among the m new ones.
    std::vector<std::vector<int64_t>> at;
    int64_t m = 0;
    for (int64_t k = 0; k < n; ++k) {
      if (IsComplexArray(h->operand(k)->shape())) {
        at.push_back({m, m + 1});
        m += 2;
      } else {
        at.push_back({m++});
      }
    }
    auto split_operands = [&](int64_t first, std::vector<HloInstruction*>& into) {
      for (int64_t k = 0; k < n; ++k) {
        HloInstruction* x = h->operand(first + k);
        if (!IsComplexArray(x->shape())) {
          into.push_back(x);
          continue;
        }
        Parts p = PartsOf(x, b);
        into.push_back(p.re);
        into.push_back(p.im);
      }
    };
    std::vector<HloInstruction*> operands;
    std::vector<std::vector<int64_t>> places;
    split_operands(0, operands);
    if (sort) {
      // Comparator parameters: lhs and rhs of each operand in turn.
      for (int64_t k = 0; k < n; ++k) {
        for (int64_t side = 0; side < 2; ++side) {
          std::vector<int64_t> p;
          for (int64_t j : at[k]) p.push_back(2 * j + side);
          places.push_back(p);
        }
      }
    } else {
      // Accumulators, then values (inputs then updates for scatter).
      if (scatter) operands.push_back(h->operand(n));
      split_operands(scatter ? n + 1 : n, operands);
      places = at;
      for (const std::vector<int64_t>& p : at) {
        std::vector<int64_t> shifted;
        for (int64_t j : p) shifted.push_back(m + j);
        places.push_back(shifted);
      }
    }
    AOT_ASSIGN_OR_RETURN(HloComputation * callee, SplitComplexScalars(*h, *h->to_apply(), places));
    auto result_of = [&](int64_t k) -> const Shape& {
      return h->shape().IsTuple() ? h->shape().tuple_shapes(k) : h->shape();
    };
    std::vector<Shape> parts;
    for (int64_t k = 0; k < n; ++k) {
      const Shape& r = result_of(k);
      const PrimitiveType type =
          IsComplexArray(r) ? ComplexComponentType(r.element_type()) : r.element_type();
      for (size_t j = 0; j < at[k].size(); ++j) parts.push_back(Shape(type, r.dimensions()));
    }
    std::unique_ptr<HloInstruction> clone = CloneWithOperands(*h, operands);
    *clone->mutable_shape() = Shape::Tuple(parts);
    *clone->mutable_called_computations() = {callee};
    HloInstruction* split = b.Add(std::move(clone));
    std::vector<HloInstruction*> results;
    for (int64_t k = 0; k < n; ++k) {
      if (at[k].size() == 2) {
        results.push_back(
            Join({b.GetTupleElement(split, at[k][0]), b.GetTupleElement(split, at[k][1])},
                 result_of(k), b));
      } else {
        results.push_back(b.WithLayoutOf(b.GetTupleElement(split, at[k][0]), result_of(k)));
      }
    }
    return h->shape().IsTuple() ? b.Tuple(results) : results[0];
  }

  HloComputation* add_for(PrimitiveType part) {
    auto it = adds_.find(part);
    if (it != adds_.end()) return it->second;
    return adds_[part] = AddComputationFor(module_, part);
  }

  HloModule* module_;
  HloComputation* computation_;
  NameUniquer names_;
  bool split_scalars_ = false;
  absl::flat_hash_map<PrimitiveType, HloComputation*> adds_;
  absl::flat_hash_map<HloInstruction*, Parts> parts_;
};

}  // namespace

absl::StatusOr<bool> ExpandComplexArithmetic(HloModule* module) {
  // The computations the program runs: the entry and, transitively, what
  // its instructions call. Scalar computations called as reducers,
  // comparators, ... are left as they are: the instruction calling one is
  // rewritten (an add-reduction gets a real reducer) or refused; one left
  // uncalled (the reducer of a rewritten reduction) is no longer run.
  const absl::flat_hash_set<const HloComputation*> embedded = EmbeddedComputations(*module);
  absl::flat_hash_set<const HloComputation*> run;
  std::vector<const HloComputation*> pending = {module->entry_computation()};
  while (!pending.empty()) {
    const HloComputation* c = pending.back();
    pending.pop_back();
    if (c == nullptr || !run.insert(c).second) continue;
    for (const HloInstruction* h : c->instructions()) {
      for (const HloComputation* callee : h->called_computations()) pending.push_back(callee);
    }
  }
  return RewriteUnfusedComputations(module, AfterRewrite::kRemoveDeadAndReorder,
                                    [&](HloComputation* c) -> absl::StatusOr<bool> {
                                      if (embedded.contains(c) || !run.contains(c)) return false;
                                      return ComplexExpander(module, c).Run();
                                    });
}

}  // namespace aot
