# `cmake --install` installs mwccm for projects outside this repository
# (docs/components.md section 3, docs/deployment.md section 5):
#   bin/                     mwccm-component-server, mwccm-node, mwccm-deploy,
#                            mwccm-plan, mwccm-plan-compile, mwccm-inspect
#   lib/                     libmwccm.so, libmwccm_locality.a, libmwccm_static.a,
#                            libmwccm_plan_values.a
#   include/                 mwccm's headers and the generated Components.hh,
#                            MwccmDeployment.hh
#   share/mwccm/cmake/       the package: find_package(mwccm) gives mwccm::mwccm,
#                            mwccm::locality, mwccm::static, mwccm::plan-compile,
#                            mwccm_generate()
#                            and mwccm_static_plan()
#   share/mwccm/generator/   mwccm-gen, which mwccm_generate() runs
#   share/mwccm/idl/         Components.idl
# The generator and IDL sit beside cmake/ as they do in the source tree, so
# MwccmGenerate.cmake finds them the same way in both.
include(GNUInstallDirs)
include(CMakePackageConfigHelpers)
set(mwccm_share ${CMAKE_INSTALL_DATADIR}/mwccm)

target_include_directories(mwccm INTERFACE $<INSTALL_INTERFACE:${CMAKE_INSTALL_INCLUDEDIR}>)
set_target_properties(mwccm_locality PROPERTIES EXPORT_NAME locality)
set_target_properties(mwccm_static PROPERTIES EXPORT_NAME static)
# It links the strategies' plan checks (libmwccm_delivery_checks), found beside libmwccm.
set_target_properties(mwccm-plan-compile PROPERTIES EXPORT_NAME plan-compile
  INSTALL_RPATH "$ORIGIN/../${CMAKE_INSTALL_LIBDIR}")
set_target_properties(mwccm_plan_values PROPERTIES EXPORT_NAME plan-values)
install(TARGETS mwccm mwccm_delivery_checks mwccm_locality mwccm_static mwccm_plan_values mwccm-plan-compile
  EXPORT mwccmTargets
  LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR}
  ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR}
  RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})

set(mwccm_programs mwccm-component-server mwccm-node mwccm-deploy mwccm-plan mwccm-inspect)
set_target_properties(${mwccm_programs} PROPERTIES INSTALL_RPATH "$ORIGIN/../${CMAKE_INSTALL_LIBDIR}")
install(TARGETS ${mwccm_programs} RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})

install(DIRECTORY include/mwccm deployment/include/mwccm DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}
  FILES_MATCHING PATTERN "*.hpp")
install(FILES ${mwccm_idl_out}/Components.hh ${mwccm_idl_out}/MwccmEvents.hh
  ${CMAKE_CURRENT_BINARY_DIR}/deployment/idl/MwccmDeployment.hh
  DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
install(FILES idl/Components.idl idl/MwccmEvents.idl DESTINATION ${mwccm_share}/idl)
install(DIRECTORY generator/ DESTINATION ${mwccm_share}/generator
  USE_SOURCE_PERMISSIONS
  PATTERN "tests" EXCLUDE PATTERN "__pycache__" EXCLUDE)

install(EXPORT mwccmTargets NAMESPACE mwccm:: DESTINATION ${mwccm_share}/cmake)
set(MWCCM_INSTALLED_PYTHON "${MWCCM_PYTHON}")
configure_package_config_file(cmake/mwccmConfig.cmake.in
  ${CMAKE_CURRENT_BINARY_DIR}/mwccmConfig.cmake
  INSTALL_DESTINATION ${mwccm_share}/cmake)
write_basic_package_version_file(${CMAKE_CURRENT_BINARY_DIR}/mwccmConfigVersion.cmake
  VERSION ${PROJECT_VERSION} COMPATIBILITY SameMinorVersion)
install(FILES ${CMAKE_CURRENT_BINARY_DIR}/mwccmConfig.cmake
  ${CMAKE_CURRENT_BINARY_DIR}/mwccmConfigVersion.cmake
  cmake/MwccmGenerate.cmake cmake/MwccmStaticPlan.cmake
  DESTINATION ${mwccm_share}/cmake)
