# Install rules and the CMake package of attic (docs/install.md). Included
# from the top-level CMakeLists.txt when the compiler is built.
include(CMakePackageConfigHelpers)

set(ATTIC_INSTALL_CMAKE_DIR lib/cmake/attic)

# Libraries, as targets attic::<name> of the package, and its components
# (atticConfig.cmake.in takes the list from here).
set(ATTIC_COMPONENTS
    AtticDialect AtticTransforms AtticConversion AtticPipelines AtticBuilders
    AtticCompiler
    AtticReference AtticReferenceEvaluator AtticExecution AtticSupport
    AtticRuntime AtticRuntimeBlas AtticCudaRuntime attic_rt)
install(TARGETS ${ATTIC_COMPONENTS}
  EXPORT atticTargets
  ARCHIVE DESTINATION lib
  LIBRARY DESTINATION lib
  RUNTIME DESTINATION bin)
install(EXPORT atticTargets NAMESPACE attic:: DESTINATION ${ATTIC_INSTALL_CMAKE_DIR})

# Tools and the mlir-opt plugin. attic-compile finds libattic_rt.so in
# ../lib next to itself, which holds here too.
install(TARGETS attic-opt attic-run attic-compile attic-aot-run attic-gen
    attic-cuda-info
  RUNTIME DESTINATION bin)
install(TARGETS AtticPlugin LIBRARY DESTINATION lib)

# Headers: the compiler's, the runtime's, the generated declarations
# (included by name, from include/attic/generated) and the ODS sources.
install(DIRECTORY ${PROJECT_SOURCE_DIR}/include/attic DESTINATION include
  FILES_MATCHING PATTERN "*.h")
install(DIRECTORY ${PROJECT_SOURCE_DIR}/runtime/include/attic DESTINATION include
  FILES_MATCHING PATTERN "*.h" PATTERN "*.hpp")
install(DIRECTORY ${PROJECT_BINARY_DIR}/dialects/
  DESTINATION include/attic/generated
  FILES_MATCHING PATTERN "*.h.inc" PATTERN "*.cpp.inc"
  PATTERN "CMakeFiles" EXCLUDE)
install(DIRECTORY ${PROJECT_SOURCE_DIR}/dialects/ DESTINATION include/attic/td
  FILES_MATCHING PATTERN "*.td")
# The Python entry (pure Python; PYTHONPATH=P/lib/python).
install(DIRECTORY ${PROJECT_SOURCE_DIR}/python/attic DESTINATION lib/python
  FILES_MATCHING PATTERN "*.py" PATTERN "__pycache__" EXCLUDE)

set(ATTIC_MLIR_DIR ${MLIR_DIR})
# MLIR's version check wants major.minor (22.1): LLVM is API-compatible
# within one minor version only.
set(ATTIC_MLIR_VERSION "${LLVM_VERSION_MAJOR}.${LLVM_VERSION_MINOR}")
configure_package_config_file(
  ${CMAKE_CURRENT_LIST_DIR}/atticConfig.cmake.in
  ${PROJECT_BINARY_DIR}/atticConfig.cmake
  INSTALL_DESTINATION ${ATTIC_INSTALL_CMAKE_DIR}
  PATH_VARS ATTIC_INSTALL_CMAKE_DIR)
write_basic_package_version_file(
  ${PROJECT_BINARY_DIR}/atticConfigVersion.cmake
  VERSION 0.1.0 COMPATIBILITY SameMinorVersion)
install(FILES ${PROJECT_BINARY_DIR}/atticConfig.cmake
              ${PROJECT_BINARY_DIR}/atticConfigVersion.cmake
  DESTINATION ${ATTIC_INSTALL_CMAKE_DIR})
