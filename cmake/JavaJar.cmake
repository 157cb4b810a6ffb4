# The steps of mwbench_java_jar() (cmake/Java.cmake), run at build time with
# cmake -P: IDL to Java, javac, jar. Globbing here rather than at configure
# time takes in the files the IDL compiler writes, whose names only it knows.
file(REMOVE_RECURSE ${WORK})
file(MAKE_DIRECTORY ${WORK}/idl ${WORK}/classes)

function(run)
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE status)
  if(NOT status EQUAL 0)
    list(JOIN ARGN " " line)
    message(FATAL_ERROR "failed (${status}): ${line}")
  endif()
endfunction()

set(includes)
foreach(dir ${IDL_INCLUDES})
  list(APPEND includes -I${dir})
endforeach()
foreach(idl ${IDL})
  # JacORB's stubs and POA skeletons use the standard org.omg portable API
  # alone (-generate_helper portable, its default), so they run on either ORB.
  run(${JAVA} -XX:-UsePerfData -cp ${IDL_COMPILER_CLASSPATH} org.jacorb.idl.parser
      -notimestamps ${IDL_FLAGS} -d ${WORK}/idl ${includes} ${idl})
endforeach()

set(sources)
foreach(dir ${SOURCES} ${WORK}/idl)
  file(GLOB_RECURSE found ${dir}/*.java)
  list(APPEND sources ${found})
endforeach()
list(JOIN CLASSPATH ":" classpath)
list(JOIN sources "\n" listing)
file(WRITE ${WORK}/sources.txt "${listing}\n")
# -nowarn -Xlint:none: the IDL compiler's code warns about raw types; ours is
# checked by its own -Xlint in a lint step, not here.
run(${JAVAC} -J-XX:-UsePerfData --release 17 -encoding UTF-8 -nowarn -Xlint:none
    -cp "${classpath}" -d ${WORK}/classes @${WORK}/sources.txt)
run(${JAR} -J-XX:-UsePerfData --create --file ${OUTPUT} -C ${WORK}/classes .)
