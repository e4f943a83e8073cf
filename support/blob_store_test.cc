#include "support/blob_store.h"

#include <filesystem>
#include <fstream>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "support/file_io.h"
#include "support/sha256.h"
#include "support/testing/temp_dir.h"

namespace aot {
namespace {

namespace fs = std::filesystem;
using ::testing::HasSubstr;

class BlobStoreTest : public ::testing::Test {
 protected:
  testing::TempDir temp_{"aot_blob_store_test"};
  BlobStore store_{(fs::path(temp_.path()) / "store").string()};
};

TEST_F(BlobStoreTest, PutStoresEachDistinctBlobOnceUnderItsDigest) {
  std::string bytes("a\0b", 3);
  auto digest = store_.Put("artifacts", bytes);
  ASSERT_TRUE(digest.ok()) << digest.status();
  EXPECT_EQ(*digest, Sha256Hex(bytes));
  EXPECT_EQ(store_.PathOf("artifacts", *digest),
            store_.root() + "/artifacts/" + digest->substr(0, 2) + "/" + *digest + ".pb");
  auto again = store_.Put("artifacts", bytes);
  ASSERT_TRUE(again.ok());
  EXPECT_EQ(*again, *digest);
  ASSERT_TRUE(store_.Put("io", "other").ok());
  std::vector<BlobStore::Entry> artifacts = store_.List("artifacts");
  ASSERT_EQ(artifacts.size(), 1u);
  EXPECT_EQ(artifacts[0].digest, *digest);
  EXPECT_EQ(artifacts[0].size, 3u);
  EXPECT_EQ(store_.List("io").size(), 1u);
  EXPECT_TRUE(store_.List("nothing").empty());
  auto read = store_.Get("artifacts", *digest);
  ASSERT_TRUE(read.ok()) << read.status();
  EXPECT_EQ(*read, bytes);
}

TEST_F(BlobStoreTest, GetNamesAMissingOrTamperedBlob) {
  auto digest = store_.Put("io", "payload");
  ASSERT_TRUE(digest.ok());
  { std::ofstream(store_.PathOf("io", *digest), std::ios::trunc) << "tampered"; }
  auto tampered = store_.Get("io", *digest);
  EXPECT_EQ(tampered.status().code(), absl::StatusCode::kDataLoss);
  EXPECT_THAT(std::string(tampered.status().message()),
              HasSubstr("corrupted or tampered blob: sha256 of " + store_.PathOf("io", *digest)));
  // Put repairs a damaged blob with the right bytes.
  ASSERT_TRUE(store_.Put("io", "payload").ok());
  EXPECT_TRUE(store_.Get("io", *digest).ok());

  ASSERT_TRUE(store_.Remove("io", *digest).ok());
  EXPECT_FALSE(store_.Contains("io", *digest));
  auto missing = store_.Get("io", *digest);
  EXPECT_EQ(missing.status().code(), absl::StatusCode::kDataLoss);
  EXPECT_THAT(std::string(missing.status().message()), HasSubstr("missing blob"));

  auto malformed = store_.Get("io", "../../etc/passwd");
  EXPECT_EQ(malformed.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(std::string(malformed.status().message()), HasSubstr("not a sha256 digest"));
}

TEST_F(BlobStoreTest, ListReportsStrayFilesWithoutADigest) {
  auto digest = store_.Put("artifacts", "x");
  ASSERT_TRUE(digest.ok());
  fs::create_directories(store_.root() + "/artifacts/zz");
  std::ofstream(store_.root() + "/artifacts/zz/notes.txt") << "?";
  // A blob filed under the wrong prefix directory is not a blob either.
  std::string misplaced = store_.root() + "/artifacts/zz/" + *digest + ".pb";
  std::ofstream(misplaced) << "x";
  std::vector<BlobStore::Entry> entries = store_.List("artifacts");
  ASSERT_EQ(entries.size(), 3u);
  int named = 0;
  for (const BlobStore::Entry& e : entries) named += !e.digest.empty();
  EXPECT_EQ(named, 1);
}

TEST(Sha256HexTest, Recognizes) {
  EXPECT_TRUE(IsSha256Hex(Sha256Hex("x")));
  EXPECT_FALSE(IsSha256Hex("ABC"));
  EXPECT_FALSE(IsSha256Hex(std::string(64, 'g')));
}

}  // namespace
}  // namespace aot
