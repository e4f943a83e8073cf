// Ops that move data: broadcasts, transposes, slices, pads, tuples, iota,
// tokens, replica and partition ids, rng_bit_generator.
#include "compiler/stablehlo/stablehlo_to_hlo_internal.h"

namespace aot::stablehlo {
namespace convert_internal {

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

absl::StatusOr<std::vector<Value>> Converter::ConvertDataMovementOp(const MlirOperation& op,
                                                                    const std::vector<Value>& in,
                                                                    absl::string_view name,
                                                                    const std::string& hint) {
  if (name == "broadcast_in_dim" || name == "dynamic_broadcast_in_dim") {
    if (in.empty()) return OpError(op, "takes an operand");
    AOT_RETURN_IF_ERROR(NeedResultType(op));
    AOT_ASSIGN_OR_RETURN(std::vector<int64_t> dims,
                         IntsAttr(op, {"dims", "broadcast_dimensions"}, "broadcast dimensions"));
    return One(BroadcastInDim(op, in[0], ResultType(op), dims));
  }
  if (name == "transpose") {
    AOT_RETURN_IF_ERROR(Arity(op, in, 1));
    AOT_RETURN_IF_ERROR(NeedResultType(op));
    AOT_ASSIGN_OR_RETURN(std::vector<int64_t> dims,
                         IntsAttr(op, {"dims", "permutation"}, "the permutation"));
    return One(
        Emit(ResultType(op), hint, "transpose", in, absl::StrCat("dimensions=", Braced(dims))));
  }
  if (name == "reverse") {
    AOT_RETURN_IF_ERROR(Arity(op, in, 1));
    AOT_ASSIGN_OR_RETURN(std::vector<int64_t> dims,
                         IntsAttr(op, {"dims", "dimensions"}, "the dimensions"));
    MlirType rt = op.types.empty() && op.result_types.empty() ? in[0].type : ResultType(op);
    return One(Emit(rt, hint, "reverse", in, absl::StrCat("dimensions=", Braced(dims))));
  }
  if (name == "iota" || name == "dynamic_iota") {
    AOT_RETURN_IF_ERROR(NeedResultType(op));
    AOT_ASSIGN_OR_RETURN(
        int64_t dim, IntAttr(op, {"dim", "iota_dimension"}, "the iota dimension", std::nullopt));
    const MlirType rt = ResultType(op);
    if (absl::StartsWith(rt.element, "complex")) {
      // StableHLO's complex iota: the real parts count, the imaginary are 0.
      const std::string& e = rt.element;
      AOT_ASSIGN_OR_RETURN(Value re, Emit(WithElement(rt, e.substr(8, e.size() - 9)), hint,
                                          absl::StrCat("iota(), iota_dimension=", dim)));
      return One(Emit(rt, hint, "convert", {re}));
    }
    return One(Emit(rt, hint, absl::StrCat("iota(), iota_dimension=", dim)));
  }
  if (name == "concatenate") {
    if (in.empty()) return OpError(op, "takes at least one operand");
    AOT_RETURN_IF_ERROR(NeedResultType(op));
    AOT_ASSIGN_OR_RETURN(int64_t dim,
                         IntAttr(op, {"dim", "dimension"}, "the dimension", std::nullopt));
    return One(
        Emit(ResultType(op), hint, "concatenate", in, absl::StrCat("dimensions={", dim, "}")));
  }
  if (name == "slice") {
    AOT_RETURN_IF_ERROR(Arity(op, in, 1));
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
    return One(Emit(ResultType(op), hint, "slice", in,
                    absl::StrCat("slice={", absl::StrJoin(parts, ", "), "}")));
  }
  if (name == "dynamic_slice") {
    if (in.empty()) return OpError(op, "takes an operand and start indices");
    AOT_RETURN_IF_ERROR(NeedResultType(op));
    AOT_ASSIGN_OR_RETURN(std::vector<int64_t> sizes,
                         IntsAttr(op, {"sizes", "slice_sizes"}, "slice sizes"));
    return One(Emit(ResultType(op), hint, "dynamic-slice", in,
                    absl::StrCat("dynamic_slice_sizes=", Braced(sizes))));
  }
  if (name == "dynamic_update_slice") {
    if (in.size() < 2) return OpError(op, "takes an operand, an update and start indices");
    MlirType rt = op.types.empty() && op.result_types.empty() ? in[0].type : ResultType(op);
    return One(Emit(rt, hint, "dynamic-update-slice", in));
  }
  if (name == "pad") {
    AOT_RETURN_IF_ERROR(Arity(op, in, 2));
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
    return One(
        Emit(ResultType(op), hint, "pad", in, absl::StrCat("padding=", absl::StrJoin(parts, "x"))));
  }
  if (name == "get_tuple_element") {
    AOT_RETURN_IF_ERROR(Arity(op, in, 1));
    AOT_RETURN_IF_ERROR(NeedResultType(op));
    int64_t index = -1;
    for (const MlirAttr& p : op.positional) {
      if (p.kind == MlirAttr::kList && p.list.size() == 1) index = p.list[0].i;
    }
    if (index < 0) {
      AOT_ASSIGN_OR_RETURN(index, IntAttr(op, {"index"}, "the index", std::nullopt));
    }
    return One(Emit(ResultType(op), hint, "get-tuple-element", in, absl::StrCat("index=", index)));
  }
  if (name == "tuple") {
    return One(Tuple(in, hint));
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
    AOT_RETURN_IF_ERROR(Arity(op, in, 1));
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
    return One(Emit(token, hint, "after-all", in));
  }
  if (name == "replica_id" || name == "partition_id") {
    MlirType u32;
    u32.element = "ui32";
    return One(Emit(u32, hint, name == "replica_id" ? "replica-id" : "partition-id", {}));
  }
  return OpError(op, "unsupported stablehlo operation");
}

}  // namespace convert_internal
}  // namespace aot::stablehlo
