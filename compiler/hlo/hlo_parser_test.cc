#include "compiler/hlo/hlo_parser.h"

#include <algorithm>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "compiler/hlo/hlo_opcode.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace aot {
namespace {

using ::testing::HasSubstr;

// Text shaped like XLA's --xla_dump_to output: '%' names, operand shapes,
// metadata, frontend attributes, backend configs, comments.
constexpr char kXlaDump[] = R"hlo(
HloModule jit_f, is_scheduled=true, entry_computation_layout={(f32[2,3]{1,0}, f32[3]{0})->(f32[2,3]{1,0}, f32[2]{0})}, allow_spmd_sharding_propagation_to_output={true}

/* a block comment */
%region_0.4 (Arg_0.5: f32[], Arg_1.6: f32[]) -> f32[] {
  %Arg_0.5 = f32[] parameter(0), metadata={op_name="jit(f)/reduce_sum"}
  %Arg_1.6 = f32[] parameter(1)
  ROOT %add.7 = f32[] add(f32[] %Arg_0.5, f32[] %Arg_1.6), metadata={op_type="add" op_name="jit(f)/add" source_file="/tmp/f.py" source_line=12}
}

ENTRY %main.10 (Arg_0.1: f32[2,3], Arg_1.2: f32[3]) -> (f32[2,3], f32[2]) {
  %Arg_0.1 = f32[2,3]{1,0} parameter(0), sharding={replicated}, parameter_replication={false}
  %Arg_1.2 = f32[3]{0} parameter(1)
  %broadcast.3 = f32[2,3]{1,0} broadcast(f32[3]{0} %Arg_1.2), dimensions={1}
  %multiply.4 = f32[2,3]{1,0} multiply(f32[2,3]{1,0} %Arg_0.1, f32[2,3]{1,0} %broadcast.3), frontend_attributes={_xla_stream_annotation="1"}
  %constant.8 = f32[] constant(0)
  %reduce.9 = f32[2]{0} reduce(f32[2,3]{1,0} %multiply.4, f32[] %constant.8), dimensions={1}, to_apply=%region_0.4
  // the root
  ROOT %tuple = (f32[2,3]{1,0}, f32[2]{0}) tuple(%multiply.4, %reduce.9), backend_config={"operation_queue_id":"0","wait_on_operation_queues":[]}
}
)hlo";

TEST(HloParserTest, ParsesXlaDumpSyntax) {
  auto module = ParseHloModule(kXlaDump);
  ASSERT_TRUE(module.ok()) << module.status();
  EXPECT_EQ((*module)->name(), "jit_f");
  HloComputation* entry = (*module)->entry_computation();
  ASSERT_NE(entry, nullptr);
  EXPECT_EQ(entry->name(), "main.10");
  EXPECT_EQ(entry->num_parameters(), 2);
  EXPECT_EQ(entry->root_instruction()->opcode(), HloOpcode::kTuple);
  HloInstruction* reduce = entry->FindInstruction("reduce.9");
  ASSERT_NE(reduce, nullptr);
  EXPECT_EQ(reduce->dimensions(), std::vector<int64_t>{1});
  ASSERT_EQ(reduce->called_computations().size(), 1u);
  EXPECT_EQ(reduce->to_apply()->name(), "region_0.4");
  HloInstruction* add = reduce->to_apply()->root_instruction();
  ASSERT_TRUE(add->attrs().metadata.has_value());
  EXPECT_EQ(add->attrs().metadata->source_line(), 12);
  EXPECT_EQ(entry->FindInstruction("multiply.4")->attrs().frontend_attributes.size(), 1u);
  EXPECT_EQ(entry->root_instruction()->attrs().backend_config,
            R"({"operation_queue_id":"0","wait_on_operation_queues":[]})");
  // Unknown attributes survive verbatim.
  const auto& unknown = entry->FindInstruction("Arg_0.1")->attrs().unknown_attributes;
  ASSERT_EQ(unknown.size(), 1u);
  EXPECT_EQ(unknown[0].first, "parameter_replication");
  ASSERT_TRUE((*module)->config().entry_computation_layout.has_value());
  EXPECT_EQ((*module)->config().entry_computation_layout->ToString(),
            "(f32[2,3]{1,0}, f32[3]{0})->(f32[2,3]{1,0}, f32[2]{0})");
}

TEST(HloParserTest, PrintParseIsAFixedPoint) {
  auto module = ParseHloModule(kXlaDump);
  ASSERT_TRUE(module.ok()) << module.status();
  std::string printed = (*module)->ToString();
  auto again = ParseHloModule(printed);
  ASSERT_TRUE(again.ok()) << again.status() << "\n" << printed;
  EXPECT_EQ((*again)->ToString(), printed);
}

TEST(HloParserTest, ProtoRoundTripPreservesTheModule) {
  auto module = ParseHloModule(kXlaDump);
  ASSERT_TRUE(module.ok());
  HloModuleProto proto = (*module)->ToProto();
  HloModuleConfigProto config = (*module)->ConfigToProto();
  auto back = HloModuleFromProto(proto, &config);
  ASSERT_TRUE(back.ok()) << back.status();
  EXPECT_EQ((*back)->ToString(), (*module)->ToString());
  EXPECT_EQ((*back)->ToProto().SerializeAsString(), proto.SerializeAsString());
}

// Clone is structural: constants keep their exact bits (a NaN payload the
// text form cannot carry), the clone prints as the original, and its ids
// and names are the original's.
TEST(HloParserTest, CloneKeepsConstantBitsIdsAndTheTextForm) {
  auto module = ParseHloModule(R"(HloModule m
ENTRY e {
  x = f32[2] parameter(0)
  c = f32[2] constant({1.5, 2})
  t = (f32[2], s32[1]) constant(({3, 4}, {5}))
  ROOT r = f32[2] add(x, c)
})");
  ASSERT_TRUE(module.ok()) << module.status();
  HloInstruction* c = (*module)->entry_computation()->FindInstruction("c");
  ASSERT_NE(c, nullptr);
  const uint32_t payload_nan = 0x7fc00123u;
  std::memcpy(c->mutable_attrs()->literal->raw_data(), &payload_nan, 4);
  std::unique_ptr<HloModule> clone = (*module)->Clone();
  ASSERT_NE(clone, nullptr);
  EXPECT_EQ(clone->ToString(), (*module)->ToString());
  const HloInstruction* cc = clone->entry_computation()->FindInstruction("c");
  ASSERT_NE(cc, nullptr);
  EXPECT_EQ(cc->literal().raw(), c->literal().raw()) << "the NaN payload was lost";
  EXPECT_EQ(cc->unique_id(), c->unique_id());
  // The tuple constant's literal has the printed (explicit) layouts.
  const HloInstruction* t = clone->entry_computation()->FindInstruction("t");
  ASSERT_NE(t, nullptr);
  EXPECT_TRUE(t->literal().tuple_element(0).shape().has_layout());
}

TEST(HloParserTest, PlainNamesAndNoEntryKeyword) {
  auto module = ParseHloModule(R"(
HloModule m
add {
  x = s32[] parameter(0)
  y = s32[] parameter(1)
  ROOT r = s32[] add(x, y)
}
main {
  p = s32[4] parameter(0)
  c = s32[] constant(-7)
  ROOT r = s32[] reduce(p, c), dimensions={0}, to_apply=add
})");
  ASSERT_TRUE(module.ok()) << module.status();
  EXPECT_EQ((*module)->entry_computation()->name(), "main");
}

// As XLA's parser: the `HloModule` header is optional (test files and HLO
// strings in C++ tests omit it), with or without ENTRY; the module gets a
// default name and prints with a header, so print -> parse is a fixed point.
TEST(HloParserTest, HeaderIsOptional) {
  for (const char* text :
       {"ENTRY main {\n  p = f32[3] parameter(0)\n  ROOT n = f32[3] negate(p)\n}",
        "// a test file\nmain {\n  p = f32[3] parameter(0)\n  ROOT n = f32[3] "
        "negate(p)\n}"}) {
    auto module = ParseHloModule(text);
    ASSERT_TRUE(module.ok()) << text << ": " << module.status();
    EXPECT_EQ((*module)->name(), kDefaultHloModuleName);
    EXPECT_EQ((*module)->entry_computation()->name(), "main");
    std::string printed = (*module)->ToString();
    EXPECT_TRUE(absl::StartsWith(printed, "HloModule module")) << printed;
    auto again = ParseHloModule(printed);
    ASSERT_TRUE(again.ok()) << again.status();
    EXPECT_EQ((*again)->ToString(), printed);
  }
}

TEST(HloParserTest, ComputationsAFusionCallsAreFusionComputations) {
  // As in a dump written after XLA's fusion passes: the passes must treat
  // the fused body as a kernel, not as another computation to optimize.
  auto module = ParseHloModule(R"(
fused {
  p = f32[4] parameter(0)
  ROOT e = f32[4] exponential(p)
}
ENTRY main {
  x = f32[4] parameter(0)
  ROOT f = f32[4] fusion(x), kind=kLoop, calls=fused
})");
  ASSERT_TRUE(module.ok()) << module.status();
  EXPECT_TRUE((*module)->FindComputation("fused")->is_fusion_computation());
  EXPECT_FALSE((*module)->entry_computation()->is_fusion_computation());
}

TEST(HloParserTest, AttributesOfEveryKind) {
  auto module = ParseHloModule(R"(
HloModule attrs
ENTRY e {
  a = f32[1,8,8,3]{3,2,1,0} parameter(0)
  k = f32[3,3,3,4]{3,2,1,0} parameter(1)
  conv = f32[1,4,4,4]{3,2,1,0} convolution(a, k), window={size=3x3 stride=2x2 pad=1_1x1_1 rhs_dilate=1x1}, dim_labels=b01f_01io->b01f, feature_group_count=1
  s = f32[1,4,4,2]{3,2,1,0} slice(conv), slice={[0:1], [0:4], [0:4:1], [0:4:2]}
  p = f32[1,6,9,2]{3,2,1,0} pad(s, f32[] constant(0)), padding=0_0x1_1x0_1_1x0_0
  l = f32[2,3] parameter(2)
  r = f32[3,5] parameter(3)
  d = f32[2,5] dot(l, r), lhs_contracting_dims={1}, rhs_contracting_dims={0}, operand_precision={highest,default}
  i = s32[4] iota(), iota_dimension=0
  cmp = pred[4] compare(i, i), direction=LT, type=SIGNED
  rp = f32[2,5] reduce-precision(d), exponent_bits=5, mantissa_bits=10
  cc = f32[2,5] custom-call(rp), custom_call_target="aot.gelu", api_version=API_VERSION_TYPED_FFI, backend_config="x=1"
  ROOT t = (f32[1,6,9,2], pred[4], f32[2,5]) tuple(p, cmp, cc)
})");
  // The inline "f32[] constant(0)" operand is not allowed: operands are names.
  ASSERT_FALSE(module.ok());
}

TEST(HloParserTest, AttributesRoundTrip) {
  constexpr char kText[] = R"(
HloModule attrs
ENTRY e {
  a = f32[1,8,8,3]{3,2,1,0} parameter(0)
  k = f32[3,3,3,4]{3,2,1,0} parameter(1)
  conv = f32[1,4,4,4]{3,2,1,0} convolution(a, k), window={size=3x3 stride=2x2 pad=1_1x1_1 rhs_dilate=1x1}, dim_labels=b01f_01io->b01f, feature_group_count=1
  s = f32[1,4,4,2]{3,2,1,0} slice(conv), slice={[0:1], [0:4], [0:4:1], [0:4:2]}
  z = f32[] constant(0)
  p = f32[1,6,9,2]{3,2,1,0} pad(s, z), padding=0_0x1_1x0_1_1x0_0
  l = f32[2,3] parameter(2)
  r = f32[3,5] parameter(3)
  d = f32[2,5] dot(l, r), lhs_contracting_dims={1}, rhs_contracting_dims={0}, operand_precision={highest,default}
  i = s32[4] iota(), iota_dimension=0
  cmp = pred[4] compare(i, i), direction=LT, type=SIGNED
  rp = f32[2,5] reduce-precision(d), exponent_bits=5, mantissa_bits=10
  cc = f32[2,5] custom-call(rp), custom_call_target="aot.gelu", api_version=API_VERSION_TYPED_FFI, backend_config="x=1"
  gk = f32[3,3,1,4]{3,2,1,0} parameter(4)
  g = (f32[1,4,4,4]{3,2,1,0}, u8[0]{0}) custom-call(conv, gk), window={size=3x3 pad=1_1x1_1}, dim_labels=b01f_01io->b01f, feature_group_count=4, batch_group_count=1, custom_call_target="__cudnn$convForward"
  ROOT t = (f32[1,6,9,2], pred[4], f32[2,5], (f32[1,4,4,4]{3,2,1,0}, u8[0]{0})) tuple(p, cmp, cc, g)
})";
  auto module = ParseHloModule(kText);
  ASSERT_TRUE(module.ok()) << module.status();
  HloComputation* e = (*module)->entry_computation();
  const HloAttributes& conv = e->FindInstruction("conv")->attrs();
  ASSERT_TRUE(conv.window.has_value());
  EXPECT_EQ(conv.window->dimensions(0).stride(), 2);
  EXPECT_EQ(conv.window->dimensions(1).padding_high(), 1);
  EXPECT_EQ(conv.convolution_dimension_numbers->input_feature_dimension(), 3);
  EXPECT_EQ(conv.convolution_dimension_numbers->kernel_output_feature_dimension(), 3);
  EXPECT_EQ(e->FindInstruction("s")->attrs().slice[3].stride, 2);
  const auto& pad = *e->FindInstruction("p")->attrs().padding_config;
  EXPECT_EQ(pad.dimensions(2).interior_padding(), 1);
  EXPECT_EQ(e->FindInstruction("cmp")->attrs().comparison_type, "SIGNED");
  EXPECT_EQ(e->FindInstruction("cc")->attrs().custom_call_api_version, 4);
  std::string printed = (*module)->ToString();
  auto again = ParseHloModule(printed);
  ASSERT_TRUE(again.ok()) << again.status() << "\n" << printed;
  EXPECT_EQ((*again)->ToString(), printed);
  // A convolution custom call's group count survives the text and the proto.
  EXPECT_EQ((*again)->entry_computation()->FindInstruction("g")->attrs().feature_group_count, 4);
  HloModuleConfigProto config = (*module)->ConfigToProto();
  auto from_proto = HloModuleFromProto((*module)->ToProto(), &config);
  ASSERT_TRUE(from_proto.ok()) << from_proto.status();
  EXPECT_EQ((*from_proto)->entry_computation()->FindInstruction("g")->attrs().feature_group_count,
            4);
  EXPECT_EQ((*from_proto)->entry_computation()->FindInstruction("cc")->attrs().feature_group_count,
            1);
}

TEST(HloParserTest, ShuffleAttributesRoundTripWithTheirLiterals) {
  // XLA writes a permute's indices and a multi_rotate's shifts as a literal
  // with its shape; they print back as written.
  constexpr char kText[] = R"(
HloModule shuffles
ENTRY e {
  p = f32[3,2]{1,0} parameter(0)
  r = f32[3,2]{1,0} shuffle(p), dimensions={0,1}, mode=rotate, shifts={1,-3}
  q = f32[3,2]{1,0} shuffle(r), dimensions={0}, mode=permute, indices=s32[3,1]{1,0} { {2}, {0}, {1} }
  ROOT m = f32[3,2]{1,0} shuffle(q), dimensions={0}, mode=multi_rotate, multi_shifts=s8[1,2]{1,0} {{1, -1}}
})";
  auto module = ParseHloModule(kText);
  ASSERT_TRUE(module.ok()) << module.status();
  const HloComputation* e = (*module)->entry_computation();
  EXPECT_EQ(e->FindInstruction("r")->dimensions(), (std::vector<int64_t>{0, 1}));
  const std::string printed = (*module)->ToString();
  EXPECT_THAT(printed, HasSubstr("dimensions={0}, mode=permute, indices=s32[3,1]{1,0} { {2}, "
                                 "{0}, {1} }"));
  EXPECT_THAT(printed, HasSubstr("mode=multi_rotate, multi_shifts=s8[1,2]{1,0} {{1, -1}}"));
  // The text and proto round trips of every mode: CorpusParseTest.PrintParseFixedPoint on
  // golden/modules/xla_syntax/shuffles.hlo.

  absl::StatusOr<Literal> table = ParseShapedLiteral("s32[3,1]{1,0} { {2}, {0}, {1} }");
  ASSERT_TRUE(table.ok()) << table.status();
  EXPECT_EQ(table->shape().ToString(), "s32[3,1]{1,0}");
  EXPECT_EQ(table->GetAsInt64(0), 2);
  EXPECT_EQ(table->GetAsInt64(2), 1);
  EXPECT_FALSE(ParseShapedLiteral("s32[2]{0} {1, 2} x").ok());
}

TEST(HloParserTest, ConstantsOfEveryForm) {
  auto module = ParseHloModule(R"(
HloModule c
ENTRY e {
  a = f32[2,2] constant({ {1, 2.5}, {-inf, nan} })
  b = pred[3] constant({true, false, true})
  c = u64[1] constant({18446744073709551615})
  d = s8[] constant(-128)
  f = bf16[2] constant({1.5, 3})
  g = f32[4] constant({...})
  ROOT t = (f32[2,2], pred[3], u64[1], s8[], bf16[2], f32[4]) tuple(a, b, c, d, f, g)
})");
  ASSERT_TRUE(module.ok()) << module.status();
  HloComputation* e = (*module)->entry_computation();
  EXPECT_EQ(e->FindInstruction("c")->literal().GetAsUint64(0), UINT64_MAX);
  EXPECT_TRUE(std::isnan(e->FindInstruction("a")->literal().GetAsDouble(3)));
  EXPECT_TRUE(e->FindInstruction("g")->attrs().literal_was_elided);
  auto details = ParseHloModuleWithDetails(e->parent()->ToString());
  ASSERT_TRUE(details.ok());
  EXPECT_TRUE(details->elided_constants.empty());  // filled values now print
}

TEST(HloParserTest, NanSignsAndPayloadsAsXlaWritesThem) {
  // XLA writes a NaN other than the canonical quiet one with its payload
  // (the element type's mantissa bits) and a negative one with its sign.
  constexpr char kText[] = R"(
HloModule nans
ENTRY e {
  a = f64[3] constant({-nan, nan(0x1), -nan(0x8000000000001)})
  b = f32[3] constant({-nan(0x7fffff), nan(0x400001), nan})
  c = bf16[2] constant({-nan(0x41), -nan})
  ROOT t = (f64[3], f32[3], bf16[2]) tuple(a, b, c)
})";
  auto module = ParseHloModule(kText);
  ASSERT_TRUE(module.ok()) << module.status();
  const HloComputation* e = (*module)->entry_computation();
  EXPECT_EQ(e->FindInstruction("a")->literal().Get<uint64_t>(0), 0xfff8000000000000u);
  EXPECT_EQ(e->FindInstruction("a")->literal().Get<uint64_t>(1), 0x7ff0000000000001u);
  EXPECT_EQ(e->FindInstruction("b")->literal().Get<uint32_t>(0), 0xffffffffu);
  EXPECT_EQ(e->FindInstruction("b")->literal().Get<uint32_t>(1), 0x7fc00001u);
  const std::string printed = (*module)->ToString();
  EXPECT_THAT(printed, HasSubstr("{-nan, nan(0x1), -nan(0x8000000000001)}"));
  EXPECT_THAT(printed, HasSubstr("{-nan(0x7fffff), nan(0x400001), nan}"));
  EXPECT_THAT(printed, HasSubstr("{-nan(0x41), -nan}"));
  auto again = ParseHloModule(printed);
  ASSERT_TRUE(again.ok()) << again.status();
  EXPECT_EQ((*again)->ToString(), printed);
  for (const char* bad : {"nan(0x0)", "nan(0x800000)", "nan(0xg)", "nan(0x)"}) {
    auto m = ParseHloModule(
        absl::StrCat("HloModule m\nENTRY e {\n  ROOT c = f32[] constant(", bad, ")\n}"));
    ASSERT_FALSE(m.ok()) << bad;
    EXPECT_THAT(std::string(m.status().message()), HasSubstr("NaN payload")) << bad;
  }
}

TEST(HloParserTest, ElidedConstantsAreSeededAndReported) {
  constexpr char kText[] = "HloModule m\nENTRY e {\n  ROOT w = f32[8] constant({...})\n}\n";
  auto a = ParseHloModuleWithDetails(kText);
  auto b = ParseHloModuleWithDetails(kText);
  HloParserOptions other;
  other.elided_constant_seed = 7;
  auto c = ParseHloModuleWithDetails(kText, other);
  ASSERT_TRUE(a.ok() && b.ok() && c.ok());
  EXPECT_EQ(a->elided_constants, std::vector<std::string>{"w"});
  EXPECT_EQ(a->module->ToString(), b->module->ToString());
  EXPECT_NE(a->module->ToString(), c->module->ToString());
}

TEST(HloOpcodeTest, EveryOpcodeIsSpelledAsXlaSpellsIt) {
  const std::vector<std::string>& xla = XlaOpcodeNames();
  for (int i = 0; i < HloOpcodeCount(); ++i) {
    std::string text(HloOpcodeString(static_cast<HloOpcode>(i)));
    EXPECT_NE(std::find(xla.begin(), xla.end(), text), xla.end()) << text;
  }
  EXPECT_EQ(StringToHloOpcode("send").status().code(), absl::StatusCode::kUnimplemented);
  EXPECT_EQ(StringToHloOpcode("ragged-all-to-all").status().code(),
            absl::StatusCode::kUnimplemented);
  EXPECT_EQ(StringToHloOpcode("sendd").status().code(), absl::StatusCode::kInvalidArgument);
}

struct BadCase {
  const char* text;
  const char* message;
};

TEST(HloParserTest, ErrorsNamePositionAndInstruction) {
  const BadCase cases[] = {
      {"HloModule m\nENTRY e {\n  ROOT x = f32[] frobnicate()\n}",
       "3:18: instruction 'x': unknown opcode 'frobnicate'"},
      {"HloModule m\nENTRY e {\n  t = f32[] parameter(0)\n  ROOT x = f32[] infeed(t)\n}",
       "4:18: instruction 'x': opcode 'infeed' is not supported by this runtime (no host transfer "
       "queue)"},
      {"HloModule m\nENTRY e {\n  t = token[] parameter(0)\n  ROOT x = token[] send-done(t)\n}",
       "4:20: instruction 'x': opcode 'send-done' is not supported by this runtime (no channel to "
       "another program)"},
      {"HloModule m\nENTRY e {\n  t = f32[] parameter(0)\n  ROOT x = f32[] "
       "ragged-all-to-all(t)\n}",
       "4:18: instruction 'x': opcode 'ragged-all-to-all' is an XLA opcode this compiler does "
       "not support"},
      {"HloModule m\nENTRY e {\n  ROOT x = f32[] negate(y)\n}",
       "instruction 'x': operand 'y' is not defined"},
      {"HloModule m\nENTRY e {\n  ROOT x = f32[2] constant({1, 2, 3})\n}", "literal has 3 values"},
      {"HloModule m\nENTRY e {\n  p = f32[] parameter(0)\n  ROOT r = f32[] call(p), "
       "to_apply=nope\n}",
       "unknown computation 'nope'"},
      {"HloModule m\nENTRY e {\n  p = f32[2] parameter(0)\n  ROOT r = f32[2] slice(p), "
       "slice={[0:2}\n}",
       "unbalanced"},
      {"HloModule m\nENTRY e {\n  p = f32[2] parameter(0)\n  ROOT r = f32[2] reverse(p), "
       "dimensions={x}\n}",
       "invalid dimensions '{x}'"},
      {"HloModule m\nENTRY e {\n  p = f32[2] parameter(0)\n  p = f32[2] parameter(1)\n}",
       "duplicate instruction name"},
      {"HloModule m\nENTRY e {\n  p = f32[2] parameter(1)\n}", "has no parameter 0"},
      {"HloModule m\nENTRY e {\n  ROOT c = s8[] constant(300)\n}", "out of range for s8"},
      // A shuffle's literal attributes: checked where they are written.
      {"HloModule m\nENTRY e {\n  p = f32[3] parameter(0)\n  ROOT s = f32[3] shuffle(p), "
       "dimensions={0}, mode=permute, indices=s32[3]{0} {2, 0}\n}",
       "4:79: instruction 's': literal has 2 values"},
      {"HloModule m\nENTRY e {\n  p = f32[3] parameter(0)\n  ROOT s = f32[3] shuffle(p), "
       "dimensions={0}, mode=permute, indices=s32[3]{0} {...}\n}",
       "4:79: instruction 's': the values may not be elided here"},
      {"HloModule m\nENTRY e {\n  p = f32[3] parameter(0)\n  ROOT s = f32[3] shuffle(p), "
       "dimensions={0}, mode=multi_rotate, multi_shifts=(s32[]) {1}\n}",
       "4:79: instruction 's': expected an array shape before the values"},
      {"ENTRY e {}", "1:7: computation 'e' is empty"},
      {"e {\n  p = f32[2] parameter(0)\n", "not closed"},
      {"HloModule m\n", "module has no computations"},
      {"HloModule m\nENTRY e {\n  ROOT p = f32[2] parameter(0)\n", "not closed"},
  };
  for (const BadCase& c : cases) {
    auto module = ParseHloModule(c.text);
    ASSERT_FALSE(module.ok()) << c.text;
    EXPECT_EQ(module.status().code(), absl::StatusCode::kInvalidArgument);
    EXPECT_THAT(std::string(module.status().message()), HasSubstr(c.message)) << c.text;
  }
}

// Truncated and mutated text must produce errors, never crashes (this test
// also runs under AddressSanitizer/UBSan with scripts/test.sh --sanitize).
TEST(HloParserFuzzTest, TruncatedAndMutatedTextNeverCrashes) {
  std::string base = kXlaDump;
  for (size_t n = 0; n < base.size(); n += 7) {
    (void)ParseHloModule(base.substr(0, n));
  }
  std::mt19937_64 rng(1234);
  const char alphabet[] = "{}[]()<>=,:%-_.\"/*0123456789abcfxyzT \n";
  for (int iteration = 0; iteration < 3000; ++iteration) {
    std::string text = base;
    int edits = 1 + static_cast<int>(rng() % 4);
    for (int e = 0; e < edits; ++e) {
      size_t pos = rng() % text.size();
      switch (rng() % 3) {
        case 0:
          text[pos] = alphabet[rng() % (sizeof(alphabet) - 1)];
          break;
        case 1:
          text.erase(pos, 1 + rng() % 8);
          break;
        case 2:
          text.insert(pos, 1, alphabet[rng() % (sizeof(alphabet) - 1)]);
          break;
      }
      if (text.empty()) text = "H";
    }
    auto module = ParseHloModule(text);
    if (module.ok()) {
      // Whatever parses must print and re-parse.
      auto again = ParseHloModule((*module)->ToString());
      EXPECT_TRUE(again.ok()) << again.status() << "\n" << text;
    }
  }
}

}  // namespace
}  // namespace aot
