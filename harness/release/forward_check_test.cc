// The forward check of artifacts against releases, rule by rule.
#include "harness/release/forward_check.h"

#include <map>
#include <memory>
#include <string>
#include <vector>

#include "absl/algorithm/container.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "compiler/backend/compiler.h"
#include "compiler/hlo/hlo_parser.h"
#include "compiler/target/target_config.h"
#include "gmock/gmock.h"
#include "google/protobuf/descriptor.h"
#include "google/protobuf/descriptor.pb.h"
#include "gtest/gtest.h"
#include "harness/golden/golden_store.h"
#include "harness/release/release.h"
#include "harness/release/release_snapshot.h"
#include "harness/testing/synthetic_history.h"
#include "proto/schema.h"
#include "support/file_io.h"
#include "support/testing/status_testing.h"

namespace aot {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;
using ::testing::IsEmpty;

constexpr char kSourceVersion[] = "golden/executables/host-x86-64-v2/v1";

ExecutableProto Artifact(const std::string& test) {
  auto artifact = ReadArtifact(kSourceVersion, test);
  EXPECT_TRUE(artifact.ok()) << artifact.status();
  return artifact.ok() ? artifact->executable : ExecutableProto();
}

ReleaseSnapshot Release(const std::string& date) {
  ReleaseSnapshot r = CaptureRuntimeCapabilities();
  r.date = date;
  r.id = absl::StrCat(date, "-test");
  return r;
}

std::vector<std::string> Rules(const std::vector<ForwardFinding>& findings) {
  std::vector<std::string> rules;
  for (const ForwardFinding& f : findings) rules.push_back(f.rule);
  return rules;
}

std::vector<ForwardFinding> Check(const ReleaseSnapshot& release, const std::string& bytes,
                                  const google::protobuf::DescriptorPool* head = nullptr) {
  auto checker =
      testing::ValueOrFailure(ForwardChecker::Create(release, SchemaDescriptorSet(), head));
  if (checker == nullptr) return {};  // failed already
  return checker->Check({"host-x86-64-v2", "t", bytes});
}

TEST(ForwardCheckTest, CurrentOutputAgainstThisRuntimeIsClean) {
  for (const char* test : {"add_mul", "gelu", "softmax", "conditional_pred"}) {
    EXPECT_THAT(Check(Release("2026-11-30"), Artifact(test).SerializeAsString()), IsEmpty())
        << test;
  }
}

// `hlo` compiled for `target` (host-x86-64-v2 by default) with the
// emission flag `flag` on.
std::unique_ptr<CompiledModule> CompileWithFlags(absl::string_view hlo,
                                                 std::vector<std::string> flags,
                                                 const std::string& target = "host-x86-64-v2") {
  auto module = testing::ValueOrFailure(ParseHloModule(hlo));
  if (module == nullptr) return nullptr;  // failed already
  CompileOptions options;
  options.emission_flags = std::move(flags);
  options.compile_cubin = false;
  return testing::ValueOrFailure(Compile(*module, *ShippedTargetConfig(target), options));
}

std::unique_ptr<CompiledModule> CompileWithFlag(absl::string_view hlo, const std::string& flag,
                                                const std::string& target = "host-x86-64-v2") {
  return CompileWithFlags(hlo, {flag}, target);
}

// The forward check of `bytes` against each release under golden/, by
// release id.
std::map<std::string, std::vector<ForwardFinding>> CheckAgainstEachRelease(
    const std::string& bytes, const std::string& test) {
  std::map<std::string, std::vector<ForwardFinding>> findings;
  auto releases = LoadReleases("golden");
  EXPECT_TRUE(releases.ok()) << releases.status();
  if (!releases.ok()) return findings;
  for (const ReleaseSnapshot& release : *releases) {
    auto checker = LoadForwardChecker("golden", release, nullptr);
    EXPECT_TRUE(checker.ok()) << release.id << ": " << checker.status();
    if (checker.ok()) findings[release.id] = (*checker)->Check({"host-x86-64-v2", test, bytes});
  }
  return findings;
}

// The staged rollout as the gate sees it: with the emission flag on, the
// compiler's output holds an opcode (and libm imports) the release cut
// before runtime support rejects, and the release cut with it accepts.
TEST(ForwardCheckTest, FlagOnEmissionIsAnErrorForReleasesBeforeRuntimeSupport) {
  auto compiled = CompileWithFlag(R"(
HloModule m
ENTRY e {
  x = f32[64] parameter(0)
  ROOT r = f32[64] acos(x)
})",
                                  "emit_inverse_and_hyperbolic_math");
  ASSERT_NE(compiled, nullptr);
  int checked = 0;
  for (const auto& [id, findings] :
       CheckAgainstEachRelease(compiled->SerializeAsString(), "acos")) {
    SCOPED_TRACE(id);
    std::vector<std::string> rules = Rules(findings);
    if (id == "2026-11-30-ef39c03e") {
      EXPECT_THAT(rules, ::testing::Contains("UNKNOWN_OPCODE"));
      EXPECT_THAT(rules, ::testing::Contains("UNRESOLVED_KERNEL_SYMBOL"));
      ++checked;
    } else if (id == "2026-12-02-78f502db") {
      EXPECT_THAT(rules, ::testing::Not(::testing::Contains("UNKNOWN_OPCODE")));
      EXPECT_THAT(rules, ::testing::Not(::testing::Contains("UNRESOLVED_KERNEL_SYMBOL")));
      ++checked;
    }
  }
  EXPECT_EQ(checked, 2);
}

// rng with emit_rng_state on: every release before 2026-12-03-d1ae2d74
// refuses the state opcode and its host kernel's import of the state; that
// release, the first with runtime support, accepts both.
TEST(ForwardCheckTest, FlagOnRngStateIsAnErrorForReleasesBeforeRuntimeSupport) {
  auto compiled = CompileWithFlag(R"(
HloModule m
ENTRY e {
  a = f32[] parameter(0)
  b = f32[] parameter(1)
  ROOT r = f32[64] rng(a, b), distribution=rng_uniform
})",
                                  "emit_rng_state");
  ASSERT_NE(compiled, nullptr);
  int before = 0, supported = 0;
  for (const auto& [id, findings] : CheckAgainstEachRelease(compiled->SerializeAsString(), "rng")) {
    SCOPED_TRACE(id);
    std::vector<std::string> rules = Rules(findings);
    if (id == "2026-12-03-d1ae2d74" || id >= "2026-12-04") {  // it and those cut after
      EXPECT_THAT(rules, ::testing::IsEmpty());
      ++supported;
    } else {  // the seven cut before it
      EXPECT_THAT(rules, ::testing::Contains("UNKNOWN_OPCODE"));
      EXPECT_THAT(rules, ::testing::Contains("UNRESOLVED_KERNEL_SYMBOL"));
      ++before;
    }
  }
  EXPECT_EQ(before, 7);
  EXPECT_GE(supported, 2);  // and every release cut since
}

// Packed sub-byte entry values (emit_packed_sub_byte_layouts, with the
// narrow types' flag): LayoutProto.element_size_in_bits is unknown to
// every release cut before 2026-12-04-fd9c2736 and not ignorable, so each
// reports it as an error at the parameter's layout; that release reads it.
TEST(ForwardCheckTest, PackedLayoutsAreUnknownToReleasesBeforeRuntimeSupport) {
  auto compiled = CompileWithFlags(R"(
HloModule m
ENTRY e {
  w = s4[6]{0:E(4)} parameter(0)
  ROOT n = s4[6]{0:E(4)} negate(w)
})",
                                   {"emit_extended_element_types", "emit_packed_sub_byte_layouts"});
  ASSERT_NE(compiled, nullptr);
  EXPECT_EQ(compiled->proto().parameters(0).shape().layout().element_size_in_bits(), 4);
  int before = 0, supported = 0;
  for (const auto& [id, findings] :
       CheckAgainstEachRelease(compiled->SerializeAsString(), "packed")) {
    SCOPED_TRACE(id);
    bool reported = false;
    for (const ForwardFinding& f : findings) {
      reported |= f.rule == "UNKNOWN_FIELD" &&
                  absl::StrContains(f.path, "parameters[0].shape.layout.element_size_in_bits");
    }
    if (id >= "2026-12-04") {  // 2026-12-04-fd9c2736 and those cut after
      EXPECT_THAT(findings, IsEmpty());
      ++supported;
    } else {
      EXPECT_TRUE(reported) << ::testing::PrintToString(Rules(findings));
      ++before;
    }
  }
  EXPECT_EQ(before, 8);
  EXPECT_GE(supported, 1);
}

// input_output_alias with its flag on: the field is unknown to the releases
// cut before its runtime support, and a required one (not ignorable), so
// each of them reports it as an error naming the field path.
TEST(ForwardCheckTest, FlagOnAliasesAreUnknownToReleasesBeforeRuntimeSupport) {
  auto compiled = CompileWithFlag(R"(
HloModule m, input_output_alias={ {}: (0, {}) }
ENTRY e {
  x = f32[64] parameter(0)
  ROOT r = f32[64] negate(x)
})",
                                  "emit_input_output_alias");
  ASSERT_NE(compiled, nullptr);
  ASSERT_EQ(compiled->proto().input_output_aliases_size(), 1);
  int checked = 0;
  for (const auto& [id, findings] :
       CheckAgainstEachRelease(compiled->SerializeAsString(), "alias")) {
    const bool before = id == "2026-11-30-ef39c03e" || id == "2026-12-02-78f502db";
    // The release cut with the runtime support reads it.
    const bool with_support = id == "2026-12-02-a1e9ef6e";
    if (!before && !with_support) continue;
    SCOPED_TRACE(id);
    bool reported = false;
    for (const ForwardFinding& f : findings) {
      reported |= f.rule == "UNKNOWN_FIELD" && f.path == "input_output_aliases";
    }
    EXPECT_EQ(reported, before) << ::testing::PrintToString(Rules(findings));
    if (with_support) EXPECT_THAT(findings, IsEmpty());
    ++checked;
  }
  EXPECT_EQ(checked, 3);
}

// emit_low_precision_gemm: a bf16 dot on CUDA becomes a BF16 GEMM thunk,
// which every release that does not record BF16 among its GEMM element
// types (all releases cut before the runtime support: their records
// predate the key) reports as UNSUPPORTED_GEMM_TYPE at the thunk's
// element_type; this runtime's capabilities accept it. Without the flag
// the dot is a kernel and nothing is reported.
TEST(ForwardCheckTest, LowPrecisionGemmIsAnErrorForReleasesWithoutTheElementType) {
  constexpr char kBf16Dot[] = R"(
HloModule m
ENTRY e {
  a = bf16[128,64] parameter(0)
  b = bf16[64,32] parameter(1)
  ROOT d = bf16[128,32] dot(a, b), lhs_contracting_dims={1}, rhs_contracting_dims={0}
})";
  auto compiled = CompileWithFlag(kBf16Dot, "emit_low_precision_gemm", "h100");
  ASSERT_NE(compiled, nullptr);
  ASSERT_EQ(compiled->gemm_count(), 1) << compiled->ThunksToString();
  int before = 0;
  for (const auto& [id, findings] :
       CheckAgainstEachRelease(compiled->SerializeAsString(), "bf16_dot")) {
    SCOPED_TRACE(id);
    auto releases = LoadReleases("golden");
    ASSERT_TRUE(releases.ok());
    bool accepts = false;
    for (const ReleaseSnapshot& r : *releases) {
      if (r.id == id) accepts = absl::c_linear_search(r.GemmElementTypesOrDefault(), "BF16");
    }
    bool reported = false;
    for (const ForwardFinding& f : findings) {
      if (f.rule != "UNSUPPORTED_GEMM_TYPE") continue;
      reported = true;
      EXPECT_THAT(f.path, ::testing::MatchesRegex(R"(thunks\[[0-9]+\]\.gemm\.element_type)"));
      EXPECT_THAT(f.message, HasSubstr("BF16"));
    }
    EXPECT_EQ(reported, !accepts);
    before += reported;
  }
  EXPECT_GE(before, 3);  // 2026-11-30, and both releases of 2026-12-02 before the support
  EXPECT_THAT(Rules(Check(Release("2026-12-02"), compiled->SerializeAsString())),
              ::testing::Not(::testing::Contains("UNSUPPORTED_GEMM_TYPE")));
  // The flag off: a kernel, no GEMM thunk, nothing to report.
  auto module = ParseHloModule(kBf16Dot);
  ASSERT_TRUE(module.ok());
  CompileOptions options;
  options.compile_cubin = false;
  auto plain = Compile(**module, *ShippedTargetConfig("h100"), options);
  ASSERT_TRUE(plain.ok()) << plain.status();
  EXPECT_EQ((*plain)->gemm_count(), 0);
  for (const auto& [id, findings] :
       CheckAgainstEachRelease((*plain)->SerializeAsString(), "bf16_dot")) {
    EXPECT_THAT(Rules(findings), ::testing::Not(::testing::Contains("UNSUPPORTED_GEMM_TYPE")))
        << id;
  }
}

// emit_cudnn_convolution: a convolution thunk is a oneof case the schema
// of every release cut before its runtime support lacks (reported at the
// thunk's field path); a release whose runtime knows the "convolution"
// thunk kind reports nothing about it, and neither does this runtime.
TEST(ForwardCheckTest, ConvolutionThunksAreUnknownToReleasesBeforeRuntimeSupport) {
  auto compiled = CompileWithFlag(R"(
HloModule m
ENTRY e {
  x = f32[2,4,9,7] parameter(0)
  w = f32[6,2,3,2] parameter(1)
  ROOT c = f32[2,6,5,4] convolution(x, w), window={size=3x2 stride=2x2 pad=1_1x1_1}, dim_labels=bf01_oi01->bf01, feature_group_count=2
})",
                                  "emit_cudnn_convolution", "h100");
  ASSERT_NE(compiled, nullptr);
  int index = -1;
  for (int i = 0; i < compiled->proto().thunks_size(); ++i) {
    if (compiled->proto().thunks(i).has_convolution()) index = i;
  }
  ASSERT_GE(index, 0) << compiled->ThunksToString();
  const std::string path = absl::StrCat("thunks[", index, "].convolution");
  auto releases = LoadReleases("golden");
  ASSERT_TRUE(releases.ok());
  int before = 0;
  for (const auto& [id, findings] :
       CheckAgainstEachRelease(compiled->SerializeAsString(), "conv")) {
    SCOPED_TRACE(id);
    bool knows = false;
    for (const ReleaseSnapshot& r : *releases) {
      if (r.id == id) knows = r.KnowsThunkKind("convolution");
    }
    bool reported = false;
    for (const ForwardFinding& f : findings) {
      if (f.severity == "error" && absl::StartsWith(f.path, path)) reported = true;
    }
    EXPECT_EQ(reported, !knows) << ::testing::PrintToString(Rules(findings));
    before += reported;
  }
  EXPECT_GE(before, 4);  // every release up to 2026-12-02-65e14415
  EXPECT_THAT(Check(Release("2026-12-02"), compiled->SerializeAsString()), IsEmpty());
}

// emit_collectives: the collective thunk kinds and the device assignment
// are schema the releases cut before runtime support lack. Against the
// 2026-11-30 release (and every other release without the thunk kinds)
// each collective thunk is an error at its field path, and so is the
// device assignment; a release whose runtime knows the kinds, and this
// runtime, report nothing.
TEST(ForwardCheckTest, CollectiveThunksAreErrorsForReleasesBeforeRuntimeSupport) {
  auto compiled = CompileWithFlag(R"(
HloModule m, replica_count=4
add {
  a = f32[] parameter(0)
  b = f32[] parameter(1)
  ROOT s = f32[] add(a, b)
}
ENTRY e {
  x = f32[8] parameter(0)
  ar = f32[8] all-reduce(x), replica_groups={{0,1},{2,3}}, to_apply=add
  ag = f32[32] all-gather(ar), replica_groups={}, dimensions={0}
  id = u32[] replica-id()
  ROOT t = (f32[32], u32[]) tuple(ag, id)
})",
                                  "emit_collectives");
  ASSERT_NE(compiled, nullptr);
  std::vector<std::string> paths;
  for (int i = 0; i < compiled->proto().thunks_size(); ++i) {
    const ThunkProto& t = compiled->proto().thunks(i);
    if (t.has_all_reduce()) paths.push_back(absl::StrCat("thunks[", i, "].all_reduce"));
    if (t.has_all_gather()) paths.push_back(absl::StrCat("thunks[", i, "].all_gather"));
    if (t.has_replica_id()) paths.push_back(absl::StrCat("thunks[", i, "].replica_id"));
  }
  ASSERT_EQ(paths.size(), 3u) << compiled->ThunksToString();
  paths.push_back("device_assignment");
  const std::string bytes = compiled->SerializeAsString();

  auto errors_at = [](const std::vector<ForwardFinding>& findings, const std::string& path) {
    return absl::c_any_of(findings, [&](const ForwardFinding& f) {
      return f.severity == "error" && absl::StartsWith(f.path, path);
    });
  };
  auto releases = LoadReleases("golden");
  ASSERT_TRUE(releases.ok());
  int before = 0;
  for (const auto& [id, findings] : CheckAgainstEachRelease(bytes, "collectives")) {
    SCOPED_TRACE(id);
    bool knows = false;
    for (const ReleaseSnapshot& r : *releases) {
      if (r.id == id) knows = r.KnowsThunkKind("all_reduce");
    }
    for (const std::string& path : paths) {
      EXPECT_EQ(errors_at(findings, path), !knows)
          << path << ": " << ::testing::PrintToString(Rules(findings));
    }
    if (id == "2026-11-30-ef39c03e") EXPECT_FALSE(knows);
    before += !knows;
  }
  EXPECT_GE(before, 5);  // 2026-11-30 and the four releases of 2026-12-02
  EXPECT_THAT(Check(Release("2026-12-03"), bytes), IsEmpty());
}

// Whether the schema snapshot `release` reads has PrimitiveType `name`.
bool ReleaseSchemaHasElementType(const ReleaseSnapshot& release, const std::string& name) {
  auto bytes = ReadFileToString(absl::StrCat("golden/", release.descriptor_set));
  EXPECT_TRUE(bytes.ok()) << bytes.status();
  google::protobuf::FileDescriptorSet set;
  if (!bytes.ok() || !set.ParseFromString(*bytes)) return false;
  google::protobuf::DescriptorPool pool;
  for (const auto& file : set.file()) pool.BuildFile(file);
  const google::protobuf::EnumDescriptor* type = pool.FindEnumTypeByName("aot.PrimitiveType");
  return type != nullptr && type->FindValueByName(name) != nullptr;
}

// The element types of 2026-12-03 (staged rollout, phase 1): an artifact
// holding one is an error for every release whose schema lacks it, and
// clean for this runtime.
TEST(ForwardCheckTest, ExtendedElementTypesAreErrorsForReleasesBeforeRuntimeSupport) {
  auto releases = LoadReleases("golden");
  ASSERT_TRUE(releases.ok()) << releases.status();
  for (PrimitiveType type : {C64, C128, F8E4M3FN, F8E5M2, S4, U4, F4E2M1FN}) {
    SCOPED_TRACE(PrimitiveType_Name(type));
    ExecutableProto e = Artifact("add_mul");
    ASSERT_GT(e.parameters_size(), 0);
    e.mutable_parameters(0)->mutable_shape()->set_element_type(type);
    const std::string bytes = e.SerializeAsString();
    int lacking = 0;
    for (const auto& [id, findings] : CheckAgainstEachRelease(bytes, "types")) {
      SCOPED_TRACE(id);
      bool knows = false;
      for (const ReleaseSnapshot& r : *releases) {
        if (r.id == id) knows = ReleaseSchemaHasElementType(r, PrimitiveType_Name(type));
      }
      const bool error = absl::c_any_of(findings, [](const ForwardFinding& f) {
        return f.severity == "error" && f.rule == "UNKNOWN_ENUM_VALUE" &&
               f.path == "parameters[0].shape.element_type";
      });
      EXPECT_EQ(error, !knows) << ::testing::PrintToString(Rules(findings));
      lacking += !knows;
    }
    EXPECT_GE(lacking, 6);  // 2026-11-30, the four of 2026-12-02, 2026-12-03-30a5ac05
    EXPECT_THAT(Check(Release("2026-12-03"), bytes), IsEmpty());
  }
}

TEST(ForwardCheckTest, UnparsableBytes) {
  EXPECT_THAT(Rules(Check(Release("2026-11-30"), "\xff\xff\xff")), ElementsAre("UNPARSABLE"));
}

TEST(ForwardCheckTest, UnknownEnumValue) {
  ExecutableProto e = Artifact("add_mul");
  e.mutable_capability()->mutable_host()->set_isa_level(static_cast<HostIsaLevel>(42));
  auto findings = Check(Release("2026-11-30"), e.SerializeAsString());
  EXPECT_THAT(Rules(findings), ElementsAre("UNKNOWN_ENUM_VALUE"));
  EXPECT_EQ(findings[0].path, "capability.host.isa_level");
}

TEST(ForwardCheckTest, UnknownOneofCaseReadFromTheHeadSchema) {
  // The head schema has ThunkProto.impl case 48; the release does not.
  auto pool = testing::PoolOf(testing::SchemaWithLegacyKind());
  ASSERT_NE(pool, nullptr);
  ExecutableProto e = Artifact("add_mul");
  ThunkProto* t = e.add_thunks();
  t->GetReflection()->MutableUnknownFields(t)->AddLengthDelimited(48, "");
  auto findings = Check(Release("2026-11-30"), e.SerializeAsString(), pool.get());
  ASSERT_THAT(Rules(findings), ElementsAre("UNKNOWN_ONEOF_CASE"));
  EXPECT_THAT(findings[0].message, HasSubstr("case 'legacy_kind'"));
}

TEST(ForwardCheckTest, RegistriesOpcodesAndAbi) {
  ReleaseSnapshot old = Release("2026-11-01");
  std::erase(old.hlo_opcodes, "multiply");
  std::erase(old.ffi_handlers, "aot.gelu");
  old.ffi_aliases.clear();
  old.host_kernel_symbols.clear();
  old.abi_version = 0;
  old.toolchain["llvm"] = "18.1.8";
  EXPECT_THAT(Rules(Check(old, Artifact("add_mul").SerializeAsString())),
              ::testing::IsSupersetOf({"UNKNOWN_OPCODE", "ABI_TOO_NEW", "TOOLCHAIN_TOO_NEW"}));
  EXPECT_THAT(Rules(Check(old, Artifact("gelu").SerializeAsString())),
              ::testing::Contains("UNRESOLVED_FFI_NAME"));
  EXPECT_THAT(Rules(Check(old, Artifact("softmax").SerializeAsString())),
              ::testing::Contains("UNRESOLVED_KERNEL_SYMBOL"));
}

TEST(ForwardCheckTest, UnknownThunkKindOfAKnownSchemaCase) {
  ReleaseSnapshot old = Release("2026-11-01");
  std::erase(old.thunk_kinds, "conditional");
  auto findings = Check(old, Artifact("conditional_pred").SerializeAsString());
  ASSERT_THAT(Rules(findings), ::testing::Contains("UNKNOWN_THUNK_KIND"));
}

}  // namespace
}  // namespace aot
