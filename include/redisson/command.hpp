// A Redis command ready to send: its arguments encoded once, as RESP bulk strings.
#pragma once

#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <string>
#include <string_view>

namespace redisson {

/// The arguments of one command, encoded on construction so that sending it is a memcpy.
///
///     Command{"SET", key, value}                 // from strings
///     Command{"EXPIRE", key}.arg(std::int64_t{10}) // integers are sent as decimal text
class Command {
 public:
  Command() = default;
  Command(std::initializer_list<std::string_view> args);

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
  std::string_view encoded_arguments() const noexcept { return body_; }
  /// The first argument (the command's name), for error messages.
  std::string_view name() const noexcept;

 private:
  std::string body_;
  std::size_t argc_ = 0;
};

}  // namespace redisson
