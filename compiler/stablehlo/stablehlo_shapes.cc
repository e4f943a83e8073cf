// Shapes and refinement: dynamic shapes, dimension sizes, result types
// refined from operands.
#include "compiler/stablehlo/stablehlo_to_hlo_internal.h"

namespace aot::stablehlo {
namespace convert_internal {

absl::StatusOr<MlirOperation> Converter::RefineResultTypes(const MlirOperation& op,
                                                           const std::vector<Value>& in) {
  MlirOperation refined = op;
  std::vector<MlirType>& types = op.has_function_type ? refined.result_types : refined.types;
  absl::string_view name = op.name;
  name = absl::StripPrefix(name, "stablehlo.");
  // The operand that holds the result's sizes, for the dynamic ops.
  int shape_operand = -1;
  if (name == "dynamic_broadcast_in_dim" || name == "dynamic_reshape") shape_operand = 1;
  if (name == "dynamic_iota") shape_operand = 0;
  for (size_t r = 0; r < types.size(); ++r) {
    MlirType& t = types[r];
    if (!HasUnboundedDimension(t)) continue;
    if (shape_operand >= 0 && static_cast<size_t>(shape_operand) < in.size() &&
        in[shape_operand].values.size() == t.dimensions.size()) {
      t.dimensions = in[shape_operand].values;
    } else {
      // Same-shape operations: the first operand of the result's rank with
      // static sizes gives them.
      bool found = false;
      for (const Value& v : in) {
        if (v.type.kind == MlirType::kTensor && v.type.dimensions.size() == t.dimensions.size() &&
            !HasUnboundedDimension(v.type)) {
          bool agrees = true;
          for (size_t d = 0; d < t.dimensions.size(); ++d) {
            agrees &= t.dimensions[d] < 0 || t.dimensions[d] == v.type.dimensions[d];
          }
          if (!agrees) continue;
          t.dimensions = v.type.dimensions;
          t.bounds = v.type.bounds;
          found = true;
          break;
        }
      }
      if (!found) {
        return OpError(op, absl::StrCat("result ", r, " has unbounded dynamic dimensions (", t.text,
                                        ") whose sizes are not known here: give bounds with "
                                        "#stablehlo.bounds<...> or make the sizes constants"));
      }
    }
    t.bounds.assign(t.dimensions.size(), -1);
    t.text = "";
  }
  return refined;
}

absl::Status Converter::ConvertRefined(const MlirOperation& op, const std::vector<Value>& in) {
  std::vector<Value> results;
  absl::string_view name = op.name;
  if (name == "func.call" || name == "call" || name == "stablehlo.composite") {
    std::string callee;
    for (const MlirAttr& p : op.positional) {
      if (p.kind == MlirAttr::kSymbol) callee = p.s;
    }
    if (name == "stablehlo.composite") {
      const MlirAttr* d = Attr(op, {"decomposition"});
      if (d == nullptr || d->kind != MlirAttr::kSymbol) {
        return OpError(op, "missing decomposition = @function");
      }
      callee = d->s;
    }
    if (callee.empty()) {
      if (const MlirAttr* c = Attr(op, {"callee"})) callee = c->s;
    }
    auto fn = functions_.find(callee);
    if (fn == functions_.end())
      return OpError(op, absl::StrCat("call of unknown function @", callee));
    if (fn->second->arguments.size() != in.size()) {
      return OpError(op, absl::StrCat("@", callee, " takes ", fn->second->arguments.size(),
                                      " argument(s); the call passes ", in.size()));
    }
    AOT_ASSIGN_OR_RETURN(std::string comp, ConvertFunction(*fn->second, /*entry=*/false));
    origin_ = absl::StrCat(Where(op.loc), " (", op.name, ")");
    const std::vector<MlirType>& types = fn->second->results;
    AOT_ASSIGN_OR_RETURN(results,
                         EmitResults(types, callee, "call", in, absl::StrCat("to_apply=%", comp)));
  } else if (absl::ConsumePrefix(&name, "stablehlo.") || absl::ConsumePrefix(&name, "mhlo.")) {
    AOT_ASSIGN_OR_RETURN(results, ConvertStablehlo(op, in, name));
  } else if (absl::ConsumePrefix(&name, "chlo.")) {
    AOT_ASSIGN_OR_RETURN(results, ConvertChlo(op, in, name));
  } else if (absl::ConsumePrefix(&name, "check.")) {
    AOT_RETURN_IF_ERROR(ConvertCheck(op, in, name, &results));
  } else {
    return OpError(op, "unknown operation");
  }
  return DefineResults(op, results);
}

absl::StatusOr<std::vector<Value>> Converter::ConvertShapeOp(const MlirOperation& op,
                                                             const std::vector<Value>& in,
                                                             absl::string_view name,
                                                             const std::string& hint) {
  if (name == "dynamic_reshape") {
    if (in.empty()) return OpError(op, "takes an operand");
    AOT_RETURN_IF_ERROR(NeedResultType(op));
    return One(Emit(ResultType(op), hint, "reshape", {in[0]}));
  }
  if (name == "get_dimension_size") {
    AOT_RETURN_IF_ERROR(Arity(op, in, 1));
    AOT_ASSIGN_OR_RETURN(int64_t dim,
                         IntAttr(op, {"dim", "dimension"}, "the dimension", std::nullopt));
    MlirType s32;
    s32.element = "i32";
    return One(Emit(s32, hint, "get-dimension-size", in, absl::StrCat("dimensions={", dim, "}")));
  }
  if (name == "set_dimension_size") {
    AOT_RETURN_IF_ERROR(Arity(op, in, 2));
    AOT_RETURN_IF_ERROR(NeedResultType(op));
    AOT_ASSIGN_OR_RETURN(int64_t dim,
                         IntAttr(op, {"dim", "dimension"}, "the dimension", std::nullopt));
    return One(Emit(ResultType(op), hint, "set-dimension-size", in,
                    absl::StrCat("dimensions={", dim, "}")));
  }
  return OpError(op, "unsupported stablehlo operation");
}

}  // namespace convert_internal
}  // namespace aot::stablehlo
