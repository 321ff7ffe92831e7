# lit configuration for attic's FileCheck and integration tests.
import os
import shutil

import lit.formats

config.name = "attic"
config.test_format = lit.formats.ShTest(execute_external=False)
config.suffixes = [".mlir", ".test"]
config.test_source_root = os.path.dirname(__file__)
config.test_exec_root = os.path.join(config.attic_obj_root, "test")
config.excludes = ["lit.cfg.py", "lit.site.cfg.py", "unittests", "Inputs",
                   "CMakeLists.txt", "Consumer", "python"]

config.environment["PATH"] = os.pathsep.join(
    [config.attic_tools_dir, config.llvm_tools_dir,
     config.environment.get("PATH", os.environ.get("PATH", ""))])
# --param attic_tools_prefix=DIR: tools in DIR come first (wrappers, e.g.
# attic-run under compute-sanitizer: bench/cuda/device.sh sanitize).
tools_prefix = lit_config.params.get("attic_tools_prefix")
if tools_prefix:
    config.environment["PATH"] = os.pathsep.join(
        [os.path.abspath(tools_prefix), config.environment["PATH"]])

config.substitutions.append(("%attic_src", config.attic_src_root))
config.substitutions.append(("%attic_obj", config.attic_obj_root))
config.substitutions.append(("%python", config.python_with_numpy))
config.substitutions.append(("%inputs", os.path.join(config.test_source_root, "Integration", "Inputs")))
if config.python_with_numpy:
    config.available_features.add("numpy")

# CUDA toolkit (attic-cuda-pipeline's format=bin/fatbin and the ptxas -v
# tests); optional: without it attic still emits PTX.
config.cuda_bin = "/usr/local/cuda/bin"
if os.access(os.path.join(config.cuda_bin, "ptxas"), os.X_OK):
    config.available_features.add("ptxas")
    config.substitutions.append(("%ptxas", os.path.join(config.cuda_bin, "ptxas")))
    config.substitutions.append(("%cuobjdump", os.path.join(config.cuda_bin, "cuobjdump")))
# libdevice: attic-cuda-pipeline links it into kernels that call __nv_*
# functions (every attention kernel: arith.maxnumf) and refuses to compile
# them without it (attic-gpu-check-libdevice); the tests that run the whole
# pipeline, or attic-run/attic-compile --target=cuda, need it.
if os.path.isfile("/usr/local/cuda/nvvm/libdevice/libdevice.10.bc"):
    config.available_features.add("libdevice")
config.substitutions.append(("%cuda_inputs", os.path.join(config.test_source_root, "Conversion", "Inputs")))

# CUDA runtime. `cuda-device`: attic's runtime finds a driver and a device
# (runtime/attic-cuda-info exits 0); the tests that run kernels need it, and
# the no-device tests are UNSUPPORTED with it. Never fails without a GPU.
# `fake-cuda-driver`: the test-only stand-in libcuda (test/unittests/Runtime/
# FakeCudaDriver.c) is built; %fake_cuda_driver is its path.
import subprocess

attic_cuda_info = os.path.join(config.attic_obj_root, "runtime", "attic-cuda-info")
if os.access(attic_cuda_info, os.X_OK):
    probe_env = dict(os.environ)
    probe_env.pop("ATTIC_CUDA_DRIVER", None)
    try:
        probe = subprocess.run([attic_cuda_info], env=probe_env, timeout=120,
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                               universal_newlines=True)
        import re
        capability = re.search(r"compute capability (\d+)\.", probe.stdout)
        if probe.returncode == 0 and capability and int(capability.group(1)) >= 8:
            config.available_features.add("cuda-device")
            # attic-compile --target=cuda options whose kernels run on this
            # device: its own chip's cubin; PTX for sm_90 on newer GPUs.
            major = int(capability.group(1))
            # wgmma (--wgmma, chip sm_90a) runs on 9.0 only.
            if re.search(r"compute capability 9\.0\b", probe.stdout):
                config.available_features.add("cuda-sm90a")
            config.substitutions.append(
                ("%cuda_aot_options",
                 "--cuda-chip=sm_80" if major == 8 else
                 "--cuda-chip=sm_90" if major == 9 else
                 "--cuda-chip=sm_90 --cuda-format=isa"))
            lit_config.note("CUDA device: " + probe.stdout.strip())
        elif probe.returncode == 0:
            lit_config.note("no CUDA device tests: attic needs sm_80 or newer: " +
                            probe.stdout.strip())
        else:
            lit_config.note("no CUDA device tests: " + probe.stderr.strip())
    except (OSError, subprocess.SubprocessError) as e:
        lit_config.note("no CUDA device tests: attic-cuda-info: " + str(e))
fake_cuda_driver = os.path.join(config.attic_obj_root, "test", "unittests",
                                "Runtime", "libAtticFakeCudaDriver.so")
if os.path.exists(fake_cuda_driver):
    config.available_features.add("fake-cuda-driver")
    config.substitutions.append(("%fake_cuda_driver", fake_cuda_driver))
# A caller's driver override must not leak into the tests.
config.environment.pop("ATTIC_CUDA_DRIVER", None)
config.environment.pop("ATTIC_FAKE_CUDA_MODE", None)

# `valgrind`: memcheck is installed (scripts/setup.sh installs it) for the
# tests that check attic's tools for memory errors on bad input.
if shutil.which("valgrind"):
    config.available_features.add("valgrind")

# `sanitizers`: attic was built with them (scripts/sanitize-compiler.sh sets
# ATTIC_SANITIZERS); tests that cannot run under them say UNSUPPORTED.
if getattr(config, "attic_sanitizers", ""):
    config.available_features.add("sanitizers")
    for name in ("ASAN_OPTIONS", "UBSAN_OPTIONS"):
        if name in os.environ:
            config.environment[name] = os.environ[name]

# OpenMP worker threads of attic-run's compiled code sleep as soon as a
# parallel region ends, instead of spinning for 200 ms (libomp's default):
# lit runs two tests at once on CI's 2 cores, and the spinning took CPU
# time from the other test (the four largest execution tests ran 9% faster
# without it, 2026-11-25).
config.environment["KMP_BLOCKTIME"] = "0"
