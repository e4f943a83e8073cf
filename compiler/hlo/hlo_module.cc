#include "compiler/hlo/hlo_module.h"

#include <functional>

#include "absl/container/flat_hash_map.h"
#include "absl/container/flat_hash_set.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "compiler/hlo/collective_ops.h"
#include "compiler/hlo/hlo_parser.h"
#include "support/status_macros.h"

namespace aot {

std::string ProgramShape::ToString() const {
  std::vector<std::string> params;
  for (const Shape& s : parameters) params.push_back(s.ToString());
  return absl::StrCat("(", absl::StrJoin(params, ", "), ")->", result.ToString());
}

ProgramShapeProto ProgramShape::ToProto() const {
  ProgramShapeProto p;
  for (const Shape& s : parameters) *p.add_parameters() = s.ToProto();
  for (const std::string& n : parameter_names) p.add_parameter_names(n);
  *p.mutable_result() = result.ToProto();
  return p;
}

HloComputation* HloModule::AddComputation(std::unique_ptr<HloComputation> computation,
                                          bool is_entry) {
  HloComputation* raw = computation.get();
  raw->set_parent(this);
  computations_.push_back(std::move(computation));
  if (is_entry) entry_ = raw;
  return raw;
}

namespace {

// Computations in call-graph post order from the entry (callees first);
// computations not reachable from the entry come first, in insertion order.
std::vector<HloComputation*> PostOrder(const std::vector<std::unique_ptr<HloComputation>>& all,
                                       HloComputation* entry) {
  std::vector<HloComputation*> order;
  absl::flat_hash_set<HloComputation*> visited;
  std::function<void(HloComputation*)> visit = [&](HloComputation* c) {
    if (!visited.insert(c).second) return;
    for (HloInstruction* i : c->instructions()) {
      for (HloComputation* callee : i->called_computations()) {
        if (callee != nullptr) visit(callee);
      }
    }
    order.push_back(c);
  };
  std::vector<HloComputation*> reachable_order;
  if (entry != nullptr) {
    visit(entry);
    reachable_order = order;
    order.clear();
  }
  for (const auto& c : all) {
    if (!visited.contains(c.get())) visit(c.get());
  }
  order.insert(order.end(), reachable_order.begin(), reachable_order.end());
  return order;
}

}  // namespace

std::vector<HloComputation*> HloModule::computations() const {
  return PostOrder(computations_, entry_);
}

HloComputation* HloModule::FindComputation(absl::string_view name) const {
  for (const auto& c : computations_) {
    if (c->name() == name) return c.get();
  }
  return nullptr;
}

void HloModule::RemoveUnreachableComputations() {
  absl::flat_hash_set<HloComputation*> reachable;
  std::function<void(HloComputation*)> visit = [&](HloComputation* c) {
    if (!reachable.insert(c).second) return;
    for (HloInstruction* i : c->instructions()) {
      for (HloComputation* callee : i->called_computations()) {
        if (callee != nullptr) visit(callee);
      }
    }
  };
  if (entry_ != nullptr) visit(entry_);
  computations_.erase(std::remove_if(computations_.begin(), computations_.end(),
                                     [&](const auto& c) { return !reachable.contains(c.get()); }),
                      computations_.end());
}

ProgramShape HloModule::EntryProgramShape() const {
  ProgramShape ps;
  if (entry_ == nullptr) return ps;
  for (const HloInstruction* p : entry_->parameter_instructions()) {
    if (p == nullptr) continue;
    ps.parameters.push_back(p->shape());
    ps.parameter_names.push_back(p->name());
  }
  if (entry_->root_instruction() != nullptr) {
    ps.result = entry_->root_instruction()->shape();
  }
  return ps;
}

void HloModule::Renumber() {
  int64_t id = 1;
  for (HloComputation* c : computations()) {
    c->set_unique_id(id++);
    for (HloInstruction* i : c->instructions()) i->set_unique_id(id++);
  }
  next_unique_id_ = id;
}

std::string HloModule::ToString() const {
  std::string out = absl::StrCat("HloModule ", name_);
  ProgramShape layout = config_.entry_computation_layout.value_or(EntryProgramShape());
  absl::StrAppend(&out, ", entry_computation_layout={", layout.ToString(), "}");
  if (config_.replica_count != 1) {
    absl::StrAppend(&out, ", replica_count=", config_.replica_count);
  }
  if (config_.num_partitions != 1) {
    absl::StrAppend(&out, ", num_partitions=", config_.num_partitions);
  }
  if (!config_.input_output_aliases.empty()) {
    absl::StrAppend(&out, ", input_output_alias={ ",
                    absl::StrJoin(config_.input_output_aliases, ", ",
                                  [](std::string* o, const HloInputOutputAlias& a) {
                                    absl::StrAppend(o, a.ToString());
                                  }),
                    " }");
  }
  absl::StrAppend(&out, "\n");
  for (const HloComputation* c : computations()) {
    absl::StrAppend(&out, "\n", c == entry_ ? "ENTRY " : "", c->ToString());
  }
  return out;
}

HloModuleProto HloModule::ToProto() const {
  HloModuleProto p;
  p.set_name(name_);
  for (const HloComputation* c : computations()) *p.add_computations() = c->ToProto();
  if (entry_ != nullptr) {
    p.set_entry_computation_name(entry_->name());
    p.set_entry_computation_id(entry_->unique_id());
  }
  *p.mutable_host_program_shape() = EntryProgramShape().ToProto();
  for (const HloInputOutputAlias& a : config_.input_output_aliases) {
    HloInputOutputAliasProto* ap = p.add_input_output_alias();
    for (int64_t i : a.output_index) ap->add_output_shape_index(i);
    ap->set_parameter_number(a.parameter_number);
    for (int64_t i : a.parameter_index) ap->add_parameter_shape_index(i);
    ap->set_must_alias(a.must_alias);
  }
  return p;
}

std::string HloInputOutputAlias::ToString() const {
  return absl::StrCat("{", absl::StrJoin(output_index, ","), "}: (", parameter_number, ", {",
                      absl::StrJoin(parameter_index, ","), "}, ",
                      must_alias ? "must-alias" : "may-alias", ")");
}

HloModuleConfigProto HloModule::ConfigToProto() const {
  HloModuleConfigProto p;
  *p.mutable_entry_computation_layout() =
      config_.entry_computation_layout.value_or(EntryProgramShape()).ToProto();
  p.set_replica_count(config_.replica_count);
  p.set_num_partitions(config_.num_partitions);
  p.set_seed(config_.seed);
  return p;
}

std::unique_ptr<HloModule> HloModule::Clone() const {
  // Through the proto form, which keeps names, ids and every attribute
  // (corpus_parse_test checks text -> proto -> text is the identity) and
  // keeps constants binary: printing and re-parsing a module with an
  // 8.4M-element constant took most of a minute.
  HloModuleConfigProto config = ConfigToProto();
  auto parsed = HloModuleFromProto(ToProto(), &config);
  if (!parsed.ok()) return nullptr;
  std::unique_ptr<HloModule> clone = *std::move(parsed);
  clone->next_unique_id_ = next_unique_id_;
  // Clones were printed and parsed again before, and compiled artifacts
  // embed them: keep that form. A constant's literal has the layouts of
  // its instruction's printed shape, and the entry layout is the header's
  // (every array shape with an explicit layout).
  for (HloComputation* c : clone->computations()) {
    for (HloInstruction* i : c->instructions()) {
      if (!i->mutable_attrs()->literal.has_value()) continue;
      auto printed = ParseShape(i->shape().ToString());
      if (!printed.ok()) return nullptr;
      i->mutable_attrs()->literal->SetLayoutsFrom(*printed);
    }
  }
  if (!config_.entry_computation_layout) {
    ProgramShape layout = EntryProgramShape();
    layout.parameter_names.clear();
    for (Shape& shape : layout.parameters) {
      auto explicit_shape = ParseShape(shape.ToString());
      if (!explicit_shape.ok()) return nullptr;
      shape = *std::move(explicit_shape);
    }
    auto result = ParseShape(layout.result.ToString());
    if (!result.ok()) return nullptr;
    layout.result = *std::move(result);
    clone->mutable_config()->entry_computation_layout = std::move(layout);
  }
  return clone;
}

namespace {

absl::Status ProtoError(const HloComputationProto& c, const HloInstructionProto* i,
                        absl::string_view what) {
  if (i == nullptr) {
    return absl::InvalidArgumentError(absl::StrCat("computation '", c.name(), "': ", what));
  }
  return absl::InvalidArgumentError(absl::StrCat("computation '", c.name(), "', instruction '",
                                                 i->name(), "' (", i->opcode(), "): ", what));
}

}  // namespace

absl::StatusOr<std::unique_ptr<HloModule>> HloModuleFromProto(const HloModuleProto& proto,
                                                              const HloModuleConfigProto* config) {
  auto module = std::make_unique<HloModule>(proto.name());
  absl::flat_hash_map<int64_t, HloComputation*> computations_by_id;
  struct PendingCalls {
    HloInstruction* instruction;
    const HloInstructionProto* proto;
    const HloComputationProto* computation;
  };
  std::vector<PendingCalls> pending;
  int64_t max_id = 0;
  for (const HloComputationProto& cp : proto.computations()) {
    auto computation = std::make_unique<HloComputation>(cp.name());
    computation->set_unique_id(cp.id());
    computation->set_is_fusion_computation(cp.is_fusion_computation());
    max_id = std::max(max_id, cp.id());
    absl::flat_hash_map<int64_t, HloInstruction*> by_id;
    for (const HloInstructionProto& ip : cp.instructions()) {
      auto opcode = StringToHloOpcode(ip.opcode());
      AOT_RETURN_IF_ERROR_AND(opcode, ProtoError(cp, &ip, _.message()));
      auto shape = Shape::FromProto(ip.shape());
      AOT_RETURN_IF_ERROR_AND(shape, ProtoError(cp, &ip, _.message()));
      std::vector<HloInstruction*> operands;
      for (int64_t id : ip.operand_ids()) {
        auto it = by_id.find(id);
        if (it == by_id.end()) {
          return ProtoError(cp, &ip, absl::StrCat("operand id ", id, " is not defined before use"));
        }
        operands.push_back(it->second);
      }
      auto instr = HloInstruction::Create(*opcode, *std::move(shape), operands);
      instr->set_name(ip.name());
      instr->set_unique_id(ip.id());
      max_id = std::max(max_id, ip.id());
      HloAttributes& at = *instr->mutable_attrs();
      if (ip.has_literal()) {
        auto literal = Literal::FromProto(ip.literal());
        AOT_RETURN_IF_ERROR_AND(literal, ProtoError(cp, &ip, _.message()));
        at.literal = *std::move(literal);
      }
      at.parameter_number = *opcode == HloOpcode::kParameter ? ip.parameter_number() : -1;
      at.tuple_index = *opcode == HloOpcode::kGetTupleElement ? ip.tuple_index() : -1;
      at.dimensions.assign(ip.dimensions().begin(), ip.dimensions().end());
      for (const auto& sd : ip.slice_dimensions()) {
        at.slice.push_back({sd.start(), sd.limit(), sd.stride()});
      }
      at.dynamic_slice_sizes.assign(ip.dynamic_slice_sizes().begin(),
                                    ip.dynamic_slice_sizes().end());
      if (ip.has_padding_config()) at.padding_config = ip.padding_config();
      if (ip.has_window()) at.window = ip.window();
      if (ip.has_dot_dimension_numbers()) at.dot_dimension_numbers = ip.dot_dimension_numbers();
      if (ip.has_convolution_dimension_numbers()) {
        at.convolution_dimension_numbers = ip.convolution_dimension_numbers();
      }
      if (*opcode == HloOpcode::kConvolution) {
        at.feature_group_count = ip.feature_group_count();
        at.batch_group_count = ip.batch_group_count();
      } else if (*opcode == HloOpcode::kCustomCall) {
        // Unset (0) on a custom call means 1.
        if (ip.feature_group_count() > 0) at.feature_group_count = ip.feature_group_count();
        if (ip.batch_group_count() > 0) at.batch_group_count = ip.batch_group_count();
      }
      if (ip.has_gather_dimension_numbers()) {
        at.gather_dimension_numbers = ip.gather_dimension_numbers();
      }
      at.gather_slice_sizes.assign(ip.gather_slice_sizes().begin(), ip.gather_slice_sizes().end());
      if (ip.has_scatter_dimension_numbers()) {
        at.scatter_dimension_numbers = ip.scatter_dimension_numbers();
      }
      at.indices_are_sorted = ip.indices_are_sorted();
      at.unique_indices = ip.unique_indices();
      if (!ip.comparison_direction().empty()) {
        auto d = ParseComparisonDirection(ip.comparison_direction());
        AOT_RETURN_IF_ERROR_AND(d, ProtoError(cp, &ip, _.message()));
        at.comparison_direction = *d;
      }
      at.comparison_type = ip.comparison_type();
      at.custom_call_target = ip.custom_call_target();
      at.backend_config = ip.backend_config();
      at.custom_call_api_version = ip.custom_call_api_version();
      at.exponent_bits = ip.exponent_bits();
      at.mantissa_bits = ip.mantissa_bits();
      at.is_stable = ip.is_stable();
      at.fusion_kind = ip.fusion_kind();
      at.operand_precision.assign(ip.operand_precision().begin(), ip.operand_precision().end());
      if (ip.has_metadata()) at.metadata = ip.metadata();
      for (const auto& kv : ip.frontend_attributes()) {
        at.frontend_attributes.emplace_back(kv.name(), kv.value());
      }
      at.sharding = ip.sharding();
      for (const auto& kv : ip.unknown_attributes()) {
        at.unknown_attributes.emplace_back(kv.name(), kv.value());
      }
      for (const ReplicaGroupProto& g : ip.replica_groups()) {
        at.replica_groups.emplace_back(g.replica_ids().begin(), g.replica_ids().end());
      }
      if (ip.has_iota_replica_group_list()) {
        const IotaReplicaGroupListProto& iota = ip.iota_replica_group_list();
        IotaReplicaGroupList list;
        list.num_groups = iota.num_groups();
        list.group_size = iota.group_size();
        list.reshape_dims.assign(iota.reshape_dims().begin(), iota.reshape_dims().end());
        list.transpose_perm.assign(iota.transpose_perm().begin(), iota.transpose_perm().end());
        if (at.replica_groups.empty()) {
          auto groups = ExpandIotaReplicaGroupList(list);
          AOT_RETURN_IF_ERROR_AND(groups, ProtoError(cp, &ip, _.message()));
          at.replica_groups = *std::move(groups);
        }
        at.iota_replica_groups = std::move(list);
      }
      if (ip.channel_id() != 0) at.channel_id = ip.channel_id();
      at.use_global_device_ids = ip.use_global_device_ids();
      for (const SourceTargetPairProto& pair : ip.source_target_pairs()) {
        at.source_target_pairs.emplace_back(pair.source(), pair.target());
      }
      at.constrain_layout = ip.constrain_layout();
      if (*opcode == HloOpcode::kParameter &&
          (at.parameter_number < 0 || at.parameter_number > 100000)) {
        return ProtoError(cp, &ip,
                          absl::StrCat("parameter number ", at.parameter_number, " out of range"));
      }
      HloInstruction* raw = computation->AddInstruction(std::move(instr));
      if (!by_id.emplace(ip.id(), raw).second) {
        return ProtoError(cp, &ip, absl::StrCat("duplicate instruction id ", ip.id()));
      }
      if (ip.called_computation_ids_size() > 0) pending.push_back({raw, &ip, &cp});
    }
    auto root = by_id.find(cp.root_id());
    if (root == by_id.end()) {
      return ProtoError(cp, nullptr, absl::StrCat("root id ", cp.root_id(), " not found"));
    }
    computation->set_root_instruction(root->second);
    bool is_entry = cp.id() == proto.entry_computation_id();
    HloComputation* raw = module->AddComputation(std::move(computation), is_entry);
    if (!computations_by_id.emplace(cp.id(), raw).second) {
      return ProtoError(cp, nullptr, absl::StrCat("duplicate computation id ", cp.id()));
    }
  }
  for (const PendingCalls& p : pending) {
    for (int64_t id : p.proto->called_computation_ids()) {
      auto it = computations_by_id.find(id);
      if (it == computations_by_id.end()) {
        return ProtoError(*p.computation, p.proto,
                          absl::StrCat("called computation id ", id, " not found"));
      }
      p.instruction->mutable_called_computations()->push_back(it->second);
    }
  }
  if (module->entry_computation() == nullptr) {
    return absl::InvalidArgumentError(absl::StrCat("module '", proto.name(),
                                                   "': entry computation id ",
                                                   proto.entry_computation_id(), " not found"));
  }
  if (config != nullptr) {
    HloModuleConfig& c = *module->mutable_config();
    c.replica_count = config->replica_count() == 0 ? 1 : config->replica_count();
    c.num_partitions = config->num_partitions() == 0 ? 1 : config->num_partitions();
    c.seed = config->seed();
    if (config->has_entry_computation_layout()) {
      ProgramShape ps;
      for (const ShapeProto& s : config->entry_computation_layout().parameters()) {
        AOT_ASSIGN_OR_RETURN(auto shape, Shape::FromProto(s));
        ps.parameters.push_back(std::move(shape));
      }
      AOT_ASSIGN_OR_RETURN(auto result,
                           Shape::FromProto(config->entry_computation_layout().result()));
      ps.result = std::move(result);
      c.entry_computation_layout = std::move(ps);
    }
  }
  for (const HloInputOutputAliasProto& ap : proto.input_output_alias()) {
    HloInputOutputAlias a;
    a.output_index.assign(ap.output_shape_index().begin(), ap.output_shape_index().end());
    a.parameter_number = ap.parameter_number();
    a.parameter_index.assign(ap.parameter_shape_index().begin(), ap.parameter_shape_index().end());
    a.must_alias = ap.must_alias();
    module->mutable_config()->input_output_aliases.push_back(std::move(a));
  }
  // Keep new ids above every id in the proto.
  module->ReserveUniqueIdsUpTo(max_id);
  return module;
}

}  // namespace aot
