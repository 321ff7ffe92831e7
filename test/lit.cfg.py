# lit configuration for attic's FileCheck and integration tests.
import os

import lit.formats

config.name = "attic"
config.test_format = lit.formats.ShTest(execute_external=False)
config.suffixes = [".mlir", ".test"]
config.test_source_root = os.path.dirname(__file__)
config.test_exec_root = os.path.join(config.attic_obj_root, "test")
config.excludes = ["lit.cfg.py", "lit.site.cfg.py", "unittests", "Inputs",
                   "CMakeLists.txt"]

config.environment["PATH"] = os.pathsep.join(
    [config.attic_tools_dir, config.llvm_tools_dir,
     config.environment.get("PATH", os.environ.get("PATH", ""))])

config.substitutions.append(("%attic_src", config.attic_src_root))
config.substitutions.append(("%attic_obj", config.attic_obj_root))
config.substitutions.append(("%python", config.python_with_numpy))
config.substitutions.append(("%inputs", os.path.join(config.test_source_root, "Integration", "Inputs")))
if config.python_with_numpy:
    config.available_features.add("numpy")
