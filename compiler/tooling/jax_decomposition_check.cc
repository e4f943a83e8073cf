#include "compiler/tooling/jax_decomposition_check.h"

#include <algorithm>
#include <cmath>
#include <complex>
#include <cstdint>
#include <limits>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "compiler/hlo/ffi_attributes.h"
#include "compiler/hlo/hlo_computation.h"
#include "compiler/hlo/hlo_instruction.h"
#include "compiler/interpreter/evaluator.h"

namespace aot {
namespace {

using Complex = std::complex<double>;

enum class Kind { kEigh, kEig, kSchur };

// The decomposition a target computes: lapack_<letter><routine>_ffi.
std::optional<Kind> KindOf(const std::string& target) {
  if (!absl::StartsWith(target, "lapack_") || !absl::EndsWith(target, "_ffi") ||
      target.size() < 12) {
    return std::nullopt;
  }
  const std::string routine = target.substr(8, target.size() - 12);
  if (routine == "syevd" || routine == "heevd") return Kind::kEigh;
  if (routine == "geev") return Kind::kEig;
  if (routine == "gees") return Kind::kSchur;
  return std::nullopt;
}

// A batch of square matrices (row-major, each n x n, as a literal holds
// its values whatever its layout) or of vectors, as
// complex doubles whatever the element type: the checks below are a few
// products and norms of test-sized matrices, written out here rather than
// through BLAS so that they read like the Python they mirror.
struct Batch {
  int64_t count = 0, n = 0;
  std::vector<Complex> v;
  Complex* at(int64_t b) { return v.data() + b * n * n; }
  const Complex* at(int64_t b) const { return v.data() + b * n * n; }
};

std::optional<Batch> Matrices(const Literal& l) {
  const Shape& s = l.shape();
  if (s.IsTuple() || s.rank() < 2) return std::nullopt;
  const int64_t n = s.dimensions(s.rank() - 1);
  if (s.dimensions(s.rank() - 2) != n || n == 0) return std::nullopt;
  Batch m{l.element_count() / (n * n), n, {}};
  for (int64_t i = 0; i < l.element_count(); ++i) m.v.push_back(l.GetAsComplex(i));
  return m;
}

std::optional<std::vector<Complex>> Vectors(const Literal& l, int64_t count, int64_t n) {
  const Shape& s = l.shape();
  if (s.IsTuple() || s.rank() < 1 || s.dimensions(s.rank() - 1) != n ||
      l.element_count() != count * n) {
    return std::nullopt;
  }
  std::vector<Complex> v;
  for (int64_t i = 0; i < l.element_count(); ++i) v.push_back(l.GetAsComplex(i));
  return v;
}

// c = a * b for n x n row-major matrices.
std::vector<Complex> Product(const Complex* a, const Complex* b, int64_t n) {
  std::vector<Complex> c(n * n);
  for (int64_t i = 0; i < n; ++i) {
    for (int64_t k = 0; k < n; ++k) {
      for (int64_t j = 0; j < n; ++j) c[i * n + j] += a[i * n + k] * b[k * n + j];
    }
  }
  return c;
}

std::vector<Complex> Adjoint(const Complex* a, int64_t n) {
  std::vector<Complex> t(n * n);
  for (int64_t i = 0; i < n; ++i) {
    for (int64_t j = 0; j < n; ++j) t[j * n + i] = std::conj(a[i * n + j]);
  }
  return t;
}

double Norm(const std::vector<Complex>& a) {
  double s = 0;
  for (const Complex& x : a) s += std::norm(x);
  return std::sqrt(s);
}

// ||a v - v diag(w)||, the columns of v the eigenvectors of w.
double Residual(const Complex* a, const Complex* v, const Complex* w, int64_t n) {
  std::vector<Complex> r = Product(a, v, n);
  for (int64_t i = 0; i < n; ++i) {
    for (int64_t j = 0; j < n; ++j) r[i * n + j] -= v[i * n + j] * w[j];
  }
  return Norm(r);
}

struct Tolerance {
  double rtol, atol, eps;
};

Tolerance TestTolerance(PrimitiveType type) {
  const bool single = type == F32 || type == C64;
  return single ? Tolerance{1e-3, 1e-4, std::numeric_limits<float>::epsilon()}
                : Tolerance{1e-5, 1e-12, std::numeric_limits<double>::epsilon()};
}

absl::Status Fails(absl::string_view what, int64_t batch, double value, double bound) {
  return absl::FailedPreconditionError(
      absl::StrCat(what, " of matrix ", batch, " is ", value, ", over its bound ", bound));
}

absl::Status CheckEigh(const Batch& a, const Literal& v_out, const Literal& w_out,
                       const Literal& w_expected, const Tolerance& tol) {
  std::optional<Batch> v = Matrices(v_out);
  auto w = Vectors(w_out, a.count, a.n);
  auto we = Vectors(w_expected, a.count, a.n);
  if (!v || v->n != a.n || v->count != a.count || !w || !we) {
    return absl::FailedPreconditionError("eigh: the outputs are not (v[..., n, n], w[..., n])");
  }
  const int64_t n = a.n;
  for (int64_t b = 0; b < a.count; ++b) {
    std::vector<Complex> gram = Product(Adjoint(v->at(b), n).data(), v->at(b), n);
    for (int64_t i = 0; i < n; ++i) gram[i * n + i] -= 1.0;
    if (Norm(gram) > tol.rtol) return Fails("eigh: ||I - V^H V||", b, Norm(gram), tol.rtol);
    const std::vector<Complex> ab(a.at(b), a.at(b) + n * n);
    const double bound = tol.rtol * Norm(ab);
    const double r = Residual(a.at(b), v->at(b), w->data() + b * n, n);
    if (r > bound) return Fails("eigh: ||A V - V diag(w)||", b, r, bound);
    for (int64_t i = 0; i < n; ++i) {
      const Complex x = (*w)[b * n + i], e = (*we)[b * n + i];
      if (std::abs(x - e) > tol.atol + tol.rtol * std::abs(e)) {
        return absl::FailedPreconditionError(absl::StrCat(
            "eigh: eigenvalue ", i, " of matrix ", b, " is ", x.real(), ", expected ", e.real()));
      }
    }
  }
  return absl::OkStatus();
}

absl::Status CheckEig(const Batch& a, const Literal& w_out, const Literal& vl_out,
                      const Literal& vr_out, const Literal& w_expected, const Tolerance& tol) {
  auto w = Vectors(w_out, a.count, a.n);
  auto we = Vectors(w_expected, a.count, a.n);
  std::optional<Batch> vl = Matrices(vl_out), vr = Matrices(vr_out);
  if (!w || !we || !vl || !vr || vl->n != a.n || vr->n != a.n) {
    return absl::FailedPreconditionError("eig: the outputs are not (w, vl, vr)");
  }
  const int64_t n = a.n;
  const double bound = 100 * (n + 1) * tol.eps;
  for (int64_t b = 0; b < a.count; ++b) {
    // Each eigenvalue is near one of the other set's, both ways round.
    for (int pass = 0; pass < 2; ++pass) {
      const std::vector<Complex>& from = pass == 0 ? *w : *we;
      const std::vector<Complex>& to = pass == 0 ? *we : *w;
      for (int64_t i = 0; i < n; ++i) {
        double closest = std::numeric_limits<double>::infinity();
        for (int64_t j = 0; j < n; ++j) {
          closest = std::min(closest, std::abs(to[b * n + j] - from[b * n + i]));
        }
        if (closest > tol.atol) {
          return Fails(pass == 0 ? "eig: the distance of a computed eigenvalue to the expected"
                                 : "eig: the distance of an expected eigenvalue to the computed",
                       b, closest, tol.atol);
        }
      }
    }
    const double right = Residual(a.at(b), vr->at(b), w->data() + b * n, n);
    if (right > bound) return Fails("eig: ||A vr - vr diag(w)||", b, right, bound);
    std::vector<Complex> conj_w(w->begin() + b * n, w->begin() + (b + 1) * n);
    for (Complex& x : conj_w) x = std::conj(x);
    const double left = Residual(Adjoint(a.at(b), n).data(), vl->at(b), conj_w.data(), n);
    if (left > bound) return Fails("eig: ||A^H vl - vl diag(conj(w))||", b, left, bound);
  }
  return absl::OkStatus();
}

absl::Status CheckSchur(const Batch& a, const Literal& t_out, const Literal& s_out,
                        const Tolerance& tol) {
  std::optional<Batch> t = Matrices(t_out), s = Matrices(s_out);
  if (!t || !s || t->n != a.n || s->n != a.n) {
    return absl::FailedPreconditionError("schur: the outputs are not (t, s)");
  }
  const int64_t n = a.n;
  for (int64_t b = 0; b < a.count; ++b) {
    const std::vector<Complex> st = Product(s->at(b), t->at(b), n);
    const std::vector<Complex> back = Product(st.data(), Adjoint(s->at(b), n).data(), n);
    for (int64_t i = 0; i < n * n; ++i) {
      const Complex e = a.at(b)[i];
      if (std::abs(back[i] - e) > tol.atol + tol.rtol * std::abs(e)) {
        return absl::FailedPreconditionError(absl::StrCat(
            "schur: S T S^H differs from A at element ", i, " of matrix ", b, ": (", back[i].real(),
            ", ", back[i].imag(), ") for (", e.real(), ", ", e.imag(), ")"));
      }
    }
  }
  return absl::OkStatus();
}

// The value of `instr` when the module runs on `inputs`: a clone of the
// module whose entry root is that instruction, evaluated.
absl::StatusOr<Literal> ValueOf(const HloModule& module, const std::string& name,
                                const std::vector<Literal>& inputs) {
  std::unique_ptr<HloModule> clone = module.Clone();
  if (clone == nullptr) return absl::InternalError("the module could not be cloned");
  HloComputation* entry = clone->entry_computation();
  for (HloInstruction* i : entry->instructions()) {
    if (i->name() == name) {
      entry->set_root_instruction(i);
      clone->mutable_config()->entry_computation_layout.reset();
      HloEvaluator evaluator;
      return evaluator.Evaluate(*clone, inputs);
    }
  }
  return absl::NotFoundError(absl::StrCat("no instruction ", name));
}

}  // namespace

std::optional<absl::Status> CheckJaxDecomposition(const JaxTestData& set, const HloModule& module,
                                                  const Literal& result) {
  std::optional<Kind> kind;
  for (const std::string& t : set.custom_call_targets) {
    if (auto k = KindOf(t)) kind = k;
  }
  if (!kind) return std::nullopt;
  const HloInstruction* call = nullptr;
  for (const HloInstruction* i : module.entry_computation()->instructions()) {
    if (i->opcode() == HloOpcode::kCustomCall && KindOf(i->attrs().custom_call_target) == kind) {
      if (call != nullptr) return std::nullopt;  // two calls: which output is which is unclear
      call = i;
    }
  }
  const std::vector<const Literal*> outputs = result.Leaves();
  const size_t want = *kind == Kind::kEig ? 3 : 2;
  if (call == nullptr || call->operand_count() < 1 || outputs.size() != want ||
      set.expected_outputs.size() != want) {
    return std::nullopt;
  }
  auto operand = ValueOf(module, call->operand(0)->name(), FlatInputs(set));
  if (!operand.ok()) {
    return absl::Status(operand.status().code(), absl::StrCat("the operand of ", call->name(), ": ",
                                                              operand.status().message()));
  }
  std::optional<Batch> a = Matrices(*operand);
  if (!a) return std::nullopt;
  const Tolerance tol = TestTolerance(operand->shape().element_type());
  switch (*kind) {
    case Kind::kEigh: {
      // LAPACK reads one triangle (uplo, 'L' by default as JAX writes it):
      // the matrix is the Hermitian one that triangle defines.
      bool lower = true;
      if (auto attrs = ParseFfiAttributes(call->attrs().backend_config); attrs.ok()) {
        if (const CustomCallAttributeProto* u = FindFfiAttribute(*attrs, "uplo")) {
          lower = u->i64() != 'U';
        }
      }
      const int64_t n = a->n;
      for (int64_t b = 0; b < a->count; ++b) {
        Complex* m = a->at(b);
        for (int64_t i = 0; i < n; ++i) {
          m[i * n + i] = m[i * n + i].real();
          for (int64_t j = i + 1; j < n; ++j) {
            if (lower) {
              m[i * n + j] = std::conj(m[j * n + i]);
            } else {
              m[j * n + i] = std::conj(m[i * n + j]);
            }
          }
        }
      }
      return CheckEigh(*a, *outputs[0], *outputs[1], set.expected_outputs[1], tol);
    }
    case Kind::kEig:
      return CheckEig(*a, *outputs[0], *outputs[1], *outputs[2], set.expected_outputs[0], tol);
    case Kind::kSchur:
      return CheckSchur(*a, *outputs[0], *outputs[1], tol);
  }
  return std::nullopt;
}

}  // namespace aot
