// The StableHLO front end on a 10 MB program (issue 45: conversion of a
// 10 MB module in <= 2 s), against parsing the HLO text it converts to with
// the HLO parser in the same run (and memcpy of the same bytes): the
// program is a JAX-like chain of 16x16 blocks, each with a 256-element
// constant and eight elementwise, broadcast, reduce and dot ops, so both
// the literal reader and the op reader are exercised.
#include <cstring>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "benchmark/benchmark.h"
#include "compiler/hlo/hlo_module_loader.h"
#include "compiler/hlo/hlo_parser.h"
#include "compiler/stablehlo/stablehlo_to_hlo.h"

namespace aot {
namespace {

constexpr size_t kTargetBytes = 10 << 20;

const std::string& TenMegabyteProgram() {
  static const std::string* text = [] {
    auto* out = new std::string;
    out->reserve(kTargetBytes + 65536);
    absl::StrAppend(out,
                    "module @jit_chain attributes {mhlo.num_partitions = 1 : i32} {\n"
                    "  func.func public @main(%arg0: tensor<16x16xf32> {mhlo.layout_mode = "
                    "\"default\"}) -> (tensor<16x16xf32> {jax.result_info = \"\"}) {\n"
                    "    %zero = stablehlo.constant dense<0.000000e+00> : tensor<f32>\n");
    std::string x = "%arg0";
    const std::string t = "tensor<16x16xf32>";
    for (int i = 0; out->size() < kTargetBytes; ++i) {
      std::string c = absl::StrCat("dense<[");
      for (int r = 0; r < 16; ++r) {
        absl::StrAppend(&c, r ? ", [" : "[");
        for (int k = 0; k < 16; ++k) {
          absl::StrAppend(&c, k ? ", " : "", (i * 31 + r * 17 + k * 7) % 1000, ".", (r + k) % 10,
                          "e-03");
        }
        absl::StrAppend(&c, "]");
      }
      absl::StrAppend(&c, "]>");
      const std::string n = absl::StrCat(i);
      absl::StrAppend(out, "    %c", n, " = stablehlo.constant ", c, " : ", t, "\n",              //
                      "    %a", n, " = stablehlo.add ", x, ", %c", n, " : ", t, " loc(#loc1)\n",  //
                      "    %m", n, " = stablehlo.multiply %a", n, ", %a", n, " : ", t, "\n",      //
                      "    %d", n, " = stablehlo.dot_general %m", n, ", %c", n,
                      ", contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (", t, ", ",
                      t, ") -> ", t, "\n",  //
                      "    %r", n, " = stablehlo.reduce(%d", n,
                      " init: %zero) applies stablehlo.add across dimensions = [1] : (", t,
                      ", tensor<f32>) -> tensor<16xf32>\n",  //
                      "    %b", n, " = stablehlo.broadcast_in_dim %r", n,
                      ", dims = [0] : (tensor<16xf32>) -> ", t, "\n",                         //
                      "    %s", n, " = stablehlo.subtract %d", n, ", %b", n, " : ", t, "\n",  //
                      "    %g", n, " = stablehlo.compare  GT, %s", n, ", %a", n, ",  FLOAT : (", t,
                      ", ", t,
                      ") -> tensor<16x16xi1>\n",  //
                      "    %x", n, " = stablehlo.select %g", n, ", %s", n, ", %a", n,
                      " : tensor<16x16xi1>, ", t, "\n");
      x = absl::StrCat("%x", n);
    }
    absl::StrAppend(out, "    return ", x, " : ", t, "\n  }\n}\n#loc1 = loc(\"f.py\":1:0)\n");
    return out;
  }();
  return *text;
}

void SetBytes(benchmark::State& state, size_t bytes) {
  state.SetBytesProcessed(static_cast<int64_t>(state.iterations() * bytes));
  state.counters["MB"] = static_cast<double>(bytes) / (1 << 20);
}

// Reading and converting to HLO text.
void BM_ConvertStableHlo10MB(benchmark::State& state) {
  const std::string& text = TenMegabyteProgram();
  for (auto _ : state) {
    auto converted = stablehlo::ConvertStableHloText(text, "bench.mlir");
    if (!converted.ok()) state.SkipWithError(std::string(converted.status().message()).c_str());
    benchmark::DoNotOptimize(converted);
  }
  SetBytes(state, text.size());
}
BENCHMARK(BM_ConvertStableHlo10MB)->Unit(benchmark::kMillisecond)->UseRealTime();

// What a tool does: converted and parsed into the HLO module.
void BM_LoadStableHlo10MB(benchmark::State& state) {
  const std::string& text = TenMegabyteProgram();
  for (auto _ : state) {
    auto loaded = LoadStableHloProgram(text, "bench.mlir", 1, "");
    if (!loaded.ok()) state.SkipWithError(std::string(loaded.status().message()).c_str());
    benchmark::DoNotOptimize(loaded);
  }
  SetBytes(state, text.size());
}
BENCHMARK(BM_LoadStableHlo10MB)->Unit(benchmark::kMillisecond)->UseRealTime();

// Baseline: the HLO parser on the converted program's HLO text.
void BM_ParseHloOfStableHlo10MB(benchmark::State& state) {
  auto converted = stablehlo::ConvertStableHloText(TenMegabyteProgram(), "bench.mlir");
  if (!converted.ok()) {
    state.SkipWithError(std::string(converted.status().message()).c_str());
    return;
  }
  for (auto _ : state) {
    auto parsed = ParseHloModule(converted->hlo_text);
    benchmark::DoNotOptimize(parsed);
  }
  SetBytes(state, converted->hlo_text.size());
}
BENCHMARK(BM_ParseHloOfStableHlo10MB)->Unit(benchmark::kMillisecond)->UseRealTime();

}  // namespace
}  // namespace aot
