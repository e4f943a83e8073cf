// corpus_scale_bench: the golden corpus at scale (issue 44, "a scale
// benchmark, not a hope"). Writes a synthetic 6-month history from the real
// compiler's output (harness/golden/synthetic_corpus.h: 180 daily versions,
// the 12 golden targets, 150 modules each, ~5% of modules changing per
// version, a release every 2 weeks), then runs `aot-compat` on it as users
// do and prints, as a markdown table against the targets:
//   - bytes on disk (store + manifests) against the distinct blob bytes
//     (aot-compat fsck reads and checks all of it);
//   - `aot-compat gate --now=<newest version's date>` with an empty replay
//     cache, then again with the cache it filled: a compiler-only change
//     leaves the runtime fingerprint the cache is keyed by as it is, so the
//     rerun is what the gate costs after one (the corpus is compiled again
//     in full either way);
//   - `aot-compat replay --all_versions` (the all-versions sweep), cold and
//     cached, and whether its time follows the distinct artifacts or the
//     versions: two more histories from the same seeds with no module ever
//     changing (all versions, then half of them) separate the per-version
//     cost from the per-artifact one;
//   - `aot-compat prune` at the date that expires half the history, on a
//     copy.
// Each with its wall time and the child's peak RSS (wait4).
//
// A plain main, not Google Benchmark like the other */bench binaries: each
// figure is one end-to-end run of the aot-compat binary, seconds to minutes
// long, whose wall time and peak memory (of a child process) are what a
// user sees. Benchmark iterations would repeat minute-long runs for no
// extra information and cannot report a child's RSS.
//
//   corpus_scale_bench [--dir=DIR] [--keep] [--versions=180] [--modules=150]
//                      [--target=T]... [--change_fraction=0.05] [--json=OUT]
// scripts/bench.sh --corpus builds it and aot-compat and runs it.

#include <fcntl.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <optional>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "compiler/tooling/flags.h"
#include "harness/golden/corpus.h"
#include "harness/golden/golden_ops.h"
#include "harness/golden/synthetic_corpus.h"
#include "nlohmann/json.hpp"
#include "support/date.h"
#include "support/file_io.h"
#include "support/progress.h"
#include "support/status_macros.h"

extern char** environ;

namespace aot {
namespace {

namespace fs = std::filesystem;
using Clock = std::chrono::steady_clock;

// --- Running the tool -----------------------------------------------------

struct ToolRun {
  int exit_code = -1;  // 128 + signal when killed
  double seconds = 0;
  double peak_rss_mb = 0;
  double user_seconds = 0, system_seconds = 0;  // CPU time of the child
  std::string output;                           // stdout and stderr
};

// Runs `binary args...` with `env` added to this process's environment,
// stdout and stderr into `log`; wall time and the child's peak RSS.
ToolRun RunTool(const std::string& binary, const std::vector<std::string>& args,
                const std::vector<std::string>& env, const std::string& log) {
  std::vector<std::string> argv_strings = {binary};
  argv_strings.insert(argv_strings.end(), args.begin(), args.end());
  std::vector<char*> argv;
  for (std::string& s : argv_strings) argv.push_back(s.data());
  argv.push_back(nullptr);
  // The environment is built before fork: the child only calls what is
  // async-signal-safe.
  std::vector<std::string> env_strings;
  for (char** e = environ; *e != nullptr; ++e) {
    const std::string entry(*e);
    bool overridden = false;
    for (const std::string& add : env) {
      if (absl::StartsWith(entry, add.substr(0, add.find('=') + 1))) overridden = true;
    }
    if (!overridden) env_strings.push_back(entry);
  }
  env_strings.insert(env_strings.end(), env.begin(), env.end());
  std::vector<char*> envp;
  for (std::string& s : env_strings) envp.push_back(s.data());
  envp.push_back(nullptr);

  ToolRun run;
  const auto start = Clock::now();
  const pid_t pid = fork();
  if (pid == 0) {
    const int fd = open(log.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    if (fd >= 0) {
      dup2(fd, STDOUT_FILENO);
      dup2(fd, STDERR_FILENO);
      close(fd);
    }
    execve(binary.c_str(), argv.data(), envp.data());
    _exit(127);
  }
  if (pid < 0) return run;
  int status = 0;
  struct rusage usage {};
  while (wait4(pid, &status, 0, &usage) < 0 && errno == EINTR) {
  }
  run.seconds = std::chrono::duration<double>(Clock::now() - start).count();
  run.peak_rss_mb = usage.ru_maxrss / 1024.0;  // KiB on Linux
  run.user_seconds = usage.ru_utime.tv_sec + usage.ru_utime.tv_usec / 1e6;
  run.system_seconds = usage.ru_stime.tv_sec + usage.ru_stime.tv_usec / 1e6;
  run.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
  if (auto text = ReadFileToString(log); text.ok()) run.output = *text;
  return run;
}

std::string Tail(const std::string& text, size_t lines) {
  size_t begin = text.size();
  while (lines > 0 && begin > 0) {
    const size_t newline = text.rfind('\n', begin - 1);
    if (newline == std::string::npos) return text;
    if (newline + 1 < text.size()) --lines;  // a trailing newline ends no line
    begin = newline;
  }
  return begin < text.size() ? text.substr(begin + (text[begin] == '\n' ? 1 : 0)) : "";
}

std::optional<nlohmann::json> ReadJson(const std::string& path) {
  auto text = ReadFileToString(path);
  if (!text.ok()) return std::nullopt;
  nlohmann::json j = nlohmann::json::parse(*text, nullptr, false);
  if (j.is_discarded()) return std::nullopt;
  return j;
}

// --- Disk usage -------------------------------------------------------------

struct DiskUsage {
  uint64_t files = 0;
  uint64_t apparent = 0;   // file sizes
  uint64_t allocated = 0;  // blocks the files take (du)
  DiskUsage& operator+=(const DiskUsage& o) {
    files += o.files;
    apparent += o.apparent;
    allocated += o.allocated;
    return *this;
  }
};

DiskUsage Usage(const std::string& dir) {
  DiskUsage u;
  std::error_code ec;
  for (auto it = fs::recursive_directory_iterator(dir, ec);
       !ec && it != fs::recursive_directory_iterator(); it.increment(ec)) {
    struct stat st {};
    if (::lstat(it->path().c_str(), &st) != 0 || !S_ISREG(st.st_mode)) continue;
    ++u.files;
    u.apparent += static_cast<uint64_t>(st.st_size);
    u.allocated += static_cast<uint64_t>(st.st_blocks) * 512;
  }
  return u;
}

double MB(uint64_t bytes) { return bytes / 1e6; }

// --- Dates -----------------------------------------------------------------

Date PlusDays(const Date& d, int days) { return d.MinusDays(-days); }

// The same day `months` later (clamped to the month's length).
Date PlusMonths(const Date& d, int months) {
  Date out = d;
  out.month += months;
  while (out.month > 12) {
    out.month -= 12;
    ++out.year;
  }
  while (out.day > 28 && !Date::Parse(out.ToString()).ok()) --out.day;
  return out;
}

// --- The report ---------------------------------------------------------------

struct Row {
  std::string figure, measured, memory, target, met;
};

std::string Memory(const ToolRun& run) { return absl::StrFormat("%.0f MB", run.peak_rss_mb); }

std::string Seconds(double s) {
  return s < 10 ? absl::StrFormat("%.2f s", s) : absl::StrFormat("%.1f s", s);
}

std::string Verdict(const ToolRun& run) {
  return run.exit_code == 0   ? "exit 0"
         : run.exit_code == 1 ? "exit 1"
                              : absl::StrCat("ERROR exit ", run.exit_code);
}

// The 1-minute load average (the machine may be shared).
double LoadAverage() {
  auto text = ReadFileToString("/proc/loadavg");
  return text.ok() ? std::atof(text->c_str()) : -1;
}

struct Bench {
  std::string aot_compat;
  std::string root;                      // the repository root (the gate's lint)
  std::string dir;                       // everything the bench writes
  std::vector<std::string> target_args;  // --target=... when a subset
  bool cache_flags = false;              // aot-compat has --cache_dir
  std::vector<Row> rows;
  std::vector<std::string> notes;
  std::vector<std::pair<std::string, double>> loads;  // run -> load average at its start
  std::vector<std::string> cpu;                       // run -> its CPU time

  std::string LoadSummary() const {
    std::vector<std::string> parts;
    for (const auto& [name, load] : loads) parts.push_back(absl::StrFormat("%s %.1f", name, load));
    return absl::StrJoin(parts, ", ");
  }

  std::string Log(const std::string& name) const { return dir + "/logs/" + name + ".log"; }

  // Replay-cache arguments and environment for a run using cache `cache`
  // (a fresh directory: a cold run; the same again: a cached one). The
  // environment variable keeps $HOME's cache out of it either way.
  std::vector<std::string> CacheArgs(const std::string& cache) const {
    return cache_flags ? std::vector<std::string>{"--cache_dir=" + cache}
                       : std::vector<std::string>{};
  }
  std::vector<std::string> CacheEnv(const std::string& cache) const {
    return {"XLA_AOT_REPLAY_CACHE=" + cache};
  }

  ToolRun Run(const std::string& name, std::vector<std::string> args,
              const std::string& cache = "") {
    std::vector<std::string> env;
    if (!cache.empty()) {
      for (const std::string& a : CacheArgs(cache)) args.push_back(a);
      env = CacheEnv(cache);
    }
    std::fprintf(stderr, "corpus_scale_bench: aot-compat %s ...\n",
                 absl::StrJoin(args, " ").c_str());
    loads.push_back({name, LoadAverage()});
    ToolRun run = RunTool(aot_compat, args, env, Log(name));
    std::fprintf(stderr, "corpus_scale_bench:   %s in %.1f s, peak %.0f MB\n", Verdict(run).c_str(),
                 run.seconds, run.peak_rss_mb);
    cpu.push_back(absl::StrFormat("%s %.0f s user + %.0f s system", name, run.user_seconds,
                                  run.system_seconds));
    if (run.exit_code >= 2) {
      std::fprintf(stderr, "%s\n", Tail(run.output, 15).c_str());
    }
    return run;
  }
};

std::string Met(bool met) { return met ? "yes" : "no"; }

// The first line of `output` containing `text` (trimmed), or "".
std::string LineWith(const std::string& output, const std::string& text) {
  const size_t at = output.find(text);
  if (at == std::string::npos) return "";
  const size_t begin = output.rfind('\n', at) == std::string::npos ? 0 : output.rfind('\n', at) + 1;
  size_t end = output.find('\n', at);
  if (end == std::string::npos) end = output.size();
  std::string line = output.substr(begin, end - begin);
  const size_t first = line.find_first_not_of(' ');
  return first == std::string::npos ? "" : line.substr(first, 240);
}

// What the tool printed that the figures need: the gate's verdict, its
// backward check and first blocker; a replay's summary line; a warning of
// the replay cache.
std::string GateNote(const ToolRun& run) {
  std::string note = LineWith(run.output, "gate at ");
  for (const char* what : {" backward: ", "blocker [", "replay cache:"}) {
    if (std::string line = LineWith(run.output, what); !line.empty()) {
      absl::StrAppend(&note, "; ", line);
    }
  }
  return note.empty() ? Tail(run.output, 3) : note;
}

std::string ReplayNote(const ToolRun& run) {
  std::string note = LineWith(run.output, "replay: ");
  if (std::string line = LineWith(run.output, "replay cache:"); !line.empty()) {
    absl::StrAppend(&note, "; ", line);
  }
  return note.empty() ? Tail(run.output, 3) : note;
}

nlohmann::ordered_json StatsToJson(const SyntheticHistoryStats& s) {
  return {{"targets", s.targets},
          {"versions", s.versions},
          {"entries", s.entries},
          {"modules", s.modules},
          {"seed_artifacts", s.seed_artifacts},
          {"changed_artifacts", s.changed_artifacts},
          {"distinct_artifacts", s.distinct_artifacts},
          {"distinct_io", s.distinct_io},
          {"releases", s.releases},
          {"artifact_bytes", s.artifact_bytes},
          {"io_bytes", s.io_bytes},
          {"logical_bytes", s.logical_bytes},
          {"first_date", s.first_date},
          {"last_date", s.last_date},
          {"compile_seconds", s.compile_seconds},
          {"write_seconds", s.write_seconds}};
}

SyntheticHistoryStats StatsFromJson(const nlohmann::json& j) {
  SyntheticHistoryStats s;
  s.targets = j.value("targets", 0);
  s.versions = j.value("versions", 0);
  s.entries = j.value("entries", 0);
  s.modules = j.value("modules", 0);
  s.seed_artifacts = j.value("seed_artifacts", 0);
  s.changed_artifacts = j.value("changed_artifacts", 0);
  s.distinct_artifacts = j.value("distinct_artifacts", 0);
  s.distinct_io = j.value("distinct_io", 0);
  s.releases = j.value("releases", 0);
  s.artifact_bytes = j.value("artifact_bytes", uint64_t{0});
  s.io_bytes = j.value("io_bytes", uint64_t{0});
  s.logical_bytes = j.value("logical_bytes", uint64_t{0});
  s.first_date = j.value("first_date", std::string());
  s.last_date = j.value("last_date", std::string());
  s.compile_seconds = j.value("compile_seconds", 0.0);
  s.write_seconds = j.value("write_seconds", 0.0);
  return s;
}

// The histories, written by a child process (--generate_only) so that this
// process stays small: a child forked from a large parent would report the
// parent's pages as its own peak RSS (Linux keeps the high-water mark
// across exec).
//   <dir>/history     the history the figures are about
//   <dir>/flat        the same seeds, as many versions, no module changing
//   <dir>/flat-half   the same, half as many versions
// (the last two unless skip_linearity). The stats go to `stats_json`.
int Generate(const SyntheticHistoryOptions& options, bool skip_linearity, const std::string& dir,
             const std::string& stats_json) {
  auto fail = [](const absl::Status& s) {
    std::fprintf(stderr, "corpus_scale_bench: %s\n", std::string(s.message()).c_str());
    return 2;
  };
  auto seeds = CompileSyntheticSeeds(options);
  AOT_RETURN_IF_ERROR_AND(seeds, fail(_));
  nlohmann::ordered_json out;
  out["targets"] = seeds->targets;
  auto stats = WriteSyntheticHistory(options, *seeds);
  AOT_RETURN_IF_ERROR_AND(stats, fail(_));
  out["history"] = StatsToJson(*stats);
  if (!skip_linearity && options.versions >= 2) {
    SyntheticHistoryOptions flat = options;
    flat.change_fraction = 0;
    flat.golden_dir = dir + "/flat";
    auto flat_stats = WriteSyntheticHistory(flat, *seeds);
    AOT_RETURN_IF_ERROR_AND(flat_stats, fail(_));
    out["flat"] = StatsToJson(*flat_stats);
    SyntheticHistoryOptions half = flat;
    half.golden_dir = dir + "/flat-half";
    half.versions = options.versions / 2;
    // Ending on the same day as the others (the same releases apply).
    half.start_date = Date::Parse(stats->last_date)
                          ->MinusDays((half.versions - 1) * options.days_per_version)
                          .ToString();
    auto half_stats = WriteSyntheticHistory(half, *seeds);
    AOT_RETURN_IF_ERROR_AND(half_stats, fail(_));
    out["flat_half"] = StatsToJson(*half_stats);
  }
  if (absl::Status s = WriteFileAtomically(stats_json, out.dump(2) + "\n"); !s.ok()) {
    return fail(s);
  }
  return 0;
}

int Main(int argc, char** argv) {
  std::string dir;
  bool keep = false;
  std::string aot_compat = AOT_COMPAT_BINARY;
  std::string source_golden_dir = std::string(AOT_SOURCE_DIR) + "/golden";
  std::string root = AOT_SOURCE_DIR;
  std::vector<std::string> targets;
  int64_t versions = 180, modules = 150, days_per_version = 1, release_every_days = 14, jobs = 0,
          seed = 1;
  double change_fraction = 0.05;
  bool skip_linearity = false;
  bool generate_only = false;
  std::string stats_json;
  std::string json_path;
  FlagSet flags(
      "corpus_scale_bench",
      "corpus_scale_bench [--dir=DIR] [--keep] [--versions=N] [--modules=N] [--target=T]... "
      "[--json=OUT]",
      "Writes a synthetic golden history (default: 6 months of daily versions, every\n"
      "golden target, 150 modules each, 5% of modules changing per version, a release\n"
      "every 2 weeks) from the real compiler's output, then times aot-compat fsck,\n"
      "gate (cold and with the replay cache), replay --all_versions (cold and cached)\n"
      "and prune on it, and prints a markdown table against the issue's targets.");
  flags.AddString("dir", &dir,
                  "Where to write (default: a temporary directory, removed at the end).");
  flags.AddBool("keep", &keep, "Keep the temporary directory.");
  flags.AddString("aot_compat", &aot_compat, "The aot-compat binary to time.");
  flags.AddString("source_golden_dir", &source_golden_dir,
                  "The corpus whose modules and schema snapshots seed the history.");
  flags.AddString("root", &root, "The repository root (the gate's fallback lint).");
  flags.AddList("target", &targets, "Golden targets (default: all 12).");
  flags.AddInt("versions", &versions, "Versions per target.");
  flags.AddInt("modules", &modules, "Modules per target.");
  flags.AddDouble("change_fraction", &change_fraction,
                  "Chance of each module to change in each version.");
  flags.AddInt("days_per_version", &days_per_version, "Days between versions.");
  flags.AddInt("release_every_days", &release_every_days, "Days between releases.");
  flags.AddInt("jobs", &jobs, "Seed compiles at once (0: one per hardware thread).");
  flags.AddInt("seed", &seed, "Seeds which modules change when.");
  flags.AddBool("skip_linearity", &skip_linearity,
                "Skip the two extra histories that separate the sweep's per-version cost "
                "from its per-artifact cost.");
  flags.AddString("json", &json_path, "Also write the figures as JSON.");
  flags.AddBool("generate_only", &generate_only,
                "Internal: only write the histories into --dir and their stats to "
                "--stats_json (the bench runs itself so to measure the generation).");
  flags.AddString("stats_json", &stats_json, "Internal: see --generate_only.");
  flags.ParseOrExit(argc, argv, /*first=*/1, /*allow_positional=*/false);

  SyntheticHistoryOptions options;
  options.source_golden_dir = source_golden_dir;
  options.targets = targets;
  options.versions = static_cast<int>(versions);
  options.modules_per_target = static_cast<int>(modules);
  options.change_fraction = change_fraction;
  options.days_per_version = static_cast<int>(days_per_version);
  options.release_every_days = static_cast<int>(release_every_days);
  options.jobs = static_cast<int>(jobs);
  options.seed = static_cast<uint64_t>(seed);
  if (generate_only) {
    if (dir.empty() || stats_json.empty()) {
      std::fprintf(stderr, "corpus_scale_bench: --generate_only needs --dir and --stats_json\n");
      return 2;
    }
    options.golden_dir = dir + "/history";
    return Generate(options, skip_linearity, dir, stats_json);
  }

  Bench bench;
  bench.aot_compat = aot_compat;
  bench.root = root;
  const bool temporary = dir.empty();
  std::error_code ec;
  if (temporary) {
    std::string tmpl = (fs::temp_directory_path(ec) / "corpus_scale_bench_XXXXXX").string();
    if (::mkdtemp(tmpl.data()) == nullptr) {
      std::fprintf(stderr, "corpus_scale_bench: cannot create a temporary directory\n");
      return 2;
    }
    dir = tmpl;
  }
  dir = fs::absolute(dir, ec).string();
  // A temporary directory goes on every return (unless --keep).
  struct Cleanup {
    std::string dir;
    ~Cleanup() {
      std::error_code ignored;
      if (!dir.empty()) fs::remove_all(dir, ignored);
    }
  } cleanup{temporary && !keep ? dir : ""};
  bench.dir = dir;
  fs::create_directories(dir + "/logs", ec);
  if (!targets.empty()) bench.target_args.push_back("--target=" + absl::StrJoin(targets, ","));
  {
    ToolRun help = RunTool(aot_compat, {"gate", "--help"}, {}, bench.Log("gate_help"));
    if (help.exit_code != 0) {
      std::fprintf(stderr, "corpus_scale_bench: %s gate --help failed (exit %d):\n%s\n",
                   aot_compat.c_str(), help.exit_code, Tail(help.output, 10).c_str());
      return 2;
    }
    bench.cache_flags = absl::StrContains(help.output, "--cache_dir");
  }
  if (!bench.cache_flags) {
    bench.notes.push_back(
        "this aot-compat has no replay cache (--cache_dir): the cached figures are reruns "
        "without one");
  }

  // The histories, by a child (this binary again).
  const std::string self = fs::read_symlink("/proc/self/exe", ec).string();
  std::vector<std::string> generate_args = {
      "--generate_only",
      "--dir=" + dir,
      "--stats_json=" + dir + "/stats.json",
      "--source_golden_dir=" + source_golden_dir,
      absl::StrCat("--versions=", versions),
      absl::StrCat("--modules=", modules),
      absl::StrCat("--change_fraction=", change_fraction),
      absl::StrCat("--days_per_version=", days_per_version),
      absl::StrCat("--release_every_days=", release_every_days),
      absl::StrCat("--jobs=", jobs),
      absl::StrCat("--seed=", seed),
      absl::StrCat("--skip_linearity=", skip_linearity ? "true" : "false")};
  generate_args.insert(generate_args.end(), bench.target_args.begin(), bench.target_args.end());
  std::fprintf(stderr, "corpus_scale_bench: writing the synthetic histories into %s ...\n",
               dir.c_str());
  bench.loads.push_back({"generate", LoadAverage()});
  ToolRun generated = RunTool(self, generate_args, {}, bench.Log("generate"));
  std::fprintf(stderr, "corpus_scale_bench:   %s in %.1f s, peak %.0f MB\n",
               Verdict(generated).c_str(), generated.seconds, generated.peak_rss_mb);
  bench.cpu.push_back(absl::StrFormat("generate %.0f s user + %.0f s system",
                                      generated.user_seconds, generated.system_seconds));
  auto stats_file = ReadJson(dir + "/stats.json");
  if (generated.exit_code != 0 || !stats_file) {
    std::fprintf(stderr, "corpus_scale_bench: generating the history failed:\n%s\n",
                 Tail(generated.output, 20).c_str());
    return 2;
  }
  const SyntheticHistoryStats stats = StatsFromJson((*stats_file)["history"]);
  const std::vector<std::string> history_targets =
      (*stats_file)["targets"].get<std::vector<std::string>>();
  const std::string history = dir + "/history";
  const std::string now = stats.last_date;
  bench.rows.push_back(
      {"generation: seeds compiled (BuildArtifact), versions, blobs and releases written",
       absl::StrFormat("%s (compile %s, write %s)%s", Seconds(generated.seconds),
                       Seconds(stats.compile_seconds), Seconds(stats.write_seconds),
                       skip_linearity ? "" : ", with the two no-change histories"),
       Memory(generated), "", ""});

  // Storage: what the corpus takes on disk against its distinct blobs.
  const std::string fsck_json = dir + "/fsck.json";
  ToolRun fsck = bench.Run("fsck", {"fsck", "--golden_dir=" + history, "--json=" + fsck_json});
  uint64_t blob_bytes = stats.artifact_bytes + stats.io_bytes;
  if (auto j = ReadJson(fsck_json)) blob_bytes = j->value("blob_bytes", blob_bytes);
  DiskUsage store = Usage(history + "/store");
  DiskUsage manifests = Usage(history + "/executables");
  DiskUsage on_disk = store;
  on_disk += manifests;
  const double ratio = static_cast<double>(on_disk.allocated) / blob_bytes;
  const double apparent_ratio = static_cast<double>(on_disk.apparent) / blob_bytes;
  bench.rows.push_back(
      {"storage: bytes on disk (store + manifests) / distinct blob bytes",
       absl::StrFormat("%.1f MB / %.1f MB = %.2fx (file sizes: %.1f MB, %.2fx; manifests "
                       "%.1f MB in %d files)",
                       MB(on_disk.allocated), MB(blob_bytes), ratio, MB(on_disk.apparent),
                       apparent_ratio, MB(manifests.allocated), static_cast<int>(manifests.files)),
       "", "<= 1.2x", Met(ratio <= 1.2)});
  bench.rows.push_back({"fsck (every manifest, every blob hashed once)",
                        absl::StrCat(Seconds(fsck.seconds), ", ", Verdict(fsck)), Memory(fsck), "",
                        ""});

  // The gate at the newest version's date: cold, then with the cache it
  // filled (a compiler-only change keeps the runtime fingerprint).
  std::vector<std::string> gate_args = {"gate", "--golden_dir=" + history, "--now=" + now,
                                        "--root=" + root};
  gate_args.insert(gate_args.end(), bench.target_args.begin(), bench.target_args.end());
  const std::string gate_cache = dir + "/cache-gate";
  ToolRun gate_cold = bench.Run("gate_cold", gate_args, gate_cache);
  bench.notes.push_back("gate, empty cache: " + GateNote(gate_cold));
  ToolRun gate_warm = bench.Run("gate_cached", gate_args, gate_cache);
  bench.notes.push_back("gate, cache filled: " + GateNote(gate_warm));
  bench.rows.push_back({absl::StrCat("`aot-compat gate --now=", now, "`, empty replay cache"),
                        absl::StrCat(Seconds(gate_cold.seconds), ", ", Verdict(gate_cold)),
                        Memory(gate_cold), "<= 15 s",
                        Met(gate_cold.exit_code < 2 && gate_cold.seconds <= 15)});
  bench.rows.push_back(
      {"`aot-compat gate`, replay cache filled (compiler-only change)",
       absl::StrCat(Seconds(gate_warm.seconds), ", ", Verdict(gate_warm)), Memory(gate_warm),
       "<= 3 s", Met(bench.cache_flags && gate_warm.exit_code < 2 && gate_warm.seconds <= 3)});

  // The gate's backward window alone (the part the replay cache serves).
  auto replay = [&](const std::string& name, const std::string& golden_dir,
                    std::vector<std::string> extra, const std::string& cache) {
    std::vector<std::string> args = {"replay", "--golden_dir=" + golden_dir};
    args.insert(args.end(), extra.begin(), extra.end());
    args.insert(args.end(), bench.target_args.begin(), bench.target_args.end());
    ToolRun run = bench.Run(name, args, cache);
    bench.notes.push_back(absl::StrCat(name, ": ", ReplayNote(run)));
    return run;
  };
  const std::string window_cache = dir + "/cache-window";
  ToolRun window_cold = replay("window_cold", history, {"--now=" + now}, window_cache);
  ToolRun window_cached = replay("window_cached", history, {"--now=" + now}, window_cache);
  bench.rows.push_back(
      {absl::StrCat("of the gate: the backward window alone (`aot-compat replay --now=", now,
                    "`), empty cache / cache filled"),
       absl::StrFormat("%s / %s", Seconds(window_cold.seconds), Seconds(window_cached.seconds)),
       Memory(window_cold), "", ""});
  bench.rows.push_back(
      {"of the gate: everything but the backward replay (corpus compile for verify and forward, "
       "schema, ledger, lint), by difference",
       absl::StrFormat("%s (empty cache) / %s (cache filled)",
                       Seconds(gate_cold.seconds - window_cold.seconds),
                       Seconds(gate_warm.seconds - window_cached.seconds)),
       "", "", ""});

  // The all-versions sweep, cold and cached.
  const std::string sweep_cache = dir + "/cache-sweep";
  ToolRun sweep_cold = replay("sweep_cold", history, {"--all_versions"}, sweep_cache);
  ToolRun sweep_cached = replay("sweep_cached", history, {"--all_versions"}, sweep_cache);
  bench.rows.push_back({"`aot-compat replay --all_versions`, empty replay cache",
                        absl::StrFormat("%s, %s (%.2f ms per distinct artifact, %.2f ms per "
                                        "version)",
                                        Seconds(sweep_cold.seconds), Verdict(sweep_cold),
                                        1e3 * sweep_cold.seconds / stats.distinct_artifacts,
                                        1e3 * sweep_cold.seconds / stats.versions),
                        Memory(sweep_cold), "", ""});
  bench.rows.push_back({"`aot-compat replay --all_versions`, replay cache filled",
                        absl::StrCat(Seconds(sweep_cached.seconds), ", ", Verdict(sweep_cached)),
                        Memory(sweep_cached), "", ""});

  // Linear in distinct artifacts, not in versions: the same seeds with no
  // change (as many versions, then half as many) against the full history.
  if (stats_file->contains("flat") && stats_file->contains("flat_half")) {
    const SyntheticHistoryStats flat = StatsFromJson((*stats_file)["flat"]);
    const SyntheticHistoryStats half = StatsFromJson((*stats_file)["flat_half"]);
    ToolRun t_flat = replay("sweep_flat", dir + "/flat", {"--all_versions"}, dir + "/cache-flat");
    ToolRun t_half =
        replay("sweep_flat_half", dir + "/flat-half", {"--all_versions"}, dir + "/cache-half");
    // t = a * distinct artifacts + b * versions + c: b from the two flat
    // histories (the same artifacts), a from the full one against the flat
    // one (the same versions).
    const double b = (t_flat.seconds - t_half.seconds) / std::max(1, flat.versions - half.versions);
    const double a = (sweep_cold.seconds - t_flat.seconds) /
                     std::max(1, stats.distinct_artifacts - flat.distinct_artifacts);
    const double version_share = b * stats.versions / sweep_cold.seconds;
    bench.rows.push_back(
        {"sweep: per-artifact against per-version cost",
         absl::StrFormat(
             "%.2f ms per distinct artifact, %.3f ms per version: the versions are %.0f%% of the "
             "cold sweep (no-change histories: %d versions / %d artifacts in %s, %d / %d in %s)",
             1e3 * a, 1e3 * b, 100 * version_share, flat.versions, flat.distinct_artifacts,
             Seconds(t_flat.seconds), half.versions, half.distinct_artifacts,
             Seconds(t_half.seconds)),
         Memory(t_flat), "linear in distinct artifacts, not versions (versions <= 20%)",
         Met(version_share <= 0.2 && a > 0)});
  }

  // Prune at the date that expires half the history, on a copy.
  const Date first = *Date::Parse(stats.first_date);  // the generator wrote it
  const int span = (static_cast<int>(versions) - 1) * static_cast<int>(days_per_version);
  const std::string prune_now =
      PlusMonths(PlusDays(first, span / 2), kBackwardWindowMonths).ToString();
  const std::string copy = dir + "/prune-copy";
  fs::remove_all(copy, ec);
  fs::copy(history, copy, fs::copy_options::recursive, ec);
  if (ec) {
    bench.notes.push_back(absl::StrCat("prune: cannot copy the history: ", ec.message()));
  } else {
    DiskUsage before = Usage(copy + "/store");
    std::vector<std::string> args = {"prune", "--golden_dir=" + copy, "--now=" + prune_now};
    args.insert(args.end(), bench.target_args.begin(), bench.target_args.end());
    ToolRun prune = bench.Run("prune", args);
    DiskUsage after = Usage(copy + "/store");
    int left = 0;
    for (const std::string& t : history_targets) {
      if (auto v = DiscoverVersions(copy, t); v.ok()) left += static_cast<int>(v->size());
    }
    bench.rows.push_back(
        {absl::StrCat("`aot-compat prune --now=", prune_now, "` (half the history expired)"),
         absl::StrFormat("%s, %s: %d of %d versions left, store %.1f -> %.1f MB (%d -> %d "
                         "blobs)",
                         Seconds(prune.seconds), Verdict(prune), left, stats.versions,
                         MB(before.apparent), MB(after.apparent), static_cast<int>(before.files),
                         static_cast<int>(after.files)),
         Memory(prune), "", ""});
  }

  // The report.
  std::printf("\n## Golden corpus at scale (synthetic history)\n\n");
  std::printf(
      "history: %d targets x %lld versions (%s .. %s, one every %lld day(s)), %lld modules per "
      "target (%d .hlo files), change fraction %.3f, %d releases\n",
      stats.targets, static_cast<long long>(versions), stats.first_date.c_str(),
      stats.last_date.c_str(), static_cast<long long>(days_per_version),
      static_cast<long long>(modules), stats.modules, change_fraction, stats.releases);
  std::printf(
      "size: %d version directories, %d entries, %d distinct artifacts (%d seeds compiled + %d "
      "changes; %.1f MB) and %d distinct I/O records (%.1f MB); every version's files stored "
      "separately would take %.1f MB\n",
      stats.versions, stats.entries, stats.distinct_artifacts, stats.seed_artifacts,
      stats.changed_artifacts, MB(stats.artifact_bytes), stats.distinct_io, MB(stats.io_bytes),
      MB(stats.logical_bytes));
  std::printf("machine: %u hardware threads; 1-minute load average at the start of each run: %s\n",
              std::thread::hardware_concurrency(), bench.LoadSummary().c_str());
  std::printf("CPU time of each run (its threads and its children): %s\n\n",
              absl::StrJoin(bench.cpu, ", ").c_str());
  std::printf("| figure | measured | peak memory | target | met |\n|---|---|---|---|---|\n");
  for (const Row& r : bench.rows) {
    std::printf("| %s | %s | %s | %s | %s |\n", r.figure.c_str(), r.measured.c_str(),
                r.memory.c_str(), r.target.c_str(), r.met.c_str());
  }
  std::printf("\n");
  for (const std::string& n : bench.notes) std::printf("- %s\n", n.c_str());
  std::printf("- tool output: %s/logs (%s)\n", dir.c_str(),
              temporary && !keep ? "removed at exit; --keep keeps it" : "kept");

  if (!json_path.empty()) {
    nlohmann::ordered_json j;
    j["history"] = StatsToJson(stats);
    nlohmann::ordered_json rows = nlohmann::ordered_json::array();
    for (const Row& r : bench.rows) {
      rows.push_back({{"figure", r.figure},
                      {"measured", r.measured},
                      {"peak_memory", r.memory},
                      {"target", r.target},
                      {"met", r.met}});
    }
    j["figures"] = rows;
    j["notes"] = bench.notes;
    if (absl::Status s = WriteFileAtomically(json_path, j.dump(2) + "\n"); !s.ok()) {
      std::fprintf(stderr, "corpus_scale_bench: %s\n", std::string(s.message()).c_str());
    }
  }
  return 0;
}

}  // namespace
}  // namespace aot

int main(int argc, char** argv) { return aot::Main(argc, argv); }
