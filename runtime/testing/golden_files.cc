#include "runtime/testing/golden_files.h"

#include <filesystem>

#include "absl/strings/str_cat.h"
#include "nlohmann/json.hpp"
#include "runtime/executable/client.h"
#include "support/blob_store.h"
#include "support/file_io.h"
#include "support/status_macros.h"

namespace aot {
namespace testing {

namespace fs = std::filesystem;

absl::StatusOr<ExecutableProto> ReadGoldenExecutable(const std::string& version_dir,
                                                     const std::string& test) {
  const std::string manifest_path = (fs::path(version_dir) / "MANIFEST.json").string();
  AOT_ASSIGN_OR_RETURN(std::string manifest_text, ReadFileToString(manifest_path));
  nlohmann::json manifest = nlohmann::json::parse(manifest_text, nullptr, false);
  if (!manifest.is_object()) {
    return absl::InvalidArgumentError(absl::StrCat(manifest_path, ": not a JSON object"));
  }
  if (manifest.value("format", 1) == 1) {
    const std::string path = (fs::path(version_dir) / (test + ".pbtxt")).string();
    AOT_ASSIGN_OR_RETURN(std::string text, ReadFileToString(path));
    return ParseExecutableProto(text, ArtifactFormat::kText);
  }
  const nlohmann::json& entry = manifest["tests"][test];
  if (!entry.is_object() || !entry["artifact"].is_string()) {
    return absl::NotFoundError(absl::StrCat(manifest_path, " names no test '", test, "'"));
  }
  // golden/executables/<target>/v<N> -> golden/store
  const BlobStore store(
      (fs::path(version_dir).parent_path().parent_path().parent_path() / "store").string());
  AOT_ASSIGN_OR_RETURN(std::string bytes,
                       store.Get("artifacts", entry["artifact"].get<std::string>()));
  return ParseExecutableProto(bytes, ArtifactFormat::kBinary);
}

}  // namespace testing
}  // namespace aot
