// The SPMD partitioner as a whole: every program of the suite at 2, 4 and 8
// partitions, the collectives summary, control flow (loop bodies, conditional
// branches), refusals, and random shardings of corpus modules.
#include <random>

#include "compiler/passes/spmd_partitioner_test_util.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace aot {
namespace spmd_testing {
namespace {

using ::testing::HasSubstr;

TEST(SpmdPartitionerTest, EveryProgramMatchesTheInterpreterAt2And4And8Partitions) {
  for (const char* program : {kMlp, kAttention, kConv, kEmbedding, kReshard}) {
    for (int64_t n : {2, 4, 8}) ExpectMatchesTheInterpreter(program, n);
  }
  for (int64_t n : {4, 8}) ExpectMatchesTheInterpreter(kPartialReplication, n);
  // Tiles that do not divide 10, 6 or 5 evenly: padded.
  for (int64_t n : {4, 8}) ExpectMatchesTheInterpreter(kUneven, n);
}

// What each partition communicates, as aot-run reports it: per kind, the
// count and the bytes of the results.
TEST(SpmdPartitionerTest, DescribeCollectivesCountsKindsAndBytes) {
  std::unique_ptr<HloModule> mlp = ParseFor(kMlp, 4);
  ASSERT_NE(mlp, nullptr);
  auto partitioned = PartitionSpmd(*mlp, 4);
  ASSERT_TRUE(partitioned.ok()) << partitioned.status();
  EXPECT_EQ(DescribeCollectives(*partitioned->module), "1 all-reduce (4 KiB)");  // f32[16,64]
  std::unique_ptr<HloModule> conv = ParseFor(kConv, 4);
  ASSERT_NE(conv, nullptr);
  auto halos = PartitionSpmd(*conv, 4);
  ASSERT_TRUE(halos.ok()) << halos.status();
  // Two f32[1,1,16,2] rows.
  EXPECT_EQ(DescribeCollectives(*halos->module), "2 collective-permute (256 B)");
  std::unique_ptr<HloModule> attention = ParseFor(kAttention, 4);
  ASSERT_NE(attention, nullptr);
  auto heads = PartitionSpmd(*attention, 4);
  ASSERT_TRUE(heads.ok()) << heads.status();
  EXPECT_EQ(DescribeCollectives(*heads->module), "no collectives");
}

TEST(SpmdPartitionerTest, LoopBodiesArePartitionedWithTheLoopState) {
  for (int64_t n : {2, 4, 8}) {
    std::optional<PartitionedModule> partitioned = CheckedPartition(kScan, n);
    ASSERT_TRUE(partitioned.has_value());
    const HloInstruction* loop = nullptr;
    for (const HloInstruction* h : partitioned->module->entry_computation()->instructions()) {
      EXPECT_FALSE(IsCollectiveOpcode(h->opcode())) << h->name();
      if (h->opcode() == HloOpcode::kWhile) loop = h;
    }
    ASSERT_NE(loop, nullptr);
    // The state's activations are the batch tile.
    EXPECT_EQ(loop->shape().tuple_shapes()[1].dimensions(), (std::vector<int64_t>{16 / n, 32}));
    std::vector<std::vector<int64_t>> dots;
    for (const HloInstruction* h : loop->while_body()->instructions()) {
      EXPECT_FALSE(IsCollectiveOpcode(h->opcode())) << h->name();
      if (h->opcode() == HloOpcode::kDot) dots.push_back(h->shape().dimensions());
    }
    EXPECT_THAT(dots, ::testing::ElementsAre(std::vector<int64_t>{16 / n, 32}));
  }
  // The weight split by columns instead (the state keeps it so): the body
  // gathers only the weight (one all-gather) and multiplies its rows' tile
  // by it; the activations are never gathered.
  const std::string by_columns = absl::StrReplaceAll(
      kScan, {{"w = f32[32,32] parameter(1), sharding={replicated}",
               "w = f32[32,32] parameter(1), sharding={devices=[1,$N]<=[$N]}"}});
  for (int64_t n : {2, 4, 8}) {
    std::optional<PartitionedModule> partitioned = CheckedPartition(by_columns.c_str(), n);
    ASSERT_TRUE(partitioned.has_value());
    const HloComputation* body = nullptr;
    for (const HloInstruction* h : partitioned->module->entry_computation()->instructions()) {
      if (h->opcode() == HloOpcode::kWhile) body = h->while_body();
    }
    ASSERT_NE(body, nullptr);
    std::vector<std::vector<int64_t>> gathered, dots;
    for (const HloInstruction* h : body->instructions()) {
      if (h->opcode() == HloOpcode::kAllGather)
        gathered.push_back(h->operand(0)->shape().dimensions());
      if (h->opcode() == HloOpcode::kDot) dots.push_back(h->shape().dimensions());
    }
    EXPECT_THAT(gathered, ::testing::ElementsAre(std::vector<int64_t>{32, 32 / n}));
    EXPECT_THAT(dots, ::testing::ElementsAre(std::vector<int64_t>{16 / n, 32}));
  }
}

// A conditional's branches run on the tiles of their operands.
TEST(SpmdPartitionerTest, ConditionalBranchesArePartitionedWithTheirOperands) {
  constexpr char kBranches[] = R"(
HloModule branches, num_partitions=$N
double {
  p = f32[16,8] parameter(0)
  ROOT d = f32[16,8] add(p, p)
}
negate {
  p = f32[16,8] parameter(0)
  ROOT n = f32[16,8] negate(p)
}
ENTRY main {
  x = f32[16,8] parameter(0), sharding={devices=[$N,1]<=[$N]}
  k = s32[] parameter(1), sharding={replicated}
  ROOT r = f32[16,8] conditional(k, x, x), branch_computations={double, negate}
})";
  for (int64_t n : {2, 4, 8}) {
    std::optional<PartitionedModule> partitioned = CheckedPartition(kBranches, n);
    ASSERT_TRUE(partitioned.has_value());
    for (const HloComputation* c : partitioned->module->computations()) {
      for (const HloInstruction* h : c->instructions()) {
        EXPECT_FALSE(IsCollectiveOpcode(h->opcode())) << h->name();
        if (h->opcode() == HloOpcode::kConditional || h->opcode() == HloOpcode::kNegate) {
          EXPECT_EQ(h->shape().dimensions(), (std::vector<int64_t>{16 / n, 8})) << h->name();
        }
      }
    }
  }
}

TEST(SpmdPartitionerTest, WrongDeviceCountsAreRefusedNamingTheInstruction) {
  auto wrong = ParseHloModule(R"(
HloModule m, num_partitions=8
ENTRY main {
  ROOT a = f32[8,4] parameter(0), sharding={devices=[4,1]<=[4]}
})");
  ASSERT_TRUE(wrong.ok());
  auto q = PartitionSpmd(**wrong, 8);
  ASSERT_FALSE(q.ok());
  EXPECT_THAT(q.status().message(), HasSubstr("names 4 devices; the program runs on 8"));
}

// A module without any sharding whose collectives are written out is a
// per-device program (XLA's output after SPMD partitioning): refused with
// the way to run it; with shardings elsewhere, the plain refusal.
TEST(SpmdPartitionerTest, AlreadyPartitionedProgramsAreRefusedWithTheWayToRunThem) {
  constexpr char kPerDevice[] = R"(
HloModule per_device, num_partitions=4
add {
  a = f32[] parameter(0)
  b = f32[] parameter(1)
  ROOT s = f32[] add(a, b)
}
ENTRY main {
  x = f32[4,8] parameter(0)$S
  ROOT r = f32[4,8] all-reduce(x), channel_id=1, replica_groups={{0,1,2,3}}, use_global_device_ids=true, to_apply=add
})";
  auto bare = ParseHloModule(absl::StrReplaceAll(kPerDevice, {{"$S", ""}}));
  ASSERT_TRUE(bare.ok()) << bare.status();
  auto p = PartitionSpmd(**bare, 4);
  ASSERT_FALSE(p.ok());
  EXPECT_THAT(p.status().message(), HasSubstr("instruction 'r' (all-reduce)"));
  EXPECT_THAT(p.status().message(), HasSubstr("looks partitioned already"));
  EXPECT_THAT(p.status().message(), HasSubstr("without --num_partitions"));
  auto annotated =
      ParseHloModule(absl::StrReplaceAll(kPerDevice, {{"$S", ", sharding={replicated}"}}));
  ASSERT_TRUE(annotated.ok()) << annotated.status();
  auto q = PartitionSpmd(**annotated, 4);
  ASSERT_FALSE(q.ok());
  EXPECT_THAT(q.status().message(), HasSubstr("collectives outside a manual region"));
  EXPECT_THAT(q.status().message(), ::testing::Not(HasSubstr("partitioned already")));
}

// A random sharding of a value of `dims` over `n` devices (a power of
// two): each dimension split 1, 2, 4 or 8 ways (evenly or not), the
// remaining factor replicated, the devices in order or shuffled.
std::string RandomSharding(const std::vector<int64_t>& dims, int64_t n, std::mt19937& rng) {
  if (dims.empty() || rng() % 5 == 0) return "{replicated}";
  std::vector<int64_t> tiles(dims.size(), 1);
  int64_t left = n;
  for (size_t d = 0; d < dims.size() && left > 1; ++d) {
    const int64_t split = int64_t{1} << (rng() % 4);  // 1, 2, 4, 8
    if (split <= left && split <= dims[d]) {
      tiles[d] = split;
      left /= split;
    }
  }
  std::vector<int64_t> devices(n);
  std::iota(devices.begin(), devices.end(), 0);
  if (rng() % 2 == 0) std::shuffle(devices.begin(), devices.end(), rng);
  if (left > 1) tiles.push_back(left);
  return absl::StrCat("{devices=[", absl::StrJoin(tiles, ","), "]", absl::StrJoin(devices, ","),
                      left > 1 ? " last_tile_dim_replicate}" : "}");
}

// Every module of the spmd corpus with its parameters, or any of its entry
// instructions, sharded at random (uneven tiles, partial replication and
// shuffled devices among them; the other shardings written in the module
// kept), at 8 partitions:
// partitioned, run in the multi-participant interpreter and assembled, it
// matches the single-device interpreter. Seeded: the same trials every run.
TEST(SpmdPartitionerTest, CorpusModulesWithRandomParameterShardingsMatchTheInterpreter) {
  std::mt19937 rng(20261206);
  int checked = 0;
  std::vector<std::filesystem::path> paths;
  for (const auto& entry : std::filesystem::directory_iterator("golden/modules/spmd")) {
    if (entry.path().extension() == ".hlo") paths.push_back(entry.path());
  }
  std::sort(paths.begin(), paths.end());
  ASSERT_GE(paths.size(), 14u);
  for (const std::filesystem::path& path : paths) {
    std::ifstream in(path);
    std::stringstream text;
    text << in.rdbuf();
    for (int trial = 0; trial < 24; ++trial) {
      auto module = ParseHloModule(text.str());
      ASSERT_TRUE(module.ok()) << path << ": " << module.status();
      // Even trials: the parameters; odd ones: any entry instruction (two
      // in three), so every rule meets operands and results sharded in
      // ways no propagation would choose.
      std::vector<std::string> chosen;
      const bool everywhere = trial % 2 == 1;
      std::vector<HloInstruction*> targets =
          everywhere ? (*module)->entry_computation()->MakeInstructionPostOrder()
                     : (*module)->entry_computation()->parameter_instructions();
      for (HloInstruction* h : targets) {
        if (!h->shape().IsArray() || (everywhere && rng() % 3 == 0)) continue;
        h->mutable_attrs()->sharding = RandomSharding(h->shape().dimensions(), 8, rng);
        chosen.push_back(absl::StrCat(h->name(), "=", h->attrs().sharding));
      }
      SCOPED_TRACE(absl::StrCat(path.string(), " with ", absl::StrJoin(chosen, " ")));
      ExpectPartitionedMatches(**module, 8, RandomArguments(**module, 100 + trial));
      ++checked;
    }
  }
  EXPECT_GE(checked, 14 * 24);
}

}  // namespace
}  // namespace spmd_testing
}  // namespace aot
