// A Redis command ready to send: its arguments encoded once, as RESP bulk strings, and the key
// it is about (which decides its Cluster node) known from the moment it is built.
#pragma once

#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

namespace redisson {

/// The arguments of one command, encoded on construction so that sending it is a memcpy.
///
///     Command{"SET", key, value}                    // from strings
///     Command{"EXPIRE", key}.arg(std::int64_t{10})  // integers are sent as decimal text
///     Command{"OBJECT", "ENCODING"}.key(name)       // the key named, where the rules miss it
///
/// The routing key (what a Cluster routes the command by) is recorded as arguments are
/// appended, as a place in the command's own buffer: no allocation, no parsing when it is sent
/// or resent. Unless key() names it, it follows the command's name: none for keyless commands
/// (PING, SCRIPT, CLUSTER, INFO, CLIENT, CONFIG, ...); for EVAL, EVALSHA, FCALL and their _RO
/// forms the first key after numkeys (none when numkeys is 0); for XREAD and XREADGROUP the
/// first key after STREAMS; for XGROUP and XINFO the argument after the subcommand; otherwise
/// argument 1 (GET key, HSET key ..., PUBLISH channel ...).
///
/// Cost: up to 136 bytes of arguments are kept inline (most commands allocate nothing); past
/// that, one heap buffer grown geometrically. The name is looked up once, as one 64-bit word.
class Command {
 public:
  Command() noexcept = default;
  Command(std::initializer_list<std::string_view> args);
  Command(const Command& other);
  Command(Command&& other) noexcept;
  Command& operator=(const Command& other);
  Command& operator=(Command&& other) noexcept;
  ~Command() = default;

  /// Appends one argument (binary-safe).
  Command& arg(std::string_view value) &;
  Command&& arg(std::string_view value) && { return std::move(arg(value)); }
  /// Appends an integer argument as decimal text.
  Command& arg(std::int64_t value) &;
  Command&& arg(std::int64_t value) && { return std::move(arg(value)); }
  Command& arg(const char* value) & { return arg(std::string_view(value)); }
  Command&& arg(const char* value) && { return std::move(arg(std::string_view(value))); }
  Command& arg(const std::string& value) & { return arg(std::string_view(value)); }
  Command&& arg(const std::string& value) && { return std::move(arg(std::string_view(value))); }

  /// Appends a key argument; the first key() is the routing key, whatever the rules chose.
  ///
  /// Later key() calls append keys that do not change the routing (on a Cluster, the keys of
  /// one command must share a slot anyway).
  Command& key(std::string_view value) &;
  Command&& key(std::string_view value) && { return std::move(key(value)); }

  /// The key the command is routed by (a view into this command); nullopt: any node will do.
  std::optional<std::string_view> routing_key() const noexcept {
    if (key_state_ != KeyState::kKey && key_state_ != KeyState::kExplicit) return std::nullopt;
    return std::string_view(data() + key_offset_, key_length_);
  }

  /// Number of arguments, the command name included.
  std::size_t size() const noexcept { return argc_; }
  bool empty() const noexcept { return argc_ == 0; }
  /// The arguments as RESP bulk strings, without the leading array header.
  std::string_view encoded_arguments() const noexcept { return {data(), size_}; }
  /// The first argument (the command's name), for error messages.
  std::string_view name() const noexcept;

 private:
  // Most commands (a verb, a key, a field or two) fit here: building one then allocates nothing,
  // and every operation builds one.
  static constexpr std::size_t kInlineCapacity = 136;

  /// Where the routing key stands; the first states wait for more arguments to decide.
  enum class KeyState : std::uint8_t {
    // Undecided: the next argument moves the rules on (callers of note_argument rely on this
    // order).
    kName,     // nothing appended: the next argument is the command's name
    kNext,     // the key is the argument after key_skip_ more
    kNumkeys,  // EVAL and kin: numkeys is the argument after key_skip_ more
    kStreams,  // XREAD(GROUP): options until STREAMS; key_skip_ option values to pass
    // Decided: later arguments change nothing.
    kNone,      // decided: no key
    kKey,       // decided by the rules: key_offset_, key_length_
    kExplicit,  // named by key(): later arguments change nothing
  };

  const char* data() const noexcept { return heap_ ? heap_.get() : inline_; }
  char* data() noexcept { return heap_ ? heap_.get() : inline_; }
  std::size_t capacity() const noexcept { return heap_ ? heap_capacity_ : kInlineCapacity; }
  /// Room for `extra` more bytes, growing geometrically.
  void reserve_more(std::size_t extra);
  void append(std::string_view bytes) noexcept;  // within reserved room
  /// Appends `value` as a bulk string; returns the offset of its bytes.
  std::size_t append_bulk(std::string_view value);
  /// Advances the key rules past the argument `value`, whose bytes start at `offset`.
  void note_argument(std::size_t offset, std::string_view value) noexcept;
  void copy_key_from(const Command& other) noexcept;

  std::unique_ptr<char[]> heap_;  // the body when it outgrew inline_
  std::size_t heap_capacity_ = 0;
  std::size_t size_ = 0;
  std::size_t argc_ = 0;
  std::size_t key_offset_ = 0;  // of the routing key's bytes, in the body
  std::size_t key_length_ = 0;
  KeyState key_state_ = KeyState::kName;
  std::uint8_t key_skip_ = 0;
  char inline_[kInlineCapacity];
};

}  // namespace redisson
