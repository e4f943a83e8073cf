#include "compiler/tooling/literal_execution.h"

#include <cmath>
#include <cstring>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "runtime/shape_util.h"
#include "support/status_macros.h"

namespace aot {

absl::StatusOr<Literal> ExecuteWithLiterals(const Executable& executable,
                                            absl::Span<const Literal> hlo_arguments) {
  // The executable takes tuple-typed parameters as their leaves.
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
  std::vector<std::vector<uint8_t>> physical(arguments.size());
  std::vector<absl::Span<const uint8_t>> spans;
  for (size_t i = 0; i < arguments.size(); ++i) {
    const ShapeProto& shape = params[i].shape();
    int64_t bytes = runtime_shape::ByteSize(shape);
    if (!arguments[i]->shape().IsArray() ||
        arguments[i]->shape().dimensions() !=
            std::vector<int64_t>(shape.dimensions().begin(), shape.dimensions().end()) ||
        arguments[i]->shape().element_type() != shape.element_type()) {
      return absl::InvalidArgumentError(
          absl::StrCat("argument ", i, " has shape ", arguments[i]->shape().ToString(),
                       ", parameter ", i, " is ", runtime_shape::ToString(shape)));
    }
    physical[i].resize(static_cast<size_t>(bytes));
    if (bytes > 0) {
      runtime_shape::LogicalToPhysical(shape, arguments[i]->raw().data(), physical[i].data());
    }
    spans.emplace_back(physical[i].data(), physical[i].size());
  }
  AOT_ASSIGN_OR_RETURN(auto results, executable.Execute(spans));
  const EntryResultProto& result = executable.result();
  std::vector<Literal> leaves;
  for (int i = 0; i < result.leaves_size(); ++i) {
    AOT_ASSIGN_OR_RETURN(auto shape, Shape::FromProto(result.leaves(i).shape()));
    Literal leaf(shape);
    if (!results[i].empty()) {
      runtime_shape::PhysicalToLogical(result.leaves(i).shape(), results[i].data(),
                                       leaf.raw_data());
    }
    leaves.push_back(std::move(leaf));
  }
  // Rebuild the result's tuple structure.
  AOT_ASSIGN_OR_RETURN(auto shape, Shape::FromProto(result.shape()));
  size_t next = 0;
  std::function<Literal(const Shape&)> build = [&](const Shape& s) -> Literal {
    if (!s.IsTuple()) return std::move(leaves[next++]);
    std::vector<Literal> elements;
    for (const Shape& e : s.tuple_shapes()) elements.push_back(build(e));
    return Literal::Tuple(std::move(elements));
  };
  return build(shape);
}

Tolerance DefaultTolerance(PrimitiveType type) {
  switch (type) {
    case F64:
      return {1e-9, 1e-9};
    case F32:
      return {1e-5, 1e-4};
    case F16:
      return {1e-3, 1e-2};
    case BF16:
      return {1e-2, 2e-2};
    default:
      return {0, 0};
  }
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
  for (int64_t i = 0; i < n; ++i) {
    bool ok;
    if (IsFloatingPoint(type) && !tol.bitwise()) {
      double e = expected.GetAsDouble(i), a = actual.GetAsDouble(i);
      if (std::isnan(e) || std::isnan(a)) {
        ok = std::isnan(e) && std::isnan(a);
      } else if (std::isinf(e) || std::isinf(a)) {
        ok = e == a;
      } else {
        ok = std::fabs(e - a) <= tol.atol + tol.rtol * std::fabs(e);
      }
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

}  // namespace aot
