"""Every simulated test configuration again, with cleanups between passes.

usage: sim_cleanups_sweep.py [--jobs=N] [--timeout=S] [--insert=PASSES]
                             [--options=OPTIONS] [--filter=TEXT]
                             [TEST_FILE...]

Takes each lit RUN line of the test files (default: test/Integration/*)
that runs `attic-run --target=cuda-simulated ... --check` with attic's
default CUDA pipeline, turns its kernel options (--wgmma, --kv-stages,
--wgmma-overlap, --tma, --warp-specialize, --ping-pong, --async-copies,
--inline-kernel-constants, --block-q/-k) into attic-cuda-pipeline's options (OPTIONS added, e.g.
inline-kernel-constants=false), inserts PASSES (default
canonicalize,cse) after every pass of that pipeline
(test/Integration/Inputs/interleave_pipeline.py) and runs the same
command with --cuda-pipeline set to the result. The simulator runs the
pipeline up to its conversion to NVVM, outlining and
attic-gpu-annotate-kernels included. Prints one line per configuration
(ok, FAIL with attic-run's last line, or TIMEOUT) and a summary; exits 1
if any failed. Needs scripts/setup.sh's build; run from anywhere with
Debian's python3. The simulator is slow: the whole sweep takes tens of
minutes on 2 cores.
"""
import argparse
import glob
import os
import re
import shlex
import subprocess
import sys
import tempfile
from concurrent.futures import ThreadPoolExecutor

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
RUN = os.path.join(ROOT, "build", "tools", "attic-run")
OPT = os.path.join(ROOT, "build", "tools", "attic-opt")
sys.path.insert(0, os.path.join(ROOT, "test", "Integration", "Inputs"))
from interleave_pipeline import interleaved  # noqa: E402

# attic-run's kernel options -> attic-cuda-pipeline's.
FLAGS = {"--wgmma": "wgmma=true", "--wgmma-overlap": "wgmma-overlap=true",
         "--tma": "tma=true", "--warp-specialize": "warp-specialize=true",
         "--ping-pong": "ping-pong=true"}
VALUED = {"--kv-stages": "kv-stages", "--block-q": "block-q",
          "--block-k": "block-k", "--async-copies": "async-copies",
          "--inline-kernel-constants": "inline-kernel-constants"}


def run_lines(path):
    """The file's RUN lines, continuations joined."""
    lines, current = [], ""
    for line in open(path, errors="replace"):
        m = re.match(r"^\s*(?://|#|;)?\s*RUN:\s?(.*)$", line)
        if not m:
            continue
        text = m.group(1).rstrip()
        if text.endswith("\\"):
            current += text[:-1] + " "
            continue
        lines.append(current + text)
        current = ""
    return lines


def configurations(paths, tmp):
    seen = set()
    env = dict(os.environ)
    env["PATH"] = "/usr/lib/llvm-22/bin:" + env.get("PATH", "")
    for n, path in enumerate(paths):
        # %t of each file in a directory of its own; its split-file and
        # mkdir lines run here, as the inputs of its other lines.
        t = os.path.join(tmp, str(n), "t")
        os.makedirs(os.path.dirname(t))
        for line in run_lines(path):
            command = line.split("|")[0].strip()
            expanded = (command.replace("%S", os.path.dirname(path))
                        .replace("%s", path).replace("%attic_src", ROOT)
                        .replace("%t", t))
            if re.fullmatch(r"(rm -rf \S+ && )?(split-file|mkdir)( \S+)+"
                            r"( && split-file \S+ \S+)*", expanded):
                subprocess.run(["bash", "-c", expanded], env=env, check=True)
                continue
            # The inputs that Python writes (np.save, > FILE); lines that
            # check outputs fail here, harmlessly.
            if expanded.startswith("%python ") and "|" not in line:
                subprocess.run(["bash", "-c", expanded.replace(
                    "%python", "/usr/bin/python3", 1)], env=env,
                    capture_output=True)
                continue
            if (not command.startswith("attic-run ") or
                    "--target=cuda-simulated" not in command or
                    "--check" not in command or "--cuda-pipeline" in command or
                    "@" in command or "%{" in command):
                continue
            command = expanded
            if "%" in re.sub(r"%[0-9.]", "", command):
                continue
            args, options = [], []
            for arg in shlex.split(command)[1:]:
                name, _, value = arg.partition("=")
                if arg in FLAGS:
                    options.append(FLAGS[arg])
                elif name in VALUED and value:
                    options.append(VALUED[name] + "=" + value)
                elif name in ("--output", "--bench"):
                    continue
                else:
                    args.append(arg)
            chip = "sm_90a" if "wgmma=true" in options else "sm_80"
            options = ["chip=" + chip, "format=isa"] + options
            key = (tuple(args), tuple(options))
            if key in seen:
                continue
            seen.add(key)
            yield os.path.relpath(path, ROOT), args, " ".join(options)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--timeout", type=int, default=600)
    ap.add_argument("--insert", default="canonicalize,cse")
    ap.add_argument("--options", default="")
    ap.add_argument("--filter", default="")
    ap.add_argument("files", nargs="*")
    a = ap.parse_args()
    paths = [os.path.abspath(p) for p in a.files] or sorted(glob.glob(os.path.join(ROOT, "test", "Integration", "*.test")) +
                              glob.glob(os.path.join(ROOT, "test", "Integration", "*.mlir")))
    tmp = tempfile.mkdtemp(prefix="attic-sim-sweep-")
    pipelines = {}

    def pipeline(options):
        if options not in pipelines:
            pipelines[options] = interleaved("attic-cuda-pipeline", a.insert,
                                             options, OPT)
        return pipelines[options]

    configs = [(f, args, (opts + " " + a.options).strip())
               for f, args, opts in configurations(paths, tmp)
               if a.filter in " ".join([f] + args + [opts])]
    jobs = [(f, args, opts, pipeline(opts)) for f, args, opts in configs]

    def run(job):
        f, args, opts, pipe = job
        try:
            r = subprocess.run([RUN] + args + ["--cuda-pipeline=" + pipe],
                               capture_output=True, text=True,
                               timeout=a.timeout, cwd=tmp)
        except subprocess.TimeoutExpired:
            return "TIMEOUT", f, args, opts, ""
        last = (r.stdout + r.stderr).strip().splitlines()
        ok = r.returncode == 0 and any(": ok" in l for l in last)
        return ("ok" if ok else "FAIL"), f, args, opts, last[-1] if last else ""

    counts = {}
    with ThreadPoolExecutor(a.jobs) as pool:
        for status, f, args, opts, last in pool.map(run, jobs):
            counts[status] = counts.get(status, 0) + 1
            entry = next((x for x in args if x.startswith("--entry=")), "")
            print(f"{status:7} {f} {entry} [{opts}]" +
                  ("" if status == "ok" else "  " + last[:300]), flush=True)
    print("summary:", ", ".join(f"{k} {v}" for k, v in sorted(counts.items())),
          f"of {len(jobs)} configurations")
    sys.exit(0 if set(counts) <= {"ok"} else 1)


main()
