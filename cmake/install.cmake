# Install rules: `cmake --install BUILD [--prefix DIR]`, or `make install`
# (PREFIX=/usr/local, DESTDIR honoured), puts the program, the public
# headers, the static library, a pkg-config file, the man page and the
# shell completions where a Unix prefix keeps them.
include(GNUInstallDirs)

install(TARGETS animsmith RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
install(TARGETS animsmith_lib ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR})
# Every header under include/animsmith/ is public: the CLI is built on
# these alone, so an embedding program can do whatever the CLI does.
install(DIRECTORY ${CMAKE_SOURCE_DIR}/include/animsmith
        DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}
        FILES_MATCHING PATTERN "*.h")

# animsmith.pc must name the prefix the files really land under, and
# `cmake --install --prefix DIR` can change it after configuring. So the
# file is made in two passes: the paths below the prefix now, the prefix
# itself at install time (the placeholder survives the first pass).
foreach(dir LIBDIR INCLUDEDIR)
  if(IS_ABSOLUTE "${CMAKE_INSTALL_${dir}}")
    set(ANIMSMITH_PC_${dir} "${CMAKE_INSTALL_${dir}}")
  else()
    set(ANIMSMITH_PC_${dir} "\${prefix}/${CMAKE_INSTALL_${dir}}")
  endif()
endforeach()
set(ANIMSMITH_PC_PREFIX "@ANIMSMITH_PC_PREFIX@")
configure_file(${CMAKE_CURRENT_LIST_DIR}/animsmith.pc.in
               ${CMAKE_BINARY_DIR}/pkgconfig/animsmith.pc.in @ONLY)
install(CODE "
  set(ANIMSMITH_PC_PREFIX \"\${CMAKE_INSTALL_PREFIX}\")
  configure_file(\"${CMAKE_BINARY_DIR}/pkgconfig/animsmith.pc.in\"
                 \"${CMAKE_BINARY_DIR}/pkgconfig/animsmith.pc\" @ONLY)
")
install(FILES ${CMAKE_BINARY_DIR}/pkgconfig/animsmith.pc
        DESTINATION ${CMAKE_INSTALL_LIBDIR}/pkgconfig)

# The man page and completions are generated at build time from the CLI's
# option tables (cmake/generated_docs.cmake); OPTIONAL keeps an install
# working in a build that has not generated them.
install(FILES ${CMAKE_BINARY_DIR}/doc/animsmith.1
        DESTINATION ${CMAKE_INSTALL_MANDIR}/man1 OPTIONAL)
install(FILES ${CMAKE_BINARY_DIR}/completions/animsmith.bash
        DESTINATION ${CMAKE_INSTALL_DATADIR}/bash-completion/completions
        RENAME animsmith OPTIONAL)
install(FILES ${CMAKE_BINARY_DIR}/completions/_animsmith
        DESTINATION ${CMAKE_INSTALL_DATADIR}/zsh/site-functions OPTIONAL)
install(FILES ${CMAKE_BINARY_DIR}/completions/animsmith.fish
        DESTINATION ${CMAKE_INSTALL_DATADIR}/fish/vendor_completions.d OPTIONAL)

install(FILES ${CMAKE_SOURCE_DIR}/README.md ${CMAKE_SOURCE_DIR}/LICENSE
              ${CMAKE_SOURCE_DIR}/LICENSE-MIT ${CMAKE_SOURCE_DIR}/LICENSE-APACHE
        DESTINATION ${CMAKE_INSTALL_DOCDIR})
install(FILES ${CMAKE_SOURCE_DIR}/examples/embed.c
        DESTINATION ${CMAKE_INSTALL_DOCDIR}/examples)
