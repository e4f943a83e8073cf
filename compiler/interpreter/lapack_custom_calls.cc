// The interpreter's references for JAX's CPU LAPACK custom calls: the
// runtime's handlers (runtime/ffi/lapack_handlers.h) on the operands'
// values. A literal holds its values in row-major logical order whatever
// its layout, so each one goes to the handler as a row-major buffer and
// each result comes back in the instruction's shape (its layout set, its
// values logical).
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "compiler/hlo/ffi_attributes.h"
#include "compiler/interpreter/custom_call_registry.h"
#include "runtime/ffi/lapack_handlers.h"
#include "support/status_macros.h"

namespace aot {
namespace {

// `shape`'s type and dimensions in the default (row-major) layout.
ShapeProto RowMajor(const Shape& shape) {
  ShapeProto proto;
  proto.set_element_type(shape.element_type());
  for (int64_t d : shape.dimensions()) proto.add_dimensions(d);
  return proto;
}

absl::StatusOr<Literal> RunLapack(const FfiHandler& handler,
                                  absl::Span<const Literal* const> operands,
                                  const HloInstruction& instruction) {
  const std::string& target = instruction.attrs().custom_call_target;
  AOT_ASSIGN_OR_RETURN(std::vector<CustomCallAttributeProto> parsed,
                       ParseFfiAttributes(instruction.attrs().backend_config));
  google::protobuf::RepeatedPtrField<CustomCallAttributeProto> attributes(parsed.begin(),
                                                                          parsed.end());
  const Shape& shape = instruction.shape();
  for (const Shape& element : shape.IsTuple() ? shape.tuple_shapes() : std::vector<Shape>{}) {
    if (!element.IsArray()) {
      return absl::InvalidArgumentError(
          absl::StrCat(target, ": results must be arrays, got ", shape.ToString(false)));
    }
  }
  std::vector<Shape> result_shapes =
      shape.IsTuple() ? shape.tuple_shapes() : std::vector<Shape>{shape};
  std::vector<ShapeProto> protos;
  protos.reserve(operands.size() + result_shapes.size());
  FfiCallFrame frame;
  for (const Literal* op : operands) {
    if (!op->shape().IsArray()) {
      return absl::InvalidArgumentError(
          absl::StrCat(target, ": operands must be arrays, got ", op->shape().ToString(false)));
    }
    protos.push_back(RowMajor(op->shape()));
    // The handlers only read operands.
    frame.operands.push_back(FfiBuffer{const_cast<uint8_t*>(op->raw().data()), &protos.back()});
  }
  std::vector<Literal> results;
  results.reserve(result_shapes.size());
  for (const Shape& s : result_shapes) {
    results.emplace_back(s);
    protos.push_back(RowMajor(s));
    frame.results.push_back(FfiBuffer{results.back().raw_data(), &protos.back()});
  }
  frame.attributes = &attributes;
  AOT_RETURN_IF_ERROR(handler(frame));
  if (!shape.IsTuple()) return std::move(results[0]);
  return Literal::Tuple(std::move(results));
}

}  // namespace

absl::Status RegisterLapackCustomCalls(CustomCallRegistry& registry) {
  for (const std::string& target : LapackFfiTargets()) {
    const FfiHandler* handler = FindLapackFfiHandler(target);
    AOT_RETURN_IF_ERROR(registry.Register(
        target,
        [handler](absl::Span<const Literal* const> operands, const HloInstruction& instruction) {
          return RunLapack(*handler, operands, instruction);
        },
        /*takes_complex=*/true));
  }
  return absl::OkStatus();
}

}  // namespace aot
