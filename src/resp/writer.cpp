#include "resp/writer.hpp"

#include <algorithm>
#include <charconv>

namespace redisson::detail::resp {
namespace {

void append_header(std::string& out, char type, std::size_t value) {
  char header[kMaxHeaderSize];
  out.append(header, write_header(header, type, value));
}

std::size_t decimal_digits(std::size_t value) {
  std::size_t digits = 1;
  while (value >= 10) {
    value /= 10;
    ++digits;
  }
  return digits;
}

}  // namespace

std::size_t write_header(char* out, char type, std::size_t value) noexcept {
  out[0] = type;
  char* const end = std::to_chars(out + 1, out + kMaxHeaderSize - 2, value).ptr;
  end[0] = '\r';
  end[1] = '\n';
  return static_cast<std::size_t>(end + 2 - out);
}

void append_array_header(std::string& out, std::size_t count) { append_header(out, '*', count); }

void append_bulk(std::string& out, std::string_view arg) {
  append_header(out, '$', arg.size());
  out.append(arg);
  out.append("\r\n", 2);
}

void append_command(std::string& out, std::span<const std::string_view> args) {
  std::size_t size = 1 + decimal_digits(args.size()) + 2;
  for (const std::string_view arg : args) {
    size += 1 + decimal_digits(arg.size()) + 2 + arg.size() + 2;
  }
  // One allocation per command at most. Growing at least geometrically keeps a pipeline buffer
  // that receives many commands linear even where reserve() allocates exactly what it is asked.
  const std::size_t needed = out.size() + size;
  if (needed > out.capacity()) out.reserve(std::max(needed, 2 * out.capacity()));

  append_array_header(out, args.size());
  for (const std::string_view arg : args) append_bulk(out, arg);
}

std::string encode_command(std::initializer_list<std::string_view> args) {
  std::string out;
  append_command(out, std::span<const std::string_view>(args.begin(), args.size()));
  return out;
}

}  // namespace redisson::detail::resp
