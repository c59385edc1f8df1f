# Turns the report viewer's stylesheet and scripts into one C source, so
# the binary carries them and a report needs no file beside the program.
# Invoked at build time: cmake -DOUT=... -DCSS=... -DJS="a.js|b.js" -P embed_viewer.cmake
# The scripts are joined in the order given (file-name order), each after
# a newline, so a file that ends without one cannot run into the next.
function(embed_bytes var text)
  string(HEX "${text}" hex)
  string(LENGTH "${hex}" hex_len)
  math(EXPR byte_count "${hex_len} / 2")
  string(REGEX REPLACE "([0-9a-f][0-9a-f])" "0x\\1," body "${hex}")
  string(REGEX REPLACE "((0x[0-9a-f][0-9a-f],){24})" "\\1\n" body "${body}")
  set(${var} "${body}" PARENT_SCOPE)
  set(${var}_LEN ${byte_count} PARENT_SCOPE)
endfunction()

file(READ "${CSS}" css_text)
set(js_text "")
string(REPLACE "|" ";" js_files "${JS}")
foreach(js ${js_files})
  file(READ "${js}" one)
  string(APPEND js_text "${one}\n")
endforeach()
embed_bytes(css "${css_text}")
embed_bytes(js "${js_text}")
file(WRITE "${OUT}.tmp"
"/* Generated from src/report/viewer by cmake/embed_viewer.cmake. */\n#include <stddef.h>\n\n"
"const char anim_report_viewer_css[] = {\n${css}0x00};\n"
"const size_t anim_report_viewer_css_len = ${css_LEN};\n\n"
"const char anim_report_viewer_js[] = {\n${js}0x00};\n"
"const size_t anim_report_viewer_js_len = ${js_LEN};\n")
file(RENAME "${OUT}.tmp" "${OUT}")
