#include "compiler/tooling/run_summary.h"

#include <cstdint>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "compiler/hlo/literal.h"
#include "compiler/hlo/shape.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace aot {
namespace {

using ::testing::HasSubstr;
using ::testing::MatchesRegex;

Literal F32Vector(std::vector<double> values) {
  return Literal::FromDoubles(Shape(F32, {static_cast<int64_t>(values.size())}), values);
}

TEST(RunSummaryTest, Median) {
  EXPECT_EQ(MedianMs({}), 0);
  EXPECT_EQ(MedianMs({5}), 5);
  EXPECT_EQ(MedianMs({9, 1, 5}), 5);
  EXPECT_EQ(MedianMs({4, 1, 3, 2}), 2.5);
}

TEST(RunSummaryTest, ToleranceDescription) {
  EXPECT_EQ(DescribeDefaultTolerance(Shape(F32, {2})), "f32: atol=1e-05 rtol=0.0001");
  EXPECT_EQ(
      DescribeDefaultTolerance(Shape::Tuple({Shape(S32, {}), Shape(F32, {3}), Shape(S32, {2})})),
      "s32: bitwise; f32: atol=1e-05 rtol=0.0001");
}

TEST(RunSummaryTest, NarrowFloatsMatchWithinOneStepOfTheirFormat) {
  EXPECT_EQ(DescribeDefaultTolerance(Shape(F8E4M3FN, {2})), "f8e4m3fn: atol=0.00195312 rtol=0.125");
  // e4m3fn: 1.0 (0x38) and its neighbours 1.125 (0x39) and 0.9375 (0x37)
  // match, 1.25 (two steps) does not; the integers stay bitwise.
  auto f8 = [](std::vector<uint8_t> codes) {
    Literal l(Shape(F8E4M3FN, {static_cast<int64_t>(codes.size())}));
    for (size_t i = 0; i < codes.size(); ++i) l.raw_data()[i] = codes[i];
    return l;
  };
  EXPECT_EQ(CompareWithReference(f8({0x38, 0x38}), f8({0x39, 0x37})).result,
            ReferenceResult::kMatch);
  EXPECT_EQ(CompareWithReference(f8({0x38}), f8({0x3a})).result, ReferenceResult::kMismatch);
  EXPECT_EQ(DescribeDefaultTolerance(Shape(S4, {2})), "s4: bitwise");
}

TEST(RunSummaryTest, ReferenceMatchWithinTolerance) {
  ReferenceOutcome r = CompareWithReference(F32Vector({1, 2}), F32Vector({1, 2.0000001}));
  EXPECT_EQ(r.result, ReferenceResult::kMatch);
  EXPECT_EQ(r.tolerance, "f32: atol=1e-05 rtol=0.0001");
}

TEST(RunSummaryTest, ReferenceMismatchNamesFirstElementAndCount) {
  ReferenceOutcome r = CompareWithReference(F32Vector({1, 2, 3, 4}), F32Vector({1, 2.5, 3, 5}));
  EXPECT_EQ(r.result, ReferenceResult::kMismatch);
  EXPECT_THAT(r.detail, HasSubstr("2 of 4 elements differ"));
  EXPECT_THAT(r.detail, HasSubstr("element 1: 2.5 vs expected 2"));

  const std::string line = FormatRunSummary("m.hlo", Shape(F32, {4}), RunTiming{1, 2, 3}, r);
  EXPECT_THAT(line, MatchesRegex("m.hlo: f32\\[4\\] load 1.000 ms, first 2.000 ms, steady "
                                 "3.000 ms, reference: mismatch \\(2 of 4 elements differ; "
                                 "first at element 1: 2.5 vs expected 2; tolerance f32: "
                                 "atol=1e-05 rtol=0.0001\\)"));

  ReferenceOutcome shape = CompareWithReference(F32Vector({1, 2}), F32Vector({1, 2, 3}));
  EXPECT_EQ(shape.result, ReferenceResult::kMismatch);
  EXPECT_THAT(shape.detail, HasSubstr("shape"));
}

TEST(RunSummaryTest, SummaryLines) {
  ReferenceOutcome match = CompareWithReference(F32Vector({1}), F32Vector({1}));
  EXPECT_EQ(FormatRunSummary("dir/m.pb", Shape(F32, {1}), RunTiming{0.25, 1.5, 0.125}, match),
            "dir/m.pb: f32[1] load 0.250 ms, first 1.500 ms, steady 0.125 ms, "
            "reference: match (tolerance f32: atol=1e-05 rtol=0.0001)");
  EXPECT_EQ(FormatRunSummary("m.hlo", Shape::Tuple({Shape(S32, {}), Shape(F32, {2})}),
                             RunTiming{1, 2, 3}, SkippedReference("")),
            "m.hlo: (s32[], f32[2]) load 1.000 ms, first 2.000 ms, steady 3.000 ms, "
            "reference: skipped");
  EXPECT_EQ(
      FormatRunSummary("m.pb", Shape(F32, {1}), RunTiming{1, 2, 3}, SkippedReference("no module")),
      "m.pb: f32[1] load 1.000 ms, first 2.000 ms, steady 3.000 ms, "
      "reference: skipped (no module)");
  EXPECT_EQ(FormatSkippedRunSummary("m.pb", Shape(F32, {1}), 4,
                                    "platform 'cuda' cannot execute\nkernels here"),
            "m.pb: f32[1] load 4.000 ms, execution skipped (platform 'cuda' cannot "
            "execute "
            "kernels here), reference: skipped");
}

TEST(RunSummaryTest, CannotExecuteIsRecognized) {
  EXPECT_TRUE(IsCannotExecute(
      absl::FailedPreconditionError("platform 'cuda' cannot execute kernels on this machine")));
  EXPECT_TRUE(IsCannotExecute(
      absl::FailedPreconditionError("CUDA platform cannot execute here: no driver")));
  EXPECT_FALSE(IsCannotExecute(absl::FailedPreconditionError("capability mismatch")));
  EXPECT_FALSE(IsCannotExecute(absl::InvalidArgumentError("cannot execute")));
  EXPECT_FALSE(IsCannotExecute(absl::OkStatus()));
}

TEST(RunSummaryTest, OutputPaths) {
  EXPECT_EQ(OutputPathFor("out.json", 0, 1), "out.json");
  EXPECT_EQ(OutputPathFor("out.json", 1, 3), "out.1.json");
  EXPECT_EQ(OutputPathFor("out", 2, 3), "out.2.json");
}

}  // namespace
}  // namespace aot
