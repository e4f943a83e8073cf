#include "compiler/hlo/hlo_instruction.h"

#include <algorithm>

#include "absl/algorithm/container.h"
#include "absl/memory/memory.h"
#include "absl/strings/ascii.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"
#include "absl/strings/strip.h"
#include "compiler/hlo/collective_ops.h"
#include "compiler/hlo/hlo_computation.h"
#include "support/status_macros.h"

namespace aot {

namespace {

constexpr absl::string_view kDirections[] = {"EQ", "NE", "LT", "LE", "GT", "GE"};

std::string Quote(absl::string_view s) {
  std::string out = "\"";
  for (char c : s) {
    switch (c) {
      case '"':
        out += "\\\"";
        break;
      case '\\':
        out += "\\\\";
        break;
      case '\n':
        out += "\\n";
        break;
      case '\t':
        out += "\\t";
        break;
      default:
        out.push_back(c);
    }
  }
  out += "\"";
  return out;
}

std::string ComputationRef(const HloComputation* c) { return absl::StrCat("%", c->name()); }

}  // namespace

std::string DescribeInstruction(const HloInstruction& instruction) {
  return absl::StrCat("instruction '", instruction.name(), "' (",
                      HloOpcodeString(instruction.opcode()), ")");
}

absl::Status UnimplementedInstruction(const HloInstruction& instruction, absl::string_view why) {
  return absl::UnimplementedError(absl::StrCat(DescribeInstruction(instruction), ": ", why));
}

absl::string_view ComparisonDirectionString(ComparisonDirection d) {
  return kDirections[static_cast<int>(d)];
}

absl::StatusOr<ComparisonDirection> ParseComparisonDirection(absl::string_view s) {
  for (int i = 0; i < 6; ++i) {
    if (kDirections[i] == s) return static_cast<ComparisonDirection>(i);
  }
  return absl::InvalidArgumentError(absl::StrCat("unknown comparison direction '", s, "'"));
}

HloInstruction::HloInstruction(HloOpcode opcode, Shape shape)
    : opcode_(opcode), shape_(std::move(shape)) {}

std::unique_ptr<HloInstruction> HloInstruction::Create(HloOpcode opcode, Shape shape,
                                                       std::vector<HloInstruction*> operands) {
  auto instr = absl::WrapUnique(new HloInstruction(opcode, std::move(shape)));
  for (HloInstruction* op : operands) instr->AppendOperand(op);
  return instr;
}

std::unique_ptr<HloInstruction> HloInstruction::CreateParameter(int64_t number, Shape shape,
                                                                std::string name) {
  auto instr = Create(HloOpcode::kParameter, std::move(shape), {});
  instr->attrs_.parameter_number = number;
  instr->name_ = std::move(name);
  return instr;
}

std::unique_ptr<HloInstruction> HloInstruction::CreateConstant(Literal literal) {
  auto instr = Create(HloOpcode::kConstant, literal.shape(), {});
  instr->attrs_.literal = std::move(literal);
  return instr;
}

void HloInstruction::AppendOperand(HloInstruction* operand) {
  operands_.push_back(operand);
  if (std::find(operand->users_.begin(), operand->users_.end(), this) == operand->users_.end()) {
    operand->users_.push_back(this);
  }
}

void HloInstruction::ReplaceOperandWith(int64_t i, HloInstruction* new_operand) {
  HloInstruction* old = operands_[i];
  if (old == new_operand) return;
  operands_[i] = new_operand;
  if (std::find(operands_.begin(), operands_.end(), old) == operands_.end()) {
    old->users_.erase(std::remove(old->users_.begin(), old->users_.end(), this), old->users_.end());
  }
  if (std::find(new_operand->users_.begin(), new_operand->users_.end(), this) ==
      new_operand->users_.end()) {
    new_operand->users_.push_back(this);
  }
}

void HloInstruction::ReplaceAllUsesWith(HloInstruction* other) {
  if (other == this) return;
  std::vector<HloInstruction*> users = users_;
  for (HloInstruction* user : users) {
    for (int64_t i = 0; i < user->operand_count(); ++i) {
      if (user->operands_[i] == this) user->ReplaceOperandWith(i, other);
    }
  }
  if (parent_ != nullptr && parent_->root_instruction() == this) {
    parent_->set_root_instruction(other);
  }
}

void HloInstruction::DetachFromOperands() {
  for (HloInstruction* op : operands_) {
    op->users_.erase(std::remove(op->users_.begin(), op->users_.end(), this), op->users_.end());
  }
  operands_.clear();
}

HloComputation* HloInstruction::to_apply() const {
  return called_computations_.empty() ? nullptr : called_computations_[0];
}

std::string DimsToString(const std::vector<int64_t>& dims) {
  return absl::StrCat("{", absl::StrJoin(dims, ","), "}");
}

std::string WindowToString(const WindowProto& window) {
  std::vector<std::string> parts;
  auto field = [&](absl::string_view name, auto getter, int64_t default_value,
                   absl::string_view sep = "x") {
    bool all_default = true;
    for (const WindowDimensionProto& d : window.dimensions()) {
      if (getter(d) != default_value) all_default = false;
    }
    if (all_default && name != "size") return;
    std::vector<std::string> values;
    for (const WindowDimensionProto& d : window.dimensions()) {
      values.push_back(absl::StrCat(getter(d)));
    }
    parts.push_back(absl::StrCat(name, "=", absl::StrJoin(values, sep)));
  };
  field(
      "size", [](const WindowDimensionProto& d) { return d.size(); }, 1);
  field(
      "stride", [](const WindowDimensionProto& d) { return d.stride(); }, 1);
  bool any_pad = false;
  for (const WindowDimensionProto& d : window.dimensions()) {
    if (d.padding_low() != 0 || d.padding_high() != 0) any_pad = true;
  }
  if (any_pad) {
    std::vector<std::string> values;
    for (const WindowDimensionProto& d : window.dimensions()) {
      values.push_back(absl::StrCat(d.padding_low(), "_", d.padding_high()));
    }
    parts.push_back(absl::StrCat("pad=", absl::StrJoin(values, "x")));
  }
  field(
      "lhs_dilate", [](const WindowDimensionProto& d) { return d.base_dilation(); }, 1);
  field(
      "rhs_dilate", [](const WindowDimensionProto& d) { return d.window_dilation(); }, 1);
  bool any_reversal = false;
  for (const WindowDimensionProto& d : window.dimensions()) {
    any_reversal |= d.window_reversal();
  }
  if (any_reversal) {
    std::vector<std::string> values;
    for (const WindowDimensionProto& d : window.dimensions()) {
      values.push_back(d.window_reversal() ? "1" : "0");
    }
    parts.push_back(absl::StrCat("rhs_reversal=", absl::StrJoin(values, "x")));
  }
  return absl::StrCat("{", absl::StrJoin(parts, " "), "}");
}

std::string ConvolutionDimensionNumbersToString(const ConvolutionDimensionNumbersProto& d) {
  auto spatial_char = [](int64_t i) { return static_cast<char>('0' + i); };
  auto render = [&](int64_t rank, int64_t a, char a_char, int64_t b, char b_char,
                    const auto& spatial) {
    std::string s(rank, '?');
    if (a >= 0 && a < rank) s[a] = a_char;
    if (b >= 0 && b < rank) s[b] = b_char;
    for (int i = 0; i < spatial.size(); ++i) {
      if (spatial[i] >= 0 && spatial[i] < rank) s[spatial[i]] = spatial_char(i);
    }
    return s;
  };
  int64_t rank = d.input_spatial_dimensions_size() + 2;
  return absl::StrCat(
      render(rank, d.input_batch_dimension(), 'b', d.input_feature_dimension(), 'f',
             d.input_spatial_dimensions()),
      "_",
      render(rank, d.kernel_input_feature_dimension(), 'i', d.kernel_output_feature_dimension(),
             'o', d.kernel_spatial_dimensions()),
      "->",
      render(rank, d.output_batch_dimension(), 'b', d.output_feature_dimension(), 'f',
             d.output_spatial_dimensions()));
}

std::string PaddingConfigToString(const PaddingConfigProto& padding) {
  std::vector<std::string> parts;
  for (const auto& d : padding.dimensions()) {
    std::string s = absl::StrCat(d.edge_padding_low(), "_", d.edge_padding_high());
    if (d.interior_padding() != 0) absl::StrAppend(&s, "_", d.interior_padding());
    parts.push_back(s);
  }
  return absl::StrJoin(parts, "x");
}

std::string ReplicaGroupsToString(const std::vector<std::vector<int64_t>>& groups) {
  return absl::StrCat("{",
                      absl::StrJoin(groups, ",",
                                    [](std::string* out, const std::vector<int64_t>& group) {
                                      absl::StrAppend(out, DimsToString(group));
                                    }),
                      "}");
}

std::string IotaReplicaGroupListToString(const IotaReplicaGroupList& iota) {
  std::string out = absl::StrCat("[", iota.num_groups, ",", iota.group_size, "]<=[",
                                 absl::StrJoin(iota.reshape_dims, ","), "]");
  if (!iota.transpose_perm.empty()) {
    absl::StrAppend(&out, "T(", absl::StrJoin(iota.transpose_perm, ","), ")");
  }
  return out;
}

namespace {

// The attributes of a collective, in the order XLA prints them.
void AppendCollectiveAttributes(HloOpcode opcode, const HloAttributes& at,
                                std::vector<std::string>& a) {
  if (at.channel_id.has_value()) a.push_back(absl::StrCat("channel_id=", *at.channel_id));
  if (HasReplicaGroups(opcode)) {
    // The iota form as written, unless the groups changed since.
    bool iota = false;
    if (at.iota_replica_groups.has_value()) {
      auto expanded = ExpandIotaReplicaGroupList(*at.iota_replica_groups);
      iota = expanded.ok() && *expanded == at.replica_groups;
    }
    a.push_back(
        absl::StrCat("replica_groups=", iota ? IotaReplicaGroupListToString(*at.iota_replica_groups)
                                             : ReplicaGroupsToString(at.replica_groups)));
    if (at.constrain_layout) a.push_back("constrain_layout=true");
  }
  switch (opcode) {
    case HloOpcode::kAllGather:
    case HloOpcode::kAllGatherStart:
    case HloOpcode::kReduceScatter:
      a.push_back(absl::StrCat("dimensions=", DimsToString(at.dimensions)));
      break;
    case HloOpcode::kAllToAll:
      if (!at.dimensions.empty()) {
        a.push_back(absl::StrCat("dimensions=", DimsToString(at.dimensions)));
      }
      break;
    default:
      break;
  }
  if (at.use_global_device_ids) a.push_back("use_global_device_ids=true");
  if (opcode == HloOpcode::kCollectivePermute || opcode == HloOpcode::kCollectivePermuteStart) {
    std::vector<std::string> pairs;
    for (const auto& [source, target] : at.source_target_pairs) {
      pairs.push_back(absl::StrCat("{", source, ",", target, "}"));
    }
    a.push_back(absl::StrCat("source_target_pairs={", absl::StrJoin(pairs, ","), "}"));
  }
}

std::string Int64List(const google::protobuf::RepeatedField<int64_t>& values) {
  return absl::StrCat("{", absl::StrJoin(values, ","), "}");
}

std::string MetadataToString(const OpMetadataProto& m) {
  std::vector<std::string> parts;
  if (!m.op_type().empty()) parts.push_back(absl::StrCat("op_type=", Quote(m.op_type())));
  if (!m.op_name().empty()) parts.push_back(absl::StrCat("op_name=", Quote(m.op_name())));
  if (!m.source_file().empty()) {
    parts.push_back(absl::StrCat("source_file=", Quote(m.source_file())));
  }
  if (m.source_line() != 0) parts.push_back(absl::StrCat("source_line=", m.source_line()));
  return absl::StrCat("{", absl::StrJoin(parts, " "), "}");
}

}  // namespace

const std::string* FindVerbatimAttribute(const HloInstruction& instruction,
                                         absl::string_view name) {
  for (const auto& [key, value] : instruction.attrs().unknown_attributes) {
    if (key == name) return &value;
  }
  return nullptr;
}

namespace {

absl::Status BadAttribute(const HloInstruction& instruction, absl::string_view name,
                          absl::string_view value, absl::string_view expected) {
  return absl::InvalidArgumentError(absl::StrCat("attribute ", name, "=", value, " of '",
                                                 instruction.name(), "': expected ", expected));
}

}  // namespace

absl::StatusOr<int64_t> IntAttribute(const HloInstruction& instruction, absl::string_view name) {
  const std::string* value = FindVerbatimAttribute(instruction, name);
  if (value == nullptr) {
    return absl::InvalidArgumentError(
        absl::StrCat("'", instruction.name(), "' needs the attribute ", name, "=<integer>"));
  }
  int64_t v = 0;
  if (!absl::SimpleAtoi(*value, &v)) return BadAttribute(instruction, name, *value, "an integer");
  return v;
}

absl::StatusOr<double> FloatAttribute(const HloInstruction& instruction, absl::string_view name) {
  const std::string* value = FindVerbatimAttribute(instruction, name);
  if (value == nullptr) {
    return absl::InvalidArgumentError(
        absl::StrCat("'", instruction.name(), "' needs the attribute ", name, "=<number>"));
  }
  double v = 0;
  if (!absl::SimpleAtod(*value, &v)) return BadAttribute(instruction, name, *value, "a number");
  return v;
}

absl::StatusOr<bool> BoolAttribute(const HloInstruction& instruction, absl::string_view name,
                                   bool fallback) {
  const std::string* value = FindVerbatimAttribute(instruction, name);
  if (value == nullptr) return fallback;
  if (*value == "true") return true;
  if (*value == "false") return false;
  return BadAttribute(instruction, name, *value, "true or false");
}

absl::StatusOr<std::vector<int64_t>> IntListAttribute(const HloInstruction& instruction,
                                                      absl::string_view name) {
  const std::string* value = FindVerbatimAttribute(instruction, name);
  if (value == nullptr) {
    return absl::InvalidArgumentError(
        absl::StrCat("'", instruction.name(), "' needs the attribute ", name, "={i,j,...}"));
  }
  absl::string_view inner = absl::StripAsciiWhitespace(*value);
  if (!absl::ConsumePrefix(&inner, "{") || !absl::ConsumeSuffix(&inner, "}")) {
    return BadAttribute(instruction, name, *value, "{i,j,...}");
  }
  std::vector<int64_t> out;
  if (absl::StripAsciiWhitespace(inner).empty()) return out;
  for (absl::string_view part : absl::StrSplit(inner, ',')) {
    int64_t v = 0;
    if (!absl::SimpleAtoi(part, &v)) return BadAttribute(instruction, name, *value, "{i,j,...}");
    out.push_back(v);
  }
  return out;
}

absl::StatusOr<std::string> EnumAttribute(const HloInstruction& instruction, absl::string_view name,
                                          absl::Span<const absl::string_view> allowed,
                                          std::optional<absl::string_view> fallback) {
  const std::string* value = FindVerbatimAttribute(instruction, name);
  if (value == nullptr && fallback.has_value()) return std::string(*fallback);
  if (value == nullptr || std::find(allowed.begin(), allowed.end(), *value) == allowed.end()) {
    const std::string expected = absl::StrJoin(allowed, ", ");
    if (value == nullptr) {
      return absl::InvalidArgumentError(absl::StrCat(
          "'", instruction.name(), "' needs the attribute ", name, "=<one of ", expected, ">"));
    }
    return BadAttribute(instruction, name, *value, absl::StrCat("one of ", expected));
  }
  return *value;
}

absl::StatusOr<FftAttributes> ReadFftAttributes(const HloInstruction& fft) {
  constexpr absl::string_view kTypes[] = {"FFT", "IFFT", "RFFT", "IRFFT"};
  FftAttributes a;
  AOT_ASSIGN_OR_RETURN(a.type, EnumAttribute(fft, "fft_type", kTypes));
  AOT_ASSIGN_OR_RETURN(a.length, IntListAttribute(fft, "fft_length"));
  return a;
}

absl::StatusOr<TriangularSolveAttributes> ReadTriangularSolveAttributes(
    const HloInstruction& solve) {
  constexpr absl::string_view kTranspose[] = {"NO_TRANSPOSE", "TRANSPOSE", "ADJOINT"};
  TriangularSolveAttributes a;
  AOT_ASSIGN_OR_RETURN(a.left_side, BoolAttribute(solve, "left_side", false));
  AOT_ASSIGN_OR_RETURN(a.lower, BoolAttribute(solve, "lower", false));
  AOT_ASSIGN_OR_RETURN(a.unit_diagonal, BoolAttribute(solve, "unit_diagonal", false));
  AOT_ASSIGN_OR_RETURN(a.transpose_a,
                       EnumAttribute(solve, "transpose_a", kTranspose, "NO_TRANSPOSE"));
  return a;
}

std::vector<std::pair<std::string, std::string>> TriangularSolveAttributeList(
    const TriangularSolveAttributes& a) {
  auto flag = [](bool v) { return std::string(v ? "true" : "false"); };
  return {{"left_side", flag(a.left_side)},
          {"lower", flag(a.lower)},
          {"unit_diagonal", flag(a.unit_diagonal)},
          {"transpose_a", a.transpose_a}};
}

absl::StatusOr<RngAlgorithm> ReadRngAlgorithm(const HloInstruction& rng) {
  constexpr absl::string_view kAlgorithms[] = {"rng_default", "rng_three_fry", "rng_philox"};
  AOT_ASSIGN_OR_RETURN(std::string name,
                       EnumAttribute(rng, "algorithm", kAlgorithms, "rng_default"));
  return name == "rng_three_fry" ? RngAlgorithm::kThreefry : RngAlgorithm::kPhilox;
}

absl::StatusOr<RngDistribution> ReadRngDistribution(const HloInstruction& rng) {
  constexpr absl::string_view kDistributions[] = {"rng_uniform", "rng_normal"};
  AOT_ASSIGN_OR_RETURN(std::string name, EnumAttribute(rng, "distribution", kDistributions));
  return name == "rng_normal" ? RngDistribution::kNormal : RngDistribution::kUniform;
}

int64_t RngDraws(RngDistribution distribution, const Shape& shape) {
  return (distribution == RngDistribution::kNormal ? 2 : 1) * shape.ElementCount();
}

PrimitiveType RngBitsType(PrimitiveType type) {
  if (IsFloatingPoint(type)) return type == F64 ? U64 : U32;
  switch (ByteWidth(type)) {
    case 1:
      return U8;
    case 2:
      return U16;
    case 4:
      return U32;
    default:
      return U64;
  }
}

int64_t RngStateAdvance(RngDistribution distribution, const Shape& shape) {
  const int64_t words_per_draw = ByteWidth(RngBitsType(shape.element_type())) == 8 ? 2 : 1;
  return (RngDraws(distribution, shape) * words_per_draw + 3) / 4;
}

absl::StatusOr<RngTake> RngTakeOf(const std::vector<HloInstruction*>& instructions) {
  RngTake take;
  for (const HloInstruction* h : instructions) {
    if (h->opcode() != HloOpcode::kRng) continue;
    absl::StatusOr<RngDistribution> distribution = ReadRngDistribution(*h);
    if (!distribution.ok()) {
      return absl::Status(
          distribution.status().code(),
          absl::StrCat("instruction '", h->name(), "' (rng): ", distribution.status().message()));
    }
    take.offsets[h] = take.advance;
    take.advance += RngStateAdvance(*distribution, h->shape());
  }
  return take;
}

absl::StatusOr<int64_t> ReadRngDelta(const HloInstruction& get_and_update) {
  AOT_ASSIGN_OR_RETURN(int64_t delta, IntAttribute(get_and_update, "delta"));
  if (delta < 0) {
    return BadAttribute(get_and_update, "delta", *FindVerbatimAttribute(get_and_update, "delta"),
                        "a count of at least 0");
  }
  return delta;
}

absl::StatusOr<RaggedDotAttributes> ReadRaggedDotAttributes(const HloInstruction& ragged_dot) {
  RaggedDotAttributes a;
  AOT_ASSIGN_OR_RETURN(std::vector<int64_t> ragged,
                       IntListAttribute(ragged_dot, "lhs_ragged_dims"));
  if (ragged.size() != 1) {
    return BadAttribute(ragged_dot, "lhs_ragged_dims",
                        *FindVerbatimAttribute(ragged_dot, "lhs_ragged_dims"),
                        "{d}: one dimension");
  }
  a.lhs_ragged = ragged[0];
  if (FindVerbatimAttribute(ragged_dot, "rhs_group_dims") != nullptr) {
    AOT_ASSIGN_OR_RETURN(std::vector<int64_t> group,
                         IntListAttribute(ragged_dot, "rhs_group_dims"));
    if (group.size() > 1) {
      return BadAttribute(ragged_dot, "rhs_group_dims",
                          *FindVerbatimAttribute(ragged_dot, "rhs_group_dims"),
                          "{g}: at most one dimension");
    }
    if (!group.empty()) a.rhs_group = group[0];
  }
  if (ragged_dot.attrs().dot_dimension_numbers.has_value()) {
    // One group's dot: rhs without g, so rhs dimensions past g move down.
    const DotDimensionNumbersProto& dn = *ragged_dot.attrs().dot_dimension_numbers;
    DotDimensionNumbersProto& gdn = a.group_dot_dimension_numbers;
    gdn = dn;
    if (a.rhs_group.has_value()) {
      const int64_t g = *a.rhs_group;
      gdn.clear_rhs_contracting_dimensions();
      gdn.clear_rhs_batch_dimensions();
      for (int64_t d : dn.rhs_contracting_dimensions()) {
        gdn.add_rhs_contracting_dimensions(d > g ? d - 1 : d);
      }
      for (int64_t d : dn.rhs_batch_dimensions()) gdn.add_rhs_batch_dimensions(d > g ? d - 1 : d);
    }
    // The dot's result: batch dimensions, then lhs's free ones in order.
    a.result_ragged_dimension = dn.lhs_batch_dimensions_size();
    for (int64_t d = 0; d < a.lhs_ragged; ++d) {
      a.result_ragged_dimension += !absl::c_linear_search(dn.lhs_contracting_dimensions(), d) &&
                                   !absl::c_linear_search(dn.lhs_batch_dimensions(), d);
    }
  }
  return a;
}

absl::StatusOr<ScanAttributes> ReadScanAttributes(const HloInstruction& scan) {
  ScanAttributes a;
  if (scan.dimensions().size() != 1) {
    return absl::InvalidArgumentError(absl::StrCat(
        "instruction '", scan.name(), "' (scan): needs dimensions={d}, one dimension; got ",
        DimsToString(scan.dimensions())));
  }
  a.dimension = scan.dimensions()[0];
  AOT_ASSIGN_OR_RETURN(a.num_carries, IntAttribute(scan, "num_carries"));
  AOT_ASSIGN_OR_RETURN(a.is_reverse, BoolAttribute(scan, "is_reverse", false));
  return a;
}

std::string HloInstruction::AttributesToString() const {
  std::vector<std::string> a;
  const HloAttributes& at = attrs_;
  if (IsCollectiveOpcode(opcode_)) AppendCollectiveAttributes(opcode_, at, a);
  switch (opcode_) {
    case HloOpcode::kGetTupleElement:
      a.push_back(absl::StrCat("index=", at.tuple_index));
      break;
    case HloOpcode::kIota:
      if (!at.dimensions.empty()) {
        a.push_back(absl::StrCat("iota_dimension=", at.dimensions[0]));
      }
      break;
    case HloOpcode::kBroadcast:
    case HloOpcode::kGetDimensionSize:
    case HloOpcode::kSetDimensionSize:
    case HloOpcode::kShuffle:
    case HloOpcode::kTranspose:
    case HloOpcode::kReduce:
    case HloOpcode::kReverse:
    case HloOpcode::kConcatenate:
    case HloOpcode::kSort:
    case HloOpcode::kScan:
      a.push_back(absl::StrCat("dimensions=", DimsToString(at.dimensions)));
      break;
    case HloOpcode::kMap:
      if (!at.dimensions.empty()) {
        a.push_back(absl::StrCat("dimensions=", DimsToString(at.dimensions)));
      }
      break;
    case HloOpcode::kSlice: {
      std::vector<std::string> dims;
      for (const SliceSpec& s : at.slice) {
        dims.push_back(s.stride == 1
                           ? absl::StrCat("[", s.start, ":", s.limit, "]")
                           : absl::StrCat("[", s.start, ":", s.limit, ":", s.stride, "]"));
      }
      a.push_back(absl::StrCat("slice={", absl::StrJoin(dims, ", "), "}"));
      break;
    }
    case HloOpcode::kDynamicSlice:
      a.push_back(absl::StrCat("dynamic_slice_sizes=", DimsToString(at.dynamic_slice_sizes)));
      break;
    case HloOpcode::kPad:
      if (at.padding_config) {
        a.push_back(absl::StrCat("padding=", PaddingConfigToString(*at.padding_config)));
      }
      break;
    case HloOpcode::kCompare:
      if (at.comparison_direction) {
        a.push_back(
            absl::StrCat("direction=", ComparisonDirectionString(*at.comparison_direction)));
      }
      if (!at.comparison_type.empty()) {
        a.push_back(absl::StrCat("type=", at.comparison_type));
      }
      break;
    case HloOpcode::kReducePrecision:
      a.push_back(absl::StrCat("exponent_bits=", at.exponent_bits));
      a.push_back(absl::StrCat("mantissa_bits=", at.mantissa_bits));
      break;
    default:
      break;
  }
  if (at.window) a.push_back(absl::StrCat("window=", WindowToString(*at.window)));
  if (at.convolution_dimension_numbers) {
    a.push_back(absl::StrCat(
        "dim_labels=", ConvolutionDimensionNumbersToString(*at.convolution_dimension_numbers)));
  }
  // A custom call carries them too (XLA:GPU's cuDNN convolutions).
  if (opcode_ == HloOpcode::kConvolution || opcode_ == HloOpcode::kCustomCall) {
    if (at.feature_group_count != 1) {
      a.push_back(absl::StrCat("feature_group_count=", at.feature_group_count));
    }
    if (at.batch_group_count != 1) {
      a.push_back(absl::StrCat("batch_group_count=", at.batch_group_count));
    }
  }
  if (at.dot_dimension_numbers) {
    const auto& d = *at.dot_dimension_numbers;
    if (d.lhs_batch_dimensions_size() > 0) {
      a.push_back(absl::StrCat("lhs_batch_dims=", Int64List(d.lhs_batch_dimensions())));
    }
    a.push_back(absl::StrCat("lhs_contracting_dims=", Int64List(d.lhs_contracting_dimensions())));
    if (d.rhs_batch_dimensions_size() > 0) {
      a.push_back(absl::StrCat("rhs_batch_dims=", Int64List(d.rhs_batch_dimensions())));
    }
    a.push_back(absl::StrCat("rhs_contracting_dims=", Int64List(d.rhs_contracting_dimensions())));
  }
  if (at.gather_dimension_numbers) {
    const auto& d = *at.gather_dimension_numbers;
    a.push_back(absl::StrCat("offset_dims=", Int64List(d.offset_dims())));
    a.push_back(absl::StrCat("collapsed_slice_dims=", Int64List(d.collapsed_slice_dims())));
    a.push_back(absl::StrCat("start_index_map=", Int64List(d.start_index_map())));
    if (d.operand_batching_dims_size() > 0) {
      a.push_back(absl::StrCat("operand_batching_dims=", Int64List(d.operand_batching_dims())));
      a.push_back(
          absl::StrCat("start_indices_batching_dims=", Int64List(d.start_indices_batching_dims())));
    }
    a.push_back(absl::StrCat("index_vector_dim=", d.index_vector_dim()));
    a.push_back(absl::StrCat("slice_sizes=", DimsToString(at.gather_slice_sizes)));
  }
  if (at.scatter_dimension_numbers) {
    const auto& d = *at.scatter_dimension_numbers;
    a.push_back(absl::StrCat("update_window_dims=", Int64List(d.update_window_dims())));
    a.push_back(absl::StrCat("inserted_window_dims=", Int64List(d.inserted_window_dims())));
    a.push_back(
        absl::StrCat("scatter_dims_to_operand_dims=", Int64List(d.scatter_dims_to_operand_dims())));
    if (d.input_batching_dims_size() > 0) {
      a.push_back(absl::StrCat("input_batching_dims=", Int64List(d.input_batching_dims())));
      a.push_back(absl::StrCat("scatter_indices_batching_dims=",
                               Int64List(d.scatter_indices_batching_dims())));
    }
    a.push_back(absl::StrCat("index_vector_dim=", d.index_vector_dim()));
  }
  if (at.indices_are_sorted) a.push_back("indices_are_sorted=true");
  if (at.unique_indices) a.push_back("unique_indices=true");
  if (opcode_ == HloOpcode::kSort && at.is_stable) a.push_back("is_stable=true");
  // Called computations.
  const auto& called = called_computations_;
  switch (opcode_) {
    case HloOpcode::kWhile:
      if (called.size() == 2) {
        a.push_back(absl::StrCat("condition=", ComputationRef(called[0])));
        a.push_back(absl::StrCat("body=", ComputationRef(called[1])));
      }
      break;
    case HloOpcode::kConditional:
      if (!operands_.empty() && operands_[0]->shape().element_type() == PRED &&
          called.size() == 2) {
        a.push_back(absl::StrCat("true_computation=", ComputationRef(called[0])));
        a.push_back(absl::StrCat("false_computation=", ComputationRef(called[1])));
      } else {
        std::vector<std::string> refs;
        for (const HloComputation* c : called) refs.push_back(ComputationRef(c));
        a.push_back(absl::StrCat("branch_computations={", absl::StrJoin(refs, ", "), "}"));
      }
      break;
    case HloOpcode::kSelectAndScatter:
      if (called.size() == 2) {
        a.push_back(absl::StrCat("select=", ComputationRef(called[0])));
        a.push_back(absl::StrCat("scatter=", ComputationRef(called[1])));
      }
      break;
    case HloOpcode::kFusion:
      a.push_back(absl::StrCat("kind=", at.fusion_kind.empty() ? "kLoop" : at.fusion_kind));
      if (!called.empty()) a.push_back(absl::StrCat("calls=", ComputationRef(called[0])));
      break;
    case HloOpcode::kAsyncStart:
    case HloOpcode::kAsyncUpdate:
    case HloOpcode::kAsyncDone:
      if (!called.empty()) a.push_back(absl::StrCat("calls=", ComputationRef(called[0])));
      break;
    default:
      if (!called.empty()) {
        a.push_back(absl::StrCat("to_apply=", ComputationRef(called[0])));
      }
      break;
  }
  if (opcode_ == HloOpcode::kCustomCall) {
    a.push_back(absl::StrCat("custom_call_target=", Quote(at.custom_call_target)));
    if (at.custom_call_api_version != 0) {
      a.push_back(absl::StrCat("api_version=",
                               at.custom_call_api_version == 4
                                   ? "API_VERSION_TYPED_FFI"
                                   : absl::StrCat("API_VERSION_", at.custom_call_api_version)));
    }
  }
  if (!at.operand_precision.empty()) {
    a.push_back(absl::StrCat("operand_precision={", absl::StrJoin(at.operand_precision, ","), "}"));
  }
  if (!at.backend_config.empty()) {
    a.push_back(absl::StrCat("backend_config=", at.backend_config[0] == '{'
                                                    ? at.backend_config
                                                    : Quote(at.backend_config)));
  }
  if (!at.sharding.empty()) a.push_back(absl::StrCat("sharding=", at.sharding));
  if (!at.frontend_attributes.empty()) {
    std::vector<std::string> kv;
    for (const auto& [k, v] : at.frontend_attributes) {
      kv.push_back(absl::StrCat(k, "=", Quote(v)));
    }
    a.push_back(absl::StrCat("frontend_attributes={", absl::StrJoin(kv, ","), "}"));
  }
  for (const auto& [k, v] : at.unknown_attributes) {
    a.push_back(absl::StrCat(k, "=", v));
  }
  if (at.metadata) a.push_back(absl::StrCat("metadata=", MetadataToString(*at.metadata)));
  return absl::StrJoin(a, ", ");
}

std::string HloInstruction::ToString() const {
  std::string out =
      absl::StrCat("%", name_, " = ", shape_.ToString(), " ", HloOpcodeString(opcode_), "(");
  if (opcode_ == HloOpcode::kConstant && attrs_.literal) {
    absl::StrAppend(&out, attrs_.literal->ValuesToString());
  } else if (opcode_ == HloOpcode::kParameter) {
    absl::StrAppend(&out, attrs_.parameter_number);
  } else {
    std::vector<std::string> ops;
    for (const HloInstruction* op : operands_) {
      ops.push_back(absl::StrCat("%", op->name()));
    }
    absl::StrAppend(&out, absl::StrJoin(ops, ", "));
  }
  absl::StrAppend(&out, ")");
  std::string attrs = AttributesToString();
  if (!attrs.empty()) absl::StrAppend(&out, ", ", attrs);
  return out;
}

HloInstructionProto HloInstruction::ToProto() const {
  HloInstructionProto p;
  const HloAttributes& at = attrs_;
  p.set_name(name_);
  p.set_opcode(std::string(HloOpcodeString(opcode_)));
  *p.mutable_shape() = shape_.ToProto();
  p.set_id(unique_id_);
  for (const HloInstruction* op : operands_) p.add_operand_ids(op->unique_id());
  for (const HloComputation* c : called_computations_) {
    p.add_called_computation_ids(c->unique_id());
  }
  if (at.literal) *p.mutable_literal() = at.literal->ToProto();
  if (opcode_ == HloOpcode::kParameter) p.set_parameter_number(at.parameter_number);
  if (opcode_ == HloOpcode::kGetTupleElement) p.set_tuple_index(at.tuple_index);
  for (int64_t d : at.dimensions) p.add_dimensions(d);
  for (const SliceSpec& s : at.slice) {
    auto* sd = p.add_slice_dimensions();
    sd->set_start(s.start);
    sd->set_limit(s.limit);
    sd->set_stride(s.stride);
  }
  for (int64_t d : at.dynamic_slice_sizes) p.add_dynamic_slice_sizes(d);
  if (at.padding_config) *p.mutable_padding_config() = *at.padding_config;
  if (at.window) *p.mutable_window() = *at.window;
  if (at.dot_dimension_numbers) *p.mutable_dot_dimension_numbers() = *at.dot_dimension_numbers;
  if (at.convolution_dimension_numbers) {
    *p.mutable_convolution_dimension_numbers() = *at.convolution_dimension_numbers;
  }
  if (opcode_ == HloOpcode::kConvolution) {
    p.set_feature_group_count(at.feature_group_count);
    p.set_batch_group_count(at.batch_group_count);
  } else if (opcode_ == HloOpcode::kCustomCall) {
    // Only where they are not 1: a custom call's proto leaves them unset.
    if (at.feature_group_count != 1) p.set_feature_group_count(at.feature_group_count);
    if (at.batch_group_count != 1) p.set_batch_group_count(at.batch_group_count);
  }
  if (at.gather_dimension_numbers) {
    *p.mutable_gather_dimension_numbers() = *at.gather_dimension_numbers;
  }
  for (int64_t d : at.gather_slice_sizes) p.add_gather_slice_sizes(d);
  if (at.scatter_dimension_numbers) {
    *p.mutable_scatter_dimension_numbers() = *at.scatter_dimension_numbers;
  }
  p.set_indices_are_sorted(at.indices_are_sorted);
  p.set_unique_indices(at.unique_indices);
  if (at.comparison_direction) {
    p.set_comparison_direction(std::string(ComparisonDirectionString(*at.comparison_direction)));
  }
  p.set_comparison_type(at.comparison_type);
  p.set_custom_call_target(at.custom_call_target);
  p.set_backend_config(at.backend_config);
  p.set_custom_call_api_version(at.custom_call_api_version);
  p.set_exponent_bits(at.exponent_bits);
  p.set_mantissa_bits(at.mantissa_bits);
  p.set_is_stable(at.is_stable);
  p.set_fusion_kind(at.fusion_kind);
  for (const std::string& s : at.operand_precision) p.add_operand_precision(s);
  if (at.metadata) *p.mutable_metadata() = *at.metadata;
  for (const auto& [k, v] : at.frontend_attributes) {
    auto* kv = p.add_frontend_attributes();
    kv->set_name(k);
    kv->set_value(v);
  }
  p.set_sharding(at.sharding);
  for (const auto& [k, v] : at.unknown_attributes) {
    auto* kv = p.add_unknown_attributes();
    kv->set_name(k);
    kv->set_value(v);
  }
  for (const std::vector<int64_t>& group : at.replica_groups) {
    ReplicaGroupProto* g = p.add_replica_groups();
    for (int64_t id : group) g->add_replica_ids(id);
  }
  if (at.iota_replica_groups.has_value()) {
    IotaReplicaGroupListProto* iota = p.mutable_iota_replica_group_list();
    iota->set_num_groups(at.iota_replica_groups->num_groups);
    iota->set_group_size(at.iota_replica_groups->group_size);
    for (int64_t d : at.iota_replica_groups->reshape_dims) iota->add_reshape_dims(d);
    for (int64_t d : at.iota_replica_groups->transpose_perm) iota->add_transpose_perm(d);
  }
  if (at.channel_id.has_value()) p.set_channel_id(*at.channel_id);
  p.set_use_global_device_ids(at.use_global_device_ids);
  for (const auto& [source, target] : at.source_target_pairs) {
    SourceTargetPairProto* pair = p.add_source_target_pairs();
    pair->set_source(source);
    pair->set_target(target);
  }
  p.set_constrain_layout(at.constrain_layout);
  return p;
}

}  // namespace aot
