"""attic from Python: compile an attic function ahead of time, call it on
NumPy arrays.

    import numpy as np, attic
    attention = attic.compile("examples/attention.mlir", entry="attention_f32")
    out = attention(q, k, v)        # float32 arrays [1, 4, 4096, 64]

`compile` runs attic-compile (docs/aot.md) and loads the library it writes;
`load` loads a library built before. The returned callable checks each
argument's dtype, shape and layout against the entry's signature (read from
the library's `F__attic_entry`), allocates the results and returns them
(one array, or a tuple). PyTorch CPU tensors are passed through their NumPy
view, without a copy, and the results come back as tensors.

Pure Python over ctypes and NumPy: no install step; put this directory
(`python/` of the source tree) on PYTHONPATH. attic-compile is found through
$ATTIC_COMPILE, then ../../build/tools next to this file, then PATH.
"""

import ctypes
import filecmp
import hashlib
import operator
import os
import re
import shutil
import stat
import struct
import subprocess
import tempfile

import numpy as np

__all__ = ["AtticError", "Function", "compile", "load", "set_threads"]

ABI_VERSION = 1

# attic_dtype (attic/runtime/Runtime.h) -> (name, NumPy dtype). f16 is
# float16; bf16 has no NumPy dtype and travels as its uint16 bit patterns;
# i1 is one byte per element (bool).
_DTYPES = {
    0: ("f32", np.dtype(np.float32)),
    1: ("f16", np.dtype(np.float16)),
    2: ("bf16", np.dtype(np.uint16)),
    3: ("f64", np.dtype(np.float64)),
    4: ("i1", np.dtype(np.bool_)),
    5: ("i8", np.dtype(np.int8)),
    6: ("i32", np.dtype(np.int32)),
    7: ("i64", np.dtype(np.int64)),
}


class AtticError(RuntimeError):
    """A failure of attic-compile, of loading a library, or of a call."""


class _Entry(ctypes.Structure):
    # struct attic_aot_entry (attic/runtime/Aot.h).
    _fields_ = [
        ("abi_version", ctypes.c_int64),
        ("name", ctypes.c_char_p),
        ("target", ctypes.c_char_p),
        ("triple", ctypes.c_char_p),
        ("cpu", ctypes.c_char_p),
        ("features", ctypes.c_char_p),
        ("num_inputs", ctypes.c_int64),
        ("num_results", ctypes.c_int64),
        ("specs", ctypes.POINTER(ctypes.c_int64)),
        ("packed", ctypes.c_void_p),
    ]


def _source_build_dir():
    here = os.path.dirname(os.path.abspath(__file__))
    return os.path.normpath(os.path.join(here, "..", "..", "build"))


def _find_compiler():
    explicit = os.environ.get("ATTIC_COMPILE")
    if explicit:
        if os.sep not in explicit:
            # A bare name: looked up on PATH, as a shell (and subprocess)
            # would; a file of that name in the working directory is not
            # it.
            found = shutil.which(explicit)
            if found:
                return found
            raise AtticError("ATTIC_COMPILE=%s is not an executable file "
                             "on PATH" % explicit)
        if not os.path.isfile(explicit) or not os.access(explicit, os.X_OK):
            raise AtticError("ATTIC_COMPILE=%s is not an executable file"
                             % explicit)
        return explicit
    here = os.path.dirname(os.path.abspath(__file__))
    for candidate in (
            # a source checkout: python/attic -> build/tools
            os.path.join(_source_build_dir(), "tools", "attic-compile"),
            # an installed prefix P: P/lib/python/attic -> P/bin
            os.path.normpath(os.path.join(here, "..", "..", "..", "bin",
                                          "attic-compile"))):
        if os.access(candidate, os.X_OK):
            return candidate
    found = shutil.which("attic-compile")
    if found:
        return found
    raise AtticError(
        "attic-compile not found: build attic (./scripts/setup.sh), set "
        "ATTIC_COMPILE, or put it on PATH")


_runtime = None


def _runtime_library(library_path=None):
    """libattic_rt.so, loaded once: the one a library depends on (its run
    path finds it), else the one next to attic-compile. One copy per
    process: a library loaded first brings its own, which is used (found
    by its soname with RTLD_NOLOAD); opening the one next to attic-compile
    by its path as well made two runtimes, and an error that the compiled
    code reported to its copy was never seen, the call returning a wrong
    result (a 2026-11-30 audit). A runtime loaded first is the one every
    library loaded later links to (the loader matches the soname)."""
    global _runtime
    if _runtime is not None:
        return _runtime
    lib = None
    try:
        lib = ctypes.CDLL("libattic_rt.so",
                          mode=os.RTLD_NOW | getattr(os, "RTLD_NOLOAD", 4))
    except OSError:
        pass
    if lib is not None:
        _runtime = _declare_runtime(lib)
        return _runtime
    here = os.path.dirname(os.path.abspath(__file__))
    # The runtime without attic-compile (libraries built elsewhere): the
    # installed prefix's P/lib (this file is P/lib/python/attic), the
    # source checkout's build/lib, then the loader's search path.
    candidates = [
        os.path.normpath(os.path.join(here, "..", "..", "libattic_rt.so")),
        os.path.join(_source_build_dir(), "lib", "libattic_rt.so"),
        "libattic_rt.so"]
    candidates = [c for c in candidates if "/" not in c or os.path.isfile(c)]
    compiler_dir = None
    try:
        compiler_dir = os.path.dirname(os.path.realpath(_find_compiler()))
    except AtticError:
        pass
    if compiler_dir:
        candidates.insert(0, os.path.join(compiler_dir, "..", "lib",
                                          "libattic_rt.so"))
    errors = []
    for candidate in candidates:
        try:
            lib = ctypes.CDLL(candidate)
            break
        except OSError as e:
            errors.append(str(e))
    else:
        raise AtticError("cannot load libattic_rt.so: " + "; ".join(errors))
    _runtime = _declare_runtime(lib)
    return _runtime


def _declare_runtime(lib):
    """`lib` (libattic_rt.so) with the argument types of its AOT API."""
    lib.attic_aot_call.argtypes = [ctypes.POINTER(_Entry),
                                   ctypes.POINTER(ctypes.c_void_p),
                                   ctypes.POINTER(ctypes.c_void_p)]
    lib.attic_aot_call.restype = ctypes.c_int32
    lib.attic_aot_check.argtypes = [ctypes.POINTER(_Entry)]
    lib.attic_aot_check.restype = ctypes.c_int32
    lib.attic_aot_last_error.argtypes = []
    lib.attic_aot_last_error.restype = ctypes.c_char_p
    lib.attic_aot_set_threads.argtypes = [ctypes.c_int32]
    lib.attic_aot_set_threads.restype = ctypes.c_int32
    return lib


def set_threads(n):
    """Threads of the compiled parallel loops and of OpenBLAS (n <= 0: the
    default, OMP_NUM_THREADS or all cores; at most 1024, larger counts
    are clamped). Returns the count in effect; it applies to calls from
    every thread. Raises AtticError when OMP_NUM_THREADS is invalid."""
    # operator.index: 1.9 was truncated to 1 and "3" read as 3 (an audit).
    if isinstance(n, bool):
        raise AtticError("set_threads needs an integer, got %r" % (n,))
    try:
        n = operator.index(n)
    except TypeError:
        raise AtticError("set_threads needs an integer, got %r" % (n,)) \
            from None
    if n > 1024:
        n = 1024
    runtime = _runtime_library()
    threads = int(runtime.attic_aot_set_threads(max(n, 0)))
    if threads < 0:
        raise AtticError(runtime.attic_aot_last_error().decode())
    return threads


class _Spec:
    def __init__(self, dtype_code, shape):
        if dtype_code not in _DTYPES:
            raise AtticError("the library's signature has an unknown dtype "
                             "code %d" % dtype_code)
        self.name, self.dtype = _DTYPES[dtype_code]
        self.shape = tuple(shape)

    def __repr__(self):
        return "%s[%s]" % (self.name, "x".join(str(s) for s in self.shape))


# The file identity (device, inode, mtime) of each library loaded under its
# own path in this process (None: loaded before this instance of the module
# knew of it), and the libraries loaded from private copies, by path and
# identity.
_LOADED = {}
_COPIES = {}


def _check_segments(path):
    """Raises AtticError when `path` is an ELF64 file whose loadable
    segments reach past its end (a truncated copy): dlopen maps them, and
    touching the missing pages killed the process with SIGBUS."""
    import struct
    with open(path, "rb") as f:
        size = os.fstat(f.fileno()).st_size
        head = f.read(64)
        if len(head) < 64 or head[:4] != b"\x7fELF" or head[4] != 2 \
                or head[5] != 1:
            return  # not ELF64 little-endian: dlopen's own message
        phoff, = struct.unpack_from("<Q", head, 32)
        phentsize, phnum = struct.unpack_from("<HH", head, 54)
        if phentsize != 56:
            return
        for i in range(phnum):
            f.seek(phoff + i * phentsize)
            entry = f.read(phentsize)
            if len(entry) < phentsize:
                break
            kind, = struct.unpack_from("<I", entry, 0)
            offset, = struct.unpack_from("<Q", entry, 8)
            filesz, = struct.unpack_from("<Q", entry, 32)
            if kind == 1 and offset + filesz > size:  # PT_LOAD past the end
                break
        else:
            return
    raise AtticError("%s is truncated (its program headers or a loadable "
                     "segment reach past the end of the file)" % path)


def _load(path):
    """dlopen of `path`. The loader hands back the library it loaded from a
    path before, even when the file has been replaced since (compile() to
    the same output again): a replaced file is loaded from a private copy."""
    _check_segments(path)
    st = os.stat(path)
    identity = (st.st_dev, st.st_ino, st.st_mtime_ns)
    mode = os.RTLD_NOW | os.RTLD_LOCAL
    if path not in _LOADED:
        # Loaded already, but not by this instance of the module (a
        # reloaded module, a second copy of the package): which file that
        # was is unknown, so a private copy is loaded (the loader gave the
        # old library back after a reload; a 2026-11-30 audit).
        try:
            ctypes.CDLL(path, mode=mode | getattr(os, "RTLD_NOLOAD", 4))
            _LOADED[path] = None
        except OSError:
            pass
    if _LOADED.setdefault(path, identity) == identity:
        return ctypes.CDLL(path, mode=mode)
    if (path, identity) in _COPIES:
        return _COPIES[(path, identity)]
    fd, copy = tempfile.mkstemp(prefix="attic-", suffix=".so")
    try:
        with os.fdopen(fd, "wb") as out, open(path, "rb") as src:
            shutil.copyfileobj(src, out)
        try:
            lib = ctypes.CDLL(copy, mode=mode)
        except OSError as e:
            # The loader names the private copy, gone when this is read
            # (an audit): the message names the library.
            raise OSError(str(e).replace(copy, path)) from None
    finally:
        os.unlink(copy)
    _COPIES[(path, identity)] = lib
    return lib


class Function:
    """A compiled entry point: call it with one array per argument."""

    def __init__(self, library_path, entry):
        # A named error, as compile()'s (entry=None or b"f" was Python's
        # TypeError from the symbol's concatenation below; an audit).
        if not isinstance(entry, str) or not entry:
            raise AtticError("entry must be a function's name (a non-empty "
                             "string), got %r" % (entry,))
        self.path = os.path.abspath(os.fsdecode(os.fspath(library_path)))
        self.entry = entry
        if not os.path.isfile(self.path):
            raise AtticError("%s: no such library" % library_path)
        try:
            self._lib = _load(self.path)
        except OSError as e:
            raise AtticError("cannot load %s: %s" % (library_path, e)) from None
        self._rt = _runtime_library()
        symbol = entry + "__attic_entry"
        try:
            self._entry = _Entry.in_dll(self._lib, symbol)
        except ValueError:
            raise AtticError("%s has no entry '%s' (no symbol %s); was it "
                             "built by attic-compile --entry=%s?"
                             % (library_path, entry, symbol, entry)) from None
        if self._rt.attic_aot_check(ctypes.byref(self._entry)) != 0:
            raise AtticError(self._rt.attic_aot_last_error().decode())
        specs, at = [], 0
        count = self._entry.num_inputs + self._entry.num_results
        raw = self._entry.specs
        for _ in range(count):
            rank = raw[at + 1]
            specs.append(_Spec(raw[at], [raw[at + 2 + d] for d in range(rank)]))
            at += 2 + rank
        self.inputs = specs[:self._entry.num_inputs]
        self.results = specs[self._entry.num_inputs:]

    def __repr__(self):
        return "<attic.Function %s(%s) -> (%s) from %s>" % (
            self.entry, ", ".join(map(repr, self.inputs)),
            ", ".join(map(repr, self.results)), self.path)

    def _array(self, index, value):
        spec = self.inputs[index]
        if hasattr(value, "numpy") and not isinstance(value, np.ndarray):
            # A PyTorch CPU tensor: its NumPy view shares the memory.
            try:
                value = value.detach().numpy()
            except (RuntimeError, TypeError, AttributeError) as e:
                raise AtticError("argument #%d of @%s: cannot view it as a "
                                 "NumPy array (%s)" % (index, self.entry, e)) \
                    from None
        if not isinstance(value, np.ndarray):
            raise AtticError("argument #%d of @%s must be a NumPy array of %r, "
                             "got %s" % (index, self.entry, spec,
                                         type(value).__name__))
        if isinstance(value, np.ma.MaskedArray):
            # Its mask would be ignored: the compiled code reads the data.
            raise AtticError("argument #%d of @%s is a masked array, whose "
                             "mask the compiled code would not see; pass "
                             "x.filled(value) or x.data" % (index, self.entry))
        if value.dtype != spec.dtype:
            raise AtticError("argument #%d of @%s must be %r (NumPy %s), got "
                             "dtype %s" % (index, self.entry, spec,
                                           spec.dtype, value.dtype))
        if value.shape != spec.shape:
            raise AtticError("argument #%d of @%s must have shape %s, got %s"
                             % (index, self.entry, spec.shape, value.shape))
        if not value.flags["C_CONTIGUOUS"]:
            raise AtticError("argument #%d of @%s is not C-contiguous (row-"
                             "major); pass np.ascontiguousarray(x)"
                             % (index, self.entry))
        if spec.dtype == np.bool_:
            # Compiled code reads an i1 byte as 0 or 1 (its low bit): a
            # NumPy bool whose byte is another nonzero value (a uint8 array
            # viewed as bool) is true to NumPy and must reach it as 1.
            raw = value.view(np.uint8)
            if raw.size and raw.max() > 1:
                value = raw != 0
        return value

    def __call__(self, *args):
        if len(args) != len(self.inputs):
            raise AtticError("@%s takes %d arguments, got %d"
                             % (self.entry, len(self.inputs), len(args)))
        torch_in = any(type(a).__module__.startswith("torch") for a in args)
        arrays = [self._array(i, a) for i, a in enumerate(args)]
        outs = [np.empty(s.shape, dtype=s.dtype) for s in self.results]
        inputs = (ctypes.c_void_p * max(len(arrays), 1))(
            *[a.ctypes.data for a in arrays])
        results = (ctypes.c_void_p * max(len(outs), 1))(
            *[o.ctypes.data for o in outs])
        status = self._rt.attic_aot_call(ctypes.byref(self._entry), inputs,
                                         results)
        if status != 0:
            raise AtticError(self._rt.attic_aot_last_error().decode())
        if torch_in:
            import torch  # only when the caller passed tensors
            outs = [torch.from_numpy(o) for o in outs]
        return outs[0] if len(outs) == 1 else tuple(outs)


def load(library_path, entry):
    """The entry `entry` of a library written by attic-compile."""
    return Function(library_path, entry)


def _umask():
    """The process's umask, read without changing it (os.umask sets it, and
    another thread could create a file meanwhile); 0o022 where /proc does
    not say."""
    try:
        with open("/proc/self/status") as f:
            for line in f:
                if line.startswith("Umask:"):
                    return int(line.split()[1], 8)
    except (OSError, ValueError):
        pass
    return 0o022


def _same_contents(a, b):
    """Whether the files `a` and `b` hold the same bytes (False when `b`
    does not exist or cannot be read)."""
    try:
        return filecmp.cmp(a, b, shallow=False)
    except OSError:
        return False


def _cache_dir():
    """The directory of compiled libraries. Libraries are loaded from it, so
    one that another user owns, or that its group or others may write, is
    refused; the default ones (under XDG_CACHE_HOME or the shared temporary
    directory) are made private (0700) when this user owns them (versions
    before 2026-11-30 created them with the umask's mode)."""
    base = os.environ.get("ATTIC_CACHE_DIR")
    chosen = bool(base)
    shared = False
    if not base:
        xdg = os.environ.get("XDG_CACHE_HOME")
        shared = not xdg
        base = os.path.join(xdg or os.path.join(tempfile.gettempdir(),
                                                "attic-%d" % os.getuid()),
                            "aot")
    try:
        if shared:
            os.makedirs(os.path.dirname(base), mode=0o700, exist_ok=True)
        os.makedirs(base, mode=0o700, exist_ok=True)
        for directory in ([os.path.dirname(base)] if shared else []) + [base]:
            st = os.stat(directory)
            if st.st_uid != os.getuid():
                raise AtticError(
                    "the cache directory %s is owned by another user; "
                    "libraries are loaded from it (set ATTIC_CACHE_DIR to a "
                    "directory of your own, or pass output=)" % directory)
            if not chosen and st.st_mode & 0o077:
                os.chmod(directory, 0o700)
            elif st.st_mode & 0o022:
                # Group write too (a 0770 cache was accepted before
                # 2026-12-02, an audit): a member could swap a library
                # between its rename and its load.
                raise AtticError(
                    "the cache directory %s is writable by its group or by "
                    "others; libraries are loaded from it (chmod go-w it, or "
                    "choose another with ATTIC_CACHE_DIR)" % directory)
    except OSError as e:
        raise AtticError("cannot create the cache directory %s: %s (set "
                         "ATTIC_CACHE_DIR or pass output=)"
                         % (base, e.strerror or e)) from None
    return base


def _private_subdirectory(directory):
    """Creates (or checks) `directory`, a subdirectory of the cache that a
    library is loaded from: a directory of this user's, made private (0700),
    not a symbolic link. The cache's own check did not reach it before
    2026-12-02 (an audit: one another user owned and anyone could write was
    used)."""
    try:
        os.makedirs(directory, mode=0o700, exist_ok=True)
        st = os.lstat(directory)
        if not stat.S_ISDIR(st.st_mode):
            raise AtticError("the cache entry %s is not a directory; "
                             "libraries are loaded from it (remove it)"
                             % directory)
        if st.st_uid != os.getuid():
            raise AtticError("the cache entry %s is owned by another user; "
                             "libraries are loaded from it (remove it, or "
                             "set ATTIC_CACHE_DIR to a directory of your "
                             "own)" % directory)
        if st.st_mode & 0o077:
            os.chmod(directory, 0o700)
    except OSError as e:
        raise AtticError("cannot create the cache directory %s: %s (set "
                         "ATTIC_CACHE_DIR or pass output=)"
                         % (directory, e.strerror or e)) from None


def _trusted_library(path):
    """Whether the existing library at `path` may be loaded again as it is:
    a regular file of this user's that neither group nor others may
    write."""
    try:
        st = os.lstat(path)
    except OSError:
        return False
    return (stat.S_ISREG(st.st_mode) and st.st_uid == os.getuid() and
            not st.st_mode & 0o022)


def _path_argument(path):
    """`path` as a command-line argument of attic-compile that names the
    file: "./" before one that starts with "-" (an option; "-" alone is
    standard input: compile("-") compiled stdin, a 2026-11-30 audit) or "@"
    (LLVM reads "@file" as a file of arguments: compile("@x.mlir") passed
    the lines of x.mlir as arguments, an audit)."""
    if path.startswith(("-", "@")):
        return os.path.join(os.curdir, path)
    return path


def compile(path, entry=None, shapes=None, cpu="host", options=(),
            output=None):
    """Compiles @entry of the .mlir file `path` with attic-compile and
    returns the callable. `shapes` maps argument indices to static shapes
    for dynamic dims; `options` are more attic-compile flags
    ("--block-k=64"); `output` is where the library goes (default: a cache
    keyed by the file's text and the options; compiled again on every
    call)."""
    path = os.fsdecode(os.fspath(path))
    if not os.path.isfile(path):
        raise AtticError("%s: no such file" % path)
    source = _path_argument(path)
    if not entry:
        raise AtticError("compile() needs entry= (the function to compile)")
    # Named errors, not Python's TypeError from deep inside (cpu=None,
    # entry=b"f"; an audit).
    if not isinstance(entry, str):
        raise AtticError("entry must be a string, got %r" % (entry,))
    if not isinstance(cpu, str):
        raise AtticError("cpu must be a string (\"host\" or an LLVM CPU "
                         "name), got %r" % (cpu,))
    if isinstance(options, (str, bytes)):
        raise AtticError("options must be a list of strings, one flag each "
                         "(e.g. [\"--block-k=64\"]), got %r" % (options,))
    options = list(options)  # a generator is read once
    if not all(isinstance(o, str) for o in options):
        raise AtticError("options must be a list of strings, one flag each "
                         "(e.g. [\"--block-k=64\"]), got %r" % (options,))
    if not re.fullmatch(r"[A-Za-z_][A-Za-z0-9_]*", entry):
        raise AtticError("entry=%r is not a C identifier (the library's "
                         "symbols are named after it)" % (entry,))
    # LLVM's options take one or two dashes and their value after `=` or
    # as the next argument: `-entry=g` and `--cpu x86-64` too.
    def flag_of(option):
        name = option.split("=", 1)[0]
        return "--" + name.lstrip("-") if name.startswith("-") else name
    flags = [flag_of(o) for o in options]
    if "--entry" in flags:
        raise AtticError("give the entry with entry=, not in options")
    for o in options:
        flag = o.split("=", 1)[0]
        if flag in ("--emit", "-emit") or \
                o.startswith("-o") or o.lstrip("-").startswith(
                    ("help", "version", "print-")):
            raise AtticError("%s cannot be among the options: compile() "
                             "writes a shared library to output= and loads "
                             "it" % o)
    # A --cpu= among the options replaces the cpu= argument (attic-compile
    # refuses an option given twice).
    args = ([] if "--cpu" in flags
            else ["--cpu=" + cpu]) + ["--entry=" + entry] + options
    try:
        for index, shape in sorted((shapes or {}).items()):
            # operator.index: 8.7 was truncated to 8 without a word.
            args.append("--shape=%d:%s" % (
                operator.index(index),
                "x".join(str(operator.index(s)) for s in shape)))
    except (TypeError, AttributeError):
        raise AtticError("shapes must map argument indices to shapes of "
                         "integers, e.g. {0: (1, 4, 128, 64)}; got %r"
                         % (shapes,)) from None
    cached = output is None
    if cached:
        with open(path, "rb") as f:
            key = hashlib.sha256(f.read() + "\0".join(args).encode())
        subdirectory = os.path.join(
            _cache_dir(), "%s-%s" % (entry, key.hexdigest()[:16]))
        _private_subdirectory(subdirectory)
        output = os.path.join(subdirectory, "lib%s.so" % entry)
    output = os.fsdecode(os.fspath(output))
    # A symbolic link is written through, as attic-compile -o does: the
    # library replaces the file it names (the rename replaced the link
    # itself before 2026-12-02, an audit). compile() loads what it writes,
    # so an output that is not a regular file (a device, a FIFO) is
    # refused: attic-compile writes into one, and the rename replaced
    # /dev/null with the library (an audit).
    if os.path.islink(output):
        output = os.path.realpath(output)
    if os.path.exists(output) and not os.path.isdir(output) and \
            not os.path.isfile(output):
        raise AtticError("the output %s is not a regular file; compile() "
                         "loads the library it writes from it (use "
                         "attic-compile -o to write into a device)" % output)
    directory = os.path.dirname(os.path.abspath(output))
    # attic-compile refuses an output that is its input or the header it
    # writes; the library reaches `output` by a rename here, so the same
    # checks are made here (compile(p, output=p) replaced the source with
    # the library; a 2026-11-30 audit).
    header = os.path.join(directory, entry + ".h")
    for other, what in ((path, "the input file"), (header, "the header")):
        if os.path.realpath(output) == os.path.realpath(other) or (
                os.path.exists(output) and os.path.exists(other) and
                os.path.samefile(output, other)):
            raise AtticError("the output %s is %s" % (output, what))
    if os.path.isdir(output):
        raise AtticError("the output %s is a directory" % output)
    try:
        os.makedirs(directory, exist_ok=True)
        # Into a file of its own, then renamed into place (atomic): another
        # process loading `output` meanwhile sees the old library or the
        # new one, never a half-written file.
        fd, partial = tempfile.mkstemp(prefix=".attic-", suffix=".so",
                                       dir=directory)
    except OSError as e:
        raise AtticError("cannot write %s: %s" % (output, e.strerror or e)) \
            from None
    os.close(fd)
    try:
        # The library gets a shared library's usual mode (rwxr-xr-x less
        # the umask), as attic-compile -o gives it: attic-compile keeps the
        # mode of the file it replaces, and mkstemp's is 0600.
        os.chmod(partial, 0o755 & ~_umask())
        command = [_find_compiler(), source, "-o", _path_argument(partial)]
        command += args
        try:
            done = subprocess.run(command, stdout=subprocess.PIPE,
                                  stderr=subprocess.PIPE, text=True)
        except OSError as e:
            raise AtticError("cannot run %s: %s" % (command[0],
                                                    e.strerror or e)) \
                from None
        if done.returncode != 0:
            raise AtticError((done.stderr or done.stdout).strip() or
                             "attic-compile failed with status %d"
                             % done.returncode)
        # Only a shared library replaces `output` (an ELF file of type
        # ET_DYN): a compiler that exits 0 without writing one left an
        # empty file there before.
        with open(partial, "rb") as f:
            head = f.read(18)
        if len(head) < 18 or head[:4] != b"\x7fELF" or \
                int.from_bytes(head[16:18], "little") != 3:
            raise AtticError("%s exited 0 but wrote no shared library "
                             "(is it attic-compile?)" % command[0])
        # The same library as the one at `output` (compile() of unchanged
        # source again): `output` is left as it is, so that the library
        # loaded from it is used again. Replaced, each call loaded another
        # private copy, kept for the life of the process (a 2026-11-30
        # audit: 5 mappings and 55 KB a call).
        if not (_same_contents(partial, output) and
                (not cached or _trusted_library(output))):
            os.replace(partial, output)
    finally:
        if os.path.exists(partial):
            os.unlink(partial)
    return Function(output, entry)
