#include "compiler/hlo/dynamic_dimensions.h"

#include <algorithm>
#include <string>
#include <utility>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "support/status_macros.h"

namespace aot {
namespace {

bool AnyDynamic(const DynamicDims& dims) {
  return std::find(dims.begin(), dims.end(), true) != dims.end();
}

bool IsDynamic(absl::Span<const DynamicDims> operand_dims, int64_t operand, int64_t dim) {
  if (operand < 0 || operand >= static_cast<int64_t>(operand_dims.size())) return false;
  const DynamicDims& d = operand_dims[operand];
  return dim >= 0 && dim < static_cast<int64_t>(d.size()) && d[dim];
}

absl::Status NotSupported(const HloInstruction& instr, int64_t operand, int64_t dim,
                          absl::string_view why) {
  const HloInstruction* op = instr.operand(operand);
  return absl::UnimplementedError(absl::StrCat(DescribeInstruction(instr), ": operand ", operand,
                                               " ('", op == nullptr ? "?" : op->name(),
                                               "') has dynamic dimension ", dim,
                                               " (sized at run time by set-dimension-size or "
                                               "dynamic-reshape); ",
                                               why));
}

absl::Status OpNotSupported(const HloInstruction& instr, absl::Span<const DynamicDims> dims) {
  for (int64_t o = 0; o < static_cast<int64_t>(dims.size()); ++o) {
    for (int64_t d = 0; d < static_cast<int64_t>(dims[o].size()); ++d) {
      if (dims[o][d]) {
        return NotSupported(
            instr, o, d,
            absl::StrCat(HloOpcodeString(instr.opcode()),
                         " on a dynamic dimension is not supported: dynamic sizes flow through "
                         "elementwise ops, broadcast, transpose, reshape and dynamic-reshape, "
                         "and through slice, pad, reverse, concatenate, dynamic-slice, "
                         "dynamic-update-slice, sort and reduce-window along other dimensions, "
                         "and end in reduce, dot or get-dimension-size"));
      }
    }
  }
  return absl::InternalError(absl::StrCat(DescribeInstruction(instr), ": no dynamic operand"));
}

DynamicPlan StaticPlan(const Shape& shape) {
  DynamicPlan plan;
  if (shape.IsArray()) plan.result.resize(shape.rank());
  return plan;
}

DynamicSize FromDimension(int64_t operand, int64_t dim, int64_t multiplier = 1) {
  DynamicSize s;
  s.kind = DynamicSize::kDimension;
  s.operand = operand;
  s.dimension = dim;
  s.multiplier = multiplier;
  return s;
}

DynamicSize FromValue(int64_t operand) {
  DynamicSize s;
  s.kind = DynamicSize::kValue;
  s.operand = operand;
  return s;
}

// The groups of a reshape: runs of input and output dimensions with equal
// element products, as short as possible.
struct ReshapeGroup {
  int64_t in_begin, in_end, out_begin, out_end;
};

std::vector<ReshapeGroup> ReshapeGroups(const std::vector<int64_t>& in,
                                        const std::vector<int64_t>& out) {
  std::vector<ReshapeGroup> groups;
  const int64_t n = static_cast<int64_t>(in.size());
  const int64_t m = static_cast<int64_t>(out.size());
  int64_t i = 0, j = 0;
  while (i < n || j < m) {
    ReshapeGroup g{i, i, j, j};
    int64_t pi = 1, pj = 1;
    if (i < n) pi *= in[i++];
    if (j < m) pj *= out[j++];
    while (pi != pj) {
      if (pi < pj && i < n) {
        pi *= in[i++];
      } else if (pj < pi && j < m) {
        pj *= out[j++];
      } else {
        i = n;  // unequal to the end (zero-sized dimensions): one last group
        j = m;
        break;
      }
    }
    // Trailing size-1 dimensions join the group they follow.
    g.in_end = i;
    g.out_end = j;
    groups.push_back(g);
  }
  return groups;
}

absl::StatusOr<DynamicPlan> PlanReshape(const HloInstruction& instr,
                                        absl::Span<const DynamicDims> dims) {
  const std::vector<int64_t>& in = instr.operand(0)->shape().dimensions();
  const std::vector<int64_t>& out = instr.shape().dimensions();
  DynamicPlan plan = StaticPlan(instr.shape());
  for (const ReshapeGroup& g : ReshapeGroups(in, out)) {
    int64_t dynamic = -1;
    for (int64_t d = g.in_begin; d < g.in_end; ++d) {
      if (!IsDynamic(dims, 0, d)) continue;
      if (dynamic >= 0) {
        return NotSupported(instr, 0, d,
                            absl::StrCat("the reshape merges it with dynamic dimension ", dynamic,
                                         ", which is not supported"));
      }
      dynamic = d;
    }
    if (dynamic < 0) continue;
    for (int64_t d = g.in_begin; d < dynamic; ++d) {
      if (in[d] != 1) {
        return NotSupported(instr, 0, dynamic,
                            absl::StrCat("the reshape merges it under the more major dimension ", d,
                                         ", so its valid elements are not a prefix of the "
                                         "result; use dynamic-reshape"));
      }
    }
    int64_t r = g.out_begin;
    while (r + 1 < g.out_end && out[r] == 1) ++r;
    int64_t in_after = 1, out_after = 1;
    for (int64_t d = dynamic + 1; d < g.in_end; ++d) in_after *= in[d];
    for (int64_t d = r + 1; d < g.out_end; ++d) out_after *= out[d];
    if (r >= g.out_end || out_after == 0 || in_after % out_after != 0) {
      return NotSupported(instr, 0, dynamic,
                          "the reshape splits it across result dimensions, which is not "
                          "supported; use dynamic-reshape");
    }
    plan.result[r] = FromDimension(0, dynamic, in_after / out_after);
  }
  return plan;
}

absl::StatusOr<DynamicPlan> PlanReduce(const HloInstruction& instr,
                                       absl::Span<const DynamicDims> dims) {
  const int64_t inputs = instr.operand_count() / 2;
  const std::vector<int64_t>& reduced = instr.attrs().dimensions;
  const int64_t rank = instr.operand(0)->shape().rank();
  DynamicPlan plan = StaticPlan(instr.shape());
  for (int64_t d = 0; d < rank; ++d) {
    int64_t source = -1;
    for (int64_t i = 0; i < inputs && source < 0; ++i) {
      if (IsDynamic(dims, i, d)) source = i;
    }
    if (source < 0) continue;
    if (std::find(reduced.begin(), reduced.end(), d) != reduced.end()) {
      // Every input's padding becomes its init value, so the reducer never
      // pairs a valid element with padding of another input.
      for (int64_t i = 0; i < inputs; ++i) {
        plan.masks.push_back({i, d, inputs + i, source, d});
      }
      continue;
    }
    if (!instr.shape().IsArray()) {
      return NotSupported(instr, source, d,
                          "a variadic reduce that keeps a dynamic dimension is not supported "
                          "(its tuple result would carry the size)");
    }
    int64_t r = 0;
    for (int64_t k = 0; k < d; ++k) {
      if (std::find(reduced.begin(), reduced.end(), k) == reduced.end()) ++r;
    }
    plan.result[r] = FromDimension(source, d);
  }
  return plan;
}

absl::StatusOr<DynamicPlan> PlanDot(const HloInstruction& instr,
                                    absl::Span<const DynamicDims> dims) {
  if (!instr.attrs().dot_dimension_numbers.has_value()) {
    return absl::InvalidArgumentError(
        absl::StrCat(DescribeInstruction(instr), ": no dimension numbers"));
  }
  const DotDimensionNumbersProto& dn = *instr.attrs().dot_dimension_numbers;
  DynamicPlan plan = StaticPlan(instr.shape());
  for (int i = 0; i < dn.lhs_contracting_dimensions_size(); ++i) {
    const int64_t l = dn.lhs_contracting_dimensions(i);
    const int64_t r = dn.rhs_contracting_dimensions(i);
    const bool ld = IsDynamic(dims, 0, l), rd = IsDynamic(dims, 1, r);
    if (!ld && !rd) continue;
    // Both sides' padding becomes zero, so a product of a valid element and
    // padding (even inf or NaN) never reaches the sum.
    const int64_t source = ld ? 0 : 1;
    const int64_t source_dim = ld ? l : r;
    plan.masks.push_back({0, l, -1, source, source_dim});
    plan.masks.push_back({1, r, -1, source, source_dim});
  }
  int64_t out = 0;
  for (int i = 0; i < dn.lhs_batch_dimensions_size(); ++i, ++out) {
    const int64_t l = dn.lhs_batch_dimensions(i);
    const int64_t r = dn.rhs_batch_dimensions(i);
    if (IsDynamic(dims, 0, l)) {
      plan.result[out] = FromDimension(0, l);
    } else if (IsDynamic(dims, 1, r)) {
      plan.result[out] = FromDimension(1, r);
    }
  }
  for (int64_t side = 0; side < 2; ++side) {
    const auto& batch = side == 0 ? dn.lhs_batch_dimensions() : dn.rhs_batch_dimensions();
    const auto& contracting =
        side == 0 ? dn.lhs_contracting_dimensions() : dn.rhs_contracting_dimensions();
    for (int64_t d = 0; d < instr.operand(side)->shape().rank(); ++d) {
      if (std::find(batch.begin(), batch.end(), d) != batch.end() ||
          std::find(contracting.begin(), contracting.end(), d) != contracting.end()) {
        continue;
      }
      if (IsDynamic(dims, side, d)) plan.result[out] = FromDimension(side, d);
      ++out;
    }
  }
  return plan;
}

// Ops that move or combine elements along some dimensions and leave the
// others as they are: a dynamic dimension among the others keeps its size
// (ChangesDimension says which dimensions an instruction touches).
bool KeepsOtherDimensions(HloOpcode opcode) {
  switch (opcode) {
    case HloOpcode::kSlice:
    case HloOpcode::kPad:
    case HloOpcode::kReverse:
    case HloOpcode::kConcatenate:
    case HloOpcode::kDynamicSlice:
    case HloOpcode::kDynamicUpdateSlice:
    case HloOpcode::kSort:
    case HloOpcode::kReduceWindow:
      return true;
    default:
      return false;
  }
}

// Why `instr` changes dimension `d` of operand `o` (which is dynamic there),
// or "" when the dimension passes through unchanged, its size with it.
std::string ChangesDimension(const HloInstruction& instr, absl::Span<const DynamicDims> dims,
                             int64_t o, int64_t d) {
  const HloAttributes& at = instr.attrs();
  const int64_t bound = instr.operand(o)->shape().dimensions(d);
  auto listed = [&](const std::vector<int64_t>& list) {
    return std::find(list.begin(), list.end(), d) != list.end();
  };
  switch (instr.opcode()) {
    case HloOpcode::kSlice: {
      const SliceSpec& sl = at.slice[d];
      return sl.start == 0 && sl.limit == bound && sl.stride == 1 ? "" : "the slice cuts it";
    }
    case HloOpcode::kPad: {
      const auto& pd = at.padding_config->dimensions(static_cast<int>(d));
      return pd.edge_padding_low() == 0 && pd.edge_padding_high() == 0 && pd.interior_padding() == 0
                 ? ""
                 : "the pad extends it";
    }
    case HloOpcode::kReverse:
      return listed(at.dimensions) ? "the reverse moves its padding to the front" : "";
    case HloOpcode::kConcatenate:
      return listed(at.dimensions) ? "the concatenation joins the operands along it" : "";
    case HloOpcode::kDynamicSlice:
      return at.dynamic_slice_sizes[d] == bound ? "" : "the dynamic-slice cuts it";
    case HloOpcode::kDynamicUpdateSlice:
      if (instr.operand(1)->shape().dimensions(d) != instr.operand(0)->shape().dimensions(d)) {
        return "the update covers part of it";
      }
      return o == 1 && !IsDynamic(dims, 0, d)
                 ? "the update's padding would land on the operand's valid elements"
                 : "";
    case HloOpcode::kSort:
      return listed(at.dimensions) ? "the sort orders along it" : "";
    case HloOpcode::kReduceWindow: {
      const WindowDimensionProto& w = at.window->dimensions(static_cast<int>(d));
      return w.size() == 1 && w.stride() == 1 && w.padding_low() == 0 && w.padding_high() == 0 &&
                     w.window_dilation() <= 1 && w.base_dilation() <= 1 && !w.window_reversal()
                 ? ""
                 : "the window spans it";
    }
    default:
      return "unreachable";
  }
}

// Ops that move or combine elements along other dimensions: a dynamic
// dimension they leave alone keeps its size.
absl::StatusOr<DynamicPlan> PlanKeeping(const HloInstruction& instr,
                                        absl::Span<const DynamicDims> dims) {
  DynamicPlan plan = StaticPlan(instr.shape());
  for (int64_t o = 0; o < static_cast<int64_t>(dims.size()); ++o) {
    for (int64_t d = 0; d < static_cast<int64_t>(dims[o].size()); ++d) {
      if (!dims[o][d]) continue;
      const std::string why = ChangesDimension(instr, dims, o, d);
      if (!why.empty()) {
        return NotSupported(instr, o, d,
                            absl::StrCat(why, ", which is not supported on a dynamic dimension"));
      }
      if (!instr.shape().IsArray()) {
        return NotSupported(instr, o, d,
                            "a tuple result would carry the size, which is not supported");
      }
      if (plan.result[d].kind == DynamicSize::kStatic) plan.result[d] = FromDimension(o, d);
    }
  }
  return plan;
}

// Every entry of `list` (a vector or a repeated proto field) is in [0, rank).
template <typename List>
bool InRange(const List& list, int64_t rank) {
  return std::all_of(list.begin(), list.end(), [&](int64_t d) { return d >= 0 && d < rank; });
}

// The attributes and operands the plan reads, checked: the interpreter
// meets modules no verifier has seen (the compiler verifies first), and a
// malformed one is an error, never an out-of-range read.
absl::Status CheckPlannable(const HloInstruction& instr, absl::Span<const DynamicDims> dims) {
  auto bad = [&](absl::string_view what) {
    return absl::InvalidArgumentError(absl::StrCat(DescribeInstruction(instr), ": ", what));
  };
  const Shape& shape = instr.shape();
  const int64_t n = instr.operand_count();
  if (static_cast<int64_t>(dims.size()) != n) return bad("one dynamic-dimension list per operand");
  bool any = false;
  for (int64_t o = 0; o < n; ++o) {
    const HloInstruction* op = instr.operand(o);
    if (op == nullptr) return bad(absl::StrCat("operand ", o, " is missing"));
    if (dims[o].empty()) continue;
    if (!op->shape().IsArray() || static_cast<int64_t>(dims[o].size()) != op->shape().rank()) {
      return bad(absl::StrCat("operand ", o, "'s dynamic dimensions do not match its shape"));
    }
    any = true;
  }
  auto rank_of = [&](int64_t o) {
    return o < n && instr.operand(o)->shape().IsArray() ? instr.operand(o)->shape().rank() : -1;
  };
  auto scalars_from = [&](int64_t first) {
    for (int64_t o = first; o < n; ++o) {
      if (rank_of(o) != 0) return false;
    }
    return true;
  };
  const HloAttributes& at = instr.attrs();
  switch (instr.opcode()) {
    case HloOpcode::kSetDimensionSize:
      if (n != 2 || !shape.IsArray() || rank_of(0) != shape.rank() || !scalars_from(1) ||
          at.dimensions.size() != 1 || !InRange(at.dimensions, shape.rank())) {
        return bad("needs an array, an s32[] size and one dimension of the array");
      }
      return absl::OkStatus();
    case HloOpcode::kDynamicReshape:
      if (!shape.IsArray() || n != shape.rank() + 1 || rank_of(0) < 0 || !scalars_from(1)) {
        return bad("needs an array and one s32[] size per result dimension");
      }
      return absl::OkStatus();
    case HloOpcode::kGetDimensionSize:
      if (n != 1 || at.dimensions.size() != 1 || !InRange(at.dimensions, rank_of(0))) {
        return bad("needs an array and one of its dimensions");
      }
      return absl::OkStatus();
    default:
      break;
  }
  if (!any) return absl::OkStatus();
  const int64_t rank = shape.IsArray() ? shape.rank() : -1;
  switch (instr.opcode()) {
    case HloOpcode::kBroadcast:
      if (static_cast<int64_t>(at.dimensions.size()) != rank_of(0) ||
          !InRange(at.dimensions, rank)) {
        return bad("broadcast dimensions do not match the operand and result");
      }
      break;
    case HloOpcode::kTranspose:
      if (static_cast<int64_t>(at.dimensions.size()) != rank || rank_of(0) != rank ||
          !InRange(at.dimensions, rank)) {
        return bad("the permutation does not match the operand and result");
      }
      break;
    case HloOpcode::kReshape:
      if (rank < 0 || rank_of(0) < 0) return bad("reshape needs arrays");
      break;
    case HloOpcode::kReduce: {
      const int64_t r0 = rank_of(0);
      if (n < 2 || n % 2 != 0 || r0 < 0 || !InRange(at.dimensions, r0)) {
        return bad("needs inputs, init values and dimensions of the inputs");
      }
      for (int64_t o = 1; o < n / 2; ++o) {
        if (rank_of(o) != r0) return bad("the inputs' ranks differ");
      }
      int64_t kept = 0;
      for (int64_t d = 0; d < r0; ++d) {
        kept += std::find(at.dimensions.begin(), at.dimensions.end(), d) == at.dimensions.end();
      }
      if (shape.IsArray() && rank != kept) return bad("the result's rank is not the kept rank");
      break;
    }
    case HloOpcode::kDot: {
      if (!at.dot_dimension_numbers.has_value() || n != 2) return bad("needs dimension numbers");
      const DotDimensionNumbersProto& dn = *at.dot_dimension_numbers;
      const int64_t l = rank_of(0), r = rank_of(1);
      if (dn.lhs_contracting_dimensions_size() != dn.rhs_contracting_dimensions_size() ||
          dn.lhs_batch_dimensions_size() != dn.rhs_batch_dimensions_size() ||
          !InRange(dn.lhs_contracting_dimensions(), l) ||
          !InRange(dn.rhs_contracting_dimensions(), r) || !InRange(dn.lhs_batch_dimensions(), l) ||
          !InRange(dn.rhs_batch_dimensions(), r) ||
          rank !=
              l + r - dn.lhs_batch_dimensions_size() - 2 * dn.lhs_contracting_dimensions_size()) {
        return bad("the dimension numbers do not match the operands and result");
      }
      break;
    }
    default:
      break;
  }
  if (KeepsOtherDimensions(instr.opcode())) {
    for (int64_t o = 0; o < n; ++o) {
      if (!dims[o].empty() && shape.IsArray() && rank_of(o) != rank) {
        return bad("the result's rank differs from the operand's");
      }
    }
    const int64_t r0 = rank_of(0);
    const bool ok =
        (instr.opcode() != HloOpcode::kSlice || static_cast<int64_t>(at.slice.size()) == r0) &&
        (instr.opcode() != HloOpcode::kPad ||
         (at.padding_config.has_value() && at.padding_config->dimensions_size() == r0)) &&
        (instr.opcode() != HloOpcode::kReduceWindow ||
         (at.window.has_value() && at.window->dimensions_size() == r0)) &&
        (instr.opcode() != HloOpcode::kDynamicSlice ||
         static_cast<int64_t>(at.dynamic_slice_sizes.size()) == r0) &&
        (instr.opcode() != HloOpcode::kDynamicUpdateSlice || rank_of(1) == r0);
    if (!ok) return bad("its attributes do not match the operand's rank");
  }
  return absl::OkStatus();
}

}  // namespace

bool DynamicPlan::IsDynamic() const {
  return std::any_of(result.begin(), result.end(),
                     [](const DynamicSize& s) { return s.kind != DynamicSize::kStatic; });
}

bool MakesDynamicDimensions(HloOpcode opcode) {
  return opcode == HloOpcode::kSetDimensionSize || opcode == HloOpcode::kDynamicReshape;
}

bool TouchesDynamicDimensions(const HloInstruction& instr,
                              absl::Span<const DynamicDims> operand_dims) {
  return MakesDynamicDimensions(instr.opcode()) ||
         std::any_of(operand_dims.begin(), operand_dims.end(), AnyDynamic);
}

absl::StatusOr<DynamicPlan> PlanDynamicDimensions(const HloInstruction& instr,
                                                  absl::Span<const DynamicDims> dims) {
  AOT_RETURN_IF_ERROR(CheckPlannable(instr, dims));
  const Shape& shape = instr.shape();
  const HloOpcode opcode = instr.opcode();
  if (opcode == HloOpcode::kSetDimensionSize) {
    DynamicPlan plan = StaticPlan(shape);
    for (int64_t d = 0; d < shape.rank(); ++d) {
      if (IsDynamic(dims, 0, d)) plan.result[d] = FromDimension(0, d);
    }
    plan.result[instr.attrs().dimensions[0]] = FromValue(1);
    return plan;
  }
  if (opcode == HloOpcode::kDynamicReshape) {
    DynamicPlan plan = StaticPlan(shape);
    for (int64_t d = 0; d < shape.rank(); ++d) {
      const HloInstruction* size = instr.operand(d + 1);
      const bool bound = size->opcode() == HloOpcode::kConstant &&
                         size->attrs().literal.has_value() &&
                         size->literal().GetAsInt64(0) == shape.dimensions(d);
      if (!bound) plan.result[d] = FromValue(d + 1);
    }
    return plan;
  }
  if (opcode == HloOpcode::kGetDimensionSize) return StaticPlan(shape);
  if (IsElementwise(opcode) || opcode == HloOpcode::kReal || opcode == HloOpcode::kImag ||
      opcode == HloOpcode::kComplex) {
    DynamicPlan plan = StaticPlan(shape);
    for (int64_t d = 0; d < shape.rank(); ++d) {
      for (int64_t o = 0; o < instr.operand_count(); ++o) {
        if (instr.operand(o)->shape().rank() == shape.rank() && IsDynamic(dims, o, d)) {
          plan.result[d] = FromDimension(o, d);
          break;
        }
      }
    }
    return plan;
  }
  switch (opcode) {
    case HloOpcode::kBroadcast: {
      DynamicPlan plan = StaticPlan(shape);
      const std::vector<int64_t>& to = instr.attrs().dimensions;
      for (int64_t d = 0; d < static_cast<int64_t>(to.size()); ++d) {
        if (IsDynamic(dims, 0, d)) plan.result[to[d]] = FromDimension(0, d);
      }
      return plan;
    }
    case HloOpcode::kTranspose: {
      DynamicPlan plan = StaticPlan(shape);
      const std::vector<int64_t>& perm = instr.attrs().dimensions;
      for (int64_t d = 0; d < static_cast<int64_t>(perm.size()); ++d) {
        if (IsDynamic(dims, 0, perm[d])) plan.result[d] = FromDimension(0, perm[d]);
      }
      return plan;
    }
    case HloOpcode::kReshape:
      return PlanReshape(instr, dims);
    case HloOpcode::kReduce:
      return PlanReduce(instr, dims);
    case HloOpcode::kDot:
      return PlanDot(instr, dims);
    default:
      if (KeepsOtherDimensions(opcode)) return PlanKeeping(instr, dims);
      return OpNotSupported(instr, dims);
  }
}

DynamicDims ResultDynamicDims(const DynamicPlan& plan) {
  if (!plan.IsDynamic()) return {};
  DynamicDims dims;
  for (const DynamicSize& s : plan.result) dims.push_back(s.kind != DynamicSize::kStatic);
  return dims;
}

absl::Status DynamicRootError(const HloInstruction& instr, absl::string_view computation_name,
                              const DynamicDims& dims) {
  std::vector<int64_t> dynamic;
  for (int64_t d = 0; d < static_cast<int64_t>(dims.size()); ++d) {
    if (dims[d]) dynamic.push_back(d);
  }
  return absl::UnimplementedError(absl::StrCat(
      DescribeInstruction(instr), ", the root of computation '", computation_name,
      "', has dynamic dimension(s) {", absl::StrJoin(dynamic, ","),
      "}: a computation's result must have static sizes here (the runtime returns no "
      "dimension sizes); reduce the dimension, contract it in a dot, or read its size with "
      "get-dimension-size"));
}

}  // namespace aot
