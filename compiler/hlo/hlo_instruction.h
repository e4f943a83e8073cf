#ifndef AOT_COMPILER_HLO_HLO_INSTRUCTION_H_
#define AOT_COMPILER_HLO_HLO_INSTRUCTION_H_

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/status/status.h"
#include "absl/strings/string_view.h"
#include "compiler/hlo/hlo_opcode.h"
#include "compiler/hlo/literal.h"
#include "compiler/hlo/shape.h"
#include "proto/hlo.pb.h"

namespace aot {

class HloComputation;

enum class ComparisonDirection { kEq, kNe, kLt, kLe, kGt, kGe };
absl::string_view ComparisonDirectionString(ComparisonDirection d);  // "EQ"
absl::StatusOr<ComparisonDirection> ParseComparisonDirection(absl::string_view s);

struct SliceSpec {
  int64_t start = 0;
  int64_t limit = 0;
  int64_t stride = 1;
  bool operator==(const SliceSpec&) const = default;
};

// A collective's replica groups in XLA's compact iota form
// "[num_groups,group_size]<=[reshape_dims]T(transpose_perm)": the ids
// 0..prod(reshape_dims)-1 reshaped to reshape_dims, transposed by
// transpose_perm (the identity when empty), flattened and cut into
// num_groups groups of group_size (ExpandIotaReplicaGroupList in
// collective_ops.h).
struct IotaReplicaGroupList {
  int64_t num_groups = 0, group_size = 0;
  std::vector<int64_t> reshape_dims, transpose_perm;
  bool operator==(const IotaReplicaGroupList&) const = default;
};

// Every attribute an instruction may carry. Only those that apply to the
// opcode are meaningful; the verifier checks they are present and sane.
struct HloAttributes {
  std::optional<Literal> literal;   // constant
  bool literal_was_elided = false;  // constant({...}) filled by the parser
  int64_t parameter_number = -1;    // parameter
  int64_t tuple_index = -1;         // get-tuple-element
  // broadcast (operand -> result dims), transpose (permutation), reduce /
  // reverse / sort / concatenate / iota (one dim), reduce-window unused.
  std::vector<int64_t> dimensions;
  std::vector<SliceSpec> slice;  // slice
  std::vector<int64_t> dynamic_slice_sizes;
  std::optional<PaddingConfigProto> padding_config;  // pad
  std::optional<WindowProto> window;  // reduce-window, select-and-scatter, convolution
  std::optional<DotDimensionNumbersProto> dot_dimension_numbers;
  std::optional<ConvolutionDimensionNumbersProto> convolution_dimension_numbers;
  int64_t feature_group_count = 1;
  int64_t batch_group_count = 1;
  std::optional<GatherDimensionNumbersProto> gather_dimension_numbers;
  std::vector<int64_t> gather_slice_sizes;
  std::optional<ScatterDimensionNumbersProto> scatter_dimension_numbers;
  bool indices_are_sorted = false;
  bool unique_indices = false;
  std::optional<ComparisonDirection> comparison_direction;
  std::string comparison_type;  // "", FLOAT, TOTALORDER, SIGNED, UNSIGNED
  std::string custom_call_target;
  std::string backend_config;
  int32_t custom_call_api_version = 0;
  int32_t exponent_bits = 0;  // reduce-precision
  int32_t mantissa_bits = 0;
  bool is_stable = false;   // sort
  std::string fusion_kind;  // fusion: kLoop, kInput, kOutput
  std::vector<std::string> operand_precision;
  std::optional<OpMetadataProto> metadata;
  std::vector<std::pair<std::string, std::string>> frontend_attributes;
  std::string sharding;
  // Collectives. Explicit groups (the iota form is expanded by the parser).
  std::vector<std::vector<int64_t>> replica_groups;
  // The iota form as written ("[2,4]<=[4,2]T(1,0)"), kept for printing.
  std::optional<IotaReplicaGroupList> iota_replica_groups;
  std::optional<int64_t> channel_id;
  bool use_global_device_ids = false;
  std::vector<std::pair<int64_t, int64_t>> source_target_pairs;  // collective-permute
  bool constrain_layout = false;
  // Attributes the front end keeps verbatim but does not interpret
  // (name -> raw text), printed back in order.
  std::vector<std::pair<std::string, std::string>> unknown_attributes;
};

// One HLO instruction. Owned by its HloComputation; operands and called
// computations are non-owning pointers into the same module.
class HloInstruction {
 public:
  static std::unique_ptr<HloInstruction> Create(HloOpcode opcode, Shape shape,
                                                std::vector<HloInstruction*> operands);
  static std::unique_ptr<HloInstruction> CreateParameter(int64_t number, Shape shape,
                                                         std::string name);
  static std::unique_ptr<HloInstruction> CreateConstant(Literal literal);

  HloOpcode opcode() const { return opcode_; }
  const std::string& name() const { return name_; }
  void set_name(std::string name) { name_ = std::move(name); }
  int64_t unique_id() const { return unique_id_; }
  void set_unique_id(int64_t id) { unique_id_ = id; }

  const Shape& shape() const { return shape_; }
  Shape* mutable_shape() { return &shape_; }

  int64_t operand_count() const { return static_cast<int64_t>(operands_.size()); }
  HloInstruction* operand(int64_t i) const { return operands_[i]; }
  const std::vector<HloInstruction*>& operands() const { return operands_; }
  const std::vector<HloInstruction*>& users() const { return users_; }
  int64_t user_count() const { return static_cast<int64_t>(users_.size()); }

  // Replaces operand `i` (user lists are kept consistent).
  void ReplaceOperandWith(int64_t i, HloInstruction* new_operand);
  // Makes every user of this instruction use `other` instead; if this is
  // its computation's root, `other` becomes the root.
  void ReplaceAllUsesWith(HloInstruction* other);
  void AppendOperand(HloInstruction* operand);
  // Removes this instruction from its operands' user lists (before deletion).
  void DetachFromOperands();

  // Called computations, by role:
  //   while: {condition, body}; conditional: branches in order;
  //   select-and-scatter: {select, scatter}; fusion: {fused computation};
  //   call/reduce/reduce-window/scatter/sort/custom-call: {to_apply}.
  const std::vector<HloComputation*>& called_computations() const { return called_computations_; }
  std::vector<HloComputation*>* mutable_called_computations() { return &called_computations_; }
  HloComputation* to_apply() const;
  HloComputation* while_condition() const { return called_computations_[0]; }
  HloComputation* while_body() const { return called_computations_[1]; }

  const HloAttributes& attrs() const { return attrs_; }
  HloAttributes* mutable_attrs() { return &attrs_; }

  // Convenience accessors over attrs().
  const Literal& literal() const { return *attrs_.literal; }
  int64_t parameter_number() const { return attrs_.parameter_number; }
  int64_t tuple_index() const { return attrs_.tuple_index; }
  const std::vector<int64_t>& dimensions() const { return attrs_.dimensions; }

  HloComputation* parent() const { return parent_; }
  void set_parent(HloComputation* parent) { parent_ = parent; }

  // "%name = f32[2]{0} add(f32[2]{0} %a, f32[2]{0} %b), metadata={...}"
  // (operand shapes printed as XLA does; `print_ids=false` drops '%').
  std::string ToString() const;
  // The attribute list alone: "dimensions={0}, to_apply=%add".
  std::string AttributesToString() const;

  HloInstructionProto ToProto() const;

 private:
  HloInstruction(HloOpcode opcode, Shape shape);

  HloOpcode opcode_;
  std::string name_;
  int64_t unique_id_ = -1;
  Shape shape_;
  std::vector<HloInstruction*> operands_;
  std::vector<HloInstruction*> users_;
  std::vector<HloComputation*> called_computations_;
  HloAttributes attrs_;
  HloComputation* parent_ = nullptr;
};

// "instruction 'name' (opcode)": how error messages name an instruction.
std::string DescribeInstruction(const HloInstruction& instruction);
// Unimplemented: "instruction 'name' (opcode): <why>", how the back end
// refuses what it does not compile.
absl::Status UnimplementedInstruction(const HloInstruction& instruction, absl::string_view why);

// Attributes of the opcodes the compiler expands before emission (topk's
// k and largest, batch-norm's epsilon and feature_index) stay verbatim in
// unknown_attributes: they print back as written and never need a field of
// the embedded module's proto, since no artifact holds these opcodes. These
// read one; a missing or malformed value is InvalidArgument naming the
// attribute, or `fallback` where one is given and the attribute is absent.
// The verbatim text of attribute `name`, or null when absent.
const std::string* FindVerbatimAttribute(const HloInstruction& instruction, absl::string_view name);
absl::StatusOr<int64_t> IntAttribute(const HloInstruction& instruction, absl::string_view name);
absl::StatusOr<double> FloatAttribute(const HloInstruction& instruction, absl::string_view name);
absl::StatusOr<bool> BoolAttribute(const HloInstruction& instruction, absl::string_view name,
                                   bool fallback);
// "{1,2,3}" (fft's fft_length).
absl::StatusOr<std::vector<int64_t>> IntListAttribute(const HloInstruction& instruction,
                                                      absl::string_view name);
// A bare word (fft's fft_type=RFFT), one of `allowed`; `fallback` when
// the attribute is absent and a fallback is given.
absl::StatusOr<std::string> EnumAttribute(const HloInstruction& instruction, absl::string_view name,
                                          absl::Span<const absl::string_view> allowed,
                                          std::optional<absl::string_view> fallback = std::nullopt);

// fft's attributes: fft_type (FFT, IFFT, RFFT or IRFFT) and fft_length.
struct FftAttributes {
  std::string type;
  std::vector<int64_t> length;
};
absl::StatusOr<FftAttributes> ReadFftAttributes(const HloInstruction& fft);
// triangular-solve's attributes, XLA's defaults where absent (false,
// NO_TRANSPOSE); transpose_a is NO_TRANSPOSE, TRANSPOSE or ADJOINT.
struct TriangularSolveAttributes {
  bool left_side = false;
  bool lower = false;
  bool unit_diagonal = false;
  std::string transpose_a = "NO_TRANSPOSE";
};
absl::StatusOr<TriangularSolveAttributes> ReadTriangularSolveAttributes(
    const HloInstruction& solve);
// The attributes a triangular-solve instruction carries for `a` (what
// ReadTriangularSolveAttributes reads back).
std::vector<std::pair<std::string, std::string>> TriangularSolveAttributeList(
    const TriangularSolveAttributes& a);
// rng-bit-generator's algorithm (algorithm=rng_default, rng_three_fry or
// rng_philox; XLA's default where absent). The default is Philox, as on
// XLA's CPU and GPU back ends.
enum class RngAlgorithm { kPhilox, kThreefry };
absl::StatusOr<RngAlgorithm> ReadRngAlgorithm(const HloInstruction& rng);
// rng's distribution=rng_uniform (values in [a, b)) or rng_normal (mean a,
// standard deviation b); XLA requires it.
enum class RngDistribution { kUniform, kNormal };
absl::StatusOr<RngDistribution> ReadRngDistribution(const HloInstruction& rng);
// The random values behind rng's result of `shape`: one per element, two
// for rng_normal (Box-Muller turns two uniforms into one normal value).
// Each is an unsigned integer of RngBitsType's width drawn by
// rng-bit-generator; RngStateAdvance is how many 4-word Philox blocks they
// take, which is how far the call advances the executable's state.
int64_t RngDraws(RngDistribution distribution, const Shape& shape);
// u64 for f64 and 64-bit integers, u32 for the other floats, the unsigned
// type of the width for 8- to 32-bit integers.
PrimitiveType RngBitsType(PrimitiveType type);
int64_t RngStateAdvance(RngDistribution distribution, const Shape& shape);
// How a computation's rng draws share the state: one take for all of them,
// advancing it by `advance` (the sum of their RngStateAdvance); each draw at
// `offsets[draw]` blocks past the take (the advances of the draws defined
// before it). `instructions` are the computation's, in definition order. An
// rng without a valid distribution is InvalidArgument naming it.
struct RngTake {
  int64_t advance = 0;
  absl::flat_hash_map<const HloInstruction*, int64_t> offsets;
};
absl::StatusOr<RngTake> RngTakeOf(const std::vector<HloInstruction*>& instructions);
// rng-get-and-update-state's delta=N: how far the call advances the state
// (XLA requires it; a negative delta is refused).
absl::StatusOr<int64_t> ReadRngDelta(const HloInstruction& get_and_update);
// ragged-dot's own attributes beside the dot dimension numbers:
// lhs_ragged_dims={d} (one lhs dimension) and rhs_group_dims={g} (at most
// one rhs dimension; absent when the ragged dimension contracts or is a
// batch dimension).
// Derived once for the shape inference, the interpreter and the
// expansion: the dimension numbers of one group's dot (rhs without g, so
// rhs contracting and batch dimensions past g shift down by one; the dot's
// own without a group dimension) and, for a free ragged dimension, its
// position among the result's dimensions (batch dimensions, then lhs's
// free ones).
struct RaggedDotAttributes {
  int64_t lhs_ragged = 0;
  std::optional<int64_t> rhs_group;
  DotDimensionNumbersProto group_dot_dimension_numbers;
  int64_t result_ragged_dimension = 0;
};
absl::StatusOr<RaggedDotAttributes> ReadRaggedDotAttributes(const HloInstruction& ragged_dot);

// scan's attributes: dimensions={d}, the dimension every input is scanned
// along; num_carries=n, the number of carries (the last n operands are
// their initial values, the last n results their final values);
// is_reverse, from the last index down (false when absent).
// is_associative is a hint this compiler does not need; it stays verbatim.
struct ScanAttributes {
  int64_t dimension = 0;
  int64_t num_carries = 0;
  bool is_reverse = false;
};
absl::StatusOr<ScanAttributes> ReadScanAttributes(const HloInstruction& scan);

// "{0,1}" style list.
std::string DimsToString(const std::vector<int64_t>& dims);
// "size=3x3 stride=2x2 pad=1_1x1_1 ..." (XLA's window syntax).
std::string WindowToString(const WindowProto& window);
// "b01f_01io->b01f".
std::string ConvolutionDimensionNumbersToString(const ConvolutionDimensionNumbersProto& dnums);
// "0_0x1_1_2" per dimension: low_high[_interior].
std::string PaddingConfigToString(const PaddingConfigProto& padding);
// "{{0,1},{2,3}}" ("{}" when there are none).
std::string ReplicaGroupsToString(const std::vector<std::vector<int64_t>>& groups);
// "[2,4]<=[4,2]T(1,0)" ("T(...)" only when a permutation was given).
std::string IotaReplicaGroupListToString(const IotaReplicaGroupList& iota);

}  // namespace aot

#endif  // AOT_COMPILER_HLO_HLO_INSTRUCTION_H_
