// The reference interpreter's test dialect: `interpreter.run_parallel`.
//
// StableHLO's interpreter runs the functions of `programs = [[@f00, @f01],
// [@f10, @f11]]` (one row per replica, one column per partition) as
// processes that meet at their collectives. Here they become part of the
// calling function, one single-device program: each participant's body is
// converted op by op with its own values, and a collective is emitted once
// every member of its process group has reached it, as the data flow it
// computes: the fold of all_reduce's body over the group (HLO map; for
// collective_reduce at the group's first member, zeros elsewhere),
// concatenations for all_gather, slices for reduce_scatter and all_to_all,
// a selection for collective_permute and collective_broadcast (zeros where
// the op sends nothing; with has_dynamic_root, the member its root operand
// names, by a dynamic slice of the members' values), FIFO channels for send and recv, and the run's
// `infeed` functions for infeed. Process groups are formed as the spec's
// cross_replica, cross_partition, cross_replica_and_partition and
// flattened_ids define them. The program then runs on the interpreter and
// compiled for the host alike, deterministically; collectives inside the
// regions of a participant's ops (a loop around an all_reduce) are refused
// by name.
#include <deque>

#include "compiler/stablehlo/stablehlo_to_hlo_internal.h"
#include "support/status_macros.h"

namespace aot::stablehlo {
namespace convert_internal {

namespace {

bool IsReturn(absl::string_view n) {
  return n == "return" || n == "func.return" || n == "stablehlo.return" || n == "mhlo.return";
}

// Ops that wait for other participants.
bool IsMeeting(absl::string_view n) {
  return n == "stablehlo.all_reduce" || n == "stablehlo.collective_reduce" ||
         n == "stablehlo.all_gather" || n == "stablehlo.reduce_scatter" ||
         n == "stablehlo.all_to_all" || n == "stablehlo.collective_permute" ||
         n == "stablehlo.collective_broadcast" || n == "stablehlo.recv";
}

// Ops whose meaning depends on the participant or the run but that wait for
// no one.
bool IsLocal(absl::string_view n) {
  return n == "stablehlo.replica_id" || n == "stablehlo.partition_id" || n == "stablehlo.send" ||
         n == "stablehlo.infeed" || n == "stablehlo.outfeed";
}

// The first op inside `region` (at any depth) that needs the other
// participants or the run, or nullptr.
const MlirOperation* NestedCollective(const MlirRegion& region) {
  for (const MlirBlock& block : region.blocks) {
    for (const MlirOperation& op : block.operations) {
      if (IsMeeting(op.name) || IsLocal(op.name)) return &op;
      for (const MlirRegion& r : op.regions) {
        if (const MlirOperation* found = NestedCollective(r)) return found;
      }
    }
  }
  return nullptr;
}

std::string ZeroLiteral(const std::string& element) {
  if (element == "i1") return "false";
  if (absl::StartsWith(element, "complex")) return "(0, 0)";
  return "0";
}

}  // namespace

// One process of the run: where its program is, and its values.
struct Participant {
  int64_t replica = 0;
  int64_t partition = 0;
  const MlirFunction* fn = nullptr;
  absl::flat_hash_map<std::string, Value> values;
  size_t next = 0;  // the next op of its body
  bool done = false;
  std::vector<Value> returned;
};

class ParallelRunner {
 public:
  ParallelRunner(Converter& c, const MlirOperation& op) : c_(c), op_(op) {}

  absl::Status Run(const std::vector<Value>& in, std::vector<Value>* results) {
    AOT_RETURN_IF_ERROR(ReadPrograms(in));
    Computation* comp = c_.current_;
    const bool saved_top = c_.in_entry_top_;
    c_.in_entry_top_ = false;
    absl::Status status = Schedule();
    c_.in_entry_top_ = saved_top;
    c_.current_ = comp;
    AOT_RETURN_IF_ERROR(status);
    for (const Participant& p : ps_) {
      results->insert(results->end(), p.returned.begin(), p.returned.end());
    }
    return absl::OkStatus();
  }

 private:
  absl::Status Error(absl::string_view message) const { return c_.OpError(op_, message); }
  absl::Status ErrorAt(const Participant& p, const MlirOperation& op,
                       absl::string_view message) const {
    return c_.OpError(op, absl::StrCat("in @", p.fn->name, " (replica ", p.replica, ", partition ",
                                       p.partition, ") of interpreter.run_parallel: ", message));
  }

  absl::Status ReadPrograms(const std::vector<Value>& in) {
    const MlirAttr* programs = c_.Attr(op_, {"programs"});
    if (programs == nullptr || programs->kind != MlirAttr::kList || programs->list.empty()) {
      return Error("missing programs = [[@f, ...], ...] (one row per replica)");
    }
    replicas_ = static_cast<int64_t>(programs->list.size());
    size_t next_operand = 0;
    for (int64_t r = 0; r < replicas_; ++r) {
      const MlirAttr& row = programs->list[r];
      if (row.kind != MlirAttr::kList || row.list.empty()) {
        return Error("each row of programs must be a list of functions [@f, ...]");
      }
      if (r == 0) partitions_ = static_cast<int64_t>(row.list.size());
      if (static_cast<int64_t>(row.list.size()) != partitions_) {
        return Error(absl::StrCat("row ", r, " of programs has ", row.list.size(),
                                  " function(s); row 0 has ", partitions_));
      }
      for (int64_t p = 0; p < partitions_; ++p) {
        const MlirAttr& f = row.list[p];
        if (f.kind != MlirAttr::kSymbol) return Error("programs must name functions (@name)");
        auto fn = c_.functions_.find(f.s);
        if (fn == c_.functions_.end()) return Error(absl::StrCat("unknown function @", f.s));
        if (fn->second->body.blocks.size() != 1) {
          return Error(absl::StrCat("@", f.s, " must have one block"));
        }
        Participant part;
        part.replica = r;
        part.partition = p;
        part.fn = fn->second;
        const auto& args = fn->second->arguments;
        if (next_operand + args.size() > in.size()) {
          return Error(
              absl::StrCat("the programs take more operands than the ", in.size(), " given"));
        }
        for (const auto& [name, type] : args) part.values[name] = in[next_operand++];
        ps_.push_back(std::move(part));
      }
    }
    if (next_operand != in.size()) {
      return Error(absl::StrCat("the programs take ", next_operand, " operand(s); ", in.size(),
                                " are given"));
    }
    if (const MlirAttr* infeed = c_.Attr(op_, {"infeed"})) {
      if (infeed->kind != MlirAttr::kList) return Error("infeed must be a list of functions");
      for (const MlirAttr& f : infeed->list) {
        auto fn = f.kind == MlirAttr::kSymbol ? c_.functions_.find(f.s) : c_.functions_.end();
        if (fn == c_.functions_.end()) return Error("infeed must name functions (@name)");
        infeed_.push_back(fn->second);
      }
    }
    return absl::OkStatus();
  }

  // Runs `f` with the participant's values as the computation's.
  template <typename F>
  auto As(Participant& p, F f) {
    std::swap(c_.current_->values, p.values);
    auto result = f();
    std::swap(c_.current_->values, p.values);
    return result;
  }

  absl::StatusOr<std::vector<Value>> Operands(Participant& p, const MlirOperation& op) {
    return As(p, [&]() -> absl::StatusOr<std::vector<Value>> {
      std::vector<Value> out;
      for (const MlirValueRef& ref : op.operands) {
        AOT_ASSIGN_OR_RETURN(Value v, c_.Lookup(ref, op));
        out.push_back(std::move(v));
      }
      return out;
    });
  }

  absl::Status Define(Participant& p, const MlirOperation& op, const std::vector<Value>& results) {
    return As(p, [&] { return c_.DefineResults(op, results); });
  }

  const MlirOperation& At(const Participant& p) const {
    return p.fn->body.blocks.front().operations[p.next];
  }

  absl::Status Schedule() {
    while (true) {
      for (Participant& p : ps_) AOT_RETURN_IF_ERROR(Advance(p));
      bool all_done = true, resolved = false;
      for (size_t i = 0; i < ps_.size() && !resolved; ++i) {
        if (ps_[i].done) continue;
        all_done = false;
        AOT_ASSIGN_OR_RETURN(resolved, TryResolve(i));
      }
      if (all_done) return absl::OkStatus();
      if (!resolved) {
        std::vector<std::string> waiting;
        for (const Participant& p : ps_) {
          if (p.done) continue;
          waiting.push_back(absl::StrCat("(", p.replica, ", ", p.partition, ") at ",
                                         c_.Where(At(p).loc), " ", At(p).name));
        }
        return Error(absl::StrCat("the participants wait for each other for ever: ",
                                  absl::StrJoin(waiting, "; ")));
      }
    }
  }

  // Converts the participant's ops up to its next meeting or its return.
  absl::Status Advance(Participant& p) {
    const MlirBlock& block = p.fn->body.blocks.front();
    while (!p.done && p.next < block.operations.size()) {
      const MlirOperation& op = block.operations[p.next];
      c_.origin_ = absl::StrCat(c_.Where(op.loc), " (", op.name, ")");
      if (IsReturn(op.name)) {
        AOT_ASSIGN_OR_RETURN(p.returned, Operands(p, op));
        if (p.returned.size() != p.fn->results.size()) {
          return ErrorAt(p, op,
                         absl::StrCat("returns ", p.returned.size(), " value(s); @", p.fn->name,
                                      " declares ", p.fn->results.size()));
        }
        p.done = true;
        return absl::OkStatus();
      }
      if (IsMeeting(op.name)) return absl::OkStatus();
      if (IsLocal(op.name)) {
        AOT_RETURN_IF_ERROR(ConvertLocal(p, op));
      } else {
        for (const MlirRegion& r : op.regions) {
          if (const MlirOperation* nested = NestedCollective(r)) {
            return ErrorAt(p, *nested,
                           absl::StrCat("inside the regions of ", op.name,
                                        " (collectives of a run_parallel program must be at "
                                        "the top level of its body)"));
          }
        }
        AOT_RETURN_IF_ERROR(As(p, [&] { return c_.ConvertOp(op); }));
      }
      ++p.next;
    }
    if (!p.done) return ErrorAt(p, op_, "the program has no return");
    return absl::OkStatus();
  }

  absl::StatusOr<Value> TokenAfter(const std::vector<Value>& operands) {
    std::vector<Value> tokens;
    for (const Value& v : operands) {
      if (v.type.kind == MlirType::kToken) tokens.push_back(v);
    }
    MlirType token;
    token.kind = MlirType::kToken;
    return c_.Emit(token, "token", "after-all", tokens);
  }

  absl::StatusOr<int64_t> Channel(const MlirOperation& op) const {
    const MlirAttr* ch = c_.Attr(op, {"channel_handle"});
    if (ch == nullptr || ch->kind != MlirAttr::kDict) return 0;
    auto it = ch->dict.find("handle");
    if (it == ch->dict.end()) return 0;
    if (it->second.kind != MlirAttr::kInt)
      return c_.OpError(op, "the channel handle must be an int");
    return it->second.i;
  }

  absl::Status ConvertLocal(Participant& p, const MlirOperation& op) {
    AOT_ASSIGN_OR_RETURN(std::vector<Value> in, Operands(p, op));
    std::vector<Value> results;
    if (op.name == "stablehlo.replica_id" || op.name == "stablehlo.partition_id") {
      MlirType u32;
      u32.kind = MlirType::kTensor;
      u32.element = "ui32";
      const int64_t id = op.name == "stablehlo.replica_id" ? p.replica : p.partition;
      AOT_ASSIGN_OR_RETURN(Value v, c_.ScalarConstant(u32, absl::StrCat(id), "id"));
      results.push_back(std::move(v));
    } else if (op.name == "stablehlo.send") {
      AOT_ASSIGN_OR_RETURN(int64_t channel, Channel(op));
      std::vector<Value> data;
      for (const Value& v : in) {
        if (v.type.kind != MlirType::kToken) data.push_back(v);
      }
      channels_[channel].push_back(std::move(data));
      AOT_ASSIGN_OR_RETURN(Value token, TokenAfter(in));
      results.push_back(std::move(token));
    } else if (op.name == "stablehlo.outfeed") {
      // The values leave the program; what is checked is what the program
      // computes, so only the token remains.
      AOT_ASSIGN_OR_RETURN(Value token, TokenAfter(in));
      results.push_back(std::move(token));
    } else {  // infeed
      if (next_infeed_ >= infeed_.size()) {
        return ErrorAt(p, op,
                       absl::StrCat("infeed number ", next_infeed_ + 1, " but the run has ",
                                    infeed_.size(), " infeed function(s) (infeed = [@f, ...])"));
      }
      const MlirFunction* source = infeed_[next_infeed_++];
      if (!source->arguments.empty()) {
        return ErrorAt(p, op, absl::StrCat("infeed function @", source->name, " takes arguments"));
      }
      AOT_ASSIGN_OR_RETURN(std::string comp, c_.ConvertFunction(*source, /*entry=*/false));
      AOT_ASSIGN_OR_RETURN(results, c_.EmitResults(source->results, "infeed", "call", {},
                                                   absl::StrCat("to_apply=%", comp)));
      AOT_ASSIGN_OR_RETURN(Value token, TokenAfter(in));
      results.push_back(std::move(token));
    }
    return Define(p, op, results);
  }

  // The participant index of (replica, partition).
  size_t IndexOf(int64_t replica, int64_t partition) const {
    return static_cast<size_t>(replica * partitions_ + partition);
  }

  // replica_groups as lists of ids (-1 padding dropped); empty when absent
  // or empty.
  absl::StatusOr<std::vector<std::vector<int64_t>>> Groups(const MlirOperation& op,
                                                           const char* attr) const {
    std::vector<std::vector<int64_t>> out;
    const MlirAttr* g = c_.Attr(op, {attr});
    if (g == nullptr) return out;
    if (g->kind != MlirAttr::kDense || !g->type || g->type->dimensions.size() != 2) {
      return c_.OpError(op, absl::StrCat(attr, " must be dense<...> : tensor<GxNxi64>"));
    }
    const int64_t rows = g->type->dimensions[0], cols = g->type->dimensions[1];
    if (rows * cols == 0) return out;
    auto e = ParseDenseElements(g->s, "s64", g->type->dimensions);
    AOT_RETURN_IF_ERROR_AND(e, c_.OpError(op, absl::StrCat(attr, ": ", _.message())));
    for (int64_t r = 0; r < rows; ++r) {
      std::vector<int64_t> ids;
      for (int64_t c = 0; c < cols; ++c) {
        int64_t id = 0;
        (void)absl::SimpleAtoi(e->elements[e->splat ? 0 : r * cols + c], &id);
        if (id >= 0) ids.push_back(id);
      }
      out.push_back(std::move(ids));
    }
    return out;
  }

  // The op's process groups, as participant indices (the spec's
  // cross_replica, cross_partition, cross_replica_and_partition and
  // flattened_ids).
  absl::StatusOr<std::vector<std::vector<size_t>>> ProcessGroups(const MlirOperation& op) const {
    AOT_ASSIGN_OR_RETURN(int64_t channel, Channel(op));
    const bool global = c_.BoolAttr(op, "use_global_device_ids", false);
    const bool permute = op.name == "stablehlo.collective_permute";
    enum { kCrossReplica, kCrossPartition, kCrossReplicaAndPartition, kFlattened } mode;
    if (op.name == "stablehlo.all_to_all" || op.name == "stablehlo.collective_broadcast" ||
        permute) {
      mode = channel > 0 ? kCrossPartition : kCrossReplica;
    } else if (channel <= 0) {
      if (global) return c_.OpError(op, "use_global_device_ids needs a channel handle > 0");
      mode = kCrossReplica;
    } else {
      mode = global ? kFlattened : kCrossReplicaAndPartition;
    }
    std::vector<std::vector<int64_t>> groups;
    if (!permute) {
      AOT_ASSIGN_OR_RETURN(groups, Groups(op, "replica_groups"));
    }
    const int64_t space = mode == kCrossPartition ? partitions_
                          : mode == kFlattened    ? replicas_ * partitions_
                                                  : replicas_;
    if (groups.empty()) {
      // No groups (or a permute, whose pairs index the whole dimension):
      // one group of every id.
      groups.emplace_back();
      for (int64_t id = 0; id < space; ++id) groups.back().push_back(id);
    }
    for (const auto& group : groups) {
      for (int64_t id : group) {
        if (id >= space) {
          return c_.OpError(
              op, absl::StrCat("id ", id,
                               " in the groups is out of range: the run "
                               "has ",
                               replicas_, " replica(s) x ", partitions_, " partition(s)"));
        }
      }
    }
    std::vector<std::vector<size_t>> out;
    switch (mode) {
      case kCrossReplica:
        for (int64_t p = 0; p < partitions_; ++p) {
          for (const auto& group : groups) {
            out.emplace_back();
            for (int64_t r : group) out.back().push_back(IndexOf(r, p));
          }
        }
        break;
      case kCrossPartition:
        for (int64_t r = 0; r < replicas_; ++r) {
          for (const auto& group : groups) {
            out.emplace_back();
            for (int64_t p : group) out.back().push_back(IndexOf(r, p));
          }
        }
        break;
      case kCrossReplicaAndPartition:
        for (const auto& group : groups) {
          out.emplace_back();
          for (int64_t p = 0; p < partitions_; ++p) {
            for (int64_t r : group) out.back().push_back(IndexOf(r, p));
          }
        }
        break;
      case kFlattened:
        for (const auto& group : groups) {
          out.emplace_back();
          for (int64_t id : group) out.back().push_back(static_cast<size_t>(id));
        }
        break;
    }
    return out;
  }

  absl::StatusOr<Value> Zeros(const MlirType& type) {
    AOT_ASSIGN_OR_RETURN(Value zero, c_.ScalarConstant(type, ZeroLiteral(type.element), "zero"));
    return c_.BroadcastTo(zero, type, "zeros");
  }

  // Part `j` of `count` equal parts of `v` along `dim`.
  absl::StatusOr<Value> Part(const MlirOperation& op, const Value& v, int64_t dim, int64_t j,
                             int64_t count) {
    const auto& dims = v.type.dimensions;
    if (dim < 0 || dim >= static_cast<int64_t>(dims.size()) || dims[dim] % count != 0) {
      return c_.OpError(op, absl::StrCat("dimension ", dim, " of ", v.type.text,
                                         " does not split into ", count, " equal parts"));
    }
    const int64_t size = dims[dim] / count;
    std::vector<std::string> ranges;
    MlirType type = v.type;
    type.text = "";
    type.dimensions[dim] = size;
    for (size_t d = 0; d < dims.size(); ++d) {
      ranges.push_back(static_cast<int64_t>(d) == dim
                           ? absl::StrCat("[", j * size, ":", (j + 1) * size, "]")
                           : absl::StrCat("[0:", dims[d], "]"));
    }
    return c_.Emit(type, "part", "slice", {v},
                   absl::StrCat("slice={", absl::StrJoin(ranges, ", "), "}"));
  }

  absl::StatusOr<Value> Concatenate(const std::vector<Value>& parts, int64_t dim,
                                    const MlirType& type) {
    if (parts.size() == 1) return parts[0];
    return c_.Emit(type, "concat", "concatenate", parts, absl::StrCat("dimensions={", dim, "}"));
  }

  // all_reduce's body folded over the members' operands in group order.
  absl::StatusOr<Value> Fold(const MlirOperation& op, const std::vector<Value>& values) {
    if (op.regions.size() != 1) return c_.OpError(op, "missing the reduction body");
    const MlirType s = ScalarOf(values[0].type);
    AOT_ASSIGN_OR_RETURN(std::string body, c_.ConvertRegion(op.regions[0], "reduction", {s, s},
                                                            false, false, {}, {}, op));
    std::vector<int64_t> all(values[0].type.dimensions.size());
    for (size_t i = 0; i < all.size(); ++i) all[i] = static_cast<int64_t>(i);
    Value acc = values[0];
    for (size_t j = 1; j < values.size(); ++j) {
      AOT_ASSIGN_OR_RETURN(acc,
                           c_.Emit(values[0].type, "reduced", "map", {acc, values[j]},
                                   absl::StrCat("dimensions=", Braced(all), ", to_apply=%", body)));
    }
    return acc;
  }

  // values[root[k]]: the members' values stacked on a new leading
  // dimension, dynamic-sliced at the root operand's element k.
  absl::StatusOr<Value> SelectByRoot(const std::vector<Value>& values, const Value& root, size_t k,
                                     const MlirType& type) {
    MlirType one = type;
    one.text = "";
    one.dimensions.insert(one.dimensions.begin(), 1);
    MlirType stacked = one;
    stacked.dimensions[0] = static_cast<int64_t>(values.size());
    std::vector<Value> rows;
    for (const Value& v : values) {
      AOT_ASSIGN_OR_RETURN(Value r, c_.Emit(one, "row", "reshape", {v}));
      rows.push_back(std::move(r));
    }
    AOT_ASSIGN_OR_RETURN(Value all, Concatenate(rows, 0, stacked));
    MlirType index = ScalarOf(root.type);
    MlirType index1 = index;
    index1.dimensions = {1};
    AOT_ASSIGN_OR_RETURN(Value at1, c_.Emit(index1, "root", "slice", {root},
                                            absl::StrCat("slice={[", k, ":", k + 1, "]}")));
    AOT_ASSIGN_OR_RETURN(Value at, c_.Emit(index, "root", "reshape", {at1}));
    std::vector<Value> starts = {at};
    std::vector<std::string> sizes = {"1"};
    for (int64_t d : type.dimensions) {
      AOT_ASSIGN_OR_RETURN(Value zero, c_.ScalarConstant(index, "0", "zero"));
      starts.push_back(std::move(zero));
      sizes.push_back(absl::StrCat(d));
    }
    std::vector<Value> operands = {all};
    operands.insert(operands.end(), starts.begin(), starts.end());
    AOT_ASSIGN_OR_RETURN(Value picked, c_.Emit(one, "picked", "dynamic-slice", operands,
                                               absl::StrCat("dynamic_slice_sizes={",
                                                            absl::StrJoin(sizes, ","), "}")));
    return c_.Emit(type, "broadcast_value", "reshape", {picked});
  }

  absl::StatusOr<bool> TryResolve(size_t i) {
    Participant& me = ps_[i];
    const MlirOperation& op = At(me);
    c_.origin_ = absl::StrCat(c_.Where(op.loc), " (", op.name, ")");
    if (op.name == "stablehlo.recv") {
      AOT_ASSIGN_OR_RETURN(int64_t channel, Channel(op));
      auto& queue = channels_[channel];
      if (queue.empty()) return false;
      std::vector<Value> results = std::move(queue.front());
      queue.pop_front();
      AOT_ASSIGN_OR_RETURN(std::vector<Value> in, Operands(me, op));
      AOT_ASSIGN_OR_RETURN(Value token, TokenAfter(in));
      results.push_back(std::move(token));
      AOT_RETURN_IF_ERROR(Define(me, op, results));
      ++me.next;
      return true;
    }
    AOT_ASSIGN_OR_RETURN(std::vector<std::vector<size_t>> groups, ProcessGroups(op));
    const std::vector<size_t>* group = nullptr;
    for (const auto& g : groups) {
      if (std::find(g.begin(), g.end(), i) != g.end()) group = &g;
    }
    const bool broadcast = op.name == "stablehlo.collective_broadcast";
    std::vector<size_t> alone = {i};
    if (group == nullptr) {
      if (!broadcast) {
        return ErrorAt(me, op, "this participant is in none of the op's process groups");
      }
      group = &alone;  // not in any group: its result is zeros
    }
    for (size_t m : *group) {
      const Participant& p = ps_[m];
      if (p.done || At(p).name != op.name) return false;
    }
    // Every member is here: their operands, one list per member.
    std::vector<std::vector<Value>> in;
    for (size_t m : *group) {
      AOT_ASSIGN_OR_RETURN(std::vector<Value> v, Operands(ps_[m], At(ps_[m])));
      if (!in.empty() && v.size() != in[0].size()) {
        return ErrorAt(ps_[m], At(ps_[m]), "the members pass different numbers of operands");
      }
      in.push_back(std::move(v));
    }
    const size_t n = group->size();
    // collective_broadcast's has_dynamic_root: the last operand names, for
    // each data operand, the group member it comes from.
    const bool dynamic_root = broadcast && c_.BoolAttr(op, "has_dynamic_root", false);
    if (dynamic_root && in[0].empty()) {
      return ErrorAt(me, op, "has_dynamic_root needs the root operand last");
    }
    const size_t operands = in[0].size() - (dynamic_root ? 1 : 0);
    const std::vector<MlirType> types = c_.ResultTypes(op);
    if (types.size() != operands) {
      return ErrorAt(
          me, op,
          absl::StrCat("has ", operands, " operand(s) and ", types.size(), " result type(s)"));
    }
    std::vector<std::vector<Value>> out(n);
    for (size_t k = 0; k < operands; ++k) {
      std::vector<Value> column;
      for (size_t j = 0; j < n; ++j) column.push_back(in[j][k]);
      const MlirType& type = types[k];
      if (op.name == "stablehlo.all_reduce") {
        AOT_ASSIGN_OR_RETURN(Value v, Fold(op, column));
        for (size_t j = 0; j < n; ++j) out[j].push_back(v);
      } else if (op.name == "stablehlo.collective_reduce") {
        AOT_ASSIGN_OR_RETURN(Value v, Fold(op, column));
        AOT_ASSIGN_OR_RETURN(Value zeros, Zeros(type));
        for (size_t j = 0; j < n; ++j) out[j].push_back(j == 0 ? v : zeros);
      } else if (dynamic_root && group != &alone) {
        for (size_t j = 0; j < n; ++j) {
          AOT_ASSIGN_OR_RETURN(Value v, SelectByRoot(column, in[j].back(), k, type));
          out[j].push_back(std::move(v));
        }
      } else if (op.name == "stablehlo.all_gather") {
        AOT_ASSIGN_OR_RETURN(int64_t dim,
                             c_.IntAttr(op, {"all_gather_dim"}, "all_gather_dim", std::nullopt));
        AOT_ASSIGN_OR_RETURN(Value v, Concatenate(column, dim, type));
        for (size_t j = 0; j < n; ++j) out[j].push_back(v);
      } else if (op.name == "stablehlo.reduce_scatter") {
        AOT_ASSIGN_OR_RETURN(
            int64_t dim, c_.IntAttr(op, {"scatter_dimension"}, "scatter_dimension", std::nullopt));
        AOT_ASSIGN_OR_RETURN(Value sum, Fold(op, column));
        for (size_t j = 0; j < n; ++j) {
          AOT_ASSIGN_OR_RETURN(Value v, Part(op, sum, dim, j, n));
          out[j].push_back(v);
        }
      } else if (op.name == "stablehlo.all_to_all") {
        AOT_ASSIGN_OR_RETURN(int64_t split,
                             c_.IntAttr(op, {"split_dimension"}, "split_dimension", std::nullopt));
        AOT_ASSIGN_OR_RETURN(
            int64_t concat, c_.IntAttr(op, {"concat_dimension"}, "concat_dimension", std::nullopt));
        for (size_t j = 0; j < n; ++j) {
          std::vector<Value> parts;
          for (size_t s = 0; s < n; ++s) {
            AOT_ASSIGN_OR_RETURN(Value v, Part(op, column[s], split, j, n));
            parts.push_back(std::move(v));
          }
          AOT_ASSIGN_OR_RETURN(Value v, Concatenate(parts, concat, type));
          out[j].push_back(v);
        }
      } else if (op.name == "stablehlo.collective_permute") {
        AOT_ASSIGN_OR_RETURN(std::vector<std::vector<int64_t>> pairs,
                             Groups(op, "source_target_pairs"));
        for (size_t j = 0; j < n; ++j) {
          std::optional<Value> from;
          for (const auto& pair : pairs) {
            if (pair.size() != 2) return c_.OpError(op, "source_target_pairs must be Nx2");
            if (pair[1] == static_cast<int64_t>(j) && pair[0] < static_cast<int64_t>(n)) {
              from = column[pair[0]];
            }
          }
          if (!from) {
            AOT_ASSIGN_OR_RETURN(from, Zeros(type));
          }
          out[j].push_back(*from);
        }
      } else {  // collective_broadcast
        Value v = column[0];
        if (group == &alone) {
          AOT_ASSIGN_OR_RETURN(v, Zeros(type));
        }
        for (size_t j = 0; j < n; ++j) out[j].push_back(v);
      }
    }
    for (size_t j = 0; j < n; ++j) {
      Participant& p = ps_[(*group)[j]];
      AOT_RETURN_IF_ERROR(Define(p, At(p), out[j]));
      ++p.next;
    }
    return true;
  }

  Converter& c_;
  const MlirOperation& op_;
  int64_t replicas_ = 0;
  int64_t partitions_ = 0;
  std::vector<Participant> ps_;
  std::map<int64_t, std::deque<std::vector<Value>>> channels_;
  std::vector<const MlirFunction*> infeed_;
  size_t next_infeed_ = 0;
};

absl::Status Converter::ConvertInterpreterOp(const MlirOperation& op, const std::vector<Value>& in,
                                             absl::string_view name, std::vector<Value>* results) {
  if (name == "run_parallel") return ParallelRunner(*this, op).Run(in, results);
  return OpError(op, "not supported: of the interpreter's test dialect only run_parallel is");
}

}  // namespace convert_internal
}  // namespace aot::stablehlo
