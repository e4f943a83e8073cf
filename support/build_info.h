#ifndef AOT_SUPPORT_BUILD_INFO_H_
#define AOT_SUPPORT_BUILD_INFO_H_

#include <string_view>

namespace aot {

// `git describe --always --dirty --tags` of the source tree at build time
// ("unknown" outside a git checkout). The compiler records it as
// ExecutableMetadataProto.compiler_version.
const char* BuildGitDescribe();
// Full commit hash at build time ("unknown" outside a git checkout).
const char* BuildGitCommit();

// Whether a build with this describe and commit was made from a commit:
// inside git ("unknown" is not) and without uncommitted changes (a
// describe ending in "-dirty" is not).
inline bool IsBuiltFromCommit(std::string_view describe, std::string_view commit) {
  constexpr std::string_view kDirty = "-dirty";
  const bool dirty = describe.size() >= kDirty.size() &&
                     describe.substr(describe.size() - kDirty.size()) == kDirty;
  return !dirty && !commit.empty() && commit != "unknown";
}

}  // namespace aot

#endif  // AOT_SUPPORT_BUILD_INFO_H_
