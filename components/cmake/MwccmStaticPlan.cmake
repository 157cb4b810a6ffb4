# Static deployment (docs/deployment.md section 5): a plan compiled into one
# program that assembles it in one process at start-up.
#
#   mwccm_static_plan(<program> PLAN <plan.cdp|.config>
#                     COMPONENTS <mwccm_generate target>...   # with EXECUTORS
#                     [ONE_PROCESS])                           # a plan of several processes
#
# in a project that builds its components with mwccm_generate(): the plan is
# compiled at build time (mwccm-plan-compile --tables-only, checked against
# the components' interface descriptions) and linked with the components'
# object files.
#
#   mwccm_static_plan_executable(<program> TABLES <plan_tables.cpp>
#                                ARCHIVES <libname.a>...)
#
# what a project written by mwccm-plan-compile calls: the tables it wrote,
# linked with the components' static archives (lib<target>_module.a, which
# mwccm_generate builds beside the module), found in MWCCM_ARTIFACT_DIRS.
#
# Either way nothing is loaded with dlopen: the tables hold each home's entry
# point as a function pointer, which also makes the linker keep its code.
include_guard(GLOBAL)

function(mwccm_static_plan program)
  cmake_parse_arguments(PARSE_ARGV 1 arg "ONE_PROCESS" "PLAN" "COMPONENTS")
  if(NOT arg_PLAN OR NOT arg_COMPONENTS)
    message(FATAL_ERROR "mwccm_static_plan(${program}): PLAN and COMPONENTS are required")
  endif()
  get_filename_component(plan "${arg_PLAN}" ABSOLUTE)
  set(out "${CMAKE_CURRENT_BINARY_DIR}/mwccm_plan/${program}")
  set(flags --tables-only --name "${program}")
  if(arg_ONE_PROCESS)
    list(APPEND flags --one-process)
  endif()
  set(depends "${plan}")
  foreach(component IN LISTS arg_COMPONENTS)
    list(APPEND flags --interfaces "$<TARGET_PROPERTY:${component},MWCCM_INTERFACES_DIR>")
    list(APPEND depends ${component})
  endforeach()
  add_custom_command(
    OUTPUT "${out}/plan_tables.cpp"
    COMMAND mwccm::plan-compile "${plan}" -o "${out}" ${flags}
    DEPENDS ${depends} mwccm::plan-compile
    COMMENT "mwccm-plan-compile ${arg_PLAN}"
    VERBATIM)
  add_executable(${program} "${out}/plan_tables.cpp")
  target_link_libraries(${program} PRIVATE mwccm::static)
  foreach(component IN LISTS arg_COMPONENTS)
    target_link_libraries(${program} PRIVATE ${component}_component ${component})
  endforeach()
endfunction()

function(mwccm_static_plan_executable program)
  cmake_parse_arguments(PARSE_ARGV 1 arg "" "TABLES" "ARCHIVES")
  add_executable(${program} "${arg_TABLES}")
  foreach(archive IN LISTS arg_ARCHIVES)
    string(MAKE_C_IDENTIFIER "${archive}" variable)
    find_file(MWCCM_ARCHIVE_${variable} "${archive}" PATHS ${MWCCM_ARTIFACT_DIRS} NO_DEFAULT_PATH)
    if(NOT MWCCM_ARCHIVE_${variable})
      message(FATAL_ERROR "${program}: the plan's component archive ${archive} is not in "
              "MWCCM_ARTIFACT_DIRS (${MWCCM_ARTIFACT_DIRS}); build the components with "
              "mwccm_generate(... EXECUTORS ...), which writes it beside the module")
    endif()
    target_link_libraries(${program} PRIVATE "${MWCCM_ARCHIVE_${variable}}")
  endforeach()
  # After the archives, which need them.
  target_link_libraries(${program} PRIVATE mwccm::static mwccm::mwccm)
endfunction()
