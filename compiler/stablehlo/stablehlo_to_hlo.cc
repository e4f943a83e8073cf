#include "compiler/stablehlo/stablehlo_to_hlo.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <functional>
#include <map>
#include <optional>
#include <set>
#include <utility>

#include "absl/container/flat_hash_map.h"
#include "absl/container/flat_hash_set.h"
#include "absl/status/status.h"
#include "absl/strings/escaping.h"
#include "absl/strings/match.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"
#include "absl/strings/strip.h"
#include "compiler/stablehlo/dense_literal.h"
#include "support/status_macros.h"

namespace aot::stablehlo {
namespace {

// ---------------------------------------------------------------------------
// Op tables

// StableHLO elementwise ops and their HLO opcodes.
struct SimpleOp {
  const char* mlir;
  const char* hlo;
  int arity;
};
constexpr SimpleOp kSimpleOps[] = {
    {"abs", "abs", 1},
    {"add", "add", 2},
    {"and", "and", 2},
    {"atan2", "atan2", 2},
    {"cbrt", "cbrt", 1},
    {"ceil", "ceil", 1},
    {"complex", "complex", 2},
    {"convert", "convert", 1},
    {"bitcast_convert", "bitcast-convert", 1},
    {"cosine", "cosine", 1},
    {"count_leading_zeros", "count-leading-zeros", 1},
    {"divide", "divide", 2},
    {"exponential", "exponential", 1},
    {"exponential_minus_one", "exponential-minus-one", 1},
    {"floor", "floor", 1},
    {"imag", "imag", 1},
    {"is_finite", "is-finite", 1},
    {"log", "log", 1},
    {"log_plus_one", "log-plus-one", 1},
    {"logistic", "logistic", 1},
    {"maximum", "maximum", 2},
    {"minimum", "minimum", 2},
    {"multiply", "multiply", 2},
    {"negate", "negate", 1},
    {"not", "not", 1},
    {"or", "or", 2},
    {"popcnt", "popcnt", 1},
    {"power", "power", 2},
    {"real", "real", 1},
    {"remainder", "remainder", 2},
    {"reshape", "reshape", 1},
    {"round_nearest_afz", "round-nearest-afz", 1},
    {"round_nearest_even", "round-nearest-even", 1},
    {"rsqrt", "rsqrt", 1},
    {"shift_left", "shift-left", 2},
    {"shift_right_arithmetic", "shift-right-arithmetic", 2},
    {"shift_right_logical", "shift-right-logical", 2},
    {"sign", "sign", 1},
    {"sine", "sine", 1},
    {"sqrt", "sqrt", 1},
    {"subtract", "subtract", 2},
    {"tan", "tan", 1},
    {"tanh", "tanh", 1},
    {"xor", "xor", 2},
};

// CHLO ops that are one HLO opcode.
constexpr SimpleOp kChloUnary[] = {
    {"erf", "erf", 1},     {"tan", "tan", 1},     {"sinh", "sinh", 1}, {"cosh", "cosh", 1},
    {"asin", "asin", 1},   {"acos", "acos", 1},   {"atan", "atan", 1}, {"asinh", "asinh", 1},
    {"acosh", "acosh", 1}, {"atanh", "atanh", 1}, {"square", "", 1},
};

// CHLO's broadcasting binary ops.
constexpr SimpleOp kChloBroadcast[] = {
    {"broadcast_add", "add", 2},
    {"broadcast_subtract", "subtract", 2},
    {"broadcast_multiply", "multiply", 2},
    {"broadcast_divide", "divide", 2},
    {"broadcast_maximum", "maximum", 2},
    {"broadcast_minimum", "minimum", 2},
    {"broadcast_power", "power", 2},
    {"broadcast_remainder", "remainder", 2},
    {"broadcast_atan2", "atan2", 2},
    {"broadcast_and", "and", 2},
    {"broadcast_or", "or", 2},
    {"broadcast_xor", "xor", 2},
    {"broadcast_shift_left", "shift-left", 2},
    {"broadcast_shift_right_arithmetic", "shift-right-arithmetic", 2},
    {"broadcast_shift_right_logical", "shift-right-logical", 2},
    {"broadcast_complex", "complex", 2},
    {"broadcast_compare", "compare", 2},
    {"broadcast_select", "select", 3},
};

// Operations refused by name, with the reason.
struct Refused {
  const char* name;
  const char* why;
};
constexpr Refused kRefused[] = {
    {"chlo.erfc", "not yet decomposed (no HLO opcode)"},
    {"chlo.polygamma", "not yet decomposed (no HLO opcode)"},
    {"chlo.zeta", "not yet decomposed (no HLO opcode)"},
    {"chlo.next_after", "not yet decomposed (no HLO opcode)"},
    {"chlo.ragged_dot", "not converted yet"},
    {"stablehlo.rng", "stateful RNG is not converted (use rng_bit_generator)"},
    {"stablehlo.infeed", "host transfers are not supported by the AOT runtime"},
    {"stablehlo.outfeed", "host transfers are not supported by the AOT runtime"},
    {"stablehlo.send", "host transfers are not supported by the AOT runtime"},
    {"stablehlo.recv", "host transfers are not supported by the AOT runtime"},
    {"stablehlo.uniform_quantize", "quantized types are not supported"},
    {"stablehlo.uniform_dequantize", "quantized types are not supported"},
    {"stablehlo.dynamic_conv", "dynamic convolution is not supported"},
    {"stablehlo.dynamic_gather", "dynamic gather is not supported"},
    {"stablehlo.dynamic_pad", "dynamic pad is not supported"},
    {"stablehlo.unary_einsum", "deprecated; not supported"},
    {"stablehlo.einsum", "deprecated; not supported"},
    {"stablehlo.torch_index_select", "deprecated; not supported"},
    {"stablehlo.trace", "deprecated; not supported"},
    {"stablehlo.cross-replica-sum", "deprecated; not supported"},
    {"check.expect_serialized_eq", "needs the interpreter's probe files"},
};

// ---------------------------------------------------------------------------
// Types

absl::StatusOr<std::string> HloElement(const std::string& e) {
  static const absl::flat_hash_map<std::string, std::string>* kMap =
      new absl::flat_hash_map<std::string, std::string>{
          {"i1", "pred"},
          {"i2", "s2"},
          {"i4", "s4"},
          {"i8", "s8"},
          {"i16", "s16"},
          {"i32", "s32"},
          {"i64", "s64"},
          {"si2", "s2"},
          {"si4", "s4"},
          {"si8", "s8"},
          {"si16", "s16"},
          {"si32", "s32"},
          {"si64", "s64"},
          {"ui1", "u1"},
          {"ui2", "u2"},
          {"ui4", "u4"},
          {"ui8", "u8"},
          {"ui16", "u16"},
          {"ui32", "u32"},
          {"ui64", "u64"},
          {"f16", "f16"},
          {"bf16", "bf16"},
          {"f32", "f32"},
          {"f64", "f64"},
          {"f8E5M2", "f8e5m2"},
          {"f8E4M3", "f8e4m3"},
          {"f8E4M3FN", "f8e4m3fn"},
          {"f8E4M3FNUZ", "f8e4m3fnuz"},
          {"f8E5M2FNUZ", "f8e5m2fnuz"},
          {"f8E4M3B11FNUZ", "f8e4m3b11fnuz"},
          {"f8E3M4", "f8e3m4"},
          {"f8E8M0FNU", "f8e8m0fnu"},
          {"f4E2M1FN", "f4e2m1fn"},
          {"complex<f32>", "c64"},
          {"complex<f64>", "c128"},
      };
  auto it = kMap->find(e);
  if (it != kMap->end()) return it->second;
  if (absl::StartsWith(e, "!quant")) {
    return absl::InvalidArgumentError(
        absl::StrCat("quantized element type ", e, " is not supported"));
  }
  if (e == "index") {
    return absl::InvalidArgumentError("element type 'index' is not supported (use i64)");
  }
  return absl::InvalidArgumentError(absl::StrCat("unknown element type '", e, "'"));
}

absl::StatusOr<std::string> ShapeText(const MlirType& t) {
  switch (t.kind) {
    case MlirType::kToken:
      return std::string("token[]");
    case MlirType::kTuple: {
      std::vector<std::string> parts;
      for (const MlirType& e : t.tuple) {
        AOT_ASSIGN_OR_RETURN(std::string s, ShapeText(e));
        parts.push_back(std::move(s));
      }
      return absl::StrCat("(", absl::StrJoin(parts, ", "), ")");
    }
    case MlirType::kElement: {
      AOT_ASSIGN_OR_RETURN(std::string e, HloElement(t.element));
      return absl::StrCat(e, "[]");
    }
    case MlirType::kTensor:
      break;
  }
  if (!t.is_ranked) {
    return absl::InvalidArgumentError(absl::StrCat("unranked type ", t.text, " is not supported"));
  }
  AOT_ASSIGN_OR_RETURN(std::string e, HloElement(t.element));
  std::vector<std::string> dims;
  for (size_t i = 0; i < t.dimensions.size(); ++i) {
    if (t.dimensions[i] >= 0) {
      dims.push_back(absl::StrCat(t.dimensions[i]));
    } else if (i < t.bounds.size() && t.bounds[i] >= 0) {
      dims.push_back(absl::StrCat("<=", t.bounds[i]));
    } else {
      return absl::InvalidArgumentError(
          absl::StrCat("unbounded dynamic dimension ", i, " in ", t.text,
                       " (give a bound with #stablehlo.bounds<...>)"));
    }
  }
  return absl::StrCat(e, "[", absl::StrJoin(dims, ","), "]");
}

MlirType ScalarOf(const MlirType& t) {
  MlirType s;
  s.kind = MlirType::kTensor;
  s.element = t.element;
  s.text = absl::StrCat("tensor<", t.element, ">");
  return s;
}

MlirType WithElement(const MlirType& t, const std::string& element) {
  MlirType s = t;
  s.element = element;
  s.text = "";
  return s;
}

bool IsFloatElement(const std::string& e) {
  return e[0] == 'f' || e == "bf16" || absl::StartsWith(e, "complex");
}

std::string Braced(const std::vector<int64_t>& v) {
  return absl::StrCat("{", absl::StrJoin(v, ","), "}");
}

std::string Sanitize(absl::string_view name) {
  // A name may not start with a digit (HLO names are identifiers).
  std::string out = name.empty() || std::isdigit(static_cast<unsigned char>(name[0])) ? "v" : "";
  for (char c : name) {
    out.push_back(
        std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '.' || c == '-' ? c : '_');
  }
  return out;
}

// ---------------------------------------------------------------------------
// The converter

struct Value {
  std::string hlo;  // "%name"
  MlirType type;
  // For a constant: the right-hand side "shape constant(...)" (to define it
  // again inside a region that uses it).
  std::string constant;
  // For a small integer constant: its values (the shape operands of
  // dynamic ops whose sizes are constants).
  std::vector<int64_t> values;
};

bool HasUnboundedDimension(const MlirType& t) {
  if (t.kind != MlirType::kTensor) return false;
  for (size_t i = 0; i < t.dimensions.size(); ++i) {
    if (t.dimensions[i] < 0 && (i >= t.bounds.size() || t.bounds[i] < 0)) return true;
  }
  return false;
}

struct Line {
  std::string name;  // without '%'
  std::string text;  // "shape op(...), attrs"
  std::string origin;
  bool root = false;
};

struct Computation {
  std::string name;
  std::vector<Line> lines;
  absl::flat_hash_map<std::string, Value> values;
  Computation* parent = nullptr;
  // Whether values of the parent may be used (only constants are copied in;
  // others are threaded by the caller before the body is converted).
  bool entry = false;
  int num_parameters = 0;
};

class Converter {
 public:
  Converter(const MlirModule& module, absl::string_view path) : module_(module), path_(path) {
    for (const MlirFunction& fn : module.functions) functions_[fn.name] = &fn;
  }

  absl::StatusOr<ConvertedProgram> Run(const ConvertOptions& options);

 private:
  // --- errors ---
  std::string Where(const Location& loc) const {
    return absl::StrCat(path_, ":", loc.line, ":", loc.column);
  }
  absl::Status OpError(const MlirOperation& op, absl::string_view message) const {
    return absl::InvalidArgumentError(absl::StrCat(Where(op.loc), ": '", op.name, "': ", message));
  }

  // --- emission ---
  std::string NewName(absl::string_view hint) {
    std::string base = Sanitize(hint);
    std::string name = base;
    while (!used_names_.insert(name).second) {
      name = absl::StrCat(base, ".", ++name_counter_);
    }
    return name;
  }
  absl::StatusOr<Value> Emit(const MlirType& type, absl::string_view hint, absl::string_view rhs) {
    AOT_ASSIGN_OR_RETURN(std::string shape, ShapeText(type));
    return EmitShape(shape, type, hint, rhs);
  }
  Value EmitShape(absl::string_view shape, const MlirType& type, absl::string_view hint,
                  absl::string_view rhs) {
    Line line;
    line.name = NewName(hint);
    line.text = absl::StrCat(shape, " ", rhs);
    line.origin = origin_;
    current_->lines.push_back(line);
    instruction_origins_[line.name] = origin_;
    return Value{absl::StrCat("%", line.name), type, ""};
  }
  absl::StatusOr<Value> Emit(const MlirType& type, absl::string_view hint, absl::string_view opcode,
                             const std::vector<Value>& operands, absl::string_view attrs = "") {
    std::vector<std::string> names;
    for (const Value& v : operands) names.push_back(v.hlo);
    return Emit(type, hint,
                absl::StrCat(opcode, "(", absl::StrJoin(names, ", "), ")",
                             attrs.empty() ? "" : ", ", attrs));
  }
  // The elements of a tuple-shaped HLO value as separate values.
  absl::StatusOr<std::vector<Value>> Untuple(const Value& tuple, const std::vector<MlirType>& types,
                                             absl::string_view hint) {
    std::vector<Value> out;
    for (size_t i = 0; i < types.size(); ++i) {
      AOT_ASSIGN_OR_RETURN(Value v, Emit(types[i], absl::StrCat(hint, ".", i), "get-tuple-element",
                                         {tuple}, absl::StrCat("index=", i)));
      out.push_back(std::move(v));
    }
    return out;
  }
  absl::StatusOr<Value> Tuple(const std::vector<Value>& values, absl::string_view hint) {
    MlirType t;
    t.kind = MlirType::kTuple;
    for (const Value& v : values) t.tuple.push_back(v.type);
    return Emit(t, hint, "tuple", values);
  }
  // One result: the instruction. Several: the instruction as a tuple, and
  // its elements.
  absl::StatusOr<std::vector<Value>> EmitResults(const std::vector<MlirType>& types,
                                                 absl::string_view hint, absl::string_view opcode,
                                                 const std::vector<Value>& operands,
                                                 absl::string_view attrs) {
    if (types.size() == 1) {
      AOT_ASSIGN_OR_RETURN(Value v, Emit(types[0], hint, opcode, operands, attrs));
      return std::vector<Value>{v};
    }
    MlirType t;
    t.kind = MlirType::kTuple;
    t.tuple = types;
    AOT_ASSIGN_OR_RETURN(Value v, Emit(t, hint, opcode, operands, attrs));
    return Untuple(v, types, hint);
  }
  // The attributes of gather's or scatter's dimension numbers (the
  // attribute `name`, a #stablehlo.`kind`<...>): the list `fields`
  // (batching ones only when present) and index_vector_dim.
  absl::StatusOr<std::vector<std::string>> DimensionNumbers(
      const MlirOperation& op, const char* name, absl::string_view kind,
      std::initializer_list<const char*> fields) const {
    const MlirAttr* found = Attr(op, {name});
    if (found == nullptr || found->kind != MlirAttr::kDict) {
      return OpError(op, absl::StrCat("missing ", name, " = #stablehlo.", kind, "<...>"));
    }
    const MlirAttr& dn = *found;
    std::vector<std::string> attrs;
    for (const char* field : fields) {
      auto it = dn.dict.find(field);
      std::vector<int64_t> v;
      if (it != dn.dict.end()) {
        AOT_ASSIGN_OR_RETURN(v, Ints(op, it->second, field));
      }
      if (it != dn.dict.end() ||
          absl::string_view(field).find("batching") == absl::string_view::npos) {
        attrs.push_back(absl::StrCat(field, "=", Braced(v)));
      }
    }
    auto ivd = dn.dict.find("index_vector_dim");
    if (ivd == dn.dict.end()) return OpError(op, "missing index_vector_dim");
    attrs.push_back(absl::StrCat("index_vector_dim=", ivd->second.i));
    return attrs;
  }
  absl::StatusOr<Value> ScalarConstant(const MlirType& like, absl::string_view value,
                                       absl::string_view hint) {
    MlirType s = ScalarOf(like);
    AOT_ASSIGN_OR_RETURN(std::string shape, ShapeText(s));
    const std::string rhs = absl::StrCat("constant(", value, ")");
    Value v = EmitShape(shape, s, hint, rhs);
    v.constant = absl::StrCat(shape, " ", rhs);
    return v;
  }
  // Broadcasts a scalar to `type` (HLO's select, clamp and the like want
  // operands of one shape).
  absl::StatusOr<Value> BroadcastTo(const Value& v, const MlirType& type, absl::string_view hint) {
    if (v.type.kind != MlirType::kTensor || v.type.dimensions == type.dimensions) return v;
    if (!v.type.dimensions.empty()) return v;  // shapes are checked by HLO's verifier
    return Emit(WithElement(type, v.type.element), hint, "broadcast", {v}, "dimensions={}");
  }

  // --- values ---
  absl::StatusOr<Value> Lookup(const MlirValueRef& ref, const MlirOperation& op);
  void Define(const std::string& key, Value v) { current_->values[key] = std::move(v); }
  absl::Status DefineResults(const MlirOperation& op, const std::vector<Value>& results);

  // --- structure ---
  absl::StatusOr<std::string> ConvertFunction(const MlirFunction& fn, bool entry);
  absl::Status ConvertBlock(const MlirBlock& block, std::vector<Value>* returned,
                            const MlirOperation** terminator);
  absl::Status ConvertOp(const MlirOperation& op);
  absl::Status ConvertRefined(const MlirOperation& op, const std::vector<Value>& in);
  absl::StatusOr<MlirOperation> RefineResultTypes(const MlirOperation& op,
                                                  const std::vector<Value>& in);
  // A region as a computation taking `params` (one HLO parameter per block
  // argument, or one tuple parameter when `tuple_param`), returning its
  // terminator's values (one value, or a tuple of them when
  // `tuple_result`). `threaded` are outer values passed in after the block
  // arguments.
  absl::StatusOr<std::string> ConvertRegion(const MlirRegion& region, absl::string_view hint,
                                            const std::vector<MlirType>& arg_types,
                                            bool tuple_param, bool tuple_result,
                                            const std::vector<std::string>& threaded,
                                            const std::vector<Value>& threaded_values,
                                            const MlirOperation& op, bool pass_through = false);
  void FreeValues(const MlirRegion& region, std::set<std::string>* defined,
                  std::vector<std::string>* free) const;
  std::vector<std::string> OuterValues(const std::vector<const MlirRegion*>& regions);
  absl::StatusOr<std::string> FinishComputation(Computation* comp, const std::vector<Value>& root,
                                                bool tuple_result, bool entry,
                                                const std::string& root_sharding = "");

  // --- op families ---
  absl::StatusOr<std::vector<Value>> ConvertStablehlo(const MlirOperation& op,
                                                      const std::vector<Value>& in,
                                                      absl::string_view name);
  absl::StatusOr<std::vector<Value>> ConvertChlo(const MlirOperation& op,
                                                 const std::vector<Value>& in,
                                                 absl::string_view name);
  absl::Status ConvertCheck(const MlirOperation& op, const std::vector<Value>& in,
                            absl::string_view kind, std::vector<Value>* results);
  absl::StatusOr<Value> Constant(const MlirOperation& op, const MlirAttr& dense,
                                 const MlirType& type);
  absl::StatusOr<Value> ReduceOverAll(const Value& pred, absl::string_view hint);
  absl::StatusOr<std::string> ScalarComputation(absl::string_view opcode, const MlirType& scalar);
  // CHLO's special functions (no HLO opcode): erf_inv, lgamma, digamma,
  // bessel_i1e.
  absl::StatusOr<Value> SpecialFunction(const MlirOperation& op, absl::string_view name,
                                        const Value& x, const MlirType& result);
  absl::StatusOr<Value> BroadcastForChlo(const MlirOperation& op, const Value& v,
                                         const MlirType& result, const MlirAttr* dims);
  // StableHLO's broadcast_in_dim: size-1 operand dimensions may expand
  // (HLO's broadcast cannot: they are reshaped away first).
  absl::StatusOr<Value> BroadcastInDim(const MlirOperation& op, const Value& v,
                                       const MlirType& result, const std::vector<int64_t>& map);

  // --- attributes ---
  const MlirAttr* Attr(const MlirOperation& op, std::initializer_list<const char*> names) const {
    for (const char* n : names) {
      auto it = op.attributes.find(n);
      if (it != op.attributes.end()) return &it->second;
    }
    return nullptr;
  }
  absl::StatusOr<std::vector<int64_t>> Ints(const MlirOperation& op, const MlirAttr& a,
                                            absl::string_view what) const;
  absl::StatusOr<std::vector<int64_t>> IntsAttr(const MlirOperation& op,
                                                std::initializer_list<const char*> names,
                                                absl::string_view what,
                                                bool required = true) const {
    const MlirAttr* a = Attr(op, names);
    if (a == nullptr) {
      if (!required) return std::vector<int64_t>();
      return OpError(op, absl::StrCat("missing ", what));
    }
    return Ints(op, *a, what);
  }
  absl::StatusOr<int64_t> IntAttr(const MlirOperation& op, std::initializer_list<const char*> names,
                                  absl::string_view what, std::optional<int64_t> fallback) const {
    const MlirAttr* a = Attr(op, names);
    if (a == nullptr) {
      if (fallback) return *fallback;
      return OpError(op, absl::StrCat("missing ", what));
    }
    if (a->kind != MlirAttr::kInt) return OpError(op, absl::StrCat(what, " must be an integer"));
    return a->i;
  }
  bool BoolAttr(const MlirOperation& op, const char* name, bool fallback) const {
    const MlirAttr* a = Attr(op, {name});
    if (a == nullptr) return fallback;
    if (a->kind == MlirAttr::kBool) return a->b;
    if (a->kind == MlirAttr::kUnit) return true;
    return fallback;
  }
  // The (N x 2) padding of reduce_window, select_and_scatter and the
  // convolution, as lo_hi pairs.
  absl::StatusOr<std::vector<std::pair<int64_t, int64_t>>> Padding(const MlirOperation& op,
                                                                   const MlirAttr* a,
                                                                   size_t rank) const;
  absl::StatusOr<std::string> Window(const MlirOperation& op, const std::vector<int64_t>& size,
                                     const std::vector<int64_t>& stride,
                                     const std::vector<std::pair<int64_t, int64_t>>& pad,
                                     const std::vector<int64_t>& lhs_dilate,
                                     const std::vector<int64_t>& rhs_dilate) const;

  // --- types of an op ---
  MlirType ResultType(const MlirOperation& op, size_t i = 0) const {
    if (op.has_function_type) {
      return i < op.result_types.size() ? op.result_types[i] : MlirType();
    }
    if (op.types.empty()) return MlirType();
    return op.types.size() == 1 ? op.types[0] : op.types.back();
  }
  std::vector<MlirType> ResultTypes(const MlirOperation& op) const {
    if (op.has_function_type) return op.result_types;
    return op.types;
  }
  absl::Status NeedResultType(const MlirOperation& op) const {
    if (!op.has_function_type && op.types.empty()) {
      return OpError(op, "missing the type signature (': type')");
    }
    if (op.has_function_type && op.result_types.empty()) {
      return OpError(op, "the function type has no result");
    }
    return absl::OkStatus();
  }

  const MlirModule& module_;
  std::string path_;
  absl::flat_hash_map<std::string, const MlirFunction*> functions_;
  absl::flat_hash_map<std::string, std::string> converted_functions_;  // mlir name -> hlo comp
  absl::flat_hash_set<std::string> converting_;
  absl::flat_hash_set<std::string> used_names_;
  int name_counter_ = 0;
  Computation* current_ = nullptr;
  std::vector<std::pair<std::vector<Line>, std::string>> finished_;  // lines, header
  std::string origin_;
  std::map<std::string, std::string> instruction_origins_;
  // Checks found in the entry function.
  std::vector<CheckSpec> checks_;
  std::vector<std::pair<Value, Value>> check_values_;
  bool in_entry_top_ = false;
  absl::flat_hash_map<std::string, std::string> scalar_computations_;
};

absl::StatusOr<std::vector<int64_t>> Converter::Ints(const MlirOperation& op, const MlirAttr& a,
                                                     absl::string_view what) const {
  std::vector<int64_t> out;
  if (a.kind == MlirAttr::kList) {
    for (const MlirAttr& e : a.list) {
      if (e.kind == MlirAttr::kInt) {
        out.push_back(e.i);
      } else if (e.kind == MlirAttr::kBool) {
        out.push_back(e.b ? 1 : 0);
      } else {
        return OpError(op, absl::StrCat(what, " must be a list of integers"));
      }
    }
    return out;
  }
  if (a.kind == MlirAttr::kDense) {
    // The older dense<[0, 1]> : tensor<2xi64> form.
    std::vector<int64_t> dims;
    if (a.type) dims = a.type->dimensions;
    auto elements = ParseDenseElements(a.s, "s64", dims);
    if (!elements.ok()) {
      return OpError(op, absl::StrCat(what, ": ", elements.status().message()));
    }
    int64_t count = 1;
    for (int64_t d : dims) count *= d;
    for (int64_t i = 0;
         i < (elements->splat ? count : static_cast<int64_t>(elements->elements.size())); ++i) {
      int64_t v = 0;
      (void)absl::SimpleAtoi(elements->elements[elements->splat ? 0 : i], &v);
      out.push_back(v);
    }
    return out;
  }
  if (a.kind == MlirAttr::kInt) return std::vector<int64_t>{a.i};
  return OpError(op, absl::StrCat(what, " must be a list of integers"));
}

absl::StatusOr<std::vector<std::pair<int64_t, int64_t>>> Converter::Padding(const MlirOperation& op,
                                                                            const MlirAttr* a,
                                                                            size_t rank) const {
  std::vector<std::pair<int64_t, int64_t>> out(rank, {0, 0});
  if (a == nullptr) return out;
  std::vector<int64_t> flat;
  if (a->kind == MlirAttr::kList && !a->list.empty() && a->list[0].kind == MlirAttr::kList) {
    for (const MlirAttr& row : a->list) {
      AOT_ASSIGN_OR_RETURN(std::vector<int64_t> r, Ints(op, row, "padding"));
      if (r.size() != 2) return OpError(op, "each padding entry is [low, high]");
      flat.insert(flat.end(), r.begin(), r.end());
    }
  } else {
    AOT_ASSIGN_OR_RETURN(flat, Ints(op, *a, "padding"));
  }
  if (flat.size() != 2 * rank) {
    return OpError(
        op, absl::StrCat("padding has ", flat.size() / 2, " entries for ", rank, " dimension(s)"));
  }
  for (size_t i = 0; i < rank; ++i) out[i] = {flat[2 * i], flat[2 * i + 1]};
  return out;
}

absl::StatusOr<std::string> Converter::Window(const MlirOperation& op,
                                              const std::vector<int64_t>& size,
                                              const std::vector<int64_t>& stride,
                                              const std::vector<std::pair<int64_t, int64_t>>& pad,
                                              const std::vector<int64_t>& lhs_dilate,
                                              const std::vector<int64_t>& rhs_dilate) const {
  const size_t rank = size.size();
  auto check = [&](const std::vector<int64_t>& v, absl::string_view what) -> absl::Status {
    if (!v.empty() && v.size() != rank) {
      return OpError(op,
                     absl::StrCat(what, " has ", v.size(), " entries for a window of rank ", rank));
    }
    return absl::OkStatus();
  };
  AOT_RETURN_IF_ERROR(check(stride, "the window strides"));
  AOT_RETURN_IF_ERROR(check(lhs_dilate, "the base dilations"));
  AOT_RETURN_IF_ERROR(check(rhs_dilate, "the window dilations"));
  if (rank == 0) return std::string("window={}");
  std::vector<std::string> pads;
  for (const auto& [lo, hi] : pad) pads.push_back(absl::StrCat(lo, "_", hi));
  std::string w = absl::StrCat("window={size=", absl::StrJoin(size, "x"));
  if (!stride.empty()) absl::StrAppend(&w, " stride=", absl::StrJoin(stride, "x"));
  absl::StrAppend(&w, " pad=", absl::StrJoin(pads, "x"));
  if (!lhs_dilate.empty()) absl::StrAppend(&w, " lhs_dilate=", absl::StrJoin(lhs_dilate, "x"));
  if (!rhs_dilate.empty()) absl::StrAppend(&w, " rhs_dilate=", absl::StrJoin(rhs_dilate, "x"));
  w.push_back('}');
  return w;
}

absl::StatusOr<Value> Converter::Lookup(const MlirValueRef& ref, const MlirOperation& op) {
  const std::string key = ref.index >= 0 ? absl::StrCat(ref.name, "#", ref.index) : ref.name;
  for (Computation* c = current_; c != nullptr; c = c->parent) {
    auto it = c->values.find(key);
    if (it == c->values.end()) continue;
    if (c == current_) return it->second;
    // A value of an enclosing computation: constants are defined again
    // here; anything else must have been threaded in.
    if (!it->second.constant.empty()) {
      Line line;
      line.name = NewName(ref.name);
      line.text = it->second.constant;
      line.origin = origin_;
      current_->lines.push_back(line);
      Value v{absl::StrCat("%", line.name), it->second.type, it->second.constant};
      current_->values[key] = v;
      return v;
    }
    return absl::InvalidArgumentError(absl::StrCat(
        Where(ref.loc), ": '", op.name, "': value %", key,
        " is defined outside this region; only constants may be used across the body of this "
        "operation"));
  }
  if (ref.index < 0 && current_->values.contains(absl::StrCat(ref.name, "#0"))) {
    return absl::InvalidArgumentError(absl::StrCat(Where(ref.loc), ": '", op.name, "': %", ref.name,
                                                   " has several results: name one with #k"));
  }
  return absl::InvalidArgumentError(
      absl::StrCat(Where(ref.loc), ": '", op.name, "': use of undefined value %", key));
}

absl::Status Converter::DefineResults(const MlirOperation& op, const std::vector<Value>& results) {
  size_t total = 0;
  for (const auto& [name, count] : op.results) total += count;
  if (total != results.size()) {
    return OpError(op,
                   absl::StrCat("names ", total, " result(s); the operation has ", results.size()));
  }
  size_t next = 0;
  for (const auto& [name, count] : op.results) {
    if (count == 1 && op.results.size() == 1 && results.size() == 1) {
      Define(name, results[next++]);
      continue;
    }
    if (op.results.size() > 1 && count == 1) {
      Define(name, results[next++]);
      continue;
    }
    for (int k = 0; k < count; ++k) Define(absl::StrCat(name, "#", k), results[next++]);
  }
  return absl::OkStatus();
}

void Converter::FreeValues(const MlirRegion& region, std::set<std::string>* defined,
                           std::vector<std::string>* free) const {
  for (const MlirBlock& block : region.blocks) {
    for (const auto& [name, type] : block.arguments) defined->insert(name);
    for (const MlirOperation& op : block.operations) {
      for (const MlirValueRef& ref : op.operands) {
        const std::string key = ref.index >= 0 ? absl::StrCat(ref.name, "#", ref.index) : ref.name;
        if (!defined->contains(key) && !defined->contains(ref.name) &&
            std::find(free->begin(), free->end(), key) == free->end()) {
          free->push_back(key);
        }
      }
      for (const std::string& bound : op.bound_names) defined->insert(bound);
      for (const MlirRegion& nested : op.regions) {
        std::set<std::string> inner = *defined;
        FreeValues(nested, &inner, free);
      }
      for (const auto& [name, count] : op.results) {
        defined->insert(name);
        for (int k = 0; k < count; ++k) defined->insert(absl::StrCat(name, "#", k));
      }
    }
  }
}

// The outer values `regions` use that are not constants (to thread through
// while, if and case).
std::vector<std::string> Converter::OuterValues(const std::vector<const MlirRegion*>& regions) {
  std::vector<std::string> free;
  for (const MlirRegion* r : regions) {
    std::set<std::string> defined;
    FreeValues(*r, &defined, &free);
  }
  std::vector<std::string> out;
  for (const std::string& key : free) {
    for (Computation* c = current_; c != nullptr; c = c->parent) {
      auto it = c->values.find(key);
      if (it == c->values.end()) continue;
      if (it->second.constant.empty()) out.push_back(key);
      break;
    }
  }
  return out;
}

absl::StatusOr<std::string> Converter::FinishComputation(Computation* comp,
                                                         const std::vector<Value>& root,
                                                         bool tuple_result, bool entry,
                                                         const std::string& root_sharding) {
  Computation* saved = current_;
  current_ = comp;
  std::string root_name;
  if (tuple_result || root.size() != 1) {
    AOT_ASSIGN_OR_RETURN(Value t, Tuple(root, "result"));
    root_name = t.hlo.substr(1);
  } else {
    // The returned value must be an instruction of this computation.
    bool local = false;
    for (const Line& l : comp->lines) local |= absl::StrCat("%", l.name) == root[0].hlo;
    if (local) {
      root_name = root[0].hlo.substr(1);
    } else {
      AOT_ASSIGN_OR_RETURN(std::string shape, ShapeText(root[0].type));
      Value copy =
          EmitShape(shape, root[0].type, "result", absl::StrCat("copy(", root[0].hlo, ")"));
      root_name = copy.hlo.substr(1);
    }
  }
  for (Line& l : comp->lines) {
    l.root = l.name == root_name;
    if (l.root && !root_sharding.empty()) absl::StrAppend(&l.text, ", sharding=", root_sharding);
  }
  finished_.emplace_back(std::move(comp->lines),
                         absl::StrCat(entry ? "ENTRY " : "", "%", comp->name, " {"));
  current_ = saved;
  return comp->name;
}

absl::StatusOr<std::string> Converter::ConvertRegion(
    const MlirRegion& region, absl::string_view hint, const std::vector<MlirType>& arg_types,
    bool tuple_param, bool tuple_result, const std::vector<std::string>& threaded,
    const std::vector<Value>& threaded_values, const MlirOperation& op, bool pass_through) {
  if (region.blocks.size() != 1) {
    return OpError(op, absl::StrCat("a region with ", region.blocks.size(),
                                    " blocks (only single-block regions are supported)"));
  }
  const MlirBlock& block = region.blocks.front();
  Computation comp;
  comp.name = NewName(hint);
  comp.parent = current_;
  Computation* saved = current_;
  const bool saved_top = in_entry_top_;
  current_ = &comp;
  in_entry_top_ = false;
  auto restore = [&]() {
    current_ = saved;
    in_entry_top_ = saved_top;
  };
  // Block arguments: their types are what the caller says the operation
  // passes (the region's own annotations must agree; HLO checks the rest).
  std::vector<MlirType> types = arg_types;
  if (block.arguments.size() != types.size()) {
    restore();
    return OpError(op, absl::StrCat("the region takes ", block.arguments.size(),
                                    " argument(s); the operation passes ", types.size()));
  }
  for (size_t i = 0; i < threaded_values.size(); ++i) types.push_back(threaded_values[i].type);
  if (tuple_param) {
    MlirType t;
    t.kind = MlirType::kTuple;
    t.tuple = types;
    auto p = Emit(t, "param", "parameter(0)");
    if (!p.ok()) {
      restore();
      return p.status();
    }
    auto parts = Untuple(*p, types, "arg");
    if (!parts.ok()) {
      restore();
      return parts.status();
    }
    for (size_t i = 0; i < block.arguments.size(); ++i) {
      Define(block.arguments[i].first, (*parts)[i]);
    }
    for (size_t i = 0; i < threaded.size(); ++i) {
      Define(threaded[i], (*parts)[block.arguments.size() + i]);
    }
  } else {
    for (size_t i = 0; i < block.arguments.size(); ++i) {
      auto p = Emit(types[i], block.arguments[i].first, absl::StrCat("parameter(", i, ")"));
      if (!p.ok()) {
        restore();
        return p.status();
      }
      Define(block.arguments[i].first, *p);
    }
  }
  std::vector<Value> returned;
  const MlirOperation* terminator = nullptr;
  absl::Status st = ConvertBlock(block, &returned, &terminator);
  if (!st.ok()) {
    restore();
    return st;
  }
  if (terminator == nullptr) {
    restore();
    return OpError(op, "a region without a terminator (stablehlo.return)");
  }
  // Threaded values pass through unchanged (while's body).
  if (pass_through) {
    for (size_t i = 0; i < threaded.size(); ++i) {
      returned.push_back(comp.values[threaded[i]]);
    }
  }
  restore();
  return FinishComputation(&comp, returned, tuple_result, /*entry=*/false);
}

absl::Status Converter::ConvertBlock(const MlirBlock& block, std::vector<Value>* returned,
                                     const MlirOperation** terminator) {
  for (const MlirOperation& op : block.operations) {
    const std::string& n = op.name;
    if (n == "return" || n == "func.return" || n == "stablehlo.return" || n == "mhlo.return") {
      origin_ = absl::StrCat(Where(op.loc), " (", n, ")");
      for (const MlirValueRef& ref : op.operands) {
        AOT_ASSIGN_OR_RETURN(Value v, Lookup(ref, op));
        returned->push_back(std::move(v));
      }
      *terminator = &op;
      return absl::OkStatus();
    }
    AOT_RETURN_IF_ERROR(ConvertOp(op));
  }
  return absl::OkStatus();
}

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

absl::StatusOr<std::string> Converter::ScalarComputation(absl::string_view opcode,
                                                         const MlirType& scalar_like) {
  const MlirType s = ScalarOf(scalar_like);
  AOT_ASSIGN_OR_RETURN(std::string shape, ShapeText(s));
  const std::string key = absl::StrCat(opcode, " ", shape);
  auto it = scalar_computations_.find(key);
  if (it != scalar_computations_.end()) return it->second;
  Computation comp;
  comp.name = NewName(absl::StrCat(opcode, "_", shape.substr(0, shape.find('['))));
  comp.parent = nullptr;
  Computation* saved = current_;
  current_ = &comp;
  Value a = EmitShape(shape, s, "lhs", "parameter(0)");
  Value b = EmitShape(shape, s, "rhs", "parameter(1)");
  auto r = Emit(s, opcode, opcode, {a, b});
  current_ = saved;
  if (!r.ok()) return r.status();
  AOT_ASSIGN_OR_RETURN(std::string name, FinishComputation(&comp, {*r}, false, false));
  scalar_computations_[key] = name;
  return name;
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

absl::StatusOr<Value> Converter::BroadcastForChlo(const MlirOperation& op, const Value& v,
                                                  const MlirType& result, const MlirAttr* dims) {
  const size_t rank = v.type.dimensions.size();
  const size_t out_rank = result.dimensions.size();
  if (v.type.dimensions == result.dimensions) return v;
  std::vector<int64_t> map;
  if (dims != nullptr && rank < out_rank) {
    AOT_ASSIGN_OR_RETURN(map, Ints(op, *dims, "broadcast_dimensions"));
  } else {
    for (size_t i = 0; i < rank; ++i) map.push_back(static_cast<int64_t>(out_rank - rank + i));
  }
  return BroadcastInDim(op, v, result, map);
}

absl::StatusOr<Value> Converter::BroadcastInDim(const MlirOperation& op, const Value& v,
                                                const MlirType& result,
                                                const std::vector<int64_t>& map) {
  const size_t rank = v.type.dimensions.size();
  const size_t out_rank = result.dimensions.size();
  if (map.size() != rank) {
    return OpError(op, absl::StrCat("broadcast dimensions list ", map.size(),
                                    " entries for an operand of rank ", rank));
  }
  // Size-1 dimensions that expand are dropped first (numpy broadcasting).
  std::vector<int64_t> kept_dims, kept_map;
  for (size_t i = 0; i < rank; ++i) {
    if (map[i] < 0 || map[i] >= static_cast<int64_t>(out_rank)) {
      return OpError(op, "broadcast dimension out of range");
    }
    if (v.type.dimensions[i] == 1 && result.dimensions[map[i]] != 1) continue;
    kept_dims.push_back(v.type.dimensions[i]);
    kept_map.push_back(map[i]);
  }
  Value x = v;
  if (kept_dims.size() != rank) {
    MlirType reshaped = v.type;
    reshaped.dimensions = kept_dims;
    reshaped.bounds.assign(kept_dims.size(), -1);
    AOT_ASSIGN_OR_RETURN(x, Emit(reshaped, "squeeze", "reshape", {v}));
  }
  return Emit(WithElement(result, v.type.element), "bcast", "broadcast", {x},
              absl::StrCat("dimensions=", Braced(kept_map)));
}

// The special functions JAX emits as CHLO ops, decomposed into HLO as
// XLA's CHLO legalization does, from published approximations (computed in
// f32 for f16/bf16 and narrower inputs, in the input type for f32/f64):
// - erf_inv: M. Giles, "Approximating the erfinv function" (GPU Computing
//   Gems, 2010), the single-precision polynomials in w = -log(1 - x^2);
//   +-inf at +-1.
// - bessel_i1e: exp(-|x|) I1(x) by its power series up to |x| = 15 and
//   the asymptotic expansion above;
// - lgamma and digamma: the Lanczos approximation (g = 7, 9 terms), with
//   the reflection formulas below 1/2 (lgamma(x) = log(pi) -
//   log|sin(pi x)| - lgamma(1 - x); digamma(x) = digamma(1 - x) -
//   pi cot(pi x)), the angle reduced to frac(x); lgamma is +inf at the
//   poles and at +-inf, digamma NaN at the poles.
absl::StatusOr<Value> Converter::SpecialFunction(const MlirOperation& op, absl::string_view name,
                                                 const Value& input, const MlirType& result) {
  const std::string& e = input.type.element;
  if (!IsFloatElement(e) || absl::StartsWith(e, "complex")) {
    return OpError(op, "takes a real floating-point operand");
  }
  const bool wide = e == "f32" || e == "f64";
  const MlirType t = wide ? input.type : WithElement(input.type, "f32");
  Value x = input;
  if (!wide) {
    AOT_ASSIGN_OR_RETURN(x, Emit(t, "upcast", "convert", {input}));
  }
  const MlirType pred = WithElement(t, "i1");
  // Small expression helpers over values of type t.
  auto k = [&](double v) -> absl::StatusOr<Value> {
    std::string text = std::isnan(v)   ? "nan"
                       : std::isinf(v) ? (v < 0 ? "-inf" : "inf")
                                       : absl::StrFormat("%.17g", v);
    AOT_ASSIGN_OR_RETURN(Value c, ScalarConstant(t, text, "k"));
    return BroadcastTo(c, t, "k");
  };
  auto bin = [&](absl::string_view opcode, const Value& a, const Value& b) {
    return Emit(t, opcode, opcode, {a, b});
  };
  auto un = [&](absl::string_view opcode, const Value& a) { return Emit(t, opcode, opcode, {a}); };
  auto cmp = [&](absl::string_view dir, const Value& a, const Value& b) {
    return Emit(pred, "cmp", "compare", {a, b}, absl::StrCat("direction=", dir));
  };
  auto sel = [&](const Value& p, const Value& a, const Value& b) {
    return Emit(t, "sel", "select", {p, a, b});
  };
  // Horner's rule from the highest coefficient, c[0].
  auto poly = [&](const Value& w, const std::vector<double>& c) -> absl::StatusOr<Value> {
    AOT_ASSIGN_OR_RETURN(Value p, k(c[0]));
    for (size_t i = 1; i < c.size(); ++i) {
      AOT_ASSIGN_OR_RETURN(Value pw, bin("multiply", p, w));
      AOT_ASSIGN_OR_RETURN(Value ci, k(c[i]));
      AOT_ASSIGN_OR_RETURN(p, bin("add", ci, pw));
    }
    return p;
  };
  Value out;
  if (name == "bessel_i1e") {
    // exp(-|x|) I1(x): the power series sum (x/2)^(2k+1) / (k! (k+1)!)
    // (40 terms) up to |x| = 15, above it the asymptotic expansion
    // sign(x) / sqrt(2 pi |x|) (1 - 3/(8z) - 15/(128z^2) - 315/(3072z^3)
    // - 14175/(98304z^4)) with z = |x|.
    AOT_ASSIGN_OR_RETURN(Value half, k(0.5));
    AOT_ASSIGN_OR_RETURN(Value h, bin("multiply", x, half));
    AOT_ASSIGN_OR_RETURN(Value h2, bin("multiply", h, h));
    Value term = h, sum = h;
    for (int i = 0; i < 40; ++i) {
      AOT_ASSIGN_OR_RETURN(Value d, k(1.0 / ((i + 1.0) * (i + 2.0))));
      AOT_ASSIGN_OR_RETURN(Value t1, bin("multiply", term, h2));
      AOT_ASSIGN_OR_RETURN(term, bin("multiply", t1, d));
      AOT_ASSIGN_OR_RETURN(sum, bin("add", sum, term));
    }
    AOT_ASSIGN_OR_RETURN(Value ax, un("abs", x));
    AOT_ASSIGN_OR_RETURN(Value nax, un("negate", ax));
    AOT_ASSIGN_OR_RETURN(Value scale, un("exponential", nax));
    AOT_ASSIGN_OR_RETURN(Value small, bin("multiply", sum, scale));
    AOT_ASSIGN_OR_RETURN(Value one, k(1));
    AOT_ASSIGN_OR_RETURN(Value inv, bin("divide", one, ax));
    AOT_ASSIGN_OR_RETURN(Value series,
                         poly(inv, {-14175.0 / 98304, -315.0 / 3072, -15.0 / 128, -3.0 / 8, 1.0}));
    AOT_ASSIGN_OR_RETURN(Value two_pi, k(2 * M_PI));
    AOT_ASSIGN_OR_RETURN(Value tpz, bin("multiply", two_pi, ax));
    AOT_ASSIGN_OR_RETURN(Value root, un("rsqrt", tpz));
    AOT_ASSIGN_OR_RETURN(Value mag, bin("multiply", series, root));
    AOT_ASSIGN_OR_RETURN(Value sgn, un("sign", x));
    AOT_ASSIGN_OR_RETURN(Value large, bin("multiply", mag, sgn));
    AOT_ASSIGN_OR_RETURN(Value fifteen, k(15));
    AOT_ASSIGN_OR_RETURN(Value near, cmp("LE", ax, fifteen));
    AOT_ASSIGN_OR_RETURN(out, sel(near, small, large));
  } else if (name == "erf_inv") {
    AOT_ASSIGN_OR_RETURN(Value one, k(1));
    AOT_ASSIGN_OR_RETURN(Value a, bin("subtract", one, x));
    AOT_ASSIGN_OR_RETURN(Value b, bin("add", one, x));
    AOT_ASSIGN_OR_RETURN(Value ab, bin("multiply", a, b));
    AOT_ASSIGN_OR_RETURN(Value lg, un("log", ab));
    AOT_ASSIGN_OR_RETURN(Value w, un("negate", lg));
    AOT_ASSIGN_OR_RETURN(Value two_and_half, k(2.5));
    AOT_ASSIGN_OR_RETURN(Value w_small, bin("subtract", w, two_and_half));
    AOT_ASSIGN_OR_RETURN(
        Value p_small,
        poly(w_small, {2.81022636e-08, 3.43273939e-07, -3.5233877e-06, -4.39150654e-06,
                       0.00021858087, -0.00125372503, -0.00417768164, 0.246640727, 1.50140941}));
    AOT_ASSIGN_OR_RETURN(Value sq, un("sqrt", w));
    AOT_ASSIGN_OR_RETURN(Value three, k(3));
    AOT_ASSIGN_OR_RETURN(Value w_big, bin("subtract", sq, three));
    AOT_ASSIGN_OR_RETURN(Value p_big, poly(w_big, {-0.000200214257, 0.000100950558, 0.00134934322,
                                                   -0.00367342844, 0.00573950773, -0.0076224613,
                                                   0.00943887047, 1.00167406, 2.83297682}));
    AOT_ASSIGN_OR_RETURN(Value five, k(5));
    AOT_ASSIGN_OR_RETURN(Value small, cmp("LT", w, five));
    AOT_ASSIGN_OR_RETURN(Value p, sel(small, p_small, p_big));
    AOT_ASSIGN_OR_RETURN(Value px, bin("multiply", p, x));
    AOT_ASSIGN_OR_RETURN(Value ax, un("abs", x));
    AOT_ASSIGN_OR_RETURN(Value at_one, cmp("EQ", ax, one));
    AOT_ASSIGN_OR_RETURN(Value inf, k(HUGE_VAL));
    AOT_ASSIGN_OR_RETURN(Value inf_x, bin("multiply", inf, x));
    AOT_ASSIGN_OR_RETURN(out, sel(at_one, inf_x, px));
  } else {
    // Lanczos on z = y - 1 for y >= 1/2, with y = x or, reflected, 1 - x:
    // A(z) = c0 + sum c_i / (z + i + 1), t = z + g + 1/2,
    // lgamma(y) = log(2 pi) / 2 + (z + 1/2) log(t) - t + log(A(z)),
    // digamma(y) = log(t) - g / t + A'(z) / A(z).
    constexpr double kG = 7;
    constexpr double kC0 = 0.99999999999980993;
    constexpr double kC[] = {676.5203681218851,     -1259.1392167224028,  771.32342877765313,
                             -176.61502916214059,   12.507343278686905,   -0.13857109526572012,
                             9.9843695780195716e-6, 1.5056327351493116e-7};
    AOT_ASSIGN_OR_RETURN(Value one, k(1));
    AOT_ASSIGN_OR_RETURN(Value half, k(0.5));
    AOT_ASSIGN_OR_RETURN(Value reflect, cmp("LT", x, half));
    AOT_ASSIGN_OR_RETURN(Value one_minus_x, bin("subtract", one, x));
    AOT_ASSIGN_OR_RETURN(Value y, sel(reflect, one_minus_x, x));
    AOT_ASSIGN_OR_RETURN(Value z, bin("subtract", y, one));
    AOT_ASSIGN_OR_RETURN(Value a, k(kC0));
    AOT_ASSIGN_OR_RETURN(Value da, k(0));
    for (int i = 0; i < 8; ++i) {
      AOT_ASSIGN_OR_RETURN(Value off, k(i + 1));
      AOT_ASSIGN_OR_RETURN(Value d, bin("add", z, off));
      AOT_ASSIGN_OR_RETURN(Value ci, k(kC[i]));
      AOT_ASSIGN_OR_RETURN(Value q, bin("divide", ci, d));
      AOT_ASSIGN_OR_RETURN(a, bin("add", a, q));
      AOT_ASSIGN_OR_RETURN(Value q2, bin("divide", q, d));
      AOT_ASSIGN_OR_RETURN(da, bin("subtract", da, q2));
    }
    AOT_ASSIGN_OR_RETURN(Value g_half, k(kG + 0.5));
    AOT_ASSIGN_OR_RETURN(Value tt, bin("add", z, g_half));
    AOT_ASSIGN_OR_RETURN(Value log_t, un("log", tt));
    // sin(pi x) and cos(pi x) on the reduced angle pi * frac(x).
    AOT_ASSIGN_OR_RETURN(Value fl, un("floor", x));
    AOT_ASSIGN_OR_RETURN(Value frac, bin("subtract", x, fl));
    AOT_ASSIGN_OR_RETURN(Value pi, k(M_PI));
    AOT_ASSIGN_OR_RETURN(Value angle, bin("multiply", pi, frac));
    AOT_ASSIGN_OR_RETURN(Value sin_pi, un("sine", angle));
    AOT_ASSIGN_OR_RETURN(Value zero, k(0));
    AOT_ASSIGN_OR_RETURN(Value integral, cmp("EQ", frac, zero));
    AOT_ASSIGN_OR_RETURN(Value nonpositive, cmp("LE", x, zero));
    AOT_ASSIGN_OR_RETURN(Value pole, Emit(pred, "pole", "and", {integral, nonpositive}));
    if (name == "lgamma") {
      AOT_ASSIGN_OR_RETURN(Value half_log_2pi, k(0.91893853320467274178));
      AOT_ASSIGN_OR_RETURN(Value zh, bin("add", z, half));
      AOT_ASSIGN_OR_RETURN(Value term, bin("multiply", zh, log_t));
      AOT_ASSIGN_OR_RETURN(Value log_a, un("log", a));
      AOT_ASSIGN_OR_RETURN(Value l1, bin("add", half_log_2pi, term));
      AOT_ASSIGN_OR_RETURN(Value l2, bin("subtract", l1, tt));
      AOT_ASSIGN_OR_RETURN(Value lg, bin("add", l2, log_a));
      AOT_ASSIGN_OR_RETURN(Value abs_sin, un("abs", sin_pi));
      AOT_ASSIGN_OR_RETURN(Value log_sin, un("log", abs_sin));
      AOT_ASSIGN_OR_RETURN(Value log_pi, k(1.14472988584940017414));
      AOT_ASSIGN_OR_RETURN(Value r1, bin("subtract", log_pi, log_sin));
      AOT_ASSIGN_OR_RETURN(Value reflected, bin("subtract", r1, lg));
      AOT_ASSIGN_OR_RETURN(Value v, sel(reflect, reflected, lg));
      AOT_ASSIGN_OR_RETURN(Value inf, k(HUGE_VAL));
      AOT_ASSIGN_OR_RETURN(Value ax, un("abs", x));
      AOT_ASSIGN_OR_RETURN(Value is_inf, cmp("EQ", ax, inf));
      AOT_ASSIGN_OR_RETURN(Value to_inf, Emit(pred, "to_inf", "or", {pole, is_inf}));
      AOT_ASSIGN_OR_RETURN(out, sel(to_inf, inf, v));
    } else {
      AOT_ASSIGN_OR_RETURN(Value g, k(kG));
      AOT_ASSIGN_OR_RETURN(Value g_over_t, bin("divide", g, tt));
      AOT_ASSIGN_OR_RETURN(Value ratio, bin("divide", da, a));
      AOT_ASSIGN_OR_RETURN(Value d1, bin("subtract", log_t, g_over_t));
      AOT_ASSIGN_OR_RETURN(Value dg, bin("add", d1, ratio));
      AOT_ASSIGN_OR_RETURN(Value cos_pi, un("cosine", angle));
      AOT_ASSIGN_OR_RETURN(Value cot, bin("divide", cos_pi, sin_pi));
      AOT_ASSIGN_OR_RETURN(Value pi_cot, bin("multiply", pi, cot));
      AOT_ASSIGN_OR_RETURN(Value reflected, bin("subtract", dg, pi_cot));
      AOT_ASSIGN_OR_RETURN(Value v, sel(reflect, reflected, dg));
      AOT_ASSIGN_OR_RETURN(Value nan, k(NAN));
      AOT_ASSIGN_OR_RETURN(out, sel(pole, nan, v));
    }
  }
  if (!wide) return Emit(result, "downcast", "convert", {out});
  return out;
}

absl::StatusOr<std::vector<Value>> Converter::ConvertChlo(const MlirOperation& op,
                                                          const std::vector<Value>& in,
                                                          absl::string_view name) {
  AOT_RETURN_IF_ERROR(NeedResultType(op));
  const MlirType rt = ResultType(op);
  for (const SimpleOp& s : kChloUnary) {
    if (name != s.mlir) continue;
    if (in.size() != 1) return OpError(op, "takes one operand");
    if (name == "square") {
      AOT_ASSIGN_OR_RETURN(Value v, Emit(rt, "square", "multiply", {in[0], in[0]}));
      return std::vector<Value>{v};
    }
    AOT_ASSIGN_OR_RETURN(Value v, Emit(rt, s.hlo, s.hlo, in));
    return std::vector<Value>{v};
  }
  for (const SimpleOp& s : kChloBroadcast) {
    if (name != s.mlir) continue;
    if (static_cast<int>(in.size()) != s.arity) {
      return OpError(op, absl::StrCat("takes ", s.arity, " operands"));
    }
    const MlirAttr* dims = Attr(op, {"broadcast_dimensions"});
    std::vector<Value> args;
    for (const Value& v : in) {
      AOT_ASSIGN_OR_RETURN(Value b, BroadcastForChlo(op, v, rt, dims));
      args.push_back(b);
    }
    std::string attrs;
    if (name == "broadcast_compare") {
      const MlirAttr* d = Attr(op, {"comparison_direction"});
      if (d == nullptr) return OpError(op, "missing comparison_direction");
      attrs = absl::StrCat("direction=", d->s);
      if (const MlirAttr* t = Attr(op, {"compare_type"}); t != nullptr && t->s != "NOTYPE") {
        absl::StrAppend(&attrs, ", type=", t->s);
      }
    }
    AOT_ASSIGN_OR_RETURN(Value v, Emit(rt, s.hlo, s.hlo, args, attrs));
    return std::vector<Value>{v};
  }
  if (name == "erf_inv" || name == "lgamma" || name == "digamma" || name == "bessel_i1e") {
    if (in.size() != 1) return OpError(op, "takes one operand");
    AOT_ASSIGN_OR_RETURN(Value v, SpecialFunction(op, name, in[0], rt));
    return std::vector<Value>{v};
  }
  if (name == "is_inf" || name == "is_pos_inf" || name == "is_neg_inf") {
    if (in.size() != 1) return OpError(op, "takes one operand");
    Value x = in[0];
    if (name == "is_inf") {
      AOT_ASSIGN_OR_RETURN(x, Emit(in[0].type, "abs", "abs", {in[0]}));
    }
    AOT_ASSIGN_OR_RETURN(Value inf,
                         ScalarConstant(in[0].type, name == "is_neg_inf" ? "-inf" : "inf", "inf"));
    AOT_ASSIGN_OR_RETURN(Value infs, BroadcastTo(inf, in[0].type, "infs"));
    AOT_ASSIGN_OR_RETURN(Value v, Emit(rt, name, "compare", {x, infs}, "direction=EQ"));
    return std::vector<Value>{v};
  }
  if (name == "top_k") {
    if (in.size() != 1) return OpError(op, "takes one operand");
    AOT_ASSIGN_OR_RETURN(int64_t k, IntAttr(op, {"k"}, "k", std::nullopt));
    std::vector<MlirType> types = ResultTypes(op);
    if (types.size() != 2) return OpError(op, "has two results (values, indices)");
    return EmitResults(types, "top_k", "topk", in, absl::StrCat("k=", k, ", largest=true"));
  }
  if (name == "constant_like") {
    const MlirAttr* value = Attr(op, {"value"});
    if (in.size() != 1 || value == nullptr)
      return OpError(op, "expects {value = ...} and an operand");
    std::string text = value->kind == MlirAttr::kBool ? (value->b ? "true" : "false") : value->s;
    AOT_ASSIGN_OR_RETURN(Value s, ScalarConstant(rt, text, "constant_like"));
    AOT_ASSIGN_OR_RETURN(Value v, BroadcastTo(s, rt, "constant_like"));
    return std::vector<Value>{v};
  }
  if (name == "constant") {
    for (const MlirAttr& p : op.positional) {
      if (p.kind == MlirAttr::kDense) {
        AOT_ASSIGN_OR_RETURN(Value v, Constant(op, p, rt));
        return std::vector<Value>{v};
      }
    }
    const MlirAttr* value = Attr(op, {"value"});
    if (value == nullptr) return OpError(op, "expects a dense<...> value");
    AOT_ASSIGN_OR_RETURN(Value v, Constant(op, *value, rt));
    return std::vector<Value>{v};
  }
  return OpError(op, "unsupported chlo operation");
}

absl::StatusOr<std::vector<Value>> Converter::ConvertStablehlo(const MlirOperation& op,
                                                               const std::vector<Value>& in,
                                                               absl::string_view name) {
  auto one = [](absl::StatusOr<Value> v) -> absl::StatusOr<std::vector<Value>> {
    if (!v.ok()) return v.status();
    return std::vector<Value>{*std::move(v)};
  };
  auto arity = [&](size_t n) -> absl::Status {
    if (in.size() != n) {
      return OpError(op, absl::StrCat("takes ", n, " operand(s), found ", in.size()));
    }
    return absl::OkStatus();
  };
  const std::string hint = op.results.empty() ? std::string(name) : op.results[0].first;

  for (const SimpleOp& s : kSimpleOps) {
    if (name != s.mlir) continue;
    AOT_RETURN_IF_ERROR(arity(s.arity));
    AOT_RETURN_IF_ERROR(NeedResultType(op));
    return one(Emit(ResultType(op), hint, s.hlo, in));
  }
  if (name == "constant") {
    AOT_RETURN_IF_ERROR(NeedResultType(op));
    for (const MlirAttr& p : op.positional) {
      if (p.kind == MlirAttr::kDense) return one(Constant(op, p, ResultType(op)));
    }
    const MlirAttr* value = Attr(op, {"value"});
    if (value == nullptr || value->kind != MlirAttr::kDense) {
      return OpError(op, "expects a dense<...> value");
    }
    return one(Constant(op, *value, ResultType(op)));
  }
  if (name == "compare") {
    AOT_RETURN_IF_ERROR(arity(2));
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
    return one(Emit(ResultType(op), hint, "compare", in, attrs));
  }
  if (name == "select" || name == "clamp") {
    AOT_RETURN_IF_ERROR(arity(3));
    AOT_RETURN_IF_ERROR(NeedResultType(op));
    const MlirType rt = ResultType(op);
    std::vector<Value> args;
    for (size_t i = 0; i < 3; ++i) {
      MlirType want = rt;
      if (name == "select" && i == 0) want = WithElement(rt, "i1");
      AOT_ASSIGN_OR_RETURN(Value b, BroadcastTo(in[i], want, "bcast"));
      args.push_back(b);
    }
    return one(Emit(rt, hint, name == "select" ? "select" : "clamp", args));
  }
  if (name == "broadcast_in_dim" || name == "dynamic_broadcast_in_dim") {
    if (in.empty()) return OpError(op, "takes an operand");
    AOT_RETURN_IF_ERROR(NeedResultType(op));
    AOT_ASSIGN_OR_RETURN(std::vector<int64_t> dims,
                         IntsAttr(op, {"dims", "broadcast_dimensions"}, "broadcast dimensions"));
    return one(BroadcastInDim(op, in[0], ResultType(op), dims));
  }
  if (name == "dynamic_reshape") {
    if (in.empty()) return OpError(op, "takes an operand");
    AOT_RETURN_IF_ERROR(NeedResultType(op));
    return one(Emit(ResultType(op), hint, "reshape", {in[0]}));
  }
  if (name == "transpose") {
    AOT_RETURN_IF_ERROR(arity(1));
    AOT_RETURN_IF_ERROR(NeedResultType(op));
    AOT_ASSIGN_OR_RETURN(std::vector<int64_t> dims,
                         IntsAttr(op, {"dims", "permutation"}, "the permutation"));
    return one(
        Emit(ResultType(op), hint, "transpose", in, absl::StrCat("dimensions=", Braced(dims))));
  }
  if (name == "reverse") {
    AOT_RETURN_IF_ERROR(arity(1));
    AOT_ASSIGN_OR_RETURN(std::vector<int64_t> dims,
                         IntsAttr(op, {"dims", "dimensions"}, "the dimensions"));
    MlirType rt = op.types.empty() && op.result_types.empty() ? in[0].type : ResultType(op);
    return one(Emit(rt, hint, "reverse", in, absl::StrCat("dimensions=", Braced(dims))));
  }
  if (name == "iota" || name == "dynamic_iota") {
    AOT_RETURN_IF_ERROR(NeedResultType(op));
    AOT_ASSIGN_OR_RETURN(
        int64_t dim, IntAttr(op, {"dim", "iota_dimension"}, "the iota dimension", std::nullopt));
    return one(Emit(ResultType(op), hint, absl::StrCat("iota(), iota_dimension=", dim)));
  }
  if (name == "concatenate") {
    if (in.empty()) return OpError(op, "takes at least one operand");
    AOT_RETURN_IF_ERROR(NeedResultType(op));
    AOT_ASSIGN_OR_RETURN(int64_t dim,
                         IntAttr(op, {"dim", "dimension"}, "the dimension", std::nullopt));
    return one(
        Emit(ResultType(op), hint, "concatenate", in, absl::StrCat("dimensions={", dim, "}")));
  }
  if (name == "slice") {
    AOT_RETURN_IF_ERROR(arity(1));
    AOT_RETURN_IF_ERROR(NeedResultType(op));
    std::vector<int64_t> start, limit, strides;
    const MlirAttr* ranges = nullptr;
    for (const MlirAttr& p : op.positional) {
      if (p.kind == MlirAttr::kList) ranges = &p;
    }
    if (ranges != nullptr) {
      for (const MlirAttr& r : ranges->list) {
        if (r.kind != MlirAttr::kList || r.list.size() < 2 || r.list.size() > 3) {
          return OpError(op, "expects [start:limit(:stride), ...]");
        }
        start.push_back(r.list[0].i);
        limit.push_back(r.list[1].i);
        strides.push_back(r.list.size() == 3 ? r.list[2].i : 1);
      }
    } else {
      AOT_ASSIGN_OR_RETURN(start, IntsAttr(op, {"start_indices"}, "start_indices"));
      AOT_ASSIGN_OR_RETURN(limit, IntsAttr(op, {"limit_indices"}, "limit_indices"));
      AOT_ASSIGN_OR_RETURN(strides, IntsAttr(op, {"strides"}, "strides", false));
      if (strides.empty()) strides.assign(start.size(), 1);
    }
    if (start.size() != limit.size() || start.size() != strides.size()) {
      return OpError(op, "start, limit and strides differ in length");
    }
    std::vector<std::string> parts;
    for (size_t i = 0; i < start.size(); ++i) {
      parts.push_back(absl::StrCat("[", start[i], ":", limit[i], ":", strides[i], "]"));
    }
    return one(Emit(ResultType(op), hint, "slice", in,
                    absl::StrCat("slice={", absl::StrJoin(parts, ", "), "}")));
  }
  if (name == "dynamic_slice") {
    if (in.empty()) return OpError(op, "takes an operand and start indices");
    AOT_RETURN_IF_ERROR(NeedResultType(op));
    AOT_ASSIGN_OR_RETURN(std::vector<int64_t> sizes,
                         IntsAttr(op, {"sizes", "slice_sizes"}, "slice sizes"));
    return one(Emit(ResultType(op), hint, "dynamic-slice", in,
                    absl::StrCat("dynamic_slice_sizes=", Braced(sizes))));
  }
  if (name == "dynamic_update_slice") {
    if (in.size() < 2) return OpError(op, "takes an operand, an update and start indices");
    MlirType rt = op.types.empty() && op.result_types.empty() ? in[0].type : ResultType(op);
    return one(Emit(rt, hint, "dynamic-update-slice", in));
  }
  if (name == "pad") {
    AOT_RETURN_IF_ERROR(arity(2));
    AOT_RETURN_IF_ERROR(NeedResultType(op));
    AOT_ASSIGN_OR_RETURN(std::vector<int64_t> low,
                         IntsAttr(op, {"low", "edge_padding_low"}, "the low padding"));
    AOT_ASSIGN_OR_RETURN(std::vector<int64_t> high,
                         IntsAttr(op, {"high", "edge_padding_high"}, "the high padding"));
    AOT_ASSIGN_OR_RETURN(std::vector<int64_t> interior,
                         IntsAttr(op, {"interior", "interior_padding"}, "interior padding", false));
    if (interior.empty()) interior.assign(low.size(), 0);
    if (low.size() != high.size() || low.size() != interior.size()) {
      return OpError(op, "low, high and interior padding differ in length");
    }
    std::vector<std::string> parts;
    for (size_t i = 0; i < low.size(); ++i) {
      parts.push_back(absl::StrCat(low[i], "_", high[i], "_", interior[i]));
    }
    if (parts.empty()) parts.push_back("");
    return one(
        Emit(ResultType(op), hint, "pad", in, absl::StrCat("padding=", absl::StrJoin(parts, "x"))));
  }
  if (name == "dot_general" || name == "dot") {
    AOT_RETURN_IF_ERROR(arity(2));
    AOT_RETURN_IF_ERROR(NeedResultType(op));
    std::vector<int64_t> lb, rb, lc, rc;
    if (name == "dot") {
      lc = {static_cast<int64_t>(in[0].type.dimensions.size()) - 1};
      rc = {0};
    } else if (const MlirAttr* dn = Attr(op, {"dot_dimension_numbers"})) {
      auto get = [&](const char* field, std::vector<int64_t>* out) -> absl::Status {
        auto it = dn->dict.find(field);
        if (it == dn->dict.end()) return absl::OkStatus();
        AOT_ASSIGN_OR_RETURN(*out, Ints(op, it->second, field));
        return absl::OkStatus();
      };
      AOT_RETURN_IF_ERROR(get("lhs_batching_dimensions", &lb));
      AOT_RETURN_IF_ERROR(get("rhs_batching_dimensions", &rb));
      AOT_RETURN_IF_ERROR(get("lhs_contracting_dimensions", &lc));
      AOT_RETURN_IF_ERROR(get("rhs_contracting_dimensions", &rc));
    } else {
      auto pair = [&](const char* attr, std::vector<int64_t>* l,
                      std::vector<int64_t>* r) -> absl::Status {
        const MlirAttr* a = Attr(op, {attr});
        if (a == nullptr) return absl::OkStatus();
        if (a->kind != MlirAttr::kList || a->s != "pair" || a->list.size() != 2) {
          return OpError(op, absl::StrCat(attr, " must be [lhs dims] x [rhs dims]"));
        }
        AOT_ASSIGN_OR_RETURN(*l, Ints(op, a->list[0], attr));
        AOT_ASSIGN_OR_RETURN(*r, Ints(op, a->list[1], attr));
        return absl::OkStatus();
      };
      AOT_RETURN_IF_ERROR(pair("batching_dims", &lb, &rb));
      AOT_RETURN_IF_ERROR(pair("contracting_dims", &lc, &rc));
    }
    return one(Emit(ResultType(op), hint, "dot", in,
                    absl::StrCat("lhs_batch_dims=", Braced(lb), ", rhs_batch_dims=", Braced(rb),
                                 ", lhs_contracting_dims=", Braced(lc),
                                 ", rhs_contracting_dims=", Braced(rc))));
  }
  if (name == "get_tuple_element") {
    AOT_RETURN_IF_ERROR(arity(1));
    AOT_RETURN_IF_ERROR(NeedResultType(op));
    int64_t index = -1;
    for (const MlirAttr& p : op.positional) {
      if (p.kind == MlirAttr::kList && p.list.size() == 1) index = p.list[0].i;
    }
    if (index < 0) {
      AOT_ASSIGN_OR_RETURN(index, IntAttr(op, {"index"}, "the index", std::nullopt));
    }
    return one(Emit(ResultType(op), hint, "get-tuple-element", in, absl::StrCat("index=", index)));
  }
  if (name == "tuple") {
    return one(Tuple(in, hint));
  }
  if (name == "optimization_barrier") {
    AOT_ASSIGN_OR_RETURN(Value t, Tuple(in, "barrier_in"));
    MlirType tt = t.type;
    AOT_ASSIGN_OR_RETURN(Value b, Emit(tt, hint, "opt-barrier", {t}));
    std::vector<MlirType> types;
    for (const Value& v : in) types.push_back(v.type);
    return Untuple(b, types, hint);
  }
  if (name == "rng_bit_generator") {
    AOT_RETURN_IF_ERROR(arity(1));
    std::vector<MlirType> types = ResultTypes(op);
    if (types.size() != 2) return OpError(op, "has two results (the new state, the bits)");
    std::string algorithm = "DEFAULT";
    if (const MlirAttr* a = Attr(op, {"rng_algorithm", "algorithm"})) algorithm = a->s;
    static const std::map<std::string, std::string> kAlgorithms = {
        {"DEFAULT", "rng_default"}, {"THREE_FRY", "rng_three_fry"}, {"PHILOX", "rng_philox"}};
    auto it = kAlgorithms.find(algorithm);
    if (it == kAlgorithms.end()) {
      return OpError(op, absl::StrCat("unknown RNG algorithm '", algorithm,
                                      "' (DEFAULT, THREE_FRY or PHILOX)"));
    }
    return EmitResults(types, hint, "rng-bit-generator", in,
                       absl::StrCat("algorithm=", it->second));
  }
  if (name == "after_all" || name == "create_token") {
    MlirType token;
    token.kind = MlirType::kToken;
    return one(Emit(token, hint, "after-all", in));
  }
  if (name == "replica_id" || name == "partition_id") {
    MlirType u32;
    u32.element = "ui32";
    return one(Emit(u32, hint, name == "replica_id" ? "replica-id" : "partition-id", {}));
  }
  if (name == "get_dimension_size") {
    AOT_RETURN_IF_ERROR(arity(1));
    AOT_ASSIGN_OR_RETURN(int64_t dim,
                         IntAttr(op, {"dim", "dimension"}, "the dimension", std::nullopt));
    MlirType s32;
    s32.element = "i32";
    return one(Emit(s32, hint, "get-dimension-size", in, absl::StrCat("dimensions={", dim, "}")));
  }
  if (name == "set_dimension_size") {
    AOT_RETURN_IF_ERROR(arity(2));
    AOT_RETURN_IF_ERROR(NeedResultType(op));
    AOT_ASSIGN_OR_RETURN(int64_t dim,
                         IntAttr(op, {"dim", "dimension"}, "the dimension", std::nullopt));
    return one(Emit(ResultType(op), hint, "set-dimension-size", in,
                    absl::StrCat("dimensions={", dim, "}")));
  }
  if (name == "reduce_precision") {
    AOT_RETURN_IF_ERROR(arity(1));
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
    return one(Emit(rt, hint, "reduce-precision", in,
                    absl::StrCat("exponent_bits=", e, ", mantissa_bits=", m)));
  }
  if (name == "cholesky") {
    AOT_RETURN_IF_ERROR(arity(1));
    MlirType rt = op.types.empty() && op.result_types.empty() ? in[0].type : ResultType(op);
    return one(Emit(rt, hint, "cholesky", in,
                    absl::StrCat("lower=", BoolAttr(op, "lower", false) ? "true" : "false")));
  }
  if (name == "triangular_solve") {
    AOT_RETURN_IF_ERROR(arity(2));
    AOT_RETURN_IF_ERROR(NeedResultType(op));
    std::string transpose = "NO_TRANSPOSE";
    if (const MlirAttr* t = Attr(op, {"transpose_a"})) transpose = t->s;
    return one(Emit(
        ResultType(op), hint, "triangular-solve", in,
        absl::StrCat("left_side=", BoolAttr(op, "left_side", false) ? "true" : "false",
                     ", lower=", BoolAttr(op, "lower", false) ? "true" : "false",
                     ", unit_diagonal=", BoolAttr(op, "unit_diagonal", false) ? "true" : "false",
                     ", transpose_a=", transpose)));
  }
  if (name == "fft") {
    AOT_RETURN_IF_ERROR(arity(1));
    AOT_RETURN_IF_ERROR(NeedResultType(op));
    const MlirAttr* type = Attr(op, {"type", "fft_type"});
    if (type == nullptr) return OpError(op, "missing the FFT type");
    AOT_ASSIGN_OR_RETURN(std::vector<int64_t> length,
                         IntsAttr(op, {"length", "fft_length"}, "the FFT length"));
    return one(Emit(ResultType(op), hint, "fft", in,
                    absl::StrCat("fft_type=", type->s, ", fft_length=", Braced(length))));
  }
  if (name == "batch_norm_inference" || name == "batch_norm_training" ||
      name == "batch_norm_grad") {
    AOT_RETURN_IF_ERROR(NeedResultType(op));
    const MlirAttr* eps = Attr(op, {"epsilon"});
    AOT_ASSIGN_OR_RETURN(int64_t feature,
                         IntAttr(op, {"feature_index"}, "feature_index", std::nullopt));
    const std::string attrs =
        absl::StrCat("epsilon=", eps ? eps->s : "0.001", ", feature_index=", feature);
    std::string opcode = name == "batch_norm_inference"  ? "batch-norm-inference"
                         : name == "batch_norm_training" ? "batch-norm-training"
                                                         : "batch-norm-grad";
    std::vector<MlirType> types = ResultTypes(op);
    return EmitResults(types, hint, opcode, in, attrs);
  }
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
    std::vector<MlirType> types = ResultTypes(op);
    std::string attrs = absl::StrCat("custom_call_target=\"", absl::CEscape(target), "\"");
    if (const MlirAttr* bc = Attr(op, {"backend_config"}); bc && bc->kind == MlirAttr::kString) {
      absl::StrAppend(&attrs, ", backend_config=\"", absl::CEscape(bc->s), "\"");
    }
    if (const MlirAttr* sh = Attr(op, {"mhlo.sharding"}); sh && sh->kind == MlirAttr::kString) {
      absl::StrAppend(&attrs, ", sharding=", sh->s);
    }
    return EmitResults(types, hint, "custom-call", in, attrs);
  }
  if (name == "reduce") {
    if (op.regions.empty() && op.applies.empty()) return OpError(op, "missing the reduction body");
    AOT_RETURN_IF_ERROR(NeedResultType(op));
    const size_t n = op.num_inputs >= 0 ? op.num_inputs : in.size() / 2;
    if (in.size() != 2 * n || n == 0) return OpError(op, "takes N inputs and N initial values");
    AOT_ASSIGN_OR_RETURN(std::vector<int64_t> dims,
                         IntsAttr(op, {"dimensions"}, "the reduced dimensions"));
    std::string body;
    if (!op.applies.empty()) {
      if (n != 1) return OpError(op, "'applies' needs a single input");
      absl::string_view applied = op.applies;
      applied = absl::StripPrefix(applied, "stablehlo.");
      std::string opcode;
      for (const SimpleOp& s : kSimpleOps) {
        if (applied == s.mlir && s.arity == 2) opcode = s.hlo;
      }
      if (opcode.empty()) return OpError(op, absl::StrCat("cannot apply '", op.applies, "'"));
      AOT_ASSIGN_OR_RETURN(body, ScalarComputation(opcode, in[n].type));
    } else {
      std::vector<MlirType> args;
      for (int side = 0; side < 2; ++side) {
        for (size_t i = 0; i < n; ++i) args.push_back(ScalarOf(in[n + i].type));
      }
      AOT_ASSIGN_OR_RETURN(body,
                           ConvertRegion(op.regions[0], "reducer", args, false, n > 1, {}, {}, op));
    }
    std::vector<MlirType> types = ResultTypes(op);
    const std::string attrs = absl::StrCat("dimensions=", Braced(dims), ", to_apply=%", body);
    return EmitResults(types, hint, "reduce", in, attrs);
  }
  if (name == "reduce_window") {
    if (op.regions.size() != 1) return OpError(op, "missing the reduction body");
    AOT_RETURN_IF_ERROR(NeedResultType(op));
    const size_t n = in.size() / 2;
    if (in.size() != 2 * n || n == 0) return OpError(op, "takes N inputs and N initial values");
    AOT_ASSIGN_OR_RETURN(std::vector<int64_t> size,
                         IntsAttr(op, {"window_dimensions"}, "window_dimensions"));
    AOT_ASSIGN_OR_RETURN(std::vector<int64_t> stride,
                         IntsAttr(op, {"window_strides"}, "window_strides", false));
    AOT_ASSIGN_OR_RETURN(std::vector<int64_t> base,
                         IntsAttr(op, {"base_dilations"}, "base_dilations", false));
    AOT_ASSIGN_OR_RETURN(std::vector<int64_t> wdil,
                         IntsAttr(op, {"window_dilations"}, "window_dilations", false));
    AOT_ASSIGN_OR_RETURN(auto pad, Padding(op, Attr(op, {"padding"}), size.size()));
    AOT_ASSIGN_OR_RETURN(std::string window, Window(op, size, stride, pad, base, wdil));
    std::vector<MlirType> args;
    for (int side = 0; side < 2; ++side) {
      for (size_t i = 0; i < n; ++i) args.push_back(ScalarOf(in[n + i].type));
    }
    AOT_ASSIGN_OR_RETURN(std::string body, ConvertRegion(op.regions[0], "window_body", args, false,
                                                         n > 1, {}, {}, op));
    std::vector<MlirType> types = ResultTypes(op);
    const std::string attrs = absl::StrCat(window, ", to_apply=%", body);
    return EmitResults(types, hint, "reduce-window", in, attrs);
  }
  if (name == "select_and_scatter") {
    AOT_RETURN_IF_ERROR(arity(3));
    if (op.regions.size() != 2) return OpError(op, "needs select and scatter regions");
    AOT_RETURN_IF_ERROR(NeedResultType(op));
    AOT_ASSIGN_OR_RETURN(std::vector<int64_t> size,
                         IntsAttr(op, {"window_dimensions"}, "window_dimensions"));
    AOT_ASSIGN_OR_RETURN(std::vector<int64_t> stride,
                         IntsAttr(op, {"window_strides"}, "window_strides", false));
    AOT_ASSIGN_OR_RETURN(auto pad, Padding(op, Attr(op, {"padding"}), size.size()));
    AOT_ASSIGN_OR_RETURN(std::string window, Window(op, size, stride, pad, {}, {}));
    const MlirType s = ScalarOf(in[0].type);
    AOT_ASSIGN_OR_RETURN(std::string select,
                         ConvertRegion(op.regions[0], "select", {s, s}, false, false, {}, {}, op));
    const MlirType u = ScalarOf(in[1].type);
    AOT_ASSIGN_OR_RETURN(std::string scatter,
                         ConvertRegion(op.regions[1], "scatter", {u, u}, false, false, {}, {}, op));
    return one(Emit(ResultType(op), hint, "select-and-scatter", in,
                    absl::StrCat(window, ", select=%", select, ", scatter=%", scatter)));
  }
  if (name == "map") {
    if (op.regions.size() != 1) return OpError(op, "missing the computation");
    AOT_RETURN_IF_ERROR(NeedResultType(op));
    AOT_ASSIGN_OR_RETURN(std::vector<int64_t> dims,
                         IntsAttr(op, {"dimensions"}, "the dimensions", false));
    std::vector<MlirType> args;
    for (const Value& v : in) args.push_back(ScalarOf(v.type));
    AOT_ASSIGN_OR_RETURN(std::string body,
                         ConvertRegion(op.regions[0], "map_body", args, false, false, {}, {}, op));
    return one(Emit(ResultType(op), hint, "map", in,
                    absl::StrCat("dimensions=", Braced(dims), ", to_apply=%", body)));
  }
  if (name == "sort") {
    if (op.regions.size() != 1) return OpError(op, "missing the comparator");
    if (in.empty()) return OpError(op, "takes at least one operand");
    AOT_ASSIGN_OR_RETURN(int64_t dim, IntAttr(op, {"dimension"}, "dimension", -1));
    if (dim < 0) dim += static_cast<int64_t>(in[0].type.dimensions.size());
    std::vector<MlirType> args;
    for (const Value& v : in) {
      args.push_back(ScalarOf(v.type));
      args.push_back(ScalarOf(v.type));
    }
    AOT_ASSIGN_OR_RETURN(std::string cmp, ConvertRegion(op.regions[0], "comparator", args, false,
                                                        false, {}, {}, op));
    const std::string attrs = absl::StrCat(
        "dimensions={", dim, "}, is_stable=", BoolAttr(op, "is_stable", false) ? "true" : "false",
        ", to_apply=%", cmp);
    std::vector<MlirType> types = ResultTypes(op);
    if (types.empty()) {
      for (const Value& v : in) types.push_back(v.type);
    }
    return EmitResults(types, hint, "sort", in, attrs);
  }
  if (name == "gather") {
    AOT_RETURN_IF_ERROR(arity(2));
    AOT_RETURN_IF_ERROR(NeedResultType(op));
    AOT_ASSIGN_OR_RETURN(
        std::vector<std::string> attrs,
        DimensionNumbers(op, "dimension_numbers", "gather",
                         {"offset_dims", "collapsed_slice_dims", "operand_batching_dims",
                          "start_indices_batching_dims", "start_index_map"}));
    AOT_ASSIGN_OR_RETURN(std::vector<int64_t> sizes, IntsAttr(op, {"slice_sizes"}, "slice_sizes"));
    attrs.push_back(absl::StrCat("slice_sizes=", Braced(sizes)));
    if (BoolAttr(op, "indices_are_sorted", false)) attrs.push_back("indices_are_sorted=true");
    return one(Emit(ResultType(op), hint, "gather", in, absl::StrJoin(attrs, ", ")));
  }
  if (name == "scatter") {
    if (op.regions.size() != 1) return OpError(op, "missing the update computation");
    AOT_RETURN_IF_ERROR(NeedResultType(op));
    if (in.size() < 3 || in.size() % 2 == 0) {
      return OpError(op, "takes N operands, the indices and N updates");
    }
    const size_t n = (in.size() - 1) / 2;
    AOT_ASSIGN_OR_RETURN(
        std::vector<std::string> attrs,
        DimensionNumbers(op, "scatter_dimension_numbers", "scatter",
                         {"update_window_dims", "inserted_window_dims", "input_batching_dims",
                          "scatter_indices_batching_dims", "scatter_dims_to_operand_dims"}));
    if (BoolAttr(op, "indices_are_sorted", false)) attrs.push_back("indices_are_sorted=true");
    if (BoolAttr(op, "unique_indices", false)) attrs.push_back("unique_indices=true");
    std::vector<MlirType> args;
    for (int side = 0; side < 2; ++side) {
      for (size_t i = 0; i < n; ++i) args.push_back(ScalarOf(in[i].type));
    }
    AOT_ASSIGN_OR_RETURN(std::string body,
                         ConvertRegion(op.regions[0], "update", args, false, n > 1, {}, {}, op));
    attrs.push_back(absl::StrCat("to_apply=%", body));
    std::vector<MlirType> types = ResultTypes(op);
    return EmitResults(types, hint, "scatter", in, absl::StrJoin(attrs, ", "));
  }
  if (name == "convolution") {
    AOT_RETURN_IF_ERROR(arity(2));
    AOT_RETURN_IF_ERROR(NeedResultType(op));
    const MlirAttr* dn = Attr(op, {"dim_numbers", "dimension_numbers"});
    if (dn == nullptr) return OpError(op, "missing the dimension numbers");
    std::string labels[3];
    std::vector<int64_t> kernel_spatial;  // kernel dimension of spatial i
    if (dn->kind == MlirAttr::kList && dn->s == "conv" && dn->list.size() == 3) {
      for (int part = 0; part < 3; ++part) {
        std::vector<std::pair<int64_t, int64_t>> spatial;  // (index, position)
        int64_t pos = 0;
        for (const MlirAttr& e : dn->list[part].list) {
          if (e.kind == MlirAttr::kInt) {
            if (e.i < 0 || e.i > 9) return OpError(op, "spatial dimension index out of range");
            labels[part].push_back(static_cast<char>('0' + e.i));
            if (part == 1) spatial.emplace_back(e.i, pos);
          } else if (e.kind == MlirAttr::kWord && e.s.size() == 1) {
            labels[part].push_back(e.s[0]);
          } else {
            return OpError(op, "dimension labels must be b, f, i, o or a spatial index");
          }
          ++pos;
        }
        if (part == 1) {
          std::sort(spatial.begin(), spatial.end());
          for (const auto& [idx, p] : spatial) kernel_spatial.push_back(p);
        }
      }
    } else if (dn->kind == MlirAttr::kDict) {
      // #stablehlo.conv<raw input_batch_dimension = 0, ...>
      auto get = [&](const char* f) -> absl::StatusOr<std::vector<int64_t>> {
        auto it = dn->dict.find(f);
        if (it == dn->dict.end()) return OpError(op, absl::StrCat("missing ", f));
        return Ints(op, it->second, f);
      };
      const size_t rank = in[0].type.dimensions.size();
      auto build = [&](const char* batch, const char* feature, const char* spatial, char b, char f,
                       std::string* out, bool kernel) -> absl::Status {
        AOT_ASSIGN_OR_RETURN(std::vector<int64_t> bd, get(batch));
        AOT_ASSIGN_OR_RETURN(std::vector<int64_t> fd, get(feature));
        AOT_ASSIGN_OR_RETURN(std::vector<int64_t> sd, get(spatial));
        out->assign(rank, '?');
        if (bd.size() != 1 || fd.size() != 1 || sd.size() + 2 != rank) {
          return OpError(op, "convolution dimension numbers do not match the rank");
        }
        auto put = [&](int64_t at, char c) -> absl::Status {
          if (at < 0 || at >= static_cast<int64_t>(rank) || (*out)[at] != '?') {
            return OpError(op, "convolution dimension numbers out of range or repeated");
          }
          (*out)[at] = c;
          return absl::OkStatus();
        };
        AOT_RETURN_IF_ERROR(put(bd[0], b));
        AOT_RETURN_IF_ERROR(put(fd[0], f));
        for (size_t i = 0; i < sd.size(); ++i) {
          AOT_RETURN_IF_ERROR(put(sd[i], static_cast<char>('0' + i)));
          if (kernel) kernel_spatial.push_back(sd[i]);
        }
        return absl::OkStatus();
      };
      AOT_RETURN_IF_ERROR(build("input_batch_dimension", "input_feature_dimension",
                                "input_spatial_dimensions", 'b', 'f', &labels[0], false));
      AOT_RETURN_IF_ERROR(build("kernel_input_feature_dimension", "kernel_output_feature_dimension",
                                "kernel_spatial_dimensions", 'i', 'o', &labels[1], true));
      AOT_RETURN_IF_ERROR(build("output_batch_dimension", "output_feature_dimension",
                                "output_spatial_dimensions", 'b', 'f', &labels[2], false));
    } else {
      return OpError(op, "malformed convolution dimension numbers");
    }
    std::vector<int64_t> size;
    for (int64_t d : kernel_spatial) {
      if (d >= static_cast<int64_t>(in[1].type.dimensions.size())) {
        return OpError(op, "kernel spatial dimension out of range");
      }
      size.push_back(in[1].type.dimensions[d]);
    }
    const MlirAttr* window = Attr(op, {"window"});
    auto field = [&](const char* pretty, const char* generic) -> const MlirAttr* {
      if (window != nullptr && window->kind == MlirAttr::kDict) {
        auto it = window->dict.find(pretty);
        if (it != window->dict.end()) return &it->second;
      }
      return Attr(op, {generic});
    };
    std::vector<int64_t> stride, lhs_dilate, rhs_dilate;
    if (const MlirAttr* a = field("stride", "window_strides")) {
      AOT_ASSIGN_OR_RETURN(stride, Ints(op, *a, "stride"));
    }
    if (const MlirAttr* a = field("lhs_dilate", "lhs_dilation")) {
      AOT_ASSIGN_OR_RETURN(lhs_dilate, Ints(op, *a, "lhs_dilate"));
    }
    if (const MlirAttr* a = field("rhs_dilate", "rhs_dilation")) {
      AOT_ASSIGN_OR_RETURN(rhs_dilate, Ints(op, *a, "rhs_dilate"));
    }
    if (const MlirAttr* a = field("reverse", "window_reversal")) {
      AOT_ASSIGN_OR_RETURN(std::vector<int64_t> rev, Ints(op, *a, "reverse"));
      for (int64_t r : rev) {
        if (r != 0) return OpError(op, "window reversal is not supported");
      }
    }
    AOT_ASSIGN_OR_RETURN(auto pad, Padding(op, field("pad", "padding"), size.size()));
    AOT_ASSIGN_OR_RETURN(std::string win, Window(op, size, stride, pad, lhs_dilate, rhs_dilate));
    AOT_ASSIGN_OR_RETURN(int64_t fgc,
                         IntAttr(op, {"feature_group_count"}, "feature_group_count", 1));
    AOT_ASSIGN_OR_RETURN(int64_t bgc, IntAttr(op, {"batch_group_count"}, "batch_group_count", 1));
    std::string attrs = size.empty() ? "" : absl::StrCat(win, ", ");
    absl::StrAppend(&attrs, "dim_labels=", labels[0], "_", labels[1], "->", labels[2]);
    if (fgc != 1) absl::StrAppend(&attrs, ", feature_group_count=", fgc);
    if (bgc != 1) absl::StrAppend(&attrs, ", batch_group_count=", bgc);
    return one(Emit(ResultType(op), hint, "convolution", in, attrs));
  }
  if (name == "while") {
    if (op.regions.size() != 2) return OpError(op, "needs cond and body regions");
    std::vector<MlirType> types;
    for (const Value& v : in) types.push_back(v.type);
    const std::vector<std::string> threaded = OuterValues({&op.regions[0], &op.regions[1]});
    std::vector<Value> threaded_values;
    for (const std::string& key : threaded) {
      MlirValueRef ref;
      std::vector<std::string> parts = absl::StrSplit(key, '#');
      ref.name = parts[0];
      if (parts.size() > 1) (void)absl::SimpleAtoi(parts[1], &ref.index);
      ref.loc = op.loc;
      AOT_ASSIGN_OR_RETURN(Value v, Lookup(ref, op));
      threaded_values.push_back(v);
    }
    // The pretty form names the region arguments once for both regions.
    MlirRegion cond = op.regions[0], body = op.regions[1];
    if (!op.bound_names.empty()) {
      for (MlirRegion* r : {&cond, &body}) {
        if (r->blocks.size() != 1) return OpError(op, "while regions have one block");
        r->blocks[0].arguments.clear();
        for (size_t i = 0; i < op.bound_names.size(); ++i) {
          r->blocks[0].arguments.emplace_back(op.bound_names[i], types[i]);
        }
      }
    }
    AOT_ASSIGN_OR_RETURN(std::string cond_name, ConvertRegion(cond, "cond", types, true, false,
                                                              threaded, threaded_values, op));
    AOT_ASSIGN_OR_RETURN(std::string body_name, ConvertRegion(body, "body", types, true, true,
                                                              threaded, threaded_values, op,
                                                              /*pass_through=*/true));
    std::vector<Value> state = in;
    state.insert(state.end(), threaded_values.begin(), threaded_values.end());
    AOT_ASSIGN_OR_RETURN(Value init, Tuple(state, "while_init"));
    AOT_ASSIGN_OR_RETURN(Value loop,
                         Emit(init.type, hint, "while", {init},
                              absl::StrCat("condition=%", cond_name, ", body=%", body_name)));
    return Untuple(loop, types, hint);
  }
  if (name == "if" || name == "case") {
    if (in.size() != 1) return OpError(op, "takes one operand (the predicate or index)");
    if (op.regions.empty()) return OpError(op, "needs branch regions");
    std::vector<const MlirRegion*> regions;
    for (const MlirRegion& r : op.regions) regions.push_back(&r);
    const std::vector<std::string> threaded = OuterValues(regions);
    std::vector<Value> threaded_values;
    for (const std::string& key : threaded) {
      MlirValueRef ref;
      std::vector<std::string> parts = absl::StrSplit(key, '#');
      ref.name = parts[0];
      if (parts.size() > 1) (void)absl::SimpleAtoi(parts[1], &ref.index);
      ref.loc = op.loc;
      AOT_ASSIGN_OR_RETURN(Value v, Lookup(ref, op));
      threaded_values.push_back(v);
    }
    std::vector<MlirType> types = ResultTypes(op);
    const bool tuple_result = types.size() != 1;
    std::vector<std::string> branches;
    for (size_t i = 0; i < op.regions.size(); ++i) {
      AOT_ASSIGN_OR_RETURN(std::string b,
                           ConvertRegion(op.regions[i], absl::StrCat("branch", i), {}, true,
                                         tuple_result, threaded, threaded_values, op));
      branches.push_back(b);
    }
    std::vector<Value> args = {in[0]};
    for (size_t i = 0; i < branches.size(); ++i) {
      AOT_ASSIGN_OR_RETURN(Value t, Tuple(threaded_values, "branch_args"));
      args.push_back(t);
    }
    std::string attrs;
    if (name == "if") {
      if (branches.size() != 2) return OpError(op, "has two regions (then, else)");
      attrs = absl::StrCat("true_computation=%", branches[0], ", false_computation=%", branches[1]);
    } else {
      std::vector<std::string> refs;
      for (const std::string& b : branches) refs.push_back(absl::StrCat("%", b));
      attrs = absl::StrCat("branch_computations={", absl::StrJoin(refs, ", "), "}");
    }
    MlirType rt;
    if (tuple_result) {
      rt.kind = MlirType::kTuple;
      rt.tuple = types;
    } else {
      rt = types[0];
    }
    AOT_ASSIGN_OR_RETURN(Value v, Emit(rt, hint, "conditional", args, attrs));
    if (!tuple_result) return std::vector<Value>{v};
    return Untuple(v, types, hint);
  }
  if (name == "all_reduce" || name == "all_gather" || name == "reduce_scatter" ||
      name == "collective_permute" || name == "all_to_all" || name == "collective_broadcast") {
    AOT_RETURN_IF_ERROR(NeedResultType(op));
    std::vector<std::string> attrs;
    if (const MlirAttr* g = Attr(op, {"replica_groups"})) {
      if (g->kind != MlirAttr::kDense || !g->type || g->type->dimensions.size() != 2) {
        return OpError(op, "replica_groups must be dense<...> : tensor<GxNxi64>");
      }
      auto e = ParseDenseElements(g->s, "s64", g->type->dimensions);
      if (!e.ok()) return OpError(op, absl::StrCat("replica_groups: ", e.status().message()));
      const int64_t groups = g->type->dimensions[0], size = g->type->dimensions[1];
      std::vector<std::string> rows;
      for (int64_t r = 0; r < groups; ++r) {
        std::vector<std::string> ids;
        for (int64_t c = 0; c < size; ++c) {
          const std::string& id = e->elements[e->splat ? 0 : r * size + c];
          if (id != "-1") ids.push_back(id);
        }
        rows.push_back(absl::StrCat("{", absl::StrJoin(ids, ","), "}"));
      }
      attrs.push_back(absl::StrCat("replica_groups={", absl::StrJoin(rows, ","), "}"));
    }
    if (const MlirAttr* ch = Attr(op, {"channel_handle"}); ch && ch->kind == MlirAttr::kDict) {
      auto it = ch->dict.find("handle");
      if (it != ch->dict.end() && it->second.i > 0) {
        attrs.push_back(absl::StrCat("channel_id=", it->second.i));
      }
    }
    if (BoolAttr(op, "use_global_device_ids", false)) attrs.push_back("use_global_device_ids=true");
    std::string opcode;
    if (name == "all_reduce" || name == "reduce_scatter") {
      if (op.regions.size() != 1) return OpError(op, "missing the reduction body");
      const MlirType s = ScalarOf(in.empty() ? ResultType(op) : in[0].type);
      AOT_ASSIGN_OR_RETURN(std::string body, ConvertRegion(op.regions[0], "reduction", {s, s},
                                                           false, false, {}, {}, op));
      attrs.push_back(absl::StrCat("to_apply=%", body));
      opcode = name == "all_reduce" ? "all-reduce" : "reduce-scatter";
      if (name == "reduce_scatter") {
        AOT_ASSIGN_OR_RETURN(int64_t d,
                             IntAttr(op, {"scatter_dimension"}, "scatter_dimension", std::nullopt));
        attrs.insert(attrs.begin(), absl::StrCat("dimensions={", d, "}"));
      }
    } else if (name == "all_gather") {
      AOT_ASSIGN_OR_RETURN(int64_t d,
                           IntAttr(op, {"all_gather_dim"}, "all_gather_dim", std::nullopt));
      attrs.insert(attrs.begin(), absl::StrCat("dimensions={", d, "}"));
      opcode = "all-gather";
    } else if (name == "all_to_all") {
      AOT_ASSIGN_OR_RETURN(int64_t split,
                           IntAttr(op, {"split_dimension"}, "split_dimension", std::nullopt));
      AOT_ASSIGN_OR_RETURN(int64_t concat,
                           IntAttr(op, {"concat_dimension"}, "concat_dimension", std::nullopt));
      if (split != concat) {
        return OpError(op, "all_to_all with split_dimension != concat_dimension is not supported");
      }
      attrs.insert(attrs.begin(), absl::StrCat("dimensions={", split, "}"));
      opcode = "all-to-all";
    } else if (name == "collective_permute") {
      const MlirAttr* p = Attr(op, {"source_target_pairs"});
      if (p == nullptr || p->kind != MlirAttr::kDense || !p->type) {
        return OpError(op, "missing source_target_pairs");
      }
      auto e = ParseDenseElements(p->s, "s64", p->type->dimensions);
      if (!e.ok()) return OpError(op, absl::StrCat("source_target_pairs: ", e.status().message()));
      std::vector<std::string> pairs;
      for (size_t i = 0; i + 1 < e->elements.size(); i += 2) {
        pairs.push_back(absl::StrCat("{", e->elements[i], ",", e->elements[i + 1], "}"));
      }
      attrs.push_back(absl::StrCat("source_target_pairs={", absl::StrJoin(pairs, ","), "}"));
      opcode = "collective-permute";
    } else {
      opcode = "collective-broadcast";
    }
    std::vector<MlirType> types = ResultTypes(op);
    return EmitResults(types, hint, opcode, in, absl::StrJoin(attrs, ", "));
  }
  return OpError(op, "unsupported stablehlo operation");
}

absl::Status Converter::ConvertOp(const MlirOperation& op) {
  origin_ = absl::StrCat(Where(op.loc), " (", op.name, ")");
  for (const Refused& r : kRefused) {
    if (op.name == r.name) return OpError(op, absl::StrCat("not supported: ", r.why));
  }
  std::vector<Value> in;
  for (const MlirValueRef& ref : op.operands) {
    AOT_ASSIGN_OR_RETURN(Value v, Lookup(ref, op));
    in.push_back(std::move(v));
  }
  // Result types with unbounded dimensions are refined from what is known
  // here (StableHLO's shape refinement, for programs whose sizes are
  // constants); the operation is converted with the refined types.
  for (const MlirType& t : op.has_function_type ? op.result_types : op.types) {
    if (!HasUnboundedDimension(t)) continue;
    AOT_ASSIGN_OR_RETURN(MlirOperation refined, RefineResultTypes(op, in));
    return ConvertRefined(refined, in);
  }
  return ConvertRefined(op, in);
}

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

absl::StatusOr<std::string> Converter::ConvertFunction(const MlirFunction& fn, bool entry) {
  if (!entry) {
    auto done = converted_functions_.find(fn.name);
    if (done != converted_functions_.end()) return done->second;
    if (converting_.contains(fn.name)) {
      return absl::InvalidArgumentError(
          absl::StrCat(Where(fn.loc), ": @", fn.name, " is called recursively"));
    }
  }
  converting_.insert(fn.name);
  if (fn.body.blocks.size() != 1) {
    return absl::InvalidArgumentError(
        absl::StrCat(Where(fn.loc), ": @", fn.name, " has ", fn.body.blocks.size(),
                     " blocks (functions with control flow between blocks are not supported)"));
  }
  Computation comp;
  comp.name = NewName(fn.name);
  comp.entry = entry;
  Computation* saved = current_;
  const bool saved_top = in_entry_top_;
  current_ = &comp;
  in_entry_top_ = entry;
  origin_ = absl::StrCat(Where(fn.loc), " (func.func @", fn.name, ")");
  absl::Status status;
  for (size_t i = 0; i < fn.arguments.size() && status.ok(); ++i) {
    const std::string& sharding = fn.arguments[i].second.sharding;
    auto p = Emit(fn.arguments[i].second, fn.arguments[i].first,
                  absl::StrCat("parameter(", i, ")",
                               sharding.empty() ? "" : absl::StrCat(", sharding=", sharding)));
    if (!p.ok()) {
      status = absl::InvalidArgumentError(absl::StrCat(Where(fn.loc), ": @", fn.name, " argument %",
                                                       fn.arguments[i].first, ": ",
                                                       p.status().message()));
    } else {
      Define(fn.arguments[i].first, *p);
    }
  }
  std::vector<Value> returned;
  const MlirOperation* terminator = nullptr;
  if (status.ok()) status = ConvertBlock(fn.body.blocks.front(), &returned, &terminator);
  in_entry_top_ = saved_top;
  if (status.ok() && terminator == nullptr) {
    status =
        absl::InvalidArgumentError(absl::StrCat(Where(fn.loc), ": @", fn.name, " has no return"));
  }
  if (status.ok() && returned.size() != fn.results.size()) {
    status = absl::InvalidArgumentError(
        absl::StrCat(Where(terminator->loc), ": '", terminator->name, "' returns ", returned.size(),
                     " value(s); @", fn.name, " declares ", fn.results.size()));
  }
  if (!status.ok()) {
    current_ = saved;
    return status;
  }
  std::vector<Value> root = returned;
  bool tuple_result = returned.size() != 1;
  if (entry && !check_values_.empty()) {
    for (const auto& [a, e] : check_values_) {
      root.push_back(a);
      root.push_back(e);
    }
    tuple_result = true;
  }
  current_ = saved;
  // The entry's results' mhlo.sharding: the root's sharding (a tuple's per
  // element; unannotated elements replicated).
  std::string root_sharding;
  bool any_sharding = false;
  for (const MlirType& t : fn.results) any_sharding |= !t.sharding.empty();
  if (entry && any_sharding) {
    std::vector<std::string> parts;
    for (const MlirType& t : fn.results) {
      parts.push_back(t.sharding.empty() ? "{replicated}" : t.sharding);
    }
    for (size_t i = fn.results.size(); i < root.size(); ++i) parts.push_back("{replicated}");
    root_sharding = parts.size() == 1 && !tuple_result
                        ? parts[0]
                        : absl::StrCat("{", absl::StrJoin(parts, ", "), "}");
  }
  AOT_ASSIGN_OR_RETURN(std::string name,
                       FinishComputation(&comp, root, tuple_result, entry, root_sharding));
  converting_.erase(fn.name);
  if (!entry) converted_functions_[fn.name] = name;
  return name;
}

absl::StatusOr<ConvertedProgram> Converter::Run(const ConvertOptions& options) {
  const MlirFunction* entry = nullptr;
  if (!options.entry.empty()) {
    auto it = functions_.find(options.entry);
    if (it == functions_.end()) {
      return absl::InvalidArgumentError(
          absl::StrCat(path_, ": no function @", options.entry, " in the module"));
    }
    entry = it->second;
  } else if (auto it = functions_.find("main"); it != functions_.end()) {
    entry = it->second;
  } else {
    std::vector<const MlirFunction*> publics;
    for (const MlirFunction& fn : module_.functions) {
      if (fn.is_public) publics.push_back(&fn);
    }
    if (publics.size() != 1) {
      return absl::InvalidArgumentError(
          absl::StrCat(path_, ": no @main and ", publics.size(),
                       " public functions: name the entry (aotc --entry=NAME)"));
    }
    entry = publics[0];
  }
  AOT_ASSIGN_OR_RETURN(std::string entry_name, ConvertFunction(*entry, /*entry=*/true));
  (void)entry_name;

  ConvertedProgram out;
  // Unnamed modules (test files) take the entry function's name.
  out.module_name = Sanitize(module_.name.empty() ? entry->name : module_.name);
  out.entry_function = entry->name;
  out.num_results = static_cast<int>(entry->results.size());
  out.tuple_root = entry->results.size() != 1 || !checks_.empty();
  // Checks: the entry's outputs after its own results, (actual, expected)
  // pairs.
  for (size_t i = 0; i < checks_.size(); ++i) {
    CheckSpec spec = checks_[i];
    spec.actual_output = out.num_results + 2 * static_cast<int>(i);
    spec.expected_output = spec.actual_output + 1;
    out.checks.push_back(spec);
  }
  std::string header = absl::StrCat("HloModule ", out.module_name);
  auto int_attr = [&](const char* key) -> int64_t {
    auto it = module_.attributes.find(key);
    return it != module_.attributes.end() && it->second.kind == MlirAttr::kInt ? it->second.i : 1;
  };
  if (int64_t r = int_attr("mhlo.num_replicas"); r > 1) {
    absl::StrAppend(&header, ", replica_count=", r);
  }
  if (int64_t p = int_attr("mhlo.num_partitions"); p > 1) {
    absl::StrAppend(&header, ", num_partitions=", p);
  }
  std::string text = absl::StrCat(header, "\n");
  out.line_origins.push_back("");
  for (const auto& [lines, comp_header] : finished_) {
    absl::StrAppend(&text, "\n", comp_header, "\n");
    out.line_origins.push_back("");
    out.line_origins.push_back("");
    for (const Line& l : lines) {
      absl::StrAppend(&text, "  ", l.root ? "ROOT " : "", "%", l.name, " = ", l.text, "\n");
      out.line_origins.push_back(l.origin);
    }
    absl::StrAppend(&text, "}\n");
    out.line_origins.push_back("");
  }
  out.hlo_text = std::move(text);
  out.instruction_origins = std::move(instruction_origins_);
  return out;
}

}  // namespace

absl::StatusOr<ConvertedProgram> ConvertToHlo(const MlirModule& module, absl::string_view path,
                                              const ConvertOptions& options) {
  Converter converter(module, path);
  return converter.Run(options);
}

absl::StatusOr<ConvertedProgram> ConvertStableHloText(absl::string_view text,
                                                      absl::string_view path,
                                                      const ConvertOptions& options,
                                                      int first_line) {
  AOT_ASSIGN_OR_RETURN(MlirModule module, ParseMlirModule(text, path, first_line));
  return ConvertToHlo(module, path, options);
}

absl::Status MapHloErrorToSource(const ConvertedProgram& program, const absl::Status& status) {
  if (status.ok()) return status;
  absl::string_view message = status.message();
  // "L:C: ..." from the HLO parser.
  std::vector<absl::string_view> parts = absl::StrSplit(message, absl::MaxSplits(':', 2));
  int line = 0, column = 0;
  if (parts.size() == 3 && absl::SimpleAtoi(parts[0], &line) &&
      absl::SimpleAtoi(parts[1], &column) && line >= 1 &&
      line <= static_cast<int>(program.line_origins.size()) &&
      !program.line_origins[line - 1].empty()) {
    return absl::Status(status.code(), absl::StrCat(program.line_origins[line - 1], ": ",
                                                    absl::StripLeadingAsciiWhitespace(parts[2])));
  }
  // A verifier message naming an instruction: 'name'.
  for (const auto& [name, origin] : program.instruction_origins) {
    if (origin.empty()) continue;
    if (absl::StrContains(message, absl::StrCat("'", name, "'")) ||
        absl::StrContains(message, absl::StrCat("%", name, " "))) {
      return absl::Status(status.code(), absl::StrCat(origin, ": ", message));
    }
  }
  return status;
}

absl::StatusOr<std::vector<StableHloTest>> ListStableHloTests(absl::string_view text,
                                                              absl::string_view path) {
  std::vector<StableHloTest> tests;
  for (const MlirChunk& chunk : SplitMlirInput(text)) {
    bool blank = true;
    for (absl::string_view line : absl::StrSplit(chunk.text, '\n')) {
      absl::string_view l = absl::StripAsciiWhitespace(line);
      if (!l.empty() && !absl::StartsWith(l, "//")) blank = false;
    }
    if (blank) continue;
    AOT_ASSIGN_OR_RETURN(MlirModule module, ParseMlirModule(chunk.text, path, chunk.first_line));
    bool has_main = false;
    for (const MlirFunction& fn : module.functions) has_main |= fn.name == "main";
    for (const MlirFunction& fn : module.functions) {
      if (has_main ? fn.name == "main" : (fn.is_public && fn.arguments.empty())) {
        tests.push_back({chunk.text, chunk.first_line, fn.name});
      }
    }
  }
  return tests;
}

std::vector<OpSupport> StableHloOpSupport() {
  std::vector<OpSupport> out;
  for (const SimpleOp& s : kSimpleOps) {
    out.push_back({absl::StrCat("stablehlo.", s.mlir), true, absl::StrCat("HLO ", s.hlo)});
  }
  for (const char* n : {"constant",
                        "compare",
                        "select",
                        "clamp",
                        "broadcast_in_dim",
                        "dynamic_broadcast_in_dim",
                        "dynamic_reshape",
                        "transpose",
                        "reverse",
                        "iota",
                        "dynamic_iota",
                        "concatenate",
                        "slice",
                        "dynamic_slice",
                        "dynamic_update_slice",
                        "pad",
                        "dot_general",
                        "dot",
                        "get_tuple_element",
                        "tuple",
                        "optimization_barrier",
                        "after_all",
                        "create_token",
                        "replica_id",
                        "partition_id",
                        "get_dimension_size",
                        "set_dimension_size",
                        "reduce_precision",
                        "cholesky",
                        "triangular_solve",
                        "fft",
                        "batch_norm_inference",
                        "batch_norm_training",
                        "batch_norm_grad",
                        "custom_call",
                        "reduce",
                        "reduce_window",
                        "select_and_scatter",
                        "map",
                        "sort",
                        "gather",
                        "scatter",
                        "convolution",
                        "while",
                        "if",
                        "case",
                        "all_reduce",
                        "all_gather",
                        "reduce_scatter",
                        "collective_permute",
                        "all_to_all",
                        "collective_broadcast",
                        "composite",
                        "return"}) {
    out.push_back({absl::StrCat("stablehlo.", n), true, ""});
  }
  for (const SimpleOp& s : kChloUnary) {
    out.push_back(
        {absl::StrCat("chlo.", s.mlir), true, *s.hlo ? absl::StrCat("HLO ", s.hlo) : "x * x"});
  }
  for (const SimpleOp& s : kChloBroadcast) {
    out.push_back({absl::StrCat("chlo.", s.mlir), true, absl::StrCat("broadcast + HLO ", s.hlo)});
  }
  for (const char* n :
       {"is_inf", "is_pos_inf", "is_neg_inf", "top_k", "constant_like", "constant"}) {
    out.push_back({absl::StrCat("chlo.", n), true, ""});
  }
  out.push_back({"chlo.erf_inv", true, "Giles' polynomials"});
  out.push_back({"chlo.lgamma", true, "Lanczos, reflected below 1/2"});
  out.push_back({"chlo.digamma", true, "Lanczos, reflected below 1/2"});
  out.push_back({"chlo.bessel_i1e", true, "power series, asymptotic above 15"});
  out.push_back({"stablehlo.rng_bit_generator", true, "HLO rng-bit-generator"});
  for (const char* n : {"expect_eq", "expect_eq_const", "expect_almost_eq",
                        "expect_almost_eq_const", "expect_close"}) {
    out.push_back({absl::StrCat("check.", n), true, "assertion reported by aot-run"});
  }
  for (const char* n : {"func.func", "func.call", "func.return"}) out.push_back({n, true, ""});
  for (const Refused& r : kRefused) out.push_back({r.name, false, r.why});
  std::sort(out.begin(), out.end(),
            [](const OpSupport& a, const OpSupport& b) { return a.name < b.name; });
  return out;
}

}  // namespace aot::stablehlo
