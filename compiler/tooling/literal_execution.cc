#include "compiler/tooling/literal_execution.h"

#include <algorithm>
#include <cmath>
#include <complex>
#include <cstdlib>
#include <cstring>
#include <functional>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "runtime/executable/replicated_execution.h"
#include "runtime/shape_util.h"
#include "support/status_macros.h"

namespace aot {

namespace {

// The executable takes tuple-typed parameters as their leaves (depth-first);
// each leaf must have its parameter's dimensions and element type.
absl::StatusOr<std::vector<const Literal*>> ArgumentLeaves(
    const Executable& executable, absl::Span<const Literal> hlo_arguments) {
  std::vector<const Literal*> arguments;
  for (const Literal& argument : hlo_arguments) {
    std::vector<const Literal*> leaves = argument.Leaves();
    arguments.insert(arguments.end(), leaves.begin(), leaves.end());
  }
  const auto& params = executable.parameters();
  if (arguments.size() != params.size()) {
    return absl::InvalidArgumentError(
        absl::StrCat("executable takes ", params.size(), " arguments, got ", arguments.size()));
  }
  for (size_t i = 0; i < arguments.size(); ++i) {
    const ShapeProto& shape = params[i].shape();
    if (!arguments[i]->shape().IsArray() ||
        arguments[i]->shape().dimensions() !=
            std::vector<int64_t>(shape.dimensions().begin(), shape.dimensions().end()) ||
        arguments[i]->shape().element_type() != shape.element_type()) {
      return absl::InvalidArgumentError(
          absl::StrCat("argument ", i, " has shape ", arguments[i]->shape().ToString(),
                       ", parameter ", i, " is ", runtime_shape::ToString(shape)));
    }
  }
  return arguments;
}

// The result Literal from its leaves (depth-first), rebuilt into the
// result's tuple structure.
absl::StatusOr<Literal> AssembleResult(const EntryResultProto& result,
                                       std::vector<Literal> leaves) {
  AOT_ASSIGN_OR_RETURN(Shape structure, Shape::FromProto(result.shape()));
  size_t next = 0;
  std::function<Literal(const Shape&)> build = [&](const Shape& s) -> Literal {
    if (!s.IsTuple()) return std::move(leaves[next++]);
    std::vector<Literal> elements;
    for (const Shape& e : s.tuple_shapes()) elements.push_back(build(e));
    return Literal::Tuple(std::move(elements));
  };
  return build(structure);
}

}  // namespace

absl::StatusOr<Literal> ExecuteWithLiterals(const Executable& executable,
                                            absl::Span<const Literal> hlo_arguments,
                                            const ExecuteOptions& options) {
  AOT_ASSIGN_OR_RETURN(std::vector<const Literal*> arguments,
                       ArgumentLeaves(executable, hlo_arguments));
  const auto& params = executable.parameters();
  // Arguments and results in the default layout, unpacked, are passed as the
  // literals' own bytes (the runtime reads aligned arguments in place and
  // writes results straight into the leaves); other layouts are converted.
  std::vector<std::vector<uint8_t>> physical(arguments.size());
  std::vector<absl::Span<const uint8_t>> spans;
  for (size_t i = 0; i < arguments.size(); ++i) {
    const ShapeProto& shape = params[i].shape();
    int64_t bytes = runtime_shape::ByteSize(shape);
    if (runtime_shape::PhysicalIsLogical(shape)) {
      spans.emplace_back(arguments[i]->raw().data(), static_cast<size_t>(bytes));
      continue;
    }
    physical[i].resize(static_cast<size_t>(bytes));
    if (bytes > 0) {
      runtime_shape::LogicalToPhysical(shape, arguments[i]->raw().data(), physical[i].data());
    }
    spans.emplace_back(physical[i].data(), physical[i].size());
  }
  const EntryResultProto& result = executable.result();
  std::vector<Literal> leaves;
  leaves.reserve(result.leaves_size());  // result_spans point into them
  std::vector<std::vector<uint8_t>> physical_results(result.leaves_size());
  std::vector<absl::Span<uint8_t>> result_spans;
  for (int i = 0; i < result.leaves_size(); ++i) {
    AOT_ASSIGN_OR_RETURN(auto shape, Shape::FromProto(result.leaves(i).shape()));
    leaves.emplace_back(shape);
    const size_t bytes = static_cast<size_t>(result.leaves(i).slice().size());
    if (runtime_shape::PhysicalIsLogical(result.leaves(i).shape())) {
      result_spans.emplace_back(leaves.back().raw_data(), bytes);
    } else {
      physical_results[i].resize(bytes);
      result_spans.emplace_back(absl::MakeSpan(physical_results[i]));
    }
  }
  AOT_RETURN_IF_ERROR(executable.ExecuteInto(spans, result_spans, options));
  for (int i = 0; i < result.leaves_size(); ++i) {
    if (!physical_results[i].empty()) {
      runtime_shape::PhysicalToLogical(result.leaves(i).shape(), physical_results[i].data(),
                                       leaves[i].raw_data());
    }
  }
  return AssembleResult(result, std::move(leaves));
}

namespace {

// The executable's parameter leaf `flat` when it is packed and the module
// takes it as a u8 buffer (`module_leaf`); nullptr otherwise.
const ShapeProto* PackedLeafTakenAsBytes(const Executable& executable, size_t flat,
                                         const Shape& module_leaf) {
  if (flat >= executable.parameters().size() || module_leaf.element_type() != U8) return nullptr;
  const ShapeProto& shape = executable.parameters()[flat].shape();
  return runtime_shape::PackedBits(shape) > 0 ? &shape : nullptr;
}

// `shape` (the module's, leaves from `*flat` on) with each packed leaf it
// takes as bytes replaced by the executable's shape.
void ReplaceByteLeaves(const Executable& executable, Shape* shape, size_t* flat) {
  if (shape->IsTuple()) {
    for (Shape& element : *shape->mutable_tuple_shapes()) {
      ReplaceByteLeaves(executable, &element, flat);
    }
    return;
  }
  if (const ShapeProto* packed = PackedLeafTakenAsBytes(executable, *flat, *shape)) {
    if (auto logical = Shape::FromProto(*packed); logical.ok()) *shape = *std::move(logical);
  }
  ++*flat;
}

// `argument` in the module's form (`module_shape`): each packed leaf the
// module takes as bytes becomes its packed u8 buffer.
absl::StatusOr<Literal> ToModuleForm(const Executable& executable, const Literal& argument,
                                     const Shape& module_shape, size_t* flat) {
  if (argument.shape().IsTuple()) {
    std::vector<Literal> elements;
    for (size_t i = 0; i < argument.tuple_elements().size(); ++i) {
      const Shape& element_shape = module_shape.IsTuple() && i < module_shape.tuple_shapes().size()
                                       ? module_shape.tuple_shapes(i)
                                       : argument.tuple_element(i).shape();
      AOT_ASSIGN_OR_RETURN(Literal element, ToModuleForm(executable, argument.tuple_element(i),
                                                         element_shape, flat));
      elements.push_back(std::move(element));
    }
    return Literal::Tuple(std::move(elements));
  }
  const size_t leaf = (*flat)++;
  const ShapeProto* packed = PackedLeafTakenAsBytes(executable, leaf, module_shape);
  if (packed == nullptr || argument.shape().element_type() == U8) return argument;
  if (runtime_shape::ElementCount(*packed) != argument.shape().ElementCount()) {
    return absl::InvalidArgumentError(absl::StrCat("argument ", leaf, " has shape ",
                                                   argument.shape().ToString(), ", parameter ",
                                                   leaf, " is ", runtime_shape::ToString(*packed)));
  }
  Literal bytes(Shape(U8, {runtime_shape::ByteSize(*packed)}));
  runtime_shape::LogicalToPhysical(*packed, argument.raw().data(), bytes.raw_data());
  return bytes;
}

}  // namespace

std::vector<Shape> LogicalParameterShapes(const Executable& executable,
                                          std::vector<Shape> module_parameters) {
  size_t flat = 0;
  for (Shape& shape : module_parameters) ReplaceByteLeaves(executable, &shape, &flat);
  return module_parameters;
}

absl::StatusOr<std::vector<Literal>> ToEmbeddedModuleArguments(
    const Executable& executable, const HloModule& module, absl::Span<const Literal> arguments) {
  std::vector<Literal> out;
  const std::vector<Shape> module_parameters = module.EntryProgramShape().parameters;
  size_t flat = 0;
  for (size_t i = 0; i < arguments.size(); ++i) {
    const Shape& module_shape =
        i < module_parameters.size() ? module_parameters[i] : arguments[i].shape();
    AOT_ASSIGN_OR_RETURN(Literal converted,
                         ToModuleForm(executable, arguments[i], module_shape, &flat));
    out.push_back(std::move(converted));
  }
  return out;
}

absl::StatusOr<Literal> FromEmbeddedModuleResult(const Executable& executable, Literal result) {
  const EntryResultProto& proto = executable.result();
  bool packed = false;
  for (const OutputLeafProto& leaf : proto.leaves()) {
    packed |= runtime_shape::PackedBits(leaf.shape()) > 0;
  }
  if (!packed) return result;
  std::vector<Literal> leaves = result.FlattenLeaves();
  if (leaves.size() != static_cast<size_t>(proto.leaves_size())) {
    return absl::InvalidArgumentError(absl::StrCat("the embedded module's result has ",
                                                   leaves.size(), " leaves, the executable's ",
                                                   proto.leaves_size()));
  }
  for (int i = 0; i < proto.leaves_size(); ++i) {
    const ShapeProto& shape = proto.leaves(i).shape();
    // Only a leaf the module returned as its u8 buffer.
    if (runtime_shape::PackedBits(shape) == 0 || leaves[i].shape().element_type() != U8) continue;
    if (static_cast<int64_t>(leaves[i].raw().size()) != runtime_shape::ByteSize(shape)) {
      return absl::InvalidArgumentError(
          absl::StrCat("the embedded module's result leaf ", i, " (", leaves[i].shape().ToString(),
                       ") is not the buffer of ", runtime_shape::ToString(shape)));
    }
    AOT_ASSIGN_OR_RETURN(Shape logical, Shape::FromProto(shape));
    Literal value(logical);
    runtime_shape::PhysicalToLogical(shape, leaves[i].raw().data(), value.raw_data());
    leaves[i] = std::move(value);
  }
  return AssembleResult(proto, std::move(leaves));
}

void PreparedExecution::AlignedFree::operator()(uint8_t* p) const { std::free(p); }

PreparedExecution::Buffer PreparedExecution::Allocate(size_t bytes) {
  size_t rounded = std::max<size_t>(64, (bytes + 63) / 64 * 64);
  return Buffer(static_cast<uint8_t*>(std::aligned_alloc(64, rounded)));
}

absl::StatusOr<PreparedExecution> PreparedExecution::Create(const Executable& executable,
                                                            absl::Span<const Literal> arguments) {
  PreparedExecution prepared;
  prepared.executable_ = &executable;
  AOT_ASSIGN_OR_RETURN(std::vector<const Literal*> leaves, ArgumentLeaves(executable, arguments));
  const auto& params = executable.parameters();
  for (size_t i = 0; i < leaves.size(); ++i) {
    const ShapeProto& shape = params[i].shape();
    const size_t bytes = static_cast<size_t>(runtime_shape::ByteSize(shape));
    Buffer buffer = Allocate(bytes);
    if (buffer == nullptr) return absl::ResourceExhaustedError("cannot allocate an argument");
    if (bytes > 0) runtime_shape::LogicalToPhysical(shape, leaves[i]->raw().data(), buffer.get());
    prepared.arguments_.emplace_back(buffer.get(), bytes);
    prepared.storage_.push_back(std::move(buffer));
  }
  for (const OutputLeafProto& leaf : executable.result().leaves()) {
    const size_t bytes = static_cast<size_t>(leaf.slice().size());
    Buffer buffer = Allocate(bytes);
    if (buffer == nullptr) return absl::ResourceExhaustedError("cannot allocate a result");
    prepared.results_.emplace_back(buffer.get(), bytes);
    prepared.storage_.push_back(std::move(buffer));
  }
  return prepared;
}

absl::Status PreparedExecution::Run(const ExecuteOptions& options) {
  return executable_->ExecuteInto(arguments_, results_, options);
}

Tolerance DefaultTolerance(PrimitiveType type) {
  switch (type) {
    case F64:
    case C128:  // each part
      return {1e-9, 1e-9};
    case F32:
    case C64:
      return {1e-5, 1e-4};
    case F16:
      return {1e-3, 1e-2};
    case BF16:
      return {1e-2, 2e-2};
    default:
      break;
  }
  if (const MinifloatFormat* f = NarrowFloatFormat(type)) {
    // One step of the format: a value computed in f32 that differs in its
    // last bits (a sum in another order) may round to the neighbouring
    // code. The smallest step absolutely, one mantissa step relatively.
    const int smallest = f->specials == MinifloatFormat::Specials::kExponentOnly
                             ? -f->bias
                             : 1 - f->bias - f->mantissa_bits;
    return {std::ldexp(1.0, smallest), std::ldexp(1.0, -f->mantissa_bits)};
  }
  return {0, 0};
}

namespace {

absl::Status CompareLeaf(const Literal& expected, const Literal& actual, const Tolerance* fixed,
                         const std::string& where) {
  if (!expected.shape().Compatible(actual.shape())) {
    return absl::InvalidArgumentError(absl::StrCat(where, "shape ", actual.shape().ToString(),
                                                   ", expected ", expected.shape().ToString()));
  }
  PrimitiveType type = expected.shape().element_type();
  Tolerance tol = fixed != nullptr ? *fixed : DefaultTolerance(type);
  int64_t n = expected.element_count();
  int64_t mismatches = 0;
  std::string first;
  auto close = [&](double e, double a) {
    if (std::isnan(e) || std::isnan(a)) return std::isnan(e) && std::isnan(a);
    if (std::isinf(e) || std::isinf(a)) return e == a;
    return std::fabs(e - a) <= tol.atol + tol.rtol * std::fabs(e);
  };
  for (int64_t i = 0; i < n; ++i) {
    bool ok;
    if (IsComplex(type) && !tol.bitwise()) {  // each part within the tolerance
      const std::complex<double> e = expected.GetAsComplex(i), a = actual.GetAsComplex(i);
      ok = close(e.real(), a.real()) && close(e.imag(), a.imag());
      if (!ok && first.empty()) {
        const PrimitiveType part = ComplexComponentType(type);
        first = absl::StrCat("element ", i, ": (", FormatFloat(a.real(), part), ", ",
                             FormatFloat(a.imag(), part), ") vs expected (",
                             FormatFloat(e.real(), part), ", ", FormatFloat(e.imag(), part), ")");
      }
    } else if (IsFloatingPoint(type) && !tol.bitwise()) {
      double e = expected.GetAsDouble(i), a = actual.GetAsDouble(i);
      ok = close(e, a);
      if (!ok && first.empty()) {
        first = absl::StrCat("element ", i, ": ", FormatFloat(a, type), " vs expected ",
                             FormatFloat(e, type));
      }
    } else {
      int64_t width = ByteWidth(type);
      ok = std::memcmp(expected.raw().data() + i * width, actual.raw().data() + i * width,
                       static_cast<size_t>(width)) == 0;
      if (IsFloatingPoint(type) && !ok) {
        double e = expected.GetAsDouble(i), a = actual.GetAsDouble(i);
        ok = std::isnan(e) && std::isnan(a);
      }
      if (!ok && first.empty()) {
        first = absl::StrCat("element ", i, ": ", actual.GetAsInt64(i), " vs expected ",
                             expected.GetAsInt64(i));
      }
    }
    if (!ok) ++mismatches;
  }
  if (mismatches == 0) return absl::OkStatus();
  return absl::InvalidArgumentError(
      absl::StrCat(where, mismatches, " of ", n, " elements differ; first at ", first));
}

absl::Status Compare(const Literal& expected, const Literal& actual, const Tolerance* tol,
                     const std::string& where) {
  if (expected.shape().IsTuple() != actual.shape().IsTuple()) {
    return absl::InvalidArgumentError(absl::StrCat(where, "tuple structure differs"));
  }
  if (expected.shape().IsTuple()) {
    if (expected.tuple_elements().size() != actual.tuple_elements().size()) {
      return absl::InvalidArgumentError(absl::StrCat(where, "tuple arity differs"));
    }
    for (size_t i = 0; i < expected.tuple_elements().size(); ++i) {
      AOT_RETURN_IF_ERROR(Compare(expected.tuple_element(i), actual.tuple_element(i), tol,
                                  absl::StrCat(where, "{", i, "} ")));
    }
    return absl::OkStatus();
  }
  return CompareLeaf(expected, actual, tol, where);
}

}  // namespace

absl::Status CompareLiterals(const Literal& expected, const Literal& actual,
                             const Tolerance& tolerance) {
  return Compare(expected, actual, &tolerance, "");
}

absl::Status CompareLiteralsWithDefaultTolerance(const Literal& expected, const Literal& actual) {
  return Compare(expected, actual, nullptr, "");
}

absl::StatusOr<std::vector<Literal>> ExecuteReplicatedWithLiterals(
    absl::Span<const Executable* const> executables,
    absl::Span<const std::vector<Literal>> arguments, absl::Duration collective_timeout) {
  AOT_ASSIGN_OR_RETURN(const int64_t participants, ParticipantCount(executables));
  const Executable& first = *executables[0];
  if (static_cast<int64_t>(arguments.size()) != participants) {
    return absl::InvalidArgumentError(absl::StrCat("the executable runs on ", participants,
                                                   " replicas, got arguments for ",
                                                   arguments.size()));
  }
  std::vector<Literal> results(participants);
  ReplicatedExecuteOptions options;
  options.collective_timeout = collective_timeout;
  AOT_RETURN_IF_ERROR(RunParticipants(
      first, options, [&](int64_t p, const ExecuteOptions& execute) -> absl::Status {
        const Executable& executable = *executables[executables.size() == 1 ? 0 : p];
        AOT_ASSIGN_OR_RETURN(results[p], ExecuteWithLiterals(executable, arguments[p], execute));
        return absl::OkStatus();
      }));
  return results;
}

}  // namespace aot
