// The converter's core: values and their lookup, attributes shared by many
// ops, functions and the module, and the dispatch of every op to its
// family's emitter (one table).
#include "compiler/stablehlo/stablehlo_to_hlo.h"

#include "compiler/stablehlo/stablehlo_to_hlo_internal.h"

namespace aot::stablehlo {
namespace convert_internal {

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
  // constants); the operation is converted with the refined types. Calls
  // of specialized functions and custom calls take theirs from what they
  // compute.
  const bool refines_itself = op.name == "func.call" || op.name == "call" ||
                              op.name == "stablehlo.custom_call" ||
                              op.name == "stablehlo.real_dynamic_slice";
  for (const MlirType& t : op.has_function_type ? op.result_types : op.types) {
    if (refines_itself) break;
    if (!HasUnboundedDimension(t)) continue;
    AOT_ASSIGN_OR_RETURN(MlirOperation refined, RefineResultTypes(op, in));
    return ConvertRefined(refined, in);
  }
  return ConvertRefined(op, in);
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
    MlirType type = fn.arguments[i].second;
    if (entry && i < options_.entry_argument_dims.size() && HasUnboundedDimension(type)) {
      // Shape polymorphism: the actual argument's sizes.
      const std::vector<int64_t>& actual = options_.entry_argument_dims[i];
      bool fits = actual.size() == type.dimensions.size();
      for (size_t d = 0; fits && d < actual.size(); ++d) {
        fits = type.dimensions[d] < 0 || type.dimensions[d] == actual[d];
      }
      if (!fits) {
        status = absl::InvalidArgumentError(absl::StrCat(
            Where(fn.loc), ": @", fn.name, " argument %", fn.arguments[i].first, " is ", type.text,
            "; the given value is [", absl::StrJoin(actual, "x"), "]"));
        break;
      }
      type.dimensions = actual;
      type.bounds.assign(actual.size(), -1);
      type.text = "";
    }
    auto p = Emit(type, fn.arguments[i].first,
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
  options_ = options;
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

absl::StatusOr<std::vector<Value>> Converter::ConvertStablehlo(const MlirOperation& op,
                                                               const std::vector<Value>& in,
                                                               absl::string_view name) {
  const std::string hint = op.results.empty() ? std::string(name) : op.results[0].first;

  for (const SimpleOp& s : kSimpleOps) {
    if (name != s.mlir) continue;
    AOT_RETURN_IF_ERROR(Arity(op, in, s.arity));
    AOT_RETURN_IF_ERROR(NeedResultType(op));
    return ConvertSimpleOp(op, in, s, hint);
  }
  // Every other op by its family's emitter.
  static const auto* kEmitters = new absl::flat_hash_map<std::string, OpEmitter>{
      {"constant", &Converter::ConvertElementwiseOp},
      {"compare", &Converter::ConvertElementwiseOp},
      {"select", &Converter::ConvertElementwiseOp},
      {"clamp", &Converter::ConvertElementwiseOp},
      {"broadcast_in_dim", &Converter::ConvertDataMovementOp},
      {"dynamic_broadcast_in_dim", &Converter::ConvertDataMovementOp},
      {"dynamic_reshape", &Converter::ConvertShapeOp},
      {"real_dynamic_slice", &Converter::ConvertShapeOp},
      {"dynamic_pad", &Converter::ConvertShapeOp},
      {"dynamic_gather", &Converter::ConvertShapeOp},
      {"dynamic_conv", &Converter::ConvertShapeOp},
      {"transpose", &Converter::ConvertDataMovementOp},
      {"reverse", &Converter::ConvertDataMovementOp},
      {"iota", &Converter::ConvertDataMovementOp},
      {"dynamic_iota", &Converter::ConvertDataMovementOp},
      {"concatenate", &Converter::ConvertDataMovementOp},
      {"slice", &Converter::ConvertDataMovementOp},
      {"dynamic_slice", &Converter::ConvertDataMovementOp},
      {"dynamic_update_slice", &Converter::ConvertDataMovementOp},
      {"pad", &Converter::ConvertDataMovementOp},
      {"dot_general", &Converter::ConvertStructuredOp},
      {"dot", &Converter::ConvertStructuredOp},
      {"get_tuple_element", &Converter::ConvertDataMovementOp},
      {"tuple", &Converter::ConvertDataMovementOp},
      {"optimization_barrier", &Converter::ConvertDataMovementOp},
      {"rng_bit_generator", &Converter::ConvertDataMovementOp},
      {"after_all", &Converter::ConvertDataMovementOp},
      {"create_token", &Converter::ConvertDataMovementOp},
      {"replica_id", &Converter::ConvertDataMovementOp},
      {"partition_id", &Converter::ConvertDataMovementOp},
      {"get_dimension_size", &Converter::ConvertShapeOp},
      {"set_dimension_size", &Converter::ConvertShapeOp},
      {"reduce_precision", &Converter::ConvertElementwiseOp},
      {"cholesky", &Converter::ConvertStructuredOp},
      {"triangular_solve", &Converter::ConvertStructuredOp},
      {"fft", &Converter::ConvertStructuredOp},
      {"batch_norm_inference", &Converter::ConvertStructuredOp},
      {"batch_norm_training", &Converter::ConvertStructuredOp},
      {"batch_norm_grad", &Converter::ConvertStructuredOp},
      {"custom_call", &Converter::ConvertCustomCallOp},
      {"reduce", &Converter::ConvertStructuredOp},
      {"reduce_window", &Converter::ConvertStructuredOp},
      {"select_and_scatter", &Converter::ConvertStructuredOp},
      {"map", &Converter::ConvertStructuredOp},
      {"sort", &Converter::ConvertStructuredOp},
      {"gather", &Converter::ConvertStructuredOp},
      {"scatter", &Converter::ConvertStructuredOp},
      {"convolution", &Converter::ConvertStructuredOp},
      {"while", &Converter::ConvertRegionOp},
      {"if", &Converter::ConvertRegionOp},
      {"case", &Converter::ConvertRegionOp},
      {"all_reduce", &Converter::ConvertCollectiveOp},
      {"all_gather", &Converter::ConvertCollectiveOp},
      {"reduce_scatter", &Converter::ConvertCollectiveOp},
      {"collective_permute", &Converter::ConvertCollectiveOp},
      {"all_to_all", &Converter::ConvertCollectiveOp},
      {"collective_broadcast", &Converter::ConvertCollectiveOp}};
  auto emitter = kEmitters->find(std::string(name));
  if (emitter == kEmitters->end()) return OpError(op, "unsupported stablehlo operation");
  return (this->*emitter->second)(op, in, name, hint);
}

absl::Status Converter::Arity(const MlirOperation& op, const std::vector<Value>& in,
                              size_t n) const {
  if (in.size() != n) {
    return OpError(op, absl::StrCat("takes ", n, " operand(s), found ", in.size()));
  }
  return absl::OkStatus();
}

}  // namespace convert_internal

// The API below uses the converter and its tables.
using namespace convert_internal;  // NOLINT(build/namespaces)

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
  out.push_back({"chlo.erfc", true, "Cephes' rational approximations, in f64"});
  out.push_back({"chlo.next_after", true, "one step of the integer bits, as XLA"});
  out.push_back({"stablehlo.rng_bit_generator", true, "HLO rng-bit-generator"});
  for (const char* n : {"dynamic_pad", "dynamic_gather", "dynamic_conv"}) {
    out.push_back({absl::StrCat("stablehlo.", n), true, "the static op (constant sizes)"});
  }
  out.push_back({"interpreter.run_parallel", true,
                 "the grid's programs as one program; their collectives, collective_reduce, "
                 "send/recv and infeed as data flow"});
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
