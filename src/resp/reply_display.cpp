// Reply::to_display_string(): a reply as redis-cli shows it, for tools and test messages.
#include <cstdio>
#include <string>
#include <string_view>
#include <vector>

#include "redisson/reply.hpp"

namespace redisson {
namespace {

// Quotes and escapes like redis-cli (sdscatrepr), so binary payloads stay on one line.
void append_quoted(std::string& out, std::string_view text) {
  out += '"';
  for (const char c : text) {
    switch (c) {
      case '\\':
        out += "\\\\";
        break;
      case '"':
        out += "\\\"";
        break;
      case '\n':
        out += "\\n";
        break;
      case '\r':
        out += "\\r";
        break;
      case '\t':
        out += "\\t";
        break;
      case '\a':
        out += "\\a";
        break;
      case '\b':
        out += "\\b";
        break;
      default: {
        const auto byte = static_cast<unsigned char>(c);
        if (byte >= 0x20 && byte < 0x7f) {
          out += c;
        } else {
          char escaped[8];
          std::snprintf(escaped, sizeof escaped, "\\x%02x", byte);
          out += escaped;
        }
      }
    }
  }
  out += '"';
}

void append_reply(std::string& out, const Reply& reply, const std::string& prefix);

// Numbered lines "1) ...", "1~ ...", "1# key => value". The first line continues the caller's
// current line unless `first_on_new_line`; later lines start with `prefix`. Nested replies are
// indented past the number, as redis-cli does.
void append_items(std::string& out, const std::vector<Reply>& items, bool pairs, char separator,
                  const std::string& prefix, bool first_on_new_line) {
  const std::size_t count = pairs ? (items.size() + 1) / 2 : items.size();
  const std::string last_number = std::to_string(count);
  const std::string nested_prefix = prefix + std::string(last_number.size() + 2, ' ');
  for (std::size_t i = 0; i < count; ++i) {
    if (i > 0 || first_on_new_line) out += prefix;
    const std::string number = std::to_string(i + 1);
    out.append(last_number.size() - number.size(), ' ');
    out += number;
    out += separator;
    out += ' ';
    if (!pairs) {
      append_reply(out, items[i], nested_prefix);
      continue;
    }
    append_reply(out, items[2 * i], nested_prefix);
    out.pop_back();  // the key's newline: its value follows on the same line
    out += " => ";
    if (2 * i + 1 < items.size()) {
      append_reply(out, items[2 * i + 1], nested_prefix);
    } else {
      out += "(nil)\n";  // only a hand-built map can lack its last value
    }
  }
}

// Appends the reply's lines, each ending in '\n'.
void append_reply(std::string& out, const Reply& reply, const std::string& prefix) {
  if (!reply.attributes.empty()) {
    out += "(attributes)\n";
    append_items(out, reply.attributes, true, '#', prefix, true);
    out += prefix;
  }
  switch (reply.type) {
    case ReplyType::null:
      out += "(nil)\n";
      return;
    case ReplyType::simple_string:
      out += reply.str;
      out += '\n';
      return;
    case ReplyType::error:
      out += "(error) ";
      out += reply.str;
      out += '\n';
      return;
    case ReplyType::integer:
      out += "(integer) ";
      out += std::to_string(reply.integer);
      out += '\n';
      return;
    case ReplyType::bulk_string:
      append_quoted(out, reply.str);
      out += '\n';
      return;
    case ReplyType::verbatim:
      // redis-cli prints verbatim text as is: it is meant for humans (INFO, LATENCY DOCTOR).
      out += reply.str;
      out += '\n';
      return;
    case ReplyType::double_value:
      out += "(double) ";
      if (reply.str.empty()) {
        char text[32];
        std::snprintf(text, sizeof text, "%.17g", reply.number);
        out += text;
      } else {
        out += reply.str;
      }
      out += '\n';
      return;
    case ReplyType::boolean:
      out += reply.integer != 0 ? "(true)\n" : "(false)\n";
      return;
    case ReplyType::big_number:
      out += "(big number) ";
      out += reply.str;
      out += '\n';
      return;
    case ReplyType::array:
    case ReplyType::set:
    case ReplyType::map:
    case ReplyType::push:
      break;
  }

  if (reply.elements.empty()) {
    switch (reply.type) {
      case ReplyType::map:
        out += "(empty hash)\n";
        return;
      case ReplyType::set:
        out += "(empty set)\n";
        return;
      case ReplyType::push:
        out += "(empty push)\n";
        return;
      default:
        out += "(empty array)\n";
        return;
    }
  }
  switch (reply.type) {
    case ReplyType::map:
      append_items(out, reply.elements, true, '#', prefix, false);
      return;
    case ReplyType::set:
      append_items(out, reply.elements, false, '~', prefix, false);
      return;
    case ReplyType::push:
      out += "(push)\n";
      append_items(out, reply.elements, false, ')', prefix, true);
      return;
    default:
      append_items(out, reply.elements, false, ')', prefix, false);
      return;
  }
}

}  // namespace

std::string Reply::to_display_string() const {
  std::string out;
  append_reply(out, *this, std::string());
  if (!out.empty() && out.back() == '\n') out.pop_back();
  return out;
}

}  // namespace redisson
