# Turns src/<area>/lua/<name>.lua files into one C++ file of string constants:
#   namespace redisson::detail::lua { extern const std::string_view <name>; }
# Called by the build with -DOUTPUT=<file.cpp> -DINPUTS=<a.lua|b.lua>.
string(REPLACE "|" ";" INPUTS "${INPUTS}")
set(body "// Generated from src/*/lua/*.lua by cmake/embed_lua.cmake. Do not edit.\n")
string(APPEND body "#include <string_view>\n\nnamespace redisson::detail::lua {\n")
foreach(input IN LISTS INPUTS)
  get_filename_component(name ${input} NAME_WE)
  file(READ ${input} source)
  string(APPEND body "extern const std::string_view ${name};\n")
  string(APPEND body "const std::string_view ${name} = R\"redisson_lua(${source})redisson_lua\";\n")
endforeach()
string(APPEND body "}  // namespace redisson::detail::lua\n")
file(WRITE ${OUTPUT}.tmp "${body}")
file(COPY_FILE ${OUTPUT}.tmp ${OUTPUT} ONLY_IF_DIFFERENT)
