#include "compiler/passes/factorization_expansion.h"

#include <functional>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "compiler/passes/pass_utils.h"
#include "support/status_macros.h"

namespace aot {

namespace {

// Builds ops on batches of matrices: arrays whose two minor dimensions are
// the matrix and whose leading `batch` dimensions are the batch.
class MatrixOps {
 public:
  MatrixOps(InstructionBuilder& b, std::vector<int64_t> batch)
      : b_(b), batch_(std::move(batch)), nb_(static_cast<int64_t>(batch_.size())) {}

  InstructionBuilder& b() { return b_; }
  int64_t nb() const { return nb_; }
  // batch + `tail`.
  std::vector<int64_t> Dims(std::vector<int64_t> tail) const {
    std::vector<int64_t> dims = batch_;
    dims.insert(dims.end(), tail.begin(), tail.end());
    return dims;
  }
  std::vector<int64_t> BatchIndices() const {
    std::vector<int64_t> dims(nb_);
    for (int64_t d = 0; d < nb_; ++d) dims[d] = d;
    return dims;
  }

  // x[..., starts...] of `sizes` (batch dimensions whole), the starts
  // being s32 scalars for the trailing dimensions.
  HloInstruction* Slice(HloInstruction* x, std::vector<HloInstruction*> starts,
                        std::vector<int64_t> sizes) {
    std::vector<HloInstruction*> operands = {x};
    for (int64_t d = 0; d < nb_; ++d) operands.push_back(Zero());
    operands.insert(operands.end(), starts.begin(), starts.end());
    std::vector<int64_t> all = Dims(sizes);
    HloInstruction* s =
        b_.Op(HloOpcode::kDynamicSlice, Shape(x->shape().element_type(), all), operands);
    s->mutable_attrs()->dynamic_slice_sizes = all;
    return s;
  }
  HloInstruction* Update(HloInstruction* x, HloInstruction* update,
                         std::vector<HloInstruction*> starts) {
    std::vector<HloInstruction*> operands = {x, update};
    for (int64_t d = 0; d < nb_; ++d) operands.push_back(Zero());
    operands.insert(operands.end(), starts.begin(), starts.end());
    return b_.Op(HloOpcode::kDynamicUpdateSlice,
                 Shape(x->shape().element_type(), x->shape().dimensions()), operands);
  }
  // Swaps the two minor dimensions.
  HloInstruction* Transpose(HloInstruction* x) {
    std::vector<int64_t> perm = BatchIndices();
    perm.push_back(nb_ + 1);
    perm.push_back(nb_);
    std::vector<int64_t> dims = x->shape().dimensions();
    std::swap(dims[nb_], dims[nb_ + 1]);
    HloInstruction* t = b_.Op(HloOpcode::kTranspose, Shape(x->shape().element_type(), dims), {x});
    t->mutable_attrs()->dimensions = std::move(perm);
    return t;
  }
  // The complex conjugate of x; x itself when it is real.
  HloInstruction* Conj(HloInstruction* x) {
    const PrimitiveType type = x->shape().element_type();
    if (!IsComplex(type)) return x;
    const Shape part(ComplexComponentType(type), x->shape().dimensions());
    HloInstruction* re = b_.Op(HloOpcode::kReal, part, {x});
    HloInstruction* im = b_.Unary(HloOpcode::kNegate, b_.Op(HloOpcode::kImag, part, {x}));
    return b_.Op(HloOpcode::kComplex, Shape(type, x->shape().dimensions()), {re, im});
  }
  // The conjugate transpose (the transpose of a real x).
  HloInstruction* Adjoint(HloInstruction* x) { return Conj(Transpose(x)); }
  HloInstruction* Reverse(HloInstruction* x, std::vector<int64_t> dims) {
    HloInstruction* r = b_.Unary(HloOpcode::kReverse, x);
    r->mutable_attrs()->dimensions = std::move(dims);
    return r;
  }
  // Batched dot contracting lhs dimension `lhs_c` with rhs dimension
  // `rhs_c`: batch + lhs free + rhs free dimensions.
  HloInstruction* Dot(HloInstruction* lhs, HloInstruction* rhs, int64_t lhs_c, int64_t rhs_c) {
    std::vector<int64_t> dims = batch_;
    for (int64_t d = nb_; d < lhs->shape().rank(); ++d) {
      if (d != lhs_c) dims.push_back(lhs->shape().dimensions(d));
    }
    for (int64_t d = nb_; d < rhs->shape().rank(); ++d) {
      if (d != rhs_c) dims.push_back(rhs->shape().dimensions(d));
    }
    HloInstruction* dot =
        b_.Op(HloOpcode::kDot, Shape(lhs->shape().element_type(), dims), {lhs, rhs});
    DotDimensionNumbersProto dnums;
    for (int64_t d = 0; d < nb_; ++d) {
      dnums.add_lhs_batch_dimensions(d);
      dnums.add_rhs_batch_dimensions(d);
    }
    dnums.add_lhs_contracting_dimensions(lhs_c);
    dnums.add_rhs_contracting_dimensions(rhs_c);
    dot->mutable_attrs()->dot_dimension_numbers = dnums;
    return dot;
  }
  // x of batch + [1] (or batch + [1, 1]) broadcast along batch + `tail`.
  HloInstruction* BroadcastScalarPerMatrix(HloInstruction* x, std::vector<int64_t> tail) {
    HloInstruction* per = b_.Reshape(x, batch_);
    return b_.Broadcast(per, Shape(x->shape().element_type(), Dims(tail)), BatchIndices());
  }
  HloInstruction* Iota(std::vector<int64_t> tail, int64_t dimension) {
    HloInstruction* i = b_.Op(HloOpcode::kIota, Shape(S32, Dims(tail)), {});
    i->mutable_attrs()->dimensions = {nb_ + dimension};
    return i;
  }
  HloInstruction* Zero() { return b_.Constant(S32, 0); }

 private:
  InstructionBuilder& b_;
  std::vector<int64_t> batch_;
  int64_t nb_;
};

// The type the factorizations compute in: f32 for f16/bf16. Complex
// matrices are factored as they are (their arithmetic is expanded into
// parts later, by ExpandComplexArithmetic).
PrimitiveType ComputeType(PrimitiveType type) { return type == F16 || type == BF16 ? F32 : type; }

absl::StatusOr<HloInstruction*> ExpandCholesky(HloModule* module, HloInstruction* h,
                                               InstructionBuilder& b) {
  AOT_ASSIGN_OR_RETURN(const bool lower, BoolAttribute(*h, "lower", false));
  const Shape& shape = h->shape();
  const PrimitiveType t = ComputeType(shape.element_type());
  const int64_t rank = shape.rank();
  const int64_t n = shape.dimensions(rank - 1);
  std::vector<int64_t> batch(shape.dimensions().begin(), shape.dimensions().end() - 2);
  MatrixOps m(b, batch);
  HloInstruction* a = b.Convert(h->operand(0), t);
  // Upper: U = L^H for the lower factor L of a^H (a Hermitian).
  if (!lower) a = m.Adjoint(a);
  HloInstruction* zeros = b.Splat(t, 0, m.Dims({n, n}));
  std::vector<HloInstruction*> done = CountedLoop(
      module, b, *h, n, {a, zeros},
      [&](InstructionBuilder& bb, HloInstruction* j, std::vector<HloInstruction*> v) {
        MatrixOps mm(bb, batch);
        HloInstruction* a_in = v[0];
        HloInstruction* l = v[1];
        // Columns j.. of L are still zero: L L[j, :]^H sums over k < j.
        HloInstruction* row =
            mm.Conj(bb.Reshape(mm.Slice(l, {j, mm.Zero()}, {1, n}), mm.Dims({n})));
        HloInstruction* sums = mm.Dot(l, row, mm.nb() + 1, mm.nb());
        HloInstruction* col = bb.Reshape(mm.Slice(a_in, {mm.Zero(), j}, {n, 1}), mm.Dims({n}));
        HloInstruction* d = bb.Binary(HloOpcode::kSubtract, col, sums);
        HloInstruction* diag = bb.Unary(HloOpcode::kSqrt, mm.Slice(d, {j}, {1}));
        HloInstruction* diag_b = mm.BroadcastScalarPerMatrix(diag, {n});
        HloInstruction* scaled = bb.Binary(HloOpcode::kDivide, d, diag_b);
        HloInstruction* idx = mm.Iota({n}, 0);
        HloInstruction* jb = bb.Broadcast(j, Shape(S32, mm.Dims({n})), {});
        HloInstruction* zero = bb.Splat(t, 0, mm.Dims({n}));
        HloInstruction* below =
            bb.Select(bb.Compare(idx, jb, ComparisonDirection::kEq), diag_b, zero);
        HloInstruction* column =
            bb.Select(bb.Compare(idx, jb, ComparisonDirection::kGt), scaled, below);
        HloInstruction* updated = mm.Update(l, bb.Reshape(column, mm.Dims({n, 1})), {mm.Zero(), j});
        return std::vector<HloInstruction*>{a_in, updated};
      });
  HloInstruction* factor = done[1];
  if (!lower) factor = m.Adjoint(factor);
  return b.WithLayoutOf(b.Convert(factor, shape.element_type()), shape);
}

absl::StatusOr<HloInstruction*> ExpandTriangularSolve(HloModule* module, HloInstruction* h,
                                                      InstructionBuilder& b) {
  AOT_ASSIGN_OR_RETURN(const TriangularSolveAttributes attributes,
                       ReadTriangularSolveAttributes(*h));
  const bool left_side = attributes.left_side;
  const bool lower = attributes.lower;
  const bool unit_diagonal = attributes.unit_diagonal;
  const std::string& transpose_a = attributes.transpose_a;
  const Shape& shape = h->shape();
  const PrimitiveType t = ComputeType(shape.element_type());
  const int64_t rank = shape.rank();
  const int64_t n = h->operand(0)->shape().dimensions(rank - 1);
  std::vector<int64_t> batch(shape.dimensions().begin(), shape.dimensions().end() - 2);
  MatrixOps m(b, batch);
  const int64_t nb = m.nb();
  // M = op(the given triangle of a), unit diagonal if asked.
  HloInstruction* a = b.Convert(h->operand(0), t);
  HloInstruction* rows = m.Iota({n, n}, 0);
  HloInstruction* cols = m.Iota({n, n}, 1);
  HloInstruction* keep =
      b.Compare(cols, rows, lower ? ComparisonDirection::kLe : ComparisonDirection::kGe);
  HloInstruction* tri = b.Select(keep, a, b.Splat(t, 0, m.Dims({n, n})));
  if (unit_diagonal) {
    tri = b.Select(b.Compare(cols, rows, ComparisonDirection::kEq), b.Splat(t, 1, m.Dims({n, n})),
                   tri);
  }
  bool m_lower = lower;
  if (transpose_a != "NO_TRANSPOSE") {  // ADJOINT is TRANSPOSE for real a
    tri = transpose_a == "ADJOINT" ? m.Adjoint(tri) : m.Transpose(tri);
    m_lower = !m_lower;
  }
  // A right-side solve x M = b is M^T x^T = b^T.
  HloInstruction* rhs = b.Convert(h->operand(1), t);
  if (!left_side) {
    tri = m.Transpose(tri);
    rhs = m.Transpose(rhs);
    m_lower = !m_lower;
  }
  // An upper M is lower once its rows and columns are reversed (and b's
  // rows with them): P M P (P x) = P b.
  if (!m_lower) {
    tri = m.Reverse(tri, {nb, nb + 1});
    rhs = m.Reverse(rhs, {nb});
  }
  const int64_t k = rhs->shape().dimensions(rank - 1);
  HloInstruction* zeros = b.Splat(t, 0, m.Dims({n, k}));
  std::vector<HloInstruction*> done = CountedLoop(
      module, b, *h, n, {tri, rhs, zeros},
      [&](InstructionBuilder& bb, HloInstruction* i, std::vector<HloInstruction*> v) {
        MatrixOps mm(bb, batch);
        HloInstruction* lm = v[0];
        HloInstruction* rb = v[1];
        HloInstruction* x = v[2];
        // Rows i.. of x are still zero: M[i, :] x sums over k < i.
        HloInstruction* mrow = bb.Reshape(mm.Slice(lm, {i, mm.Zero()}, {1, n}), mm.Dims({n}));
        HloInstruction* sums = mm.Dot(mrow, x, mm.nb(), mm.nb());
        HloInstruction* brow = bb.Reshape(mm.Slice(rb, {i, mm.Zero()}, {1, k}), mm.Dims({k}));
        HloInstruction* diag = mm.BroadcastScalarPerMatrix(mm.Slice(mrow, {i}, {1}), {k});
        HloInstruction* xrow =
            bb.Binary(HloOpcode::kDivide, bb.Binary(HloOpcode::kSubtract, brow, sums), diag);
        HloInstruction* updated = mm.Update(x, bb.Reshape(xrow, mm.Dims({1, k})), {i, mm.Zero()});
        return std::vector<HloInstruction*>{lm, rb, updated};
      });
  HloInstruction* x = done[2];
  if (!m_lower) x = m.Reverse(x, {nb});
  if (!left_side) x = m.Transpose(x);
  return b.WithLayoutOf(b.Convert(x, shape.element_type()), shape);
}

}  // namespace

absl::StatusOr<bool> ExpandFactorizations(HloModule* module) {
  auto expand = [module](HloComputation* c) -> absl::StatusOr<bool> {
    NameUniquer names = NameUniquer::ForInstructions(*c);
    bool changed = false;
    for (HloInstruction* h : c->instructions()) {
      if (h->opcode() != HloOpcode::kCholesky && h->opcode() != HloOpcode::kTriangularSolve) {
        continue;
      }
      const PrimitiveType type = h->shape().IsArray() ? h->shape().element_type() : TUPLE;
      if ((!IsFloatingPoint(type) || IsNarrowFloat(type)) && !IsComplex(type)) {
        return absl::UnimplementedError(
            absl::StrCat(DescribeInstruction(*h), " on ", h->shape().ToString(false),
                         ": this compiler computes it for f16, bf16, f32, f64, c64 and c128 only"));
      }
      InstructionBuilder b(c, &names, *h);
      absl::StatusOr<HloInstruction*> replacement = h->opcode() == HloOpcode::kCholesky
                                                        ? ExpandCholesky(module, h, b)
                                                        : ExpandTriangularSolve(module, h, b);
      AOT_RETURN_IF_ERROR(replacement);
      h->ReplaceAllUsesWith(*replacement);
      changed = true;
    }
    return changed;
  };
  return RewriteUnfusedComputations(module, AfterRewrite::kRemoveDeadAndReorder, expand);
}

}  // namespace aot
