# cmake/TaikaiPackage.cmake — the Debian package (`make package`, or `cpack -G DEB` in the build
# folder): one package "taikai" holding everything TaikaiInstall.cmake installs, under /usr.
# Its dependencies are computed from the binaries (dpkg-shlibdeps) plus the -dev packages a
# plugin build needs (pkg-config and CMake find zlib through them).
set(CPACK_GENERATOR DEB)
set(CPACK_PACKAGE_NAME taikai)
set(CPACK_PACKAGE_VERSION ${TAIKAI_ABI}.${PROJECT_VERSION})
set(CPACK_PACKAGE_CONTACT "taikai maintainers <taikai@localhost>")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY
  "Tournament referee for game-playing agents (mahjong, riichi, daifugo, Kuhn poker) and its plugin SDK")
set(CPACK_PACKAGING_INSTALL_PREFIX /usr)
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_SECTION science)
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
# No shlibs file: nothing outside this package links libtaikai but plugins loaded by taikai
# (which has loaded it already), and CPack would warn about every plugin, a MODULE without a
# SONAME. /usr/lib is searched by the dynamic linker without an ldconfig run.
set(CPACK_DEBIAN_PACKAGE_DEPENDS "zlib1g-dev, pkg-config")
set(CPACK_DEB_COMPONENT_INSTALL OFF)
set(CPACK_STRIP_FILES OFF)
set(CPACK_OUTPUT_FILE_PREFIX ${PROJECT_BINARY_DIR}/packages)
include(CPack)
