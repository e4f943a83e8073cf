#include "compiler/backend/compiler_stages.h"

#include <string>
#include <vector>

#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace aot {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;

TEST(CompilerStagesTest, StageTable) {
  std::vector<std::string> names;
  for (const StageInfo& s : CompilerStages()) {
    names.emplace_back(s.name);
    EXPECT_NE(std::string(s.description), "");
  }
  EXPECT_THAT(names, ElementsAre("hlo", "hlo-optimized", "hlo-fused", "dot", "buffer-assignment",
                                 "thunks", "llvm-unoptimized", "llvm", "ptx"));
  EXPECT_EQ(FindCompilerStage("llvm"), CompilerStage::kLlvm);
  // XLA's names (the tools guide's) are aliases of ours.
  EXPECT_EQ(FindCompilerStage("llvm-after-optimizations"), CompilerStage::kLlvm);
  EXPECT_EQ(FindCompilerStage("llvm-before-optimizations"), CompilerStage::kLlvmUnoptimized);
  EXPECT_EQ(FindCompilerStage("hlo-backend"), CompilerStage::kHloFused);
  EXPECT_EQ(FindCompilerStage("dot"), CompilerStage::kDot);
  // A host compile makes no PTX.
  EXPECT_THAT(ListCompilerStages(/*cuda=*/true), HasSubstr("  ptx "));
  EXPECT_THAT(ListCompilerStages(/*cuda=*/false), ::testing::Not(HasSubstr("  ptx ")));
  EXPECT_THAT(ListCompilerStages(false), HasSubstr("(XLA: llvm-before-optimizations)"));
  EXPECT_EQ(FindCompilerStage("asm"), std::nullopt);
  EXPECT_EQ(CompilerStageName(CompilerStage::kHloOptimized), "hlo-optimized");
  EXPECT_THAT(ListCompilerStages(), HasSubstr("  buffer-assignment  "));
}

}  // namespace
}  // namespace aot
