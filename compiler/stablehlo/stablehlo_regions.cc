// Control flow and regions: while, if and case, and the conversion of a
// region into an HLO computation (free values threaded in).
#include "compiler/stablehlo/stablehlo_to_hlo_internal.h"
#include "support/status_macros.h"

namespace aot::stablehlo {
namespace convert_internal {

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
  AOT_RETURN_IF_ERROR(r);
  AOT_ASSIGN_OR_RETURN(std::string name, FinishComputation(&comp, {*r}, false, false));
  scalar_computations_[key] = name;
  return name;
}

absl::StatusOr<std::vector<Value>> Converter::ConvertRegionOp(const MlirOperation& op,
                                                              const std::vector<Value>& in,
                                                              absl::string_view name,
                                                              const std::string& hint) {
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
  return OpError(op, "unsupported stablehlo operation");
}

}  // namespace convert_internal
}  // namespace aot::stablehlo
