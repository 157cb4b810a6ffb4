# mwccm_generate(): builds a component description into a library target.
#
#   mwccm_generate(<target> IDL3 <file.idl3>
#                  [IDL <file.idl>...]          # IDL2 files the description includes,
#                                               # compiled into the same library
#                  [INCLUDE_DIRS <dir>...]      # where omniidl finds included IDL
#                  [PROBES]                     # define MWCCM_PROBES: the glue's probe
#                                               # points call mwccm_glue::probe_hook
#                  [AMI]                        # omniidl -Wbami on the IDL files: their
#                                               # interfaces' sendc_/sendp_ stubs, reply
#                                               # handlers and pollers (CORBA Messaging)
#                  [EXECUTORS <file.cpp>...])   # the user's executors (with the home
#                                               # registration macro): both assembly modes
#
# At build time, into ${CMAKE_CURRENT_BINARY_DIR}/mwccm_gen/<target>/ (never edited,
# never committed; docs/components.md section 3):
#   1. mwccm-gen idl   → <name>_ccm.idl (the IDL2 and executor mapping)
#   2. omniidl -bcxx   → idl/<name>_ccm.hh, idl/<name>_ccmSK.cc, idl/<name>_ccmDynSK.cc
#      omniidl -b mwccm_signatures → <name>_ccm_signatures.json (C++ signatures)
#   3. mwccm-gen cpp   → <name>_ccm_glue.hpp/.cpp, <name>_ccm_executor.hpp
#      mwccm-gen ccd   → interfaces/<Module>_<Component>.ccd (copied beside <target>_module)
# <target> is a static library of the generated sources linking mwccm (and
# through it omniORB). With EXECUTORS, one component source gives both
# assembly modes (docs/components.md section 4):
#   <target>_component  OBJECT library of the executors, for static assembly:
#                       link it into the program; object files are never dropped
#                       by the linker, so the homes' registrations stay (a static
#                       archive would lose every member nothing references)
#   <target>_module     MODULE (shared library) for dynamic assembly: the
#                       "library" of Container::install_home
#   <target>_archive    lib<target>_module.a beside it: the same code, static, for a
#                       project mwccm-plan-compile writes (MwccmStaticPlan.cmake)
#
# omniidl's output sits in idl/ and is included as SYSTEM (its
# warnings are not ours); the glue is ours and compiles with warnings on.
#
# The generator runs with MWCCM_PYTHON (scripts/setup.sh passes the project's
# .venv, which has lark and jinja2).
include_guard(GLOBAL)

find_program(OMNIIDL omniidl REQUIRED)
set(MWCCM_PYTHON "${CMAKE_SOURCE_DIR}/.venv/bin/python" CACHE FILEPATH
    "Python with lark and jinja2 that runs mwccm-gen")
execute_process(COMMAND "${MWCCM_PYTHON}" -c "import lark, jinja2"
                RESULT_VARIABLE _mwccm_python_ok OUTPUT_QUIET ERROR_QUIET)
if(NOT _mwccm_python_ok EQUAL 0)
  message(FATAL_ERROR "MWCCM_PYTHON=${MWCCM_PYTHON} cannot import lark and jinja2, which the "
          "component code generator needs: run scripts/setup.sh (it creates .venv first), "
          "or pass -DMWCCM_PYTHON=/path/to/python")
endif()
get_filename_component(MWCCM_GENERATOR_DIR "${CMAKE_CURRENT_LIST_DIR}/../generator" ABSOLUTE)
set(MWCCM_GENERATOR_DIR "${MWCCM_GENERATOR_DIR}" CACHE INTERNAL "")
# Where Components.idl is: every omniidl run over generated IDL needs it as -I.
# Cached too: include_guard keeps a second include from setting it in another
# directory (drivers/ccm includes this file before components/ does).
get_filename_component(MWCCM_IDL_DIR "${CMAKE_CURRENT_LIST_DIR}/../idl" ABSOLUTE)
set(MWCCM_IDL_DIR "${MWCCM_IDL_DIR}" CACHE INTERNAL "")
set(MWCCM_GENERATE_IDL_DIR "${MWCCM_IDL_DIR}" CACHE INTERNAL "")

function(mwccm_generate target)
  cmake_parse_arguments(PARSE_ARGV 1 arg "PROBES;AMI" "IDL3" "IDL;INCLUDE_DIRS;EXECUTORS")
  if(NOT arg_IDL3)
    message(FATAL_ERROR "mwccm_generate(${target}): IDL3 <file.idl3> is required")
  endif()
  get_filename_component(idl3 "${arg_IDL3}" ABSOLUTE)
  get_filename_component(stem "${idl3}" NAME_WE)
  get_filename_component(idl3_dir "${idl3}" DIRECTORY)
  set(out "${CMAKE_CURRENT_BINARY_DIR}/mwccm_gen/${target}")
  set(idl_out "${out}/idl")

  # The description's folder, the folders of the IDL files given, INCLUDE_DIRS,
  # and Components.idl's folder.
  set(include_flags "-I${idl3_dir}")
  foreach(idl IN LISTS arg_IDL)
    get_filename_component(idl_dir "${idl}" ABSOLUTE)
    get_filename_component(idl_dir "${idl_dir}" DIRECTORY)
    list(APPEND include_flags "-I${idl_dir}")
  endforeach()
  foreach(dir IN LISTS arg_INCLUDE_DIRS)
    get_filename_component(dir "${dir}" ABSOLUTE)
    list(APPEND include_flags "-I${dir}")
  endforeach()
  list(APPEND include_flags "-I${MWCCM_GENERATE_IDL_DIR}")
  list(REMOVE_DUPLICATES include_flags)

  # Rerun when the generator itself changes, not only the description.
  file(GLOB generator_sources CONFIGURE_DEPENDS
       "${MWCCM_GENERATOR_DIR}/mwccm_gen/*.py" "${MWCCM_GENERATOR_DIR}/mwccm_gen/*.lark"
       "${MWCCM_GENERATOR_DIR}/mwccm_gen/templates/*.j2"
       "${MWCCM_GENERATOR_DIR}/mwccm_signatures/*.py")
  set(run_generator ${CMAKE_COMMAND} -E env "PYTHONPATH=${MWCCM_GENERATOR_DIR}"
      "${MWCCM_PYTHON}" -m mwccm_gen)

  # The IDL2 files the description includes: plain omniidl, like any driver.
  set(idl_flags -bcxx -Wba)
  if(arg_AMI)
    list(APPEND idl_flags -Wbami)
  endif()
  set(idl_sources)
  set(idl_files)
  foreach(idl IN LISTS arg_IDL)
    get_filename_component(idl "${idl}" ABSOLUTE)
    get_filename_component(idl_stem "${idl}" NAME_WE)
    add_custom_command(
      OUTPUT "${idl_out}/${idl_stem}.hh" "${idl_out}/${idl_stem}SK.cc"
             "${idl_out}/${idl_stem}DynSK.cc"
      COMMAND ${CMAKE_COMMAND} -E make_directory "${idl_out}"
      COMMAND ${OMNIIDL} ${idl_flags} "-C${idl_out}" ${include_flags} "${idl}"
      DEPENDS "${idl}"
      COMMENT "omniidl ${idl_stem}.idl"
      VERBATIM)
    list(APPEND idl_sources "${idl_out}/${idl_stem}SK.cc" "${idl_out}/${idl_stem}DynSK.cc")
    list(APPEND idl_files "${idl}")
  endforeach()

  add_custom_command(
    OUTPUT "${out}/${stem}_ccm.idl"
    COMMAND ${run_generator} idl "${idl3}" -o "${out}"
    DEPENDS "${idl3}" ${generator_sources}
    COMMENT "mwccm-gen idl ${stem}.idl3"
    VERBATIM)

  add_custom_command(
    OUTPUT "${idl_out}/${stem}_ccm.hh" "${idl_out}/${stem}_ccmSK.cc"
           "${idl_out}/${stem}_ccmDynSK.cc" "${out}/${stem}_ccm_signatures.json"
    COMMAND ${CMAKE_COMMAND} -E make_directory "${idl_out}"
    COMMAND ${OMNIIDL} -bcxx -Wba "-C${idl_out}" ${include_flags} "${out}/${stem}_ccm.idl"
    COMMAND ${OMNIIDL} -p "${MWCCM_GENERATOR_DIR}" -b mwccm_signatures "-C${out}"
            ${include_flags} "${out}/${stem}_ccm.idl"
    DEPENDS "${out}/${stem}_ccm.idl" "${MWCCM_GENERATE_IDL_DIR}/Components.idl" ${idl_files}
            ${generator_sources}
    COMMENT "omniidl ${stem}_ccm.idl"
    VERBATIM)

  set(glue "${out}/${stem}_ccm_glue.hpp" "${out}/${stem}_ccm_glue.cpp"
           "${out}/${stem}_ccm_executor.hpp")
  add_custom_command(
    OUTPUT ${glue}
    COMMAND ${run_generator} cpp "${idl3}" --signatures "${out}/${stem}_ccm_signatures.json"
            -o "${out}"
    DEPENDS "${idl3}" "${out}/${stem}_ccm_signatures.json" ${generator_sources}
    COMMENT "mwccm-gen cpp ${stem}.idl3"
    VERBATIM)

  # The components' interface descriptions, which deployment plans are
  # checked against (docs/deployment.md section 2); copied beside the module.
  set(interfaces "${out}/interfaces")
  add_custom_command(
    OUTPUT "${interfaces}/${stem}_ccm_interfaces.txt"
    COMMAND ${run_generator} ccd "${idl3}" --signatures "${out}/${stem}_ccm_signatures.json"
            -o "${interfaces}"
    DEPENDS "${idl3}" "${out}/${stem}_ccm_signatures.json" ${generator_sources}
    COMMENT "mwccm-gen ccd ${stem}.idl3"
    VERBATIM)

  set(omniidl_sources ${idl_sources} "${idl_out}/${stem}_ccmSK.cc"
                      "${idl_out}/${stem}_ccmDynSK.cc")
  # omniidl's code is not ours to fix: no warnings for it.
  set_source_files_properties(${omniidl_sources} PROPERTIES COMPILE_OPTIONS "-w")
  add_library(${target} STATIC ${omniidl_sources} ${glue} "${interfaces}/${stem}_ccm_interfaces.txt")
  set_target_properties(${target} PROPERTIES MWCCM_INTERFACES_DIR "${interfaces}")
  target_include_directories(${target} SYSTEM PUBLIC "${idl_out}")
  target_include_directories(${target} PUBLIC "${out}" "${MWCCM_GENERATOR_DIR}/include")
  if(arg_PROBES)
    target_compile_definitions(${target} PUBLIC MWCCM_PROBES)
  endif()
  # mwccm links omniORB PUBLIC; naming PkgConfig::OMNIORB here would fail in a
  # directory that did not run pkg_check_modules (imported targets are local).
  target_link_libraries(${target} PUBLIC mwccm::mwccm)
  set_target_properties(${target} PROPERTIES POSITION_INDEPENDENT_CODE ON)

  if(arg_EXECUTORS)
    add_library(${target}_component OBJECT ${arg_EXECUTORS})
    target_link_libraries(${target}_component PUBLIC ${target})
    set_target_properties(${target}_component PROPERTIES POSITION_INDEPENDENT_CODE ON)
    add_library(${target}_module MODULE)
    target_link_libraries(${target}_module PRIVATE ${target}_component)
    # The same code as a static archive beside the module, for a project
    # mwccm-plan-compile writes (MwccmStaticPlan.cmake).
    add_library(${target}_archive STATIC $<TARGET_OBJECTS:${target}> $<TARGET_OBJECTS:${target}_component>)
    set_target_properties(${target}_archive PROPERTIES OUTPUT_NAME ${target}_module
      ARCHIVE_OUTPUT_DIRECTORY "$<TARGET_FILE_DIR:${target}_module>")
    target_link_libraries(${target}_archive PUBLIC mwccm::mwccm)
    # A node finds a component's interface descriptions beside its library.
    add_custom_command(TARGET ${target}_module POST_BUILD
      COMMAND ${CMAKE_COMMAND} -E copy_directory "${interfaces}" "$<TARGET_FILE_DIR:${target}_module>"
      VERBATIM)
  endif()
endfunction()
