#include "harness/release/forward_check.h"

#include <tuple>

#include "absl/algorithm/container.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"
#include "google/protobuf/unknown_field_set.h"
#include "harness/schema/annotations.h"
#include "harness/schema/reachability.h"
#include "harness/schema/schema_check.h"
#include "proto/executable.pb.h"
#include "runtime/platform/host/host_kernel_loader.h"
#include "support/status_macros.h"

namespace aot {
namespace {

using google::protobuf::Descriptor;
using google::protobuf::FieldDescriptor;
using google::protobuf::Message;
using google::protobuf::Reflection;
using google::protobuf::UnknownFieldSet;

std::string FieldPath(const std::string& path, const FieldDescriptor* f, int index) {
  std::string p = path.empty() ? f->name() : absl::StrCat(path, ".", f->name());
  if (index >= 0) absl::StrAppend(&p, "[", index, "]");
  return p;
}

// "19.1.7" -> (19, 1, 7); missing parts are 0.
std::tuple<int, int, int> ParseVersion(const std::string& text) {
  int parts[3] = {0, 0, 0};
  int i = 0;
  for (absl::string_view piece : absl::StrSplit(text, '.')) {
    if (i == 3) break;
    if (!absl::SimpleAtoi(piece, &parts[i])) parts[i] = 0;
    ++i;
  }
  return {parts[0], parts[1], parts[2]};
}

}  // namespace

nlohmann::ordered_json ForwardFinding::ToJson() const {
  return {{"release", release}, {"target", target}, {"test", test},      {"severity", severity},
          {"rule", rule},       {"path", path},     {"message", message}};
}

std::string ForwardFinding::ToString() const {
  return absl::StrCat(severity, ": ", rule, ": release ", release, ": ", target, "/", test, ": ",
                      path.empty() ? "" : absl::StrCat(path, ": "), message);
}

absl::StatusOr<std::unique_ptr<ForwardChecker>> ForwardChecker::Create(
    ReleaseSnapshot release, const google::protobuf::FileDescriptorSet& release_schema,
    const google::protobuf::DescriptorPool* head_pool) {
  auto checker = std::unique_ptr<ForwardChecker>(new ForwardChecker());
  AOT_ASSIGN_OR_RETURN(auto pool,
                       BuildDescriptorPool(release_schema, absl::StrCat("release ", release.id)));
  checker->release_pool_ = std::move(pool);
  checker->root_ = checker->release_pool_->FindMessageTypeByName(kContractRoot);
  if (checker->root_ == nullptr) {
    return absl::InvalidArgumentError(
        absl::StrCat("release ", release.id, ": its schema lacks ", kContractRoot));
  }
  checker->factory_ =
      std::make_unique<google::protobuf::DynamicMessageFactory>(checker->release_pool_.get());
  checker->head_pool_ =
      head_pool != nullptr ? head_pool : google::protobuf::DescriptorPool::generated_pool();
  checker->release_ = std::move(release);
  return checker;
}

void ForwardChecker::Add(const ForwardArtifact& artifact, std::string severity, std::string rule,
                         std::string path, std::string message,
                         std::vector<ForwardFinding>* out) const {
  out->push_back({release_.id, artifact.target, artifact.test, std::move(severity), std::move(rule),
                  std::move(path), std::move(message)});
}

// Walks a message parsed with the release's schema: what the release would
// not understand shows up as unknown fields or unknown enum numbers.
void ForwardChecker::ScanMessage(const Message& message, const std::string& path,
                                 const ForwardArtifact& artifact,
                                 std::vector<ForwardFinding>* out) const {
  const Descriptor* d = message.GetDescriptor();
  const Reflection* r = message.GetReflection();
  const UnknownFieldSet& unknown = r->GetUnknownFields(message);
  const Descriptor* head = head_pool_->FindMessageTypeByName(d->full_name());
  for (int i = 0; i < unknown.field_count(); ++i) {
    int number = unknown.field(i).number();
    const FieldDescriptor* hf = head != nullptr ? head->FindFieldByNumber(number) : nullptr;
    std::string where = absl::StrCat(path.empty() ? "" : absl::StrCat(path, "."),
                                     hf != nullptr ? hf->name() : absl::StrCat("#", number));
    if (hf == nullptr) {
      Add(artifact, "error", "UNKNOWN_FIELD", where,
          absl::StrCat("field number ", number, " of ", d->full_name(),
                       " is unknown to the release and to the compiler's schema"),
          out);
    } else if (hf->real_containing_oneof() != nullptr) {
      Add(artifact, "error", "UNKNOWN_ONEOF_CASE", where,
          absl::StrCat(d->full_name(), ".", hf->containing_oneof()->name(), " case '", hf->name(),
                       "' (field ", number, ") is unknown to the release"),
          out);
    } else if (FieldAnnotation(hf).value.ignorable_by_older_runtimes()) {
      Add(artifact, "notice", "IGNORABLE_FIELD", where,
          absl::StrCat(hf->full_name(), " (field ", number,
                       ") is unknown to the release, which may ignore it (annotated "
                       "ignorable_by_older_runtimes)"),
          out);
    } else {
      Add(artifact, "error", "UNKNOWN_FIELD", where,
          absl::StrCat(hf->full_name(), " (field ", number,
                       ") is unknown to the release and not annotated "
                       "ignorable_by_older_runtimes: the release would misread the artifact"),
          out);
    }
  }
  for (int i = 0; i < d->field_count(); ++i) {
    const FieldDescriptor* f = d->field(i);
    if (f->cpp_type() == FieldDescriptor::CPPTYPE_ENUM) {
      auto check = [&](int value, int index) {
        if (f->enum_type()->FindValueByNumber(value) != nullptr) return;
        Add(artifact, "error", "UNKNOWN_ENUM_VALUE", FieldPath(path, f, index),
            absl::StrCat(f->enum_type()->full_name(), " value ", value,
                         " is unknown to the release"),
            out);
      };
      if (f->is_repeated()) {
        for (int j = 0; j < r->FieldSize(message, f); ++j) {
          check(r->GetRepeatedEnumValue(message, f, j), j);
        }
      } else {
        check(r->GetEnumValue(message, f), -1);  // the default (0) is always known
      }
    }
    if (f->cpp_type() != FieldDescriptor::CPPTYPE_MESSAGE) continue;
    if (f->is_repeated()) {
      for (int j = 0; j < r->FieldSize(message, f); ++j) {
        ScanMessage(r->GetRepeatedMessage(message, f, j), FieldPath(path, f, j), artifact, out);
      }
    } else if (r->HasField(message, f)) {
      ScanMessage(r->GetMessage(message, f), FieldPath(path, f, -1), artifact, out);
    }
  }
}

namespace {

// Thunks, custom calls and kernels of an artifact, found through
// reflection so nested sequences (sequential, while, conditional) count.
struct ArtifactUses {
  std::vector<std::pair<std::string, std::string>> thunk_kinds;  // (path, kind)
  std::vector<std::pair<std::string, std::string>> ffi_names;    // (path, name)
  std::vector<std::pair<std::string, const KernelThunkProto*>> host_kernels;
  std::vector<std::pair<std::string, PrimitiveType>> gemm_types;  // (path, element_type)
};

void CollectUses(const Message& m, const std::string& path, ArtifactUses* uses) {
  if (const auto* thunk = dynamic_cast<const ThunkProto*>(&m)) {
    if (thunk->impl_case() != ThunkProto::IMPL_NOT_SET) {
      const FieldDescriptor* kind = ThunkProto::descriptor()->FindFieldByNumber(thunk->impl_case());
      uses->thunk_kinds.emplace_back(path, kind->name());
    }
    if (thunk->has_custom_call()) {
      uses->ffi_names.emplace_back(absl::StrCat(path, ".custom_call.target_name"),
                                   thunk->custom_call().target_name());
    }
    if (thunk->has_gemm()) {
      uses->gemm_types.emplace_back(absl::StrCat(path, ".gemm.element_type"),
                                    thunk->gemm().element_type());
    }
    if (thunk->has_kernel() &&
        thunk->kernel().binary().format() == KernelBinaryProto::HOST_ELF_OBJECT) {
      uses->host_kernels.emplace_back(absl::StrCat(path, ".kernel"), &thunk->kernel());
    }
  }
  const Reflection* r = m.GetReflection();
  const Descriptor* d = m.GetDescriptor();
  for (int i = 0; i < d->field_count(); ++i) {
    const FieldDescriptor* f = d->field(i);
    if (f->cpp_type() != FieldDescriptor::CPPTYPE_MESSAGE) continue;
    if (f->message_type() == HloModuleWithConfigProto::descriptor()) continue;
    if (f->is_repeated()) {
      for (int j = 0; j < r->FieldSize(m, f); ++j) {
        CollectUses(r->GetRepeatedMessage(m, f, j), FieldPath(path, f, j), uses);
      }
    } else if (r->HasField(m, f)) {
      CollectUses(r->GetMessage(m, f), FieldPath(path, f, -1), uses);
    }
  }
}

}  // namespace

std::vector<ForwardFinding> ForwardChecker::Check(const ForwardArtifact& artifact) const {
  std::vector<ForwardFinding> out;
  // 1. The release's schema: DynamicMessage + unknown-field scan.
  std::unique_ptr<Message> dynamic(factory_->GetPrototype(root_)->New());
  if (!dynamic->ParseFromString(artifact.bytes)) {
    Add(artifact, "error", "UNPARSABLE", "",
        "the artifact does not parse with the release's descriptor set", &out);
    return out;
  }
  ScanMessage(*dynamic, "", artifact, &out);

  // 2. The release's registries, opcode table and ABI.
  ExecutableProto proto;
  if (!proto.ParseFromString(artifact.bytes)) {
    Add(artifact, "error", "UNPARSABLE", "", "the artifact does not parse as ExecutableProto",
        &out);
    return out;
  }
  ArtifactUses uses;
  CollectUses(proto, "", &uses);
  const Descriptor* release_thunk = release_pool_->FindMessageTypeByName("aot.ThunkProto");
  for (const auto& [path, kind] : uses.thunk_kinds) {
    // A kind the release's schema lacks is already an UNKNOWN_ONEOF_CASE.
    if (release_thunk == nullptr || release_thunk->FindFieldByName(kind) == nullptr) continue;
    if (!release_.KnowsThunkKind(kind)) {
      Add(artifact, "error", "UNKNOWN_THUNK_KIND", path,
          absl::StrCat("thunk kind '", kind, "' has no FromProto in the release (it knows: ",
                       absl::StrJoin(release_.thunk_kinds, ", "), ")"),
          &out);
    }
  }
  const std::vector<std::string> gemm_types = release_.GemmElementTypesOrDefault();
  for (const auto& [path, type] : uses.gemm_types) {
    if (absl::c_linear_search(gemm_types, PrimitiveType_Name(type))) continue;
    Add(artifact, "error", "UNSUPPORTED_GEMM_TYPE", path,
        absl::StrCat("GEMM element type ", PrimitiveType_Name(type),
                     " is refused by the release's GEMM thunk (it accepts: ",
                     absl::StrJoin(gemm_types, ", "), ")"),
        &out);
  }
  for (const auto& [path, name] : uses.ffi_names) {
    if (!release_.ResolvesFfiName(name)) {
      Add(artifact, "error", "UNRESOLVED_FFI_NAME", path,
          absl::StrCat("custom call / FFI target '", name,
                       "' is neither a handler nor an alias in the release"),
          &out);
    }
  }
  for (const auto& [path, kernel] : uses.host_kernels) {
    auto imports = UndefinedSymbols(kernel->binary().object());
    if (!imports.ok()) {
      Add(artifact, "error", "UNRESOLVED_KERNEL_SYMBOL", path,
          absl::StrCat("kernel '", kernel->kernel_name(), "': ", imports.status().message()), &out);
      continue;
    }
    for (const std::string& symbol : *imports) {
      if (absl::c_linear_search(release_.host_kernel_symbols, symbol)) continue;
      Add(artifact, "error", "UNRESOLVED_KERNEL_SYMBOL", path,
          absl::StrCat("kernel '", kernel->kernel_name(), "' imports '", symbol,
                       "', which the release's host loader does not resolve"),
          &out);
    }
  }
  if (proto.has_hlo_module()) {
    const HloModuleProto& module = proto.hlo_module().hlo_module();
    for (int c = 0; c < module.computations_size(); ++c) {
      for (int i = 0; i < module.computations(c).instructions_size(); ++i) {
        const HloInstructionProto& instr = module.computations(c).instructions(i);
        if (release_.KnowsOpcode(instr.opcode())) continue;
        Add(artifact, "error", "UNKNOWN_OPCODE",
            absl::StrCat("hlo_module.hlo_module.computations[", c, "].instructions[", i, "]"),
            absl::StrCat("HLO opcode '", instr.opcode(), "' (", instr.name(),
                         ") is unknown to the release: its load would fail"),
            &out);
      }
    }
  }
  const AbiVersionProto& abi = proto.abi_version();
  if (abi.runtime_abi_version() > release_.abi_version) {
    Add(artifact, "error", "ABI_TOO_NEW", "abi_version.runtime_abi_version",
        absl::StrCat("the artifact requires runtime ABI ", abi.runtime_abi_version(),
                     "; the release has ", release_.abi_version),
        &out);
  }
  const std::pair<const char*, const ToolchainVersionProto*> toolchains[] = {
      {"llvm", &abi.llvm()},
      {"cuda", &abi.cuda()},
      {"cublas", &abi.cublas()},
      {"ptxas", &abi.ptxas()}};
  for (const auto& [name, t] : toolchains) {
    const VersionProto& min = t->minimum();
    if (min.major() == 0 && min.minor() == 0 && min.patch() == 0) continue;
    std::string required = absl::StrCat(min.major(), ".", min.minor(), ".", min.patch());
    auto have = release_.toolchain.find(name);
    if (have == release_.toolchain.end()) {
      Add(artifact, "error", "TOOLCHAIN_TOO_NEW", absl::StrCat("abi_version.", name, ".minimum"),
          absl::StrCat("the artifact requires ", name, " >= ", required, "; the release has no ",
                       name),
          &out);
    } else if (ParseVersion(have->second) <
               std::make_tuple(min.major(), min.minor(), min.patch())) {
      Add(artifact, "error", "TOOLCHAIN_TOO_NEW", absl::StrCat("abi_version.", name, ".minimum"),
          absl::StrCat("the artifact requires ", name, " >= ", required, "; the release has ",
                       have->second),
          &out);
    }
  }
  return out;
}

absl::StatusOr<std::unique_ptr<ForwardChecker>> LoadForwardChecker(
    const std::string& golden_dir, const ReleaseSnapshot& release,
    const google::protobuf::DescriptorPool* head_pool) {
  std::string path = absl::StrCat(golden_dir, "/", release.descriptor_set);
  auto set = ReadDescriptorSet(path);
  if (!set.ok()) {
    return absl::Status(set.status().code(),
                        absl::StrCat("release ", release.id, ": ", set.status().message()));
  }
  return ForwardChecker::Create(release, *set, head_pool);
}

}  // namespace aot
