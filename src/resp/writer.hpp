// RESP command encoding: every command is an array of bulk strings, as clients send them.
#pragma once

#include <cstddef>
#include <initializer_list>
#include <span>
#include <string>
#include <string_view>

namespace redisson::detail::resp {

/// The most bytes a header takes: the type byte, the digits of a 64-bit size and CRLF.
inline constexpr std::size_t kMaxHeaderSize = 1 + 20 + 2;

/// Writes "<type><value>\r\n" at `out`, which has room for kMaxHeaderSize bytes; returns how
/// many it wrote. (Command writes its bulk headers into its own buffer with it.)
std::size_t write_header(char* out, char type, std::size_t value) noexcept;

/// Appends "*<count>\r\n".
void append_array_header(std::string& out, std::size_t count);

/// Appends "$<len>\r\n<arg>\r\n"; `arg` may hold any bytes, "\0" and "\r\n" included.
void append_bulk(std::string& out, std::string_view arg);

/// Appends one whole command: an array header and one bulk per argument.
void append_command(std::string& out, std::span<const std::string_view> args);

/// One command as a new string, e.g. encode_command({"GET", key}).
std::string encode_command(std::initializer_list<std::string_view> args);

}  // namespace redisson::detail::resp
