#include "harness/report/tool_versions.h"

#include <cstdio>

#include "absl/base/config.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/strip.h"
#include "google/protobuf/stubs/common.h"
#include "llvm/Config/llvm-config.h"
#include "nlohmann/json.hpp"
#include "proto/schema.h"
#include "runtime/abi_version.h"
#include "support/build_info.h"

extern "C" char* openblas_get_config(void);

namespace aot {
namespace {

std::string FirstLineOfCommand(const std::string& command) {
  FILE* pipe = ::popen(command.c_str(), "r");
  if (pipe == nullptr) return "";
  std::string out;
  char buffer[512];
  while (std::fgets(buffer, sizeof(buffer), pipe) != nullptr) out += buffer;
  ::pclose(pipe);
  // The last non-empty line carries the release for ptxas.
  std::string last;
  size_t start = 0;
  while (start < out.size()) {
    size_t end = out.find('\n', start);
    if (end == std::string::npos) end = out.size();
    if (end > start) last = out.substr(start, end - start);
    start = end + 1;
  }
  return last;
}

}  // namespace

std::vector<std::pair<std::string, std::string>> ToolVersions() {
  std::vector<std::pair<std::string, std::string>> v;
  v.emplace_back("aot", BuildGitDescribe());
  v.emplace_back("commit", BuildGitCommit());
  v.emplace_back("runtime_abi", RuntimeAbiVersion::Current().ToString());
  v.emplace_back("schema_fingerprint", SchemaFingerprint());
  v.emplace_back("llvm", LLVM_VERSION_STRING);
  v.emplace_back("protobuf", google::protobuf::internal::VersionString(GOOGLE_PROTOBUF_VERSION));
#ifdef ABSL_LTS_RELEASE_VERSION
  v.emplace_back("abseil",
                 absl::StrCat("lts_", ABSL_LTS_RELEASE_VERSION, ".", ABSL_LTS_RELEASE_PATCH_LEVEL));
#endif
  v.emplace_back("nlohmann_json",
                 absl::StrCat(NLOHMANN_JSON_VERSION_MAJOR, ".", NLOHMANN_JSON_VERSION_MINOR, ".",
                              NLOHMANN_JSON_VERSION_PATCH));
  v.emplace_back("openblas", std::string(absl::StripAsciiWhitespace(openblas_get_config())));
#ifdef AOT_CUDA_VERSION
  v.emplace_back("cuda_toolkit", AOT_CUDA_VERSION);
#else
  v.emplace_back("cuda_toolkit", "not built (AOT_ENABLE_CUDA)");
#endif
#ifdef AOT_PTXAS_PATH
  std::string ptxas = FirstLineOfCommand(absl::StrCat(AOT_PTXAS_PATH, " --version 2>/dev/null"));
  v.emplace_back("ptxas", ptxas.empty() ? "not runnable" : ptxas);
#endif
  v.emplace_back("cxx_compiler", AOT_CXX_COMPILER);
  return v;
}

}  // namespace aot
