#ifndef AOT_COMPILER_STABLEHLO_STABLEHLO_TO_HLO_INTERNAL_H_
#define AOT_COMPILER_STABLEHLO_STABLEHLO_TO_HLO_INTERNAL_H_

// The StableHLO -> HLO converter's tables, value types and its Converter
// class, internal to compiler/stablehlo (the API is stablehlo_to_hlo.h).
// The Converter walks the module (stablehlo_to_hlo.cc) and routes each op
// through one table to its family's emitter, one file per family:
//   stablehlo_elementwise.cc     elementwise ops (and the kSimpleOps table);
//   stablehlo_data_movement.cc   broadcasts, transposes, slices, pads, tuples;
//   stablehlo_structured.cc      dot, convolution, reductions, sort, gather,
//                                scatter, linear algebra, fft, batch norm;
//   stablehlo_regions.cc         while, if, case and regions;
//   stablehlo_chlo.cc            CHLO decompositions;
//   stablehlo_collectives.cc     collectives;
//   stablehlo_custom_calls.cc    custom calls and check.* expectations;
//   stablehlo_shapes.cc          dynamic shapes and result-type refinement;
//   stablehlo_interpreter_ops.cc the reference interpreter's run_parallel.
// A new op is a row of that table and a block in its family's emitter.

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
#include "compiler/stablehlo/stablehlo_to_hlo.h"
#include "support/status_macros.h"

namespace aot::stablehlo {
namespace convert_internal {

// ---------------------------------------------------------------------------
// Op tables

// StableHLO elementwise ops and their HLO opcodes.
struct SimpleOp {
  const char* mlir;
  const char* hlo;
  int arity;
};
inline constexpr SimpleOp kSimpleOps[] = {
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
inline constexpr SimpleOp kChloUnary[] = {
    {"erf", "erf", 1},     {"tan", "tan", 1},     {"sinh", "sinh", 1}, {"cosh", "cosh", 1},
    {"asin", "asin", 1},   {"acos", "acos", 1},   {"atan", "atan", 1}, {"asinh", "asinh", 1},
    {"acosh", "acosh", 1}, {"atanh", "atanh", 1}, {"square", "", 1},
};

// CHLO's broadcasting binary ops.
inline constexpr SimpleOp kChloBroadcast[] = {
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
inline constexpr Refused kRefused[] = {
    {"chlo.polygamma", "not yet decomposed (no HLO opcode)"},
    {"chlo.zeta", "not yet decomposed (no HLO opcode)"},
    {"chlo.ragged_dot", "not converted yet"},
    {"stablehlo.rng", "stateful RNG is not converted (use rng_bit_generator)"},
    {"stablehlo.infeed", "host transfers are not supported by the AOT runtime"},
    {"stablehlo.outfeed", "host transfers are not supported by the AOT runtime"},
    {"stablehlo.send", "host transfers are not supported by the AOT runtime"},
    {"stablehlo.recv", "host transfers are not supported by the AOT runtime"},
    {"stablehlo.uniform_quantize", "quantized types are not supported"},
    {"stablehlo.uniform_dequantize", "quantized types are not supported"},
    {"stablehlo.unary_einsum", "deprecated; not supported"},
    {"stablehlo.einsum", "deprecated; not supported"},
    {"stablehlo.torch_index_select", "deprecated; not supported"},
    {"stablehlo.trace", "deprecated; not supported"},
    {"stablehlo.cross-replica-sum", "deprecated; not supported"},
    {"check.expect_serialized_eq", "needs the interpreter's probe files"},
};

// ---------------------------------------------------------------------------
// Types

inline absl::StatusOr<std::string> HloElement(const std::string& e) {
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

inline absl::StatusOr<std::string> ShapeText(const MlirType& t) {
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

inline MlirType ScalarOf(const MlirType& t) {
  MlirType s;
  s.kind = MlirType::kTensor;
  s.element = t.element;
  s.text = absl::StrCat("tensor<", t.element, ">");
  return s;
}

inline MlirType WithElement(const MlirType& t, const std::string& element) {
  MlirType s = t;
  s.element = element;
  s.text = "";
  return s;
}

inline bool IsFloatElement(const std::string& e) {
  return e[0] == 'f' || e == "bf16" || absl::StartsWith(e, "complex");
}

inline std::string Braced(const std::vector<int64_t>& v) {
  return absl::StrCat("{", absl::StrJoin(v, ","), "}");
}

inline std::string Sanitize(absl::string_view name) {
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

class Arith;  // stablehlo_arith.h

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

inline bool HasUnboundedDimension(const MlirType& t) {
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

// One value as an op's results.
inline absl::StatusOr<std::vector<Value>> One(absl::StatusOr<Value> v) {
  AOT_RETURN_IF_ERROR(v);
  return std::vector<Value>{*std::move(v)};
}

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
  // (batching ones only when present) and index_vector_dim, each at its
  // default (empty, 0) when left out.
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
    // StableHLO's printer leaves out every field at its default (empty
    // lists, index_vector_dim = 0), so a missing one is its default.
    int64_t index_vector_dim = 0;
    if (auto ivd = dn.dict.find("index_vector_dim"); ivd != dn.dict.end()) {
      if (ivd->second.kind != MlirAttr::kInt) {
        return OpError(op, "index_vector_dim must be an integer");
      }
      index_vector_dim = ivd->second.i;
    }
    attrs.push_back(absl::StrCat("index_vector_dim=", index_vector_dim));
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
  // The emitter of an op family (the dispatch table of ConvertStablehlo
  // routes each op name to one; `hint` names the results).
  using OpEmitter = absl::StatusOr<std::vector<Value>> (Converter::*)(const MlirOperation& op,
                                                                      const std::vector<Value>& in,
                                                                      absl::string_view name,
                                                                      const std::string& hint);
  absl::StatusOr<std::vector<Value>> ConvertElementwiseOp(const MlirOperation& op,
                                                          const std::vector<Value>& in,
                                                          absl::string_view name,
                                                          const std::string& hint);
  absl::StatusOr<std::vector<Value>> ConvertDataMovementOp(const MlirOperation& op,
                                                           const std::vector<Value>& in,
                                                           absl::string_view name,
                                                           const std::string& hint);
  absl::StatusOr<std::vector<Value>> ConvertStructuredOp(const MlirOperation& op,
                                                         const std::vector<Value>& in,
                                                         absl::string_view name,
                                                         const std::string& hint);
  absl::StatusOr<std::vector<Value>> ConvertRegionOp(const MlirOperation& op,
                                                     const std::vector<Value>& in,
                                                     absl::string_view name,
                                                     const std::string& hint);
  absl::StatusOr<std::vector<Value>> ConvertCollectiveOp(const MlirOperation& op,
                                                         const std::vector<Value>& in,
                                                         absl::string_view name,
                                                         const std::string& hint);
  absl::StatusOr<std::vector<Value>> ConvertCustomCallOp(const MlirOperation& op,
                                                         const std::vector<Value>& in,
                                                         absl::string_view name,
                                                         const std::string& hint);
  absl::StatusOr<std::vector<Value>> ConvertShapeOp(const MlirOperation& op,
                                                    const std::vector<Value>& in,
                                                    absl::string_view name,
                                                    const std::string& hint);
  // InvalidArgument naming the op unless it has `n` operands.
  absl::Status Arity(const MlirOperation& op, const std::vector<Value>& in, size_t n) const;
  absl::StatusOr<std::vector<Value>> ConvertChlo(const MlirOperation& op,
                                                 const std::vector<Value>& in,
                                                 absl::string_view name);
  absl::Status ConvertCheck(const MlirOperation& op, const std::vector<Value>& in,
                            absl::string_view kind, std::vector<Value>* results);
  // --- shape polymorphism (stablehlo_shapes.cc) ---
  // Whether calls of `fn` are specialized (its signature has `?` sizes):
  // its body is converted at each call with the call's values.
  bool SpecializedAtCalls(const MlirFunction& fn) const;
  absl::StatusOr<std::vector<Value>> ConvertAtCall(const MlirOperation& op, const MlirFunction& fn,
                                                   const std::vector<Value>& in);
  // Sets the values of an integer result computed from known values (sizes
  // and their arithmetic: get_dimension_size, convert, reshape, add, ...).
  void FoldValues(const MlirOperation& op, absl::string_view name, const std::vector<Value>& in,
                  std::vector<Value>* results) const;
  // The custom calls of shape-polymorphic programs (shape_assertion,
  // stablehlo.dynamic_top_k, dynamic_approx_top_k, dynamic_rng_bit_generator)
  // with their sizes known; nullopt for any other target.
  absl::StatusOr<std::optional<std::vector<Value>>> ConvertShapePolymorphicCall(
      const MlirOperation& op, const std::vector<Value>& in, absl::string_view target,
      const std::string& hint);
  int specialization_depth_ = 0;
  ConvertOptions options_;

  // The reference interpreter's test dialect (interpreter.run_parallel:
  // stablehlo_interpreter_ops.cc, whose ParallelRunner converts the
  // participants' programs through this class).
  absl::Status ConvertInterpreterOp(const MlirOperation& op, const std::vector<Value>& in,
                                    absl::string_view name, std::vector<Value>* results);
  friend class ParallelRunner;
  absl::StatusOr<Value> Constant(const MlirOperation& op, const MlirAttr& dense,
                                 const MlirType& type);
  absl::StatusOr<Value> ReduceOverAll(const Value& pred, absl::string_view hint);
  // A typed-FFI custom call's attributes (a dict, or none) as the HLO text
  // of backend_config: `{name = 76 : ui8, flag = true, ...}`.
  absl::StatusOr<std::string> FfiAttributeDict(const MlirOperation& op, const MlirAttr* dict) const;
  absl::StatusOr<std::string> ScalarComputation(absl::string_view opcode, const MlirType& scalar);
  // CHLO's special functions (no HLO opcode): erf_inv, lgamma, digamma,
  // bessel_i1e.
  absl::StatusOr<Value> SpecialFunction(const MlirOperation& op, absl::string_view name,
                                        const Value& x, const MlirType& result);
  // StableHLO's semantics where HLO's opcode of the name differs or is
  // undefined (pred add/multiply, complex atan2/min/max/convert, pred
  // bitcasts): stablehlo_elementwise.cc.
  absl::StatusOr<std::vector<Value>> ConvertSimpleOp(const MlirOperation& op,
                                                     const std::vector<Value>& in,
                                                     const SimpleOp& s, const std::string& hint);
  // Functions decomposed into HLO (complex asin, acos, asinh, acosh, atan,
  // atanh, sinh, cosh and atan2; erfc; next_after): stablehlo_chlo.cc.
  absl::StatusOr<Value> DecomposedFunction(const MlirOperation& op, absl::string_view name,
                                           const std::vector<Value>& in, const MlirType& result);
  Arith ArithFor(const MlirType& shape);
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

}  // namespace convert_internal
}  // namespace aot::stablehlo

#endif  // AOT_COMPILER_STABLEHLO_STABLEHLO_TO_HLO_INTERNAL_H_
