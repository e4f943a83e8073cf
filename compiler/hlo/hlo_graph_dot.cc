#include "compiler/hlo/hlo_graph_dot.h"

#include <deque>
#include <map>
#include <set>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_replace.h"
#include "compiler/hlo/hlo_computation.h"
#include "compiler/hlo/hlo_instruction.h"
#include "compiler/hlo/hlo_opcode.h"

namespace aot {
namespace {

// A DOT string literal's contents: quotes and backslashes escaped, a newline
// as DOT's centred line break.
std::string Quoted(absl::string_view text) {
  return absl::StrCat(
      "\"", absl::StrReplaceAll(text, {{"\\", "\\\\"}, {"\"", "\\\""}, {"\n", "\\n"}}), "\"");
}

std::string NodeId(const HloComputation& c, const HloInstruction& i) {
  return Quoted(absl::StrCat(c.name(), "/", i.name()));
}

std::string ClusterId(const HloComputation& c) {
  return Quoted(absl::StrCat("cluster_", c.name()));
}

// Colours as XLA's graph dumps group them: parameters and constants,
// fusions, library and custom calls, control flow, collectives, the rest.
const char* FillColor(HloOpcode op) {
  switch (op) {
    case HloOpcode::kParameter:
      return "#fff3c4";
    case HloOpcode::kConstant:
    case HloOpcode::kIota:
      return "#eeeeee";
    case HloOpcode::kFusion:
      return "#d7e9f7";
    case HloOpcode::kCustomCall:
    case HloOpcode::kDot:
    case HloOpcode::kConvolution:
      return "#e6d7f7";
    case HloOpcode::kWhile:
    case HloOpcode::kConditional:
    case HloOpcode::kCall:
      return "#d8f0d8";
    case HloOpcode::kAllReduce:
    case HloOpcode::kAllGather:
    case HloOpcode::kAllToAll:
    case HloOpcode::kReduceScatter:
    case HloOpcode::kCollectivePermute:
      return "#f7d7d7";
    default:
      return "#ffffff";
  }
}

}  // namespace

absl::StatusOr<std::string> HloModuleToDot(const HloModule& module,
                                           const DotGraphOptions& options) {
  if (options.radius < 0) {
    return absl::InvalidArgumentError(
        absl::StrCat("--radius=", options.radius, ": need a non-negative edge count"));
  }
  std::vector<const HloComputation*> computations;
  for (const HloComputation* c : module.computations()) {
    if (options.computation.empty() || c->name() == options.computation) computations.push_back(c);
  }
  if (computations.empty()) {
    return absl::NotFoundError(
        absl::StrCat("module ", module.name(), " has no computation '", options.computation, "'"));
  }
  // The instructions drawn: all of the chosen computations', or the
  // neighbourhood of options.node (breadth-first over operands and users).
  std::set<const HloInstruction*> shown;
  if (!options.node.empty()) {
    const HloInstruction* center = nullptr;
    for (const HloComputation* c : computations) {
      for (const HloInstruction* i : c->instructions()) {
        if (i->name() == options.node) center = i;
      }
    }
    if (center == nullptr) {
      return absl::NotFoundError(
          absl::StrCat("module ", module.name(), " has no instruction '", options.node, "'",
                       options.computation.empty()
                           ? std::string()
                           : absl::StrCat(" in computation '", options.computation, "'")));
    }
    std::map<const HloInstruction*, std::vector<const HloInstruction*>> users;
    for (const HloComputation* c : computations) {
      for (const HloInstruction* i : c->instructions()) {
        for (const HloInstruction* o : i->operands()) users[o].push_back(i);
      }
    }
    std::deque<std::pair<const HloInstruction*, int64_t>> queue = {{center, 0}};
    shown.insert(center);
    while (!queue.empty()) {
      auto [i, d] = queue.front();
      queue.pop_front();
      if (d == options.radius) continue;
      std::vector<const HloInstruction*> next(i->operands().begin(), i->operands().end());
      for (const HloInstruction* u : users[i]) next.push_back(u);
      for (const HloInstruction* n : next) {
        if (shown.insert(n).second) queue.push_back({n, d + 1});
      }
    }
  }
  auto drawn = [&](const HloInstruction* i) { return options.node.empty() || shown.contains(i); };

  std::string out = absl::StrCat("digraph ", Quoted(module.name()), " {\n");
  absl::StrAppend(&out, "  compound=true;\n  rankdir=TB;\n",
                  "  node [shape=box, style=\"rounded,filled\", fontname=\"monospace\", "
                  "fontsize=10];\n");
  std::set<const HloComputation*> drawn_computations;
  for (const HloComputation* c : computations) {
    std::string body;
    for (const HloInstruction* i : c->instructions()) {
      if (!drawn(i)) continue;
      std::string tooltip = i->shape().ToString();
      if (!i->attrs().sharding.empty()) {
        absl::StrAppend(&tooltip, "\nsharding=", i->attrs().sharding);
      }
      const bool root = c->root_instruction() == i;
      absl::StrAppend(&body, "    ", NodeId(*c, *i), " [label=",
                      Quoted(absl::StrCat(i->name(), "\n", HloOpcodeString(i->opcode()), "\n",
                                          i->shape().ToString(false))),
                      ", tooltip=", Quoted(tooltip), ", fillcolor=\"", FillColor(i->opcode()), "\"",
                      root ? ", penwidth=2" : "", "];\n");
    }
    if (body.empty()) continue;
    drawn_computations.insert(c);
    absl::StrAppend(&out, "  subgraph ", ClusterId(*c), " {\n    label=", Quoted(c->name()),
                    ";\n    style=rounded;\n", body, "  }\n");
  }
  for (const HloComputation* c : computations) {
    for (const HloInstruction* i : c->instructions()) {
      if (!drawn(i)) continue;
      for (const HloInstruction* o : i->operands()) {
        if (drawn(o)) absl::StrAppend(&out, "  ", NodeId(*c, *o), " -> ", NodeId(*c, *i), ";\n");
      }
      for (const HloComputation* called : i->called_computations()) {
        if (!drawn_computations.contains(called) || called->root_instruction() == nullptr) {
          continue;
        }
        absl::StrAppend(&out, "  ", NodeId(*c, *i), " -> ",
                        NodeId(*called, *called->root_instruction()),
                        " [style=dashed, arrowhead=none, lhead=", ClusterId(*called), "];\n");
      }
    }
  }
  absl::StrAppend(&out, "}\n");
  return out;
}

}  // namespace aot
