#include "compiler/tooling/input_files.h"

#include <glob.h>

#include <algorithm>
#include <filesystem>
#include <system_error>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "google/protobuf/stubs/logging.h"
#include "runtime/executable/client.h"
#include "support/status_macros.h"

namespace aot {
InputKind DetectRunInputKind(absl::string_view path, absl::string_view bytes) {
  if (absl::EndsWith(path, ".hlo") || LooksLikeHloText(bytes)) {
    return InputKind::kHloText;
  }
  if (absl::EndsWith(path, ".mlir") || stablehlo::LooksLikeMlirText(bytes)) {
    return InputKind::kStableHloText;
  }
  return GuessArtifactFormat(bytes, path) == ArtifactFormat::kText ? InputKind::kExecutableText
                                                                   : InputKind::kExecutableBinary;
}

void SilenceProtobufLogging() { google::protobuf::SetLogHandler(nullptr); }

bool IsRunnableFileName(absl::string_view path) {
  return absl::EndsWith(path, ".hlo") || absl::EndsWith(path, ".mlir") ||
         absl::EndsWith(path, ".pb") || absl::EndsWith(path, ".pbtxt");
}

namespace {

absl::Status ExpandDirectory(const std::string& dir, std::vector<std::string>* out) {
  std::vector<std::string> found;
  std::error_code ec;
  std::filesystem::recursive_directory_iterator it(
      dir, std::filesystem::directory_options::skip_permission_denied, ec);
  if (ec) {
    return absl::InvalidArgumentError(absl::StrCat(dir, ": cannot list directory: ", ec.message()));
  }
  for (; it != std::filesystem::recursive_directory_iterator(); it.increment(ec)) {
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
          "pattern '", arg, "' ", rc == GLOB_NOMATCH ? "matches no file" : "cannot be expanded"));
    }
    std::vector<std::string> matched(matches.gl_pathv, matches.gl_pathv + matches.gl_pathc);
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

}  // namespace aot
