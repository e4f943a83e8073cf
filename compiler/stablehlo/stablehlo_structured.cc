// Structured ops: dot, convolution, reductions, sort, gather and scatter,
// linear algebra, fft, batch norm.
#include "compiler/stablehlo/stablehlo_to_hlo_internal.h"

namespace aot::stablehlo {
namespace convert_internal {

absl::StatusOr<std::vector<Value>> Converter::ConvertStructuredOp(const MlirOperation& op,
                                                                  const std::vector<Value>& in,
                                                                  absl::string_view name,
                                                                  const std::string& hint) {
  if (name == "dot_general" || name == "dot") {
    AOT_RETURN_IF_ERROR(Arity(op, in, 2));
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
    return One(Emit(ResultType(op), hint, "dot", in,
                    absl::StrCat("lhs_batch_dims=", Braced(lb), ", rhs_batch_dims=", Braced(rb),
                                 ", lhs_contracting_dims=", Braced(lc),
                                 ", rhs_contracting_dims=", Braced(rc))));
  }
  if (name == "cholesky") {
    AOT_RETURN_IF_ERROR(Arity(op, in, 1));
    MlirType rt = op.types.empty() && op.result_types.empty() ? in[0].type : ResultType(op);
    return One(Emit(rt, hint, "cholesky", in,
                    absl::StrCat("lower=", BoolAttr(op, "lower", false) ? "true" : "false")));
  }
  if (name == "triangular_solve") {
    AOT_RETURN_IF_ERROR(Arity(op, in, 2));
    AOT_RETURN_IF_ERROR(NeedResultType(op));
    std::string transpose = "NO_TRANSPOSE";
    if (const MlirAttr* t = Attr(op, {"transpose_a"})) transpose = t->s;
    return One(Emit(
        ResultType(op), hint, "triangular-solve", in,
        absl::StrCat("left_side=", BoolAttr(op, "left_side", false) ? "true" : "false",
                     ", lower=", BoolAttr(op, "lower", false) ? "true" : "false",
                     ", unit_diagonal=", BoolAttr(op, "unit_diagonal", false) ? "true" : "false",
                     ", transpose_a=", transpose)));
  }
  if (name == "fft") {
    AOT_RETURN_IF_ERROR(Arity(op, in, 1));
    AOT_RETURN_IF_ERROR(NeedResultType(op));
    const MlirAttr* type = Attr(op, {"type", "fft_type"});
    if (type == nullptr) return OpError(op, "missing the FFT type");
    AOT_ASSIGN_OR_RETURN(std::vector<int64_t> length,
                         IntsAttr(op, {"length", "fft_length"}, "the FFT length"));
    return One(Emit(ResultType(op), hint, "fft", in,
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
    AOT_RETURN_IF_ERROR(Arity(op, in, 3));
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
    return One(Emit(ResultType(op), hint, "select-and-scatter", in,
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
    return One(Emit(ResultType(op), hint, "map", in,
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
    AOT_RETURN_IF_ERROR(Arity(op, in, 2));
    AOT_RETURN_IF_ERROR(NeedResultType(op));
    AOT_ASSIGN_OR_RETURN(
        std::vector<std::string> attrs,
        DimensionNumbers(op, "dimension_numbers", "gather",
                         {"offset_dims", "collapsed_slice_dims", "operand_batching_dims",
                          "start_indices_batching_dims", "start_index_map"}));
    AOT_ASSIGN_OR_RETURN(std::vector<int64_t> sizes, IntsAttr(op, {"slice_sizes"}, "slice_sizes"));
    attrs.push_back(absl::StrCat("slice_sizes=", Braced(sizes)));
    if (BoolAttr(op, "indices_are_sorted", false)) attrs.push_back("indices_are_sorted=true");
    return One(Emit(ResultType(op), hint, "gather", in, absl::StrJoin(attrs, ", ")));
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
    AOT_RETURN_IF_ERROR(Arity(op, in, 2));
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
        // Left out at its default, as StableHLO's printer does: 0 for a
        // dimension, empty for a list of them.
        auto it = dn->dict.find(f);
        if (it == dn->dict.end()) {
          if (absl::string_view(f).find("spatial") != absl::string_view::npos) {
            return std::vector<int64_t>{};
          }
          return std::vector<int64_t>{0};
        }
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
    return One(Emit(ResultType(op), hint, "convolution", in, attrs));
  }
  return OpError(op, "unsupported stablehlo operation");
}

}  // namespace convert_internal
}  // namespace aot::stablehlo
