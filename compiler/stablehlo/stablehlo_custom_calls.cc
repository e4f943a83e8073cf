// Custom calls and the check dialect's expectations.
#include "compiler/stablehlo/stablehlo_to_hlo_internal.h"

namespace aot::stablehlo {
namespace convert_internal {

absl::Status Converter::ConvertCheck(const MlirOperation& op, const std::vector<Value>& in,
                                     absl::string_view kind, std::vector<Value>* results) {
  if (!in_entry_top_) {
    return OpError(op, "checks may only appear at the top level of the entry function");
  }
  CheckSpec spec;
  spec.op = op.name;
  spec.where = Where(op.loc);
  const bool is_const = absl::EndsWith(kind, "_const");
  absl::string_view base = absl::StripSuffix(kind, "_const");
  if (base == "expect_eq" || base == "eq") {
    spec.kind = CheckSpec::kEq;
  } else if (base == "expect_almost_eq" || base == "almost_eq") {
    spec.kind = CheckSpec::kAlmostEq;
    if (const MlirAttr* t = Attr(op, {"tolerance"})) {
      if (t->kind == MlirAttr::kFloat) spec.tolerance = t->f;
      if (t->kind == MlirAttr::kInt) spec.tolerance = static_cast<double>(t->i);
    }
  } else if (base == "expect_close" || base == "close") {
    spec.kind = CheckSpec::kClose;
    AOT_ASSIGN_OR_RETURN(spec.max_ulp,
                         IntAttr(op, {"max_ulp_difference"}, "max_ulp_difference", 3));
    AOT_ASSIGN_OR_RETURN(spec.min_ulp,
                         IntAttr(op, {"min_ulp_difference"}, "min_ulp_difference", 0));
  } else {
    return OpError(op,
                   "unknown check (expected expect_eq, expect_eq_const, expect_almost_eq, "
                   "expect_almost_eq_const or expect_close)");
  }
  Value actual, expected;
  if (is_const) {
    const MlirAttr* dense = nullptr;
    for (const MlirAttr& p : op.positional) {
      if (p.kind == MlirAttr::kDense) dense = &p;
    }
    if (dense == nullptr) dense = Attr(op, {"value"});
    if (in.size() != 1 || dense == nullptr) {
      return OpError(op, "expects a value and a dense<...> literal");
    }
    actual = in[0];
    AOT_ASSIGN_OR_RETURN(expected, Constant(op, *dense, actual.type));
  } else {
    if (in.size() != 2) return OpError(op, "expects two values (actual, expected)");
    actual = in[0];
    expected = in[1];
  }
  checks_.push_back(spec);
  check_values_.emplace_back(actual, expected);
  // The custom_call form with a result (tensor<i1>): whether every element
  // is equal (exact checks) or within tolerance.
  // (check.* ops have no results; their trailing type is the operands'.)
  const bool has_result = op.name != absl::StrCat("check.", kind) && !op.result_types.empty();
  for (size_t r = 0; has_result && r < op.result_types.size(); ++r) {
    Value a = actual, e = expected;
    MlirType pred_type = WithElement(actual.type, "i1");
    Value ok;
    if (spec.kind == CheckSpec::kEq || !IsFloatElement(actual.type.element) ||
        absl::StartsWith(actual.type.element, "complex")) {
      AOT_ASSIGN_OR_RETURN(ok, Emit(pred_type, "check_eq", "compare", {a, e}, "direction=EQ"));
    } else {
      AOT_ASSIGN_OR_RETURN(Value diff, Emit(actual.type, "check_diff", "subtract", {a, e}));
      AOT_ASSIGN_OR_RETURN(Value adiff, Emit(actual.type, "check_adiff", "abs", {diff}));
      AOT_ASSIGN_OR_RETURN(Value ae, Emit(actual.type, "check_ae", "abs", {e}));
      AOT_ASSIGN_OR_RETURN(Value one, ScalarConstant(actual.type, "1", "one"));
      AOT_ASSIGN_OR_RETURN(Value ones, BroadcastTo(one, actual.type, "ones"));
      AOT_ASSIGN_OR_RETURN(Value scale, Emit(actual.type, "check_scale", "maximum", {ae, ones}));
      AOT_ASSIGN_OR_RETURN(Value tol,
                           ScalarConstant(actual.type, absl::StrCat(spec.tolerance), "tol"));
      AOT_ASSIGN_OR_RETURN(Value tols, BroadcastTo(tol, actual.type, "tols"));
      AOT_ASSIGN_OR_RETURN(Value bound,
                           Emit(actual.type, "check_bound", "multiply", {scale, tols}));
      AOT_ASSIGN_OR_RETURN(ok,
                           Emit(pred_type, "check_ok", "compare", {adiff, bound}, "direction=LE"));
    }
    AOT_ASSIGN_OR_RETURN(Value all, ReduceOverAll(ok, "check_all"));
    results->push_back(all);
  }
  return absl::OkStatus();
}

absl::StatusOr<Value> Converter::ReduceOverAll(const Value& pred, absl::string_view hint) {
  MlirType scalar = ScalarOf(pred.type);
  if (pred.type.dimensions.empty()) return pred;
  AOT_ASSIGN_OR_RETURN(std::string and_comp, ScalarComputation("and", pred.type));
  AOT_ASSIGN_OR_RETURN(Value t, ScalarConstant(pred.type, "true", "true"));
  std::vector<int64_t> all(pred.type.dimensions.size());
  for (size_t i = 0; i < all.size(); ++i) all[i] = static_cast<int64_t>(i);
  return Emit(scalar, hint, "reduce", {pred, t},
              absl::StrCat("dimensions=", Braced(all), ", to_apply=%", and_comp));
}

absl::StatusOr<std::string> Converter::FfiAttributeDict(const MlirOperation& op,
                                                        const MlirAttr* dict) const {
  std::vector<std::string> entries;
  if (dict != nullptr && dict->kind == MlirAttr::kDict) {
    for (const auto& [name, value] : dict->dict) {
      std::string text;
      switch (value.kind) {
        case MlirAttr::kInt:
          text = absl::StrCat(value.i, " : ", value.type ? value.type->element : "i64");
          break;
        case MlirAttr::kFloat:
          text = absl::StrCat(absl::StrFormat("%.17g", value.f), " : ",
                              value.type ? value.type->element : "f64");
          break;
        case MlirAttr::kBool:
          text = value.b ? "true" : "false";
          break;
        case MlirAttr::kUnit:
          text = "true";
          break;
        case MlirAttr::kString:
          text = absl::StrCat("\"", absl::CEscape(value.s), "\"");
          break;
        default:
          return OpError(op, absl::StrCat("typed-FFI attribute '", name,
                                          "' must be an integer, float, bool or string"));
      }
      entries.push_back(absl::StrCat(name, " = ", text));
    }
  }
  return absl::StrCat("{", absl::StrJoin(entries, ", "), "}");
}

absl::StatusOr<std::vector<Value>> Converter::ConvertCustomCallOp(const MlirOperation& op,
                                                                  const std::vector<Value>& in,
                                                                  absl::string_view name,
                                                                  const std::string& hint) {
  if (name == "custom_call") {
    std::string target;
    for (const MlirAttr& p : op.positional) {
      if (p.kind == MlirAttr::kSymbol) target = p.s;
    }
    if (target.empty()) {
      if (const MlirAttr* t = Attr(op, {"call_target_name"})) target = t->s;
    }
    if (target.empty()) return OpError(op, "missing the call target (@name)");
    if (absl::StartsWith(target, "check.")) {
      std::vector<Value> results;
      AOT_RETURN_IF_ERROR(ConvertCheck(op, in, target.substr(6), &results));
      return results;
    }
    AOT_ASSIGN_OR_RETURN(std::optional<std::vector<Value>> polymorphic,
                         ConvertShapePolymorphicCall(op, in, target, hint));
    if (polymorphic) return *std::move(polymorphic);
    std::vector<MlirType> types = ResultTypes(op);
    for (const MlirType& t : types) {
      if (HasUnboundedDimension(t)) {
        return OpError(op, absl::StrCat("result type ", t.text,
                                        " has unbounded dynamic dimensions whose sizes are not "
                                        "known here"));
      }
    }
    std::string attrs = absl::StrCat("custom_call_target=\"", absl::CEscape(target), "\"");
    // Typed FFI (api_version = 4, or the attributes as a dictionary in
    // mhlo.backend_config, as JAX writes them): XLA's HLO form, the
    // dictionary in backend_config={...}.
    const MlirAttr* bc = Attr(op, {"mhlo.backend_config", "backend_config"});
    int64_t api_version = 0;
    if (const MlirAttr* v = Attr(op, {"api_version"}); v && v->kind == MlirAttr::kInt) {
      api_version = v->i;
    }
    if ((bc != nullptr && bc->kind == MlirAttr::kDict) || api_version == 4) {
      AOT_ASSIGN_OR_RETURN(std::string dict, FfiAttributeDict(op, bc));
      absl::StrAppend(&attrs, ", api_version=API_VERSION_TYPED_FFI, backend_config=", dict);
    } else if (bc != nullptr && bc->kind == MlirAttr::kString) {
      absl::StrAppend(&attrs, ", backend_config=\"", absl::CEscape(bc->s), "\"");
    }
    if (const MlirAttr* sh = Attr(op, {"mhlo.sharding"}); sh && sh->kind == MlirAttr::kString) {
      absl::StrAppend(&attrs, ", sharding=", sh->s);
    }
    return EmitResults(types, hint, "custom-call", in, attrs);
  }
  return OpError(op, "unsupported stablehlo operation");
}

}  // namespace convert_internal
}  // namespace aot::stablehlo
