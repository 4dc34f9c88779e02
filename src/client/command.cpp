#include "redisson/command.hpp"

#include <charconv>

#include "resp/writer.hpp"

namespace redisson {

Command::Command(std::initializer_list<std::string_view> args) {
  for (auto value : args) arg(value);
}

Command& Command::arg(std::string_view value) & {
  detail::resp::append_bulk(body_, value);
  ++argc_;
  return *this;
}

Command& Command::arg(std::int64_t value) & {
  char digits[24];
  const auto result = std::to_chars(digits, digits + sizeof digits, value);
  return arg(std::string_view(digits, static_cast<std::size_t>(result.ptr - digits)));
}

std::string_view Command::name() const noexcept {
  // body_ starts with "$<len>\r\n<name>\r\n".
  const auto header_end = body_.find("\r\n");
  if (header_end == std::string::npos) return {};
  std::size_t length = 0;
  std::from_chars(body_.data() + 1, body_.data() + header_end, length);
  return std::string_view(body_).substr(header_end + 2, length);
}

}  // namespace redisson
