#include "compiler/tooling/support_table.h"

#include <cstring>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "compiler/hlo/hlo_opcode.h"
#include "compiler/stablehlo/stablehlo_to_hlo.h"
#include "compiler/tooling/stablehlo_support_table.h"
#include "gtest/gtest.h"
#include "support/file_io.h"

namespace aot {
namespace {

const SupportRow* Find(const std::vector<SupportRow>& rows, const std::string& name) {
  for (const SupportRow& r : rows) {
    if (r.name == name) return &r;
  }
  return nullptr;
}

TEST(SupportTableTest, ProbesTellSupportedFromMissing) {
  const bool cuda = CanCompileForCuda();
  std::vector<SupportRow> opcodes = ProbeOpcodes(cuda);
  ASSERT_EQ(opcodes.size(), XlaOpcodeNames().size());
  for (const char* name : {"add", "scatter", "while", "convolution", "bitcast-convert"}) {
    const SupportRow* row = Find(opcodes, name);
    ASSERT_NE(row, nullptr) << name;
    EXPECT_TRUE(row->parse && row->interpret && row->host) << name << ": " << row->note;
    EXPECT_EQ(row->cuda, cuda) << name << ": " << row->note;
  }
  const SupportRow* infeed = Find(opcodes, "infeed");
  ASSERT_NE(infeed, nullptr);
  EXPECT_FALSE(infeed->parse || infeed->interpret || infeed->host || infeed->cuda);
  EXPECT_EQ(infeed->note,
            "opcode 'infeed' is not supported by this runtime (no host transfer queue)");
  const SupportRow* missing = Find(opcodes, "ragged-all-to-all");
  ASSERT_NE(missing, nullptr);
  EXPECT_FALSE(missing->parse || missing->interpret || missing->host || missing->cuda);
  EXPECT_EQ(missing->note, "not implemented");
  // Bounded dynamic dimensions: read, interpreted and lowered to static HLO
  // (no staged rollout: nothing new reaches an artifact).
  for (const char* name : {"set-dimension-size", "dynamic-reshape"}) {
    const SupportRow* row = Find(opcodes, name);
    ASSERT_NE(row, nullptr) << name;
    EXPECT_TRUE(row->parse && row->interpret && row->host) << name << ": " << row->note;
    EXPECT_EQ(row->cuda, cuda) << name << ": " << row->note;
  }
  // rng draws from the runtime's state: read, interpreted, compiled behind
  // its emission flag.
  for (const char* name : {"rng", "rng-get-and-update-state"}) {
    const SupportRow* row = Find(opcodes, name);
    ASSERT_NE(row, nullptr) << name;
    EXPECT_TRUE(row->parse && row->interpret) << name << ": " << row->note;
    EXPECT_FALSE(row->host || row->cuda) << name;
    EXPECT_EQ(row->note, "staged rollout: behind the emission flag emit_rng_state (off by default)")
        << name;
  }

  // Complex values: read, interpreted, and compiled behind their emission
  // flag (staged rollout), so not by default.
  for (const char* name : {"fft", "real", "imag", "complex"}) {
    const SupportRow* row = Find(opcodes, name);
    ASSERT_NE(row, nullptr) << name;
    EXPECT_TRUE(row->parse && row->interpret) << name << ": " << row->note;
    EXPECT_FALSE(row->host || row->cuda) << name;
    EXPECT_EQ(row->note,
              "staged rollout: behind the emission flag emit_extended_element_types (off by "
              "default)")
        << name;
  }
  // Lowered or expanded before emission: supported end to end.
  for (const char* name : {"async-done", "copy-start", "after-all", "map", "topk",
                           "batch-norm-grad", "cholesky", "triangular-solve", "rng-bit-generator",
                           "stochastic-convert", "ragged-dot", "mulhi", "scaled-dot", "scan"}) {
    const SupportRow* row = Find(opcodes, name);
    ASSERT_NE(row, nullptr) << name;
    EXPECT_TRUE(row->parse && row->interpret && row->host) << name << ": " << row->note;
    EXPECT_EQ(row->cuda, cuda) << name << ": " << row->note;
  }

  std::vector<SupportRow> types = ProbeElementTypes(cuda);
  const SupportRow* bf16 = Find(types, "bf16");
  ASSERT_NE(bf16, nullptr);
  EXPECT_TRUE(bf16->parse && bf16->interpret && bf16->host) << bf16->note;
  const SupportRow* c64 = Find(types, "c64");
  ASSERT_NE(c64, nullptr);
  EXPECT_TRUE(c64->parse && c64->interpret) << c64->note;
  EXPECT_FALSE(c64->host || c64->cuda);
}

TEST(SupportTableTest, MarkdownCountsEachColumn) {
  std::vector<SupportRow> rows = {{"a", true, true, true, false, "no cuda"},
                                  {"b", true, false, false, false, "x"}};
  std::string md = SupportTableMarkdown(rows, {});
  EXPECT_NE(md.find("| `a` | yes | yes | yes | - | no cuda |"), std::string::npos) << md;
  EXPECT_NE(md.find("| **2 in all** | 2 | 1 | 1 | 0 | |"), std::string::npos) << md;
}

// The README's table is what the code does today.
TEST(SupportTableTest, ReadmeTableIsCurrent) {
  if (!CanCompileForCuda()) {
    GTEST_SKIP() << "CUDA libdevice is not installed here, so the table's cuda column cannot "
                    "be checked; the check runs where /usr/local/cuda is present (CI)";
  }
  auto readme = ReadFileToString("README.md");
  ASSERT_TRUE(readme.ok()) << readme.status();
  size_t begin = readme->find(kSupportTableBegin);
  size_t end = readme->find(kSupportTableEnd);
  ASSERT_NE(begin, std::string::npos) << "README.md has no support-table begin marker";
  ASSERT_NE(end, std::string::npos) << "README.md has no support-table end marker";
  std::string in_readme = readme->substr(begin, end + std::strlen(kSupportTableEnd) - begin);
  std::string current = absl::StrCat(
      kSupportTableBegin, "\n\n", SupportTableMarkdown(ProbeOpcodes(true), ProbeElementTypes(true)),
      "\n", kSupportTableEnd);
  if (in_readme == current) return;
  std::vector<std::string> a = absl::StrSplit(in_readme, '\n');
  std::vector<std::string> b = absl::StrSplit(current, '\n');
  size_t i = 0;
  while (i < a.size() && i < b.size() && a[i] == b[i]) ++i;
  ADD_FAILURE() << "README.md's support table is stale: replace the text between its markers "
                   "with the output of `build/compiler/tools/aotc --support_table`.\n"
                << "first difference, line " << i + 1
                << " of the table:\n  README: " << (i < a.size() ? a[i] : "(end)")
                << "\n  code:   " << (i < b.size() ? b[i] : "(end)");
}

// The README's StableHLO table is what the front end and its tests do.
TEST(SupportTableTest, ReadmeStableHloTableIsCurrent) {
  auto readme = ReadFileToString("README.md");
  ASSERT_TRUE(readme.ok()) << readme.status();
  size_t begin = readme->find(kStableHloTableBegin);
  size_t end = readme->find(kStableHloTableEnd);
  ASSERT_NE(begin, std::string::npos) << "README.md has no stablehlo-support-table begin marker";
  ASSERT_NE(end, std::string::npos) << "README.md has no stablehlo-support-table end marker";
  auto uses = CountStableHloOpUses(StableHloTestDirectories());
  ASSERT_TRUE(uses.ok()) << uses.status();
  const std::string current = absl::StrCat(
      kStableHloTableBegin, "\n\n", StableHloSupportTableMarkdown(*uses), "\n", kStableHloTableEnd);
  EXPECT_EQ(readme->substr(begin, end + std::strlen(kStableHloTableEnd) - begin), current)
      << "README.md's StableHLO table is stale: replace the text between its markers with the "
         "output of `build/compiler/tools/aotc --stablehlo_support_table`";
  // Most converted operations are exercised by a test program.
  int converted = 0, tested = 0;
  for (const stablehlo::OpSupport& op : stablehlo::StableHloOpSupport()) {
    if (!op.supported) continue;
    ++converted;
    if (uses->contains(op.name)) ++tested;
  }
  EXPECT_GE(tested * 10, converted * 7) << tested << " of " << converted << " tested";
}

}  // namespace
}  // namespace aot
