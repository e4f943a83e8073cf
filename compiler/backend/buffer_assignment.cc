#include "compiler/backend/buffer_assignment.h"

#include <algorithm>
#include <limits>
#include <optional>
#include <set>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "compiler/codegen/kernel_emitter.h"
#include "compiler/hlo/hlo_opcode.h"
#include "support/status_macros.h"

namespace aot {

namespace {

constexpr int64_t kAlignment = 64;
constexpr int64_t kLiveForever = std::numeric_limits<int64_t>::max() / 2;

int64_t RoundUp(int64_t v) { return (v + kAlignment - 1) / kAlignment * kAlignment; }

}  // namespace

int64_t LeafCount(const Shape& shape) {
  if (!shape.IsTuple()) return 1;
  int64_t n = 0;
  for (const Shape& s : shape.tuple_shapes()) n += LeafCount(s);
  return n;
}

int64_t LeafOrdinal(const Shape& shape, const ShapeIndex& index) {
  int64_t ordinal = 0;
  const Shape* s = &shape;
  for (int64_t i : index) {
    for (int64_t j = 0; j < i; ++j) ordinal += LeafCount(s->tuple_shapes(j));
    s = &s->tuple_shapes(i);
  }
  return ordinal;
}

class BufferAssigner {
 public:
  explicit BufferAssigner(BufferAssignment* result) : r_(*result) {}

  absl::Status Run(const HloModule& module) {
    entry_ = module.entry_computation();
    module_ = &module;
    if (entry_ == nullptr) return absl::InvalidArgumentError("module has no entry computation");
    // Entry parameters first: one allocation per array leaf, numbered
    // depth-first across the parameters (a tuple-typed parameter is passed
    // as its leaves, in the order of its shape; numbers equal the HLO
    // parameter numbers when no parameter is a tuple).
    int64_t flat_number = 0;
    BufferAllocationProto parameter;
    parameter.set_kind(BufferAllocationProto::PARAMETER);
    for (const HloInstruction* p : entry_->parameter_instructions()) {
      std::vector<int64_t> indices = DefineLeavesInOwnAllocations(p, 0, parameter);
      for (size_t leaf = 0; leaf < indices.size(); ++leaf) {
        r_.allocations_[indices[leaf]].set_parameter_number(flat_number++);
        parameter_leaf_buffer_.push_back(BufferOf(p, static_cast<int64_t>(leaf)));
      }
    }
    AOT_RETURN_IF_ERROR(Visit(*entry_, -1));
    return Finish();
  }

 private:
  void Bind(const HloInstruction* instr, int64_t leaf, int id) {
    r_.value_buffer_[{instr, leaf}] = id;
  }
  int BufferOf(const HloInstruction* instr, int64_t leaf) const {
    auto it = r_.value_buffer_.find({instr, leaf});
    return it == r_.value_buffer_.end() ? -1 : it->second;
  }
  void Use(const HloInstruction* instr, int64_t position) {
    for (int64_t leaf = 0; leaf < LeafCount(instr->shape()); ++leaf) {
      int id = BufferOf(instr, leaf);
      if (id < 0) continue;
      r_.buffers_[id].last_use = std::max(r_.buffers_[id].last_use, position);
      r_.buffers_[id].last_read = std::max(r_.buffers_[id].last_read, position);
    }
  }
  void DefineLeaves(const HloInstruction* instr, int64_t position) {
    std::vector<Shape> leaves = instr->shape().FlattenLeaves();
    for (size_t leaf = 0; leaf < leaves.size(); ++leaf) {
      int id = r_.NewBuffer(
          leaves.size() == 1 ? instr->name() : absl::StrCat(instr->name(), "{", leaf, "}"),
          leaves[leaf].ByteSize(), position);
      r_.buffers_[id].definer = instr;
      Bind(instr, static_cast<int64_t>(leaf), id);
    }
    r_.defines_[instr] = true;
  }
  // Defines `instr`'s leaves as buffers live for the whole run, each in an
  // allocation of its own (`kind` with index and size filled in). Returns
  // the allocation indices, leaf by leaf.
  std::vector<int64_t> DefineLeavesInOwnAllocations(const HloInstruction* instr, int64_t position,
                                                    const BufferAllocationProto& kind) {
    DefineLeaves(instr, position);
    std::vector<int64_t> indices;
    for (int64_t leaf = 0; leaf < LeafCount(instr->shape()); ++leaf) {
      int id = BufferOf(instr, leaf);
      BufferAllocationProto a = kind;
      a.set_index(static_cast<int64_t>(r_.allocations_.size()));
      a.set_size(r_.buffers_[id].size);
      r_.buffers_[id].allocation = a.index();
      r_.buffers_[id].last_use = kLiveForever;
      r_.allocations_.push_back(a);
      indices.push_back(a.index());
    }
    return indices;
  }
  void AliasLeaves(const HloInstruction* instr, const HloInstruction* source, int64_t first_leaf) {
    for (int64_t leaf = 0; leaf < LeafCount(instr->shape()); ++leaf) {
      Bind(instr, leaf, BufferOf(source, first_leaf + leaf));
    }
    r_.defines_[instr] = false;
  }

  // Whether dynamic-update-slice `dus` may write its update into its
  // operand's buffer, which then holds its result (XLA's in-place DUS): the
  // operand is a buffer of its own, read by nothing after `dus` (every other
  // user runs earlier in `order` and does not alias it), and not an entry
  // parameter or constant: a value a kernel defined, or the state leaf a
  // while body's parameter holds (a loop's state is the loop's own buffer).
  bool UpdatesInPlace(const HloInstruction* dus, const HloComputation& computation,
                      const std::map<const HloInstruction*, size_t>& order) {
    if (dus->opcode() != HloOpcode::kDynamicUpdateSlice || !dus->shape().IsArray()) return false;
    const HloInstruction* op = dus->operand(0);
    for (int64_t i = 1; i < dus->operand_count(); ++i) {
      if (dus->operand(i) == op) return false;
    }
    const size_t at = order.at(dus);
    auto read_before = [&](const HloInstruction* value, const HloInstruction* except) {
      for (const HloInstruction* user : value->users()) {
        if (user == dus || user == except) continue;
        auto it = order.find(user);
        if (it == order.end() || it->second >= at || user->opcode() == HloOpcode::kBitcast ||
            user->opcode() == HloOpcode::kReshape || user->opcode() == HloOpcode::kTuple) {
          return false;
        }
      }
      return true;
    };
    if (!read_before(op, nullptr)) return false;
    if (op->opcode() == HloOpcode::kGetTupleElement) {
      // The state leaf of a while body's parameter: no other use of the
      // parameter reaches the same leaf.
      const HloInstruction* param = op->operand(0);
      auto source = param_sources_.find(param);
      if (param->opcode() != HloOpcode::kParameter || source == param_sources_.end() ||
          source->second.first->opcode() != HloOpcode::kWhile ||
          source->second.first->while_body() != &computation) {
        return false;
      }
      for (const HloInstruction* user : param->users()) {
        if (user == op) continue;
        if (user->opcode() != HloOpcode::kGetTupleElement) return false;
        if (user->tuple_index() == op->tuple_index() && !read_before(user, op)) return false;
      }
      return true;
    }
    auto defines = r_.defines_.find(op);
    if (defines == r_.defines_.end() || !defines->second || op->opcode() == HloOpcode::kConstant ||
        op->opcode() == HloOpcode::kParameter) {
      return false;
    }
    const int id = BufferOf(op, 0);
    return id >= 0 && r_.buffers_[id].allocation < 0;
  }

  // `base`: -1 for the entry (positions advance), else the position of the
  // instruction that runs this nested computation.
  absl::Status Visit(const HloComputation& computation, int64_t base) {
    const std::vector<HloInstruction*> sequence = computation.MakeInstructionPostOrder();
    std::map<const HloInstruction*, size_t> order;
    for (const HloInstruction* instr : sequence) order.emplace(instr, order.size());
    for (const HloInstruction* instr : sequence) {
      int64_t p = base >= 0 ? base : ++position_;
      for (const HloInstruction* op : instr->operands()) Use(op, p);
      switch (instr->opcode()) {
        case HloOpcode::kParameter:
          if (&computation == entry_) break;  // bound up front
          if (auto it = param_sources_.find(instr); it != param_sources_.end()) {
            AliasLeaves(instr, it->second.first, it->second.second);
            break;
          }
          return UnimplementedInstruction(*instr,
                                          "parameter of a computation that is not sequenced");
        case HloOpcode::kConstant: {
          // One CONSTANT allocation per array leaf (a tuple constant's
          // elements are separate constants).
          BufferAllocationProto constant;
          constant.set_kind(BufferAllocationProto::CONSTANT);
          constant.set_alignment(kAlignment);
          std::vector<int64_t> indices = DefineLeavesInOwnAllocations(instr, p, constant);
          for (size_t leaf = 0; leaf < indices.size(); ++leaf) {
            r_.constants_[indices[leaf]] = {instr, static_cast<int64_t>(leaf)};
          }
          break;
        }
        case HloOpcode::kGetTupleElement: {
          const Shape& tuple = instr->operand(0)->shape();
          AliasLeaves(instr, instr->operand(0), LeafOrdinal(tuple, {instr->tuple_index()}));
          break;
        }
        case HloOpcode::kTuple: {
          int64_t leaf = 0;
          for (const HloInstruction* op : instr->operands()) {
            for (int64_t l = 0; l < LeafCount(op->shape()); ++l) {
              Bind(instr, leaf++, BufferOf(op, l));
            }
          }
          r_.defines_[instr] = false;
          break;
        }
        case HloOpcode::kBitcast:
        case HloOpcode::kReshape:
          if (instr->shape().IsArray() && instr->operand(0)->shape().IsArray() &&
              instr->shape().HasDefaultLayout() && instr->operand(0)->shape().HasDefaultLayout() &&
              instr->shape().element_type() == instr->operand(0)->shape().element_type()) {
            AliasLeaves(instr, instr->operand(0), 0);
          } else {
            DefineLeaves(instr, p);
          }
          break;
        case HloOpcode::kWhile: {
          DefineLeaves(instr, p);
          const HloComputation* cond = instr->while_condition();
          const HloComputation* body = instr->while_body();
          param_sources_[cond->parameter_instruction(0)] = {instr, 0};
          param_sources_[body->parameter_instruction(0)] = {instr, 0};
          // The predicate gets its own slice (the condition's root is copied
          // into it).
          int pred = r_.NewBuffer(absl::StrCat(instr->name(), ".predicate"), 1, p);
          r_.while_staging_[{instr, -1}] = pred;
          AOT_RETURN_IF_ERROR(Visit(*cond, p));
          AOT_RETURN_IF_ERROR(Visit(*body, p));
          // State leaves are live across the loop: uses inside count at p.
          // A body result leaf that aliases another state leaf is staged.
          const HloInstruction* root = body->root_instruction();
          for (int64_t leaf = 0; leaf < LeafCount(instr->shape()); ++leaf) {
            int source = BufferOf(root, leaf);
            for (int64_t other = 0; other < LeafCount(instr->shape()); ++other) {
              if (other != leaf && source == BufferOf(instr, other)) {
                int staging = r_.NewBuffer(absl::StrCat(instr->name(), ".staging{", leaf, "}"),
                                           r_.buffers_[source].size, p);
                r_.while_staging_[{instr, leaf}] = staging;
                break;
              }
            }
          }
          break;
        }
        case HloOpcode::kConditional: {
          DefineLeaves(instr, p);
          for (size_t b = 0; b < instr->called_computations().size(); ++b) {
            const HloComputation* branch = instr->called_computations()[b];
            if (branch->num_parameters() == 1) {
              param_sources_[branch->parameter_instruction(0)] = {instr->operand(b + 1), 0};
            }
            AOT_RETURN_IF_ERROR(Visit(*branch, p));
          }
          break;
        }
        case HloOpcode::kCall:
          return UnimplementedInstruction(*instr, "calls must be inlined before buffer assignment");
        case HloOpcode::kDynamicUpdateSlice:
          if (UpdatesInPlace(instr, computation, order)) {
            AliasLeaves(instr, instr->operand(0), 0);
            r_.in_place_.insert(instr);
          } else {
            DefineLeaves(instr, p);
          }
          break;
        default:
          DefineLeaves(instr, p);
          // Scratch lives only while the kernel runs.
          for (const Shape& shape : KernelScratchShapes(*instr)) {
            r_.scratch_[instr].push_back(r_.NewBuffer(
                absl::StrCat(instr->name(), ".scratch{", r_.scratch_[instr].size(), "}"),
                shape.ByteSize(), p));
          }
          break;
      }
      // Values used by nested computations are used at p as well (done
      // through the operand uses above).
    }
    return absl::OkStatus();
  }

  absl::Status Finish() {
    // Result leaves go to the OUTPUT allocation.
    const HloInstruction* root = entry_->root_instruction();
    std::vector<Shape> leaves = root->shape().FlattenLeaves();
    std::vector<int> output_buffers;
    std::vector<int> leaf_buffers;            // by leaf: the buffer holding it
    std::vector<std::pair<int, int>> copies;  // (source buffer, output buffer)
    std::set<int> taken;
    // input_output_alias: result leaf -> the buffer of the parameter leaf
    // it lives in.
    std::map<int64_t, int> alias_target;
    for (const HloInputOutputAlias& a : module_->config().input_output_aliases) {
      int64_t flat = 0;
      for (int64_t p = 0; p < a.parameter_number; ++p) {
        flat += LeafCount(entry_->parameter_instruction(p)->shape());
      }
      flat += LeafOrdinal(entry_->parameter_instruction(a.parameter_number)->shape(),
                          a.parameter_index);
      const int64_t leaf = LeafOrdinal(root->shape(), a.output_index);
      alias_target[leaf] = parameter_leaf_buffer_[flat];
      r_.result_aliases_.push_back({leaf, flat, a.must_alias});
      r_.allocations_[r_.buffers_[parameter_leaf_buffer_[flat]].allocation].set_maybe_live_out(
          true);
    }
    std::sort(r_.result_aliases_.begin(), r_.result_aliases_.end());
    // Parameters whose old value a result copies at the end are read then.
    for (int64_t leaf = 0; leaf < static_cast<int64_t>(leaves.size()); ++leaf) {
      int id = BufferOf(root, leaf);
      auto target = alias_target.find(leaf);
      if (id >= 0 && InParameterAllocation(id) &&
          (target == alias_target.end() || target->second != id)) {
        r_.buffers_[id].last_read = position_ + 1;
      }
    }
    std::vector<std::pair<int, int>> alias_copies;  // (source, parameter buffer)
    for (int64_t leaf = 0; leaf < static_cast<int64_t>(leaves.size()); ++leaf) {
      if (!leaves[leaf].IsArray())
        return UnimplementedInstruction(*root, "result leaf is not an array");
      int id = BufferOf(root, leaf);
      if (id < 0) return UnimplementedInstruction(*root, "result leaf has no buffer");
      Buffer& b = r_.buffers_[id];
      if (auto target = alias_target.find(leaf); target != alias_target.end()) {
        // The leaf lives in its parameter's buffer: computed there when
        // nothing reads the parameter after the leaf's definer writes it
        // (or the definer reads only the element it writes), else copied
        // there after everything else.
        const int param = target->second;
        leaf_buffers.push_back(param);
        if (id == param) continue;
        const Buffer& pb = r_.buffers_[param];
        if (b.allocation < 0 && !taken.count(id) && b.definer != nullptr &&
            b.definer->parent() == entry_ &&
            (pb.last_read < b.def ||
             (pb.last_read == b.def && ReadsOnlyItsOwnElement(b.definer, param)))) {
          b.allocation = pb.allocation;
          b.offset = 0;
          b.last_use = kLiveForever;
          taken.insert(id);
        } else {
          b.last_use = std::max(b.last_use, position_ + 1);
          alias_copies.push_back({id, param});
        }
        continue;
      }
      if (b.allocation < 0 && !taken.count(id)) {
        b.output = true;
        b.last_use = kLiveForever;
        taken.insert(id);
        output_buffers.push_back(id);
        leaf_buffers.push_back(id);
      } else {
        int out =
            r_.NewBuffer(absl::StrCat(root->name(), ".out{", leaf, "}"), b.size, position_ + 1);
        r_.buffers_[out].output = true;
        r_.buffers_[out].last_use = kLiveForever;
        // NewBuffer may have moved `b`.
        r_.buffers_[id].last_use = std::max(r_.buffers_[id].last_use, position_ + 1);
        output_buffers.push_back(out);
        leaf_buffers.push_back(out);
        copies.push_back({id, out});
      }
    }
    // A copy into a parameter's buffer whose source is the old value of a
    // parameter that another such copy may overwrite goes through a
    // staging buffer, filled before any of them runs.
    std::vector<std::pair<int, int>> staging_copies;
    for (auto& [source, param] : alias_copies) {
      if (!InParameterAllocation(source) ||
          !r_.allocations_[r_.buffers_[source].allocation].maybe_live_out()) {
        continue;
      }
      int staging = r_.NewBuffer(absl::StrCat(root->name(), ".alias_staging{", source, "}"),
                                 r_.buffers_[source].size, position_ + 1);
      staging_copies.push_back({source, staging});
      source = staging;
    }
    copies.insert(copies.end(), staging_copies.begin(), staging_copies.end());
    copies.insert(copies.end(), alias_copies.begin(), alias_copies.end());
    // TEMP: first-fit by live range.
    BufferAllocationProto temp;
    temp.set_index(static_cast<int64_t>(r_.allocations_.size()));
    temp.set_kind(BufferAllocationProto::TEMP);
    temp.set_alignment(kAlignment);
    std::vector<int> temps;
    for (const Buffer& b : r_.buffers_) {
      if (b.allocation < 0 && !b.output) temps.push_back(b.id);
    }
    std::stable_sort(temps.begin(), temps.end(),
                     [&](int a, int b) { return r_.buffers_[a].def < r_.buffers_[b].def; });
    std::vector<int> placed;
    int64_t temp_size = 0;
    for (int id : temps) {
      Buffer& b = r_.buffers_[id];
      int64_t last = std::max(b.last_use, b.def);
      std::vector<std::pair<int64_t, int64_t>> busy;
      for (int other : placed) {
        const Buffer& o = r_.buffers_[other];
        int64_t o_last = std::max(o.last_use, o.def);
        if (o.def <= last && b.def <= o_last)
          busy.push_back({o.offset, o.offset + RoundUp(o.size)});
      }
      std::sort(busy.begin(), busy.end());
      int64_t offset = 0;
      for (const auto& [start, end] : busy) {
        if (offset + RoundUp(b.size) <= start) break;
        offset = std::max(offset, end);
      }
      b.allocation = temp.index();
      b.offset = offset;
      temp_size = std::max(temp_size, offset + RoundUp(b.size));
      placed.push_back(id);
    }
    temp.set_size(temp_size);
    r_.temp_bytes_ = temp_size;
    r_.allocations_.push_back(temp);
    // OUTPUT: leaves in order.
    BufferAllocationProto output;
    output.set_index(static_cast<int64_t>(r_.allocations_.size()));
    output.set_kind(BufferAllocationProto::OUTPUT);
    output.set_maybe_live_out(true);
    output.set_alignment(kAlignment);
    int64_t offset = 0;
    for (int id : output_buffers) {
      Buffer& b = r_.buffers_[id];
      b.allocation = output.index();
      b.offset = offset;
      offset += RoundUp(b.size);
    }
    output.set_size(offset);
    r_.allocations_.push_back(output);
    for (const Buffer& b : r_.buffers_) {
      BufferSliceProto s;
      s.set_allocation_index(b.allocation);
      s.set_offset(b.offset);
      s.set_size(b.size);
      r_.slice_of_buffer_[b.id] = s;
    }
    for (int id : leaf_buffers) r_.result_slices_.push_back(r_.slice_of_buffer_[id]);
    for (const auto& [source, out] : copies) {
      r_.output_copies_.push_back({r_.slice_of_buffer_[source], r_.slice_of_buffer_[out]});
    }
    return absl::OkStatus();
  }

  // Whether buffer `id` is an entry parameter leaf's (its allocation).
  bool InParameterAllocation(int id) const {
    const int64_t allocation = r_.buffers_[id].allocation;
    return allocation >= 0 &&
           r_.allocations_[allocation].kind() == BufferAllocationProto::PARAMETER;
  }

  // Whether entry instruction `instr` computes each element of its array
  // result from the same element of every operand that holds buffer `id`
  // and from no other element of it (an elementwise op or loop fusion over
  // that operand's shape): it may then write its result over that buffer.
  bool ReadsOnlyItsOwnElement(const HloInstruction* instr, int id) const {
    const Shape& shape = instr->shape();
    if (!shape.IsArray()) return false;
    const bool fusion = instr->opcode() == HloOpcode::kFusion;
    if (!fusion && !IsElementwise(instr->opcode())) return false;
    for (int64_t k = 0; k < instr->operand_count(); ++k) {
      const HloInstruction* op = instr->operand(k);
      bool holds = false;
      for (int64_t leaf = 0; leaf < LeafCount(op->shape()); ++leaf) {
        holds = holds || BufferOf(op, leaf) == id;
      }
      if (!holds) continue;
      if (!op->shape().IsArray() || op->shape() != shape) return false;
      if (!fusion) continue;
      // Every value computed from the fused parameter is elementwise over
      // the result's dimensions.
      const HloComputation* fused = instr->called_computations()[0];
      std::vector<const HloInstruction*> stack = {fused->parameter_instruction(k)};
      std::set<const HloInstruction*> seen;
      while (!stack.empty()) {
        const HloInstruction* v = stack.back();
        stack.pop_back();
        for (const HloInstruction* user : v->users()) {
          if (!seen.insert(user).second) continue;
          if (!IsElementwise(user->opcode()) || !user->shape().IsArray() ||
              user->shape().dimensions() != shape.dimensions()) {
            return false;
          }
          stack.push_back(user);
        }
      }
    }
    return true;
  }

  using Buffer = BufferAssignment::Buffer;
  BufferAssignment& r_;
  const HloModule* module_ = nullptr;
  // Buffer of each entry parameter leaf, by flat parameter number.
  std::vector<int> parameter_leaf_buffer_;
  const HloComputation* entry_ = nullptr;
  int64_t position_ = 0;
  // Parameter of a nested computation -> (instruction whose leaves it
  // aliases, first leaf).
  std::map<const HloInstruction*, std::pair<const HloInstruction*, int64_t>> param_sources_;
};

int BufferAssignment::NewBuffer(std::string label, int64_t size, int64_t position) {
  Buffer b;
  b.id = static_cast<int>(buffers_.size());
  b.label = std::move(label);
  b.size = size;
  b.def = position;
  b.last_use = position;
  buffers_.push_back(b);
  return b.id;
}

absl::StatusOr<std::unique_ptr<BufferAssignment>> BufferAssignment::Run(const HloModule& module) {
  auto result = std::unique_ptr<BufferAssignment>(new BufferAssignment());
  BufferAssigner assigner(result.get());
  AOT_RETURN_IF_ERROR(assigner.Run(module));
  return result;
}

absl::StatusOr<BufferSliceProto> BufferAssignment::GetSlice(const HloInstruction& instruction,
                                                            const ShapeIndex& index) const {
  int64_t leaf = LeafOrdinal(instruction.shape(), index);
  auto it = value_buffer_.find({&instruction, leaf});
  if (it == value_buffer_.end() || it->second < 0) {
    return absl::InternalError(
        absl::StrCat("no buffer for instruction '", instruction.name(), "' leaf ", leaf));
  }
  return slice_of_buffer_.at(it->second);
}

absl::StatusOr<std::vector<BufferSliceProto>> BufferAssignment::GetLeafSlices(
    const HloInstruction& instruction) const {
  std::vector<BufferSliceProto> slices;
  for (int64_t leaf = 0; leaf < LeafCount(instruction.shape()); ++leaf) {
    auto it = value_buffer_.find({&instruction, leaf});
    if (it == value_buffer_.end() || it->second < 0) {
      return absl::InternalError(
          absl::StrCat("no buffer for instruction '", instruction.name(), "' leaf ", leaf));
    }
    slices.push_back(slice_of_buffer_.at(it->second));
  }
  return slices;
}

std::vector<BufferSliceProto> BufferAssignment::GetScratchSlices(
    const HloInstruction& instruction) const {
  std::vector<BufferSliceProto> slices;
  if (auto it = scratch_.find(&instruction); it != scratch_.end()) {
    for (int id : it->second) slices.push_back(slice_of_buffer_.at(id));
  }
  return slices;
}

bool BufferAssignment::UpdatesInPlace(const HloInstruction& instruction) const {
  return in_place_.count(&instruction) > 0;
}

bool BufferAssignment::DefinesBuffers(const HloInstruction& instruction) const {
  auto it = defines_.find(&instruction);
  return it != defines_.end() && it->second;
}

std::optional<BufferSliceProto> BufferAssignment::WhileStaging(const HloInstruction& while_instr,
                                                               int64_t leaf) const {
  auto it = while_staging_.find({&while_instr, leaf});
  if (it == while_staging_.end()) return std::nullopt;
  return slice_of_buffer_.at(it->second);
}

std::string BufferAssignment::ToString() const {
  std::string out;
  for (const BufferAllocationProto& a : allocations_) {
    absl::StrAppend(&out, "allocation ", a.index(), ": ",
                    BufferAllocationProto::Kind_Name(a.kind()), ", size ", a.size());
    if (a.kind() == BufferAllocationProto::PARAMETER) {
      absl::StrAppend(&out, ", parameter ", a.parameter_number());
    }
    absl::StrAppend(&out, "\n");
    for (const Buffer& b : buffers_) {
      if (b.allocation != a.index()) continue;
      absl::StrAppend(&out, "  [", b.offset, ", +", b.size, ") ", b.label);
      if (a.kind() == BufferAllocationProto::TEMP) {
        absl::StrAppend(&out, "  live [", b.def, ", ", b.last_use, "]");
      }
      absl::StrAppend(&out, "\n");
    }
  }
  absl::StrAppend(&out, "temp bytes: ", temp_bytes_, "\n");
  return out;
}

}  // namespace aot
