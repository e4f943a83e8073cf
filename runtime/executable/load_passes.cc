#include "runtime/executable/load_passes.h"

#include "runtime/thunks/command_buffer_thunk.h"
#include "runtime/thunks/conditional_thunk.h"
#include "runtime/thunks/kernel_thunk.h"
#include "runtime/thunks/sequential_thunk.h"
#include "runtime/thunks/while_thunk.h"

namespace aot {

std::vector<std::string> LoadPassNames() { return {"command-buffer"}; }

LoadPassStats RunCommandBufferPass(ThunkSequence& thunks, Platform& platform) {
  LoadPassStats stats;
  auto merge = [&](const LoadPassStats& s) {
    stats.command_buffers += s.command_buffers;
    stats.kernels_in_command_buffers += s.kernels_in_command_buffers;
  };
  // Recurse into control thunks first.
  for (auto& thunk : thunks) {
    switch (thunk->kind()) {
      case Thunk::Kind::kSequential:
        merge(RunCommandBufferPass(static_cast<SequentialThunk&>(*thunk).thunks(), platform));
        break;
      case Thunk::Kind::kWhile: {
        auto& w = static_cast<WhileThunk&>(*thunk);
        merge(RunCommandBufferPass(w.condition(), platform));
        merge(RunCommandBufferPass(w.body(), platform));
        break;
      }
      case Thunk::Kind::kConditional:
        for (auto& branch : static_cast<ConditionalThunk&>(*thunk).branches()) {
          merge(RunCommandBufferPass(branch, platform));
        }
        break;
      default:
        break;
    }
  }
  ThunkSequence out;
  out.reserve(thunks.size());
  std::vector<std::unique_ptr<KernelThunk>> run;
  auto flush = [&]() {
    if (run.size() >= 2) {
      stats.command_buffers += 1;
      stats.kernels_in_command_buffers += static_cast<int64_t>(run.size());
      out.push_back(std::make_unique<CommandBufferThunk>(std::move(run), platform));
    } else {
      for (auto& k : run) out.push_back(std::move(k));
    }
    run.clear();
  };
  for (auto& thunk : thunks) {
    if (thunk->kind() == Thunk::Kind::kKernel) {
      run.push_back(std::unique_ptr<KernelThunk>(static_cast<KernelThunk*>(thunk.release())));
    } else {
      flush();
      out.push_back(std::move(thunk));
    }
  }
  flush();
  thunks = std::move(out);
  return stats;
}

}  // namespace aot
