// Collective kernels: what one participant computes from the operands every
// member of its group brought (the exchange itself is the evaluator's).

#include <cstring>
#include <memory>
#include <optional>
#include <vector>

#include "absl/strings/str_cat.h"
#include "compiler/interpreter/evaluator_internal.h"
#include "support/status_macros.h"

namespace aot {
namespace interpreter_internal {

namespace {

using Members = absl::Span<const std::vector<Literal>* const>;

// Every member brought as many operands as this participant, each of the
// same shape.
absl::Status CheckMembers(Members members, int64_t rank) {
  const std::vector<Literal>& mine = *members[rank];
  for (size_t k = 0; k < members.size(); ++k) {
    const std::vector<Literal>& theirs = *members[k];
    if (theirs.size() != mine.size()) {
      return absl::InvalidArgumentError(absl::StrCat("member ", k, " of the group brought ",
                                                     theirs.size(), " operand(s), this one ",
                                                     mine.size()));
    }
    for (size_t i = 0; i < mine.size(); ++i) {
      AOT_RETURN_IF_ERROR(ExpectArray(theirs[i], absl::StrCat("operand ", i)));
      if (!theirs[i].shape().Compatible(mine[i].shape())) {
        return absl::InvalidArgumentError(
            absl::StrCat("member ", k, " of the group brought ", theirs[i].shape().ToString(false),
                         " for operand ", i, ", this one ", mine[i].shape().ToString(false)));
      }
    }
  }
  return absl::OkStatus();
}

Literal Wrap(std::vector<Literal> results, bool tuple) {
  if (!tuple && results.size() == 1) return std::move(results[0]);
  return Literal::Tuple(std::move(results));
}

// A literal of `type` and `dims` (no layout).
Literal Make(PrimitiveType type, std::vector<int64_t> dims) {
  return Literal(Shape(type, std::move(dims)));
}

// Row-major geometry around dimension d: `outer` rows of `extent` slices of
// `inner_bytes` each.
struct Split {
  int64_t outer = 1;
  int64_t extent = 0;
  int64_t inner_bytes = 0;
};

Split SplitAt(const Shape& shape, int64_t d) {
  Split s;
  for (int64_t i = 0; i < d; ++i) s.outer *= shape.dimensions(i);
  s.extent = shape.dimensions(d);
  int64_t inner = 1;
  for (int64_t i = d + 1; i < shape.rank(); ++i) inner *= shape.dimensions(i);
  s.inner_bytes = inner * ByteWidth(shape.element_type());
  return s;
}

// Concatenation of same-shaped parts along d.
Literal Concatenate(const std::vector<const Literal*>& parts, int64_t d) {
  const Shape& shape = parts[0]->shape();
  const Split s = SplitAt(shape, d);
  std::vector<int64_t> dims = shape.dimensions();
  dims[d] *= static_cast<int64_t>(parts.size());
  Literal out = Make(shape.element_type(), dims);
  const int64_t part_row = s.extent * s.inner_bytes;
  uint8_t* dst = out.raw_data();
  for (int64_t o = 0; o < s.outer; ++o) {
    for (const Literal* part : parts) {
      if (part_row > 0) std::memcpy(dst, part->raw().data() + o * part_row, part_row);
      dst += part_row;
    }
  }
  return out;
}

// Block `block` of `blocks` equal blocks of x along d.
Literal Block(const Literal& x, int64_t d, int64_t block, int64_t blocks) {
  const Split s = SplitAt(x.shape(), d);
  const int64_t size = s.extent / blocks;
  std::vector<int64_t> dims = x.shape().dimensions();
  dims[d] = size;
  Literal out = Make(x.shape().element_type(), dims);
  const int64_t row = s.extent * s.inner_bytes;
  const int64_t block_bytes = size * s.inner_bytes;
  for (int64_t o = 0; o < s.outer; ++o) {
    if (block_bytes > 0) {
      std::memcpy(out.raw_data() + o * block_bytes, x.raw().data() + o * row + block * block_bytes,
                  block_bytes);
    }
  }
  return out;
}

absl::StatusOr<int64_t> Dimension(const HloInstruction& instr, const Literal& operand) {
  if (instr.dimensions().size() != 1) {
    return absl::InvalidArgumentError(
        absl::StrCat("needs exactly one dimension; got ", SpanToString(instr.dimensions())));
  }
  const int64_t d = instr.dimensions()[0];
  if (d < 0 || d >= operand.shape().rank()) {
    return absl::InvalidArgumentError(
        absl::StrCat("dimension ", d, " is out of range for ", operand.shape().ToString(false)));
  }
  return d;
}

absl::Status ExpectDivisible(const Literal& operand, int64_t d, int64_t group_size) {
  if (operand.shape().dimensions(d) % group_size != 0) {
    return absl::InvalidArgumentError(
        absl::StrCat("dimension ", d, " of ", operand.shape().ToString(false),
                     " is not a multiple of the group size ", group_size));
  }
  return absl::OkStatus();
}

// Each operand folded over the members in group order with to_apply.
absl::StatusOr<std::vector<Literal>> AllReduce(const HloInstruction& instr, Members members,
                                               int64_t rank, ComputationCaller& caller) {
  const HloComputation* to_apply = instr.to_apply();
  if (to_apply == nullptr) return absl::InvalidArgumentError("missing to_apply");
  const std::vector<Literal>& mine = *members[rank];
  std::vector<Literal> results;
  for (size_t i = 0; i < mine.size(); ++i) {
    const PrimitiveType type = mine[i].shape().element_type();
    Literal acc = (*members[0])[i];
    if (members.size() > 1) {
      AOT_ASSIGN_OR_RETURN(
          std::unique_ptr<ScalarFunction> fn,
          ScalarFunction::Create(to_apply, {type, type}, {type}, caller, "to_apply"));
      const int64_t w = ByteWidth(type);
      uint8_t* data = acc.raw_data();
      for (int64_t e = 0; e < acc.element_count(); ++e) {
        for (size_t k = 1; k < members.size(); ++k) {
          const void* args[2] = {data + e * w, (*members[k])[i].raw().data() + e * w};
          AOT_RETURN_IF_ERROR(fn->Call(args));
          std::memcpy(data + e * w, fn->result(0), w);
        }
      }
    }
    results.push_back(std::move(acc));
  }
  return results;
}

}  // namespace

absl::StatusOr<Literal> EvalGroupCollective(const HloInstruction& instr, Members members,
                                            int64_t rank, ComputationCaller& caller) {
  AOT_RETURN_IF_ERROR(CheckMembers(members, rank));
  const std::vector<Literal>& mine = *members[rank];
  const int64_t group_size = static_cast<int64_t>(members.size());
  switch (instr.opcode()) {
    case HloOpcode::kAllReduce:
    case HloOpcode::kAllReduceStart: {
      AOT_ASSIGN_OR_RETURN(std::vector<Literal> results, AllReduce(instr, members, rank, caller));
      return Wrap(std::move(results), false);
    }
    case HloOpcode::kAllGather:
    case HloOpcode::kAllGatherStart: {
      std::vector<Literal> results;
      for (size_t i = 0; i < mine.size(); ++i) {
        AOT_ASSIGN_OR_RETURN(const int64_t d, Dimension(instr, mine[i]));
        std::vector<const Literal*> parts;
        for (const std::vector<Literal>* member : members) parts.push_back(&(*member)[i]);
        results.push_back(Concatenate(parts, d));
      }
      return Wrap(std::move(results), false);
    }
    case HloOpcode::kReduceScatter: {
      for (const Literal& operand : mine) {
        AOT_ASSIGN_OR_RETURN(const int64_t d, Dimension(instr, operand));
        AOT_RETURN_IF_ERROR(ExpectDivisible(operand, d, group_size));
      }
      AOT_ASSIGN_OR_RETURN(std::vector<Literal> reduced, AllReduce(instr, members, rank, caller));
      std::vector<Literal> results;
      for (const Literal& r : reduced) {
        results.push_back(Block(r, instr.dimensions()[0], rank, group_size));
      }
      return Wrap(std::move(results), false);
    }
    case HloOpcode::kAllToAll: {
      if (!instr.dimensions().empty()) {
        // Chunk j of every member's operand goes to member j; the received
        // chunks are concatenated in group order.
        if (mine.size() != 1) {
          return absl::InvalidArgumentError("the array form takes one operand");
        }
        AOT_ASSIGN_OR_RETURN(const int64_t d, Dimension(instr, mine[0]));
        AOT_RETURN_IF_ERROR(ExpectDivisible(mine[0], d, group_size));
        std::vector<Literal> chunks;
        for (const std::vector<Literal>* member : members) {
          chunks.push_back(Block((*member)[0], d, rank, group_size));
        }
        std::vector<const Literal*> parts;
        for (const Literal& chunk : chunks) parts.push_back(&chunk);
        return Concatenate(parts, d);
      }
      // Operand j goes to member j: result i is what member i sent here.
      if (static_cast<int64_t>(mine.size()) != group_size) {
        return absl::InvalidArgumentError(
            absl::StrCat("the tuple form needs one operand per "
                         "group member (",
                         group_size, "); has ", mine.size()));
      }
      std::vector<Literal> results;
      for (const std::vector<Literal>* member : members) results.push_back((*member)[rank]);
      return Wrap(std::move(results), true);
    }
    case HloOpcode::kCollectiveBroadcast:
      return Wrap(*members[0], false);
    default:
      break;
  }
  return absl::UnimplementedError(
      absl::StrCat("'", HloOpcodeString(instr.opcode()), "' is not a group collective"));
}

absl::StatusOr<Literal> EvalCollectivePermute(Members members, int64_t rank,
                                              std::optional<int64_t> source_rank) {
  AOT_RETURN_IF_ERROR(CheckMembers(members, rank));
  const std::vector<Literal>& mine = *members[rank];
  if (mine.size() != 1) return absl::InvalidArgumentError("expected 1 operand");
  if (!source_rank.has_value()) return Literal(mine[0].shape());
  return (*members[*source_rank])[0];
}

}  // namespace interpreter_internal
}  // namespace aot
