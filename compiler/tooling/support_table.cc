#include "compiler/tooling/support_table.h"

#include <cstring>
#include <map>
#include <memory>

#include "absl/strings/ascii.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_replace.h"
#include "compiler/backend/compiler.h"
#include "compiler/hlo/hlo_opcode.h"
#include "compiler/hlo/hlo_parser.h"
#include "compiler/interpreter/evaluator.h"
#include "compiler/target/target_config.h"
#include "compiler/tooling/literal_execution.h"
#include "compiler/tooling/random_literal.h"
#include "compiler/verifier/hlo_verifier.h"
#include "runtime/executable/client.h"
#include "support/status_macros.h"

namespace aot {

namespace {

// Scalar and small computations the probes call.
constexpr char kShared[] = R"(
add_f32 {
  a = f32[] parameter(0)
  b = f32[] parameter(1)
  ROOT s = f32[] add(a, b)
}
less_f32 {
  a = f32[] parameter(0)
  b = f32[] parameter(1)
  ROOT l = pred[] compare(a, b), direction=LT
}
ge_f32 {
  a = f32[] parameter(0)
  b = f32[] parameter(1)
  ROOT g = pred[] compare(a, b), direction=GE
}
negate4 {
  p = f32[4] parameter(0)
  ROOT n = f32[4] negate(p)
}
identity4 {
  ROOT p = f32[4] parameter(0)
}
cumulative_sum {
  x = f32[] parameter(0)
  c = f32[] parameter(1)
  s = f32[] add(c, x)
  ROOT t = (f32[], f32[]) tuple(s, s)
}
fused_exp {
  p = f32[4] parameter(0)
  ROOT e = f32[4] exponential(p)
}
count_cond {
  s = (s32[], f32[4]) parameter(0)
  i = s32[] get-tuple-element(s), index=0
  n = s32[] constant(3)
  ROOT c = pred[] compare(i, n), direction=LT
}
count_body {
  s = (s32[], f32[4]) parameter(0)
  i = s32[] get-tuple-element(s), index=0
  x = f32[4] get-tuple-element(s), index=1
  one = s32[] constant(1)
  i2 = s32[] add(i, one)
  x2 = f32[4] add(x, x)
  ROOT t = (s32[], f32[4]) tuple(i2, x2)
}
)";

// The async and copy wrappers are probed as one chain, start to done.
constexpr char kAsyncChain[] =
    "p = f32[4] parameter(0)\n s = ((f32[4]), f32[4], u32[]) async-start(p), calls=negate4\n"
    " u = ((f32[4]), f32[4], u32[]) async-update(s)\n ROOT r = f32[4] async-done(u)";
constexpr char kCopyChain[] =
    "p = f32[4] parameter(0)\n s = (f32[4], f32[4], u32[]) copy-start(p)\n"
    " ROOT r = f32[4] copy-done(s)";

// Entry bodies for the opcodes that are not plain elementwise ops.
const std::map<std::string, std::string>& SpecialProbes() {
  static const auto* probes = new std::map<std::string, std::string>{
      // Collectives, as one replica has them (the table probes the
      // defaults: their emission flag is off).
      {"all-reduce",
       "a = f32[4] parameter(0)\n ROOT r = f32[4] all-reduce(a), "
       "replica_groups={}, to_apply=add_f32"},
      {"all-reduce-start",
       "a = f32[4] parameter(0)\n ROOT r = f32[4] all-reduce-start(a), "
       "replica_groups={}, to_apply=add_f32"},
      {"all-reduce-done",
       "a = f32[4] parameter(0)\n s = f32[4] all-reduce-start(a), "
       "replica_groups={}, to_apply=add_f32\n ROOT r = f32[4] all-reduce-done(s)"},
      {"all-gather",
       "a = f32[4] parameter(0)\n ROOT r = f32[4] all-gather(a), "
       "replica_groups={}, dimensions={0}"},
      {"all-gather-start",
       "a = f32[4] parameter(0)\n ROOT r = (f32[4], f32[4]) "
       "all-gather-start(a), replica_groups={}, dimensions={0}"},
      {"all-gather-done",
       "a = f32[4] parameter(0)\n s = (f32[4], f32[4]) all-gather-start(a), "
       "replica_groups={}, dimensions={0}\n ROOT r = f32[4] all-gather-done(s)"},
      {"reduce-scatter",
       "a = f32[4] parameter(0)\n ROOT r = f32[4] reduce-scatter(a), "
       "replica_groups={}, dimensions={0}, to_apply=add_f32"},
      {"all-to-all",
       "a = f32[4] parameter(0)\n ROOT r = f32[4] all-to-all(a), "
       "replica_groups={}, dimensions={0}"},
      {"collective-permute-start",
       "a = f32[4] parameter(0)\n ROOT r = (f32[4], f32[4], u32[], u32[]) "
       "collective-permute-start(a), source_target_pairs={{0,0}}"},
      {"collective-permute-done",
       "a = f32[4] parameter(0)\n s = (f32[4], f32[4], u32[], u32[]) "
       "collective-permute-start(a), source_target_pairs={{0,0}}\n"
       " ROOT r = f32[4] collective-permute-done(s)"},
      // Wrappers and tokens, used as XLA writes them.
      {"add-dependency",
       "p = f32[4] parameter(0)\n t = token[] after-all()\n"
       " ROOT r = f32[4] add-dependency(p, t)"},
      {"after-all",
       "p = f32[4] parameter(0)\n a = token[] after-all()\n b = token[] after-all(a, a)\n"
       " ROOT r = f32[4] add-dependency(p, b)"},
      {"async-start", kAsyncChain},
      {"async-update", kAsyncChain},
      {"async-done", kAsyncChain},
      {"copy-start", kCopyChain},
      {"copy-done", kCopyChain},
      {"domain",
       "p = f32[4] parameter(0)\n n = f32[4] negate(p)\n ROOT r = f32[4] domain(n), "
       "domain={kind=\"sharding\", entry={maximal device=0}, exit={replicated}}"},
      {"map",
       "a = f32[4] parameter(0)\n b = f32[4] parameter(1)\n"
       " ROOT r = f32[4] map(a, b), dimensions={0}, to_apply=add_f32"},
      {"real", "p = c64[4] parameter(0)\n ROOT r = f32[4] real(p)"},
      {"imag", "p = c64[4] parameter(0)\n ROOT r = f32[4] imag(p)"},
      {"complex",
       "a = f32[4] parameter(0)\n b = f32[4] parameter(1)\n ROOT r = c64[4] complex(a, b)"},
      {"fft", "p = f32[8] parameter(0)\n ROOT r = c64[5] fft(p), fft_type=RFFT, fft_length={8}"},
      {"cholesky",
       "p = f32[2,4,4] parameter(0)\n"
       " s = f32[2,4,4] dot(p, p), lhs_batch_dims={0}, rhs_batch_dims={0}, "
       "lhs_contracting_dims={2}, rhs_contracting_dims={2}\n"
       " ROOT r = f32[2,4,4] cholesky(s), lower=true"},
      {"triangular-solve",
       "a = f32[4,4] parameter(0)\n b = f32[4,3] parameter(1)\n"
       " ROOT r = f32[4,3] triangular-solve(a, b), left_side=true, lower=true, "
       "unit_diagonal=true, transpose_a=NO_TRANSPOSE"},
      {"ragged-dot",
       "a = f32[6,4] parameter(0)\n b = f32[2,4,3] parameter(1)\n s = s32[2] parameter(2)\n"
       " ROOT r = f32[6,3] ragged-dot(a, b, s), lhs_contracting_dims={1}, "
       "rhs_contracting_dims={1}, lhs_ragged_dims={0}, rhs_group_dims={0}"},
      {"scaled-dot",
       "a = bf16[2,64] parameter(0)\n b = bf16[64,3] parameter(1)\n"
       " sa = bf16[2,2] parameter(2)\n sb = bf16[2,3] parameter(3)\n"
       " ROOT r = f32[2,3] scaled-dot(a, b, sa, sb), lhs_contracting_dims={1}, "
       "rhs_contracting_dims={0}"},
      {"scan",
       "x = f32[6] parameter(0)\n z = f32[] constant(0)\n"
       " ROOT r = (f32[6], f32[]) scan(x, z), dimensions={0}, num_carries=1, "
       "to_apply=cumulative_sum"},
      {"shuffle",
       "p = f32[3,2] parameter(0)\n"
       " ROOT r = f32[3,2] shuffle(p), dimensions={0}, mode=permute, "
       "indices=s32[3,1]{1,0} { {2}, {0}, {1} }"},
      {"stochastic-convert",
       "x = f32[4] parameter(0)\n b = u32[4] parameter(1)\n"
       " ROOT r = s32[4] stochastic-convert(x, b)"},
      {"rng",
       "a = f32[] parameter(0)\n b = f32[] parameter(1)\n"
       " ROOT r = f32[4,4] rng(a, b), distribution=rng_uniform"},
      {"rng-get-and-update-state", "ROOT r = u64[2] rng-get-and-update-state(), delta=4"},
      {"rng-bit-generator",
       "s = u64[2] parameter(0)\n"
       " ROOT r = (u64[2], u32[4,4]) rng-bit-generator(s), algorithm=rng_philox"},
      {"topk",
       "p = f32[2,6] parameter(0)\n ROOT r = (f32[2,3], s32[2,3]) topk(p), k=3, largest=true"},
      {"batch-norm-training",
       "x = f32[2,3,4] parameter(0)\n s = f32[3] parameter(1)\n o = f32[3] parameter(2)\n"
       " ROOT r = (f32[2,3,4], f32[3], f32[3]) batch-norm-training(x, s, o), epsilon=1, "
       "feature_index=1"},
      {"batch-norm-inference",
       "x = f32[2,3,4] parameter(0)\n s = f32[3] parameter(1)\n o = f32[3] parameter(2)\n"
       " m = f32[3] parameter(3)\n v = f32[3] parameter(4)\n a = f32[3] abs(v)\n"
       " ROOT r = f32[2,3,4] batch-norm-inference(x, s, o, m, a), epsilon=1, feature_index=1"},
      {"batch-norm-grad",
       "x = f32[2,3,4] parameter(0)\n s = f32[3] parameter(1)\n m = f32[3] parameter(2)\n"
       " v = f32[3] parameter(3)\n a = f32[3] abs(v)\n d = f32[2,3,4] parameter(4)\n"
       " ROOT r = (f32[2,3,4], f32[3], f32[3]) batch-norm-grad(x, s, m, a, d), epsilon=1, "
       "feature_index=1"},
      {"bitcast", "p = f32[2,3] parameter(0)\n ROOT r = f32[6] bitcast(p)"},
      {"bitcast-convert", "p = f32[4] parameter(0)\n ROOT r = s32[4] bitcast-convert(p)"},
      {"broadcast", "p = f32[3] parameter(0)\n ROOT r = f32[2,3] broadcast(p), dimensions={1}"},
      {"call", "p = f32[4] parameter(0)\n ROOT r = f32[4] call(p), to_apply=negate4"},
      {"clamp",
       "a = f32[4] parameter(0)\n b = f32[4] parameter(1)\n c = f32[4] parameter(2)\n"
       " ROOT r = f32[4] clamp(a, b, c)"},
      {"compare",
       "a = f32[4] parameter(0)\n b = f32[4] parameter(1)\n"
       " ROOT r = pred[4] compare(a, b), direction=LT"},
      {"concatenate",
       "a = f32[3] parameter(0)\n b = f32[4] parameter(1)\n"
       " ROOT r = f32[7] concatenate(a, b), dimensions={0}"},
      {"conditional",
       "c = pred[] parameter(0)\n x = f32[4] parameter(1)\n"
       " ROOT r = f32[4] conditional(c, x, x), true_computation=negate4, "
       "false_computation=identity4"},
      {"constant", "ROOT r = f32[3] constant({1, 2, 3})"},
      {"convert", "p = f32[4] parameter(0)\n ROOT r = s32[4] convert(p)"},
      {"convolution",
       "x = f32[1,5,5,2] parameter(0)\n k = f32[3,3,2,4] parameter(1)\n"
       " ROOT r = f32[1,3,3,4] convolution(x, k), window={size=3x3}, dim_labels=b01f_01io->b01f"},
      {"custom-call",
       "p = f32[4] parameter(0)\n ROOT r = f32[4] custom-call(p), custom_call_target=\"aot.gelu\", "
       "api_version=API_VERSION_TYPED_FFI"},
      {"dot",
       "a = f32[2,3] parameter(0)\n b = f32[3,4] parameter(1)\n"
       " ROOT r = f32[2,4] dot(a, b), lhs_contracting_dims={1}, rhs_contracting_dims={0}"},
      {"dynamic-reshape",
       "p = f32[2,3] parameter(0)\n n = s32[] constant(4)\n"
       " d = f32[<=6] dynamic-reshape(p, n)\n z = f32[] constant(0)\n"
       " ROOT r = f32[] reduce(d, z), dimensions={0}, to_apply=add_f32"},
      {"dynamic-slice",
       "p = f32[8] parameter(0)\n i = s32[] parameter(1)\n"
       " ROOT r = f32[3] dynamic-slice(p, i), dynamic_slice_sizes={3}"},
      {"dynamic-update-slice",
       "p = f32[8] parameter(0)\n u = f32[3] parameter(1)\n i = s32[] parameter(2)\n"
       " ROOT r = f32[8] dynamic-update-slice(p, u, i)"},
      {"fusion",
       "p = f32[4] parameter(0)\n ROOT r = f32[4] fusion(p), kind=kLoop, calls=fused_exp"},
      {"gather",
       "o = f32[5,3] parameter(0)\n i = s32[2,1] parameter(1)\n"
       " ROOT r = f32[2,3] gather(o, i), offset_dims={1}, collapsed_slice_dims={0}, "
       "start_index_map={0}, index_vector_dim=1, slice_sizes={1,3}"},
      {"get-dimension-size",
       "p = f32[2,3] parameter(0)\n ROOT r = s32[] get-dimension-size(p), dimensions={1}"},
      {"get-tuple-element",
       "t = (f32[4], s32[2]) parameter(0)\n ROOT r = f32[4] get-tuple-element(t), index=0"},
      {"iota", "ROOT r = s32[2,3] iota(), iota_dimension=1"},
      {"is-finite", "p = f32[4] parameter(0)\n ROOT r = pred[4] is-finite(p)"},
      {"pad",
       "p = f32[3] parameter(0)\n z = f32[] constant(0)\n ROOT r = f32[6] pad(p, z), padding=1_2"},
      {"parameter", "ROOT p = f32[4] parameter(0)"},
      {"partition-id", "ROOT r = u32[] partition-id()"},
      {"replica-id", "ROOT r = u32[] replica-id()"},
      {"set-dimension-size",
       "p = f32[4,3] parameter(0)\n n = s32[] constant(2)\n"
       " d = f32[<=4,3] set-dimension-size(p, n), dimensions={0}\n z = f32[] constant(0)\n"
       " ROOT r = f32[3] reduce(d, z), dimensions={0}, to_apply=add_f32"},
      {"reduce",
       "p = f32[2,3] parameter(0)\n z = f32[] constant(0)\n"
       " ROOT r = f32[2] reduce(p, z), dimensions={1}, to_apply=add_f32"},
      {"reduce-precision",
       "p = f32[4] parameter(0)\n ROOT r = f32[4] reduce-precision(p), exponent_bits=5, "
       "mantissa_bits=10"},
      {"reduce-window",
       "p = f32[6] parameter(0)\n z = f32[] constant(0)\n"
       " ROOT r = f32[5] reduce-window(p, z), window={size=2}, to_apply=add_f32"},
      {"reshape", "p = f32[2,3] parameter(0)\n ROOT r = f32[3,2] reshape(p)"},
      {"reverse", "p = f32[2,3] parameter(0)\n ROOT r = f32[2,3] reverse(p), dimensions={1}"},
      {"scatter",
       "o = f32[5] parameter(0)\n i = s32[2,1] parameter(1)\n u = f32[2] parameter(2)\n"
       " ROOT r = f32[5] scatter(o, i, u), update_window_dims={}, inserted_window_dims={0}, "
       "scatter_dims_to_operand_dims={0}, index_vector_dim=1, to_apply=add_f32"},
      {"select",
       "c = pred[4] parameter(0)\n a = f32[4] parameter(1)\n b = f32[4] parameter(2)\n"
       " ROOT r = f32[4] select(c, a, b)"},
      {"select-and-scatter",
       "o = f32[6] parameter(0)\n s = f32[3] parameter(1)\n z = f32[] constant(0)\n"
       " ROOT r = f32[6] select-and-scatter(o, s, z), window={size=2 stride=2}, select=ge_f32, "
       "scatter=add_f32"},
      {"slice", "p = f32[6] parameter(0)\n ROOT r = f32[2] slice(p), slice={[1:5:2]}"},
      {"sort",
       "p = f32[2,5] parameter(0)\n ROOT r = f32[2,5] sort(p), dimensions={1}, "
       "to_apply=less_f32"},
      {"transpose", "p = f32[2,3] parameter(0)\n ROOT r = f32[3,2] transpose(p), dimensions={1,0}"},
      {"tuple",
       "a = f32[4] parameter(0)\n b = s32[2] parameter(1)\n ROOT r = (f32[4], s32[2]) tuple(a, b)"},
      {"while",
       "x = f32[4] parameter(0)\n z = s32[] constant(0)\n s = (s32[], f32[4]) tuple(z, x)\n"
       " ROOT r = (s32[], f32[4]) while(s), condition=count_cond, body=count_body"},
  };
  return *probes;
}

// Elementwise ops of integers only.
bool IntegerOnly(absl::string_view op) {
  return op == "and" || op == "or" || op == "xor" || op == "not" || op == "popcnt" ||
         op == "count-leading-zeros" || op == "shift-left" || op == "shift-right-arithmetic" ||
         op == "shift-right-logical" || op == "mulhi";
}

// The probe module of an opcode. Opcodes this project does not know get the
// shape of a unary op: the parser turns them down by name.
std::string OpcodeProbe(const std::string& name) {
  std::string body;
  if (auto it = SpecialProbes().find(name); it != SpecialProbes().end()) {
    body = it->second;
  } else {
    auto opcode = StringToHloOpcode(name);
    const char* type = IntegerOnly(name) ? "s32" : "f32";
    if (opcode.ok() && IsElementwiseBinary(*opcode)) {
      body = absl::StrCat("a = ", type, "[4] parameter(0)\n b = ", type, "[4] parameter(1)\n",
                          " ROOT r = ", type, "[4] ", name, "(a, b)");
    } else {
      body = absl::StrCat("a = ", type, "[4] parameter(0)\n ROOT r = ", type, "[4] ", name, "(a)");
    }
  }
  return absl::StrCat("HloModule probe\n", kShared, "\nENTRY main {\n ", body, "\n}\n");
}

// An element type's probe: a round trip through f32 (convert both ways).
std::string TypeProbe(const std::string& type) {
  if (type == "c64" || type == "c128") {  // no convert to real: through real()
    const char* part = type == "c64" ? "f32" : "f64";
    return absl::StrCat("HloModule probe\nENTRY main {\n p = ", type,
                        "[4] parameter(0)\n c = ", part, "[4] real(p)\n b = ", type,
                        "[4] convert(c)\n ROOT t = (", type, "[4], ", part,
                        "[4]) tuple(b, c)\n}\n");
  }
  return absl::StrCat("HloModule probe\nENTRY main {\n p = ", type, "[4] parameter(0)\n",
                      " c = f32[4] convert(p)\n b = ", type, "[4] convert(c)\n", " ROOT t = (",
                      type, "[4], f32[4]) tuple(b, c)\n}\n");
}

// The first line of a status message, short and safe inside a table cell.
std::string Why(const absl::Status& status) {
  std::string text(status.message());
  if (size_t nl = text.find('\n'); nl != std::string::npos) text.resize(nl);
  if (text.find("is an XLA opcode this compiler does not support") != std::string::npos) {
    return "not implemented";
  }
  const std::string kFlag = "is behind the emission flag '";
  if (size_t at = text.find(kFlag); at != std::string::npos) {
    size_t from = at + kFlag.size();
    size_t to = text.find('\'', from);
    return absl::StrCat("staged rollout: behind the emission flag ",
                        text.substr(from, to == std::string::npos ? to : to - from),
                        " (off by default)");
  }
  // Drop a parser position ("3:18: ") and the probe's instruction name.
  size_t i = 0;
  for (int field = 0; field < 2; ++field) {
    size_t digits = i;
    while (digits < text.size() && absl::ascii_isdigit(text[digits])) ++digits;
    if (digits == i || digits >= text.size() || text[digits] != ':') break;
    i = digits + 1;
  }
  if (i > 0 && i < text.size() && text[i] == ' ') text = text.substr(i + 1);
  for (const char* prefix : {"instruction 'r': ", "instruction 'p': ", "instruction 'c': "}) {
    if (absl::StartsWith(text, prefix)) text = text.substr(std::strlen(prefix));
  }
  // The compiler's form: "instruction 'r' (cholesky): ...".
  if (absl::StartsWith(text, "instruction 'r' (")) {
    if (size_t close = text.find("): "); close != std::string::npos) text = text.substr(close + 3);
  }
  text = absl::StrReplaceAll(text, {{"|", "/"}, {"`", "'"}});
  constexpr size_t kMax = 90;
  if (text.size() > kMax) text = text.substr(0, kMax - 3) + "...";
  return text;
}

SupportRow Probe(const std::string& name, const std::string& text, bool cuda) {
  SupportRow row;
  row.name = name;
  auto module = ParseHloModule(text);
  absl::Status status = module.status();
  if (status.ok()) status = VerifyHloModule(**module);
  if (!status.ok()) {
    row.note = Why(status);
    return row;
  }
  row.parse = true;
  std::vector<Literal> args = RandomArguments(**module, 1);
  HloEvaluator evaluator;
  auto expected = evaluator.Evaluate(**module, args);
  row.interpret = expected.ok();
  if (!expected.ok()) row.note = Why(expected.status());

  absl::Status host = [&]() -> absl::Status {
    auto target = ShippedTargetConfig("host-x86-64-v3");
    AOT_RETURN_IF_ERROR(target);
    auto compiled = Compile(**module, *target);
    AOT_RETURN_IF_ERROR(compiled);
    auto client = Client::Create("host");
    AOT_RETURN_IF_ERROR(client);
    auto executable = (*client)->DeserializeExecutable((*compiled)->SerializeAsString());
    AOT_RETURN_IF_ERROR(executable);
    auto actual = ExecuteWithLiterals(**executable, args);
    AOT_RETURN_IF_ERROR(actual);
    if (!expected.ok()) return absl::OkStatus();  // runs; nothing to compare with
    return CompareLiteralsWithDefaultTolerance(*expected, *actual);
  }();
  row.host = host.ok();
  if (!host.ok() && row.note.empty()) row.note = Why(host);

  if (cuda) {
    auto target = ShippedTargetConfig("h100");
    absl::Status compiled = target.status();
    if (target.ok()) compiled = Compile(**module, *target).status();
    row.cuda = compiled.ok();
    if (!compiled.ok() && row.note.empty()) row.note = Why(compiled);
  } else if (row.note.empty()) {
    row.note = "CUDA not probed (no libdevice)";
  }
  return row;
}

}  // namespace

const std::vector<std::string>& XlaElementTypeNames() {
  static const auto* names = new std::vector<std::string>{"pred",
                                                          "s1",
                                                          "s2",
                                                          "s4",
                                                          "s8",
                                                          "s16",
                                                          "s32",
                                                          "s64",
                                                          "u1",
                                                          "u2",
                                                          "u4",
                                                          "u8",
                                                          "u16",
                                                          "u32",
                                                          "u64",
                                                          "f16",
                                                          "f32",
                                                          "bf16",
                                                          "f64",
                                                          "f8e5m2",
                                                          "f8e4m3",
                                                          "f8e4m3fn",
                                                          "f8e4m3b11fnuz",
                                                          "f8e5m2fnuz",
                                                          "f8e4m3fnuz",
                                                          "f8e3m4",
                                                          "f4e2m1fn",
                                                          "f8e8m0fnu",
                                                          "c64",
                                                          "c128"};
  return *names;
}

bool CanCompileForCuda() {
  auto module =
      ParseHloModule("ENTRY main {\n p = f32[4] parameter(0)\n ROOT n = f32[4] negate(p)\n}");
  auto target = ShippedTargetConfig("h100");
  return module.ok() && target.ok() && Compile(**module, *target).ok();
}

std::vector<SupportRow> ProbeOpcodes(bool cuda) {
  std::vector<SupportRow> rows;
  for (const std::string& name : XlaOpcodeNames()) {
    rows.push_back(Probe(name, OpcodeProbe(name), cuda));
  }
  return rows;
}

std::vector<SupportRow> ProbeElementTypes(bool cuda) {
  std::vector<SupportRow> rows;
  for (const std::string& name : XlaElementTypeNames()) {
    rows.push_back(Probe(name, TypeProbe(name), cuda));
  }
  return rows;
}

std::string SupportTableMarkdown(const std::vector<SupportRow>& opcodes,
                                 const std::vector<SupportRow>& types) {
  auto mark = [](bool b) { return b ? "yes" : "-"; };
  auto table = [&](const char* what, const std::vector<SupportRow>& rows) {
    int parse = 0, interpret = 0, host = 0, cuda = 0;
    std::string out = absl::StrCat("| ", what, " | parse | interpret | host | cuda | note |\n",
                                   "|---|---|---|---|---|---|\n");
    for (const SupportRow& r : rows) {
      parse += r.parse;
      interpret += r.interpret;
      host += r.host;
      cuda += r.cuda;
      absl::StrAppend(&out, "| `", r.name, "` | ", mark(r.parse), " | ", mark(r.interpret), " | ",
                      mark(r.host), " | ", mark(r.cuda), " | ", r.note, " |\n");
    }
    absl::StrAppend(&out, "| **", rows.size(), " in all** | ", parse, " | ", interpret, " | ", host,
                    " | ", cuda, " | |\n");
    return out;
  };
  return absl::StrCat(
      "Each of XLA's opcodes and element types, tried: a probe module parsed and verified "
      "(parse), evaluated by the reference interpreter (interpret), compiled for the host, run "
      "and compared with the interpreter (host), compiled for sm_90 without a device (cuda).\n\n",
      table("opcode", opcodes), "\n", table("element type", types));
}

}  // namespace aot
