#include "compiler/passes/fusion.h"

#include <set>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "compiler/hlo/hlo_parser.h"
#include "compiler/passes/algebraic_simplifier.h"
#include "compiler/passes/hlo_dce.h"
#include "compiler/passes/layout_normalization.h"
#include "compiler/passes/test_util.h"
#include "gtest/gtest.h"
#include "support/testing/status_testing.h"

namespace aot {
namespace {

using testing_util::CountFusions;
using testing_util::CountOpcode;

// Runs the pre-fusion passes the pipeline runs (layout normalization,
// algsimp, dce), then fusion; checks the result is well formed and
// computes the same values.
std::unique_ptr<HloModule> Fuse(absl::string_view text, const FusionOptions& options = {}) {
  auto original = testing_util::Parse(text);
  auto m = testing_util::Parse(text);
  if (m == nullptr) return nullptr;
  // Dynamic dimensions are static before the pipeline (a no-op without).
  absl::StatusOr<bool> lowered = LowerDynamicDimensions(m.get());
  EXPECT_TRUE(lowered.ok()) << lowered.status();
  LayoutNormalization layout;
  AlgebraicSimplifier algsimp;
  HloDce dce;
  InstructionFusion fusion(options);
  for (HloPass* pass : std::vector<HloPass*>{&layout, &algsimp, &dce, &fusion}) {
    absl::StatusOr<bool> s = pass->Run(m.get());
    EXPECT_TRUE(s.ok()) << pass->name() << ": " << s.status();
  }
  testing_util::ExpectWellFormed(*m);
  testing_util::ExpectSameResults(*original, *m);
  return m;
}

std::unique_ptr<HloModule> FuseFile(const std::string& path, const FusionOptions& options = {}) {
  const std::string text = testing::ValueOrFailure(ReadFileToString(path), path);
  return text.empty() ? nullptr : Fuse(text, options);
}

std::vector<const HloInstruction*> Fusions(const HloComputation& c) {
  std::vector<const HloInstruction*> out;
  for (const HloInstruction* h : c.instructions()) {
    if (h->opcode() == HloOpcode::kFusion) out.push_back(h);
  }
  return out;
}

// Opcode names in a fused computation, in order, parameters left out.
std::vector<std::string> FusedOpcodes(const HloInstruction& fusion) {
  std::vector<std::string> out;
  for (const HloInstruction* h : fusion.called_computations()[0]->instructions()) {
    if (h->opcode() != HloOpcode::kParameter) {
      out.push_back(std::string(HloOpcodeString(h->opcode())));
    }
  }
  return out;
}

TEST(FusionTest, AddMulIsOneLoopFusion) {
  auto m = FuseFile("golden/modules/elementwise/add_mul.hlo");
  ASSERT_NE(m, nullptr);
  EXPECT_EQ(m->ToString(), testing_util::Canonical(R"(
HloModule add_mul, entry_computation_layout={(f32[4,8]{1,0}, f32[4,8]{1,0})->f32[4,8]{1,0}}

%fused_computation.1 (param_0: f32[4,8], param_1: f32[4,8]) -> f32[4,8] {
  %param_0 = f32[4,8]{1,0} parameter(0)
  %param_1 = f32[4,8]{1,0} parameter(1)
  %add = f32[4,8]{1,0} add(%param_0, %param_1)
  %mul = f32[4,8]{1,0} multiply(%add, %param_0)
  ROOT %sub = f32[4,8]{1,0} subtract(%mul, %param_1)
}

ENTRY %main (a: f32[4,8], b: f32[4,8]) -> f32[4,8] {
  %a = f32[4,8]{1,0} parameter(0)
  %b = f32[4,8]{1,0} parameter(1)
  ROOT %fusion.1 = f32[4,8]{1,0} fusion(%a, %b), kind=kLoop, calls=%fused_computation.1
}
)"));
  const HloInstruction* root = m->entry_computation()->root_instruction();
  ASSERT_EQ(root->opcode(), HloOpcode::kFusion);
  EXPECT_TRUE(root->called_computations()[0]->is_fusion_computation());
}

// Two kernels around the two dots: bias-add + relu after the first,
// bias-add after the second.
TEST(FusionTest, MlpHasTwoFusionsAndTwoDots) {
  auto m = FuseFile("golden/modules/dot/mlp.hlo");
  ASSERT_NE(m, nullptr);
  const HloComputation& entry = *m->entry_computation();
  EXPECT_EQ(CountFusions(*m), 2);
  EXPECT_EQ(CountOpcode(entry, HloOpcode::kDot), 2);
  std::vector<const HloInstruction*> fusions = Fusions(entry);
  ASSERT_EQ(fusions.size(), 2u);
  EXPECT_EQ(fusions[0]->attrs().fusion_kind, "kLoop");
  EXPECT_EQ(fusions[1]->attrs().fusion_kind, "kLoop");
  EXPECT_EQ(FusedOpcodes(*fusions[0]),
            (std::vector<std::string>{"broadcast", "add", "constant", "broadcast", "maximum"}));
  EXPECT_EQ(FusedOpcodes(*fusions[1]), (std::vector<std::string>{"broadcast", "add"}));
  // fusion(dot, b1) -> dot -> fusion(dot, b2): parameters are numbered
  // in the fused computation's post order.
  ASSERT_EQ(fusions[0]->operand_count(), 2);
  EXPECT_EQ(fusions[0]->operand(0)->opcode(), HloOpcode::kDot);
  EXPECT_EQ(fusions[0]->operand(1)->name(), "b1");
  EXPECT_EQ(entry.root_instruction(), fusions[1]);
  ASSERT_EQ(fusions[1]->operand_count(), 2);
  EXPECT_EQ(fusions[1]->operand(0)->opcode(), HloOpcode::kDot);
  EXPECT_EQ(fusions[1]->operand(1)->name(), "b2");
  EXPECT_EQ(fusions[1]->operand(0)->operand(0), fusions[0]);
}

// Softmax is exactly two kernels: the row max (a kInput fusion of the
// reduce), and one kInput fusion that recomputes exp(logits - max) for the
// row sum and again for the final divide (the "row broadcast" epilogue,
// see fusion.h). exp is never stored: it has two users (the sum and the
// divide), and as an expensive op it is not duplicated into two kernels;
// putting both its users in one kernel is what makes two kernels possible.
TEST(FusionTest, SoftmaxIsTwoInputFusions) {
  auto m = FuseFile("golden/modules/normalization/softmax.hlo");
  ASSERT_NE(m, nullptr);
  const HloComputation& entry = *m->entry_computation();
  std::vector<const HloInstruction*> fusions = Fusions(entry);
  ASSERT_EQ(fusions.size(), 2u) << m->ToString();
  EXPECT_EQ(fusions[0]->attrs().fusion_kind, "kInput");
  EXPECT_EQ(FusedOpcodes(*fusions[0]), (std::vector<std::string>{"constant", "reduce"}));
  EXPECT_EQ(fusions[1]->attrs().fusion_kind, "kInput");
  EXPECT_EQ(FusedOpcodes(*fusions[1]),
            (std::vector<std::string>{"broadcast", "subtract", "exponential", "constant", "reduce",
                                      "broadcast", "divide"}));
  EXPECT_EQ(entry.root_instruction(), fusions[1]);
  // Reads the logits and the row max.
  EXPECT_EQ(fusions[1]->operand(0)->opcode(), HloOpcode::kParameter);
  EXPECT_EQ(fusions[1]->operand(1), fusions[0]);
}

// Without the row-broadcast epilogue softmax takes four kernels: max,
// exp (stored, read twice), sum, divide.
TEST(FusionTest, SoftmaxWithoutRowEpilogueIsFourKernels) {
  FusionOptions options;
  options.fuse_row_broadcast_epilogue = false;
  auto m = FuseFile("golden/modules/normalization/softmax.hlo", options);
  ASSERT_NE(m, nullptr);
  EXPECT_EQ(CountFusions(*m), 4) << m->ToString();
}

// Layer norm: the mean's reduce, and one kernel that recomputes the
// centered values for the variance reduce and for the normalized output.
TEST(FusionTest, LayerNormIsTwoInputFusions) {
  auto m = FuseFile("golden/modules/normalization/layer_norm.hlo");
  ASSERT_NE(m, nullptr);
  std::vector<const HloInstruction*> fusions = Fusions(*m->entry_computation());
  ASSERT_EQ(fusions.size(), 2u) << m->ToString();
  EXPECT_EQ(fusions[0]->attrs().fusion_kind, "kInput");
  EXPECT_EQ(fusions[1]->attrs().fusion_kind, "kInput");
}

// mean = reduce(x) / n: the divide is an epilogue in the reduced shape.
TEST(FusionTest, ReductionEpilogueInReducedShape) {
  constexpr char kText[] = R"(
HloModule m
%add (x: f32[], y: f32[]) -> f32[] {
  %x = f32[] parameter(0)
  %y = f32[] parameter(1)
  ROOT %s = f32[] add(%x, %y)
}
ENTRY %main (x: f32[4,16]) -> f32[4] {
  %x = f32[4,16]{1,0} parameter(0)
  %e = f32[4,16]{1,0} exponential(%x)
  %zero = f32[] constant(0)
  %sum = f32[4]{0} reduce(%e, %zero), dimensions={1}, to_apply=%add
  %n = f32[] constant(16)
  %bn = f32[4]{0} broadcast(%n), dimensions={}
  ROOT %mean = f32[4]{0} divide(%sum, %bn)
}
)";
  auto m = Fuse(kText);
  ASSERT_NE(m, nullptr);
  std::vector<const HloInstruction*> fusions = Fusions(*m->entry_computation());
  ASSERT_EQ(fusions.size(), 1u) << m->ToString();
  EXPECT_EQ(fusions[0]->attrs().fusion_kind, "kInput");
  EXPECT_EQ(FusedOpcodes(*fusions[0]),
            (std::vector<std::string>{"exponential", "constant", "reduce", "constant", "broadcast",
                                      "divide"}));
  // Disabled: the reduce and the divide are separate kernels.
  FusionOptions options;
  options.fuse_reduction_epilogue = false;
  auto m2 = Fuse(kText, options);
  ASSERT_NE(m2, nullptr);
  EXPECT_EQ(CountFusions(*m2), 2);
}

// The row-broadcast epilogue needs a row reduction (leading dimensions
// kept): a column reduction or a full reduction broadcast back stays two
// kernels.
TEST(FusionTest, RowEpilogueOnlyForRowReductions) {
  for (const char* reduce : {"%s = f32[4]{0} reduce(%x, %z), dimensions={0}",
                             "%s = f32[] reduce(%x, %z), dimensions={0,1}"}) {
    SCOPED_TRACE(reduce);
    const bool column = std::string(reduce).find("f32[4]") != std::string::npos;
    const std::string text = absl::StrCat(R"(
HloModule m
%add (x: f32[], y: f32[]) -> f32[] {
  %x = f32[] parameter(0)
  %y = f32[] parameter(1)
  ROOT %s = f32[] add(%x, %y)
}
ENTRY %main (x: f32[16,4]) -> f32[16,4] {
  %x = f32[16,4]{1,0} parameter(0)
  %z = f32[] constant(0)
  )",
                                          reduce, R"(, to_apply=%add
  %b = f32[16,4]{1,0} broadcast(%s), dimensions=)",
                                          column ? "{1}" : "{}", R"(
  ROOT %r = f32[16,4]{1,0} divide(%x, %b)
}
)");
    auto m = Fuse(text);
    ASSERT_NE(m, nullptr);
    std::vector<const HloInstruction*> fusions = Fusions(*m->entry_computation());
    ASSERT_EQ(fusions.size(), 2u) << m->ToString();
    EXPECT_EQ(fusions[0]->attrs().fusion_kind, "kInput");
    EXPECT_EQ(fusions[1]->attrs().fusion_kind, "kLoop");
  }
}

// exp has two users in different kernels: it is its own kernel, not
// computed twice. The cheap broadcast is copied into both users instead.
TEST(FusionTest, ExpensiveProducerWithTwoUsersIsNotDuplicated) {
  auto m = Fuse(R"(
HloModule m
ENTRY %main (x: f32[8], y: f32[8], w: f32[8,8], s: f32[]) -> (f32[8], f32[8], f32[8]) {
  %x = f32[8]{0} parameter(0)
  %y = f32[8]{0} parameter(1)
  %w = f32[8,8]{1,0} parameter(2)
  %s = f32[] parameter(3)
  %bs = f32[8]{0} broadcast(%s), dimensions={}
  %e = f32[8]{0} exponential(%x)
  %a = f32[8]{0} add(%e, %bs)
  %b = f32[8]{0} multiply(%e, %bs)
  %d = f32[8]{0} dot(%w, %bs), lhs_contracting_dims={1}, rhs_contracting_dims={0}
  ROOT %t = (f32[8]{0}, f32[8]{0}, f32[8]{0}) tuple(%a, %b, %d)
}
)");
  ASSERT_NE(m, nullptr);
  const HloComputation& entry = *m->entry_computation();
  // exp; add; multiply; the broadcast feeding the dot.
  std::vector<const HloInstruction*> fusions = Fusions(entry);
  ASSERT_EQ(fusions.size(), 4u) << m->ToString();
  int exp_count = 0;
  int broadcast_count = 0;
  for (const HloInstruction* f : fusions) {
    for (const std::string& op : FusedOpcodes(*f)) {
      exp_count += op == "exponential";
      broadcast_count += op == "broadcast";
    }
  }
  EXPECT_EQ(exp_count, 1);
  EXPECT_EQ(broadcast_count, 3);
  EXPECT_EQ(CountOpcode(entry, HloOpcode::kBroadcast), 0);
}

TEST(FusionTest, NonFusibleOpsStayOutside) {
  auto m = Fuse(R"(
HloModule m
%add (x: f32[], y: f32[]) -> f32[] {
  %x = f32[] parameter(0)
  %y = f32[] parameter(1)
  ROOT %s = f32[] add(%x, %y)
}
ENTRY %main (t: f32[10,4], i: s32[5], u: f32[5,4], g: s32[3,1]) -> (f32[10,4], f32[3,4], f32[10,4]) {
  %t = f32[10,4]{1,0} parameter(0)
  %i = s32[5]{0} parameter(1)
  %u = f32[5,4]{1,0} parameter(2)
  %g = s32[3,1]{1,0} parameter(3)
  %nu = f32[5,4]{1,0} negate(%u)
  %sc = f32[10,4]{1,0} scatter(%t, %i, %nu), update_window_dims={1}, inserted_window_dims={0}, scatter_dims_to_operand_dims={0}, index_vector_dim=1, to_apply=%add
  %ga = f32[3,4]{1,0} gather(%sc, %g), offset_dims={1}, collapsed_slice_dims={0}, start_index_map={0}, index_vector_dim=1, slice_sizes={1,4}
  %eg = f32[3,4]{1,0} exponential(%ga)
  %z = s32[] constant(0)
  %dus = f32[10,4]{1,0} dynamic-update-slice(%t, %eg, %z, %z)
  %ab = f32[10,4]{1,0} abs(%dus)
  ROOT %r = (f32[10,4]{1,0}, f32[3,4]{1,0}, f32[10,4]{1,0}) tuple(%sc, %eg, %ab)
}
)");
  ASSERT_NE(m, nullptr);
  const HloComputation& entry = *m->entry_computation();
  EXPECT_EQ(CountOpcode(entry, HloOpcode::kScatter), 1);
  EXPECT_EQ(CountOpcode(entry, HloOpcode::kGather), 1);
  EXPECT_EQ(CountOpcode(entry, HloOpcode::kDynamicUpdateSlice), 1);
  EXPECT_EQ(CountOpcode(entry, HloOpcode::kTuple), 1);
  // negate, exponential, abs: one kernel each.
  EXPECT_EQ(CountFusions(*m), 3) << m->ToString();
  // The scalar add inside %add is not a kernel.
  EXPECT_EQ(CountOpcode(*m->FindComputation("add"), HloOpcode::kFusion), 0);
}

// After layout normalization the parameter's layout-changing copy is a
// transpose the codegen emits itself: not fused.
TEST(FusionTest, LayoutChangingCopyIsNotFused) {
  auto m = FuseFile("golden/modules/shape_ops/iota_layouts.hlo");
  ASSERT_NE(m, nullptr);
  const HloComputation& entry = *m->entry_computation();
  EXPECT_EQ(CountOpcode(entry, HloOpcode::kCopy), 1);
  EXPECT_EQ(CountFusions(*m), 1) << m->ToString();
  for (const HloComputation* c : m->computations()) {
    for (const HloInstruction* h : c->instructions()) {
      if (c == &entry &&
          (h->opcode() == HloOpcode::kParameter || h->opcode() == HloOpcode::kCopy)) {
        continue;
      }
      EXPECT_TRUE(HasDefaultLayoutEverywhere(h->shape())) << h->ToString();
    }
  }
}

TEST(FusionTest, FusesInsideControlFlowBodiesOnly) {
  auto m = FuseFile("golden/modules/control_flow/while_loop.hlo");
  ASSERT_NE(m, nullptr);
  const HloComputation* body = m->FindComputation("body");
  const HloComputation* cond = m->FindComputation("cond");
  ASSERT_NE(body, nullptr);
  ASSERT_NE(cond, nullptr);
  // body: the counter increment and the vector update; cond: the compare.
  EXPECT_EQ(CountOpcode(*body, HloOpcode::kFusion), 2) << m->ToString();
  EXPECT_EQ(CountOpcode(*cond, HloOpcode::kFusion), 1);
  EXPECT_EQ(CountOpcode(*m->entry_computation(), HloOpcode::kFusion), 0);
}

TEST(FusionTest, NamesSkipNamesInUse) {
  auto m = Fuse(R"(
HloModule m
%fused_computation.1 (x: f32[]) -> f32[] {
  ROOT %x = f32[] parameter(0)
}
ENTRY %main (a: f32[2], s: f32[]) -> (f32[2], f32[]) {
  %a = f32[2]{0} parameter(0)
  %s = f32[] parameter(1)
  %fusion.2 = f32[] call(%s), to_apply=%fused_computation.1
  %n = f32[2]{0} negate(%a)
  ROOT %t = (f32[2]{0}, f32[]) tuple(%n, %fusion.2)
}
)");
  ASSERT_NE(m, nullptr);
  std::vector<const HloInstruction*> fusions = Fusions(*m->entry_computation());
  ASSERT_EQ(fusions.size(), 1u);
  EXPECT_EQ(fusions[0]->name(), "fusion.3");
  EXPECT_EQ(fusions[0]->called_computations()[0]->name(), "fused_computation.3");
}

TEST(FusionTest, SecondRunChangesNothing) {
  for (const std::string& path : testing_util::CorpusFiles()) {
    SCOPED_TRACE(path);
    auto m = FuseFile(path);
    ASSERT_NE(m, nullptr);
    const std::string once = m->ToString();
    InstructionFusion fusion;
    absl::StatusOr<bool> changed = fusion.Run(m.get());
    ASSERT_TRUE(changed.ok()) << changed.status();
    EXPECT_FALSE(*changed);
    EXPECT_EQ(m->ToString(), once);
    // Also after a text round trip (the parser does not mark fusion
    // computations; they are recognized by their callers).
    auto reparsed = testing_util::Parse(once);
    ASSERT_NE(reparsed, nullptr);
    changed = fusion.Run(reparsed.get());
    ASSERT_TRUE(changed.ok()) << changed.status();
    EXPECT_FALSE(*changed);
  }
}

// The fusions the pass makes: no fusion inside a fusion, one reduce at
// most, no tuple-shaped or non-default-layout fused values, no
// parameter/tuple/gte-only fusions. (Fusions the module was written with,
// as in XLA's dumps, are the author's: they are kept as they are.)
TEST(FusionTest, CorpusFusionsAreWellFormedKernels) {
  for (const std::string& path : testing_util::CorpusFiles()) {
    SCOPED_TRACE(path);
    auto written = ReadFileToString(path);
    ASSERT_TRUE(written.ok());
    auto source = ParseHloModule(*written);
    ASSERT_TRUE(source.ok()) << source.status();
    std::set<std::string> written_fusions;
    for (const HloComputation* c : (*source)->computations()) {
      for (const HloInstruction* f : c->instructions()) {
        if (f->opcode() == HloOpcode::kFusion) written_fusions.insert(f->name());
      }
    }
    auto m = FuseFile(path);
    ASSERT_NE(m, nullptr);
    for (const HloComputation* c : m->computations()) {
      for (const HloInstruction* f : c->instructions()) {
        if (f->opcode() != HloOpcode::kFusion) continue;
        const HloComputation* fused = f->called_computations()[0];
        EXPECT_TRUE(fused->is_fusion_computation());
        if (written_fusions.contains(f->name())) continue;
        int reduces = 0;
        int non_parameters = 0;
        for (const HloInstruction* h : fused->instructions()) {
          EXPECT_NE(h->opcode(), HloOpcode::kFusion);
          EXPECT_TRUE(h->shape().IsArray()) << h->ToString();
          EXPECT_TRUE(h->shape().HasDefaultLayout()) << h->ToString();
          reduces += h->opcode() == HloOpcode::kReduce;
          non_parameters += h->opcode() != HloOpcode::kParameter;
        }
        EXPECT_LE(reduces, 1);
        EXPECT_EQ(f->attrs().fusion_kind, reduces == 1 ? "kInput" : "kLoop");
        const HloOpcode root = fused->root_instruction()->opcode();
        EXPECT_NE(root, HloOpcode::kParameter);
        EXPECT_NE(root, HloOpcode::kConstant);
        EXPECT_GE(non_parameters, 1);
      }
    }
  }
}

}  // namespace
}  // namespace aot
