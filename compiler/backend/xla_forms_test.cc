// Forms XLA writes that the compiler once refused: multi-output fusions
// with differently shaped outputs, tuple-typed entry parameters, tuple
// constants, copies of tuples and width-changing bitcast-convert. Each is
// compiled for the host, run through serialized bytes and compared with
// the interpreter, and compiled for a CUDA target without a device.
#include <cstdint>
#include <filesystem>
#include <set>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "compiler/backend/compiler.h"
#include "compiler/hlo/hlo_parser.h"
#include "compiler/interpreter/evaluator.h"
#include "compiler/target/target_config.h"
#include "compiler/tooling/literal_execution.h"
#include "compiler/tooling/random_literal.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "runtime/executable/client.h"
#include "support/status_macros.h"

namespace aot {
namespace {

using ::testing::HasSubstr;

// Compiles `hlo` for the host, loads it from bytes, runs it on `args` and
// returns the result and the interpreter's, the status of the first step
// that fails otherwise.
absl::StatusOr<std::pair<Literal, Literal>> CompileAndRun(const HloModule& module,
                                                          const std::vector<Literal>& args) {
  AOT_ASSIGN_OR_RETURN(auto compiled, Compile(module, *ShippedTargetConfig("host-x86-64-v3")));
  AOT_ASSIGN_OR_RETURN(auto client, Client::Create("host"));
  AOT_ASSIGN_OR_RETURN(auto executable,
                       client->DeserializeExecutable(compiled->SerializeAsString()));
  HloEvaluator evaluator;
  AOT_ASSIGN_OR_RETURN(Literal expected, evaluator.Evaluate(module, args));
  AOT_ASSIGN_OR_RETURN(Literal actual, ExecuteWithLiterals(*executable, args));
  return std::make_pair(std::move(actual), std::move(expected));
}

// CompileAndRun, checking the result against the interpreter with
// `tolerance` (bitwise by default); an empty literal after a failure (the
// test has failed then). Also compiles for a CUDA target when libdevice is
// installed.
Literal CompileRunAndCompare(const std::string& hlo, const std::vector<Literal>& args,
                             Tolerance tolerance = {}) {
  auto module = ParseHloModule(hlo);
  EXPECT_TRUE(module.ok()) << module.status();
  if (!module.ok()) return Literal();  // failed already
  auto ran = CompileAndRun(**module, args);
  EXPECT_TRUE(ran.ok()) << ran.status();
  if (!ran.ok()) return Literal();  // failed already
  absl::Status same = CompareLiterals(ran->second, ran->first, tolerance);
  EXPECT_TRUE(same.ok()) << same;
  if (std::filesystem::exists("/usr/local/cuda/nvvm/libdevice/libdevice.10.bc")) {
    auto cuda = Compile(**module, *ShippedTargetConfig("h100"));
    EXPECT_TRUE(cuda.ok()) << cuda.status();
  }
  return std::move(ran->first);
}

// The same on random arguments drawn from `seed`.
Literal CompileRunAndCompareRandom(const std::string& hlo, uint64_t seed,
                                   Tolerance tolerance = {}) {
  auto module = ParseHloModule(hlo);
  EXPECT_TRUE(module.ok()) << module.status();
  return module.ok() ? CompileRunAndCompare(hlo, RandomArguments(**module, seed), tolerance)
                     : Literal();
}

TEST(XlaFormsTest, MultiOutputFusionWithDifferentlyShapedOutputs) {
  // A row reduction beside an elementwise result of another shape, and a
  // third output sharing the elementwise one's dimensions.
  const std::string hlo = R"(
HloModule sibling
add {
  a = f32[] parameter(0)
  b = f32[] parameter(1)
  ROOT s = f32[] add(a, b)
}
fused {
  p0 = f32[8,33] parameter(0)
  e = f32[8,33] exponential(p0)
  z = f32[] constant(0)
  r = f32[8] reduce(e, z), dimensions={1}, to_apply=add
  m = f32[8,33] multiply(e, p0)
  ROOT t = (f32[8], f32[8,33], f32[8,33]) tuple(r, e, m)
}
ENTRY main {
  x = f32[8,33] parameter(0)
  ROOT f = (f32[8], f32[8,33], f32[8,33]) fusion(x), kind=kInput, calls=fused
})";
  Literal result = CompileRunAndCompareRandom(hlo, 3, {1e-5, 1e-5});
  ASSERT_TRUE(result.shape().IsTuple());
  EXPECT_EQ(result.tuple_elements().size(), 3u);
}

TEST(XlaFormsTest, MultiOutputFusionWithSameShapedOutputs) {
  const std::string hlo = R"(
HloModule mof
fused {
  p0 = f32[4,5] parameter(0)
  p1 = f32[4,5] parameter(1)
  s = f32[4,5] add(p0, p1)
  ROOT t = (f32[4,5], f32[4,5]) tuple(s, p1)
}
ENTRY main {
  x = f32[4,5] parameter(0)
  y = f32[4,5] parameter(1)
  ROOT f = (f32[4,5], f32[4,5]) fusion(x, y), kind=kLoop, calls=fused
})";
  CompileRunAndCompareRandom(hlo, 5);
}

TEST(XlaFormsTest, TupleTypedEntryParametersNestedIncluded) {
  const std::string hlo = R"(
HloModule tparams
ENTRY main {
  p = (f32[3], (s32[2], f32[3])) parameter(0)
  q = f32[3] parameter(1)
  a = f32[3] get-tuple-element(p), index=0
  inner = (s32[2], f32[3]) get-tuple-element(p), index=1
  i = s32[2] get-tuple-element(inner), index=0
  b = f32[3] get-tuple-element(inner), index=1
  s = f32[3] add(a, b)
  m = f32[3] multiply(s, q)
  ROOT r = (f32[3], s32[2]) tuple(m, i)
})";
  auto module = ParseHloModule(hlo);
  ASSERT_TRUE(module.ok()) << module.status();
  auto compiled = Compile(**module, *ShippedTargetConfig("host-x86-64-v2"));
  ASSERT_TRUE(compiled.ok()) << compiled.status();
  // One parameter per leaf, depth-first: f32[3], s32[2], f32[3], then q.
  const ExecutableProto& e = (*compiled)->proto();
  ASSERT_EQ(e.parameters_size(), 4);
  for (int i = 0; i < 4; ++i) EXPECT_EQ(e.parameters(i).parameter_number(), i);
  EXPECT_EQ(e.parameters(1).shape().element_type(), S32);
  EXPECT_EQ(e.parameters(1).shape().dimensions(0), 2);
  Literal tuple =
      Literal::Tuple({Literal::FromDoubles(Shape(F32, {3}), {1, 2, 3}),
                      Literal::Tuple({Literal::FromInt64s(Shape(S32, {2}), {-7, 9}),
                                      Literal::FromDoubles(Shape(F32, {3}), {10, 20, 30})})});
  std::vector<Literal> args;
  args.push_back(std::move(tuple));
  args.push_back(Literal::FromDoubles(Shape(F32, {3}), {2, 0.5, -1}));
  Literal result = CompileRunAndCompare(hlo, args);
  ASSERT_TRUE(result.shape().IsTuple());
  EXPECT_EQ(result.tuple_element(0).GetAsDouble(0), 22.0);
  EXPECT_EQ(result.tuple_element(0).GetAsDouble(2), -33.0);
  EXPECT_EQ(result.tuple_element(1).GetAsInt64(0), -7);
}

TEST(XlaFormsTest, TupleConstantAndItsElements) {
  const std::string hlo = R"(
HloModule tconst
ENTRY main {
  p = f32[2] parameter(0)
  c = (f32[2], s32[3]) constant(({1.5, -2}, {4, 5, 6}))
  f = f32[2] get-tuple-element(c), index=0
  i = s32[3] get-tuple-element(c), index=1
  a = f32[2] add(p, f)
  ROOT r = (f32[2], s32[3], (f32[2], s32[3])) tuple(a, i, c)
})";
  auto module = ParseHloModule(hlo);
  ASSERT_TRUE(module.ok()) << module.status();
  auto compiled = Compile(**module, *ShippedTargetConfig("host-x86-64-v2"));
  ASSERT_TRUE(compiled.ok()) << compiled.status();
  // One constant per leaf, named after its index.
  std::vector<std::string> names;
  for (const ConstantProto& c : (*compiled)->proto().constants()) names.push_back(c.name());
  EXPECT_THAT(names, ::testing::IsSupersetOf({"c{0}", "c{1}"}));
  std::vector<Literal> args;
  args.push_back(Literal::FromDoubles(Shape(F32, {2}), {1, 1}));
  Literal result = CompileRunAndCompare(hlo, args);
  ASSERT_TRUE(result.shape().IsTuple());
  EXPECT_EQ(result.tuple_element(0).GetAsDouble(0), 2.5);
  EXPECT_EQ(result.tuple_element(1).GetAsInt64(2), 6);
}

TEST(XlaFormsTest, CopyOfATuple) {
  const std::string hlo = R"(
HloModule tcopy
ENTRY main {
  p = f32[4] parameter(0)
  q = s32[2,2] parameter(1)
  t = (f32[4], s32[2,2]) tuple(p, q)
  c = (f32[4], s32[2,2]) copy(t)
  a = f32[4] get-tuple-element(c), index=0
  n = f32[4] negate(a)
  ROOT r = (f32[4], (f32[4], s32[2,2])) tuple(n, c)
})";
  CompileRunAndCompareRandom(hlo, 11);
}

TEST(XlaFormsTest, BitcastConvertToNarrowerAndBackIsBitExact) {
  // f32 -> u8[...,4] -> f32 and f32 -> f16[...,2]: the pieces are the
  // element's bytes lowest first, and every pattern (NaN payloads and
  // signalling NaNs included) survives.
  const std::string hlo = R"(
HloModule narrow
ENTRY main {
  p = f32[2,3] parameter(0)
  bytes = u8[2,3,4] bitcast-convert(p)
  halves = f16[2,3,2] bitcast-convert(p)
  back = f32[2,3] bitcast-convert(bytes)
  halves_back = f32[2,3] bitcast-convert(halves)
  ROOT r = (u8[2,3,4], f16[2,3,2], f32[2,3], f32[2,3]) tuple(bytes, halves, back, halves_back)
})";
  Literal p(Shape(F32, {2, 3}));
  // 1.0, -2.5, a quiet NaN with payload, a signalling NaN in both halves
  // (f16 pieces 0x7c01), the largest subnormal, -0.
  const uint32_t patterns[] = {0x3f800000u, 0xc0200000u, 0x7fc12345u,
                               0x7c017c01u, 0x007fffffu, 0x80000000u};
  for (int i = 0; i < 6; ++i) p.Set<uint32_t>(i, patterns[i]);
  std::vector<Literal> args;
  args.push_back(std::move(p));
  Literal result = CompileRunAndCompare(hlo, args);
  ASSERT_TRUE(result.shape().IsTuple());
  const Literal& bytes = result.tuple_element(0);
  EXPECT_EQ(bytes.Get<uint8_t>(0), 0x00);  // 1.0f = 00 00 80 3f
  EXPECT_EQ(bytes.Get<uint8_t>(2), 0x80);
  EXPECT_EQ(bytes.Get<uint8_t>(3), 0x3f);
  const Literal& halves = result.tuple_element(1);
  EXPECT_EQ(halves.Get<uint16_t>(6), 0x7c01);  // element 3's low half
  EXPECT_EQ(halves.Get<uint16_t>(7), 0x7c01);
  for (int leaf : {2, 3}) {
    for (int i = 0; i < 6; ++i) {
      EXPECT_EQ(result.tuple_element(leaf).Get<uint32_t>(i), patterns[i]) << leaf << " " << i;
    }
  }
}

TEST(XlaFormsTest, BitcastConvertToWiderJoinsPieces) {
  const std::string hlo = R"(
HloModule wide
ENTRY main {
  p = s16[3,4] parameter(0)
  ROOT w = u64[3] bitcast-convert(p)
})";
  std::vector<Literal> args;
  args.push_back(
      Literal::FromInt64s(Shape(S16, {3, 4}), {1, 2, 3, 4, -1, 0, 0, -32768, 0x1234, 0, 0, 0}));
  Literal result = CompileRunAndCompare(hlo, args);
  EXPECT_EQ(result.Get<uint64_t>(0), 0x0004000300020001ull);
  EXPECT_EQ(result.Get<uint64_t>(1), 0x800000000000ffffull);
  EXPECT_EQ(result.Get<uint64_t>(2), 0x1234ull);
}

TEST(XlaFormsTest, BitcastConvertChangingElementCountIsRefusedByTheVerifier) {
  // Width change needs the minor dimension to match the ratio.
  auto module = ParseHloModule(R"(
HloModule bad
ENTRY main {
  p = f32[2,3] parameter(0)
  ROOT b = u8[2,3,2] bitcast-convert(p)
})");
  absl::Status status = module.status();
  if (module.ok()) {
    status = Compile(**module, *ShippedTargetConfig("host-x86-64-v2")).status();
  }
  ASSERT_FALSE(status.ok());
  EXPECT_THAT(std::string(status.message()), HasSubstr("'b'"));
}

TEST(XlaFormsTest, VariadicScatterCombinesBothOperands) {
  // An argmax-style scatter: keeps the larger value and its index, the
  // combiner seeing both old values and both updates.
  const std::string hlo = R"(
HloModule vscatter
pick {
  v0 = f32[] parameter(0)
  i0 = s32[] parameter(1)
  v1 = f32[] parameter(2)
  i1 = s32[] parameter(3)
  gt = pred[] compare(v1, v0), direction=GT
  v = f32[] select(gt, v1, v0)
  i = s32[] select(gt, i1, i0)
  ROOT t = (f32[], s32[]) tuple(v, i)
}
ENTRY main {
  values = f32[4,3] parameter(0)
  ids = s32[4,3] parameter(1)
  where = s32[6,1] parameter(2)
  uv = f32[6,3] parameter(3)
  ui = s32[6,3] parameter(4)
  ROOT s = (f32[4,3], s32[4,3]) scatter(values, ids, where, uv, ui), update_window_dims={1}, inserted_window_dims={0}, scatter_dims_to_operand_dims={0}, index_vector_dim=1, to_apply=pick
})";
  auto module = ParseHloModule(hlo);
  ASSERT_TRUE(module.ok()) << module.status();
  std::vector<Literal> args = RandomArguments(**module, 17);
  // Indices in range (two collide, one out of range and skipped).
  args[2] = Literal::FromInt64s(Shape(S32, {6, 1}), {0, 3, 1, 3, 7, 2});
  Literal result = CompileRunAndCompare(hlo, args);
  ASSERT_TRUE(result.shape().IsTuple());
  EXPECT_EQ(result.tuple_elements().size(), 2u);
}

TEST(XlaFormsTest, GatherAndScatterWithBatchingDimensions) {
  // out[b, j] = o[b, i[b, j], :] and o[b, i[b, j], :] += u[b, j, :].
  const std::string hlo = R"(
HloModule batching
add {
  a = f32[] parameter(0)
  b = f32[] parameter(1)
  ROOT s = f32[] add(a, b)
}
ENTRY main {
  o = f32[3,5,2] parameter(0)
  i = s32[3,4,1] parameter(1)
  u = f32[3,4,2] parameter(2)
  g = f32[3,4,2] gather(o, i), offset_dims={2}, collapsed_slice_dims={1}, start_index_map={1}, operand_batching_dims={0}, start_indices_batching_dims={0}, index_vector_dim=2, slice_sizes={1,1,2}
  s = f32[3,5,2] scatter(o, i, u), update_window_dims={2}, inserted_window_dims={1}, scatter_dims_to_operand_dims={1}, input_batching_dims={0}, scatter_indices_batching_dims={0}, index_vector_dim=2, to_apply=add
  ROOT r = (f32[3,4,2], f32[3,5,2]) tuple(g, s)
})";
  auto module = ParseHloModule(hlo);
  ASSERT_TRUE(module.ok()) << module.status();
  std::vector<Literal> args = RandomArguments(**module, 23);
  args[1] = Literal::FromInt64s(Shape(S32, {3, 4, 1}), {0, 4, 4, 2, 1, 1, 3, 0, 2, 9, -1, 4});
  Literal result = CompileRunAndCompare(hlo, args, {1e-6, 1e-6});
  ASSERT_TRUE(result.shape().IsTuple());
  // g[1, 0, :] = o[1, 1, :]: the batch index picks the operand's row.
  const Literal& o = args[0];
  EXPECT_EQ(result.tuple_element(0).Get<float>(8), o.Get<float>(1 * 10 + 1 * 2));
}

TEST(XlaFormsTest, ConvolutionWithBatchGroupCount) {
  // The shape of a weight-gradient convolution: the input batch splits into
  // two groups, each feeding half of the output features.
  const std::string hlo = R"(
HloModule bgc
ENTRY main {
  x = f32[4,5,3] parameter(0)
  k = f32[3,3,6] parameter(1)
  ROOT c = f32[2,3,6] convolution(x, k), window={size=3}, dim_labels=b0f_0io->b0f, batch_group_count=2
})";
  CompileRunAndCompareRandom(hlo, 29, {1e-5, 1e-5});
}

TEST(XlaFormsTest, OptimizationBarrierAndDimensionSizeNeverReachTheArtifact) {
  // The rematerialization barrier JAX writes, and a dimension size: both
  // static here, lowered before emission, so the embedded module holds
  // neither (the runtime has never read them).
  const std::string hlo = R"(
HloModule remat
ENTRY main {
  x = f32[6,4] parameter(0)
  w = f32[4] parameter(1)
  t = (f32[6,4], f32[4]) tuple(x, w)
  b = (f32[6,4], f32[4]) opt-barrier(t)
  xb = f32[6,4] get-tuple-element(b), index=0
  wb = f32[4] get-tuple-element(b), index=1
  ws = f32[6,4] broadcast(wb), dimensions={1}
  rows = s32[] get-dimension-size(xb), dimensions={0}
  m = f32[6,4] multiply(xb, ws)
  ROOT r = (f32[6,4], s32[]) tuple(m, rows)
})";
  Literal result = CompileRunAndCompareRandom(hlo, 31);
  ASSERT_TRUE(result.shape().IsTuple());
  EXPECT_EQ(result.tuple_element(1).GetAsInt64(0), 6);
  auto module = ParseHloModule(hlo);
  ASSERT_TRUE(module.ok());
  auto compiled = Compile(**module, *ShippedTargetConfig("host-x86-64-v2"));
  ASSERT_TRUE(compiled.ok()) << compiled.status();
  for (const auto& c : (*compiled)->proto().hlo_module().hlo_module().computations()) {
    for (const auto& i : c.instructions()) {
      EXPECT_NE(i.opcode(), "opt-barrier");
      EXPECT_NE(i.opcode(), "get-dimension-size");
    }
  }
}

// The opcodes of `compiled`'s embedded module.
std::set<std::string> EmbeddedOpcodes(const std::string& hlo) {
  std::set<std::string> opcodes;
  auto module = ParseHloModule(hlo);
  EXPECT_TRUE(module.ok()) << module.status();
  if (!module.ok()) return opcodes;
  auto compiled = Compile(**module, *ShippedTargetConfig("host-x86-64-v3"));
  EXPECT_TRUE(compiled.ok()) << compiled.status();
  if (!compiled.ok()) return opcodes;
  for (const auto& c : (*compiled)->proto().hlo_module().hlo_module().computations()) {
    for (const auto& i : c.instructions()) opcodes.insert(i.opcode());
  }
  return opcodes;
}

TEST(XlaFormsTest, AsyncWrappersCopiesTokensAndDomainsLowerAway) {
  // An async-wrapped computation (as XLA's scheduler writes it), an
  // asynchronous copy, a token dependency and a sharding domain: all run
  // in order on one device, and none reaches the artifact.
  const std::string hlo = R"(
HloModule wrappers
wrapped {
  a = f32[8,4] parameter(0)
  w = f32[4,3] parameter(1)
  ROOT d = f32[8,3] dot(a, w), lhs_contracting_dims={1}, rhs_contracting_dims={0}
}
ENTRY main {
  x = f32[8,4] parameter(0)
  w = f32[4,3] parameter(1)
  start = ((f32[8,4], f32[4,3]), f32[8,3], s32[]) async-start(x, w), calls=wrapped
  n = f32[8,4] negate(x)
  update = ((f32[8,4], f32[4,3]), f32[8,3], s32[]) async-update(start)
  done = f32[8,3] async-done(update)
  cs = (f32[8,4], f32[8,4], u32[]) copy-start(n)
  cd = f32[8,4] copy-done(cs)
  tok = token[] after-all()
  dep = f32[8,3] add-dependency(done, tok)
  dom = f32[8,3] domain(dep), domain={kind="sharding", entry={maximal device=0}, exit={replicated}}
  ROOT r = (f32[8,3], f32[8,4]) tuple(dom, cd)
})";
  CompileRunAndCompareRandom(hlo, 41, {1e-5, 1e-4});
  const std::set<std::string> opcodes = EmbeddedOpcodes(hlo);
  for (const char* gone : {"async-start", "async-update", "async-done", "copy-start", "copy-done",
                           "after-all", "add-dependency", "domain", "call"}) {
    EXPECT_EQ(opcodes.count(gone), 0u) << gone;
  }
}

TEST(XlaFormsTest, MapTopKAndBatchNormExpandBeforeEmission) {
  const std::string hlo = R"(
HloModule composites
clip {
  a = f32[] parameter(0)
  b = f32[] parameter(1)
  lo = f32[] constant(-0.25)
  m = f32[] maximum(a, lo)
  ROOT s = f32[] add(m, b)
}
ENTRY main {
  x = f32[4,3,6] parameter(0)
  y = f32[4,3,6] parameter(1)
  scale = f32[3] parameter(2)
  offset = f32[3] parameter(3)
  mapped = f32[4,3,6] map(x, y), dimensions={0,1,2}, to_apply=clip
  bn = (f32[4,3,6], f32[3], f32[3]) batch-norm-training(mapped, scale, offset), epsilon=0.001, feature_index=1
  normed = f32[4,3,6] get-tuple-element(bn), index=0
  mean = f32[3] get-tuple-element(bn), index=1
  var = f32[3] get-tuple-element(bn), index=2
  inf = f32[4,3,6] batch-norm-inference(x, scale, offset, mean, var), epsilon=0.001, feature_index=1
  dx = (f32[4,3,6], f32[3], f32[3]) batch-norm-grad(x, scale, mean, var, normed), epsilon=0.001, feature_index=1
  g = f32[4,3,6] get-tuple-element(dx), index=0
  top = (f32[4,3,2], s32[4,3,2]) topk(inf), k=2, largest=true
  ROOT r = ((f32[4,3,2], s32[4,3,2]), f32[4,3,6], f32[3], f32[3]) tuple(top, g, mean, var)
})";
  CompileRunAndCompareRandom(hlo, 43, {1e-4, 1e-3});
  const std::set<std::string> opcodes = EmbeddedOpcodes(hlo);
  for (const char* gone :
       {"map", "topk", "batch-norm-training", "batch-norm-inference", "batch-norm-grad"}) {
    EXPECT_EQ(opcodes.count(gone), 0u) << gone;
  }
  EXPECT_EQ(opcodes.count("sort"), 1u);
}

TEST(XlaFormsTest, AnAfterAllThatSurvivesIsRefusedByName) {
  auto module = ParseHloModule(R"(
HloModule token_out
ENTRY main {
  p = f32[4] parameter(0)
  t = token[] after-all()
  ROOT r = (f32[4], token[]) tuple(p, t)
})");
  ASSERT_TRUE(module.ok()) << module.status();
  auto compiled = Compile(**module, *ShippedTargetConfig("host-x86-64-v3"));
  ASSERT_FALSE(compiled.ok());
  EXPECT_THAT(std::string(compiled.status().message()), HasSubstr("'t'"));
}

TEST(XlaFormsTest, ElementTypesOfTheStagedRolloutAreRefusedBeforeAnyPass) {
  auto module = ParseHloModule(R"(
HloModule fp8
ENTRY main {
  a = f8e4m3fn[4,4] parameter(0)
  b = f8e4m3fn[4,4] parameter(1)
  ROOT d = f32[4,4] dot(a, b), lhs_contracting_dims={1}, rhs_contracting_dims={0}
})");
  ASSERT_TRUE(module.ok()) << module.status();
  auto compiled = Compile(**module, *ShippedTargetConfig("host-x86-64-v3"));
  ASSERT_FALSE(compiled.ok());
  EXPECT_EQ(compiled.status().code(), absl::StatusCode::kUnimplemented);
  EXPECT_THAT(std::string(compiled.status().message()),
              HasSubstr("instruction 'a' (parameter): its narrow element type (f8e4m3fn[4,4]) is "
                        "behind the emission flag 'emit_extended_element_types'"));
}

TEST(XlaFormsTest, ComplexValuesAreBehindTheirEmissionFlag) {
  // The complex value is made inside the module from real parameters.
  auto module = ParseHloModule(R"(
HloModule spectrum
ENTRY main {
  x = f32[8] parameter(0)
  f = c64[5] fft(x), fft_type=RFFT, fft_length={8}
  ROOT m = f32[5] abs(f)
})");
  ASSERT_TRUE(module.ok()) << module.status();
  for (const char* target : {"host-x86-64-v3", "h100"}) {
    auto config = ShippedTargetConfig(target);
    ASSERT_TRUE(config.ok()) << config.status();
    auto compiled = Compile(**module, *config);
    ASSERT_FALSE(compiled.ok()) << target;
    EXPECT_EQ(compiled.status().code(), absl::StatusCode::kUnimplemented) << target;
    EXPECT_THAT(std::string(compiled.status().message()),
                HasSubstr("instruction 'f' (fft): its complex element type (c64[5]) is behind "
                          "the emission flag 'emit_extended_element_types' "
                          "(--xla_aot_emit_extended_element_types=true), off by default until "
                          "2026-12-17"))
        << target;
  }
}

}  // namespace
}  // namespace aot
