// Complex kernels of the HLO evaluator (c64, c128): elementwise arithmetic,
// real / imag / complex, (in)equality, convert, the add-reduction and fft.
// Ops that only move values or are bilinear (dot, convolution) are
// evaluated on the real and imaginary parts by the evaluator itself
// (evaluator.cc); these are the ops that need complex arithmetic.

#include <cmath>
#include <complex>
#include <numbers>

#include "absl/strings/str_cat.h"
#include "compiler/interpreter/evaluator_internal.h"
#include "support/status_macros.h"

namespace aot {
namespace interpreter_internal {

namespace {

using C = std::complex<double>;

absl::Status NotDefined(const HloInstruction& instr, PrimitiveType type) {
  return absl::InvalidArgumentError(absl::StrCat(HloOpcodeString(instr.opcode()),
                                                 " is not defined for element type ",
                                                 PrimitiveTypeName(type)));
}

absl::StatusOr<Literal> ArrayResult(const HloInstruction& instr, absl::Span<const int64_t> dims) {
  const Shape& shape = instr.shape();
  if (!shape.IsArray() ||
      !std::equal(shape.dimensions().begin(), shape.dimensions().end(), dims.begin(), dims.end())) {
    return absl::InvalidArgumentError(absl::StrCat("result shape ", shape.ToString(false),
                                                   " does not match the operands' dimensions ",
                                                   SpanToString(dims)));
  }
  return Literal(shape);
}

// The element operations, computed in the operands' own precision (Part
// is float for c64, double for c128) as XLA's complex kernels do.
template <typename Part>
std::complex<Part> Unary(HloOpcode op, std::complex<Part> z) {
  using Z = std::complex<Part>;
  const Part x = z.real(), y = z.imag();
  switch (op) {
    case HloOpcode::kNegate:
      return -z;
    case HloOpcode::kCopy:
      return z;
    case HloOpcode::kSign: {
      const Part r = std::abs(z);
      return r == 0 ? Z(0, 0) : z / r;
    }
    case HloOpcode::kExp:
      return std::exp(z);
    case HloOpcode::kExpm1: {
      // e^x cos y - 1 = expm1(x) cos y - 2 sin^2(y/2): exact near zero.
      const Part s = std::sin(y / 2);
      return Z(std::expm1(x) * std::cos(y) - 2 * s * s, std::exp(x) * std::sin(y));
    }
    case HloOpcode::kLog:
      return std::log(z);
    case HloOpcode::kLog1p:
      // |1+z|^2 = 1 + (2x + x^2 + y^2): log1p keeps small z exact.
      return Z(std::log1p(x * (2 + x) + y * y) / 2, std::atan2(y, 1 + x));
    case HloOpcode::kLogistic:
      return Part(1) / (Part(1) + std::exp(-z));
    case HloOpcode::kSqrt:
      return std::sqrt(z);
    case HloOpcode::kRsqrt:
      return Part(1) / std::sqrt(z);
    case HloOpcode::kCbrt:
      return std::pow(z, Part(1) / 3);
    case HloOpcode::kSin:
      return std::sin(z);
    case HloOpcode::kCos:
      return std::cos(z);
    case HloOpcode::kTan:
      return std::tan(z);
    case HloOpcode::kTanh:
      return std::tanh(z);
    default:
      return z;  // not reached: the caller checks the opcode
  }
}

template <typename Part>
std::complex<Part> Binary(HloOpcode op, std::complex<Part> a, std::complex<Part> b) {
  switch (op) {
    case HloOpcode::kAdd:
      return a + b;
    case HloOpcode::kSubtract:
      return a - b;
    case HloOpcode::kMultiply:
      return a * b;
    case HloOpcode::kDivide:
      return a / b;
    case HloOpcode::kPower:
      // XLA: x^0 = 1 (0^0 too); 0^y = 0 for Re(y) > 0.
      if (b == std::complex<Part>(0, 0)) return {1, 0};
      if (a == std::complex<Part>(0, 0) && b.real() > 0) return {0, 0};
      return std::pow(a, b);
    default:
      return a;  // not reached
  }
}

template <typename Part>
absl::StatusOr<Literal> UnaryOrBinary(const HloInstruction& instr, Operands ops) {
  using Z = std::complex<Part>;
  const HloOpcode op = instr.opcode();
  const Literal& a = *ops[0];
  AOT_ASSIGN_OR_RETURN(Literal out, ArrayResult(instr, a.shape().dimensions()));
  if (out.shape().element_type() != a.shape().element_type()) {
    return absl::InvalidArgumentError(absl::StrCat("result shape ", out.shape().ToString(false),
                                                   " does not match the operand's type"));
  }
  const Z* x = a.data<Z>().data();
  Z* o = out.data<Z>().data();
  const int64_t n = a.element_count();
  if (ops.size() == 1) {
    for (int64_t i = 0; i < n; ++i) o[i] = Unary<Part>(op, x[i]);
  } else {
    const Z* y = ops[1]->data<Z>().data();
    for (int64_t i = 0; i < n; ++i) o[i] = Binary<Part>(op, x[i], y[i]);
  }
  return out;
}

}  // namespace

bool IsComplexKernelOpcode(HloOpcode opcode) {
  switch (opcode) {
    case HloOpcode::kAbs:
    case HloOpcode::kReal:
    case HloOpcode::kImag:
    case HloOpcode::kComplex:
    case HloOpcode::kCompare:
    case HloOpcode::kConvert:
    case HloOpcode::kFft:
      return true;
    default:
      return IsComplexUnaryOpcode(opcode) || IsComplexBinaryOpcode(opcode);
  }
}

absl::StatusOr<Literal> EvalComplexElementwise(const HloInstruction& instr, Operands ops) {
  const HloOpcode op = instr.opcode();
  for (const Literal* x : ops) AOT_RETURN_IF_ERROR(ExpectArray(*x, "operand"));
  for (const Literal* x : ops) {
    if (x->shape().dimensions() != ops[0]->shape().dimensions()) {
      return absl::InvalidArgumentError(
          absl::StrCat("operands have dimensions ", SpanToString(ops[0]->shape().dimensions()),
                       " and ", SpanToString(x->shape().dimensions())));
    }
  }
  const Literal& a = *ops[0];
  const PrimitiveType in = a.shape().element_type();
  const int64_t n = a.element_count();
  AOT_ASSIGN_OR_RETURN(Literal out, ArrayResult(instr, a.shape().dimensions()));
  const PrimitiveType result = out.shape().element_type();
  switch (op) {
    case HloOpcode::kReal:
    case HloOpcode::kImag:
    case HloOpcode::kAbs:
      if (!IsComplex(in) && op != HloOpcode::kAbs && !IsFloatingPoint(in)) {
        return NotDefined(instr, in);
      }
      if (result != ComplexComponentType(in)) {
        return absl::InvalidArgumentError(absl::StrCat("result type ", PrimitiveTypeName(result),
                                                       " is not the component type of ",
                                                       PrimitiveTypeName(in)));
      }
      for (int64_t i = 0; i < n; ++i) {
        const C z = a.GetAsComplex(i);
        out.SetFromDouble(i, op == HloOpcode::kReal   ? z.real()
                             : op == HloOpcode::kImag ? z.imag()
                                                      : std::abs(z));
      }
      return out;
    case HloOpcode::kComplex: {
      const PrimitiveType part = ops[1]->shape().element_type();
      if (part != in || ComplexTypeOf(in) != result) {
        return absl::InvalidArgumentError(absl::StrCat("complex of ", PrimitiveTypeName(in),
                                                       " and ", PrimitiveTypeName(part),
                                                       " cannot make ", PrimitiveTypeName(result)));
      }
      for (int64_t i = 0; i < n; ++i) {
        out.SetFromComplex(i, C(a.GetAsDouble(i), ops[1]->GetAsDouble(i)));
      }
      return out;
    }
    case HloOpcode::kCompare: {
      const std::optional<ComparisonDirection> d = instr.attrs().comparison_direction;
      if (!d.has_value() || (*d != ComparisonDirection::kEq && *d != ComparisonDirection::kNe)) {
        return absl::InvalidArgumentError(
            absl::StrCat("comparison of ", PrimitiveTypeName(in), " values must be EQ or NE"));
      }
      if (result != PRED) return absl::InvalidArgumentError("compare must produce pred");
      for (int64_t i = 0; i < n; ++i) {
        const bool equal = a.GetAsComplex(i) == ops[1]->GetAsComplex(i);
        out.Set<bool>(i, equal == (*d == ComparisonDirection::kEq));
      }
      return out;
    }
    case HloOpcode::kConvert:
      if (!IsComplex(result)) {
        return absl::InvalidArgumentError(
            absl::StrCat("convert from ", PrimitiveTypeName(in), " to ", PrimitiveTypeName(result),
                         " is not defined (complex to real: use real, imag or abs)"));
      }
      for (int64_t i = 0; i < n; ++i) out.SetFromComplex(i, a.GetAsComplex(i));
      return out;
    default:
      break;
  }
  if (!IsComplexUnaryOpcode(op) && !IsComplexBinaryOpcode(op)) return NotDefined(instr, in);
  for (const Literal* x : ops) {
    if (x->shape().element_type() != in || !IsComplex(in)) {
      return NotDefined(instr, x->shape().element_type());
    }
  }
  if (in == C64) return UnaryOrBinary<float>(instr, ops);
  return UnaryOrBinary<double>(instr, ops);
}

absl::StatusOr<Literal> EvalComplexAddReduce(const HloInstruction& instr, const Literal& x,
                                             const Literal& init) {
  AOT_RETURN_IF_ERROR(ExpectArray(x, "operand"));
  const std::vector<int64_t>& reduced = instr.attrs().dimensions;
  std::vector<bool> is_reduced(x.shape().rank(), false);
  for (int64_t d : reduced) {
    if (d < 0 || d >= x.shape().rank()) {
      return absl::InvalidArgumentError(absl::StrCat("reduced dimension ", d, " is out of range"));
    }
    is_reduced[d] = true;
  }
  std::vector<int64_t> kept;
  for (int64_t d = 0; d < x.shape().rank(); ++d) {
    if (!is_reduced[d]) kept.push_back(x.shape().dimensions(d));
  }
  AOT_ASSIGN_OR_RETURN(Literal out, ArrayResult(instr, kept));
  if (init.element_count() != 1 || out.shape().element_type() != x.shape().element_type()) {
    return absl::InvalidArgumentError("reduce needs a scalar init of the operand's type");
  }
  std::vector<C> sums(out.element_count(), init.GetAsComplex(0));
  std::vector<int64_t> index(x.shape().rank(), 0);
  std::vector<int64_t> out_index;
  const int64_t n = x.element_count();
  for (int64_t i = 0; i < n; ++i) {
    out_index.clear();
    for (int64_t d = 0; d < x.shape().rank(); ++d) {
      if (!is_reduced[d]) out_index.push_back(index[d]);
    }
    sums[LinearIndex(kept, out_index)] += x.GetAsComplex(i);
    NextIndex(x.shape().dimensions(), index);
  }
  for (int64_t i = 0; i < out.element_count(); ++i) out.SetFromComplex(i, sums[i]);
  return out;
}

namespace {

// In-place discrete Fourier transform of every line along `axis` of a
// row-major array. Hand-written as the direct O(n^2) sum with an exact
// twiddle table (index j*k mod n), computed in double: this is the
// reference the compiled code is checked against, so accuracy comes
// before speed, and no FFT library is linked.
void TransformAxis(std::vector<C>& data, absl::Span<const int64_t> dims, int64_t axis,
                   bool inverse) {
  const int64_t n = dims[axis];
  if (n <= 1) return;
  int64_t inner = 1;
  for (size_t d = axis + 1; d < dims.size(); ++d) inner *= dims[d];
  const int64_t outer = static_cast<int64_t>(data.size()) / (n * inner);
  std::vector<C> twiddle(n);
  const double sign = inverse ? 1.0 : -1.0;
  for (int64_t k = 0; k < n; ++k) {
    const double angle = sign * 2.0 * std::numbers::pi * static_cast<double>(k) / n;
    twiddle[k] = C(std::cos(angle), std::sin(angle));
  }
  std::vector<C> line(n), result(n);
  for (int64_t o = 0; o < outer; ++o) {
    for (int64_t in = 0; in < inner; ++in) {
      const int64_t base = o * n * inner + in;
      for (int64_t j = 0; j < n; ++j) line[j] = data[base + j * inner];
      for (int64_t k = 0; k < n; ++k) {
        C sum = 0;
        for (int64_t j = 0; j < n; ++j) sum += line[j] * twiddle[(j * k) % n];
        result[k] = inverse ? sum / static_cast<double>(n) : sum;
      }
      for (int64_t k = 0; k < n; ++k) data[base + k * inner] = result[k];
    }
  }
}

}  // namespace

absl::StatusOr<Literal> EvalFft(const HloInstruction& instr, const Literal& x) {
  AOT_RETURN_IF_ERROR(ExpectArray(x, "operand"));
  AOT_ASSIGN_OR_RETURN(const FftAttributes fft, ReadFftAttributes(instr));
  const std::string& type = fft.type;
  const std::vector<int64_t>& length = fft.length;
  const int64_t k = static_cast<int64_t>(length.size());
  const int64_t rank = x.shape().rank();
  if (k < 1 || k > rank || !instr.shape().IsArray() || instr.shape().rank() != rank) {
    return absl::InvalidArgumentError(absl::StrCat("fft_length has ", k, " entries for rank ", rank,
                                                   " and result ", instr.shape().ToString(false)));
  }
  const bool real_in = type == "RFFT";
  const bool real_out = type == "IRFFT";
  // Work on the full (untruncated) transform shape in complex double.
  std::vector<int64_t> dims = x.shape().dimensions();
  for (int64_t i = 0; i < k; ++i) dims[rank - k + i] = length[i];
  for (int64_t i = 0; i < rank; ++i) {
    const int64_t expected = (real_out && i == rank - 1) ? length.back() / 2 + 1 : dims[i];
    if (x.shape().dimensions(i) != expected ||
        instr.shape().dimensions(i) !=
            ((real_in && i == rank - 1) ? length.back() / 2 + 1 : dims[i])) {
      return absl::InvalidArgumentError(
          absl::StrCat(type, " over fft_length=", DimsToString(length), " does not match ",
                       x.shape().ToString(false), " -> ", instr.shape().ToString(false)));
    }
  }
  int64_t total = 1;
  for (int64_t d : dims) total *= d;
  std::vector<C> data(total);
  const int64_t last = dims.back();
  const int64_t rows = total / std::max<int64_t>(last, 1);
  if (real_out) {
    // Inverse over the leading transformed dimensions first, then extend
    // the last one to its full length (X[j] = conj(X[n-j])): the input is
    // Hermitian along it only line by line after the others are undone.
    const int64_t half = last / 2 + 1;
    std::vector<int64_t> packed_dims = dims;
    packed_dims.back() = half;
    std::vector<C> packed(rows * half);
    for (int64_t i = 0; i < static_cast<int64_t>(packed.size()); ++i) {
      packed[i] = x.GetAsComplex(i);
    }
    for (int64_t a = rank - k; a < rank - 1; ++a) TransformAxis(packed, packed_dims, a, true);
    for (int64_t row = 0; row < rows; ++row) {
      for (int64_t j = 0; j < last; ++j) {
        data[row * last + j] =
            j < half ? packed[row * half + j] : std::conj(packed[row * half + (last - j)]);
      }
    }
    TransformAxis(data, dims, rank - 1, /*inverse=*/true);
  } else {
    for (int64_t i = 0; i < total; ++i) data[i] = x.GetAsComplex(i);
    for (int64_t a = rank - k; a < rank; ++a) TransformAxis(data, dims, a, type == "IFFT");
  }
  Literal out(instr.shape());
  const int64_t out_last = instr.shape().rank() > 0 ? instr.shape().dimensions().back() : 1;
  for (int64_t i = 0; i < out.element_count(); ++i) {
    const int64_t row = i / std::max<int64_t>(out_last, 1);
    const int64_t col = i % std::max<int64_t>(out_last, 1);
    const C v = data[row * last + col];  // RFFT keeps the first n/2+1
    if (real_out) {
      out.SetFromDouble(i, v.real());
    } else {
      out.SetFromComplex(i, v);
    }
  }
  return out;
}

}  // namespace interpreter_internal
}  // namespace aot
