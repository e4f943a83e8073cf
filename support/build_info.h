#ifndef AOT_SUPPORT_BUILD_INFO_H_
#define AOT_SUPPORT_BUILD_INFO_H_

namespace aot {

// `git describe --always --dirty --tags` of the source tree at build time
// ("unknown" outside a git checkout). The compiler records it as
// ExecutableMetadataProto.compiler_version.
const char* BuildGitDescribe();
// Full commit hash at build time ("unknown" outside a git checkout).
const char* BuildGitCommit();

}  // namespace aot

#endif  // AOT_SUPPORT_BUILD_INFO_H_
