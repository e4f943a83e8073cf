// The gemm thunk executed on the host platform, and its FromProto ->
// ToProto round trip; undersized slices are rejected at load.
#include <string>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "runtime/executable/client.h"
#include "runtime/testing/executable_builder.h"

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
