// Elementwise ops: constants, comparisons, select and clamp, reduce_precision
// (the one-to-one elementwise ops are the kSimpleOps table).
#include "compiler/stablehlo/stablehlo_to_hlo_internal.h"

namespace aot::stablehlo {
namespace convert_internal {

absl::StatusOr<Value> Converter::Constant(const MlirOperation& op, const MlirAttr& dense,
                                          const MlirType& type_in) {
  MlirType type = type_in;
  if (dense.type && dense.type->kind == MlirType::kTensor) type = *dense.type;
  if (type.kind != MlirType::kTensor) return OpError(op, "a constant needs a tensor type");
  for (int64_t d : type.dimensions) {
    if (d < 0) return OpError(op, "a constant of dynamic shape");
  }
  AOT_ASSIGN_OR_RETURN(std::string element, HloElement(type.element));
  auto elements = ParseDenseElements(dense.s, element, type.dimensions);
  if (!elements.ok()) {
    return absl::InvalidArgumentError(absl::StrCat(Where(dense.loc.line ? dense.loc : op.loc),
                                                   ": '", op.name, "': bad dense literal for ",
                                                   type.text, ": ", elements.status().message()));
  }
  int64_t count = 1;
  for (int64_t d : type.dimensions) count *= d;
  if (elements->splat && count != 1) {
    // A splat is a scalar broadcast: the text stays small for big tensors.
    AOT_ASSIGN_OR_RETURN(Value scalar, ScalarConstant(type, elements->elements[0], "splat"));
    AOT_ASSIGN_OR_RETURN(Value v, Emit(type, "constant", "broadcast", {scalar}, "dimensions={}"));
    // A small integer splat's values too (dynamic_conv's padding operand).
    int64_t value = 0;
    if (count <= 64 && (element[0] == 's' || element[0] == 'u') &&
        absl::SimpleAtoi(elements->elements[0], &value)) {
      v.values.assign(count, value);
    }
    return v;
  }
  if (!elements->splat && static_cast<int64_t>(elements->elements.size()) != count) {
    return OpError(op, "dense literal element count does not match its type");
  }
  AOT_ASSIGN_OR_RETURN(std::string shape, ShapeText(type));
  const std::string rhs =
      absl::StrCat("constant(", HloLiteralBody(elements->elements, type.dimensions), ")");
  Value v = EmitShape(shape, type, op.results.empty() ? "constant" : op.results[0].first, rhs);
  // Small constants may be defined again inside regions that use them.
  if (count <= 64) {
    v.constant = absl::StrCat(shape, " ", rhs);
    if (element[0] == 's' || element[0] == 'u') {
      for (const std::string& text : elements->elements) {
        int64_t value = 0;
        if (absl::SimpleAtoi(text, &value)) v.values.push_back(value);
      }
    }
  }
  return v;
}

absl::StatusOr<std::vector<Value>> Converter::ConvertElementwiseOp(const MlirOperation& op,
                                                                   const std::vector<Value>& in,
                                                                   absl::string_view name,
                                                                   const std::string& hint) {
  if (name == "constant") {
    AOT_RETURN_IF_ERROR(NeedResultType(op));
    for (const MlirAttr& p : op.positional) {
      if (p.kind == MlirAttr::kDense) return One(Constant(op, p, ResultType(op)));
    }
    const MlirAttr* value = Attr(op, {"value"});
    if (value == nullptr || value->kind != MlirAttr::kDense) {
      return OpError(op, "expects a dense<...> value");
    }
    return One(Constant(op, *value, ResultType(op)));
  }
  if (name == "compare") {
    AOT_RETURN_IF_ERROR(Arity(op, in, 2));
    AOT_RETURN_IF_ERROR(NeedResultType(op));
    std::string direction, type;
    if (const MlirAttr* d = Attr(op, {"comparison_direction"})) direction = d->s;
    if (const MlirAttr* t = Attr(op, {"compare_type"})) type = t->s;
    std::vector<std::string> words;
    for (const MlirAttr& p : op.positional) {
      if (p.kind == MlirAttr::kWord) words.push_back(p.s);
    }
    if (direction.empty() && !words.empty()) direction = words[0];
    if (type.empty() && words.size() > 1) type = words[1];
    static const std::set<std::string> kDirections = {"EQ", "NE", "LT", "LE", "GT", "GE"};
    if (!kDirections.contains(direction)) {
      return OpError(op, absl::StrCat("unknown comparison direction '", direction,
                                      "' (EQ, NE, LT, LE, GT or GE)"));
    }
    std::string attrs = absl::StrCat("direction=", direction);
    if (!type.empty() && type != "NOTYPE") absl::StrAppend(&attrs, ", type=", type);
    return One(Emit(ResultType(op), hint, "compare", in, attrs));
  }
  if (name == "select" || name == "clamp") {
    AOT_RETURN_IF_ERROR(Arity(op, in, 3));
    AOT_RETURN_IF_ERROR(NeedResultType(op));
    const MlirType rt = ResultType(op);
    std::vector<Value> args;
    for (size_t i = 0; i < 3; ++i) {
      MlirType want = rt;
      if (name == "select" && i == 0) want = WithElement(rt, "i1");
      AOT_ASSIGN_OR_RETURN(Value b, BroadcastTo(in[i], want, "bcast"));
      args.push_back(b);
    }
    return One(Emit(rt, hint, name == "select" ? "select" : "clamp", args));
  }
  if (name == "reduce_precision") {
    AOT_RETURN_IF_ERROR(Arity(op, in, 1));
    int64_t e = 0, m = 0;
    if (const MlirAttr* f = Attr(op, {"format"})) {
      // e5m10
      std::vector<std::string> parts = absl::StrSplit(f->s.substr(1), 'm');
      if (f->s.empty() || f->s[0] != 'e' || parts.size() != 2 || !absl::SimpleAtoi(parts[0], &e) ||
          !absl::SimpleAtoi(parts[1], &m)) {
        return OpError(op, "format must be eXmY");
      }
    } else {
      AOT_ASSIGN_OR_RETURN(e, IntAttr(op, {"exponent_bits"}, "exponent_bits", std::nullopt));
      AOT_ASSIGN_OR_RETURN(m, IntAttr(op, {"mantissa_bits"}, "mantissa_bits", std::nullopt));
    }
    MlirType rt = op.types.empty() && op.result_types.empty() ? in[0].type : ResultType(op);
    return One(Emit(rt, hint, "reduce-precision", in,
                    absl::StrCat("exponent_bits=", e, ", mantissa_bits=", m)));
  }
  return OpError(op, "unsupported stablehlo operation");
}

}  // namespace convert_internal
}  // namespace aot::stablehlo
