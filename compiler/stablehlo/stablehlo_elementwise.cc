// Elementwise ops: constants, comparisons, select and clamp, reduce_precision
// (the one-to-one elementwise ops are the kSimpleOps table, with StableHLO's
// semantics where HLO's opcode differs: ConvertSimpleOp).
#include "compiler/stablehlo/stablehlo_arith.h"
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

namespace {

// The bit width of an element type that bitcast_convert may split into or
// gather from i1 elements (0 when none).
int BitcastWidth(const std::string& e) {
  if (e == "f64") return 64;
  if (e == "f32") return 32;
  if (e == "f16" || e == "bf16") return 16;
  if (absl::StartsWith(e, "f8")) return 8;
  const std::string digits(
      absl::StripPrefix(absl::StripPrefix(absl::StripPrefix(e, "ui"), "si"), "i"));
  int width = 0;
  if (e[0] != 'f' && absl::SimpleAtoi(digits, &width) && width > 1 && width <= 64) return width;
  return 0;
}

}  // namespace

// The kSimpleOps rows, one HLO instruction each, except where StableHLO's
// semantics differ from HLO's opcode of the name:
// - add and multiply on i1 are logical or and and (HLO's are undefined on
//   pred);
// - maximum and minimum on complex compare (real, imag) lexicographically;
// - atan2 on complex is -i log((x + i y) / sqrt(x^2 + y^2));
// - convert from complex to a real, integer or i1 type takes the real part
//   (to i1: real != 0);
// - bitcast_convert between i1 and a wider type: element k of the i1
//   dimension (the minor-most, of the wider type's bit width) is bit k of
//   the wider element (least significant first), as StableHLO's reference
//   interpreter does; HLO's pred is a byte. From i1 to i1 it is a copy.
absl::StatusOr<std::vector<Value>> Converter::ConvertSimpleOp(const MlirOperation& op,
                                                              const std::vector<Value>& in,
                                                              const SimpleOp& s,
                                                              const std::string& hint) {
  const MlirType rt = ResultType(op);
  const absl::string_view name = s.mlir;
  const std::string e = in.empty() ? rt.element : in[0].type.element;
  const bool complex = absl::StartsWith(e, "complex");
  if ((name == "add" || name == "multiply") && e == "i1") {
    return One(Emit(rt, hint, name == "add" ? "or" : "and", in));
  }
  if (complex && (name == "maximum" || name == "minimum")) {
    Arith a = ArithFor(in[0].type);
    const std::string dir = name == "maximum" ? "GT" : "LT";
    Value lr = a.Real(in[0]), rr = a.Real(in[1]);
    Value first =
        a.Sel(a.Cmp("EQ", lr, rr), a.Cmp(dir, a.Imag(in[0]), a.Imag(in[1])), a.Cmp(dir, lr, rr));
    AOT_RETURN_IF_ERROR(a.status());
    return One(Emit(rt, hint, "select", {first, in[0], in[1]}));
  }
  if (complex && name == "atan2") return One(DecomposedFunction(op, name, in, rt));
  if (complex && name == "convert" && !absl::StartsWith(rt.element, "complex")) {
    Arith a = ArithFor(in[0].type);
    Value re = a.Real(in[0]);
    AOT_RETURN_IF_ERROR(a.status());
    if (re.type.element == rt.element) return std::vector<Value>{re};
    return One(Emit(rt, hint, "convert", {re}));
  }
  if (name == "bitcast_convert" && e == "i1" && rt.element == "i1") {
    return One(Emit(rt, hint, "copy", in));  // HLO's bitcast-convert takes no pred
  }
  if (name == "bitcast_convert" && (e == "i1") != (rt.element == "i1")) {
    const bool gather = e == "i1";
    const MlirType& wide_type = gather ? rt : in[0].type;
    const int width = BitcastWidth(wide_type.element);
    const MlirType& bits_type = gather ? in[0].type : rt;
    if (width == 0 || bits_type.dimensions.empty() || bits_type.dimensions.back() != width ||
        bits_type.dimensions.size() != wide_type.dimensions.size() + 1) {
      return OpError(op, absl::StrCat("bitcast_convert between ", in[0].type.text, " and ", rt.text,
                                      ": the i1 side needs a minor-most dimension of "
                                      "the other type's bit width"));
    }
    const std::string u = absl::StrCat("ui", width);
    const int64_t minor = static_cast<int64_t>(bits_type.dimensions.size()) - 1;
    Arith bits = ArithFor(bits_type);
    Value shift = bits.Op(u, "iota", {}, absl::StrCat("iota_dimension=", minor));
    if (gather) {
      // sum over k of bit k << k, as an or-reduction.
      Value set = bits.Bin("shift-left", bits.Convert(in[0], u), shift);
      AOT_RETURN_IF_ERROR(bits.status());
      AOT_ASSIGN_OR_RETURN(Value zero, ScalarConstant(WithElement(rt, u), "0", "zero"));
      AOT_ASSIGN_OR_RETURN(std::string body, ScalarComputation("or", WithElement(rt, u)));
      AOT_ASSIGN_OR_RETURN(Value word,
                           Emit(WithElement(rt, u), "gather_bits", "reduce", {set, zero},
                                absl::StrCat("dimensions={", minor, "}, to_apply=%", body)));
      if (rt.element == u) return std::vector<Value>{word};
      return One(Emit(rt, hint, "bitcast-convert", {word}));
    }
    Arith wide = ArithFor(in[0].type);
    Value word = wide.Bitcast(in[0], u);
    AOT_RETURN_IF_ERROR(wide.status());
    std::vector<int64_t> kept;
    for (int64_t i = 0; i < minor; ++i) kept.push_back(i);
    AOT_ASSIGN_OR_RETURN(Value spread, Emit(WithElement(rt, u), "spread", "broadcast", {word},
                                            absl::StrCat("dimensions=", Braced(kept))));
    Value bit = bits.And(bits.Bin("shift-right-logical", spread, shift), bits.K(u, 1));
    Value set = bits.Cmp("NE", bit, bits.K(u, 0));
    AOT_RETURN_IF_ERROR(bits.status());
    return std::vector<Value>{set};
  }
  return One(Emit(rt, hint, s.hlo, in));
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
