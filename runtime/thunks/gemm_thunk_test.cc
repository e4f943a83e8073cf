// The gemm thunk executed on the host platform, and its FromProto ->
// ToProto round trip; undersized slices are rejected at load.
#include <cstdint>
#include <string>
#include <vector>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "runtime/executable/client.h"
#include "runtime/testing/executable_builder.h"
#include "support/float16.h"

namespace aot {
namespace {

using ::aot::testing::As;
using ::aot::testing::Builder;
using ::aot::testing::Bytes;
using ::aot::testing::Load;
using ::aot::testing::Shape;
using ::testing::ElementsAre;
using ::testing::HasSubstr;

TEST(ThunksTest, GemmWithTransposedRhs) {
  Builder b;
  int lhs = b.Parameter(Shape(F32, {2, 3}));
  int rhs = b.Parameter(Shape(F32, {4, 3}));  // used transposed: [3,4]
  int out = b.Allocation(2 * 4 * 4, BufferAllocationProto::OUTPUT);
  GemmThunkProto* g = b.Thunk("dot")->mutable_gemm();
  *g->mutable_lhs() = Builder::Slice(lhs, 0, 24);
  *g->mutable_rhs() = Builder::Slice(rhs, 0, 48);
  *g->mutable_output() = Builder::Slice(out, 0, 32);
  g->set_element_type(F32);
  g->set_batch_size(1);
  g->set_m(2);
  g->set_n(4);
  g->set_k(3);
  g->set_transpose_rhs(true);
  g->set_alpha(1);
  b.Result({{Shape(F32, {2, 4}), Builder::Slice(out, 0, 32)}});
  auto executable = Load(b.Build());
  ASSERT_NE(executable, nullptr);
  std::vector<float> a = {1, 2, 3, 4, 5, 6};
  std::vector<float> r = {1, 0, 0, 0, 1, 0, 0, 0, 1, 1, 1, 1};
  auto results = executable->Execute({Bytes(a), Bytes(r)});
  ASSERT_TRUE(results.ok()) << results.status();
  EXPECT_THAT(As<float>((*results)[0]), ElementsAre(1, 2, 3, 6, 4, 5, 6, 15));
}

// f16 and bf16 GEMMs (the element types of emit_low_precision_gemm): the
// products are accumulated in f32 and the result rounded once to the
// element type, batched, with a transposed lhs.
TEST(ThunksTest, HalfPrecisionGemmAccumulatesInF32AndRoundsOnce) {
  for (PrimitiveType type : {F16, BF16}) {
    SCOPED_TRACE(PrimitiveType_Name(type));
    auto to_bits = [&](float f) { return type == F16 ? FloatToHalfBits(f) : FloatToBf16Bits(f); };
    auto from_bits = [&](uint16_t b) {
      return type == F16 ? HalfBitsToFloat(b) : Bf16BitsToFloat(b);
    };
    constexpr int64_t kBatch = 2, kM = 2, kN = 3, kK = 64;
    Builder b;
    int lhs = b.Parameter(Shape(type, {kBatch, kK, kM}));  // used transposed: [K, M] -> [M, K]
    int rhs = b.Parameter(Shape(type, {kBatch, kK, kN}));
    int out = b.Allocation(kBatch * kM * kN * 2, BufferAllocationProto::OUTPUT);
    GemmThunkProto* g = b.Thunk("dot")->mutable_gemm();
    *g->mutable_lhs() = Builder::Slice(lhs, 0, kBatch * kK * kM * 2);
    *g->mutable_rhs() = Builder::Slice(rhs, 0, kBatch * kK * kN * 2);
    *g->mutable_output() = Builder::Slice(out, 0, kBatch * kM * kN * 2);
    g->set_element_type(type);
    g->set_batch_size(kBatch);
    g->set_m(kM);
    g->set_n(kN);
    g->set_k(kK);
    g->set_transpose_lhs(true);
    g->set_alpha(1);
    g->set_lhs_batch_stride(kK * kM);
    g->set_rhs_batch_stride(kK * kN);
    g->set_output_batch_stride(kM * kN);
    b.Result({{Shape(type, {kBatch, kM, kN}), Builder::Slice(out, 0, kBatch * kM * kN * 2)}});
    auto executable = Load(b.Build());
    ASSERT_NE(executable, nullptr);
    // Products are multiples of 1/128 below 2, so every f32 partial sum is
    // exact whatever BLAS's summation order; the sums (up to ~68) need more
    // bits than f16/bf16 hold, so a result rounded per step would differ.
    std::vector<uint16_t> a(kBatch * kK * kM), r(kBatch * kK * kN);
    for (size_t i = 0; i < a.size(); ++i) a[i] = to_bits(i % 3 == 0 ? 1.0f : 0.5f);
    for (size_t i = 0; i < r.size(); ++i) r[i] = to_bits(1.0f + (i % 5) / 64.0f);
    auto results = executable->Execute({Bytes(a), Bytes(r)});
    ASSERT_TRUE(results.ok()) << results.status();
    std::vector<uint16_t> got = As<uint16_t>((*results)[0]);
    ASSERT_EQ(got.size(), static_cast<size_t>(kBatch * kM * kN));
    for (int64_t bt = 0; bt < kBatch; ++bt) {
      for (int64_t i = 0; i < kM; ++i) {
        for (int64_t j = 0; j < kN; ++j) {
          float sum = 0;
          for (int64_t k = 0; k < kK; ++k) {
            sum +=
                from_bits(a[bt * kK * kM + k * kM + i]) * from_bits(r[bt * kK * kN + k * kN + j]);
          }
          EXPECT_EQ(got[bt * kM * kN + i * kN + j], to_bits(sum))
              << "batch " << bt << " [" << i << "," << j
              << "]: " << from_bits(got[bt * kM * kN + i * kN + j]) << " vs " << sum;
        }
      }
    }
  }
}

// Loads an f32 GEMM of the given dimensions over a 24-byte operand slice
// (lhs and rhs) and a 32-byte output: what load says about it.
absl::Status LoadGemm(int64_t m, int64_t n, int64_t k) {
  Builder b;
  int lhs = b.Parameter(Shape(F32, {2, 3}));
  int out = b.Allocation(32, BufferAllocationProto::OUTPUT);
  GemmThunkProto* g = b.Thunk("dot")->mutable_gemm();
  *g->mutable_lhs() = Builder::Slice(lhs, 0, 24);
  *g->mutable_rhs() = Builder::Slice(lhs, 0, 24);
  *g->mutable_output() = Builder::Slice(out, 0, 32);
  g->set_element_type(F32);
  g->set_batch_size(1);
  g->set_m(m);
  g->set_n(n);
  g->set_k(k);
  b.Result({{Shape(F32, {2, 4}), Builder::Slice(out, 0, 32)}});
  auto client = *Client::Create("host");
  return client->Load(b.Build()).status();
}

TEST(ThunksTest, GemmRejectsElementTypesWithoutABlasGemm) {
  Builder b;
  int lhs = b.Parameter(Shape(S32, {2, 2}));
  int out = b.Allocation(16, BufferAllocationProto::OUTPUT);
  GemmThunkProto* g = b.Thunk("dot")->mutable_gemm();
  *g->mutable_lhs() = Builder::Slice(lhs, 0, 16);
  *g->mutable_rhs() = Builder::Slice(lhs, 0, 16);
  *g->mutable_output() = Builder::Slice(out, 0, 16);
  g->set_element_type(S32);
  g->set_batch_size(1);
  g->set_m(2);
  g->set_n(2);
  g->set_k(2);
  b.Result({{Shape(S32, {2, 2}), Builder::Slice(out, 0, 16)}});
  auto client = *Client::Create("host");
  absl::Status s = client->Load(b.Build()).status();
  ASSERT_FALSE(s.ok());
  EXPECT_THAT(std::string(s.message()),
              HasSubstr("thunks[0].gemm.element_type: S32 is not supported by GEMM thunks "
                        "(F16, BF16, F32, F64)"));
}

TEST(ThunksTest, GemmRejectsUndersizedSlices) {
  absl::Status s = LoadGemm(2, 4, 3);
  ASSERT_FALSE(s.ok());
  EXPECT_THAT(std::string(s.message()),
              HasSubstr("thunks[0].gemm.rhs: slice of 24 bytes is smaller than the 48 bytes"));
}

TEST(ThunksTest, GemmRejectsDimensionsBeyondBlasIntBeforeMultiplying) {
  // With m = n = k = 2^32 every product (m*k, k*n, m*n = 2^64) wraps to 0
  // in int64, and the slice checks would pass.
  constexpr int64_t kHuge = int64_t{1} << 32;
  absl::Status s = LoadGemm(kHuge, kHuge, kHuge);
  ASSERT_FALSE(s.ok());
  EXPECT_THAT(std::string(s.message()),
              HasSubstr("thunks[0].gemm: m, n, k must be at most 2147483647 (BLAS takes int), "
                        "got 4294967296, 4294967296, 4294967296"));
}

}  // namespace
}  // namespace aot
