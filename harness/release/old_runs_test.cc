// Old runtimes' verdicts per artifact: the old aot-run's output formats
// (as every release since 2026-11-30 prints them), and RunWithOldBuild over
// a stand-in aot-run that passes, refuses, cannot make arguments, validates
// without a device, crashes or prints nothing, with the verdict cache.
#include "harness/release/old_runs.h"

#include <sys/stat.h>

#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "support/file_io.h"
#include "support/testing/temp_dir.h"

namespace aot {
namespace {

using ::testing::HasSubstr;

TEST(ParseOldAotRunOutputTest, ReadsEveryVerdictTheOldToolPrints) {
  const std::vector<std::string> paths = {"/t/a.pb", "/t/b.pb", "/t/c.pb", "/t/d.pb",
                                          "/t/e.pb", "/t/f.pb", "/t/g.pb"};
  const std::string out =
      "/t/a.pb: f32[4]{0} load 1.2 ms, run 0.1 ms, reference: match\n"
      "/t/b.pb: f32[4]{0} load 0.9 ms, execution skipped (no CUDA device), reference: skipped\n"
      "/t/c.pb: f32[4]{0} load 1.0 ms, run 0.1 ms, reference: mismatch\n"
      "/t/g.pb (4 participants): f32[3,8] load 0.5 ms, first 3 ms, reference: match\n"
      "unrelated line\n";
  const std::string err =
      "aot-run: error: /t/d.pb: cannot load: unknown thunk kind 'conditional' at thunk 3\n"
      "aot-run: error: /t/e.pb: argument 1 has shape u8[1056]{0}, parameter 1 is "
      "s4[64,33]{1,0:E(4)}\n"
      "aot-run: error: /t/c.pb: result differs from the reference at leaf 0\n"
      "aot-run: error: /t/c.pb: a second error\n";
  auto parsed = ParseOldAotRunOutput(out, err, paths);
  ASSERT_EQ(parsed.size(), 6u);  // f printed nothing
  EXPECT_EQ(parsed["/t/a.pb"].verdict, OldRunVerdict::kPassed);
  EXPECT_EQ(parsed["/t/b.pb"].verdict, OldRunVerdict::kValidated);
  EXPECT_THAT(parsed["/t/b.pb"].detail, HasSubstr("no CUDA device"));
  EXPECT_EQ(parsed["/t/c.pb"].verdict, OldRunVerdict::kMismatched);
  EXPECT_THAT(parsed["/t/c.pb"].detail, HasSubstr("leaf 0"));
  EXPECT_EQ(parsed["/t/d.pb"].verdict, OldRunVerdict::kRefused);
  EXPECT_EQ(parsed["/t/d.pb"].detail, "unknown thunk kind 'conditional' at thunk 3");
  EXPECT_EQ(parsed["/t/e.pb"].verdict, OldRunVerdict::kNotRunnable);
  EXPECT_THAT(parsed["/t/e.pb"].detail, HasSubstr("parameter 1 is s4[64,33]"));
  EXPECT_FALSE(parsed.count("/t/f.pb"));
  EXPECT_EQ(parsed["/t/g.pb"].verdict, OldRunVerdict::kPassed);
}

TEST(ParseOldAotRunOutputTest, LinesOfOtherPathsAreIgnored) {
  auto parsed = ParseOldAotRunOutput("/x/other.pb: f32[] load 1 ms, reference: match\n",
                                     "aot-run: error: /x/else.pb: cannot load: bad\n", {"/x/a.pb"});
  EXPECT_TRUE(parsed.empty());
}

// A stand-in for an old build's aot-run: what it does with a file is the
// word the file holds. It counts its invocations in `calls`.
class RunWithOldBuildTest : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_FALSE(dir_.path().empty());
    calls_ = dir_.path() + "/calls";
    const std::string script = dir_.path() + "/aot-run";
    ASSERT_TRUE(WriteFileAtomically(script, absl::StrCat(R"SH(#!/bin/bash
echo x >> ')SH",
                                                         calls_, R"SH('
files=()
for a in "$@"; do case "$a" in --*) ;; *) files+=("$a") ;; esac; done
# A crash takes the files after it with it.
for f in "${files[@]}"; do
  case "$(cat "$f")" in
    PASS) echo "$f: f32[4]{0} load 1.0 ms, run 0.1 ms, reference: match" ;;
    CUDA) echo "$f: f32[4]{0} load 1.0 ms, execution skipped (no CUDA device), reference: skipped" ;;
    REFUSE) echo "aot-run: error: $f: cannot load: unknown enum value 31 of PrimitiveType" >&2 ;;
    ARGS) echo "aot-run: error: $f: argument 1 has shape u8[8]{0}, parameter 1 is s4[16]{0:E(4)}" >&2 ;;
    CRASH) echo "Segmentation fault" >&2; exit 139 ;;
    SILENT) ;;
  esac
done
)SH"))
                    .ok());
    ASSERT_EQ(chmod(script.c_str(), 0755), 0);
    build_.commit = std::string(40, 'a');
    build_.aot_run = script;
  }

  OldRunArtifact Artifact(const std::string& test, const std::string& word,
                          const std::string& platform = "host") {
    return {"packed_types_host", test, platform, word, absl::StrCat("digest-", test)};
  }
  int Calls() {
    auto text = ReadFileToString(calls_);
    return text.ok() ? static_cast<int>(text->size() / 2) : 0;
  }

  testing::TempDir dir_{"old-runs-test"};
  std::string calls_;
  OldBuild build_;
};

TEST_F(RunWithOldBuildTest, EveryArtifactGetsAVerdictOfItsOwn) {
  const std::vector<OldRunArtifact> artifacts = {
      Artifact("a_pass", "PASS"),        Artifact("b_refuse", "REFUSE"),
      Artifact("c_args", "ARGS"),        Artifact("d_crash", "CRASH"),
      Artifact("e_after", "PASS"),       Artifact("f_silent", "SILENT"),
      Artifact("g_cuda", "CUDA", "cuda")};
  const std::string cache = dir_.path() + "/cache";
  auto runs = RunWithOldBuild(build_, artifacts, cache);
  ASSERT_TRUE(runs.ok()) << runs.status();
  ASSERT_EQ(runs->size(), artifacts.size());
  EXPECT_EQ((*runs)[0].verdict, OldRunVerdict::kPassed);
  EXPECT_EQ((*runs)[1].verdict, OldRunVerdict::kRefused);
  EXPECT_THAT((*runs)[1].detail, HasSubstr("unknown enum value 31"));
  EXPECT_EQ((*runs)[2].verdict, OldRunVerdict::kNotRunnable);
  EXPECT_THAT((*runs)[2].detail, HasSubstr("argument 1 has shape u8[8]"));
  EXPECT_EQ((*runs)[3].verdict, OldRunVerdict::kNotRunnable);
  EXPECT_THAT((*runs)[3].detail, HasSubstr("ended abnormally (exit status 139)"));
  EXPECT_THAT((*runs)[3].detail, HasSubstr("Segmentation fault"));
  // After the crash in the batch, run alone.
  EXPECT_EQ((*runs)[4].verdict, OldRunVerdict::kPassed);
  EXPECT_EQ((*runs)[5].verdict, OldRunVerdict::kNotRunnable);
  EXPECT_THAT((*runs)[5].detail, HasSubstr("printed nothing for it (exit status 0)"));
  EXPECT_EQ((*runs)[6].verdict, OldRunVerdict::kValidated);
  EXPECT_THAT((*runs)[6].detail, HasSubstr("no CUDA device"));
  for (size_t i = 0; i < runs->size(); ++i) {
    EXPECT_EQ((*runs)[i].test, artifacts[i].test);
    EXPECT_EQ((*runs)[i].digest, artifacts[i].digest);
  }
  // One batch per target and platform, then d, e and f alone.
  EXPECT_EQ(Calls(), 5);

  // Unchanged inputs: every verdict from the cache, no old binary started.
  auto again = RunWithOldBuild(build_, artifacts, cache);
  ASSERT_TRUE(again.ok()) << again.status();
  EXPECT_EQ(Calls(), 5);
  for (size_t i = 0; i < runs->size(); ++i) {
    EXPECT_EQ((*again)[i].verdict, (*runs)[i].verdict);
    EXPECT_EQ((*again)[i].detail, (*runs)[i].detail);
  }

  // Another commit's build is another runtime: nothing cached for it.
  OldBuild other = build_;
  other.commit = std::string(40, 'b');
  ASSERT_TRUE(RunWithOldBuild(other, {artifacts[0]}, cache).ok());
  EXPECT_EQ(Calls(), 6);
}

TEST(OldRunFromReplayTest, ReplayStatusesBecomeVerdicts) {
  auto record = [](ReplayStatus status, const std::string& reason) {
    ReplayRecord r;
    r.target = "host-x86-64-v2";
    r.test = "add_mul";
    r.status = status;
    r.reason = reason;
    return r;
  };
  EXPECT_EQ(OldRunFromReplay(record(ReplayStatus::kPass, "")).verdict, OldRunVerdict::kPassed);
  EXPECT_EQ(OldRunFromReplay(record(ReplayStatus::kSkipped, "loaded and validated")).verdict,
            OldRunVerdict::kValidated);
  EXPECT_EQ(OldRunFromReplay(
                record(ReplayStatus::kFail, "the current runtime refuses the artifact: bad field"))
                .verdict,
            OldRunVerdict::kRefused);
  EXPECT_EQ(OldRunFromReplay(
                record(ReplayStatus::kFail, "outputs differ from the recorded ones (result 0"))
                .verdict,
            OldRunVerdict::kMismatched);
  OldRun other = OldRunFromReplay(record(ReplayStatus::kFail, "execution failed: out of memory"));
  EXPECT_EQ(other.verdict, OldRunVerdict::kNotRunnable);
  EXPECT_EQ(other.detail, "execution failed: out of memory");
  EXPECT_EQ(other.test, "add_mul");
}

TEST(OldRuntimeRunsTest, TableAndJsonNameEveryFailure) {
  LabeledOldRuntimeRuns rt;
  rt.label = "2026-12-04-fd9c2736";
  rt.runs.commit = std::string(40, 'c');
  rt.runs.runs = {{"packed_types_host", "packed_int4_matmul", "d1", OldRunVerdict::kNotRunnable,
                   "argument 1 has shape u8[1056]{0}, parameter 1 is s4[64,33]{1,0:E(4)}"},
                  {"add_host", "add", "d2", OldRunVerdict::kPassed, "match"}};
  EXPECT_EQ(rt.runs.Failures(), 1);
  EXPECT_EQ(rt.runs.Counts()[OldRunVerdict::kPassed], 1);
  const std::string table = OldRunsTable({rt});
  EXPECT_THAT(table, ::testing::ContainsRegex("packed_types_host/packed_int4_matmul +N"));
  EXPECT_THAT(table, HasSubstr("add_host/add"));
  EXPECT_THAT(table, HasSubstr("2026-12-04-fd9c2736"));
  EXPECT_THAT(table, HasSubstr("packed_types_host/packed_int4_matmul: not_runnable: argument 1"));
  auto json = OldRunsJson({rt});
  EXPECT_EQ(json["runtimes"][0]["counts"]["not_runnable"], 1);
  EXPECT_EQ(json["runtimes"][0]["runs"][0]["verdict"], "not_runnable");
}

}  // namespace
}  // namespace aot
