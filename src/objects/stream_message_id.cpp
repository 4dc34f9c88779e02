#include "redisson/objects/stream_message_id.hpp"

#include <charconv>
#include <string>
#include <system_error>

#include "redisson/detail/object_op.hpp"

namespace redisson {
namespace {

/// Decimal digits only, the whole of `text`, within 64 bits.
bool parse_part(std::string_view text, std::uint64_t& value) {
  if (text.empty()) return false;
  const auto* const end = text.data() + text.size();
  const auto [at, ec] = std::from_chars(text.data(), end, value);
  return ec == std::errc{} && at == end;
}

}  // namespace

StreamMessageId StreamMessageId::parse(std::string_view text) {
  if (text == "*") return auto_generated();
  if (text == "$") return newest();
  if (text == ">") return never_delivered();
  if (text == "-") return min();
  if (text == "+") return max();
  const auto dash = text.find('-');
  std::uint64_t ms = 0;
  std::uint64_t seq = 0;
  const bool valid = dash == std::string_view::npos ? parse_part(text, ms)
                                                    : parse_part(text.substr(0, dash), ms) &&
                                                          parse_part(text.substr(dash + 1), seq);
  if (!valid) {
    detail::throw_invalid_argument("not a stream id: \"" + std::string(text) +
                                   "\" (expected <ms>-<seq>)");
  }
  return {ms, seq};
}

std::string StreamMessageId::to_string() const {
  switch (kind_) {
    case Kind::auto_generated:
      return "*";
    case Kind::newest:
      return "$";
    case Kind::never_delivered:
      return ">";
    case Kind::min:
      return "-";
    case Kind::max:
      return "+";
    case Kind::id:
      break;
  }
  return std::to_string(ms_) + "-" + std::to_string(seq_);
}

}  // namespace redisson
