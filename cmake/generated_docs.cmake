# The man page and the shell completions, generated at build time from the
# CLI's option table (src/cli/options.c) by tools/gendocs, so they cannot
# drift from what the commands accept:
#   ${CMAKE_BINARY_DIR}/doc/animsmith.1
#   ${CMAKE_BINARY_DIR}/completions/{animsmith.bash,_animsmith,animsmith.fish}
file(GLOB ANIMSMITH_GENDOCS_SOURCES CONFIGURE_DEPENDS ${CMAKE_SOURCE_DIR}/tools/gendocs/*.c)
add_executable(animsmith-gendocs ${ANIMSMITH_GENDOCS_SOURCES} ${CMAKE_SOURCE_DIR}/src/cli/options.c)
target_include_directories(animsmith-gendocs PRIVATE ${CMAKE_SOURCE_DIR}/src/cli
                                                     ${CMAKE_BINARY_DIR}/generated)
target_link_libraries(animsmith-gendocs PRIVATE animsmith_lib)

set(ANIMSMITH_GENERATED_DOCS
    ${CMAKE_BINARY_DIR}/doc/animsmith.1
    ${CMAKE_BINARY_DIR}/completions/animsmith.bash
    ${CMAKE_BINARY_DIR}/completions/_animsmith
    ${CMAKE_BINARY_DIR}/completions/animsmith.fish)
add_custom_command(
  OUTPUT ${ANIMSMITH_GENERATED_DOCS}
  COMMAND animsmith-gendocs ${CMAKE_BINARY_DIR}
  DEPENDS animsmith-gendocs
  COMMENT "Generating the man page and shell completions from the option table"
  VERBATIM)
add_custom_target(animsmith_docs ALL DEPENDS ${ANIMSMITH_GENERATED_DOCS})
