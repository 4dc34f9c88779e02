#include <charconv>

#include "redisson/config.hpp"
#include "redisson/error.hpp"

namespace redisson {
namespace {

[[noreturn]] void bad_url(std::string_view why) {
  throw error(errc::invalid_argument, "invalid Redis URL: " + std::string(why));
}

int hex_value(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

// User names and passwords may carry reserved characters as %XX.
std::string percent_decode(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (std::size_t i = 0; i < text.size(); ++i) {
    if (text[i] == '%' && i + 2 < text.size()) {
      const int high = hex_value(text[i + 1]);
      const int low = hex_value(text[i + 2]);
      if (high >= 0 && low >= 0) {
        out.push_back(static_cast<char>(high * 16 + low));
        i += 2;
        continue;
      }
    }
    out.push_back(text[i]);
  }
  return out;
}

int parse_number(std::string_view text, std::string_view what, int max) {
  int value = 0;
  const auto result = std::from_chars(text.data(), text.data() + text.size(), value);
  if (text.empty() || result.ec != std::errc{} || result.ptr != text.data() + text.size() ||
      value < 0 || value > max) {
    bad_url(std::string(what) + " '" + std::string(text) + "' is not a number in 0.." +
            std::to_string(max));
  }
  return value;
}

}  // namespace

ServerAddress ServerAddress::from_url(std::string_view url) {
  ServerAddress address;
  std::string_view rest = url;
  if (rest.starts_with("redis://")) {
    rest.remove_prefix(8);
  } else if (rest.starts_with("rediss://")) {
    rest.remove_prefix(9);
    address.tls = true;
  } else {
    bad_url("expected redis://[user:password@]host[:port][/db] or rediss://...");
  }
  // A '/' before the last '@' is inside the user or password: it would split the URL there and
  // the rest (password included) would be read, and shown, as the database.
  if (const auto at = rest.rfind('@'), slash = rest.find('/');
      at != std::string_view::npos && slash != std::string_view::npos && slash < at) {
    bad_url("a '/' in the user or password must be written %2F (reserved characters are %XX)");
  }
  if (const auto slash = rest.find('/'); slash != std::string_view::npos) {
    std::string_view db = rest.substr(slash + 1);
    rest = rest.substr(0, slash);
    if (!db.empty()) address.database = parse_number(db, "database", 1 << 20);
  }
  if (const auto at = rest.rfind('@'); at != std::string_view::npos) {
    std::string_view userinfo = rest.substr(0, at);
    rest = rest.substr(at + 1);
    if (const auto colon = userinfo.find(':'); colon != std::string_view::npos) {
      address.username = percent_decode(userinfo.substr(0, colon));
      address.password = percent_decode(userinfo.substr(colon + 1));
    } else {
      address.password = percent_decode(userinfo);  // redis://secret@host, as redis-cli
    }
  }
  std::string_view host = rest;
  std::string_view port;
  if (rest.starts_with('[')) {  // [::1]:6379
    const auto close = rest.find(']');
    if (close == std::string_view::npos) bad_url("unterminated IPv6 address");
    host = rest.substr(1, close - 1);
    if (close + 1 < rest.size()) {
      if (rest[close + 1] != ':') bad_url("expected ':' after ']'");
      port = rest.substr(close + 2);
    }
  } else if (const auto colon = rest.rfind(':'); colon != std::string_view::npos) {
    host = rest.substr(0, colon);
    port = rest.substr(colon + 1);
  }
  if (host.empty()) bad_url("missing host");
  address.host = std::string(host);
  if (!port.empty()) address.port = parse_number(port, "port", 65535);
  return address;
}

std::string ServerAddress::to_safe_url() const {
  std::string url = tls ? "rediss://" : "redis://";
  if (!username.empty() || !password.empty()) {
    url += username;
    if (!password.empty()) url += ":***";
    url += '@';
  }
  url += host.find(':') != std::string::npos ? "[" + host + "]" : host;
  url += ':' + std::to_string(port);
  if (database != 0) url += '/' + std::to_string(database);
  return url;
}

Config Config::from_url(std::string_view url) {
  Config config;
  config.server = ServerAddress::from_url(url);
  return config;
}

}  // namespace redisson
