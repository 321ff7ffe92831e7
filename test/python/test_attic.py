"""pytest suite of attic's Python entry (python/attic): ahead-of-time
compiled functions called on NumPy arrays, checked against NumPy and
against the reference semantics; bad input. Run by ctest (test `python`)
with PYTHONPATH=python and ATTIC_COMPILE / ATTIC_RUN set to the build's
tools."""

import ctypes
import os
import shutil
import stat
import subprocess
import sys

import numpy as np
import pytest

import attic

SRC = os.path.normpath(os.path.join(os.path.dirname(__file__), "..", ".."))
ATTIC_RUN = os.environ.get("ATTIC_RUN",
                           os.path.join(SRC, "build", "tools", "attic-run"))

DENSE = """
func.func @dense(%q: tensor<1x2x256x32xf32>, %k: tensor<1x2x256x32xf32>,
                 %v: tensor<1x2x256x32xf32>) -> tensor<1x2x256x32xf32> {
  %o = attic.attention %q, %k, %v causal : tensor<1x2x256x32xf32>,
       tensor<1x2x256x32xf32>, tensor<1x2x256x32xf32> -> tensor<1x2x256x32xf32>
  return %o : tensor<1x2x256x32xf32>
}

func.func @masked(%q: tensor<2x2x64x16xf32>, %k: tensor<2x2x96x16xf32>,
                  %v: tensor<2x2x96x16xf32>, %mask: tensor<2x96xi1>)
    -> tensor<2x2x64x16xf32> {
  %o = attic.attention %q, %k, %v mask(%mask : tensor<2x96xi1>)
       : tensor<2x2x64x16xf32>, tensor<2x2x96x16xf32>, tensor<2x2x96x16xf32>
       -> tensor<2x2x64x16xf32>
  return %o : tensor<2x2x64x16xf32>
}

func.func @dynamic(%q: tensor<1x1x?x16xf32>, %k: tensor<1x1x?x16xf32>,
                   %v: tensor<1x1x?x16xf32>) -> tensor<1x1x?x16xf32> {
  %o = attic.attention %q, %k, %v : tensor<1x1x?x16xf32>, tensor<1x1x?x16xf32>,
       tensor<1x1x?x16xf32> -> tensor<1x1x?x16xf32>
  return %o : tensor<1x1x?x16xf32>
}
"""


def reference(q, k, v, causal=False, mask=None):
    q, k, v = (x.astype(np.float64) for x in (q, k, v))
    s = q @ np.swapaxes(k, -1, -2) / np.sqrt(q.shape[-1])
    if causal:
        n, m = s.shape[-2:]
        s = np.where(np.tril(np.ones((n, m), bool)), s, -np.inf)
    if mask is not None:
        s = np.where(mask[:, None, None, :], s, -np.inf)
    s = np.exp(s - s.max(-1, keepdims=True))
    return (s / s.sum(-1, keepdims=True)) @ v


def rel_err(got, want):
    return np.abs(got - want).max() / np.abs(want).max()


@pytest.fixture(scope="module")
def source(tmp_path_factory):
    path = tmp_path_factory.mktemp("mlir") / "dense.mlir"
    path.write_text(DENSE)
    return str(path)


@pytest.fixture(scope="module")
def dense(source):
    return attic.compile(source, entry="dense")


def test_dense_causal_matches_numpy(dense):
    rng = np.random.default_rng(0)
    q, k, v = (rng.uniform(-1, 1, (1, 2, 256, 32)).astype(np.float32)
               for _ in range(3))
    out = dense(q, k, v)
    assert out.dtype == np.float32 and out.shape == (1, 2, 256, 32)
    assert rel_err(out, reference(q, k, v, causal=True)) < 1e-5


def test_signature_is_read_from_the_library(dense):
    assert [repr(s) for s in dense.inputs] == ["f32[1x2x256x32]"] * 3
    assert [repr(s) for s in dense.results] == ["f32[1x2x256x32]"]


def test_mask_is_bool(source):
    masked = attic.compile(source, entry="masked")
    rng = np.random.default_rng(1)
    q = rng.uniform(-1, 1, (2, 2, 64, 16)).astype(np.float32)
    k = rng.uniform(-1, 1, (2, 2, 96, 16)).astype(np.float32)
    v = rng.uniform(-1, 1, (2, 2, 96, 16)).astype(np.float32)
    mask = rng.uniform(size=(2, 96)) < 0.7
    out = masked(q, k, v, mask)
    assert rel_err(out, reference(q, k, v, mask=mask)) < 1e-5


def test_mask_bytes_other_than_one_are_true(source):
    # A uint8 array viewed as bool: NumPy reads every nonzero byte as true,
    # and so must the compiled code (2 has a low bit of 0).
    masked = attic.compile(source, entry="masked")
    rng = np.random.default_rng(3)
    q = rng.uniform(-1, 1, (2, 2, 64, 16)).astype(np.float32)
    k = rng.uniform(-1, 1, (2, 2, 96, 16)).astype(np.float32)
    v = rng.uniform(-1, 1, (2, 2, 96, 16)).astype(np.float32)
    keep = rng.uniform(size=(2, 96)) < 0.7
    raw = np.where(keep, rng.choice([2, 4, 128, 255], size=keep.shape),
                   0).astype(np.uint8)
    mask = raw.view(np.bool_)
    out = masked(q, k, v, mask)
    assert raw.max() > 1 and mask.view(np.uint8).max() > 1  # not copied
    assert rel_err(out, reference(q, k, v, mask=keep)) < 1e-5


def test_dynamic_dims_need_shapes(source):
    with pytest.raises(attic.AtticError, match="dynamic dims"):
        attic.compile(source, entry="dynamic")
    f = attic.compile(source, entry="dynamic", shapes={0: (1, 1, 40, 16),
                                                      1: (1, 1, 72, 16),
                                                      2: (1, 1, 72, 16)})
    rng = np.random.default_rng(2)
    q = rng.uniform(-1, 1, (1, 1, 40, 16)).astype(np.float32)
    k = rng.uniform(-1, 1, (1, 1, 72, 16)).astype(np.float32)
    v = rng.uniform(-1, 1, (1, 1, 72, 16)).astype(np.float32)
    assert rel_err(f(q, k, v), reference(q, k, v)) < 1e-5


def test_vcc_layer_matches_the_reference(tmp_path):
    """examples/vcc_layer.mlir: inputs and reference results from attic-run
    --check (the reference semantics in double), the call from Python."""
    example = os.path.join(SRC, "examples", "vcc_layer.mlir")
    f = attic.compile(example, entry="vcc_layer")
    ins = [str(tmp_path / ("in%d.npy" % i)) for i in range(len(f.inputs))]
    refs = [str(tmp_path / ("ref%d.npy" % i)) for i in range(len(f.results))]
    command = [ATTIC_RUN, example, "--entry=vcc_layer", "--seed=1",
               "--mask-keep=0.9", "--mask-keep-arg=1:0.04", "--range-lo=-0.5",
               "--range-hi=0.5", "--check"]
    command += ["--save-input=" + p for p in ins]
    command += ["--reference-output=" + p for p in refs]
    subprocess.run(command, check=True, stdout=subprocess.DEVNULL)
    outs = f(*[np.load(p) for p in ins])
    assert len(outs) == 2
    assert rel_err(outs[0], np.load(refs[0])) < 1e-5
    np.testing.assert_array_equal(outs[1], np.load(refs[1]))


def test_no_mlir_in_the_process(dense):
    dense(*[np.zeros((1, 2, 256, 32), np.float32)] * 3)
    with open("/proc/self/maps") as maps:
        text = maps.read()
    assert "libattic_rt.so" in text
    assert "libMLIR" not in text and "libLLVM" not in text


def test_bad_arrays(dense):
    good = np.zeros((1, 2, 256, 32), np.float32)
    with pytest.raises(attic.AtticError, match=r"must be f32\[1x2x256x32\] "
                       r"\(NumPy float32\), got dtype float64"):
        dense(good, good, good.astype(np.float64))
    with pytest.raises(attic.AtticError, match=r"argument #1 of @dense must "
                       r"have shape \(1, 2, 256, 32\), got \(1, 2, 32, 256\)"):
        dense(good, np.zeros((1, 2, 32, 256), np.float32), good)
    strided = np.zeros((1, 2, 256, 64), np.float32)[..., ::2]
    with pytest.raises(attic.AtticError, match="not C-contiguous"):
        dense(good, good, strided)
    with pytest.raises(attic.AtticError, match="takes 3 arguments, got 2"):
        dense(good, good)
    with pytest.raises(attic.AtticError, match="must be a NumPy array"):
        dense(good, good, [[0.0]])


def test_missing_entry_and_library(dense, source):
    with pytest.raises(attic.AtticError, match="has no entry 'nope'"):
        attic.load(dense.path, "nope")
    with pytest.raises(attic.AtticError, match="no such library"):
        attic.load("/nonexistent/libx.so", "x")
    # Named errors for an entry that is not a name (was a TypeError).
    for entry in (None, b"dense", ""):
        with pytest.raises(attic.AtticError, match="entry must be a "
                           "function's name"):
            attic.load(dense.path, entry)
    with pytest.raises(attic.AtticError, match="no function 'nope'"):
        attic.compile(source, entry="nope")
    with pytest.raises(attic.AtticError, match="no such file"):
        attic.compile("/nonexistent.mlir", entry="x")


def test_a_library_for_another_machine_is_refused(dense):
    """An entry whose triple names another architecture: attic_aot_check
    (which every call makes) refuses it with a message."""
    rt = ctypes.CDLL("libattic_rt.so")
    rt.attic_aot_check.argtypes = [ctypes.c_void_p]
    rt.attic_aot_last_error.restype = ctypes.c_char_p
    entry = attic._Entry.from_buffer_copy(dense._entry)
    entry.triple = b"aarch64-unknown-linux-gnu"
    assert rt.attic_aot_check(ctypes.byref(entry)) != 0
    assert b"was compiled for aarch64-unknown-linux-gnu" in \
        rt.attic_aot_last_error()
    entry = attic._Entry.from_buffer_copy(dense._entry)
    entry.abi_version = 99
    assert rt.attic_aot_check(ctypes.byref(entry)) != 0
    assert b"ABI version 99" in rt.attic_aot_last_error()


def test_cpu_features_this_machine_lacks(source, monkeypatch):
    """A library for a CPU with a feature this machine lacks is refused on
    load (ATTIC_AOT_MASK_FEATURES plays the machine without AVX-512)."""
    monkeypatch.setenv("ATTIC_AOT_MASK_FEATURES", "avx512bw,avx512f")
    with pytest.raises(attic.AtticError, match=r"compiled for CPU "
                       r"skylake-avx512 and uses (.*, )?avx512f, avx512bw.* "
                       r"which this CPU lacks"):
        attic.compile(source, entry="dense", cpu="skylake-avx512")


def test_portable_cpu_runs_here(source):
    f = attic.compile(source, entry="dense", cpu="x86-64-v2")
    rng = np.random.default_rng(3)
    q, k, v = (rng.uniform(-1, 1, (1, 2, 256, 32)).astype(np.float32)
               for _ in range(3))
    assert rel_err(f(q, k, v), reference(q, k, v, causal=True)) < 1e-5


def test_unknown_cpu(source):
    with pytest.raises(attic.AtticError, match="unknown CPU 'pentium9000'"):
        attic.compile(source, entry="dense", cpu="pentium9000")


def test_torch_tensors_zero_copy(dense):
    torch = pytest.importorskip("torch")
    q = torch.rand(1, 2, 256, 32)
    out = dense(q, q, q)
    assert isinstance(out, torch.Tensor)
    want = reference(q.numpy(), q.numpy(), q.numpy(), causal=True)
    assert rel_err(out.numpy(), want) < 1e-5


def test_recompiling_to_the_same_output_loads_the_new_library(source,
                                                              tmp_path):
    # The loader hands back the library it loaded from a path before: the
    # second compile() to the same output returned the first signature.
    out = str(tmp_path / "libdynamic.so")
    shape = {0: (1, 1, 40, 16), 1: (1, 1, 72, 16), 2: (1, 1, 72, 16)}
    first = attic.compile(source, entry="dynamic", shapes=shape, output=out)
    shape = {0: (1, 1, 24, 16), 1: (1, 1, 72, 16), 2: (1, 1, 72, 16)}
    second = attic.compile(source, entry="dynamic", shapes=shape, output=out)
    assert repr(first.inputs[0]) == "f32[1x1x40x16]"
    assert repr(second.inputs[0]) == "f32[1x1x24x16]"
    rng = np.random.default_rng(3)
    q = rng.uniform(-1, 1, (1, 1, 24, 16)).astype(np.float32)
    k = rng.uniform(-1, 1, (1, 1, 72, 16)).astype(np.float32)
    v = rng.uniform(-1, 1, (1, 1, 72, 16)).astype(np.float32)
    assert rel_err(second(q, k, v), reference(q, k, v)) < 1e-5
    # The first library stays loaded and callable.
    assert first(np.zeros((1, 1, 40, 16), np.float32), k, v).shape == \
        (1, 1, 40, 16)
    # No partial files are left next to the output.
    assert sorted(os.listdir(tmp_path)) == ["dynamic.h", "libdynamic.so"]


def test_thread_count_is_bounded():
    # libomp aborts past its limit; the count is clamped like attic-run's.
    assert attic.set_threads(2 ** 40) == 1024
    assert attic.set_threads(1) == 1
    # Not an integer: refused (1.9 was 1, "3" was 3; an audit).
    for bad in (1.9, "3", True, None):
        with pytest.raises(attic.AtticError, match="needs an integer"):
            attic.set_threads(bad)


def test_thread_count_zero_is_the_default_again():
    # 0 kept the last count set (a 2026-11-30 audit). Another count than
    # the default in between, whatever the default is.
    initial = attic.set_threads(0)
    assert attic.set_threads(initial + 1) == initial + 1
    assert attic.set_threads(0) == initial


OUT_OF_BOUNDS = """
func.func @oob(%a: tensor<4xf32>, %i: tensor<1xi64>) -> tensor<1xf32> {
  %c0 = arith.constant 0 : index
  %ii = tensor.extract %i[%c0] : tensor<1xi64>
  %idx = arith.index_cast %ii : i64 to index
  %x = tensor.extract %a[%idx] : tensor<4xf32>
  %r = tensor.from_elements %x : tensor<1xf32>
  return %r : tensor<1xf32>
}
"""

TWO_RUNTIMES = """
import sys
import numpy as np
import attic
f = attic.load(sys.argv[1], "oob")
try:
    f(np.arange(4, dtype=np.float32), np.array([9], np.int64))
    print("no error")
except attic.AtticError as e:
    print("AtticError:", e)
maps = open("/proc/self/maps").read().splitlines()
print("runtimes:", len({l.split()[-1] for l in maps if "libattic_rt" in l}))
"""


def test_one_runtime_when_the_library_brings_its_own(tmp_path):
    # A library whose run path finds a libattic_rt.so other than the one
    # next to attic-compile: the Python package used to open that one too,
    # and the compiled code's error went to the other copy (the call
    # returned [0.]; a 2026-11-30 audit). Here attic-compile is reached
    # through a wrapper whose ../lib holds a copy of the runtime.
    real = attic._find_compiler()
    (tmp_path / "bin").mkdir()
    (tmp_path / "lib").mkdir()
    wrapper = tmp_path / "bin" / "attic-compile"
    wrapper.write_text('#!/bin/sh\nexec "%s" "$@"\n' % real)
    wrapper.chmod(0o755)
    runtime = os.path.join(os.path.dirname(os.path.realpath(real)), "..",
                           "lib", "libattic_rt.so")
    (tmp_path / "lib" / "libattic_rt.so").write_bytes(
        open(runtime, "rb").read())
    source = tmp_path / "oob.mlir"
    source.write_text(OUT_OF_BOUNDS)
    library = str(tmp_path / "liboob.so")
    subprocess.run([real, str(source), "--entry=oob", "-o", library],
                   check=True)
    env = dict(os.environ, ATTIC_COMPILE=str(wrapper))
    done = subprocess.run(["/usr/bin/python3", "-c", TWO_RUNTIMES, library],
                          env=env, stdout=subprocess.PIPE, text=True,
                          check=True)
    assert "AtticError: @oob: tensor.extract" in done.stdout
    assert "index 9 of dimension 0 is outside [0, 4)" in done.stdout
    assert "runtimes: 1" in done.stdout


def test_output_is_never_the_input_or_the_header(source, tmp_path):
    # compile(p, output=p) replaced the source with the library, and an
    # output named like the header replaced the header (a 2026-11-30
    # audit); attic-compile refuses both.
    victim = tmp_path / "victim.mlir"
    victim.write_text(DENSE)
    with pytest.raises(attic.AtticError,
                       match="the output .*victim.mlir is the input file"):
        attic.compile(str(victim), entry="dense", output=str(victim))
    assert victim.read_text() == DENSE
    with pytest.raises(attic.AtticError, match="is the header"):
        attic.compile(source, entry="dense",
                      output=str(tmp_path / "dense.h"))
    with pytest.raises(attic.AtticError, match="is a directory"):
        attic.compile(source, entry="dense", output=str(tmp_path))


def test_options_and_unwritable_outputs(source, tmp_path, monkeypatch):
    # A string of options was split into characters; unwritable paths
    # raised FileNotFoundError.
    with pytest.raises(attic.AtticError, match="options must be a list of "
                       "strings"):
        attic.compile(source, entry="dense", options="--block-k=64")
    with pytest.raises(attic.AtticError, match="cannot write"):
        attic.compile(source, entry="dense", output="/proc/x/lib.so")
    monkeypatch.setenv("ATTIC_CACHE_DIR", "/proc/x/cache")
    with pytest.raises(attic.AtticError, match="cannot create the cache "
                       "directory"):
        attic.compile(source, entry="dense")


def test_a_cache_directory_others_may_write_is_refused(source, tmp_path,
                                                       monkeypatch):
    shared = tmp_path / "shared"
    shared.mkdir()
    shared.chmod(0o777)
    monkeypatch.setenv("ATTIC_CACHE_DIR", str(shared))
    with pytest.raises(attic.AtticError,
                       match="writable by its group or by others"):
        attic.compile(source, entry="dense")


def test_a_group_writable_cache_directory_is_refused(source, tmp_path,
                                                    monkeypatch):
    # Only the others' write bit was checked: a 0770 cache was used (a
    # 2026-12-02 audit).
    shared = tmp_path / "group"
    shared.mkdir()
    shared.chmod(0o770)
    monkeypatch.setenv("ATTIC_CACHE_DIR", str(shared))
    with pytest.raises(attic.AtticError, match="writable by its group or by "
                       "others"):
        attic.compile(source, entry="dense")


def test_cache_entries_are_private_directories_of_ours(source, tmp_path,
                                                      monkeypatch):
    # The per-entry subdirectory the library is loaded from was never
    # checked (a 2026-12-02 audit): made private when it is ours, refused
    # when it is a link or another user's; a cached library others may
    # write is replaced, not loaded again.
    cache = tmp_path / "cache"
    cache.mkdir(mode=0o700)
    monkeypatch.setenv("ATTIC_CACHE_DIR", str(cache))
    f = attic.compile(source, entry="dense")
    entry_dir = os.path.dirname(f.path)
    os.chmod(entry_dir, 0o777)
    os.chmod(f.path, 0o666)
    before = os.stat(f.path).st_ino
    g = attic.compile(source, entry="dense")
    assert g.path == f.path
    assert os.stat(entry_dir).st_mode & 0o777 == 0o700
    assert os.stat(f.path).st_ino != before
    assert not os.stat(f.path).st_mode & 0o022
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir(mode=0o700)
    shutil.rmtree(entry_dir)
    os.symlink(str(elsewhere), entry_dir)
    with pytest.raises(attic.AtticError, match="is not a directory"):
        attic.compile(source, entry="dense")
    assert os.listdir(str(elsewhere)) == []
    if os.getuid() == 0:
        os.unlink(entry_dir)
        os.mkdir(entry_dir, 0o700)
        os.chown(entry_dir, 65534, 65534)
        with pytest.raises(attic.AtticError, match="owned by another user"):
            attic.compile(source, entry="dense")


def test_outputs_through_links_and_not_regular_files(source, tmp_path):
    # The library was renamed over the output path: a symbolic link was
    # replaced instead of written through, and as root output="/dev/null"
    # replaced the device with the library (a 2026-12-02 audit).
    target = tmp_path / "target.so"
    target.write_text("old")
    link = tmp_path / "link.so"
    os.symlink(str(target), str(link))
    f = attic.compile(source, entry="dense", output=str(link))
    assert os.path.islink(str(link))
    assert target.read_bytes()[:4] == b"\x7fELF"
    assert os.path.samefile(f.path, str(target))
    fifo = tmp_path / "fifo.so"
    os.mkfifo(str(fifo))
    with pytest.raises(attic.AtticError, match="is not a regular file"):
        attic.compile(source, entry="dense", output=str(fifo))
    assert stat.S_ISFIFO(os.lstat(str(fifo)).st_mode)
    with pytest.raises(attic.AtticError, match="is not a regular file"):
        attic.compile(source, entry="dense", output="/dev/null")
    assert stat.S_ISCHR(os.lstat("/dev/null").st_mode)


def test_a_default_cache_directory_of_ours_is_made_private(tmp_path,
                                                           monkeypatch):
    # Earlier versions created it with the umask's mode (0775 under a
    # umask of 002): made private, not refused.
    (tmp_path / "aot").mkdir()
    (tmp_path / "aot").chmod(0o775)
    monkeypatch.delenv("ATTIC_CACHE_DIR", raising=False)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    assert attic._cache_dir() == str(tmp_path / "aot")
    assert (tmp_path / "aot").stat().st_mode & 0o777 == 0o700


def test_options_from_a_generator_and_cpu_in_options(source, tmp_path):
    # A generator of options was read by the check and then compiled
    # without them; a --cpu= among the options replaces cpu= (attic-compile
    # refuses an option given twice).
    shapes = ["--shape=%d:1x1x40x16" % i for i in range(3)]
    f = attic.compile(source, entry="dynamic", options=(o for o in shapes),
                      output=str(tmp_path / "libgen.so"))
    assert f.inputs[0].shape == (1, 1, 40, 16)
    attic.compile(source, entry="dense", options=["--cpu=x86-64"],
                  output=str(tmp_path / "libcpu.so"))
    with pytest.raises(attic.AtticError, match="give the entry with entry="):
        attic.compile(source, entry="dense", options=["--entry=dense"])
    # The other spellings LLVM's options take (one dash, the value as the
    # next argument) were "given 2 times" (an audit).
    attic.compile(source, entry="dense", options=["--cpu", "x86-64"],
                  output=str(tmp_path / "libcpu2.so"))
    attic.compile(source, entry="dense", options=["-cpu=x86-64"],
                  output=str(tmp_path / "libcpu3.so"))
    with pytest.raises(attic.AtticError, match="give the entry with entry="):
        attic.compile(source, entry="dense", options=["-entry=dense"])


def test_arguments_of_other_types_are_named(source):
    # Python's TypeError from deep inside before (an audit).
    with pytest.raises(attic.AtticError, match="cpu must be a string"):
        attic.compile(source, entry="dense", cpu=None)
    with pytest.raises(attic.AtticError, match="entry must be a string"):
        attic.compile(source, entry=b"dense")


def test_recompiling_after_a_reload_loads_the_new_library(source, tmp_path):
    # The table of loaded libraries belongs to one instance of the module:
    # after importlib.reload (or with a second copy of the package) the
    # loader gave back the library an earlier instance had loaded from the
    # same path, and the new library was never called (a 2026-11-30 audit).
    import importlib
    out = str(tmp_path / "libdynamic.so")
    shape = {0: (1, 1, 40, 16), 1: (1, 1, 72, 16), 2: (1, 1, 72, 16)}
    first = attic.compile(source, entry="dynamic", shapes=shape, output=out)
    assert repr(first.inputs[0]) == "f32[1x1x40x16]"
    fresh = importlib.reload(attic)
    try:
        shape = {0: (1, 1, 24, 16), 1: (1, 1, 72, 16), 2: (1, 1, 72, 16)}
        second = fresh.compile(source, entry="dynamic", shapes=shape,
                               output=out)
        assert repr(second.inputs[0]) == "f32[1x1x24x16]"
        # Loaded again unchanged: the same private copy, not a new one.
        again = fresh.load(out, "dynamic")
        assert again._lib is second._lib
    finally:
        globals()["attic"] = fresh


def test_compile_refuses_what_is_not_a_library(source, tmp_path,
                                              monkeypatch):
    # Options that make attic-compile write something else, and a compiler
    # that exits 0 without a library, replaced a good output with what was
    # written (an object file, an empty file) and failed only on loading.
    out = str(tmp_path / "libdense.so")
    attic.compile(source, entry="dense", output=out)
    size = os.path.getsize(out)
    for option in ("--emit=obj", "--help", "--version", "-o=x.so",
                   "--print-pipeline"):
        with pytest.raises(attic.AtticError, match="cannot be among the "
                           "options"):
            attic.compile(source, entry="dense", output=out,
                          options=[option])
    monkeypatch.setenv("ATTIC_COMPILE", "/bin/true")
    with pytest.raises(attic.AtticError, match="wrote no shared library"):
        attic.compile(source, entry="dense", output=out)
    assert os.path.getsize(out) == size
    # A directory, and a bare name that is not on PATH.
    monkeypatch.setenv("ATTIC_COMPILE", str(tmp_path))
    with pytest.raises(attic.AtticError, match="not an executable file"):
        attic.compile(source, entry="dense", output=out)
    monkeypatch.setenv("ATTIC_COMPILE", "no-such-attic-compile")
    with pytest.raises(attic.AtticError, match="not an executable file"):
        attic.compile(source, entry="dense", output=out)
    # A bare name is looked up on PATH only, not in the working directory.
    (tmp_path / "attic-compile-here").write_text("#!/bin/sh\nexit 0\n")
    (tmp_path / "attic-compile-here").chmod(0o755)
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("PATH", "/usr/bin:/bin")  # no "." or empty entry
    monkeypatch.setenv("ATTIC_COMPILE", "attic-compile-here")
    with pytest.raises(attic.AtticError, match="not an executable file on "
                       "PATH"):
        attic.compile(source, entry="dense", output=out)
    # A file that cannot be executed (no #! line): AtticError, not OSError.
    script = tmp_path / "noexec"
    script.write_text("echo hi\n")
    script.chmod(0o755)
    monkeypatch.setenv("ATTIC_COMPILE", str(script))
    with pytest.raises(attic.AtticError, match="cannot run"):
        attic.compile(source, entry="dense", output=out)


def test_entry_must_be_an_identifier(source, tmp_path, monkeypatch):
    # entry= became a path of the cache before attic-compile refused it.
    cache = tmp_path / "cache"
    monkeypatch.setenv("ATTIC_CACHE_DIR", str(cache))
    for entry in ("a/b", str(tmp_path / "abs"), "1x", "a-b"):
        with pytest.raises(attic.AtticError, match="not a C identifier"):
            attic.compile(source, entry=entry)
    assert os.listdir(tmp_path) in ([], ["cache"])
    assert not cache.exists() or os.listdir(cache) == []


def test_set_threads_without_attic_compile(tmp_path):
    # An installed prefix P without attic-compile (libraries built
    # elsewhere): the runtime is P/lib/libattic_rt.so next to the package
    # in P/lib/python/attic; it was looked for next to attic-compile only.
    import shutil
    lib = tmp_path / "lib"
    (lib / "python").mkdir(parents=True)
    shutil.copytree(os.path.dirname(attic.__file__),
                    str(lib / "python" / "attic"),
                    ignore=shutil.ignore_patterns("__pycache__"))
    compiler = attic._find_compiler()
    runtime = os.path.join(os.path.dirname(os.path.realpath(compiler)),
                           "..", "lib", "libattic_rt.so")
    shutil.copy(runtime, str(lib / "libattic_rt.so"))
    env = {"PATH": "/usr/bin:/bin", "PYTHONPATH": str(lib / "python")}
    done = subprocess.run(
        [sys.executable, "-c",
         "import attic; print(attic.set_threads(1), attic.__file__)"],
        env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("1 " + str(lib))


def test_a_truncated_library_is_refused(dense, tmp_path):
    # dlopen maps the segments of a truncated copy and the process died of
    # SIGBUS on the missing pages.
    data = open(dense.path, "rb").read()
    cut = tmp_path / "libcut.so"
    cut.write_bytes(data[:5000])
    with pytest.raises(attic.AtticError, match="is truncated"):
        attic.load(str(cut), "dense")


IDENT = """
func.func @ident(%a: tensor<4xf32>) -> tensor<4xf32> {
  return %a : tensor<4xf32>
}
"""


def test_a_source_named_like_an_option(tmp_path, monkeypatch):
    # compile("-") handed "-" to attic-compile, which read its standard
    # input instead of the file (and "--help" was taken for the option;
    # a 2026-11-30 audit).
    monkeypatch.chdir(tmp_path)
    x = np.arange(4, dtype=np.float32)
    for name in ("-", "--help", "-o"):
        (tmp_path / name).write_text(IDENT)
        f = attic.compile(name, entry="ident",
                          output=str(tmp_path / "libident.so"))
        assert np.array_equal(f(x), x)


def test_a_source_or_output_named_like_a_response_file(tmp_path,
                                                       monkeypatch):
    # LLVM reads an argument "@file" as the arguments in that file:
    # compile("@ident.mlir") passed the lines of ident.mlir to
    # attic-compile when that file existed (an audit); an output directory
    # starting with "@" did the same with the partial library.
    monkeypatch.chdir(tmp_path)
    x = np.arange(4, dtype=np.float32)
    (tmp_path / "ident.mlir").write_text(IDENT)
    (tmp_path / "@ident.mlir").write_text(IDENT)
    f = attic.compile("@ident.mlir", entry="ident",
                      output=str(tmp_path / "libident.so"))
    assert np.array_equal(f(x), x)
    (tmp_path / "@out").mkdir()
    f = attic.compile("ident.mlir", entry="ident",
                      output=os.path.join("@out", "libident.so"))
    assert np.array_equal(f(x), x)


def test_recompiling_unchanged_source_loads_no_new_copy(source, tmp_path):
    # Each compile() replaced the library with an identical one of another
    # inode, which was loaded from a private copy kept for good: memory
    # and mappings grew with every call (a 2026-11-30 audit).
    out = str(tmp_path / "libdense.so")
    first = attic.compile(source, entry="dense", output=out)
    copies = len(attic._COPIES)
    inode = os.stat(out).st_ino
    for _ in range(3):
        again = attic.compile(source, entry="dense", output=out)
        assert again._lib._handle == first._lib._handle
    assert len(attic._COPIES) == copies
    assert os.stat(out).st_ino == inode


def test_library_mode_follows_the_umask(source, tmp_path):
    # mkstemp's 0600 reached the library (attic-compile keeps the mode of
    # the file it replaces); attic-compile -o gives rwxr-xr-x less the umask.
    old = os.umask(0o027)
    try:
        attic.compile(source, entry="dense", output=str(tmp_path / "lib.so"))
    finally:
        os.umask(old)
    assert os.stat(tmp_path / "lib.so").st_mode & 0o777 == 0o750


def test_shapes_and_masked_arrays_are_refused(source, dense):
    # A float size was truncated (8.7 compiled as 8), and a masked array's
    # mask was ignored, without a word.
    with pytest.raises(attic.AtticError, match="shapes of integers"):
        attic.compile(source, entry="dynamic", shapes={0: (1, 1, 8.7, 16)})
    q = np.ma.masked_array(np.zeros((1, 2, 256, 32), np.float32))
    with pytest.raises(attic.AtticError, match="masked array"):
        dense(q, q.data, q.data)


def test_a_replaced_corrupt_library_is_named(source, tmp_path):
    # A replaced library is loaded from a private copy; the loader's
    # message named that copy, deleted by then (an audit).
    out = str(tmp_path / "libreplaced.so")
    attic.compile(source, entry="dense", output=out)
    with open(out + ".tmp", "wb") as bad:
        bad.write(b"\x7fELF" + b"\0" * 100)
    os.replace(out + ".tmp", out)
    with pytest.raises(attic.AtticError) as error:
        attic.load(out, "dense")
    assert out in str(error.value).split(": ", 1)[1]
    assert "attic-" not in os.path.basename(str(error.value).split(":")[1])
