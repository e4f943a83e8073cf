#!/usr/bin/env bash
# Runs the HLO modules of XLA's SPMD partitioner tests (xla/service/spmd/
# spmd_partitioner_test.cc of openxla/xla) through aot-run and tallies them.
# Each TEST_F(SpmdPartitioningTest, Name) holds one or more raw-string HLO
# modules (R"(HloModule ...)") and the partition count it partitions them for
# (PartitionComputation(hlo_string, /*num_devices=*/N, ...)). For each module
# this writes it to a temporary .hlo file and runs
#   aot-run --platform=interpreter --num_partitions=N FILE.hlo
# which partitions the module by its shardings for N partitions, runs every
# partition and compares the assembled result with the single-device
# interpreter: exit status 0 (a match) is a PASS. XLA's own expectations (the
# matchers on the partitioned HLO) are not checked; what is measured is that
# our partitioner, as written, computes the same values as the unpartitioned
# module. The public test file is a measurement input only: keep it outside the
# tree (e.g. /work/suites/xla/, with its commit in COMMIT next to it); it and
# the modules extracted from it are never committed.
#
#   scripts/xla_spmd_tests.sh FILE.cc [--aot_run=PATH] [--jobs=2] [--timeout=60]
#                             [--keep=DIR] [--filter=REGEX]
#                             [--platform=interpreter|host] [--emission_flags=a,b]
#                             [--mem_mb=8192] [--commit=HASH] [--quiet] [--list]
#
#   --aot_run=PATH   the binary (default: build/compiler/tools/aot-run); it is
#                    copied first, so a rebuild during the run does not mix builds
#   --jobs=N         modules run at once (default 2)
#   --timeout=S      seconds per module before it counts as HANG (default 60)
#   --keep=DIR       keep each module (NAME.hlo) and its output (NAME.log) in DIR
#   --filter=REGEX   only tests whose name matches (Python re.search)
#   --platform=P     interpreter (default) or host; host adds
#                    --emission_flags=emit_collectives (needed for partitions)
#   --emission_flags further emission flags for aot-run (comma-separated)
#   --mem_mb=MB      address-space limit per aot-run (default 8192, 0 = none);
#                    a module over it usually ends as CRASH (SIGABRT, bad_alloc)
#   --commit=HASH    the XLA commit for the tally (default: COMMIT beside FILE)
#   --quiet          only the tally and the failure classes
#   --list           only list the extracted modules and their partition counts
#
# One line per module, in file order: "PASS name (N)", "FAIL name (N): <first
# error line>", "CRASH name: SIGNAL", "HANG name"; a test with several modules
# names them name, name#2, ...; "(N, assumed)" marks a module whose partition
# count was found neither in the call nor in the module header (2 is used).
# Then "tally: P/T passed (X%), F failed, C crashed, H hung [commit, platform]"
# and the failure reasons (first error message, numbers and names normalised),
# most frequent first, with an example each. Exit status 0 when the run
# completed, 2 bad usage or no aot-run.
set -euo pipefail

root="$(cd "$(dirname "$0")/.." && pwd)"
if [[ " $* " == *" --help "* || " $* " == *" -h "* ]]; then
  sed -n '2,/^set -euo/p' "$0" | sed '$d' | sed 's/^# \{0,1\}//'
  exit 0
fi
exec python3 - "$root" "$@" <<'PY'
import concurrent.futures, os, re, shutil, signal, subprocess, sys
import tempfile, threading
from collections import Counter, OrderedDict

root, args = sys.argv[1], sys.argv[2:]
opts = {"aot_run": os.path.join(root, "build/compiler/tools/aot-run"),
        "jobs": "2", "timeout": "60", "keep": "", "filter": "",
        "platform": "interpreter", "emission_flags": "", "mem_mb": "8192",
        "commit": ""}
quiet, listing, src = False, False, None

def usage(msg):
    print(f"xla_spmd_tests.sh: error: {msg} (see --help)", file=sys.stderr)
    sys.exit(2)

for a in args:
    if a == "--quiet":
        quiet = True
    elif a == "--list":
        listing = True
    elif a.startswith("--") and "=" in a and a[2:a.index("=")] in opts:
        opts[a[2:a.index("=")]] = a[a.index("=") + 1:]
    elif a.startswith("-"):
        usage(f"unknown flag '{a}'")
    elif src is None:
        src = a
    else:
        usage(f"a second FILE '{a}'")
if not src or not os.path.isfile(src):
    usage("give the test file (spmd_partitioner_test.cc)")
try:
    jobs, timeout, mem_mb = int(opts["jobs"]), float(opts["timeout"]), int(opts["mem_mb"])
except ValueError:
    usage("--jobs, --timeout and --mem_mb take numbers")
if jobs < 1 or timeout <= 0:
    usage("--jobs and --timeout must be positive")
platform = opts["platform"]
if platform not in ("interpreter", "host"):
    usage("--platform is interpreter or host")
try:
    name_filter = re.compile(opts["filter"]) if opts["filter"] else None
except re.error as e:
    usage(f"bad --filter: {e}")
if not listing and not os.path.isfile(opts["aot_run"]) or not os.access(opts["aot_run"], os.X_OK):
    print(f"xla_spmd_tests.sh: error: no aot-run at {opts['aot_run']} (build it, or --aot_run=PATH)",
          file=sys.stderr)
    sys.exit(2)
commit = opts["commit"]
if not commit:
    cf = os.path.join(os.path.dirname(os.path.abspath(src)), "COMMIT")
    commit = open(cf).read().strip()[:12] if os.path.isfile(cf) else "unknown commit"

# ---- extraction -----------------------------------------------------------
text = open(src, encoding="utf-8").read()
test_re = re.compile(r"\bTEST_F\(\s*(\w+)\s*,\s*(\w+)\s*\)\s*\{")
raw_re = re.compile(r'R"([^()\\\s"]{0,16})\((.*?)\)\1"', re.S)
# Partition counts as the tests pass them: PartitionComputation(hlo,
# /*num_devices=*/N, ...) or a bare N, the same for RunPass-style helpers,
# and explicit num_devices / num_partitions assignments.
count_res = [
    re.compile(r"\b(?:PartitionComputation|RunPass|PartitionModule|Partition\w*)\(\s*[^,()]+,\s*"
               r"(?:/\*[^*]*\*/\s*)?(\d+)"),
    re.compile(r"/\*\s*num_(?:devices|partitions)\s*=\s*\*/\s*(\d+)"),
    re.compile(r"\bnum_(?:devices|partitions)\s*=\s*(\d+)"),
    re.compile(r"set_num_partitions\(\s*(\d+)\s*\)"),
]
header_re = re.compile(r"^\s*HloModule\b[^\n]*\bnum_partitions=(\d+)", re.M)

starts = list(test_re.finditer(text))
modules = []  # (name, n, assumed, hlo)
for i, m in enumerate(starts):
    body = text[m.end():starts[i + 1].start() if i + 1 < len(starts) else len(text)]
    name = m.group(2)
    if name_filter and not name_filter.search(name):
        continue
    raws = [r for r in raw_re.finditer(body) if "HloModule" in r.group(2)]
    for k, r in enumerate(raws):
        hlo = r.group(2)
        n, assumed = None, False
        h = header_re.search(hlo)
        if h:
            n = int(h.group(1))
        else:
            after = body[r.end():raws[k + 1].start() if k + 1 < len(raws) else len(body)]
            for scope in (after, body):
                found = [int(c.group(1)) for cr in count_res for c in [cr.search(scope)] if c]
                if found:
                    n = found[0]
                    break
        if n is None:
            n, assumed = 2, True
        modules.append((name if k == 0 else f"{name}#{k + 1}", n, assumed, hlo))

if not modules:
    print("xla_spmd_tests.sh: no HLO modules found" +
          (" (check --filter)" if name_filter else ""), file=sys.stderr)

if listing:
    for name, n, assumed, hlo in modules:
        print(f"{name} {n}{' assumed' if assumed else ''} {len(hlo)} chars")
    print(f"modules: {len(modules)}")
    sys.exit(0)

# ---- running --------------------------------------------------------------
work = tempfile.mkdtemp(prefix="xla_spmd_")
keep = opts["keep"]
if keep:
    os.makedirs(keep, exist_ok=True)
binary = os.path.join(work, "aot-run")
shutil.copy2(opts["aot_run"], binary)
base_args = [binary, f"--platform={platform}"]
flags = [f for f in opts["emission_flags"].split(",") if f]
if platform == "host" and "emit_collectives" not in flags:
    flags.append("emit_collectives")
if flags:
    base_args.append("--emission_flags=" + ",".join(flags))


def first_error(out, path):
    lines = [l.rstrip() for l in out.splitlines() if l.strip()]
    pick = next((l for l in lines if l.startswith("aot-run: error:")), None)
    if pick is None:
        pick = next((l for l in lines if not l.startswith("aot-run: note:") and
                     re.search(r"mismatch|MISMATCH|FAILED|differ|error|Error|Check failed", l)), None)
    if pick is None:
        rest = [l for l in lines if not l.startswith("aot-run: note:")]
        pick = rest[-1] if rest else (lines[-1] if lines else "no message")
    pick = pick.replace(path, "<file>")
    pick = re.sub(r"^aot-run: error: ", "", pick)
    pick = re.sub(r"^<file>(?::\d+)*(?:\s*\(\d+ partitions\))?:\s*(?:\d+:\d+:\s*)?", "", pick)
    return pick

def run(idx, name, n, hlo):
    safe = re.sub(r"[^\w#.-]", "_", name).replace("#", "_")
    path = os.path.join(keep or work, safe + ".hlo")
    with open(path, "w", encoding="utf-8") as f:
        f.write(hlo.lstrip("\n") + ("" if hlo.endswith("\n") else "\n"))
    cmd = base_args + [f"--num_partitions={n}", path]
    # The address-space limit is set by a shell in the child's own session
    # (so a timeout can end the whole group), not by a preexec hook.
    wrapped = ["/bin/sh", "-c", (f"ulimit -v {mem_mb * 1024}; " if mem_mb > 0 else "")
               + 'exec "$@"', "sh"] + cmd
    try:
        p = subprocess.Popen(wrapped, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                             start_new_session=True, cwd=work)
    except OSError as e:
        return ("FAIL", f"could not start aot-run: {e}", "")
    try:
        out, _ = p.communicate(timeout=timeout)
        out = out.decode("utf-8", "replace")
    except subprocess.TimeoutExpired:
        try:
            os.killpg(p.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
        out = (p.communicate()[0] or b"").decode("utf-8", "replace")
        verdict = ("HANG", f"no result within {timeout:g} s", out)
    else:
        if p.returncode == 0:
            verdict = ("PASS", "", out)
        elif p.returncode < 0:
            try:
                sig = signal.Signals(-p.returncode).name
            except ValueError:
                sig = f"signal {-p.returncode}"
            if "bad_alloc" in out or "Cannot allocate" in out:
                sig += " (out of memory" + (f" under --mem_mb={mem_mb})" if mem_mb > 0 else ")")
            verdict = ("CRASH", sig, out)
        else:
            verdict = ("FAIL", first_error(out, path), out)
    if keep:
        with open(os.path.join(keep, safe + ".log"), "w", encoding="utf-8") as f:
            f.write(" ".join(cmd) + "\n" + out)
    return verdict

results = [None] * len(modules)
printed = 0
lock = threading.Lock()

def line(i):
    name, n, assumed, _ = modules[i]
    kind, msg, _ = results[i]
    ns = f"{n}, assumed" if assumed else f"{n}"
    if kind == "PASS":
        return f"PASS {name} ({ns})"
    if kind == "FAIL":
        return f"FAIL {name} ({ns}): {msg}"
    if kind == "CRASH":
        return f"CRASH {name} ({ns}): {msg}"
    return f"HANG {name} ({ns})"

def done(i, fut):
    global printed
    try:
        r = fut.result()
    except Exception as e:  # the runner itself broke: count as a failure
        r = ("FAIL", f"runner error: {e}", "")
    with lock:
        results[i] = r
        while printed < len(results) and results[printed] is not None:
            if not quiet:
                print(line(printed), flush=True)
            printed += 1

try:
    with concurrent.futures.ThreadPoolExecutor(max_workers=jobs) as ex:
        for i, (name, n, _, hlo) in enumerate(modules):
            ex.submit(run, i, name, n, hlo).add_done_callback(lambda f, i=i: done(i, f))
finally:
    shutil.rmtree(work, ignore_errors=True)

# ---- tally ----------------------------------------------------------------
kinds = Counter(r[0] for r in results)
total = len(results)
pct = 100.0 * kinds["PASS"] / total if total else 0.0
tests = len(OrderedDict((m[0].split("#")[0], 1) for m in modules))
assumed = [m[0] for m in modules if m[2]]
print(f"modules: {total} from {tests} tests in {os.path.basename(src)}"
      + (f"; partition count not found, 2 used for {len(assumed)}: {', '.join(assumed)}"
         if assumed else ""))
print(f"tally: {kinds['PASS']}/{total} passed ({pct:.1f}%), {kinds['FAIL']} failed, "
      f"{kinds['CRASH']} crashed, {kinds['HANG']} hung [{commit}, {platform}]")

def normalise(msg):
    s = msg
    s = re.sub(r"\b(?:pred|token|bf16|[suf]\d+|c64|c128|f8e\w+|f4e\w+)\[[^\]]*\](?:\{[^}]*\})?",
               "<shape>", s)
    s = re.sub(r"%[\w.\-]+", "%<name>", s)
    s = re.sub(r"\b([A-Za-z_][\w\-]*)\.\d+\b", r"\1.N", s)
    s = re.sub(r"(?<![\w.])-?\d+(?:\.\d+)?(?:e-?\d+)?", "N", s)
    s = re.sub(r"N(?:\s*[,x]\s*N)+", "N…", s)
    s = re.sub(r"\s+", " ", s).strip()
    return s[:200]

classes = OrderedDict()
for (name, n, _, _), (kind, msg, _) in zip(modules, results):
    if kind == "PASS":
        continue
    key = f"{kind}: " + (normalise(msg) if kind == "FAIL" else
                         msg if kind == "CRASH" else "timeout")
    classes.setdefault(key, []).append(name)
if classes:
    print("failure classes (count, reason, example):")
    for key, names in sorted(classes.items(), key=lambda kv: -len(kv[1])):
        print(f"  {len(names):4d}  {key}  [e.g. {names[0]}]")
PY
