#include "redisson/command.hpp"

#include <algorithm>
#include <charconv>
#include <cstring>
#include <utility>

#include "resp/writer.hpp"

namespace redisson {
namespace {

// Room for a few arguments appended after construction (leases, owner fields, flags) without
// a reallocation, once a command has outgrown the inline buffer.
constexpr std::size_t kAppendSlack = 96;

// The most a bulk string adds besides its bytes: its header and the closing CRLF.
constexpr std::size_t kBulkOverhead = detail::resp::kMaxHeaderSize + 2;

}  // namespace

Command::Command(std::initializer_list<std::string_view> args) {
  std::size_t size = 0;
  for (auto value : args) size += kBulkOverhead + value.size();
  if (size > kInlineCapacity) reserve_more(size);
  for (auto value : args) append_bulk(value);
}

Command::Command(const Command& other)
    : size_(other.size_), argc_(other.argc_) {  // NOLINT(cppcoreguidelines-pro-type-member-init)
  if (other.heap_) {
    heap_ = std::make_unique_for_overwrite<char[]>(other.size_);
    heap_capacity_ = other.size_;
  }
  std::memcpy(data(), other.data(), size_);
}

Command::Command(Command&& other) noexcept  // NOLINT(cppcoreguidelines-pro-type-member-init)
    : heap_(std::move(other.heap_)),
      heap_capacity_(std::exchange(other.heap_capacity_, 0)),
      size_(std::exchange(other.size_, 0)),
      argc_(std::exchange(other.argc_, 0)) {
  if (!heap_) std::memcpy(inline_, other.inline_, size_);
}

Command& Command::operator=(const Command& other) {
  if (this != &other) *this = Command(other);
  return *this;
}

Command& Command::operator=(Command&& other) noexcept {
  if (this != &other) {
    heap_ = std::move(other.heap_);
    heap_capacity_ = std::exchange(other.heap_capacity_, 0);
    size_ = std::exchange(other.size_, 0);
    argc_ = std::exchange(other.argc_, 0);
    if (!heap_) std::memcpy(inline_, other.inline_, size_);
  }
  return *this;
}

void Command::reserve_more(std::size_t extra) {
  const std::size_t needed = size_ + extra;
  if (needed <= capacity()) return;
  const std::size_t grown = std::max(needed + kAppendSlack, 2 * capacity());
  auto bigger = std::make_unique_for_overwrite<char[]>(grown);
  std::memcpy(bigger.get(), data(), size_);
  heap_ = std::move(bigger);
  heap_capacity_ = grown;
}

void Command::append(std::string_view bytes) noexcept {
  std::memcpy(data() + size_, bytes.data(), bytes.size());
  size_ += bytes.size();
}

void Command::append_bulk(std::string_view value) {
  // "$<len>\r\n<value>\r\n", written in place.
  reserve_more(kBulkOverhead + value.size());
  size_ += detail::resp::write_header(data() + size_, '$', value.size());
  append(value);
  append("\r\n");
  ++argc_;
}

Command& Command::arg(std::string_view value) & {
  append_bulk(value);
  return *this;
}

Command& Command::arg(std::int64_t value) & {
  char digits[24];
  const auto result = std::to_chars(digits, digits + sizeof digits, value);
  return arg(std::string_view(digits, static_cast<std::size_t>(result.ptr - digits)));
}

std::string_view Command::name() const noexcept {
  // The body starts with "$<len>\r\n<name>\r\n".
  const std::string_view body = encoded_arguments();
  const auto header_end = body.find("\r\n");
  if (header_end == std::string_view::npos) return {};
  std::size_t length = 0;
  std::from_chars(body.data() + 1, body.data() + header_end, length);
  return body.substr(header_end + 2, length);
}

}  // namespace redisson
