#include "compiler/backend/compiler.h"

#include <atomic>
#include <chrono>
#include <functional>
#include <map>

#include "absl/algorithm/container.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "compiler/backend/buffer_assignment.h"
#include "compiler/backend/collective_emission.h"
#include "compiler/backend/compile_dumps.h"
#include "compiler/backend/compile_env_flags.h"
#include "compiler/backend/cudnn_convolution.h"
#include "compiler/backend/embedded_constants.h"
#include "compiler/backend/thunk_emitter.h"
#include "compiler/codegen/llvm_backend.h"
#include "compiler/passes/dot_upcast.h"
#include "compiler/passes/hlo_pass.h"
#include "compiler/rollout/emission_ledger.h"
#include "compiler/verifier/hlo_verifier.h"
#include "google/protobuf/io/coded_stream.h"
#include "google/protobuf/io/zero_copy_stream_impl_lite.h"
#include "google/protobuf/text_format.h"
#include "llvm/Config/llvm-config.h"
#include "runtime/abi_version.h"
#include "runtime/shape_util.h"
#include "support/build_info.h"
#include "support/date.h"
#include "support/proto_util.h"
#include "support/sha256.h"
#include "support/status_macros.h"

namespace aot {

namespace {

std::unique_ptr<HloModule> CloneModule(const HloModule& module) { return module.Clone(); }

}  // namespace

AbiVersionProto AbiVersionFor(const TargetConfigProto& target) {
  AbiVersionProto abi;
  abi.set_runtime_abi_version(kRuntimeAbiVersion);
  VersionProto* llvm_built = abi.mutable_llvm()->mutable_built_with();
  llvm_built->set_major(LLVM_VERSION_MAJOR);
  llvm_built->set_minor(LLVM_VERSION_MINOR);
  llvm_built->set_patch(LLVM_VERSION_PATCH);
  if (target.platform() == PLATFORM_HOST) {
    // ELF objects of the x86-64 psABI, linked with JITLink from LLVM 19.
    abi.mutable_llvm()->mutable_minimum()->set_major(19);
  } else {
    // PTX ISA 7.8 needs a CUDA 11.8+ driver; the runtime's CUDA support is
    // built against CUDA 12 or newer.
    abi.mutable_cuda()->mutable_minimum()->set_major(12);
    const PtxasInfo& ptxas = FindPtxas();
    if (!ptxas.path.empty()) {
      abi.mutable_ptxas()->mutable_built_with()->set_major(ptxas.major);
      abi.mutable_ptxas()->mutable_built_with()->set_minor(ptxas.minor);
    }
  }
  return abi;
}

absl::StatusOr<std::unique_ptr<HloModule>> OptimizeHlo(const HloModule& module,
                                                       const CompileOptions& options,
                                                       CompilerStage stop_after) {
  std::unique_ptr<HloModule> optimized = CloneModule(module);
  if (optimized == nullptr) {
    return absl::InternalError("cannot copy the module (it does not print back to HLO)");
  }
  AOT_RETURN_IF_ERROR(ExpandBeforePipeline(optimized.get()));
  PipelineOptions pipeline_options;
  pipeline_options.enable_fusion = options.enable_fusion;
  pipeline_options.enable_constant_folding = options.enable_constant_folding;
  HloPassPipeline pipeline = DefaultPipeline(pipeline_options);
  pipeline.set_verifier([](const HloModule& m) { return VerifyHloModule(m); });
  AOT_RETURN_IF_ERROR(stop_after == CompilerStage::kHloOptimized
                          ? pipeline.RunThroughStage(optimized.get(), "layout")
                          : pipeline.Run(optimized.get()));
  return optimized;
}

namespace {

// Every instruction of every computation is one this backend supports on
// the target: checked once, before any buffer is assigned or kernel emitted.
absl::Status CheckModuleSupported(const HloModule& module, PlatformKind platform) {
  for (HloComputation* c : module.computations()) {
    for (HloInstruction* i : c->instructions()) {
      AOT_RETURN_IF_ERROR(CheckSupported(*i, platform));
    }
  }
  return absl::OkStatus();
}

// Opcodes behind an emission flag of the staged rollout (CONTRACT.md s. 6)
// compile only with the flag on, by default or for this compile: runtimes
// released before the flag's runtime support reject them.
// Whether the compile may emit what `flag` gates: on by default, or turned
// on for this compile.
bool EmissionFlagOn(const EmissionFlag& flag, const CompileOptions& options) {
  return flag.enabled_by_default || absl::c_linear_search(options.emission_flags, flag.name);
}

// "<what> is behind the emission flag 'F' (--xla_aot_F=true), off by
// default until <support + 14 days> ...": what a compile that needs a flag
// that is off reports.
absl::Status FlagOffError(absl::string_view what, const EmissionFlag& flag, absl::string_view why) {
  std::string until = flag.runtime_support_since;
  if (auto support = Date::Parse(flag.runtime_support_since); support.ok()) {
    until = support->MinusDays(-kForwardWindowDays).ToString();
  }
  const std::string on = absl::StrCat(EmissionFlagCommandLine(flag.name), "=true");
  return absl::UnimplementedError(absl::StrCat(
      what, " is behind the emission flag '", flag.name, "' (", on, "), off by default until ",
      until, " (", kForwardWindowDays, " days after its runtime support on ",
      flag.runtime_support_since, ") since ", why, "; pass ", on, " (or --emission_flags=",
      flag.name, ") if every runtime that will load the artifact is at least that new"));
}

// The element types of 2026-12-03 are read by runtimes since then (phase 1
// of their staged rollout) and by the front end and the interpreter. They
// compile with the emission flag emit_extended_element_types on (phase 2:
// ExpandComplexArithmetic computes on the parts of complex values,
// ExpandNarrowTypes widens computations on the narrow types). Refused
// before any pass sees them, naming the first instruction that holds one.
absl::Status CheckElementTypesEmitted(const HloModule& module, const CompileOptions& options) {
  const EmissionFlag* flag = FindEmissionFlag("emit_extended_element_types");
  if (EmissionFlagOn(*flag, options)) return absl::OkStatus();
  for (HloComputation* c : module.computations()) {
    for (HloInstruction* i : c->instructions()) {
      const bool complex = HasComplexLeaf(i->shape());
      if (!complex && !HasNarrowLeaf(i->shape())) continue;
      return FlagOffError(
          absl::StrCat(DescribeInstruction(*i), ": its ", complex ? "complex" : "narrow",
                       " element type (", i->shape().ToString(false), ")"),
          *flag, "older runtimes reject it");
    }
  }
  return absl::OkStatus();
}

// Packed sub-byte entry values (XLA's E(n) on an entry parameter or result
// leaf) compile only with emit_packed_sub_byte_layouts on: runtimes before
// its support size such a buffer one byte per element.
absl::Status CheckPackedLayoutsEmitted(const ProgramShape& abi, const CompileOptions& options) {
  const EmissionFlag* flag = FindEmissionFlag("emit_packed_sub_byte_layouts");
  if (EmissionFlagOn(*flag, options)) return absl::OkStatus();
  for (size_t i = 0; i < abi.parameters.size(); ++i) {
    if (HasPackedLeaf(abi.parameters[i])) {
      return FlagOffError(absl::StrCat("entry parameter ", i, "'s packed layout (",
                                       abi.parameters[i].ToString(), ")"),
                          *flag, "older runtimes size the buffer one byte per element");
    }
  }
  if (HasPackedLeaf(abi.result)) {
    return FlagOffError(
        absl::StrCat("the entry result's packed layout (", abi.result.ToString(), ")"), *flag,
        "older runtimes size the buffer one byte per element");
  }
  return absl::OkStatus();
}

// How a refusal names `i` of the optimized module: as the instruction of
// `source` it stands for where a pass made it. ExpandRngs makes the
// rng-get-and-update-state each computation's draws take the state with,
// so that refusal names the user's rng instructions.
std::string RefusedInstruction(const HloInstruction& i, const HloModule& source) {
  std::string what = absl::StrCat("instruction '", i.name(), "' (", HloOpcodeString(i.opcode()));
  if (i.opcode() == HloOpcode::kRngGetAndUpdateState) {
    std::vector<std::string> draws;
    bool written = false;
    for (HloComputation* c : source.computations()) {
      for (HloInstruction* s : c->instructions()) {
        if (s->opcode() == HloOpcode::kRng) draws.push_back(absl::StrCat("'", s->name(), "'"));
        written |= s->opcode() == i.opcode() && s->name() == i.name();
      }
    }
    if (!written && !draws.empty()) {
      absl::StrAppend(&what, ", the random state taken for rng ", absl::StrJoin(draws, ", "));
    }
  }
  return absl::StrCat(what, ")");
}

absl::Status CheckEmissionFlags(const HloModule& module, const HloModule& source,
                                const CompileOptions& options) {
  for (const std::string& name : options.emission_flags) {
    if (FindEmissionFlag(name) == nullptr) {
      std::vector<std::string> known;
      for (const EmissionFlag& f : EmissionLedger()) known.push_back(f.name);
      return absl::InvalidArgumentError(absl::StrCat(
          "unknown emission flag '", name, "' (known: ", absl::StrJoin(known, ", "), ")"));
    }
  }
  for (HloComputation* c : module.computations()) {
    for (HloInstruction* i : c->instructions()) {
      if (i->opcode() == HloOpcode::kCustomCall) {
        // Handlers released runtimes lack: behind their flag.
        const std::string& target = i->attrs().custom_call_target;
        const EmissionFlag* flag = EmissionFlagForCustomCall(target);
        if (flag != nullptr && !EmissionFlagOn(*flag, options)) {
          return FlagOffError(
              absl::StrCat(RefusedInstruction(*i, source), ": custom-call target '", target, "'"),
              *flag, "older runtimes have no handler of that name");
        }
      }
      absl::string_view opcode = HloOpcodeString(i->opcode());
      const EmissionFlag* flag = EmissionFlagForOpcode(opcode);
      if (flag == nullptr || EmissionFlagOn(*flag, options)) continue;
      return FlagOffError(absl::StrCat(RefusedInstruction(*i, source), ": the opcode"), *flag,
                          "older runtimes reject it");
    }
  }
  if (ParticipantCount(module) > 1) {
    const EmissionFlag* flag = FindEmissionFlag("emit_collectives");
    if (!EmissionFlagOn(*flag, options)) {
      return FlagOffError(absl::StrCat("the module's ", module.config().replica_count,
                                       " replicas x ", module.config().num_partitions,
                                       " partitions (a multi-participant executable)"),
                          *flag, "older runtimes would run it as one replica");
    }
  }
  return absl::OkStatus();
}

// input_output_alias is honoured only with its emission flag on: older
// runtimes reject thunks that write a parameter. Off, a may-alias entry is
// dropped (the result gets a buffer of its own, which "may" allows) and a
// must-alias one is an error.
absl::Status ApplyInputOutputAliasFlag(HloModule& module, const CompileOptions& options) {
  constexpr absl::string_view kFlag = "emit_input_output_alias";
  const EmissionFlag* flag = FindEmissionFlag(kFlag);
  std::vector<HloInputOutputAlias>& aliases = module.mutable_config()->input_output_aliases;
  if (aliases.empty() || EmissionFlagOn(*flag, options)) return absl::OkStatus();
  for (const HloInputOutputAlias& a : aliases) {
    if (!a.must_alias) continue;
    AOT_ASSIGN_OR_RETURN(Date support, Date::Parse(flag->runtime_support_since));
    return absl::UnimplementedError(absl::StrCat(
        "input_output_alias ", a.ToString(), ": must-alias needs the emission flag '", kFlag,
        "', off by default until ", support.MinusDays(-kForwardWindowDays).ToString(), " (",
        kForwardWindowDays, " days after its runtime support on ", flag->runtime_support_since,
        "), since older runtimes reject thunks that write a parameter; pass --emission_flags=",
        kFlag,
        " if every runtime that will load the artifact is at least that new, or make it "
        "may-alias"));
  }
  aliases.clear();
  return absl::OkStatus();
}

// Constants: each one's physical bytes stored once in `binary`, 8-byte
// aligned (identical constants share their bytes).
void PackConstants(const BufferAssignment& assignment, ExecutableProto* e) {
  std::map<std::string, int64_t> stored;
  std::string binary;
  for (const auto& [allocation, value] : assignment.constants()) {
    const auto& [instr, leaf] = value;
    const Literal& literal = *instr->literal().Leaves()[leaf];
    std::string bytes(static_cast<size_t>(literal.shape().ByteSize()), '\0');
    ShapeProto shape = literal.shape().ToProto();
    if (!bytes.empty()) {
      runtime_shape::LogicalToPhysical(shape, literal.raw().data(),
                                       reinterpret_cast<uint8_t*>(bytes.data()));
    }
    auto it = stored.find(bytes);
    int64_t offset;
    if (it != stored.end()) {
      offset = it->second;
    } else {
      while (binary.size() % 8 != 0) binary.push_back('\0');
      offset = static_cast<int64_t>(binary.size());
      binary += bytes;
      stored.emplace(bytes, offset);
    }
    ConstantProto* c = e->add_constants();
    c->set_name(instr->shape().IsTuple() ? absl::StrCat(instr->name(), "{", leaf, "}")
                                         : instr->name());
    c->set_allocation_index(allocation);
    c->set_binary_offset(offset);
    c->set_size(static_cast<int64_t>(bytes.size()));
  }
  e->set_binary(binary);
}

// The shape index of every leaf of `shape`, depth first.
std::vector<ShapeIndex> LeafIndices(const Shape& shape) {
  std::vector<ShapeIndex> indices;
  std::function<void(const Shape&, ShapeIndex&)> collect = [&](const Shape& s, ShapeIndex& idx) {
    if (!s.IsTuple()) {
      indices.push_back(idx);
      return;
    }
    for (int64_t i = 0; i < static_cast<int64_t>(s.tuple_shapes().size()); ++i) {
      idx.push_back(i);
      collect(s.tuple_shapes(i), idx);
      idx.pop_back();
    }
  };
  ShapeIndex root_index;
  collect(shape, root_index);
  return indices;
}

// The entry interface: each parameter's shape and slice, the result's shape
// and each result leaf's index, shape and slice. `abi` is the source
// module's entry signature: where it packs a leaf (E(n)), the optimized
// module holds that leaf's u8 buffer (LowerSubBytePacking), and the
// executable records the packed shape (the same bytes).
absl::Status AddEntryInterface(const HloModule& m, const ProgramShape& abi,
                               const BufferAssignment& assignment, ExecutableProto* e) {
  auto recorded = [](const Shape& leaf, const Shape* source) {
    return source != nullptr && source->IsArray() && source->element_size_in_bits() != 0 ? *source
                                                                                         : leaf;
  };
  const HloComputation* entry = m.entry_computation();
  // Parameters: one per array leaf, depth-first (BufferAssignment numbers
  // tuple-typed parameters' leaves the same way).
  int64_t flat_number = 0;
  for (const HloInstruction* p : entry->parameter_instructions()) {
    std::vector<Shape> leaves = p->shape().FlattenLeaves();
    std::vector<ShapeIndex> indices = LeafIndices(p->shape());
    for (size_t i = 0; i < leaves.size(); ++i) {
      EntryParameterProto* param = e->add_parameters();
      param->set_parameter_number(flat_number++);
      const int64_t number = p->parameter_number();
      const Shape* source = number >= 0 && number < static_cast<int64_t>(abi.parameters.size())
                                ? abi.parameters[number].FindSubshape(indices[i])
                                : nullptr;
      *param->mutable_shape() = recorded(leaves[i], source).ToProto();
      AOT_ASSIGN_OR_RETURN(*param->mutable_slice(), assignment.GetSlice(*p, indices[i]));
    }
  }
  const Shape& result_shape = entry->root_instruction()->shape();
  std::vector<Shape> leaves = result_shape.FlattenLeaves();
  const auto& result_slices = assignment.result_slices();
  std::vector<ShapeIndex> indices = LeafIndices(result_shape);
  Shape recorded_result = result_shape;
  for (size_t i = 0; i < leaves.size(); ++i) {
    leaves[i] = recorded(leaves[i], abi.result.FindSubshape(indices[i]));
    if (indices[i].empty()) {
      recorded_result = leaves[i];
      continue;
    }
    Shape* s = &recorded_result;
    for (int64_t x : indices[i]) s = &(*s->mutable_tuple_shapes())[x];
    *s = leaves[i];
  }
  *e->mutable_result()->mutable_shape() = recorded_result.ToProto();
  for (size_t i = 0; i < leaves.size(); ++i) {
    OutputLeafProto* leaf = e->mutable_result()->add_leaves();
    for (int64_t x : indices[i]) leaf->add_shape_index(x);
    *leaf->mutable_shape() = leaves[i].ToProto();
    *leaf->mutable_slice() = result_slices[i];
  }
  for (const BufferAssignment::ResultAlias& a : assignment.result_aliases()) {
    InputOutputAliasProto* alias = e->add_input_output_aliases();
    alias->set_result_leaf(a.result_leaf);
    alias->set_parameter_number(a.parameter_number);
    alias->set_kind(a.must_alias ? InputOutputAliasProto::MUST_ALIAS
                                 : InputOutputAliasProto::MAY_ALIAS);
  }
  return absl::OkStatus();
}

// Who compiled what, from which module, with which non-default options.
void AddMetadata(const TargetConfigProto& target, const CompileOptions& options,
                 ExecutableProto* e) {
  ExecutableMetadataProto* md = e->mutable_metadata();
  md->set_compiler_version(BuildGitDescribe());
  md->set_module_fingerprint(Sha256Hex(SerializeDeterministic(e->hlo_module())));
  md->set_target_name(target.name());
  md->set_source_path(options.source_path);
  if (!options.enable_fusion) {
    NamedStringProto* o = md->add_compile_options();
    o->set_name("fusion");
    o->set_value("off");
  }
  if (!options.enable_constant_folding) {
    NamedStringProto* o = md->add_compile_options();
    o->set_name("constant_folding");
    o->set_value("off");
  }
}

}  // namespace

absl::StatusOr<std::unique_ptr<CompiledModule>> Compile(const HloModule& module,
                                                        const TargetConfigProto& target,
                                                        const CompileOptions& given_options) {
  // XLA_AOT_FLAGS, read here so that any program compiling through this
  // library honours it.
  AOT_ASSIGN_OR_RETURN(EnvironmentCompileFlags env, ReadCompileFlagsFromEnvironment());
  CompileOptions options = given_options;
  for (const std::string& f : env.emission_flags_on) {
    if (!absl::c_linear_search(options.emission_flags, f)) options.emission_flags.push_back(f);
  }
  for (const std::string& f : env.emission_flags_off) {
    options.emission_flags.erase(
        std::remove(options.emission_flags.begin(), options.emission_flags.end(), f),
        options.emission_flags.end());
  }
  if (!env.dump_to.empty()) options.keep_dumps = true;
  auto start = std::chrono::steady_clock::now();
  auto phase_start = start;
  std::vector<std::pair<std::string, double>> phases;
  auto end_phase = [&](const char* name) {
    auto now = std::chrono::steady_clock::now();
    phases.emplace_back(name, std::chrono::duration<double, std::milli>(now - phase_start).count());
    phase_start = now;
  };
  AOT_RETURN_IF_ERROR(VerifyHloModule(module));
  AOT_RETURN_IF_ERROR(CheckElementTypesEmitted(module, options));
  // The entry signature as the caller sees it, before LowerSubBytePacking
  // turns packed leaves into u8 buffers.
  const ProgramShape abi =
      module.config().entry_computation_layout.value_or(module.EntryProgramShape());
  AOT_RETURN_IF_ERROR(CheckPackedLayoutsEmitted(abi, options));
  end_phase("verify");
  AOT_ASSIGN_OR_RETURN(auto optimized, OptimizeHlo(module, options));
  HloModule& m = *optimized;
  if (target.platform() == PLATFORM_HOST) {
    AOT_RETURN_IF_ERROR(DotUpcast().Run(&m).status());
  }
  const bool cudnn_convolutions =
      target.platform() == PLATFORM_CUDA &&
      EmissionFlagOn(*FindEmissionFlag("emit_cudnn_convolution"), options);
  if (cudnn_convolutions) AOT_RETURN_IF_ERROR(PackCudnnFilters(&m).status());
  AOT_RETURN_IF_ERROR(MakeCollectiveDimensionsMajor(&m).status());
  m.Renumber();
  AOT_RETURN_IF_ERROR(CheckModuleSupported(m, target.platform()));
  AOT_RETURN_IF_ERROR(CheckEmissionFlags(m, module, options));
  AOT_RETURN_IF_ERROR(ApplyInputOutputAliasFlag(m, options));
  end_phase("hlo passes");
  AOT_ASSIGN_OR_RETURN(auto assignment, BufferAssignment::Run(m));
  end_phase("buffer assignment");

  KernelEmitOptions kernel_options;
  kernel_options.keep_llvm_ir = options.keep_dumps;
  kernel_options.compile_cubin = options.compile_cubin;
  kernel_options.compile_threads = options.compile_threads;
  ThunkEmitter emitter(*assignment, target, kernel_options);
  emitter.set_low_precision_gemm(
      EmissionFlagOn(*FindEmissionFlag("emit_low_precision_gemm"), options));
  emitter.set_cudnn_convolutions(cudnn_convolutions);
  AOT_ASSIGN_OR_RETURN(auto thunks, emitter.EmitEntry(m));
  end_phase("thunks and kernels");

  auto compiled = std::unique_ptr<CompiledModule>(new CompiledModule());
  ExecutableProto& e = compiled->proto_;
  e.set_name(module.name());
  for (ThunkProto& t : thunks) *e.add_thunks() = std::move(t);
  for (const BufferAllocationProto& a : assignment->allocations()) {
    *e.add_buffer_allocations() = a;
  }
  PackConstants(*assignment, &e);
  *e.mutable_capability() = target.device_description().capability();
  *e.mutable_abi_version() = AbiVersionFor(target);
  *e.mutable_hlo_module()->mutable_hlo_module() = m.ToProto();
  *e.mutable_hlo_module()->mutable_config() = m.ConfigToProto();
  if (ParticipantCount(m) > 1) *e.mutable_device_assignment() = DeviceAssignmentFor(m);
  ElideEmbeddedConstantPayloads(&e);
  AOT_RETURN_IF_ERROR(AddEntryInterface(m, abi, *assignment, &e));
  AddMetadata(target, options, &e);

  end_phase("executable proto");
  if (options.keep_dumps) {
    compiled->optimized_hlo_ = m.ToString();
    compiled->buffer_assignment_ = assignment->ToString();
  }
  for (const CompiledKernel& k : emitter.kernels()) {
    if (options.keep_dumps) {
      absl::StrAppend(&compiled->llvm_ir_, "; kernel ", k.name, "\n", k.optimized_llvm_ir, "\n");
      absl::StrAppend(&compiled->unoptimized_llvm_ir_, "; kernel ", k.name, "\n", k.llvm_ir, "\n");
    }
    if (k.binary.format() == KernelBinaryProto::CUDA_PTX) {
      absl::StrAppend(&compiled->ptx_, "// kernel ", k.name, "\n", k.binary.ptx(), "\n");
    }
  }
  compiled->kernel_count_ = static_cast<int64_t>(emitter.kernels().size());
  compiled->gemm_count_ = emitter.gemm_count();
  end_phase("dumps");
  compiled->phase_ms_ = std::move(phases);
  compiled->compile_ms_ =
      std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
  if (!env.dump_to.empty()) {
    // Every compile of the process, numbered as XLA numbers its dumps.
    static std::atomic<int> dumped{0};
    StageDumper dumper(env.dump_to, absl::StrFormat("module_%04d.%s", ++dumped, module.name()));
    AOT_RETURN_IF_ERROR(dumper.Write(".hlo", module.ToString()));
    AOT_RETURN_IF_ERROR(dumper.WriteCompiled(*compiled, target.platform()));
  }
  return compiled;
}

std::string CompiledModule::SerializeAsString() const { return SerializeDeterministic(proto_); }

absl::StatusOr<std::unique_ptr<Executable>> CompiledModule::LoadExecutable(
    const Client& client) const {
  return client.Load(proto_);
}

std::string CompiledModule::ThunksToString() const {
  ExecutableProto copy = proto_;
  std::function<void(google::protobuf::RepeatedPtrField<ThunkProto>*)> strip =
      [&](google::protobuf::RepeatedPtrField<ThunkProto>* thunks) {
        for (ThunkProto& t : *thunks) {
          if (t.has_kernel()) {
            KernelBinaryProto* b = t.mutable_kernel()->mutable_binary();
            std::string summary = absl::StrCat(
                "<", b->object().size() + b->ptx().size() + b->cubin().size(), " bytes>");
            b->clear_object();
            b->clear_cubin();
            b->set_ptx(summary);
          }
          if (t.has_sequential()) strip(t.mutable_sequential()->mutable_thunks());
          if (t.has_while_loop()) {
            strip(t.mutable_while_loop()->mutable_condition()->mutable_thunks());
            strip(t.mutable_while_loop()->mutable_body()->mutable_thunks());
          }
          if (t.has_conditional()) {
            for (auto& b : *t.mutable_conditional()->mutable_branches()) {
              strip(b.mutable_thunks());
            }
          }
        }
      };
  strip(copy.mutable_thunks());
  std::string text;
  google::protobuf::TextFormat::PrintToString(copy, &text);
  // Only the execution-relevant parts: drop the embedded HLO text.
  ExecutableProto thunks_only;
  *thunks_only.mutable_thunks() = copy.thunks();
  *thunks_only.mutable_buffer_allocations() = copy.buffer_allocations();
  google::protobuf::TextFormat::PrintToString(thunks_only, &text);
  return text;
}

}  // namespace aot
