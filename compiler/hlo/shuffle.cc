#include "compiler/hlo/shuffle.h"

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "absl/container/flat_hash_set.h"
#include "absl/strings/str_cat.h"
#include "compiler/hlo/hlo_parser.h"
#include "support/status_macros.h"

namespace aot {
namespace {

// Each mode's name and the attribute that holds its parameters.
struct ModeInfo {
  ShuffleMode mode;
  absl::string_view name;
  absl::string_view attribute;
};
constexpr ModeInfo kModes[] = {
    {ShuffleMode::kRotate, "rotate", "shifts"},
    {ShuffleMode::kPermute, "permute", "indices"},
    {ShuffleMode::kMultiRotate, "multi_rotate", "multi_shifts"},
};

const ModeInfo& InfoOf(ShuffleMode mode) {
  for (const ModeInfo& info : kModes) {
    if (info.mode == mode) return info;
  }
  return kModes[0];
}

template <typename... Args>
absl::Status Invalid(const Args&... args) {
  return absl::InvalidArgumentError(absl::StrCat(args...));
}

// The table's form (see shuffle.h) against an operand of `operand_dims`
// shuffled along `k` dimensions.
absl::Status CheckTableShape(absl::string_view name, const Shape& table,
                             absl::Span<const int64_t> operand_dims, int64_t k) {
  const int64_t rank = static_cast<int64_t>(operand_dims.size());
  const std::string written = table.ToString(false);
  if (!IsInteger(table.element_type())) {
    return Invalid(name, " has shape ", written, "; expected an integer type");
  }
  const bool coordinate_dimension = table.rank() == rank + 1;
  if (!coordinate_dimension && !(table.rank() == rank && k == 1)) {
    return Invalid(name, " has shape ", written, "; expected rank ", rank + 1, " (the operand's ",
                   rank,
                   " dimensions and one coordinate per shuffled "
                   "dimension)",
                   k == 1 ? absl::StrCat(" or ", rank, " (one shuffled dimension)") : "");
  }
  if (coordinate_dimension && table.dimensions(rank) != k) {
    return Invalid(name, " has shape ", written, "; its last dimension must be ", k,
                   ", one coordinate per shuffled dimension");
  }
  for (int64_t d = 0; d < rank; ++d) {
    if (table.dimensions(d) != operand_dims[d] && table.dimensions(d) != 1) {
      return Invalid(name, " has shape ", written, "; dimension ", d, " must be ", operand_dims[d],
                     " (the operand's) or 1 (shared)");
    }
  }
  return absl::OkStatus();
}

}  // namespace

absl::string_view ShuffleModeName(ShuffleMode mode) { return InfoOf(mode).name; }

bool IsShuffleLiteralAttribute(HloOpcode opcode, absl::string_view name) {
  return opcode == HloOpcode::kShuffle && (name == InfoOf(ShuffleMode::kPermute).attribute ||
                                           name == InfoOf(ShuffleMode::kMultiRotate).attribute);
}

int64_t NormalizeShift(int64_t shift, int64_t size) {
  if (size <= 0) return 0;
  const int64_t r = shift % size;
  return r < 0 ? r + size : r;
}

absl::StatusOr<ShuffleAttributes> ReadShuffleAttributes(const HloInstruction& shuffle) {
  if (shuffle.operand_count() != 1 || !shuffle.operand(0)->shape().IsArray()) {
    return Invalid("takes one array operand");
  }
  const std::vector<int64_t>& operand_dims = shuffle.operand(0)->shape().dimensions();
  const int64_t rank = static_cast<int64_t>(operand_dims.size());
  ShuffleAttributes a;
  a.dimensions = shuffle.dimensions();
  absl::flat_hash_set<int64_t> seen;
  for (int64_t d : a.dimensions) {
    if (d < 0 || d >= rank) {
      return Invalid("dimensions=", DimsToString(a.dimensions), " has dimension ", d,
                     " out of range [0, ", rank, ")");
    }
    if (!seen.insert(d).second) {
      return Invalid("dimensions=", DimsToString(a.dimensions), " repeats dimension ", d);
    }
  }
  std::vector<absl::string_view> names;
  for (const ModeInfo& info : kModes) names.push_back(info.name);
  absl::StatusOr<std::string> mode = EnumAttribute(shuffle, "mode", names);
  AOT_RETURN_IF_ERROR(mode);
  const ModeInfo* own = nullptr;
  for (const ModeInfo& info : kModes) {
    if (info.name == *mode) own = &info;
  }
  a.mode = own->mode;
  for (const ModeInfo& other : kModes) {
    if (&other != own && FindVerbatimAttribute(shuffle, other.attribute) != nullptr) {
      return Invalid("attribute ", other.attribute, "= belongs to mode=", other.name,
                     ", not mode=", own->name);
    }
  }
  const absl::string_view name = own->attribute;
  const int64_t k = static_cast<int64_t>(a.dimensions.size());
  if (a.mode == ShuffleMode::kRotate) {
    absl::StatusOr<std::vector<int64_t>> shifts = IntListAttribute(shuffle, name);
    AOT_RETURN_IF_ERROR(shifts);
    if (static_cast<int64_t>(shifts->size()) != k) {
      return Invalid("shifts=", DimsToString(*shifts), " has ", shifts->size(), " shifts for ", k,
                     " dimensions");
    }
    for (int64_t i = 0; i < k; ++i) {
      a.shifts.push_back(NormalizeShift((*shifts)[i], operand_dims[a.dimensions[i]]));
    }
    return a;
  }
  const std::string* text = FindVerbatimAttribute(shuffle, name);
  if (text == nullptr) {
    return Invalid("mode=", *mode, " needs the attribute ", name, "=<shape> <values>");
  }
  absl::StatusOr<Literal> table = ParseShapedLiteral(*text);
  if (!table.ok()) {
    return Invalid("attribute ", name, "=", *text, ": ", table.status().message());
  }
  a.table = *std::move(table);
  AOT_RETURN_IF_ERROR(CheckTableShape(name, a.table.shape(), operand_dims, k));
  if (k == 0) return a;
  // The table's entries cycle through the shuffled dimensions (one
  // coordinate each), or all belong to the one shuffled dimension.
  std::vector<int64_t> shifts;
  for (int64_t i = 0; i < a.table.element_count(); ++i) {
    const int64_t coordinate = i % k;
    const int64_t size = operand_dims[a.dimensions[coordinate]];
    const int64_t v = a.table.GetAsInt64(i);
    if (a.mode == ShuffleMode::kMultiRotate) {
      shifts.push_back(NormalizeShift(v, size));
    } else if (v < 0 || v >= size) {
      return Invalid("indices hold ", v, " for dimension ", a.dimensions[coordinate],
                     ", out of range [0, ", size, ")");
    }
  }
  if (a.mode == ShuffleMode::kMultiRotate) {
    a.table = Literal::FromInt64s(Shape(S64, a.table.shape().dimensions()), shifts);
  }
  return a;
}

int64_t ShuffleTableEntry(const ShuffleAttributes& a, absl::Span<const int64_t> operand_dims,
                          absl::Span<const int64_t> index, int64_t k) {
  const Shape& table = a.table.shape();
  const int64_t rank = static_cast<int64_t>(operand_dims.size());
  int64_t linear = 0;
  for (int64_t d = 0; d < rank; ++d) {
    linear = linear * table.dimensions(d) + (table.dimensions(d) == 1 ? 0 : index[d]);
  }
  if (table.rank() == rank + 1) linear = linear * table.dimensions(rank) + k;
  return a.table.GetAsInt64(linear);
}

void ShuffleSource(const ShuffleAttributes& a, absl::Span<const int64_t> operand_dims,
                   absl::Span<const int64_t> index, std::vector<int64_t>& source) {
  source.assign(index.begin(), index.end());
  for (size_t k = 0; k < a.dimensions.size(); ++k) {
    const int64_t d = a.dimensions[k];
    const int64_t n = operand_dims[d];
    switch (a.mode) {
      case ShuffleMode::kRotate:
        source[d] = (index[d] + a.shifts[k]) % n;
        break;
      case ShuffleMode::kPermute:
        source[d] = ShuffleTableEntry(a, operand_dims, index, static_cast<int64_t>(k));
        break;
      case ShuffleMode::kMultiRotate:
        source[d] =
            (index[d] + ShuffleTableEntry(a, operand_dims, index, static_cast<int64_t>(k))) % n;
        break;
    }
  }
}

}  // namespace aot
