#include "redisson/command.hpp"

#include <algorithm>
#include <bit>
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

/// Where a command's routing key is, by its name.
enum class KeyRule : std::uint8_t {
  kFirstArgument,    // GET key, HSET key ..., PUBLISH channel ...: the usual case
  kKeyless,          // PING, SCRIPT LOAD ...: any node will do
  kAfterNumkeys,     // EVAL script numkeys key ...
  kAfterStreams,     // XREAD ... STREAMS key ...
  kAfterSubcommand,  // XGROUP CREATE key ..., XINFO STREAM key
};

// A name of up to 8 bytes as an integer, byte i at bits 8i: what the rules switch on.
constexpr std::uint64_t pack(std::string_view upper) noexcept {
  std::uint64_t word = 0;
  for (std::size_t i = 0; i < upper.size(); ++i) {
    word |= std::uint64_t{static_cast<unsigned char>(upper[i])} << (8 * i);
  }
  return word;
}

/// `name` upper-cased and packed as pack() does; 0 when it is longer than 8 bytes or has a byte
/// 0 or >= 0x80 (then it is none of the named commands). Every command's name goes through
/// here: a handful of word operations, no loop over a table.
std::uint64_t packed_name(std::string_view name) noexcept {
  constexpr std::uint64_t kOnes = 0x0101010101010101;
  constexpr std::uint64_t kHigh = kOnes * 0x80;
  const std::size_t size = name.size();
  if (size == 0 || size > 8) return 0;
  std::uint64_t word = 0;
  if constexpr (std::endian::native == std::endian::little) {
    // Two loads that overlap for 5 to 7 bytes (OR-ing a byte with itself changes nothing).
    if (size >= 4) {
      std::uint32_t low = 0;
      std::uint32_t high = 0;
      std::memcpy(&low, name.data(), 4);
      std::memcpy(&high, name.data() + size - 4, 4);
      word = low | (std::uint64_t{high} << (8 * (size - 4)));
    } else {
      for (std::size_t i = 0; i < size; ++i) {
        word |= std::uint64_t{static_cast<unsigned char>(name[i])} << (8 * i);
      }
    }
  } else {
    for (std::size_t i = 0; i < size; ++i) {
      word |= std::uint64_t{static_cast<unsigned char>(name[i])} << (8 * i);
    }
  }
  const std::uint64_t used = size == 8 ? ~std::uint64_t{0} : (std::uint64_t{1} << (8 * size)) - 1;
  const std::uint64_t padded = word | ~used;  // the bytes past the name: 0xFF, not 0
  if ((word & kHigh) != 0 || ((padded - kOnes) & ~padded & kHigh) != 0) return 0;
  // Every byte is below 0x80, so these sums carry into no other byte.
  const std::uint64_t from_a = word + kOnes * (0x80 - 'a');      // high bit: byte >= 'a'
  const std::uint64_t past_z = word + kOnes * (0x80 - 'z' - 1);  // high bit: byte > 'z'
  return word ^ ((from_a & ~past_z & kHigh) >> 2);               // 'a'..'z' -> 'A'..'Z'
}

/// ASCII case-insensitive `value == upper` (`upper` in upper case).
bool is_word(std::string_view value, std::string_view upper) noexcept {
  return value.size() == upper.size() &&
         std::equal(value.begin(), value.end(), upper.begin(), [](char c, char u) {
           return (c >= 'a' && c <= 'z' ? static_cast<char>(c - 'a' + 'A') : c) == u;
         });
}

KeyRule rule_for(std::string_view name) noexcept {
  switch (packed_name(name)) {
    case pack("PING"):
    case pack("SCRIPT"):
    case pack("CLUSTER"):
    case pack("INFO"):
    case pack("CLIENT"):
    case pack("CONFIG"):
    case pack("HELLO"):
    case pack("AUTH"):
    case pack("SELECT"):
    case pack("ECHO"):
    case pack("TIME"):
    case pack("DBSIZE"):
    case pack("ROLE"):
    case pack("COMMAND"):
    case pack("DEBUG"):
    case pack("FLUSHALL"):
    case pack("FLUSHDB"):
    case pack("WAIT"):
    case pack("READONLY"):
    case pack("ASKING"):
      return KeyRule::kKeyless;
    case pack("EVALSHA"):
    case pack("EVAL"):
    case pack("EVAL_RO"):
    case pack("FCALL"):
    case pack("FCALL_RO"):
      return KeyRule::kAfterNumkeys;
    case pack("XREAD"):
      return KeyRule::kAfterStreams;
    case pack("XGROUP"):
    case pack("XINFO"):
      return KeyRule::kAfterSubcommand;
    case 0:
      // Longer than 8: the two named commands that are.
      if (is_word(name, "EVALSHA_RO")) return KeyRule::kAfterNumkeys;
      if (is_word(name, "XREADGROUP")) return KeyRule::kAfterStreams;
      return KeyRule::kFirstArgument;
    default:
      return KeyRule::kFirstArgument;
  }
}

}  // namespace

Command::Command(std::initializer_list<std::string_view> args) {
  std::size_t size = 0;
  for (auto value : args) size += kBulkOverhead + value.size();
  if (size > kInlineCapacity) reserve_more(size);
  for (auto value : args) {
    const std::size_t offset = append_bulk(value);
    // Once the key is decided (after argument 1, for most commands) an argument costs a compare.
    if (key_state_ < KeyState::kNone) note_argument(offset, value);
  }
}

Command::Command(const Command& other)
    : size_(other.size_), argc_(other.argc_) {  // NOLINT(cppcoreguidelines-pro-type-member-init)
  if (other.heap_) {
    heap_ = std::make_unique_for_overwrite<char[]>(other.size_);
    heap_capacity_ = other.size_;
  }
  std::memcpy(data(), other.data(), size_);
  copy_key_from(other);
}

Command::Command(Command&& other) noexcept  // NOLINT(cppcoreguidelines-pro-type-member-init)
    : heap_(std::move(other.heap_)),
      heap_capacity_(std::exchange(other.heap_capacity_, 0)),
      size_(std::exchange(other.size_, 0)),
      argc_(std::exchange(other.argc_, 0)) {
  if (!heap_) std::memcpy(inline_, other.inline_, size_);
  copy_key_from(other);
  other.key_state_ = KeyState::kName;
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
    copy_key_from(other);
    other.key_state_ = KeyState::kName;
  }
  return *this;
}

void Command::copy_key_from(const Command& other) noexcept {
  // An offset, not a pointer: it names the same bytes in this command's own buffer.
  key_offset_ = other.key_offset_;
  key_length_ = other.key_length_;
  key_state_ = other.key_state_;
  key_skip_ = other.key_skip_;
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

std::size_t Command::append_bulk(std::string_view value) {
  // "$<len>\r\n<value>\r\n", written in place.
  reserve_more(kBulkOverhead + value.size());
  size_ += detail::resp::write_header(data() + size_, '$', value.size());
  const std::size_t offset = size_;
  append(value);
  append("\r\n");
  ++argc_;
  return offset;
}

void Command::note_argument(std::size_t offset, std::string_view value) noexcept {
  switch (key_state_) {
    case KeyState::kName:
      switch (rule_for(value)) {
        case KeyRule::kFirstArgument:
          key_state_ = KeyState::kNext;
          key_skip_ = 0;
          return;
        case KeyRule::kKeyless:
          key_state_ = KeyState::kNone;
          return;
        case KeyRule::kAfterNumkeys:
          // The script (or its SHA, or the function's name) comes before numkeys.
          key_state_ = KeyState::kNumkeys;
          key_skip_ = 1;
          return;
        case KeyRule::kAfterStreams:
          key_state_ = KeyState::kStreams;
          key_skip_ = 0;
          return;
        case KeyRule::kAfterSubcommand:
          key_state_ = KeyState::kNext;
          key_skip_ = 1;
          return;
      }
      return;
    case KeyState::kNext:
      if (key_skip_ > 0) {
        --key_skip_;
        return;
      }
      key_offset_ = offset;
      key_length_ = value.size();
      key_state_ = KeyState::kKey;
      return;
    case KeyState::kNumkeys: {
      if (key_skip_ > 0) {  // the script or its SHA
        --key_skip_;
        return;
      }
      long long numkeys = 0;
      const auto parsed = std::from_chars(value.data(), value.data() + value.size(), numkeys);
      const bool some =
          parsed.ec == std::errc{} && parsed.ptr == value.data() + value.size() && numkeys > 0;
      key_state_ = some ? KeyState::kNext : KeyState::kNone;
      key_skip_ = 0;
      return;
    }
    case KeyState::kStreams:
      // Options before STREAMS are passed with their values (GROUP g c, COUNT n, BLOCK ms), so
      // that a group or consumer named "STREAMS" is not taken for the keyword.
      if (key_skip_ > 0) {
        --key_skip_;
      } else if (is_word(value, "STREAMS")) {
        key_state_ = KeyState::kNext;
      } else if (is_word(value, "GROUP")) {
        key_skip_ = 2;
      } else if (is_word(value, "COUNT") || is_word(value, "BLOCK")) {
        key_skip_ = 1;
      }
      return;
    case KeyState::kNone:
    case KeyState::kKey:
    case KeyState::kExplicit:
      return;
  }
}

Command& Command::arg(std::string_view value) & {
  const std::size_t offset = append_bulk(value);
  if (key_state_ < KeyState::kNone) note_argument(offset, value);
  return *this;
}

Command& Command::arg(std::int64_t value) & {
  char digits[24];
  const auto result = std::to_chars(digits, digits + sizeof digits, value);
  return arg(std::string_view(digits, static_cast<std::size_t>(result.ptr - digits)));
}

Command& Command::key(std::string_view value) & {
  const std::size_t offset = append_bulk(value);
  if (key_state_ != KeyState::kExplicit) {
    key_offset_ = offset;
    key_length_ = value.size();
    key_state_ = KeyState::kExplicit;
  }
  return *this;
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
