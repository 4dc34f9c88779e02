// Functions: FUNCTION LOAD / DELETE / RESTORE / FLUSH / KILL on every master, FCALL routed by
// its first key, and FUNCTION LIST / STATS read into structs (RESP2 flat arrays and RESP3 maps
// alike: both are key, value, key, value, ...).
#include "redisson/objects/functions.hpp"

#include "objects/script_call.hpp"
#include "objects/send.hpp"

namespace redisson::detail {
namespace {

// The value under `name` in a reply of key/value pairs (a RESP3 map or a RESP2 flat array);
// null when absent.
const Reply& functions_field(const Reply& pairs, std::string_view name) {
  static const Reply kAbsent;
  for (std::size_t i = 0; i + 1 < pairs.elements.size(); i += 2) {
    if (pairs.elements[i].str == name) return pairs.elements[i + 1];
  }
  return kAbsent;
}

std::string functions_text(const Reply& reply) {
  return reply.is_null() ? std::string{} : reply.str;
}

std::vector<std::string> functions_texts(const Reply& reply) {
  std::vector<std::string> texts;
  for (const auto& element : reply.elements) {
    texts.push_back(element.is_integer() ? std::to_string(element.integer) : element.str);
  }
  return texts;
}

}  // namespace

Command function_load_command(std::string_view library, std::string_view code, bool replace) {
  if (library.empty()) throw_invalid_argument("Functions: the library name must not be empty");
  if (code.empty()) throw_invalid_argument("Functions: the library code must not be empty");
  Command load{"FUNCTION", "LOAD"};
  if (replace) load.arg("REPLACE");
  // Redisson's shebang, byte for byte (the space before the newline and after it included).
  std::string source = "#!lua name=";
  source.append(library).append(" \n ").append(code);
  load.arg(source);
  return load;
}

Command function_command(const char* verb, std::string_view argument, const char* what,
                         const char* option) {
  if (argument.empty())
    throw_invalid_argument(std::string("Functions: ") + what + " must not be empty");
  Command command{"FUNCTION", verb, argument};
  if (option != nullptr) command.arg(option);
  return command;
}

void start_functions_call(const ObjectPtr& state, FunctionMode mode, std::string_view name,
                          const std::vector<std::string>& keys,
                          const std::vector<std::string>& values, Done<Reply>& done) {
  if (name.empty()) throw_invalid_argument("Functions::call: the function name must not be empty");
  const char* verb = mode == FunctionMode::read ? "FCALL_RO" : "FCALL";
  submit_command(state, script_call_command(verb, name, keys, values), std::move(done));
}

std::vector<FunctionLibrary> reply_function_list(const Reply& reply) {
  if (!reply.is_aggregate()) throw_unexpected_reply("FUNCTION LIST libraries", reply);
  std::vector<FunctionLibrary> libraries;
  for (const auto& entry : reply.elements) {
    if (!entry.is_aggregate()) throw_unexpected_reply("a FUNCTION LIST library", entry);
    FunctionLibrary& library = libraries.emplace_back();
    library.name = functions_text(functions_field(entry, "library_name"));
    library.engine = functions_text(functions_field(entry, "engine"));
    for (const auto& function : functions_field(entry, "functions").elements) {
      FunctionInfo& info = library.functions.emplace_back();
      info.name = functions_text(functions_field(function, "name"));
      info.description = functions_text(functions_field(function, "description"));
      info.flags = functions_texts(functions_field(function, "flags"));
    }
  }
  return libraries;
}

FunctionStats reply_function_stats(const Reply& reply) {
  if (!reply.is_aggregate()) throw_unexpected_reply("FUNCTION STATS", reply);
  FunctionStats stats;
  const Reply& running = functions_field(reply, "running_script");
  if (running.is_aggregate()) {
    stats.running = FunctionStats::Running{
        functions_text(functions_field(running, "name")),
        functions_texts(functions_field(running, "command")),
        std::chrono::milliseconds{functions_field(running, "duration_ms").integer}};
  }
  const Reply& engines = functions_field(reply, "engines");
  for (std::size_t i = 0; i + 1 < engines.elements.size(); i += 2) {
    const Reply& counts = engines.elements[i + 1];
    stats.engines[engines.elements[i].str] =
        FunctionStats::Engine{functions_field(counts, "libraries_count").integer,
                              functions_field(counts, "functions_count").integer};
  }
  return stats;
}

std::string reply_function_dump(const Reply& reply) {
  if (!reply.is_string()) throw_unexpected_reply("a FUNCTION DUMP payload", reply);
  return reply.str;
}

}  // namespace redisson::detail
