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
  } else if (absl::ConsumePrefix(&name, "interpreter.")) {
    AOT_RETURN_IF_ERROR(ConvertInterpreterOp(op, in, name, &results));
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
  if (name == "dynamic_pad" || name == "dynamic_gather" || name == "dynamic_conv") {
    // Their size operands are constants once the program is refined (as
    // StableHLO's refine-shapes leaves them): the static op with those
    // values as its attributes.
    const size_t data = 2;  // operand and padding value, or the two data operands
    const size_t sizes = name == "dynamic_pad" ? 3 : 1;
    AOT_RETURN_IF_ERROR(Arity(op, in, data + sizes));
    MlirOperation fixed = op;
    auto ints = [&](size_t k, const char* what) -> absl::StatusOr<MlirAttr> {
      const Value& v = in[data + k];
      int64_t count = 1;
      for (int64_t d : v.type.dimensions) count *= d;
      if (static_cast<int64_t>(v.values.size()) != count) {
        return OpError(op, absl::StrCat("its ", what, " operand (", v.hlo,
                                        ") is not a constant: its value is known only at run time, "
                                        "which the static ",
                                        name.substr(8), " needs"));
      }
      MlirAttr list;
      list.kind = MlirAttr::kList;
      for (int64_t x : v.values) {
        MlirAttr e;
        e.kind = MlirAttr::kInt;
        e.i = x;
        list.list.push_back(std::move(e));
      }
      return list;
    };
    std::string static_name;
    if (name == "dynamic_pad") {
      AOT_ASSIGN_OR_RETURN(fixed.attributes["edge_padding_low"], ints(0, "edge_padding_low"));
      AOT_ASSIGN_OR_RETURN(fixed.attributes["edge_padding_high"], ints(1, "edge_padding_high"));
      AOT_ASSIGN_OR_RETURN(fixed.attributes["interior_padding"], ints(2, "interior_padding"));
      static_name = "pad";
    } else if (name == "dynamic_gather") {
      AOT_ASSIGN_OR_RETURN(fixed.attributes["slice_sizes"], ints(0, "slice_sizes"));
      static_name = "gather";
    } else {
      AOT_ASSIGN_OR_RETURN(fixed.attributes["padding"], ints(0, "padding"));
      static_name = "convolution";
    }
    fixed.name = absl::StrCat("stablehlo.", static_name);
    fixed.operands.resize(data);
    if (fixed.has_function_type) fixed.operand_types.resize(data);
    const std::vector<Value> operands(in.begin(), in.begin() + data);
    return static_name == "pad" ? ConvertDataMovementOp(fixed, operands, static_name, hint)
                                : ConvertStructuredOp(fixed, operands, static_name, hint);
  }
  return OpError(op, "unsupported stablehlo operation");
}

}  // namespace convert_internal
}  // namespace aot::stablehlo
