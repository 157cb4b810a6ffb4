# Java in the build: javac and jar from the JDK, the pinned jars that
# java/fetch.sh put in .cache/java/<set>/ (java/README.md), and one function
# that compiles a jar. No Maven at build time, so the build works offline.
#
#   MWBENCH_JAVA_FOUND      a JDK 17 or later and every jar set are here
#   MWBENCH_JAVA_WHY_NOT    if not, why (for mwbench_driver_requires)
#   MWBENCH_JAVA_LIB_<SET>  the folder of a set: JACORB, GLASSFISH, HARNESS, BUILD
#
# mwbench_java_jar(<target>
#     OUTPUT <jar>                     the jar to write
#     SOURCES <dir>...                 folders whose *.java are compiled
#     [IDL <file>...]                  IDL compiled to Java by JacORB's IDL compiler first
#     [IDL_INCLUDES <dir>...]          its -I folders
#     [IDL_FLAGS <flag>...]            its other flags (-ami_callback: AMI stubs and handlers)
#     [CLASSPATH <jar-or-dir/*>...]    what the sources compile against
#     [DEPENDS <target>...]            targets (other jars) built before this one; a
#                                      jar of mwbench_java_jar() recompiles this one when
#                                      it changes
#     [INPUTS <file>...])              files made by another step of this folder (generated
#                                      sources' listing): the jar is rebuilt when they change
find_package(Java 17 COMPONENTS Development Runtime)

set(MWBENCH_JAVA_FOUND FALSE)
set(_java_cache ${CMAKE_SOURCE_DIR}/.cache/java)
if(NOT Java_Development_FOUND)
  set(MWBENCH_JAVA_WHY_NOT "no JDK 17 (javac) found (Debian package openjdk-17-jdk-headless)")
else()
  set(MWBENCH_JAVA_WHY_NOT "")
  foreach(set JACORB GLASSFISH HARNESS BUILD)
    string(TOLOWER ${set} _folder)
    set(MWBENCH_JAVA_LIB_${set} ${_java_cache}/${_folder})
    file(GLOB _jars ${_java_cache}/${_folder}/*.jar)
    if(NOT _jars)
      set(MWBENCH_JAVA_WHY_NOT "no jars in .cache/java/${_folder} (run java/fetch.sh, which make setup runs)")
    endif()
  endforeach()
  if(NOT MWBENCH_JAVA_WHY_NOT)
    set(MWBENCH_JAVA_FOUND TRUE)
  endif()
endif()

function(mwbench_java_jar target)
  cmake_parse_arguments(PARSE_ARGV 1 arg "" "OUTPUT" "SOURCES;IDL;IDL_INCLUDES;IDL_FLAGS;CLASSPATH;DEPENDS;INPUTS")
  set(work ${CMAKE_CURRENT_BINARY_DIR}/${target}.java)
  set(depends ${arg_IDL} ${arg_INPUTS})
  foreach(dir ${arg_SOURCES})
    # A folder of the build tree holds generated sources, which INPUTS stand
    # for: globbing it would find them only after a build, and re-run CMake.
    cmake_path(IS_PREFIX CMAKE_BINARY_DIR "${dir}" NORMALIZE generated)
    if(NOT generated)
      file(GLOB_RECURSE sources CONFIGURE_DEPENDS ${dir}/*.java)
      list(APPEND depends ${sources})
    endif()
  endforeach()
  # A jar this one depends on recompiles it when it changes, not only when it is
  # built first: its classes are compiled against that jar's API.
  foreach(dependency ${arg_DEPENDS})
    if(TARGET ${dependency})  # defined before this one
      get_property(jar TARGET ${dependency} PROPERTY MWBENCH_JAVA_JAR)
      if(jar)
        list(APPEND depends ${jar})
      endif()
    endif()
  endforeach()
  add_custom_command(
    OUTPUT ${arg_OUTPUT}
    COMMAND ${CMAKE_COMMAND}
      -DJAVAC=${Java_JAVAC_EXECUTABLE} -DJAR=${Java_JAR_EXECUTABLE} -DJAVA=${Java_JAVA_EXECUTABLE}
      -DIDL_COMPILER_CLASSPATH=${MWBENCH_JAVA_LIB_BUILD}/*
      "-DSOURCES=${arg_SOURCES}" "-DIDL=${arg_IDL}" "-DIDL_INCLUDES=${arg_IDL_INCLUDES}"
      "-DIDL_FLAGS=${arg_IDL_FLAGS}"
      "-DCLASSPATH=${arg_CLASSPATH}" -DWORK=${work} -DOUTPUT=${arg_OUTPUT}
      -P ${CMAKE_SOURCE_DIR}/cmake/JavaJar.cmake
    DEPENDS ${depends} ${CMAKE_SOURCE_DIR}/cmake/JavaJar.cmake ${arg_DEPENDS}
    COMMENT "javac ${target}"
    VERBATIM)
  add_custom_target(${target} ALL DEPENDS ${arg_OUTPUT})
  set_property(TARGET ${target} PROPERTY MWBENCH_JAVA_JAR ${arg_OUTPUT})
  if(arg_DEPENDS)
    add_dependencies(${target} ${arg_DEPENDS})
  endif()
endfunction()
