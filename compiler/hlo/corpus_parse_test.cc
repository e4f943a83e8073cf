// Every module of the golden corpus parses, and parse -> print -> parse is
// a fixed point on it; mutated corpus text yields errors, not crashes.
#include <filesystem>
#include <random>

#include "compiler/hlo/hlo_parser.h"
#include "gtest/gtest.h"
#include "support/file_io.h"

namespace aot {
namespace {

std::vector<std::filesystem::path> CorpusFiles() {
  std::vector<std::filesystem::path> files;
  for (const auto& entry : std::filesystem::recursive_directory_iterator("golden/modules")) {
    if (entry.path().extension() == ".hlo") files.push_back(entry.path());
  }
  std::sort(files.begin(), files.end());
  return files;
}

TEST(CorpusParseTest, CorpusIsNotEmpty) { EXPECT_GE(CorpusFiles().size(), 25u); }

TEST(CorpusParseTest, PrintParseFixedPoint) {
  for (const auto& path : CorpusFiles()) {
    SCOPED_TRACE(path.string());
    auto text = ReadFileToString(path.string());
    ASSERT_TRUE(text.ok()) << text.status();
    auto module = ParseHloModule(*text);
    ASSERT_TRUE(module.ok()) << module.status();
    std::string printed = (*module)->ToString();
    auto again = ParseHloModule(printed);
    ASSERT_TRUE(again.ok()) << again.status() << "\n" << printed;
    EXPECT_EQ((*again)->ToString(), printed);
    // HLO text <-> proto round trip as well.
    HloModuleConfigProto config = (*module)->ConfigToProto();
    auto from_proto = HloModuleFromProto((*module)->ToProto(), &config);
    ASSERT_TRUE(from_proto.ok()) << from_proto.status();
    EXPECT_EQ((*from_proto)->ToString(), printed);
  }
}

TEST(CorpusParseTest, MutatedCorpusTextNeverCrashes) {
  std::mt19937_64 rng(99);
  const char alphabet[] = "{}[]()=,:%-_.\"0123456789fsxT \n";
  for (const auto& path : CorpusFiles()) {
    std::string base = *ReadFileToString(path.string());
    for (int iteration = 0; iteration < 150; ++iteration) {
      std::string text = base;
      size_t pos = rng() % text.size();
      switch (rng() % 4) {
        case 0:
          text[pos] = alphabet[rng() % (sizeof(alphabet) - 1)];
          break;
        case 1:
          text.erase(pos, 1 + rng() % 16);
          break;
        case 2:
          text.insert(pos, 1, alphabet[rng() % (sizeof(alphabet) - 1)]);
          break;
        case 3:
          text.resize(pos);
          break;
      }
      auto module = ParseHloModule(text);
      if (module.ok()) {
        auto again = ParseHloModule((*module)->ToString());
        EXPECT_TRUE(again.ok()) << again.status();
      }
    }
  }
}

}  // namespace
}  // namespace aot
