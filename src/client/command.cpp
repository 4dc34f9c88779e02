#include "redisson/command.hpp"

#include <algorithm>
#include <charconv>

#include "resp/writer.hpp"

namespace redisson {
namespace {

// Room for a few arguments appended after construction (leases, owner fields, flags) without
// a reallocation.
constexpr std::size_t kAppendSlack = 96;

// Bytes of one argument as a bulk string: "$<len>\r\n<arg>\r\n".
std::size_t bulk_size(std::size_t length) {
  std::size_t digits = 1;
  for (auto rest = length; rest >= 10; rest /= 10) ++digits;
  return 1 + digits + 2 + length + 2;
}

}  // namespace

Command::Command(std::initializer_list<std::string_view> args) {
  // One allocation for the whole command instead of a doubling string per argument: building
  // commands is on every operation's path.
  std::size_t size = kAppendSlack;
  for (auto value : args) size += bulk_size(value.size());
  body_.reserve(size);
  for (auto value : args) arg(value);
}

Command& Command::arg(std::string_view value) & {
  const std::size_t needed = body_.size() + bulk_size(value.size());
  if (needed > body_.capacity())
    body_.reserve(std::max(needed + kAppendSlack, 2 * body_.capacity()));
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
