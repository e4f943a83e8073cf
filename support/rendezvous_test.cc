#include "support/rendezvous.h"

#include <thread>
#include <vector>

#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace aot {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;

TEST(RendezvousTest, EveryMemberGetsEveryValueInGroupOrder) {
  Rendezvous<int> rendezvous(absl::Seconds(30));
  const std::vector<int64_t> members = {3, 1, 2};
  std::vector<absl::StatusOr<std::vector<int>>> results(3);
  std::vector<std::thread> threads;
  for (int i = 0; i < 3; ++i) {
    threads.emplace_back([&, i] {
      results[i] = rendezvous.Exchange("k", members, members[i], 10 * members[i], "op");
    });
  }
  for (std::thread& t : threads) t.join();
  for (const auto& r : results) {
    ASSERT_TRUE(r.ok()) << r.status();
    EXPECT_THAT(*r, ElementsAre(30, 10, 20));
  }
}

TEST(RendezvousTest, MeetingsAreReusableUnderTheSameKeyOnceAllLeft) {
  Rendezvous<int> rendezvous(absl::Seconds(30));
  const std::vector<int64_t> members = {0, 1};
  std::vector<std::thread> threads;
  std::vector<int> sums(2, 0);
  for (int i = 0; i < 2; ++i) {
    threads.emplace_back([&, i] {
      for (int round = 0; round < 50; ++round) {
        auto r = rendezvous.Exchange(absl::StrCat(round), members, i, round + i, "op");
        ASSERT_TRUE(r.ok()) << r.status();
        sums[i] += (*r)[0] + (*r)[1];
      }
    });
  }
  for (std::thread& t : threads) t.join();
  EXPECT_EQ(sums[0], sums[1]);
  EXPECT_EQ(sums[0], 2 * (49 * 50 / 2) + 50);
}

TEST(RendezvousTest, AMissingMemberFailsTheOthersWithDeadlineExceededNamingIt) {
  Rendezvous<int> rendezvous(absl::Milliseconds(200));
  const std::vector<int64_t> members = {0, 1, 2, 3};
  std::vector<absl::StatusOr<std::vector<int>>> results(2);
  std::vector<std::thread> threads;
  const absl::Time start = absl::Now();
  for (int i = 0; i < 2; ++i) {
    threads.emplace_back(
        [&, i] { results[i] = rendezvous.Exchange("k", members, i, i, "all-reduce 'ar'"); });
  }
  for (std::thread& t : threads) t.join();
  EXPECT_LT(absl::Now() - start, absl::Seconds(10));
  for (const auto& r : results) {
    ASSERT_FALSE(r.ok());
    EXPECT_EQ(r.status().code(), absl::StatusCode::kDeadlineExceeded);
    EXPECT_THAT(r.status().message(),
                HasSubstr("all-reduce 'ar': replicas 2, 3 of group [0, 1, 2, 3]"));
  }
  // A member arriving after the others gave up fails at once.
  auto late = rendezvous.Exchange("k", members, 2, 2, "all-reduce 'ar'");
  EXPECT_EQ(late.status().code(), absl::StatusCode::kDeadlineExceeded);
}

TEST(RendezvousTest, AbortFailsWaitersWithItsStatus) {
  Rendezvous<int> rendezvous(absl::Seconds(60));
  const std::vector<int64_t> members = {0, 1};
  absl::StatusOr<std::vector<int>> result;
  std::thread waiter([&] { result = rendezvous.Exchange("k", members, 0, 0, "op"); });
  absl::SleepFor(absl::Milliseconds(50));
  rendezvous.Abort(absl::InternalError("replica 1 failed"));
  waiter.join();
  EXPECT_EQ(result.status().code(), absl::StatusCode::kInternal);
  EXPECT_EQ(rendezvous.Exchange("j", members, 1, 0, "op").status().code(),
            absl::StatusCode::kInternal);
}

TEST(RendezvousTest, NonMemberAndMismatchedGroupsAreErrors) {
  Rendezvous<int> rendezvous(absl::Milliseconds(100));
  const std::vector<int64_t> members = {0, 1};
  EXPECT_EQ(rendezvous.Exchange("k", members, 5, 0, "op").status().code(),
            absl::StatusCode::kInvalidArgument);
  std::thread first([&] { (void)rendezvous.Exchange("m", members, 0, 0, "op"); });
  absl::SleepFor(absl::Milliseconds(20));
  const std::vector<int64_t> other = {1, 2};
  auto r = rendezvous.Exchange("m", other, 1, 0, "op");
  first.join();
  EXPECT_EQ(r.status().code(), absl::StatusCode::kInternal);
}

}  // namespace
}  // namespace aot
