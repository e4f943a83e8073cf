#include "compiler/backend/embedded_constants.h"

#include <map>
#include <string>

#include "absl/strings/str_cat.h"
#include "compiler/hlo/literal.h"
#include "compiler/hlo/shape.h"
#include "runtime/shape_util.h"
#include "support/status_macros.h"

namespace aot {
namespace {

// Whether the literal holds a shape and no elements.
bool HoldsOnlyItsShape(const LiteralProto& literal) {
  LiteralProto data = literal;
  data.clear_shape();
  return literal.has_shape() && data.ByteSizeLong() == 0;
}

template <typename F>
void ForEachConstantInstruction(HloModuleProto* module, F f) {
  for (HloComputationProto& c : *module->mutable_computations()) {
    for (HloInstructionProto& i : *c.mutable_instructions()) {
      if (i.opcode() == "constant" && i.has_literal()) f(i);
    }
  }
}

}  // namespace

void ElideEmbeddedConstantPayloads(ExecutableProto* executable) {
  std::map<std::string, const ConstantProto*> stored;
  for (const ConstantProto& c : executable->constants()) stored.emplace(c.name(), &c);
  ForEachConstantInstruction(executable->mutable_hlo_module()->mutable_hlo_module(),
                             [&](HloInstructionProto& i) {
                               auto it = stored.find(i.name());
                               const ShapeProto& shape = i.literal().shape();
                               if (it == stored.end() || !runtime_shape::IsArray(shape) ||
                                   it->second->size() < kElidedConstantBytes ||
                                   it->second->size() != runtime_shape::ByteSize(shape)) {
                                 return;
                               }
                               LiteralProto only_shape;
                               *only_shape.mutable_shape() = shape;
                               *i.mutable_literal() = std::move(only_shape);
                             });
}

absl::Status RestoreEmbeddedConstantPayloads(const ExecutableProto& executable,
                                             HloModuleProto* module) {
  std::map<std::string, const ConstantProto*> stored;
  for (const ConstantProto& c : executable.constants()) stored.emplace(c.name(), &c);
  const std::string& binary = executable.binary();
  absl::Status status;
  ForEachConstantInstruction(module, [&](HloInstructionProto& i) {
    if (!status.ok() || !HoldsOnlyItsShape(i.literal())) return;
    const ShapeProto& shape = i.literal().shape();
    const int64_t bytes = runtime_shape::ByteSize(shape);
    if (bytes == 0) return;
    auto it = stored.find(i.name());
    const ConstantProto* c = it == stored.end() ? nullptr : it->second;
    if (c == nullptr || !runtime_shape::IsArray(shape) || c->size() != bytes ||
        c->binary_offset() < 0 ||
        c->binary_offset() > static_cast<int64_t>(binary.size()) - bytes) {
      status = absl::InvalidArgumentError(
          absl::StrCat("embedded HLO constant '", i.name(),
                       "' has no elements and no constant of its size in binary"));
      return;
    }
    auto literal_shape = Shape::FromProto(shape);
    if (!literal_shape.ok()) {
      status = literal_shape.status();
      return;
    }
    Literal literal(*literal_shape);
    runtime_shape::PhysicalToLogical(
        shape, reinterpret_cast<const uint8_t*>(binary.data() + c->binary_offset()),
        literal.raw_data());
    *i.mutable_literal() = literal.ToProto();
  });
  return status;
}

}  // namespace aot
