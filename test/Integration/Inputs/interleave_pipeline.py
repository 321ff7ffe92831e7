"""Writes a response file for attic-run: --cpu-pipeline (or --cuda-pipeline)
set to attic's pipeline with other passes after each of its passes.

usage: interleave_pipeline.py PIPELINE INSERT FLAG [OPTIONS]
  PIPELINE  attic-cpu-pipeline or attic-cuda-pipeline
  INSERT    the passes to insert, e.g. canonicalize,cse
  FLAG      the attic-run option to write, e.g. --cpu-pipeline
  OPTIONS   the pipeline's options, e.g. emulate-cuda=true

The pipeline's passes are those attic-opt --dump-pass-pipeline prints for
it, so the test follows the pipeline as it changes.
"""
import subprocess
import sys


def top_level_passes(text):
    """The comma-separated passes of 'builtin.module(...)', nesting kept."""
    text = text.strip()
    assert text.startswith("builtin.module(") and text.endswith(")"), text
    inner = text[len("builtin.module("):-1]
    passes, depth, current = [], 0, ""
    for ch in inner:
        if ch in "({":
            depth += 1
        elif ch in ")}":
            depth -= 1
        if ch == "," and depth == 0:
            passes.append(current.strip())
            current = ""
        else:
            current += ch
    passes.append(current.strip())
    return passes


def pipeline_passes(pipeline, options="", opt="attic-opt"):
    """The top-level passes of PIPELINE{OPTIONS}, as attic-opt prints them."""
    spec = pipeline + ("{" + options + "}" if options else "")
    dump = subprocess.run(
        [opt, "--pass-pipeline=builtin.module(" + spec + ")",
         "--dump-pass-pipeline", "-o", "-", "-"],
        input="module {}", capture_output=True, text=True, check=True).stderr
    # "Pass Manager with N passes:" then the pipeline over several lines.
    text = " ".join(line.strip() for line in dump.splitlines()[1:])
    return top_level_passes(text)


def interleaved(pipeline, insert, options="", opt="attic-opt"):
    """builtin.module(...) of PIPELINE{OPTIONS} with INSERT after each pass."""
    out = []
    for p in pipeline_passes(pipeline, options, opt):
        out += [p, insert]
    return "builtin.module(" + ",".join(out) + ")"


def main():
    pipeline, insert, flag = sys.argv[1:4]
    options = sys.argv[4] if len(sys.argv) > 4 else ""
    joined = interleaved(pipeline, insert, options)
    assert "'" not in joined
    print("'" + flag + "=" + joined + "'")


if __name__ == "__main__":
    main()
