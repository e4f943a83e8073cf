#include "compiler/tooling/stablehlo_support_table.h"

#include <algorithm>
#include <filesystem>
#include <set>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "compiler/stablehlo/mlir_text.h"
#include "compiler/stablehlo/stablehlo_to_hlo.h"
#include "support/file_io.h"
#include "support/status_macros.h"

namespace aot {
namespace {

// The names an operation stands for: itself, a reduce's `applies` op, a
// custom_call's check target.
void CollectOps(const stablehlo::MlirRegion& region, std::set<std::string>* names) {
  for (const stablehlo::MlirBlock& block : region.blocks) {
    for (const stablehlo::MlirOperation& op : block.operations) {
      std::string name = op.name;
      if (name == "return" || name == "func.return" || name == "stablehlo.return") {
        name = name == "stablehlo.return" ? "stablehlo.return" : "func.return";
      }
      if (name == "call") name = "func.call";
      names->insert(name);
      if (!op.applies.empty()) names->insert(op.applies);
      if (name == "stablehlo.custom_call") {
        for (const stablehlo::MlirAttr& p : op.positional) {
          if (p.kind == stablehlo::MlirAttr::kSymbol && absl::StartsWith(p.s, "check.")) {
            names->insert(p.s);
          }
        }
      }
      for (const stablehlo::MlirRegion& nested : op.regions) CollectOps(nested, names);
    }
  }
}

}  // namespace

const std::vector<std::string>& StableHloTestDirectories() {
  static const auto* dirs =
      new std::vector<std::string>{"compiler/stablehlo/testdata/interpret",
                                   "compiler/stablehlo/testdata/jax", "golden/modules/stablehlo"};
  return *dirs;
}

absl::StatusOr<std::map<std::string, int>> CountStableHloOpUses(
    const std::vector<std::string>& dirs) {
  std::map<std::string, int> uses;
  for (const std::string& dir : dirs) {
    std::vector<std::filesystem::path> files;
    std::error_code ec;
    for (const auto& e : std::filesystem::directory_iterator(dir, ec)) {
      if (e.path().extension() == ".mlir") files.push_back(e.path());
    }
    if (ec) return absl::NotFoundError(absl::StrCat(dir, ": ", ec.message()));
    std::sort(files.begin(), files.end());
    for (const auto& path : files) {
      AOT_ASSIGN_OR_RETURN(std::string text, ReadFileToString(path.string()));
      for (const stablehlo::MlirChunk& chunk : stablehlo::SplitMlirInput(text)) {
        if (chunk.text.find("func.func") == absl::string_view::npos) continue;
        AOT_ASSIGN_OR_RETURN(
            stablehlo::MlirModule module,
            stablehlo::ParseMlirModule(chunk.text, path.string(), chunk.first_line));
        std::set<std::string> names = {"func.func"};
        for (const stablehlo::MlirFunction& fn : module.functions) CollectOps(fn.body, &names);
        for (const std::string& n : names) ++uses[n];
      }
    }
  }
  return uses;
}

std::string StableHloSupportTableMarkdown(const std::map<std::string, int>& uses) {
  std::string out =
      "The StableHLO, CHLO and check operations the front end (`compiler/stablehlo`) converts to "
      "HLO, and those it refuses by name; `programs` is how many of the project's StableHLO test "
      "programs (`compiler/stablehlo/testdata`, `golden/modules/stablehlo`) use the operation "
      "and pass their checks on the interpreter and the host.\n\n"
      "| operation | converted | programs | note |\n|---|---|---|---|\n";
  int converted = 0, refused = 0, tested = 0;
  for (const stablehlo::OpSupport& op : stablehlo::StableHloOpSupport()) {
    auto it = uses.find(op.name);
    const int n = it == uses.end() ? 0 : it->second;
    absl::StrAppend(&out, "| `", op.name, "` | ", op.supported ? "yes" : "no", " | ", n, " | ",
                    op.note, " |\n");
    (op.supported ? converted : refused) += 1;
    if (op.supported && n > 0) ++tested;
  }
  absl::StrAppend(&out, "| **", converted + refused, " in all** | ", converted, " | ", tested,
                  " tested | ", refused, " refused by name |\n");
  return out;
}

}  // namespace aot
