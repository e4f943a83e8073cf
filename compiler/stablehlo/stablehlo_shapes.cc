// Shapes and refinement: dynamic shapes, dimension sizes, result types
// refined from operands.
#include <limits>

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
    if (SpecializedAtCalls(*fn->second)) {
      AOT_ASSIGN_OR_RETURN(results, ConvertAtCall(op, *fn->second, in));
    } else {
      AOT_ASSIGN_OR_RETURN(std::string comp, ConvertFunction(*fn->second, /*entry=*/false));
      origin_ = absl::StrCat(Where(op.loc), " (", op.name, ")");
      const std::vector<MlirType>& types = fn->second->results;
      AOT_ASSIGN_OR_RETURN(
          results, EmitResults(types, callee, "call", in, absl::StrCat("to_apply=%", comp)));
    }
  } else if (absl::ConsumePrefix(&name, "stablehlo.") || absl::ConsumePrefix(&name, "mhlo.")) {
    AOT_ASSIGN_OR_RETURN(results, ConvertStablehlo(op, in, name));
    FoldValues(op, name, in, &results);
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
  if (name == "real_dynamic_slice") {
    // (operand, start, limit, strides) with the three known: a slice.
    AOT_RETURN_IF_ERROR(Arity(op, in, 4));
    MlirOperation fixed = op;
    const char* fields[] = {"start_indices", "limit_indices", "strides"};
    for (size_t k = 0; k < 3; ++k) {
      const Value& v = in[1 + k];
      if (v.values.empty() || v.type.dimensions.size() != 1 ||
          static_cast<int64_t>(v.values.size()) != v.type.dimensions[0]) {
        return OpError(op, absl::StrCat("its ", fields[k], " operand (", v.hlo,
                                        ") is known only at run time"));
      }
      MlirAttr list;
      list.kind = MlirAttr::kList;
      for (int64_t x : v.values) {
        MlirAttr e;
        e.kind = MlirAttr::kInt;
        e.i = x;
        list.list.push_back(e);
      }
      fixed.attributes[fields[k]] = list;
    }
    if (HasUnboundedDimension(in[0].type)) {
      return OpError(op, "its operand's sizes are known only at run time");
    }
    std::vector<MlirType>& types = fixed.has_function_type ? fixed.result_types : fixed.types;
    if (types.size() != 1) return OpError(op, "expects one result type");
    MlirType& t = types[0];
    t.dimensions.clear();
    for (size_t d = 0; d < in[0].type.dimensions.size(); ++d) {
      const int64_t stride = in[3].values[d];
      if (stride <= 0) return OpError(op, "strides must be positive");
      int64_t extent = 0;
      if (__builtin_sub_overflow(in[2].values[d], in[1].values[d], &extent) ||
          __builtin_add_overflow(extent, stride - 1, &extent)) {
        return OpError(op, absl::StrCat("its limit and start in dimension ", d,
                                        " are out of range of a size"));
      }
      t.dimensions.push_back(std::max<int64_t>(0, extent / stride));
    }
    t.bounds.assign(t.dimensions.size(), -1);
    t.text = "";
    fixed.name = "stablehlo.slice";
    fixed.operands.resize(1);
    fixed.positional.clear();
    if (fixed.has_function_type) fixed.operand_types.resize(1);
    return ConvertDataMovementOp(fixed, {in[0]}, "slice", hint);
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

namespace aot::stablehlo {
namespace convert_internal {

// --- Shape polymorphism, as JAX runs it ---
//
// A program exported with symbolic shapes has `?` sizes that the actual
// arguments fix (StableHLO's refine-arguments): the entry's argument types
// take the given sizes, the integer scalars and small vectors that compute
// sizes are folded as they are converted (refine-shapes' constant folding of
// get_dimension_size and its arithmetic), functions with `?` in their
// signature are specialized by converting their body at the call, and the
// dynamic ops and custom calls whose sizes are then known lower like their
// static forms.

namespace {

bool IsIntegerElement(const std::string& e) {
  return e == "i1" || (e[0] == 'i' && e != "index") || absl::StartsWith(e, "ui") || e == "index";
}

int64_t ElementCount(const MlirType& t) {
  int64_t n = 1;
  for (int64_t d : t.dimensions) n *= d;
  return n;
}

// Whether `v` holds all its (integer) elements' values.
bool Known(const Value& v) {
  return v.type.kind == MlirType::kTensor && !HasUnboundedDimension(v.type) &&
         IsIntegerElement(v.type.element) &&
         static_cast<int64_t>(v.values.size()) == ElementCount(v.type);
}

}  // namespace

bool Converter::SpecializedAtCalls(const MlirFunction& fn) const {
  for (const auto& [name, type] : fn.arguments) {
    if (HasUnboundedDimension(type)) return true;
  }
  for (const MlirType& t : fn.results) {
    if (HasUnboundedDimension(t)) return true;
  }
  return false;
}

absl::StatusOr<std::vector<Value>> Converter::ConvertAtCall(const MlirOperation& op,
                                                            const MlirFunction& fn,
                                                            const std::vector<Value>& in) {
  if (++specialization_depth_ > 64) {
    --specialization_depth_;
    return OpError(op, absl::StrCat("@", fn.name, " is specialized recursively"));
  }
  if (fn.body.blocks.size() != 1) {
    --specialization_depth_;
    return OpError(op, absl::StrCat("@", fn.name, " must have one block"));
  }
  absl::flat_hash_map<std::string, Value> callee;
  for (size_t i = 0; i < fn.arguments.size(); ++i) callee[fn.arguments[i].first] = in[i];
  std::swap(current_->values, callee);
  const bool saved_top = in_entry_top_;
  in_entry_top_ = false;
  std::vector<Value> returned;
  const MlirOperation* terminator = nullptr;
  absl::Status status = ConvertBlock(fn.body.blocks.front(), &returned, &terminator);
  in_entry_top_ = saved_top;
  std::swap(current_->values, callee);
  --specialization_depth_;
  AOT_RETURN_IF_ERROR(status);
  if (terminator == nullptr) return OpError(op, absl::StrCat("@", fn.name, " has no return"));
  if (returned.size() != fn.results.size()) {
    return OpError(op, absl::StrCat("@", fn.name, " returns ", returned.size(),
                                    " value(s) and declares ", fn.results.size()));
  }
  return returned;
}

void Converter::FoldValues(const MlirOperation& op, absl::string_view name,
                           const std::vector<Value>& in, std::vector<Value>* results) const {
  if (results->size() != 1) return;
  Value& out = (*results)[0];
  if (out.type.kind != MlirType::kTensor || HasUnboundedDimension(out.type) ||
      !IsIntegerElement(out.type.element) || ElementCount(out.type) > 64 || !out.values.empty()) {
    return;
  }
  const int64_t n = ElementCount(out.type);
  std::vector<int64_t> v;
  if (name == "get_dimension_size") {
    const MlirAttr* d = Attr(op, {"dimension", "dim"});
    if (d == nullptr || d->kind != MlirAttr::kInt || in.empty()) return;
    const auto& dims = in[0].type.dimensions;
    if (d->i < 0 || d->i >= static_cast<int64_t>(dims.size()) || dims[d->i] < 0) return;
    v = {dims[d->i]};
  } else if (name == "convert" || name == "reshape" || name == "broadcast_in_dim" ||
             name == "optimization_barrier") {
    if (in.empty() || !Known(in[0])) return;
    if (static_cast<int64_t>(in[0].values.size()) == n) {
      v = in[0].values;
    } else if (in[0].values.size() == 1 && name == "broadcast_in_dim") {
      v.assign(n, in[0].values[0]);
    } else {
      return;
    }
    if (out.type.element == "i1") {
      for (int64_t& x : v) x = x != 0;
    }
  } else if (name == "concatenate") {
    if (out.type.dimensions.size() != 1) return;
    for (const Value& x : in) {
      if (!Known(x)) return;
      v.insert(v.end(), x.values.begin(), x.values.end());
    }
  } else if (name == "negate" || name == "not" || name == "abs") {
    if (in.size() != 1 || !Known(in[0])) return;
    for (int64_t x : in[0].values) {
      if (name != "not" && x == std::numeric_limits<int64_t>::min()) return;  // -x overflows
      v.push_back(name == "negate" ? -x
                  : name == "abs"  ? std::abs(x)
                                   : (out.type.element == "i1" ? !x : ~x));
    }
  } else if (name == "compare" || name == "add" || name == "subtract" || name == "multiply" ||
             name == "divide" || name == "remainder" || name == "maximum" || name == "minimum" ||
             name == "and" || name == "or" || name == "xor") {
    if (in.size() != 2 || !Known(in[0]) || !Known(in[1]) ||
        in[0].values.size() != in[1].values.size() ||
        static_cast<int64_t>(in[0].values.size()) != n) {
      return;
    }
    std::string direction;
    if (name == "compare") {
      if (const MlirAttr* d = Attr(op, {"comparison_direction"})) direction = d->s;
      for (const MlirAttr& p : op.positional) {
        if (direction.empty() && p.kind == MlirAttr::kWord) direction = p.s;
      }
    }
    for (int64_t k = 0; k < n; ++k) {
      const int64_t a = in[0].values[k], b = in[1].values[k];
      int64_t r = 0;
      // A result that overflows 64 bits is not a size: it is left to the run, which wraps
      // at the element's own width.
      if (name == "add" && __builtin_add_overflow(a, b, &r)) return;
      if (name == "subtract" && __builtin_sub_overflow(a, b, &r)) return;
      if (name == "multiply" && __builtin_mul_overflow(a, b, &r)) return;
      if (name == "divide" || name == "remainder") {
        // Division by zero and INT64_MIN / -1 are left to the run, as the spec leaves them.
        if (b == 0 || (b == -1 && a == std::numeric_limits<int64_t>::min())) return;
        r = name == "divide" ? a / b : a % b;
      }
      if (name == "maximum") r = std::max(a, b);
      if (name == "minimum") r = std::min(a, b);
      if (name == "and") r = a & b;
      if (name == "or") r = a | b;
      if (name == "xor") r = a ^ b;
      if (name == "compare") {
        if (direction == "EQ")
          r = a == b;
        else if (direction == "NE")
          r = a != b;
        else if (direction == "LT")
          r = a < b;
        else if (direction == "LE")
          r = a <= b;
        else if (direction == "GT")
          r = a > b;
        else if (direction == "GE")
          r = a >= b;
        else
          return;
      }
      v.push_back(r);
    }
  } else if (name == "select") {
    if (in.size() != 3 || !Known(in[0]) || !Known(in[1]) || !Known(in[2])) return;
    for (int64_t k = 0; k < n; ++k) {
      const int64_t c = in[0].values.size() == 1 ? in[0].values[0] : in[0].values[k];
      v.push_back(c ? in[1].values[k] : in[2].values[k]);
    }
  } else {
    return;
  }
  if (static_cast<int64_t>(v.size()) == n) out.values = std::move(v);
}

absl::StatusOr<std::optional<std::vector<Value>>> Converter::ConvertShapePolymorphicCall(
    const MlirOperation& op, const std::vector<Value>& in, absl::string_view target,
    const std::string& hint) {
  auto known = [&](size_t i, const char* what) -> absl::StatusOr<std::vector<int64_t>> {
    if (i >= in.size()) return OpError(op, absl::StrCat("missing its ", what, " operand"));
    if (!Known(in[i])) {
      return OpError(op, absl::StrCat("its ", what, " operand (", in[i].hlo,
                                      ") is known only at run time: give the program's "
                                      "arguments (--inputs) so the sizes follow from them"));
    }
    return in[i].values;
  };
  if (target == "shape_assertion") {
    // JAX's check that the actual sizes meet the shape specification.
    AOT_ASSIGN_OR_RETURN(std::vector<int64_t> ok, known(0, "condition"));
    for (int64_t b : ok) {
      if (b != 0) continue;
      std::string message = "shape assertion failed";
      if (const MlirAttr* m = Attr(op, {"error_message"}); m && m->kind == MlirAttr::kString) {
        message = m->s;
      }
      // Its {0}, {1}, ... name the operands after the condition.
      for (size_t k = 1; k < in.size(); ++k) {
        const std::string slot = absl::StrCat("{", k - 1, "}");
        const std::string value = Known(in[k]) ? absl::StrJoin(in[k].values, ",") : "?";
        for (size_t at = message.find(slot); at != std::string::npos;
             at = message.find(slot, at + value.size())) {
          message.replace(at, slot.size(), value);
        }
      }
      return OpError(op, message);
    }
    return std::vector<Value>{};
  }
  std::vector<MlirType> types = ResultTypes(op);
  if (target == "stablehlo.dynamic_top_k" || target == "stablehlo.dynamic_approx_top_k") {
    // (operand, k) for top_k; approx_top_k's operands are (operand, iota,
    // init value, init index, k, result sizes...). Exact on this backend,
    // as XLA's CPU backend computes approx_top_k.
    const size_t k_at = target == "stablehlo.dynamic_top_k" ? 1 : 4;
    AOT_ASSIGN_OR_RETURN(std::vector<int64_t> k, known(k_at, "k"));
    if (in.empty() || HasUnboundedDimension(in[0].type) || k.size() != 1 || types.size() != 2) {
      return OpError(op, "expects (operand, k) with a static operand and two results");
    }
    for (MlirType& t : types) {
      t.dimensions = in[0].type.dimensions;
      t.dimensions.back() = k[0];
      t.bounds.assign(t.dimensions.size(), -1);
      t.text = "";
    }
    return EmitResults(types, hint, "topk", {in[0]}, absl::StrCat("k=", k[0], ", largest=true"));
  }
  if (target == "stablehlo.dynamic_rng_bit_generator") {
    AOT_ASSIGN_OR_RETURN(std::vector<int64_t> shape, known(1, "output shape"));
    if (types.size() != 2) return OpError(op, "expects two results (state, bits)");
    types[1].dimensions = shape;
    types[1].bounds.assign(shape.size(), -1);
    types[1].text = "";
    MlirOperation fixed = op;
    fixed.name = "stablehlo.rng_bit_generator";
    fixed.operands.resize(1);
    fixed.positional.clear();
    if (fixed.has_function_type) {
      fixed.operand_types.resize(1);
      fixed.result_types = types;
    } else {
      fixed.types = types;
    }
    if (const MlirAttr* a = Attr(op, {"rng_algorithm"})) fixed.attributes["rng_algorithm"] = *a;
    return ConvertDataMovementOp(fixed, {in[0]}, "rng_bit_generator", hint);
  }
  return std::nullopt;
}

}  // namespace convert_internal
}  // namespace aot::stablehlo
