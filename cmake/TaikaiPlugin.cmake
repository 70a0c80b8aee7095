# taikai_add_plugin(<name> <source>...) — builds the agent plugin <name>.so: a MODULE library
# (no "lib" prefix) linked to taikai::taikai, compiled with hidden visibility (C and C++) so
# that it exports only taikai_agent_entry, the symbol TK_AGENT_ENTRY defines. taikai finds it
# by name in a folder of TAIKAI_PLUGIN_PATH, or by the path to the .so in a spec.
# Options: OUTPUT_DIRECTORY <dir> (where the .so is written; default: the current binary dir).
function(taikai_add_plugin name)
  cmake_parse_arguments(PARSE_ARGV 1 TKP "" "OUTPUT_DIRECTORY" "")
  if(NOT TKP_UNPARSED_ARGUMENTS)
    message(FATAL_ERROR "taikai_add_plugin(${name}): no source files")
  endif()
  if(NOT name MATCHES "^[a-z0-9_-]+$")
    message(FATAL_ERROR "taikai_add_plugin(${name}): a plugin name is [a-z0-9_-]+ "
                        "(the name specs and `taikai plugins` use)")
  endif()
  add_library(${name} MODULE ${TKP_UNPARSED_ARGUMENTS})
  target_link_libraries(${name} PRIVATE taikai::taikai)
  set_target_properties(${name} PROPERTIES
    PREFIX ""
    C_VISIBILITY_PRESET hidden
    CXX_VISIBILITY_PRESET hidden
    VISIBILITY_INLINES_HIDDEN ON
    POSITION_INDEPENDENT_CODE ON)
  # The headers are C11 (and C++11 and later).
  get_property(_langs GLOBAL PROPERTY ENABLED_LANGUAGES)
  if("C" IN_LIST _langs)
    target_compile_features(${name} PRIVATE c_std_11)
  endif()
  if("CXX" IN_LIST _langs)
    target_compile_features(${name} PRIVATE cxx_std_11)
  endif()
  if(TKP_OUTPUT_DIRECTORY)
    set_target_properties(${name} PROPERTIES LIBRARY_OUTPUT_DIRECTORY ${TKP_OUTPUT_DIRECTORY})
  endif()
endfunction()
