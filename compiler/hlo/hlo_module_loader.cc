#include "compiler/hlo/hlo_module_loader.h"

#include <utility>

#include "absl/strings/ascii.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "compiler/hlo/hlo_parser.h"
#include "google/protobuf/text_format.h"
#include "proto/executable.pb.h"
#include "support/file_io.h"
#include "support/proto_util.h"
#include "support/status_macros.h"

namespace aot {
namespace {

// Bytes that parse as an ExecutableProto with an entry interface or thunks:
// the loader names them as such instead of reporting a malformed module.
bool IsSerializedExecutable(absl::string_view bytes, bool text) {
  ExecutableProto proto;
  bool parsed = text ? ParseTextProto(bytes, &proto).ok() : ParseBinaryProto(bytes, &proto);
  return parsed &&
         (proto.thunks_size() > 0 || proto.has_result() || proto.buffer_allocations_size() > 0);
}

absl::Status NotAModule(absl::string_view path) {
  return absl::InvalidArgumentError(
      absl::StrCat(path,
                   ": this is a serialized executable (ExecutableProto), not an HLO module "
                   "(run it with aot-run)"));
}

}  // namespace

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
    case InputKind::kStableHloText:
      return "StableHLO text";
  }
  return "unknown";
}

bool LooksLikeHloText(absl::string_view bytes) {
  bool in_block_comment = false;
  for (absl::string_view line : absl::StrSplit(bytes.substr(0, 1 << 16), '\n')) {
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
    // The header, or (headerless, as XLA's parser also accepts) the entry.
    for (absl::string_view word : {absl::string_view("HloModule"), absl::string_view("ENTRY")}) {
      if (absl::StartsWith(l, word) &&
          (l.size() == word.size() ||
           absl::ascii_isspace(static_cast<unsigned char>(l[word.size()])))) {
        return true;
      }
    }
    return false;
  }
  return false;
}

InputKind DetectModuleInputKind(absl::string_view path, absl::string_view bytes) {
  if (LooksLikeHloText(bytes)) return InputKind::kHloText;
  if (absl::EndsWith(path, ".mlir") || stablehlo::LooksLikeMlirText(bytes)) {
    return InputKind::kStableHloText;
  }
  if (absl::EndsWith(path, ".pbtxt") || absl::EndsWith(path, ".txtpb")) {
    return InputKind::kHloProtoText;
  }
  if (absl::EndsWith(path, ".pb") || absl::EndsWith(path, ".binpb")) {
    return InputKind::kHloProtoBinary;
  }
  return InputKind::kHloText;
}

absl::Status WithPath(absl::string_view path, const absl::Status& status) {
  return absl::Status(status.code(), absl::StrCat(path, ": ", status.message()));
}

absl::Status AtSource(const LoadedHloModule& loaded, const absl::Status& status) {
  if (loaded.stablehlo == nullptr) return status;
  return stablehlo::MapHloErrorToSource(*loaded.stablehlo, status);
}

absl::StatusOr<LoadedHloModule> LoadStableHloProgram(
    absl::string_view text, absl::string_view path, int first_line, const std::string& function,
    const std::vector<std::vector<int64_t>>& argument_dims) {
  stablehlo::ConvertOptions options;
  options.entry = function;
  options.entry_argument_dims = argument_dims;
  auto converted = stablehlo::ConvertStableHloText(text, path, options, first_line);
  AOT_RETURN_IF_ERROR(converted);
  auto program = std::make_shared<const stablehlo::ConvertedProgram>(*std::move(converted));
  auto parsed = ParseHloModuleWithDetails(program->hlo_text);
  AOT_RETURN_IF_ERROR_AND(parsed, stablehlo::MapHloErrorToSource(*program, _));
  LoadedHloModule loaded;
  loaded.module = std::move(parsed->module);
  loaded.stablehlo = std::move(program);
  return loaded;
}

absl::StatusOr<LoadedHloModule> ParseHloModuleBytes(absl::string_view bytes, absl::string_view path,
                                                    InputKind kind, uint64_t elided_constant_seed) {
  LoadedHloModule loaded;
  switch (kind) {
    case InputKind::kStableHloText: {
      std::vector<stablehlo::MlirChunk> chunks = stablehlo::SplitMlirInput(bytes);
      if (chunks.size() > 1) {
        return absl::InvalidArgumentError(absl::StrCat(
            path, ": ", chunks.size(),
            " programs separated by '// -----': aot-run runs each in turn; compile one at a "
            "time"));
      }
      return LoadStableHloProgram(bytes, path, 1, "");
    }
    case InputKind::kHloText: {
      HloParserOptions options;
      options.elided_constant_seed = elided_constant_seed;
      auto parsed = ParseHloModuleWithDetails(bytes, options);
      AOT_RETURN_IF_ERROR_AND(parsed, WithPath(path, _));
      loaded.module = std::move(parsed->module);
      loaded.elided_constants = std::move(parsed->elided_constants);
      return loaded;
    }
    case InputKind::kHloProtoBinary:
    case InputKind::kHloProtoText: {
      HloModuleProto proto;
      if (kind == InputKind::kHloProtoText) {
        if (absl::Status parsed = ParseTextProto(bytes, &proto); !parsed.ok()) {
          if (IsSerializedExecutable(bytes, /*text=*/true)) {
            return NotAModule(path);
          }
          return absl::InvalidArgumentError(
              absl::StrCat(path, ": not a valid text-format HloModuleProto: ", parsed.message()));
        }
      } else {
        if (!ParseBinaryProto(bytes, &proto)) {
          if (IsSerializedExecutable(bytes, /*text=*/false)) {
            return NotAModule(path);
          }
          return absl::InvalidArgumentError(
              absl::StrCat(path, ": not a valid binary HloModuleProto (", bytes.size(),
                           " bytes: truncated or corrupted)"));
        }
      }
      if (proto.computations_size() == 0) {
        if (IsSerializedExecutable(
                bytes, kind == InputKind::kHloProtoText ? /*text=*/true : /*text=*/false)) {
          return NotAModule(path);
        }
        return absl::InvalidArgumentError(
            absl::StrCat(path, ": HloModuleProto has no computations (is it an HLO module?)"));
      }
      auto module = HloModuleFromProto(proto);
      AOT_RETURN_IF_ERROR_AND(module, WithPath(path, _));
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

absl::StatusOr<LoadedHloModule> LoadHloModuleFile(const std::string& path,
                                                  uint64_t elided_constant_seed) {
  AOT_ASSIGN_OR_RETURN(auto bytes, ReadFileToString(path));
  return ParseHloModuleBytes(bytes, path, DetectModuleInputKind(path, bytes), elided_constant_seed);
}

std::string SerializeHloModuleProto(const HloModuleProto& proto, bool text) {
  if (!text) return SerializeDeterministic(proto);
  std::string out;
  google::protobuf::TextFormat::PrintToString(proto, &out);
  return out;
}

}  // namespace aot
