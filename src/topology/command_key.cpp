#include "topology/command_key.hpp"

#include <algorithm>
#include <array>
#include <cctype>
#include <charconv>
#include <string>

namespace redisson::detail {
namespace {

bool iequals(std::string_view a, std::string_view b) {
  return a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin(), [](char x, char y) {
           return std::tolower(static_cast<unsigned char>(x)) ==
                  std::tolower(static_cast<unsigned char>(y));
         });
}

// Commands whose second argument is not a key; they may run on any node.
constexpr std::array<std::string_view, 20> kKeyless{
    "PING",  "SCRIPT",   "CLUSTER", "INFO", "CLIENT",   "CONFIG", "HELLO",
    "AUTH",  "SELECT",   "ECHO",    "TIME", "DBSIZE",   "ROLE",   "COMMAND",
    "DEBUG", "FLUSHALL", "FLUSHDB", "WAIT", "READONLY", "ASKING"};

/// XREAD / XREADGROUP: the first key after STREAMS, past the options before it (GROUP g c,
/// COUNT n, BLOCK ms, NOACK), so a group or consumer named "STREAMS" is not taken for it.
std::optional<std::string_view> stream_read_key(const Command& command, std::size_t index) {
  while (const auto word = command_argument(command, index)) {
    if (iequals(*word, "STREAMS")) return command_argument(command, index + 1);
    if (iequals(*word, "GROUP")) {
      index += 3;
    } else if (iequals(*word, "COUNT") || iequals(*word, "BLOCK")) {
      index += 2;
    } else {
      index += 1;
    }
  }
  return std::nullopt;
}

}  // namespace

std::optional<std::string_view> command_argument(const Command& command, std::size_t index) {
  // The encoding is "$<len>\r\n<bytes>\r\n" per argument.
  std::string_view body = command.encoded_arguments();
  for (std::size_t i = 0; !body.empty(); ++i) {
    const auto header_end = body.find("\r\n");
    if (body.front() != '$' || header_end == std::string_view::npos) return std::nullopt;
    std::size_t length = 0;
    std::from_chars(body.data() + 1, body.data() + header_end, length);
    if (header_end + 2 + length > body.size()) return std::nullopt;
    if (i == index) return body.substr(header_end + 2, length);
    body.remove_prefix(std::min(body.size(), header_end + 2 + length + 2));
  }
  return std::nullopt;
}

std::optional<std::string_view> routing_key(const Command& command) {
  const auto name = command.name();
  if (iequals(name, "EVALSHA") || iequals(name, "EVAL") || iequals(name, "EVALSHA_RO") ||
      iequals(name, "EVAL_RO") || iequals(name, "FCALL") || iequals(name, "FCALL_RO")) {
    const auto numkeys = command_argument(command, 2);
    if (!numkeys || *numkeys == "0") return std::nullopt;
    return command_argument(command, 3);
  }
  if (iequals(name, "XREAD") || iequals(name, "XREADGROUP")) return stream_read_key(command, 1);
  // XGROUP CREATE key ..., XINFO STREAM key: the key follows the subcommand.
  if (iequals(name, "XGROUP") || iequals(name, "XINFO")) return command_argument(command, 2);
  for (const auto keyless : kKeyless) {
    if (iequals(name, keyless)) return std::nullopt;
  }
  return command_argument(command, 1);
}

}  // namespace redisson::detail
