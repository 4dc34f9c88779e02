// A Redis command ready to send: its arguments encoded once, as RESP bulk strings.
#pragma once

#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <memory>
#include <string>
#include <string_view>

namespace redisson {

/// The arguments of one command, encoded on construction so that sending it is a memcpy.
///
///     Command{"SET", key, value}                 // from strings
///     Command{"EXPIRE", key}.arg(std::int64_t{10}) // integers are sent as decimal text
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

  const char* data() const noexcept { return heap_ ? heap_.get() : inline_; }
  char* data() noexcept { return heap_ ? heap_.get() : inline_; }
  std::size_t capacity() const noexcept { return heap_ ? heap_capacity_ : kInlineCapacity; }
  /// Room for `extra` more bytes, growing geometrically.
  void reserve_more(std::size_t extra);
  void append(std::string_view bytes) noexcept;  // within reserved room
  void append_bulk(std::string_view value);

  std::unique_ptr<char[]> heap_;  // the body when it outgrew inline_
  std::size_t heap_capacity_ = 0;
  std::size_t size_ = 0;
  std::size_t argc_ = 0;
  char inline_[kInlineCapacity];
};

}  // namespace redisson
