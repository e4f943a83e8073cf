// JAX's CPU LAPACK typed-FFI custom calls (lapack_handlers.h): shape and
// attribute checks, the copies between each buffer's layout and LAPACK's
// column-major order, and one lapack_kernels.h call per batch element.
#include "runtime/ffi/lapack_handlers.h"

#include <algorithm>
#include <cmath>
#include <complex>
#include <cstdint>
#include <cstring>
#include <limits>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "runtime/ffi/lapack_kernels.h"
#include "runtime/shape_util.h"
#include "support/status_macros.h"

namespace aot {
namespace {

using lapack::kIsComplex;
using lapack::Real;

template <typename T>
constexpr PrimitiveType TypeOf() {
  if constexpr (std::is_same_v<T, float>) return F32;
  if constexpr (std::is_same_v<T, double>) return F64;
  if constexpr (std::is_same_v<T, std::complex<float>>) return C64;
  if constexpr (std::is_same_v<T, std::complex<double>>) return C128;
  if constexpr (std::is_same_v<T, int32_t>) return S32;
}

std::string TypeName(PrimitiveType type) {
  ShapeProto s;
  s.set_element_type(type);
  std::string text = runtime_shape::ToString(s);
  return text.substr(0, text.find('['));
}

// The strides (in elements) of each dimension of `dims` laid out as
// `minor_to_major` says.
std::vector<int64_t> Strides(const std::vector<int64_t>& dims,
                             const std::vector<int64_t>& minor_to_major) {
  std::vector<int64_t> strides(dims.size(), 0);
  int64_t stride = 1;
  for (int64_t d : minor_to_major) {
    strides[d] = stride;
    stride *= dims[d];
  }
  return strides;
}

// Copies every element of an array of `dims` from `src` (strides `from`)
// to `dst` (strides `to`).
void CopyStrided(const std::vector<int64_t>& dims, const uint8_t* src,
                 const std::vector<int64_t>& from, uint8_t* dst, const std::vector<int64_t>& to,
                 int64_t bytes) {
  int64_t count = 1;
  for (int64_t d : dims) count *= d;
  if (count == 0) return;
  const size_t rank = dims.size();
  std::vector<int64_t> index(rank, 0);
  int64_t s = 0, t = 0;
  for (int64_t n = 0; n < count; ++n) {
    std::memcpy(dst + t * bytes, src + s * bytes, bytes);
    for (size_t k = rank; k-- > 0;) {
      if (++index[k] < dims[k]) {
        s += from[k];
        t += to[k];
        break;
      }
      s -= from[k] * (dims[k] - 1);
      t -= to[k] * (dims[k] - 1);
      index[k] = 0;
    }
  }
}

// LAPACK's order for an array of rank r: the batch dimensions row-major
// and, for a matrix, its two minor dimensions column-major.
std::vector<int64_t> LapackOrder(int64_t rank, bool matrix) {
  std::vector<int64_t> m2m;
  if (matrix && rank >= 2) {
    m2m = {rank - 2, rank - 1};
    for (int64_t d = rank - 3; d >= 0; --d) m2m.push_back(d);
  } else {
    for (int64_t d = rank - 1; d >= 0; --d) m2m.push_back(d);
  }
  return m2m;
}

// One buffer of the call in LAPACK's order.
struct Array {
  std::vector<int64_t> dims;
  // The dimensions of one batch element: 2 (a matrix), 1 (a vector) or 0
  // (a scalar, such as info).
  int core = 0;
  std::vector<uint8_t> bytes;
  const FfiBuffer* buffer = nullptr;
  // Elements of one batch element.
  int64_t step = 0;

  template <typename T>
  T* at(int64_t batch) {
    return reinterpret_cast<T*>(bytes.data()) + batch * step;
  }
  int64_t rows() const { return dims[dims.size() - 2]; }
  int64_t cols() const { return dims.back(); }
};

std::string DimsText(const std::vector<int64_t>& dims) {
  return absl::StrCat("[", absl::StrJoin(dims, ","), "]");
}

// The buffers, attributes and errors of one call of a target.
class Call {
 public:
  Call(absl::string_view target, const FfiCallFrame& frame) : target_(target), frame_(frame) {}

  absl::Status Error(absl::string_view what) const {
    return absl::InvalidArgumentError(absl::StrCat(target_, ": ", what));
  }

  absl::Status Arity(int operands, int results) const {
    if (static_cast<int>(frame_.operands.size()) != operands ||
        static_cast<int>(frame_.results.size()) != results) {
      return Error(absl::StrCat("takes ", operands, " operand(s) and returns ", results,
                                " result(s), got ", frame_.operands.size(), " and ",
                                frame_.results.size()));
    }
    return absl::OkStatus();
  }

  // Operand `i`, of `type`, with `core` dimensions per batch element (2 for
  // a matrix), copied into LAPACK's order.
  absl::StatusOr<Array> Operand(int i, PrimitiveType type, int core) const {
    const FfiBuffer& b = frame_.operands[i];
    AOT_ASSIGN_OR_RETURN(Array a, Describe(b, absl::StrCat("operand ", i), type, core));
    const int64_t bytes = runtime_shape::ElementBytes(type);
    int64_t count = 1;
    for (int64_t d : a.dims) count *= d;
    a.bytes.resize(count * bytes);
    CopyStrided(a.dims, static_cast<const uint8_t*>(b.data),
                Strides(a.dims, runtime_shape::MinorToMajor(*b.shape)), a.bytes.data(),
                Strides(a.dims, LapackOrder(a.dims.size(), core == 2)), bytes);
    return a;
  }

  // Result `i`, which must be of `type` and `dims` (`core` of them per
  // batch element): zeros in LAPACK's order, copied out by Finish().
  absl::StatusOr<Array*> Result(int i, PrimitiveType type, const std::vector<int64_t>& dims,
                                int core) {
    const FfiBuffer& b = frame_.results[i];
    AOT_ASSIGN_OR_RETURN(Array a, Describe(b, absl::StrCat("result ", i), type, core));
    if (a.dims != dims) {
      return Error(absl::StrCat("result ", i, " must be ", TypeName(type), DimsText(dims), ", got ",
                                runtime_shape::ToString(*b.shape)));
    }
    int64_t count = 1;
    for (int64_t d : dims) count *= d;
    a.bytes.assign(count * runtime_shape::ElementBytes(type), 0);
    results_.push_back(std::make_unique<Array>(std::move(a)));
    return results_.back().get();
  }

  // Copies the results out, each into its buffer's layout.
  absl::Status Finish() {
    for (const auto& a : results_) {
      const int64_t bytes = runtime_shape::ElementBytes(a->buffer->shape->element_type());
      CopyStrided(a->dims, a->bytes.data(),
                  Strides(a->dims, LapackOrder(a->dims.size(), a->core == 2)),
                  static_cast<uint8_t*>(a->buffer->data),
                  Strides(a->dims, runtime_shape::MinorToMajor(*a->buffer->shape)), bytes);
    }
    return absl::OkStatus();
  }

  // An attribute holding one of the characters of `allowed`.
  absl::StatusOr<char> CharAttribute(absl::string_view name, absl::string_view allowed) const {
    AOT_ASSIGN_OR_RETURN(int64_t v, IntAttribute(name));
    if (v <= 0 || v > 127 || allowed.find(static_cast<char>(v)) == absl::string_view::npos) {
      return Error(absl::StrCat("attribute '", name, "' must be one of the characters '", allowed,
                                "' (as its ASCII code), got ", v));
    }
    return static_cast<char>(v);
  }

  absl::StatusOr<int64_t> IntAttribute(absl::string_view name) const {
    if (frame_.attributes != nullptr) {
      for (const CustomCallAttributeProto& a : *frame_.attributes) {
        if (a.name() != name) continue;
        if (a.value_case() != CustomCallAttributeProto::kI64) {
          return Error(absl::StrCat("attribute '", name, "' must be an integer"));
        }
        return a.i64();
      }
    }
    return Error(absl::StrCat("needs the attribute '", name, "'"));
  }

  absl::string_view target() const { return target_; }

  // The dimensions of result `i` (empty when it is not an array).
  std::vector<int64_t> ResultDims(int i) const {
    const ShapeProto* shape = frame_.results[i].shape;
    if (shape == nullptr || !runtime_shape::IsArray(*shape)) return {};
    return std::vector<int64_t>(shape->dimensions().begin(), shape->dimensions().end());
  }

 private:
  absl::StatusOr<Array> Describe(const FfiBuffer& b, const std::string& what, PrimitiveType type,
                                 int core) const {
    if (b.shape == nullptr || !runtime_shape::IsArray(*b.shape) ||
        b.shape->element_type() != type || b.shape->dimensions_size() < core) {
      return Error(
          absl::StrCat(what, " must be a ", TypeName(type), " array of rank >= ", core, ", got ",
                       b.shape == nullptr ? "nothing" : runtime_shape::ToString(*b.shape)));
    }
    Array a;
    a.buffer = &b;
    a.core = core;
    a.dims.assign(b.shape->dimensions().begin(), b.shape->dimensions().end());
    for (int64_t d : a.dims) {
      if (d < 0 || d > std::numeric_limits<int>::max()) {
        return Error(absl::StrCat(what, " ", runtime_shape::ToString(*b.shape),
                                  ": a dimension outside LAPACK's 32-bit integers"));
      }
    }
    const std::vector<int64_t> m2m = runtime_shape::MinorToMajor(*b.shape);
    std::vector<bool> seen(a.dims.size(), false);
    for (int64_t d : m2m) {
      if (d < 0 || d >= static_cast<int64_t>(a.dims.size()) || seen[d]) {
        return Error(absl::StrCat(what, " ", runtime_shape::ToString(*b.shape),
                                  ": the layout is not a permutation of the dimensions"));
      }
      seen[d] = true;
    }
    if (m2m.size() != a.dims.size()) {
      return Error(absl::StrCat(what, " ", runtime_shape::ToString(*b.shape),
                                ": the layout does not name every dimension"));
    }
    a.step = 1;
    for (size_t d = a.dims.size() - core; d < a.dims.size(); ++d) a.step *= a.dims[d];
    return a;
  }

  std::string target_;
  const FfiCallFrame& frame_;
  std::vector<std::unique_ptr<Array>> results_;
};

// The batch dimensions of a matrix.
std::vector<int64_t> BatchOf(const Array& matrix) {
  return std::vector<int64_t>(matrix.dims.begin(), matrix.dims.end() - 2);
}

int64_t Count(const std::vector<int64_t>& dims) {
  int64_t n = 1;
  for (int64_t d : dims) n *= d;
  return n;
}

std::vector<int64_t> With(std::vector<int64_t> batch, std::initializer_list<int64_t> minor) {
  batch.insert(batch.end(), minor.begin(), minor.end());
  return batch;
}

int Ld(int64_t rows) { return static_cast<int>(std::max<int64_t>(1, rows)); }

absl::Status ExpectSquare(const Call& call, const Array& x) {
  if (x.rows() != x.cols()) {
    return call.Error(absl::StrCat("operand 0 must be square matrices, got ", DimsText(x.dims)));
  }
  return absl::OkStatus();
}

absl::Status ExpectBatch(const Call& call, const Array& a, int operand, int core,
                         const std::vector<int64_t>& batch) {
  if (static_cast<int64_t>(a.dims.size()) != static_cast<int64_t>(batch.size()) + core ||
      !std::equal(batch.begin(), batch.end(), a.dims.begin())) {
    return call.Error(absl::StrCat("operand ", operand, " ", DimsText(a.dims),
                                   " must have the batch dimensions ", DimsText(batch), " and ",
                                   core, " more"));
  }
  return absl::OkStatus();
}

void CopyInto(Array& to, const Array& from) { to.bytes = from.bytes; }

// ---------------------------------------------------------------------------
// The targets.

template <typename T>
absl::Status Potrf(Call& call) {
  AOT_RETURN_IF_ERROR(call.Arity(1, 2));
  AOT_ASSIGN_OR_RETURN(char uplo, call.CharAttribute("uplo", "LU"));
  AOT_ASSIGN_OR_RETURN(Array x, call.Operand(0, TypeOf<T>(), 2));
  AOT_RETURN_IF_ERROR(ExpectSquare(call, x));
  const std::vector<int64_t> batch = BatchOf(x);
  AOT_ASSIGN_OR_RETURN(Array * out, call.Result(0, TypeOf<T>(), x.dims, 2));
  AOT_ASSIGN_OR_RETURN(Array * info, call.Result(1, S32, batch, 0));
  CopyInto(*out, x);
  const int n = x.rows();
  for (int64_t b = 0; b < Count(batch); ++b) {
    *info->at<int32_t>(b) = lapack::Potrf<T>(uplo, n, out->at<T>(b), Ld(n));
  }
  return call.Finish();
}

template <typename T>
absl::Status Getrf(Call& call) {
  AOT_RETURN_IF_ERROR(call.Arity(1, 3));
  AOT_ASSIGN_OR_RETURN(Array x, call.Operand(0, TypeOf<T>(), 2));
  const std::vector<int64_t> batch = BatchOf(x);
  const int m = x.rows(), n = x.cols();
  AOT_ASSIGN_OR_RETURN(Array * out, call.Result(0, TypeOf<T>(), x.dims, 2));
  AOT_ASSIGN_OR_RETURN(Array * ipiv, call.Result(1, S32, With(batch, {std::min(m, n)}), 1));
  AOT_ASSIGN_OR_RETURN(Array * info, call.Result(2, S32, batch, 0));
  CopyInto(*out, x);
  for (int64_t b = 0; b < Count(batch); ++b) {
    *info->at<int32_t>(b) = lapack::Getrf<T>(m, n, out->at<T>(b), Ld(m), ipiv->at<int32_t>(b));
  }
  return call.Finish();
}

template <typename T>
absl::Status Geqrf(Call& call) {
  AOT_RETURN_IF_ERROR(call.Arity(1, 2));
  AOT_ASSIGN_OR_RETURN(Array x, call.Operand(0, TypeOf<T>(), 2));
  const std::vector<int64_t> batch = BatchOf(x);
  const int m = x.rows(), n = x.cols();
  AOT_ASSIGN_OR_RETURN(Array * out, call.Result(0, TypeOf<T>(), x.dims, 2));
  AOT_ASSIGN_OR_RETURN(Array * tau, call.Result(1, TypeOf<T>(), With(batch, {std::min(m, n)}), 1));
  CopyInto(*out, x);
  for (int64_t b = 0; b < Count(batch); ++b) {
    const int info = lapack::Geqrf<T>(m, n, out->at<T>(b), Ld(m), tau->at<T>(b));
    if (info < 0) return call.Error(absl::StrCat("xGEQRF refused argument ", -info));
  }
  return call.Finish();
}

template <typename T>
absl::Status Geqp3(Call& call) {
  AOT_RETURN_IF_ERROR(call.Arity(2, 3));
  AOT_ASSIGN_OR_RETURN(Array x, call.Operand(0, TypeOf<T>(), 2));
  const std::vector<int64_t> batch = BatchOf(x);
  const int m = x.rows(), n = x.cols();
  AOT_ASSIGN_OR_RETURN(Array jpvt, call.Operand(1, S32, 1));
  AOT_RETURN_IF_ERROR(ExpectBatch(call, jpvt, 1, 1, batch));
  if (jpvt.cols() != n) {
    return call.Error(absl::StrCat("operand 1 (jpvt) must have ", n, " elements per matrix, got ",
                                   DimsText(jpvt.dims)));
  }
  AOT_ASSIGN_OR_RETURN(Array * out, call.Result(0, TypeOf<T>(), x.dims, 2));
  AOT_ASSIGN_OR_RETURN(Array * jpvt_out, call.Result(1, S32, jpvt.dims, 1));
  AOT_ASSIGN_OR_RETURN(Array * tau, call.Result(2, TypeOf<T>(), With(batch, {std::min(m, n)}), 1));
  CopyInto(*out, x);
  CopyInto(*jpvt_out, jpvt);
  for (int64_t b = 0; b < Count(batch); ++b) {
    // LAPACK reads jpvt only as zero or not; any other value pins the
    // column, as JAX's kernel passes it on.
    const int info =
        lapack::Geqp3<T>(m, n, out->at<T>(b), Ld(m), jpvt_out->at<int32_t>(b), tau->at<T>(b));
    if (info < 0) return call.Error(absl::StrCat("xGEQP3 refused argument ", -info));
  }
  return call.Finish();
}

template <typename T>
absl::Status Orgqr(Call& call) {
  AOT_RETURN_IF_ERROR(call.Arity(2, 1));
  AOT_ASSIGN_OR_RETURN(Array x, call.Operand(0, TypeOf<T>(), 2));
  const std::vector<int64_t> batch = BatchOf(x);
  const int m = x.rows(), n = x.cols();
  AOT_ASSIGN_OR_RETURN(Array tau, call.Operand(1, TypeOf<T>(), 1));
  AOT_RETURN_IF_ERROR(ExpectBatch(call, tau, 1, 1, batch));
  const int k = tau.cols();
  if (!(m >= n && n >= k)) {
    return call.Error(
        absl::StrCat("needs m >= n >= k (x ", DimsText(x.dims), ", tau ", DimsText(tau.dims), ")"));
  }
  AOT_ASSIGN_OR_RETURN(Array * out, call.Result(0, TypeOf<T>(), x.dims, 2));
  CopyInto(*out, x);
  for (int64_t b = 0; b < Count(batch); ++b) {
    const int info = lapack::Orgqr<T>(m, n, k, out->at<T>(b), Ld(m), tau.at<T>(b));
    if (info < 0) return call.Error(absl::StrCat("xORGQR refused argument ", -info));
  }
  return call.Finish();
}

template <typename T>
absl::Status Trsm(Call& call) {
  AOT_RETURN_IF_ERROR(call.Arity(2, 1));
  AOT_ASSIGN_OR_RETURN(char side, call.CharAttribute("side", "LR"));
  AOT_ASSIGN_OR_RETURN(char uplo, call.CharAttribute("uplo", "LU"));
  AOT_ASSIGN_OR_RETURN(char trans, call.CharAttribute("trans_x", "NTC"));
  AOT_ASSIGN_OR_RETURN(char diag, call.CharAttribute("diag", "NU"));
  AOT_ASSIGN_OR_RETURN(Array a, call.Operand(0, TypeOf<T>(), 2));
  AOT_ASSIGN_OR_RETURN(Array y, call.Operand(1, TypeOf<T>(), 2));
  const std::vector<int64_t> batch = BatchOf(y);
  const int m = y.rows(), n = y.cols();
  const int k = side == 'L' ? m : n;
  AOT_RETURN_IF_ERROR(ExpectBatch(call, a, 0, 2, batch));
  if (a.rows() != k || a.cols() != k) {
    return call.Error(absl::StrCat("operand 0 must be ", k, " x ", k, " matrices for side '",
                                   std::string(1, side), "' and y ", DimsText(y.dims), ", got ",
                                   DimsText(a.dims)));
  }
  AOT_ASSIGN_OR_RETURN(Array * out, call.Result(0, TypeOf<T>(), y.dims, 2));
  CopyInto(*out, y);
  if (m > 0 && n > 0) {
    for (int64_t b = 0; b < Count(batch); ++b) {
      lapack::Trsm<T>(side, uplo, trans, diag, m, n, T(1), a.at<T>(b), Ld(k), out->at<T>(b), Ld(m));
    }
  }
  return call.Finish();
}

template <typename T>
absl::Status Syevd(Call& call) {
  AOT_RETURN_IF_ERROR(call.Arity(1, 3));
  AOT_ASSIGN_OR_RETURN(char uplo, call.CharAttribute("uplo", "LU"));
  AOT_ASSIGN_OR_RETURN(char mode, call.CharAttribute("mode", "NV"));
  AOT_ASSIGN_OR_RETURN(Array x, call.Operand(0, TypeOf<T>(), 2));
  AOT_RETURN_IF_ERROR(ExpectSquare(call, x));
  const std::vector<int64_t> batch = BatchOf(x);
  const int n = x.rows();
  AOT_ASSIGN_OR_RETURN(Array * out, call.Result(0, TypeOf<T>(), x.dims, 2));
  AOT_ASSIGN_OR_RETURN(Array * w, call.Result(1, TypeOf<Real<T>>(), With(batch, {n}), 1));
  AOT_ASSIGN_OR_RETURN(Array * info, call.Result(2, S32, batch, 0));
  CopyInto(*out, x);
  for (int64_t b = 0; b < Count(batch); ++b) {
    *info->at<int32_t>(b) =
        lapack::Syevd<T>(mode, uplo, n, out->at<T>(b), Ld(n), w->at<Real<T>>(b));
  }
  return call.Finish();
}

template <typename T>
absl::Status Gesdd(Call& call) {
  AOT_RETURN_IF_ERROR(call.Arity(1, 5));
  AOT_ASSIGN_OR_RETURN(char mode, call.CharAttribute("mode", "ASNO"));
  if (mode == 'O') {
    return absl::UnimplementedError(
        absl::StrCat(call.target(), ": mode 'O' (U over x) is not supported, as by JAX's kernel"));
  }
  AOT_ASSIGN_OR_RETURN(Array x, call.Operand(0, TypeOf<T>(), 2));
  const std::vector<int64_t> batch = BatchOf(x);
  const int m = x.rows(), n = x.cols(), mn = std::min(m, n);
  int u_cols = mode == 'A' ? m : mn, vt_rows = mode == 'A' ? n : mn;
  if (mode == 'N') {
    // U and V^H are not computed; JAX passes them in either size.
    const std::vector<int64_t> u = call.ResultDims(2), vt = call.ResultDims(3);
    u_cols = u.size() == x.dims.size() && u.back() == m ? m : mn;
    vt_rows = vt.size() == x.dims.size() && vt[vt.size() - 2] == n ? n : mn;
  }
  AOT_ASSIGN_OR_RETURN(Array * out, call.Result(0, TypeOf<T>(), x.dims, 2));
  AOT_ASSIGN_OR_RETURN(Array * s, call.Result(1, TypeOf<Real<T>>(), With(batch, {mn}), 1));
  AOT_ASSIGN_OR_RETURN(Array * u, call.Result(2, TypeOf<T>(), With(batch, {m, u_cols}), 2));
  AOT_ASSIGN_OR_RETURN(Array * vt, call.Result(3, TypeOf<T>(), With(batch, {vt_rows, n}), 2));
  AOT_ASSIGN_OR_RETURN(Array * info, call.Result(4, S32, batch, 0));
  CopyInto(*out, x);
  for (int64_t b = 0; b < Count(batch); ++b) {
    *info->at<int32_t>(b) = lapack::Gesdd<T>(mode, m, n, out->at<T>(b), Ld(m), s->at<Real<T>>(b),
                                             u->at<T>(b), Ld(m), vt->at<T>(b), Ld(vt_rows));
  }
  return call.Finish();
}

template <typename T>
bool AllFinite(const T* data, int64_t count) {
  for (int64_t i = 0; i < count; ++i) {
    if constexpr (kIsComplex<T>) {
      if (!std::isfinite(data[i].real()) || !std::isfinite(data[i].imag())) return false;
    } else {
      if (!std::isfinite(data[i])) return false;
    }
  }
  return true;
}

// A matrix with a non-finite element is not given to xGEEV (its QR
// iteration need not end); JAX's kernel reports it as info -4.
constexpr int32_t kGeevNonFinite = -4;

template <typename T>
absl::Status Geev(Call& call) {
  using C = std::complex<Real<T>>;
  constexpr bool kReal = !kIsComplex<T>;
  AOT_RETURN_IF_ERROR(call.Arity(1, kReal ? 5 : 4));
  AOT_ASSIGN_OR_RETURN(char jobvl, call.CharAttribute("compute_left", "NV"));
  AOT_ASSIGN_OR_RETURN(char jobvr, call.CharAttribute("compute_right", "NV"));
  AOT_ASSIGN_OR_RETURN(Array x, call.Operand(0, TypeOf<T>(), 2));
  AOT_RETURN_IF_ERROR(ExpectSquare(call, x));
  const std::vector<int64_t> batch = BatchOf(x);
  const int n = x.rows();
  int r = 0;
  AOT_ASSIGN_OR_RETURN(Array * w, call.Result(r++, TypeOf<T>(), With(batch, {n}), 1));
  Array* wi = nullptr;
  if constexpr (kReal) {
    AOT_ASSIGN_OR_RETURN(wi, call.Result(r++, TypeOf<T>(), With(batch, {n}), 1));
  }
  AOT_ASSIGN_OR_RETURN(Array * vl, call.Result(r++, TypeOf<C>(), x.dims, 2));
  AOT_ASSIGN_OR_RETURN(Array * vr, call.Result(r++, TypeOf<C>(), x.dims, 2));
  AOT_ASSIGN_OR_RETURN(Array * info, call.Result(r++, S32, batch, 0));
  const int64_t size = int64_t{n} * n;
  for (int64_t b = 0; b < Count(batch); ++b) {
    T* a = x.at<T>(b);
    if (!AllFinite(a, size)) {
      *info->at<int32_t>(b) = kGeevNonFinite;
      continue;
    }
    if constexpr (kReal) {
      std::vector<T> packed_l(size), packed_r(size);
      const int got = lapack::GeevReal<T>(jobvl, jobvr, n, a, Ld(n), w->at<T>(b), wi->at<T>(b),
                                          packed_l.data(), Ld(n), packed_r.data(), Ld(n));
      *info->at<int32_t>(b) = got;
      if (got == 0) {
        lapack::UnpackRealEigenvectors<T>(n, wi->at<T>(b), packed_l.data(), vl->at<C>(b));
        lapack::UnpackRealEigenvectors<T>(n, wi->at<T>(b), packed_r.data(), vr->at<C>(b));
      }
    } else {
      *info->at<int32_t>(b) = lapack::GeevComplex<T>(jobvl, jobvr, n, a, Ld(n), w->at<T>(b),
                                                     vl->at<T>(b), Ld(n), vr->at<T>(b), Ld(n));
    }
  }
  return call.Finish();
}

template <typename T>
absl::Status Gehrd(Call& call) {
  AOT_RETURN_IF_ERROR(call.Arity(1, 3));
  AOT_ASSIGN_OR_RETURN(int64_t low, call.IntAttribute("low"));
  AOT_ASSIGN_OR_RETURN(int64_t high, call.IntAttribute("high"));
  AOT_ASSIGN_OR_RETURN(Array x, call.Operand(0, TypeOf<T>(), 2));
  AOT_RETURN_IF_ERROR(ExpectSquare(call, x));
  const std::vector<int64_t> batch = BatchOf(x);
  const int n = x.rows();
  if (n > 0 ? !(1 <= low && low <= high && high <= n) : !(low == 1 && high == 0)) {
    return call.Error(
        absl::StrCat("needs 1 <= low <= high <= n (low=1, high=0 when n = 0), got low=", low,
                     ", high=", high, ", n=", n));
  }
  AOT_ASSIGN_OR_RETURN(Array * out, call.Result(0, TypeOf<T>(), x.dims, 2));
  AOT_ASSIGN_OR_RETURN(Array * tau,
                       call.Result(1, TypeOf<T>(), With(batch, {std::max(0, n - 1)}), 1));
  AOT_ASSIGN_OR_RETURN(Array * info, call.Result(2, S32, batch, 0));
  CopyInto(*out, x);
  for (int64_t b = 0; b < Count(batch); ++b) {
    *info->at<int32_t>(b) = lapack::Gehrd<T>(n, static_cast<int>(low), static_cast<int>(high),
                                             out->at<T>(b), Ld(n), tau->at<T>(b));
  }
  return call.Finish();
}

template <typename T>
absl::Status Sytrd(Call& call) {
  AOT_RETURN_IF_ERROR(call.Arity(1, 5));
  AOT_ASSIGN_OR_RETURN(char uplo, call.CharAttribute("uplo", "LU"));
  AOT_ASSIGN_OR_RETURN(Array x, call.Operand(0, TypeOf<T>(), 2));
  AOT_RETURN_IF_ERROR(ExpectSquare(call, x));
  const std::vector<int64_t> batch = BatchOf(x);
  const int n = x.rows();
  const int64_t off = std::max(0, n - 1);
  AOT_ASSIGN_OR_RETURN(Array * out, call.Result(0, TypeOf<T>(), x.dims, 2));
  AOT_ASSIGN_OR_RETURN(Array * d, call.Result(1, TypeOf<Real<T>>(), With(batch, {n}), 1));
  AOT_ASSIGN_OR_RETURN(Array * e, call.Result(2, TypeOf<Real<T>>(), With(batch, {off}), 1));
  AOT_ASSIGN_OR_RETURN(Array * tau, call.Result(3, TypeOf<T>(), With(batch, {off}), 1));
  AOT_ASSIGN_OR_RETURN(Array * info, call.Result(4, S32, batch, 0));
  CopyInto(*out, x);
  for (int64_t b = 0; b < Count(batch); ++b) {
    *info->at<int32_t>(b) = lapack::Sytrd<T>(uplo, n, out->at<T>(b), Ld(n), d->at<Real<T>>(b),
                                             e->at<Real<T>>(b), tau->at<T>(b));
  }
  return call.Finish();
}

template <typename T>
absl::Status Gees(Call& call) {
  constexpr bool kReal = !kIsComplex<T>;
  AOT_RETURN_IF_ERROR(call.Arity(1, kReal ? 6 : 5));
  AOT_ASSIGN_OR_RETURN(char jobvs, call.CharAttribute("mode", "NV"));
  AOT_ASSIGN_OR_RETURN(char sort, call.CharAttribute("sort", "NS"));
  if (sort != 'N') {
    return absl::UnimplementedError(
        absl::StrCat(call.target(),
                     ": sort 'S' (ordering the eigenvalues) is not supported, as by JAX's "
                     "kernel, which has no select function"));
  }
  AOT_ASSIGN_OR_RETURN(Array x, call.Operand(0, TypeOf<T>(), 2));
  AOT_RETURN_IF_ERROR(ExpectSquare(call, x));
  const std::vector<int64_t> batch = BatchOf(x);
  const int n = x.rows();
  int r = 0;
  AOT_ASSIGN_OR_RETURN(Array * out, call.Result(r++, TypeOf<T>(), x.dims, 2));
  AOT_ASSIGN_OR_RETURN(Array * vs, call.Result(r++, TypeOf<T>(), x.dims, 2));
  AOT_ASSIGN_OR_RETURN(Array * w, call.Result(r++, TypeOf<T>(), With(batch, {n}), 1));
  Array* wi = nullptr;
  if constexpr (kReal) {
    AOT_ASSIGN_OR_RETURN(wi, call.Result(r++, TypeOf<T>(), With(batch, {n}), 1));
  }
  AOT_ASSIGN_OR_RETURN(Array * sdim, call.Result(r++, S32, batch, 0));
  AOT_ASSIGN_OR_RETURN(Array * info, call.Result(r++, S32, batch, 0));
  CopyInto(*out, x);
  for (int64_t b = 0; b < Count(batch); ++b) {
    if constexpr (kReal) {
      *info->at<int32_t>(b) =
          lapack::GeesReal<T>(jobvs, n, out->at<T>(b), Ld(n), sdim->at<int32_t>(b), w->at<T>(b),
                              wi->at<T>(b), vs->at<T>(b), Ld(n));
    } else {
      *info->at<int32_t>(b) = lapack::GeesComplex<T>(
          jobvs, n, out->at<T>(b), Ld(n), sdim->at<int32_t>(b), w->at<T>(b), vs->at<T>(b), Ld(n));
    }
  }
  return call.Finish();
}

template <typename T>
absl::Status Gtsv(Call& call) {
  AOT_RETURN_IF_ERROR(call.Arity(4, 5));
  AOT_ASSIGN_OR_RETURN(Array b, call.Operand(3, TypeOf<T>(), 2));
  const std::vector<int64_t> batch = BatchOf(b);
  const int n = b.rows(), nrhs = b.cols();
  std::vector<Array> diagonals;
  for (int i = 0; i < 3; ++i) {
    AOT_ASSIGN_OR_RETURN(Array v, call.Operand(i, TypeOf<T>(), 1));
    AOT_RETURN_IF_ERROR(ExpectBatch(call, v, i, 1, batch));
    if (v.cols() != n) {
      return call.Error(absl::StrCat("operand ", i, " must have n = ", n,
                                     " elements per system (b is ", DimsText(b.dims), "), got ",
                                     DimsText(v.dims)));
    }
    diagonals.push_back(std::move(v));
  }
  std::vector<Array*> outs;
  for (int i = 0; i < 3; ++i) {
    AOT_ASSIGN_OR_RETURN(Array * v, call.Result(i, TypeOf<T>(), diagonals[i].dims, 1));
    CopyInto(*v, diagonals[i]);
    outs.push_back(v);
  }
  AOT_ASSIGN_OR_RETURN(Array * b_out, call.Result(3, TypeOf<T>(), b.dims, 2));
  AOT_ASSIGN_OR_RETURN(Array * info, call.Result(4, S32, batch, 0));
  CopyInto(*b_out, b);
  for (int64_t k = 0; k < Count(batch) && n > 0; ++k) {
    // dl[0] is outside the matrix (JAX's layout of the subdiagonal).
    *info->at<int32_t>(k) = lapack::Gtsv<T>(n, nrhs, outs[0]->at<T>(k) + 1, outs[1]->at<T>(k),
                                            outs[2]->at<T>(k), b_out->at<T>(k), Ld(n));
  }
  return call.Finish();
}

// ---------------------------------------------------------------------------
// Registration.

using Body = absl::Status (*)(Call&);

struct Family {
  const char* real_name;     // after the prefix letter: "potrf"
  const char* complex_name;  // "potrf", "ungqr", ...
  Body s, d, c, z;
};

#define AOT_LAPACK_FAMILY(real, cplx, Fn) \
  Family { real, cplx, Fn<float>, Fn<double>, Fn<std::complex<float>>, Fn<std::complex<double>> }

const std::map<std::string, FfiHandler, std::less<>>& Handlers() {
  static const auto* handlers = [] {
    const Family families[] = {
        AOT_LAPACK_FAMILY("potrf", "potrf", Potrf), AOT_LAPACK_FAMILY("getrf", "getrf", Getrf),
        AOT_LAPACK_FAMILY("geqrf", "geqrf", Geqrf), AOT_LAPACK_FAMILY("orgqr", "ungqr", Orgqr),
        AOT_LAPACK_FAMILY("trsm", "trsm", Trsm),    AOT_LAPACK_FAMILY("syevd", "heevd", Syevd),
        AOT_LAPACK_FAMILY("gesdd", "gesdd", Gesdd), AOT_LAPACK_FAMILY("geev", "geev", Geev),
        AOT_LAPACK_FAMILY("gehrd", "gehrd", Gehrd), AOT_LAPACK_FAMILY("sytrd", "hetrd", Sytrd),
        AOT_LAPACK_FAMILY("gees", "gees", Gees),    AOT_LAPACK_FAMILY("gtsv", "gtsv", Gtsv),
        AOT_LAPACK_FAMILY("geqp3", "geqp3", Geqp3),
    };
    auto* m = new std::map<std::string, FfiHandler, std::less<>>();
    for (const Family& f : families) {
      const std::pair<char, Body> kinds[] = {{'s', f.s}, {'d', f.d}, {'c', f.c}, {'z', f.z}};
      for (const auto& [letter, body] : kinds) {
        const bool complex = letter == 'c' || letter == 'z';
        std::string name = absl::StrCat("lapack_", std::string(1, letter),
                                        complex ? f.complex_name : f.real_name, "_ffi");
        (*m)[name] = [name, body = body](const FfiCallFrame& frame) {
          Call call(name, frame);
          return body(call);
        };
      }
    }
    return m;
  }();
  return *handlers;
}

#undef AOT_LAPACK_FAMILY

}  // namespace

void RegisterLapackFfiHandlers(FfiRegistry& registry) {
  for (const auto& [name, handler] : Handlers()) (void)registry.Register(name, handler);
}

const std::vector<std::string>& LapackFfiTargets() {
  static const auto* names = [] {
    auto* v = new std::vector<std::string>();
    for (const auto& [name, handler] : Handlers()) v->push_back(name);
    return v;
  }();
  return *names;
}

const FfiHandler* FindLapackFfiHandler(absl::string_view target) {
  auto it = Handlers().find(target);
  return it == Handlers().end() ? nullptr : &it->second;
}

}  // namespace aot
