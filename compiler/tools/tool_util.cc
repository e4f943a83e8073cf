#include "compiler/tools/tool_util.h"

#include <glob.h>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <system_error>

#include "absl/strings/ascii.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"
#include "compiler/backend/literal_execution.h"
#include "compiler/hlo/hlo_parser.h"
#include "compiler/target/target_config.h"
#include "google/protobuf/io/coded_stream.h"
#include "google/protobuf/io/tokenizer.h"
#include "google/protobuf/io/zero_copy_stream_impl_lite.h"
#include "google/protobuf/stubs/logging.h"
#include "google/protobuf/text_format.h"
#include "runtime/executable/client.h"
#include "runtime/platform/host/cpu_features.h"
#include "runtime/support/file_io.h"
#include "runtime/support/status_macros.h"

namespace aot {

namespace {

class FirstProtoError : public google::protobuf::io::ErrorCollector {
 public:
  void AddError(int line, google::protobuf::io::ColumnNumber column,
                const std::string& message) override {
    if (error.empty()) {
      error = absl::StrCat(line + 1, ":", column + 1, ": ", message);
    }
  }
  std::string error;
};

bool HasExtension(absl::string_view path, absl::string_view extension) {
  return absl::EndsWith(path, extension);
}

// Bytes that parse as an ExecutableProto with an entry interface or thunks.
bool IsSerializedExecutable(absl::string_view bytes, ArtifactFormat format) {
  auto proto = ParseExecutableProto(bytes, format);
  return proto.ok() && (proto->thunks_size() > 0 || proto->has_result() ||
                        proto->buffer_allocations_size() > 0);
}

absl::Status NotAModule(absl::string_view path) {
  return absl::InvalidArgumentError(absl::StrCat(
      path,
      ": this is a serialized executable (ExecutableProto), not an HLO module "
      "(run it with aot-run)"));
}

}  // namespace

// ---------------------------------------------------------------------------
// Inputs.

absl::string_view InputKindName(InputKind kind) {
  switch (kind) {
    case InputKind::kHloText:
      return "HLO text";
    case InputKind::kHloProtoBinary:
      return "binary HloModuleProto";
    case InputKind::kHloProtoText:
      return "text HloModuleProto";
    case InputKind::kExecutableBinary:
      return "binary executable";
    case InputKind::kExecutableText:
      return "text executable";
  }
  return "unknown";
}

bool LooksLikeHloText(absl::string_view bytes) {
  bool in_block_comment = false;
  for (absl::string_view line :
       absl::StrSplit(bytes.substr(0, 1 << 16), '\n')) {
    absl::string_view l = absl::StripAsciiWhitespace(line);
    if (in_block_comment) {
      size_t end = l.find("*/");
      if (end == absl::string_view::npos) continue;
      in_block_comment = false;
      l = absl::StripAsciiWhitespace(l.substr(end + 2));
    }
    if (l.empty() || absl::StartsWith(l, "//") || absl::StartsWith(l, "#")) {
      continue;
    }
    if (absl::StartsWith(l, "/*")) {
      size_t end = l.find("*/", 2);
      if (end == absl::string_view::npos) {
        in_block_comment = true;
        continue;
      }
      l = absl::StripAsciiWhitespace(l.substr(end + 2));
      if (l.empty()) continue;
    }
    return absl::StartsWith(l, "HloModule") &&
           (l.size() == 9 ||
            absl::ascii_isspace(static_cast<unsigned char>(l[9])));
  }
  return false;
}

InputKind DetectRunInputKind(absl::string_view path, absl::string_view bytes) {
  if (HasExtension(path, ".hlo") || LooksLikeHloText(bytes)) {
    return InputKind::kHloText;
  }
  return GuessArtifactFormat(bytes, path) == ArtifactFormat::kText
             ? InputKind::kExecutableText
             : InputKind::kExecutableBinary;
}

InputKind DetectModuleInputKind(absl::string_view path,
                                absl::string_view bytes) {
  if (LooksLikeHloText(bytes)) return InputKind::kHloText;
  if (HasExtension(path, ".pbtxt") || HasExtension(path, ".txtpb")) {
    return InputKind::kHloProtoText;
  }
  if (HasExtension(path, ".pb") || HasExtension(path, ".binpb")) {
    return InputKind::kHloProtoBinary;
  }
  return InputKind::kHloText;
}

absl::Status WithPath(absl::string_view path, const absl::Status& status) {
  return absl::Status(status.code(),
                      absl::StrCat(path, ": ", status.message()));
}

absl::StatusOr<LoadedHloModule> ParseHloModuleBytes(
    absl::string_view bytes, absl::string_view path, InputKind kind,
    uint64_t elided_constant_seed) {
  LoadedHloModule loaded;
  switch (kind) {
    case InputKind::kHloText: {
      HloParserOptions options;
      options.elided_constant_seed = elided_constant_seed;
      auto parsed = ParseHloModuleWithDetails(bytes, options);
      if (!parsed.ok()) return WithPath(path, parsed.status());
      loaded.module = std::move(parsed->module);
      loaded.elided_constants = std::move(parsed->elided_constants);
      return loaded;
    }
    case InputKind::kHloProtoBinary:
    case InputKind::kHloProtoText: {
      HloModuleProto proto;
      if (kind == InputKind::kHloProtoText) {
        google::protobuf::TextFormat::Parser parser;
        FirstProtoError errors;
        parser.RecordErrorsTo(&errors);
        if (!parser.ParseFromString(std::string(bytes), &proto)) {
          if (IsSerializedExecutable(bytes, ArtifactFormat::kText)) {
            return NotAModule(path);
          }
          return absl::InvalidArgumentError(absl::StrCat(
              path,
              ": not a valid text-format HloModuleProto: ", errors.error));
        }
      } else {
        google::protobuf::io::CodedInputStream input(
            reinterpret_cast<const uint8_t*>(bytes.data()),
            static_cast<int>(bytes.size()));
        input.SetRecursionLimit(64);
        if (bytes.size() > static_cast<size_t>(INT32_MAX) ||
            !proto.ParseFromCodedStream(&input) ||
            !input.ConsumedEntireMessage()) {
          if (IsSerializedExecutable(bytes, ArtifactFormat::kBinary)) {
            return NotAModule(path);
          }
          return absl::InvalidArgumentError(
              absl::StrCat(path, ": not a valid binary HloModuleProto (",
                           bytes.size(), " bytes: truncated or corrupted)"));
        }
      }
      if (proto.computations_size() == 0) {
        if (IsSerializedExecutable(bytes, kind == InputKind::kHloProtoText
                                              ? ArtifactFormat::kText
                                              : ArtifactFormat::kBinary)) {
          return NotAModule(path);
        }
        return absl::InvalidArgumentError(absl::StrCat(
            path,
            ": HloModuleProto has no computations (is it an HLO module?)"));
      }
      auto module = HloModuleFromProto(proto);
      if (!module.ok()) return WithPath(path, module.status());
      loaded.module = *std::move(module);
      return loaded;
    }
    case InputKind::kExecutableBinary:
    case InputKind::kExecutableText:
      break;
  }
  return absl::InvalidArgumentError(
      absl::StrCat(path, ": a serialized executable, not an HLO module"));
}

absl::StatusOr<LoadedHloModule> LoadHloModuleFile(
    const std::string& path, uint64_t elided_constant_seed) {
  AOT_ASSIGN_OR_RETURN(auto bytes, ReadFileToString(path));
  return ParseHloModuleBytes(bytes, path, DetectModuleInputKind(path, bytes),
                             elided_constant_seed);
}

void SilenceProtobufLogging() { google::protobuf::SetLogHandler(nullptr); }

std::string SerializeHloModuleProto(const HloModuleProto& proto, bool text) {
  std::string out;
  if (text) {
    google::protobuf::TextFormat::PrintToString(proto, &out);
    return out;
  }
  {
    google::protobuf::io::StringOutputStream stream(&out);
    google::protobuf::io::CodedOutputStream coded(&stream);
    coded.SetSerializationDeterministic(true);
    proto.SerializeToCodedStream(&coded);
  }
  return out;
}

bool IsRunnableFileName(absl::string_view path) {
  return HasExtension(path, ".hlo") || HasExtension(path, ".pb") ||
         HasExtension(path, ".pbtxt");
}

namespace {

absl::Status ExpandDirectory(const std::string& dir,
                             std::vector<std::string>* out) {
  std::vector<std::string> found;
  std::error_code ec;
  std::filesystem::recursive_directory_iterator it(
      dir, std::filesystem::directory_options::skip_permission_denied, ec);
  if (ec) {
    return absl::InvalidArgumentError(
        absl::StrCat(dir, ": cannot list directory: ", ec.message()));
  }
  for (; it != std::filesystem::recursive_directory_iterator();
       it.increment(ec)) {
    if (ec) {
      return absl::InvalidArgumentError(
          absl::StrCat(dir, ": cannot list directory: ", ec.message()));
    }
    std::error_code type_ec;
    if (!it->is_regular_file(type_ec)) continue;
    std::string name = it->path().string();
    if (IsRunnableFileName(name)) found.push_back(std::move(name));
  }
  if (found.empty()) {
    return absl::InvalidArgumentError(
        absl::StrCat(dir, ": directory holds no *.hlo, *.pb or *.pbtxt files"));
  }
  std::sort(found.begin(), found.end());
  out->insert(out->end(), found.begin(), found.end());
  return absl::OkStatus();
}

bool IsGlobPattern(absl::string_view s) {
  return s.find_first_of("*?[") != absl::string_view::npos;
}

}  // namespace

absl::StatusOr<std::vector<std::string>> ExpandFileArguments(
    absl::Span<const std::string> arguments) {
  std::vector<std::string> files;
  for (const std::string& arg : arguments) {
    std::error_code ec;
    if (std::filesystem::is_directory(arg, ec)) {
      AOT_RETURN_IF_ERROR(ExpandDirectory(arg, &files));
      continue;
    }
    if (std::filesystem::exists(arg, ec) || !IsGlobPattern(arg)) {
      // A missing plain path is reported when it is read (naming it).
      files.push_back(arg);
      continue;
    }
    glob_t matches{};
    int rc = glob(arg.c_str(), GLOB_ERR, nullptr, &matches);
    if (rc != 0) {
      globfree(&matches);
      return absl::InvalidArgumentError(absl::StrCat(
          "pattern '", arg, "' ",
          rc == GLOB_NOMATCH ? "matches no file" : "cannot be expanded"));
    }
    std::vector<std::string> matched(matches.gl_pathv,
                                     matches.gl_pathv + matches.gl_pathc);
    globfree(&matches);
    std::sort(matched.begin(), matched.end());
    for (const std::string& m : matched) {
      if (std::filesystem::is_directory(m, ec)) {
        AOT_RETURN_IF_ERROR(ExpandDirectory(m, &files));
      } else {
        files.push_back(m);
      }
    }
  }
  return files;
}

// ---------------------------------------------------------------------------
// Targets.

absl::StatusOr<PlatformKind> ParsePlatformName(absl::string_view name) {
  if (name == "host") return PLATFORM_HOST;
  if (name == "cuda" || name == "gpu") return PLATFORM_CUDA;
  return absl::InvalidArgumentError(
      absl::StrCat("unknown platform '", name, "' (known: host, cuda)"));
}

absl::string_view PlatformName(PlatformKind platform) {
  switch (platform) {
    case PLATFORM_HOST:
      return "host";
    case PLATFORM_CUDA:
      return "cuda";
    default:
      return "unspecified";
  }
}

std::string DefaultTargetName(PlatformKind platform,
                              const std::set<std::string>& host_features) {
  if (platform == PLATFORM_CUDA) return "h100";
  HostIsaLevel level = BestHostIsaLevel(host_features);
  int n = level == HOST_ISA_LEVEL_UNSPECIFIED ? 2 : static_cast<int>(level);
  return absl::StrCat("host-x86-64-v", n);
}

absl::StatusOr<TargetConfigProto> SelectTarget(
    PlatformKind platform, absl::string_view target_config) {
  std::string name = target_config.empty()
                         ? DefaultTargetName(platform, DetectHostCpuFeatures())
                         : std::string(target_config);
  auto target = ResolveTargetConfig(name);
  if (!target.ok()) return target.status();
  if (target->platform() != platform) {
    return absl::InvalidArgumentError(absl::StrCat(
        "target config '", name, "' is for platform ",
        PlatformName(target->platform()), ", not ", PlatformName(platform),
        " (pass a ", PlatformName(platform),
        " target, or --platform=", PlatformName(target->platform()), ")"));
  }
  return target;
}

// ---------------------------------------------------------------------------
// Stages.

namespace {

constexpr StageInfo kStages[] = {
    {"hlo", "the module as parsed, printed back as HLO text"},
    {"hlo-optimized",
     "after simplification and layout normalization, before fusion"},
    {"hlo-fused", "the optimized, fused HLO embedded in the executable"},
    {"buffer-assignment",
     "allocations, their kinds and sizes, and each value's slice"},
    {"thunks", "the thunk sequence of the executable, without binaries"},
    {"llvm", "the optimized LLVM IR of every kernel"},
    {"ptx", "the PTX of every kernel (--platform=cuda only)"},
};

}  // namespace

absl::Span<const StageInfo> CompilerStages() { return kStages; }

const StageInfo* FindCompilerStage(absl::string_view name) {
  for (const StageInfo& s : kStages) {
    if (name == s.name) return &s;
  }
  return nullptr;
}

std::string ListCompilerStages() {
  std::string out;
  for (const StageInfo& s : kStages) {
    absl::StrAppend(&out,
                    absl::StrFormat("  %-18s %s\n", s.name, s.description));
  }
  return out;
}

// ---------------------------------------------------------------------------
// Runs.

double MedianMs(std::vector<double> samples_ms) {
  if (samples_ms.empty()) return 0;
  std::sort(samples_ms.begin(), samples_ms.end());
  size_t n = samples_ms.size();
  if (n % 2 == 1) return samples_ms[n / 2];
  return (samples_ms[n / 2 - 1] + samples_ms[n / 2]) / 2;
}

std::string DescribeDefaultTolerance(const Shape& shape) {
  std::vector<PrimitiveType> types;
  for (const Shape& leaf : shape.FlattenLeaves()) {
    if (std::find(types.begin(), types.end(), leaf.element_type()) ==
        types.end()) {
      types.push_back(leaf.element_type());
    }
  }
  std::vector<std::string> parts;
  for (PrimitiveType type : types) {
    Tolerance t = DefaultTolerance(type);
    if (t.bitwise()) {
      parts.push_back(absl::StrCat(PrimitiveTypeName(type), ": bitwise"));
    } else {
      parts.push_back(absl::StrCat(PrimitiveTypeName(type), ": atol=", t.atol,
                                   " rtol=", t.rtol));
    }
  }
  return absl::StrJoin(parts, "; ");
}

ReferenceOutcome CompareWithReference(const Literal& expected,
                                      const Literal& actual) {
  ReferenceOutcome outcome;
  outcome.tolerance = DescribeDefaultTolerance(expected.shape());
  absl::Status s = CompareLiteralsWithDefaultTolerance(expected, actual);
  if (s.ok()) {
    outcome.result = ReferenceResult::kMatch;
  } else {
    outcome.result = ReferenceResult::kMismatch;
    outcome.detail = std::string(s.message());
  }
  return outcome;
}

ReferenceOutcome SkippedReference(absl::string_view why) {
  ReferenceOutcome outcome;
  outcome.result = ReferenceResult::kSkipped;
  outcome.detail = std::string(why);
  return outcome;
}

bool IsCannotExecute(const absl::Status& status) {
  return status.code() == absl::StatusCode::kFailedPrecondition &&
         absl::StrContains(status.message(), "cannot execute");
}

namespace {

std::string Ms(double ms) { return absl::StrFormat("%.3f ms", ms); }

std::string FormatReference(const ReferenceOutcome& r) {
  switch (r.result) {
    case ReferenceResult::kMatch:
      return absl::StrCat("reference: match (tolerance ", r.tolerance, ")");
    case ReferenceResult::kMismatch:
      return absl::StrCat("reference: mismatch (", r.detail, "; tolerance ",
                          r.tolerance, ")");
    case ReferenceResult::kSkipped:
      return r.detail.empty()
                 ? std::string("reference: skipped")
                 : absl::StrCat("reference: skipped (", r.detail, ")");
  }
  return "reference: skipped";
}

}  // namespace

std::string FormatRunSummary(absl::string_view file, const Shape& result_shape,
                             const RunTiming& timing,
                             const ReferenceOutcome& reference) {
  return absl::StrCat(file, ": ", result_shape.ToString(false), " load ",
                      Ms(timing.load_ms), ", first ", Ms(timing.first_ms),
                      ", steady ", Ms(timing.steady_ms), ", ",
                      FormatReference(reference));
}

std::string FormatSkippedRunSummary(absl::string_view file,
                                    const Shape& result_shape, double load_ms,
                                    absl::string_view why) {
  std::string reason(why);
  for (char& c : reason) {
    if (c == '\n') c = ' ';
  }
  return absl::StrCat(file, ": ", result_shape.ToString(false), " load ",
                      Ms(load_ms), ", execution skipped (", reason,
                      "), reference: skipped");
}

std::string OutputPathFor(const std::string& outputs, size_t index,
                          size_t count) {
  if (count == 1) return outputs;
  std::string stem = outputs;
  if (absl::EndsWith(stem, ".json")) stem.resize(stem.size() - 5);
  return absl::StrCat(stem, ".", index, ".json");
}

}  // namespace aot
