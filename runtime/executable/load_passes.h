#ifndef AOT_RUNTIME_EXECUTABLE_LOAD_PASSES_H_
#define AOT_RUNTIME_EXECUTABLE_LOAD_PASSES_H_

#include <string>
#include <vector>

#include "runtime/thunks/thunk.h"

namespace aot {

// Load-time thunk passes (CONTRACT.md s. 3 step 2). They transform the
// in-memory thunk graph only; the serialized form is unaffected.
struct LoadPassStats {
  int64_t command_buffers = 0;
  int64_t kernels_in_command_buffers = 0;
};

// Names of the load-time passes this runtime runs, in order (recorded in
// release snapshots: changing them is a "depends" change in triage).
std::vector<std::string> LoadPassNames();

// Groups every run of >= 2 consecutive kernel thunks (at any nesting level)
// into one command-buffer thunk of `platform`.
LoadPassStats RunCommandBufferPass(ThunkSequence& thunks, Platform& platform);

}  // namespace aot

#endif  // AOT_RUNTIME_EXECUTABLE_LOAD_PASSES_H_
