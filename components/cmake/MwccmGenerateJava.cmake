# mwccm_generate_java(): builds a component description into a jar of the
# Java component layer (components/java/README.md).
#
#   mwccm_generate_java(<target> IDL3 <file.idl3> OUTPUT <jar>
#                       [IDL <file.idl>...]          # IDL2 files the description includes,
#                                                    # compiled into the same jar
#                       [INCLUDE_DIRS <dir>...]      # where the IDL compiler finds included IDL
#                       [SOURCES <dir>...]           # the user's executors (*.java)
#                       [CLASSPATH <jar>...])        # what those need beyond the layer
#
# At build time, into ${CMAKE_CURRENT_BINARY_DIR}/mwccm_gen_java/<target>/ (never
# edited, never committed):
#   1. mwccm-gen idl  → <name>_ccm.idl (the same IDL2 as the C++ side)
#   2. mwccm-gen java → java/<package>/<Class>.java, listed in java/<name>_ccm_java.txt
#   3. mwbench_java_jar(): JacORB's IDL compiler over the IDL files and
#      <name>_ccm.idl (each file's own definitions: Components comes from
#      mwccm.jar), then javac of the generated glue and SOURCES, then the jar.
include_guard(GLOBAL)
include(${CMAKE_CURRENT_LIST_DIR}/MwccmGenerate.cmake)  # MWCCM_PYTHON

get_filename_component(_mwccm_java_generator "${CMAKE_CURRENT_LIST_DIR}/../generator" ABSOLUTE)
get_filename_component(_mwccm_java_idl_dir "${CMAKE_CURRENT_LIST_DIR}/../idl" ABSOLUTE)

function(mwccm_generate_java target)
  cmake_parse_arguments(PARSE_ARGV 1 arg "" "IDL3;OUTPUT" "IDL;INCLUDE_DIRS;SOURCES;CLASSPATH")
  if(NOT arg_IDL3 OR NOT arg_OUTPUT)
    message(FATAL_ERROR "mwccm_generate_java(${target}): IDL3 <file.idl3> and OUTPUT <jar> are required")
  endif()
  get_filename_component(idl3 "${arg_IDL3}" ABSOLUTE)
  get_filename_component(stem "${idl3}" NAME_WE)
  get_filename_component(idl3_dir "${idl3}" DIRECTORY)
  set(out "${CMAKE_CURRENT_BINARY_DIR}/mwccm_gen_java/${target}")

  set(includes "${idl3_dir}")
  foreach(idl IN LISTS arg_IDL)
    get_filename_component(idl_dir "${idl}" ABSOLUTE)
    get_filename_component(idl_dir "${idl_dir}" DIRECTORY)
    list(APPEND includes "${idl_dir}")
  endforeach()
  list(APPEND includes ${arg_INCLUDE_DIRS} "${_mwccm_java_idl_dir}")
  list(REMOVE_DUPLICATES includes)

  file(GLOB generator_sources CONFIGURE_DEPENDS
       "${_mwccm_java_generator}/mwccm_gen/*.py" "${_mwccm_java_generator}/mwccm_gen/*.lark"
       "${_mwccm_java_generator}/mwccm_gen/templates/java/*.j2")
  set(run_generator ${CMAKE_COMMAND} -E env "PYTHONPATH=${_mwccm_java_generator}"
      "${MWCCM_PYTHON}" -m mwccm_gen)
  add_custom_command(
    OUTPUT "${out}/${stem}_ccm.idl" "${out}/java/${stem}_ccm_java.txt"
    COMMAND ${CMAKE_COMMAND} -E rm -rf "${out}/java"
    COMMAND ${run_generator} idl "${idl3}" -o "${out}"
    COMMAND ${run_generator} java "${idl3}" -o "${out}/java"
    DEPENDS "${idl3}" ${generator_sources}
    COMMENT "mwccm-gen idl, java ${stem}.idl3"
    VERBATIM)

  mwbench_java_jar(${target}
    OUTPUT "${arg_OUTPUT}"
    SOURCES "${out}/java" ${arg_SOURCES}
    IDL ${arg_IDL} "${out}/${stem}_ccm.idl"
    IDL_INCLUDES ${includes}
    CLASSPATH ${MWBENCH_JAVA_LIB_JACORB}/jacorb-omgapi-3.9.jar ${MWCCM_JAVA_JAR} ${arg_CLASSPATH}
    DEPENDS mwccm_java
    INPUTS "${out}/${stem}_ccm.idl" "${out}/java/${stem}_ccm_java.txt" ${MWCCM_JAVA_JAR})
endfunction()
