// Collectives: all-reduce, all-gather, reduce-scatter, collective-permute,
// all-to-all, collective-broadcast.
#include "compiler/stablehlo/stablehlo_to_hlo_internal.h"
#include "support/status_macros.h"

namespace aot::stablehlo {
namespace convert_internal {

absl::StatusOr<std::vector<Value>> Converter::ConvertCollectiveOp(const MlirOperation& op,
                                                                  const std::vector<Value>& in,
                                                                  absl::string_view name,
                                                                  const std::string& hint) {
  if (name == "all_reduce" || name == "all_gather" || name == "reduce_scatter" ||
      name == "collective_permute" || name == "all_to_all" || name == "collective_broadcast") {
    AOT_RETURN_IF_ERROR(NeedResultType(op));
    std::vector<std::string> attrs;
    if (const MlirAttr* g = Attr(op, {"replica_groups"})) {
      if (g->kind != MlirAttr::kDense || !g->type || g->type->dimensions.size() != 2) {
        return OpError(op, "replica_groups must be dense<...> : tensor<GxNxi64>");
      }
      auto e = ParseDenseElements(g->s, "s64", g->type->dimensions);
      AOT_RETURN_IF_ERROR_AND(e, OpError(op, absl::StrCat("replica_groups: ", _.message())));
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
      AOT_RETURN_IF_ERROR_AND(e, OpError(op, absl::StrCat("source_target_pairs: ", _.message())));
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

}  // namespace convert_internal
}  // namespace aot::stablehlo
