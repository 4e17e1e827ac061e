# Fixture for sinter's consumer tests (ctest -L consumer), run as
#   cmake -DSOURCE_DIR= -DBUILD_DIR= -DCONSUMER_DIR= -DPREFIX= -DINSTALL=
#         -DCONFIG= -DTARBALL= -DTARBALL_ROOT= -P sinter_consumer_prepare.cmake
# 1. wipes CONSUMER_DIR (stale consumer builds would keep old fetched headers),
# 2. installs BUILD_DIR into a fresh PREFIX, when INSTALL is true,
# 3. packs what a release tarball holds into TARBALL, for FetchContent's URL.
foreach(var SOURCE_DIR BUILD_DIR CONSUMER_DIR PREFIX TARBALL TARBALL_ROOT)
  if(NOT DEFINED ${var} OR "${${var}}" STREQUAL "")
    message(FATAL_ERROR "sinter_consumer_prepare: -D${var}=... is required")
  endif()
endforeach()

file(REMOVE_RECURSE "${CONSUMER_DIR}" "${PREFIX}")
file(MAKE_DIRECTORY "${CONSUMER_DIR}")

if(INSTALL)
  set(config_args "")
  if(NOT "${CONFIG}" STREQUAL "")
    set(config_args --config "${CONFIG}")
  endif()
  execute_process(
    COMMAND "${CMAKE_COMMAND}" --install "${BUILD_DIR}" --prefix "${PREFIX}" ${config_args}
    RESULT_VARIABLE rc)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "sinter_consumer_prepare: cmake --install failed (${rc})")
  endif()
endif()

# The tarball holds only what a consumer needs: no tests, so FetchContent
# also proves the project configures without them.
set(stage "${CONSUMER_DIR}/tarball_stage")
file(REMOVE_RECURSE "${stage}")
file(MAKE_DIRECTORY "${stage}/${TARBALL_ROOT}")
foreach(item CMakeLists.txt cmake include LICENSE LICENSE.txt README.md)
  if(EXISTS "${SOURCE_DIR}/${item}")
    file(COPY "${SOURCE_DIR}/${item}" DESTINATION "${stage}/${TARBALL_ROOT}")
  endif()
endforeach()
execute_process(
  COMMAND "${CMAKE_COMMAND}" -E tar czf "${TARBALL}" "${TARBALL_ROOT}"
  WORKING_DIRECTORY "${stage}"
  RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "sinter_consumer_prepare: packing ${TARBALL} failed (${rc})")
endif()
file(REMOVE_RECURSE "${stage}")
message(STATUS "sinter_consumer_prepare: ready (prefix ${PREFIX}, tarball ${TARBALL})")
