#include "runtime/executable/executable.h"

#include <algorithm>
#include <chrono>
#include <cstring>
#include <set>

#include "absl/algorithm/container.h"
#include "absl/container/inlined_vector.h"
#include "absl/strings/str_cat.h"
#include "google/protobuf/io/coded_stream.h"
#include "google/protobuf/io/zero_copy_stream_impl_lite.h"
#include "runtime/abi_version.h"
#include "runtime/hlo_opcode_table.h"
#include "runtime/shape_util.h"
#include "runtime/thunks/thunk_registry.h"
#include "support/proto_util.h"
#include "support/status_macros.h"

namespace aot {

namespace {

double MillisSince(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start)
      .count();
}

absl::Status Invalid(absl::string_view field, absl::string_view message) {
  return absl::InvalidArgumentError(absl::StrCat(field, ": ", message));
}

absl::Status CheckSliceInAllocation(const ExecutableProto& proto, const BufferSliceProto& slice,
                                    absl::string_view field) {
  int64_t index = slice.allocation_index();
  if (index < 0 || index >= proto.buffer_allocations_size()) {
    return Invalid(field, absl::StrCat("allocation_index ", index, " out of range [0, ",
                                       proto.buffer_allocations_size(), ")"));
  }
  int64_t size = proto.buffer_allocations(static_cast<int>(index)).size();
  if (slice.offset() < 0 || slice.size() < 0 || slice.offset() > size ||
      slice.size() > size - slice.offset()) {
    return Invalid(field, absl::StrCat("slice [", slice.offset(), ", +", slice.size(),
                                       ") exceeds allocation ", index, " of ", size, " bytes"));
  }
  return absl::OkStatus();
}

absl::Status CheckArrayShape(const ShapeProto& shape, absl::string_view field) {
  if (!runtime_shape::IsArray(shape) || shape.dimensions_size() > 64 ||
      runtime_shape::ByteSize(shape) < 0) {
    return Invalid(field, "is not a valid array shape");
  }
  if (absl::Status packing = runtime_shape::CheckElementSize(shape); !packing.ok()) {
    return Invalid(absl::StrCat(field, ".layout.element_size_in_bits"), packing.message());
  }
  if (shape.has_layout() && shape.layout().minor_to_major_size() > 0) {
    std::vector<bool> seen(shape.dimensions_size(), false);
    if (shape.layout().minor_to_major_size() != shape.dimensions_size()) {
      return Invalid(field, "layout rank differs from the shape's rank");
    }
    for (int64_t d : shape.layout().minor_to_major()) {
      if (d < 0 || d >= shape.dimensions_size() || seen[d]) {
        return Invalid(field, "layout is not a permutation of the dimensions");
      }
      seen[d] = true;
    }
  }
  return absl::OkStatus();
}

int64_t CountLeaves(const ShapeProto& shape, int depth) {
  if (depth > 64) return -1;
  if (shape.element_type() != TUPLE) return 1;
  int64_t n = 0;
  for (const ShapeProto& s : shape.tuple_shapes()) {
    int64_t sub = CountLeaves(s, depth + 1);
    if (sub < 0) return -1;
    n += sub;
  }
  return n;
}

}  // namespace

absl::Status ValidateExecutableProto(const ExecutableProto& proto, const LoadOptions& options) {
  const int64_t budget = options.memory_budget_bytes;
  // Load keeps the artifact's own bytes resident besides the allocations:
  // the constants' binary, every kernel's machine code and the embedded
  // module all count against the budget.
  int64_t total = static_cast<int64_t>(proto.ByteSizeLong());
  if (total > budget) {
    return Invalid("executable",
                   absl::StrCat(total,
                                " bytes of constants, kernels and embedded module exceed the "
                                "memory budget of ",
                                budget));
  }
  if (proto.has_device_assignment()) {
    const DeviceAssignmentProto& d = proto.device_assignment();
    if (d.replica_count() < 1 || d.partition_count() < 1) {
      return Invalid("device_assignment",
                     absl::StrCat("replica_count ", d.replica_count(), " and partition_count ",
                                  d.partition_count(), " must be at least 1"));
    }
    if (d.replica_count() > 1024 || d.partition_count() > 1024 ||
        d.device_ids_size() != d.replica_count() * d.partition_count()) {
      return Invalid("device_assignment.device_ids",
                     absl::StrCat(d.device_ids_size(), " devices for ", d.replica_count(),
                                  " replicas x ", d.partition_count(), " partitions"));
    }
    std::set<int64_t> seen;
    for (int i = 0; i < d.device_ids_size(); ++i) {
      if (d.device_ids(i) < 0 || !seen.insert(d.device_ids(i)).second) {
        return Invalid(absl::StrCat("device_assignment.device_ids[", i, "]"),
                       absl::StrCat("device ", d.device_ids(i),
                                    " is negative or assigned to two participants"));
      }
    }
  }
  std::vector<int> parameter_allocation;
  for (int i = 0; i < proto.buffer_allocations_size(); ++i) {
    const BufferAllocationProto& a = proto.buffer_allocations(i);
    std::string field = absl::StrCat("buffer_allocations[", i, "]");
    if (a.index() != i) {
      return Invalid(field + ".index", absl::StrCat("is ", a.index(), ", expected ", i));
    }
    if (a.size() < 0) return Invalid(field + ".size", "is negative");
    if (a.size() > budget - total) {
      return Invalid(
          field + ".size",
          absl::StrCat("allocations total more than the memory budget of ", budget, " bytes"));
    }
    total += a.size();
    if (a.kind() == BufferAllocationProto::KIND_UNSPECIFIED ||
        !BufferAllocationProto::Kind_IsValid(a.kind())) {
      return Invalid(field + ".kind", "is unset or unknown");
    }
    if (a.alignment() < 0 || a.alignment() > 4096 || (a.alignment() & (a.alignment() - 1)) != 0) {
      return Invalid(field + ".alignment",
                     absl::StrCat(a.alignment(), " is not a power of two <= 4096"));
    }
    if (a.kind() == BufferAllocationProto::PARAMETER) {
      if (a.parameter_number() < 0 || a.parameter_number() >= proto.parameters_size()) {
        return Invalid(
            field + ".parameter_number",
            absl::StrCat(a.parameter_number(), " out of range [0, ", proto.parameters_size(), ")"));
      }
    }
  }
  for (int i = 0; i < proto.constants_size(); ++i) {
    const ConstantProto& c = proto.constants(i);
    std::string field = absl::StrCat("constants[", i, "]");
    if (c.allocation_index() < 0 || c.allocation_index() >= proto.buffer_allocations_size()) {
      return Invalid(field + ".allocation_index",
                     absl::StrCat(c.allocation_index(), " out of range"));
    }
    const BufferAllocationProto& a =
        proto.buffer_allocations(static_cast<int>(c.allocation_index()));
    if (a.kind() != BufferAllocationProto::CONSTANT) {
      return Invalid(field + ".allocation_index", absl::StrCat("allocation ", c.allocation_index(),
                                                               " is not a CONSTANT allocation"));
    }
    int64_t binary_size = static_cast<int64_t>(proto.binary().size());
    if (c.binary_offset() < 0 || c.size() < 0 || c.binary_offset() > binary_size ||
        c.size() > binary_size - c.binary_offset()) {
      return Invalid(field, absl::StrCat("[", c.binary_offset(), ", +", c.size(),
                                         ") lies outside binary (", binary_size, " bytes)"));
    }
    if (c.size() > a.size()) {
      return Invalid(field + ".size",
                     absl::StrCat(c.size(), " exceeds allocation size ", a.size()));
    }
  }
  std::vector<bool> seen(proto.parameters_size(), false);
  for (int i = 0; i < proto.parameters_size(); ++i) {
    const EntryParameterProto& p = proto.parameters(i);
    std::string field = absl::StrCat("parameters[", i, "]");
    if (p.parameter_number() < 0 || p.parameter_number() >= proto.parameters_size() ||
        seen[p.parameter_number()]) {
      return Invalid(field + ".parameter_number",
                     absl::StrCat(p.parameter_number(), " is out of range or repeated"));
    }
    seen[p.parameter_number()] = true;
    AOT_RETURN_IF_ERROR(CheckArrayShape(p.shape(), field + ".shape"));
    AOT_RETURN_IF_ERROR(CheckSliceInAllocation(proto, p.slice(), field + ".slice"));
    const BufferAllocationProto& a =
        proto.buffer_allocations(static_cast<int>(p.slice().allocation_index()));
    if (a.kind() != BufferAllocationProto::PARAMETER ||
        a.parameter_number() != p.parameter_number()) {
      return Invalid(field + ".slice",
                     absl::StrCat("allocation ", a.index(), " is not the allocation of parameter ",
                                  p.parameter_number()));
    }
    int64_t bytes = runtime_shape::ByteSize(p.shape());
    if (p.slice().offset() != 0 || p.slice().size() != bytes || a.size() != bytes) {
      return Invalid(field + ".slice",
                     absl::StrCat("parameter of ", bytes,
                                  " bytes must fill its allocation (slice [", p.slice().offset(),
                                  ", +", p.slice().size(), "), allocation ", a.size(), " bytes)"));
    }
  }
  const EntryResultProto& r = proto.result();
  int64_t leaves = CountLeaves(r.shape(), 0);
  if (leaves < 0) return Invalid("result.shape", "nested too deeply");
  if (leaves != r.leaves_size()) {
    return Invalid("result.leaves",
                   absl::StrCat("has ", r.leaves_size(), " entries, the result shape has ", leaves,
                                " leaves"));
  }
  for (int i = 0; i < r.leaves_size(); ++i) {
    const OutputLeafProto& leaf = r.leaves(i);
    std::string field = absl::StrCat("result.leaves[", i, "]");
    AOT_RETURN_IF_ERROR(CheckArrayShape(leaf.shape(), field + ".shape"));
    AOT_RETURN_IF_ERROR(CheckSliceInAllocation(proto, leaf.slice(), field + ".slice"));
    if (leaf.slice().size() != runtime_shape::ByteSize(leaf.shape())) {
      return Invalid(field + ".slice",
                     absl::StrCat("size ", leaf.slice().size(), " differs from the ",
                                  runtime_shape::ByteSize(leaf.shape()), " bytes of ",
                                  runtime_shape::ToString(leaf.shape())));
    }
  }
  // Aliases: a result leaf that is exactly the buffer of a parameter of the
  // same shape, each leaf and each parameter at most once.
  std::vector<bool> leaf_aliased(r.leaves_size(), false);
  std::vector<bool> parameter_aliased(proto.parameters_size(), false);
  for (int i = 0; i < proto.input_output_aliases_size(); ++i) {
    const InputOutputAliasProto& alias = proto.input_output_aliases(i);
    std::string field = absl::StrCat("input_output_aliases[", i, "]");
    if (alias.kind() == InputOutputAliasProto::KIND_UNSPECIFIED ||
        !InputOutputAliasProto::Kind_IsValid(alias.kind())) {
      return Invalid(field + ".kind", "is unset or unknown");
    }
    if (alias.result_leaf() < 0 || alias.result_leaf() >= r.leaves_size() ||
        leaf_aliased[alias.result_leaf()]) {
      return Invalid(field + ".result_leaf",
                     absl::StrCat(alias.result_leaf(), " is out of range [0, ", r.leaves_size(),
                                  ") or aliased twice"));
    }
    if (alias.parameter_number() < 0 || alias.parameter_number() >= proto.parameters_size() ||
        parameter_aliased[alias.parameter_number()]) {
      return Invalid(field + ".parameter_number",
                     absl::StrCat(alias.parameter_number(), " is out of range [0, ",
                                  proto.parameters_size(), ") or aliased twice"));
    }
    leaf_aliased[alias.result_leaf()] = true;
    parameter_aliased[alias.parameter_number()] = true;
    const OutputLeafProto& leaf = r.leaves(static_cast<int>(alias.result_leaf()));
    const EntryParameterProto* param = nullptr;
    for (const EntryParameterProto& p : proto.parameters()) {
      if (p.parameter_number() == alias.parameter_number()) param = &p;
    }
    if (leaf.slice().allocation_index() != param->slice().allocation_index() ||
        leaf.slice().offset() != 0 || leaf.slice().size() != param->slice().size()) {
      return Invalid(field,
                     absl::StrCat("result leaf ", alias.result_leaf(),
                                  " is not the buffer of parameter ", alias.parameter_number(),
                                  " (allocation ", param->slice().allocation_index(), ")"));
    }
    if (!runtime_shape::SameShape(leaf.shape(), param->shape())) {
      return Invalid(field,
                     absl::StrCat("result leaf ", alias.result_leaf(), " (",
                                  runtime_shape::ToString(leaf.shape()), ") and parameter ",
                                  alias.parameter_number(), " (",
                                  runtime_shape::ToString(param->shape()), ") differ in shape"));
    }
  }
  if (proto.capability().capability_case() == CapabilityProto::CAPABILITY_NOT_SET) {
    return Invalid("capability", "is not set");
  }
  if (!proto.has_abi_version()) return Invalid("abi_version", "is not set");
  return absl::OkStatus();
}

absl::StatusOr<std::unique_ptr<Executable>> Executable::Load(ExecutableProto proto,
                                                             std::shared_ptr<Platform> platform_ptr,
                                                             const FfiRegistry* ffi,
                                                             const LoadOptions& options) {
  Platform* platform = platform_ptr.get();
  auto start = std::chrono::steady_clock::now();
  auto executable = std::unique_ptr<Executable>(new Executable());
  executable->platform_ = std::move(platform_ptr);
  executable->proto_ = std::move(proto);
  const ExecutableProto& p = executable->proto_;

  // Environment first: these are not versioning bugs (CONTRACT.md s. 3).
  if (p.capability().capability_case() != CapabilityProto::CAPABILITY_NOT_SET) {
    AOT_RETURN_IF_ERROR(platform->CheckCapability(p.capability()));
  }
  AOT_RETURN_IF_ERROR(RuntimeAbiVersion::Current().IsCompatibleWith(p.abi_version()));
  AOT_RETURN_IF_ERROR(ValidateExecutableProto(p, options));
  executable->stats_.validate_ms = MillisSince(start);

  // Step 1: rebuild the thunk graph; the embedded HLO's opcodes must all be
  // known to this runtime.
  auto step = std::chrono::steady_clock::now();
  AOT_RETURN_IF_ERROR(CheckEmbeddedHloOpcodes(p.hlo_module().hlo_module()));
  AOT_ASSIGN_OR_RETURN(auto loader, platform->CreateKernelLoader());
  executable->kernels_ = std::move(loader);
  LoadContext context(platform, executable->kernels_.get(), ffi, &p, &options);
  AOT_ASSIGN_OR_RETURN(auto thunks,
                       ThunkRegistry::Global().SequenceFromProto(p.thunks(), "thunks", context));
  executable->thunks_ = std::move(thunks);
  executable->stats_.thunks_ms = MillisSince(step);
  executable->stats_.thunk_count = p.thunks_size();

  // Step 2: load-time passes.
  step = std::chrono::steady_clock::now();
  if (options.enable_command_buffers) {
    executable->stats_.passes = RunCommandBufferPass(executable->thunks_, *platform);
  }
  executable->stats_.passes_ms = MillisSince(step);

  // Step 3 (the part shared by every execution): constants resident. A
  // platform that cannot execute here (CUDA without a device) stops after
  // steps 1-2: the artifact is deserialized and validated, not run.
  step = std::chrono::steady_clock::now();
  executable->constants_.resize(p.buffer_allocations_size());
  if (platform->CanExecute()) {
    // Bytes of each allocation its constants fill (from its start): only
    // an allocation they leave short is zeroed first. And how many
    // constants each holds (more than one: the last copy wins, so its
    // bytes cannot stand for the others' in `binary`).
    std::vector<int64_t> filled(p.buffer_allocations_size(), 0);
    std::vector<int> held(p.buffer_allocations_size(), 0);
    for (const ConstantProto& c : p.constants()) {
      filled[c.allocation_index()] = std::max(filled[c.allocation_index()], c.size());
      ++held[c.allocation_index()];
    }
    AOT_ASSIGN_OR_RETURN(std::unique_ptr<Stream> stream, platform->AcquireStream());
    for (const BufferAllocationProto& a : p.buffer_allocations()) {
      if (a.kind() != BufferAllocationProto::CONSTANT) continue;
      AOT_ASSIGN_OR_RETURN(auto memory, platform->Allocate(a.size()));
      executable->constants_[a.index()] = memory;
      if (filled[a.index()] < a.size()) {
        AOT_RETURN_IF_ERROR(stream->Memset32(memory, 0, a.size()));
      }
    }
    for (const ConstantProto& c : p.constants()) {
      if (c.size() == 0) continue;
      AOT_RETURN_IF_ERROR(stream->CopyHostToDevice(p.binary().data() + c.binary_offset(),
                                                   executable->constants_[c.allocation_index()],
                                                   c.size()));
    }
    AOT_RETURN_IF_ERROR(stream->Synchronize());
    // On the host the constants' bytes now live in their buffers: the
    // proto's copy is dropped (ToProto reads them back), so a loaded
    // executable holds its constants once. Only when the constants account
    // for every nonzero byte of `binary` (a compiler's padding is zeros),
    // each from an allocation of its own.
    if (platform->kind() == PLATFORM_HOST && !p.binary().empty() &&
        std::all_of(held.begin(), held.end(), [](int n) { return n <= 1; })) {
      std::vector<std::pair<int64_t, int64_t>> ranges;  // [begin, end) in binary
      for (const ConstantProto& c : p.constants()) {
        ranges.emplace_back(c.binary_offset(), c.binary_offset() + c.size());
      }
      std::sort(ranges.begin(), ranges.end());
      const std::string& binary = p.binary();
      auto zeros = [&](int64_t begin, int64_t end) {
        return begin >= end || std::all_of(binary.begin() + begin, binary.begin() + end,
                                           [](char b) { return b == '\0'; });
      };
      bool droppable = true;
      int64_t position = 0;
      for (const auto& [begin, end] : ranges) {
        droppable = droppable && zeros(position, begin);
        position = std::max(position, end);
      }
      droppable = droppable && zeros(position, static_cast<int64_t>(binary.size()));
      if (droppable) {
        executable->binary_size_ = static_cast<int64_t>(p.binary().size());
        std::string().swap(*executable->proto_.mutable_binary());
      }
    }
  }
  // The execution arena's layout: every non-constant allocation at a
  // 64-byte aligned offset (host kernels may assume that alignment).
  executable->arena_offsets_.assign(p.buffer_allocations_size(), -1);
  int64_t arena_bytes = 0;
  for (const BufferAllocationProto& a : p.buffer_allocations()) {
    if (a.kind() == BufferAllocationProto::CONSTANT) continue;
    executable->arena_offsets_[a.index()] = arena_bytes;
    arena_bytes += (a.size() + 63) / 64 * 64;
  }
  executable->arena_bytes_ = arena_bytes;
  // Result leaves a host execution may write straight into the caller's
  // buffer: the leaf is the whole of an allocation that is neither a
  // parameter nor a constant, and no other leaf shares that allocation.
  const EntryResultProto& result = p.result();
  executable->result_in_place_.assign(result.leaves_size(), -1);
  std::vector<int> leaves_per_allocation(p.buffer_allocations_size(), 0);
  for (const OutputLeafProto& leaf : result.leaves()) {
    ++leaves_per_allocation[leaf.slice().allocation_index()];
  }
  for (int i = 0; i < result.leaves_size(); ++i) {
    const BufferSliceProto& slice = result.leaves(i).slice();
    const BufferAllocationProto& a = p.buffer_allocations(slice.allocation_index());
    if ((a.kind() == BufferAllocationProto::OUTPUT || a.kind() == BufferAllocationProto::TEMP) &&
        slice.offset() == 0 && slice.size() == a.size() && a.size() > 0 &&
        leaves_per_allocation[slice.allocation_index()] == 1) {
      executable->result_in_place_[i] = slice.allocation_index();
    }
  }
  executable->aliased_allocation_.assign(p.buffer_allocations_size(), false);
  executable->alias_of_leaf_.assign(result.leaves_size(), nullptr);
  for (const InputOutputAliasProto& alias : p.input_output_aliases()) {
    executable->aliased_allocation_[result.leaves(alias.result_leaf()).slice().allocation_index()] =
        true;
    executable->alias_of_leaf_[alias.result_leaf()] = &alias;
  }
  executable->parameters_.resize(p.parameters_size());
  for (const EntryParameterProto& param : p.parameters()) {
    executable->parameters_[param.parameter_number()] = param;
  }
  executable->stats_.constants_ms = MillisSince(step);
  return executable;
}

Executable::~Executable() {
  for (const DeviceMemory& m : constants_) {
    if (m.ptr != nullptr) platform_->Free(m);
  }
  std::lock_guard<std::mutex> lock(arenas_mu_);
  for (const std::unique_ptr<Arena>& arena : free_arenas_) platform_->Free(arena->memory);
}

int64_t Executable::arena_count() const {
  std::lock_guard<std::mutex> lock(arenas_mu_);
  return arena_count_;
}

absl::StatusOr<std::unique_ptr<Executable::Arena>> Executable::TakeArena() const {
  {
    std::lock_guard<std::mutex> lock(arenas_mu_);
    if (!free_arenas_.empty()) {
      std::unique_ptr<Arena> arena = std::move(free_arenas_.back());
      free_arenas_.pop_back();
      return arena;
    }
  }
  auto arena = std::make_unique<Arena>();
  AOT_ASSIGN_OR_RETURN(arena->memory, platform_->Allocate(arena_bytes_));
  arena->table.resize(proto_.buffer_allocations_size());
  std::lock_guard<std::mutex> lock(arenas_mu_);
  ++arena_count_;
  free_arenas_.reserve(arena_count_);  // ReturnArena never allocates
  return arena;
}

void Executable::ReturnArena(std::unique_ptr<Arena> arena) const {
  std::lock_guard<std::mutex> lock(arenas_mu_);
  free_arenas_.push_back(std::move(arena));
}

void Executable::DropArena(std::unique_ptr<Arena> arena) const {
  platform_->Free(arena->memory);
  std::lock_guard<std::mutex> lock(arenas_mu_);
  --arena_count_;
}

int64_t Executable::participant_count() const {
  const DeviceAssignmentProto& d = proto_.device_assignment();
  return d.replica_count() > 0 ? d.replica_count() * std::max<int64_t>(d.partition_count(), 1) : 1;
}

absl::Status Executable::CheckPlatformCanExecute() const {
  if (platform_->CanExecute()) return absl::OkStatus();
  return absl::FailedPreconditionError(
      absl::StrCat("platform '", platform_->name(), "' cannot execute kernels on this machine"));
}

absl::Status Executable::CheckCanExecute(size_t argument_count,
                                         const ExecuteOptions& options) const {
  AOT_RETURN_IF_ERROR(CheckPlatformCanExecute());
  const CollectiveParams* c = options.collectives;
  if (c == nullptr && participant_count() > 1) {
    return absl::FailedPreconditionError(
        absl::StrCat("the executable runs on ", participant_count(),
                     " participants (replicas x partitions); run it with ExecuteReplicated "
                     "(runtime/executable/replicated_execution.h), e.g. aot-run --num_replicas"));
  }
  if (c != nullptr && (c->participant_count != participant_count() || c->participant < 0 ||
                       c->participant >= participant_count() || c->backend == nullptr)) {
    return absl::InvalidArgumentError(absl::StrCat(
        "participant ", c->participant, " of ", c->participant_count,
        " (with a collective backend) expected one of the executable's ", participant_count()));
  }
  if (argument_count != parameters_.size()) {
    return absl::InvalidArgumentError(
        absl::StrCat("executable takes ", parameters_.size(), " arguments, got ", argument_count));
  }
  return absl::OkStatus();
}

DeviceMemory Executable::ArenaSlot(const Arena& arena, const BufferAllocationProto& a) const {
  return DeviceMemory{static_cast<char*>(arena.memory.ptr) + arena_offsets_[a.index()], a.size()};
}

absl::Status Executable::FinishExecution(Stream& stream, std::unique_ptr<Arena> arena) const {
  absl::Status drained = stream.Synchronize();
  if (drained.ok()) {
    ReturnArena(std::move(arena));
  } else {
    DropArena(std::move(arena));
  }
  return drained;
}

absl::StatusOr<std::vector<std::vector<uint8_t>>> Executable::Execute(
    absl::Span<const absl::Span<const uint8_t>> arguments, const ExecuteOptions& options) const {
  std::vector<std::vector<uint8_t>> results(proto_.result().leaves_size());
  std::vector<absl::Span<uint8_t>> spans(results.size());
  for (size_t i = 0; i < results.size(); ++i) {
    results[i].resize(static_cast<size_t>(proto_.result().leaves(i).slice().size()));
    spans[i] = absl::MakeSpan(results[i]);
  }
  AOT_RETURN_IF_ERROR(ExecuteInto(arguments, spans, options));
  return results;
}

absl::Status Executable::ExecuteInto(absl::Span<const absl::Span<const uint8_t>> arguments,
                                     absl::Span<const absl::Span<uint8_t>> results,
                                     const ExecuteOptions& options) const {
  AOT_RETURN_IF_ERROR(CheckCanExecute(arguments.size(), options));
  for (size_t i = 0; i < arguments.size(); ++i) {
    int64_t expected = parameters_[i].slice().size();
    if (static_cast<int64_t>(arguments[i].size()) != expected) {
      return absl::InvalidArgumentError(
          absl::StrCat("argument ", i, " has ", arguments[i].size(), " bytes, parameter ", i, " (",
                       runtime_shape::ToString(parameters_[i].shape()), ") needs ", expected));
    }
  }
  const EntryResultProto& result = proto_.result();
  if (static_cast<int>(results.size()) != result.leaves_size()) {
    return absl::InvalidArgumentError(absl::StrCat("executable has ", result.leaves_size(),
                                                   " result leaves, got ", results.size(),
                                                   " result buffers"));
  }
  for (int i = 0; i < result.leaves_size(); ++i) {
    if (static_cast<int64_t>(results[i].size()) != result.leaves(i).slice().size()) {
      return absl::InvalidArgumentError(
          absl::StrCat("result buffer ", i, " has ", results[i].size(), " bytes, result leaf ", i,
                       " (", runtime_shape::ToString(result.leaves(i).shape()), ") needs ",
                       result.leaves(i).slice().size()));
    }
  }
  const bool host = platform_->kind() == PLATFORM_HOST;
  AOT_ASSIGN_OR_RETURN(std::unique_ptr<Stream> stream, platform_->AcquireStream());
  AOT_ASSIGN_OR_RETURN(std::unique_ptr<Arena> arena, TakeArena());
  std::vector<DeviceMemory>& memory = arena->table;
  std::fill(memory.begin(), memory.end(), DeviceMemory{});
  // Host: a result leaf that is a whole allocation of its own is computed
  // in the caller's buffer when that is 64-byte aligned and overlaps no
  // argument and no other result (no copy out afterwards).
  absl::InlinedVector<bool, 8> in_place(results.size(), false);
  if (host) {
    auto overlaps = [](const void* a, size_t a_size, const void* b, size_t b_size) {
      auto x = reinterpret_cast<uintptr_t>(a), y = reinterpret_cast<uintptr_t>(b);
      return x < y + b_size && y < x + a_size;
    };
    for (size_t i = 0; i < results.size(); ++i) {
      if (result_in_place_[i] < 0 || reinterpret_cast<uintptr_t>(results[i].data()) % 64 != 0) {
        continue;
      }
      bool disjoint = true;
      for (const absl::Span<const uint8_t>& arg : arguments) {
        disjoint =
            disjoint && !overlaps(results[i].data(), results[i].size(), arg.data(), arg.size());
      }
      for (size_t j = 0; j < results.size(); ++j) {
        disjoint = disjoint && (j == i || !overlaps(results[i].data(), results[i].size(),
                                                    results[j].data(), results[j].size()));
      }
      if (!disjoint) continue;
      in_place[i] = true;
      memory[result_in_place_[i]] =
          DeviceMemory{results[i].data(), static_cast<int64_t>(results[i].size())};
    }
  }
  absl::Status status;
  for (const BufferAllocationProto& a : proto_.buffer_allocations()) {
    DeviceMemory& m = memory[a.index()];
    if (a.kind() == BufferAllocationProto::CONSTANT) {
      m = constants_[a.index()];
      continue;
    }
    if (m.ptr != nullptr) continue;  // a result computed in place
    m = ArenaSlot(*arena, a);
    if (a.kind() == BufferAllocationProto::PARAMETER) {
      absl::Span<const uint8_t> arg = arguments[a.parameter_number()];
      // Host: use the caller's bytes in place when suitably aligned (no
      // thunk writes a parameter that no result aliases: checked at load;
      // an aliased one gets its arena buffer and a copy).
      if (host && !aliased_allocation_[a.index()] &&
          reinterpret_cast<uintptr_t>(arg.data()) % 64 == 0) {
        m = DeviceMemory{const_cast<uint8_t*>(arg.data()), a.size()};
        continue;
      }
      if (a.size() > 0) {
        status = stream->CopyHostToDevice(arg.data(), m, a.size());
        if (!status.ok()) break;
      }
    }
  }
  if (status.ok()) {
    BufferAllocations allocations(memory);
    ExecuteParams params{platform_.get(), stream.get(), &allocations, &options};
    status = ExecuteSequence(thunks_, params);
    for (int i = 0; status.ok() && i < result.leaves_size(); ++i) {
      if (results[i].empty() || in_place[i]) continue;
      status = stream->CopyDeviceToHost(
          allocations.Resolve(BufferSlice::FromProto(result.leaves(i).slice())), results[i].data(),
          results[i].size());
    }
  }
  // Work queued on the stream may still use the arena: wait for it before
  // another execution takes the arena (also on error paths).
  status.Update(FinishExecution(*stream, std::move(arena)));
  return status;
}

absl::StatusOr<std::vector<std::unique_ptr<DeviceBuffer>>> Executable::ExecuteBuffers(
    absl::Span<DeviceBuffer* const> arguments, absl::Span<const int64_t> non_donatable,
    const ExecuteOptions& options) const {
  AOT_RETURN_IF_ERROR(CheckCanExecute(arguments.size(), options));
  for (size_t i = 0; i < arguments.size(); ++i) {
    if (arguments[i] == nullptr) {
      return absl::InvalidArgumentError(absl::StrCat("argument ", i, " is null"));
    }
    AOT_RETURN_IF_ERROR(arguments[i]->CheckUsable(absl::StrCat("argument ", i)));
    if (arguments[i]->platform() != platform_.get()) {
      return absl::InvalidArgumentError(
          absl::StrCat("argument ", i, " lives on another platform instance than the executable"));
    }
    if (!runtime_shape::SameShape(arguments[i]->shape(), parameters_[i].shape())) {
      return absl::InvalidArgumentError(
          absl::StrCat("argument ", i, " is ", runtime_shape::ToString(arguments[i]->shape()),
                       ", parameter ", i, " is ", runtime_shape::ToString(parameters_[i].shape())));
    }
  }
  for (int64_t n : non_donatable) {
    if (n < 0 || n >= static_cast<int64_t>(arguments.size())) {
      return absl::InvalidArgumentError(absl::StrCat(
          "non-donatable argument ", n, " is out of range [0, ", arguments.size(), ")"));
    }
  }
  // Donation: the result leaf that takes each donated argument's memory.
  std::vector<int64_t> donated_to(arguments.size(), -1);
  for (const InputOutputAliasProto& alias : proto_.input_output_aliases()) {
    const int64_t n = alias.parameter_number();
    if (absl::c_linear_search(non_donatable, n)) {
      if (alias.kind() == InputOutputAliasProto::MUST_ALIAS) {
        return absl::InvalidArgumentError(
            absl::StrCat("argument ", n, " must be donated: result leaf ", alias.result_leaf(),
                         " must alias it (must-alias), but it is listed as non-donatable"));
      }
      continue;
    }
    for (size_t j = 0; j < arguments.size(); ++j) {
      if (static_cast<int64_t>(j) != n && arguments[j] == arguments[n]) {
        return absl::InvalidArgumentError(
            absl::StrCat("argument ", n, " is donated (result leaf ", alias.result_leaf(),
                         " aliases it) but the same buffer is also argument ", j, "; list ", n,
                         " as non-donatable or pass a copy"));
      }
    }
    donated_to[n] = alias.result_leaf();
  }
  const EntryResultProto& result = proto_.result();
  std::vector<std::unique_ptr<DeviceBuffer>> results(result.leaves_size());
  AOT_ASSIGN_OR_RETURN(std::unique_ptr<Stream> stream, platform_->AcquireStream());
  AOT_ASSIGN_OR_RETURN(std::unique_ptr<Arena> arena, TakeArena());
  std::vector<DeviceMemory>& memory = arena->table;
  std::fill(memory.begin(), memory.end(), DeviceMemory{});
  absl::Status status = [&]() -> absl::Status {
    // Leaves computed in a buffer of their own: a whole allocation, or the
    // buffer of the parameter they alias.
    for (int i = 0; i < result.leaves_size(); ++i) {
      const OutputLeafProto& leaf = result.leaves(i);
      const int64_t allocation = leaf.slice().allocation_index();
      if (alias_of_leaf_[i] != nullptr) {
        const int64_t n = alias_of_leaf_[i]->parameter_number();
        if (donated_to[n] == i) continue;  // takes the argument's memory below
        AOT_ASSIGN_OR_RETURN(results[i], DeviceBuffer::Allocate(platform_, leaf.shape()));
        AOT_RETURN_IF_ERROR(stream->CopyDeviceToDevice(arguments[n]->memory(), results[i]->memory(),
                                                       leaf.slice().size()));
        memory[allocation] = results[i]->memory();
      } else if (result_in_place_[i] >= 0) {
        AOT_ASSIGN_OR_RETURN(results[i], DeviceBuffer::Allocate(platform_, leaf.shape()));
        memory[allocation] = results[i]->memory();
      }
    }
    for (const BufferAllocationProto& a : proto_.buffer_allocations()) {
      DeviceMemory& m = memory[a.index()];
      if (a.kind() == BufferAllocationProto::CONSTANT) {
        m = constants_[a.index()];
      } else if (m.ptr != nullptr) {
        continue;  // a result's own buffer
      } else if (a.kind() == BufferAllocationProto::PARAMETER) {
        m = arguments[a.parameter_number()]->memory();
      } else {
        m = ArenaSlot(*arena, a);
      }
    }
    // The execution starts: donated arguments become their results.
    for (size_t n = 0; n < arguments.size(); ++n) {
      if (donated_to[n] < 0) continue;
      const OutputLeafProto& leaf = result.leaves(static_cast<int>(donated_to[n]));
      results[donated_to[n]] =
          DeviceBuffer::Adopt(platform_, leaf.shape(), arguments[n]->Release());
    }
    BufferAllocations allocations(memory);
    ExecuteParams params{platform_.get(), stream.get(), &allocations, &options};
    AOT_RETURN_IF_ERROR(ExecuteSequence(thunks_, params));
    for (int i = 0; i < result.leaves_size(); ++i) {
      if (results[i] != nullptr) continue;
      const OutputLeafProto& leaf = result.leaves(i);
      AOT_ASSIGN_OR_RETURN(results[i], DeviceBuffer::Allocate(platform_, leaf.shape()));
      if (leaf.slice().size() == 0) continue;
      AOT_RETURN_IF_ERROR(
          stream->CopyDeviceToDevice(allocations.Resolve(BufferSlice::FromProto(leaf.slice())),
                                     results[i]->memory(), leaf.slice().size()));
    }
    return absl::OkStatus();
  }();
  // Work queued on the stream may still use the arena and the results.
  status.Update(FinishExecution(*stream, std::move(arena)));
  AOT_RETURN_IF_ERROR(status);
  return results;
}

ExecutableProto Executable::ToProto() const {
  ExecutableProto proto = proto_;
  if (binary_size_ >= 0) {
    // Load moved the constants' bytes to their (host) buffers.
    std::string binary(static_cast<size_t>(binary_size_), '\0');
    for (const ConstantProto& c : proto.constants()) {
      if (c.size() == 0) continue;
      std::memcpy(binary.data() + c.binary_offset(), constants_[c.allocation_index()].ptr,
                  static_cast<size_t>(c.size()));
    }
    proto.set_binary(std::move(binary));
  }
  proto.clear_thunks();
  for (const auto& thunk : thunks_) thunk->AppendToProto(proto.mutable_thunks());
  return proto;
}

std::string Executable::SerializeExecutable() const {
  ExecutableProto proto = ToProto();
  std::string bytes = SerializeDeterministic(proto);
  return bytes;
}

}  // namespace aot
