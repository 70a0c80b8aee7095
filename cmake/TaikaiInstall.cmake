# cmake/TaikaiInstall.cmake — what `cmake --install` (and `make install`, the Debian package)
# puts where, relative to the prefix so that an install can be moved:
#   bin/taikai                         the referee (RPATH $ORIGIN/../lib)
#   lib/libtaikai.so.<ABI>             the engines, SONAME following TK_AGENT_ABI_VERSION
#   lib/libtaikai_data.a               records and weights files (taikai/records.h, weights.h)
#   lib/taikai/plugins/                the built-in agents and their default weights, searched
#                                      by the installed binary after TAIKAI_PLUGIN_PATH and
#                                      plugins/ beside it (harness/core/loader.c)
#   include/taikai/                    the public headers (C11 and C++)
#   lib/pkgconfig/taikai.pc, taikai-data.pc
#   lib/cmake/taikai/                  find_package(taikai): taikai::taikai, taikai::data,
#                                      taikai::cli and taikai_add_plugin()
#   share/taikai/arenas/, template/    presets that run with the installed agents; the agent
#                                      templates (plugins/template)
#   share/taikai/scripts/              slurm-shards.sh (docs/cluster.md)
#   share/doc/taikai/                  README.md and docs/
# ("lib" is CMAKE_INSTALL_LIBDIR.)
include(CMakePackageConfigHelpers)

set(TAIKAI_INSTALL_CMAKEDIR ${CMAKE_INSTALL_LIBDIR}/cmake/taikai)
set(TAIKAI_INSTALL_DATADIR ${CMAKE_INSTALL_DATADIR}/taikai)
file(RELATIVE_PATH _tk_bin_to_lib /prefix/${CMAKE_INSTALL_BINDIR} /prefix/${CMAKE_INSTALL_LIBDIR})
file(RELATIVE_PATH _tk_plugins_to_lib /prefix/${TAIKAI_INSTALL_PLUGINDIR}
     /prefix/${CMAKE_INSTALL_LIBDIR})

# The binary and the built-in plugins find libtaikai relative to themselves once installed.
set_target_properties(taikai_cli PROPERTIES INSTALL_RPATH "$ORIGIN/${_tk_bin_to_lib}")
set_target_properties(taikai_data PROPERTIES EXPORT_NAME data)
set_target_properties(taikai_cli PROPERTIES EXPORT_NAME cli)

install(TARGETS taikai taikai_data taikai_cli EXPORT taikaiTargets
  RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR} COMPONENT runtime
  LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR} COMPONENT runtime NAMELINK_COMPONENT sdk
  ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR} COMPONENT sdk)
install(DIRECTORY ${PROJECT_SOURCE_DIR}/include/taikai DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}
  COMPONENT sdk FILES_MATCHING PATTERN "*.h")

# Every MODULE library of plugins/ (the built-in agents), with the weights files copied beside
# them in the build tree (plugins look for their default weights beside their own .so).
get_property(_tk_plugin_targets DIRECTORY ${PROJECT_SOURCE_DIR}/plugins PROPERTY BUILDSYSTEM_TARGETS)
get_property(_tk_plugin_subdirs DIRECTORY ${PROJECT_SOURCE_DIR}/plugins PROPERTY SUBDIRECTORIES)
foreach(_d ${_tk_plugin_subdirs}) # the plugins with a CMakeLists.txt of their own
  get_property(_t DIRECTORY ${_d} PROPERTY BUILDSYSTEM_TARGETS)
  list(APPEND _tk_plugin_targets ${_t})
endforeach()
set(TAIKAI_INSTALLED_PLUGINS)
foreach(t ${_tk_plugin_targets})
  get_target_property(_type ${t} TYPE)
  if(_type STREQUAL "MODULE_LIBRARY")
    set_target_properties(${t} PROPERTIES INSTALL_RPATH "$ORIGIN/${_tk_plugins_to_lib}")
    list(APPEND TAIKAI_INSTALLED_PLUGINS ${t})
  endif()
endforeach()
install(TARGETS ${TAIKAI_INSTALLED_PLUGINS}
  LIBRARY DESTINATION ${TAIKAI_INSTALL_PLUGINDIR} COMPONENT runtime)
file(GLOB _tk_weights ${PROJECT_SOURCE_DIR}/plugins/*/*.tkw)
install(FILES ${_tk_weights} DESTINATION ${TAIKAI_INSTALL_PLUGINDIR} COMPONENT runtime)

# Presets that run from any folder with the installed agents, with their reference tables: all
# but the experiments (arenas/*/experiments/) and those naming a file by its path in the source
# tree ("../../plugins/...", e.g. the weights daifugo_mcl_ap_mc.tkw of daifugo's table-5,
# table-8 and records-mcl, or "../../runs/...", weights a report's run.sh makes): share/taikai
# has no plugins/ or runs/ beside arenas/, so the installed taikai would refuse them. test_sdk_install plays every preset installed.
foreach(game ${TAIKAI_GAMES})
  file(GLOB _tk_presets ${PROJECT_SOURCE_DIR}/arenas/${game}/*.json)
  foreach(_tk_preset ${_tk_presets})
    file(READ ${_tk_preset} _tk_text)
    set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS ${_tk_preset}) # edits re-decide
    if(_tk_text MATCHES "\"\\.\\./\\.\\./(plugins|runs)/")
      string(REGEX REPLACE "\\.json$" ".reference.json" _tk_reference ${_tk_preset})
      list(REMOVE_ITEM _tk_presets ${_tk_preset} ${_tk_reference}) # and its reference table
    endif()
  endforeach()
  install(FILES ${_tk_presets} DESTINATION ${TAIKAI_INSTALL_DATADIR}/arenas/${game}
    COMPONENT runtime)
endforeach()
# The presets' "$schema" (../../harness/spec.schema.json) resolves in share/taikai too.
install(FILES ${PROJECT_SOURCE_DIR}/harness/spec.schema.json
  DESTINATION ${TAIKAI_INSTALL_DATADIR}/harness COMPONENT runtime)
# The Slurm job-array submitter, as docs/cluster.md describes it.
install(PROGRAMS ${PROJECT_SOURCE_DIR}/harness/scripts/slurm-shards.sh
  DESTINATION ${TAIKAI_INSTALL_DATADIR}/scripts COMPONENT runtime)
install(DIRECTORY ${PROJECT_SOURCE_DIR}/plugins/template/ DESTINATION ${TAIKAI_INSTALL_DATADIR}/template
  COMPONENT sdk)
install(FILES ${PROJECT_SOURCE_DIR}/README.md DESTINATION ${CMAKE_INSTALL_DOCDIR} COMPONENT runtime)
install(DIRECTORY ${PROJECT_SOURCE_DIR}/docs/ DESTINATION ${CMAKE_INSTALL_DOCDIR}/docs
  COMPONENT runtime FILES_MATCHING PATTERN "*.md")

# The CMake package and the pkg-config files.
install(EXPORT taikaiTargets NAMESPACE taikai:: DESTINATION ${TAIKAI_INSTALL_CMAKEDIR}
  COMPONENT sdk)
configure_package_config_file(${CMAKE_CURRENT_LIST_DIR}/taikaiConfig.cmake.in
  ${PROJECT_BINARY_DIR}/cmake/taikaiConfig.cmake
  INSTALL_DESTINATION ${TAIKAI_INSTALL_CMAKEDIR}
  PATH_VARS TAIKAI_INSTALL_PLUGINDIR TAIKAI_INSTALL_DATADIR)
# The package version is the ABI: a plugin asking for find_package(taikai 2) gets ABI 2 only.
write_basic_package_version_file(${PROJECT_BINARY_DIR}/cmake/taikaiConfigVersion.cmake
  VERSION ${TAIKAI_ABI}.${PROJECT_VERSION} COMPATIBILITY SameMajorVersion)
install(FILES ${PROJECT_BINARY_DIR}/cmake/taikaiConfig.cmake
  ${PROJECT_BINARY_DIR}/cmake/taikaiConfigVersion.cmake
  ${CMAKE_CURRENT_LIST_DIR}/TaikaiPlugin.cmake
  DESTINATION ${TAIKAI_INSTALL_CMAKEDIR} COMPONENT sdk)

file(RELATIVE_PATH TAIKAI_PC_TO_PREFIX /prefix/${CMAKE_INSTALL_LIBDIR}/pkgconfig /prefix)
string(REGEX REPLACE "/$" "" TAIKAI_PC_TO_PREFIX "${TAIKAI_PC_TO_PREFIX}")
foreach(pc taikai taikai-data)
  configure_file(${CMAKE_CURRENT_LIST_DIR}/${pc}.pc.in ${PROJECT_BINARY_DIR}/cmake/${pc}.pc @ONLY)
  install(FILES ${PROJECT_BINARY_DIR}/cmake/${pc}.pc
    DESTINATION ${CMAKE_INSTALL_LIBDIR}/pkgconfig COMPONENT sdk)
endforeach()

include(${CMAKE_CURRENT_LIST_DIR}/TaikaiPackage.cmake)
