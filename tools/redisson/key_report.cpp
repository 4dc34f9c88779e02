#include "key_report.hpp"

#include <chrono>
#include <cstdio>
#include <map>

#include "duration.hpp"

namespace redisson::cli {
namespace {

// Hashes with more fields than this are summarised without reading them: a lock has a few.
constexpr std::int64_t kMaxLockFields = 1000;

bool all_digits(std::string_view text) {
  if (text.empty()) return false;
  for (char c : text) {
    if (c < '0' || c > '9') return false;
  }
  return true;
}

// "<client-id>:<owner-id>[:write]" with a positive decimal count.
std::optional<LockHolder> parse_holder(const std::string& field, const std::string& value) {
  if (!all_digits(value)) return std::nullopt;
  LockHolder holder;
  holder.owner = field;
  std::string_view rest = field;
  if (rest.ends_with(":write")) {
    holder.write = true;
    rest.remove_suffix(6);
  }
  const auto colon = rest.rfind(':');
  if (colon == std::string_view::npos || colon == 0) return std::nullopt;
  if (!all_digits(rest.substr(colon + 1))) return std::nullopt;
  holder.client_id = std::string(rest.substr(0, colon));
  holder.owner_id = std::string(rest.substr(colon + 1));
  try {
    holder.hold_count = std::stoll(value);
  } catch (const std::exception&) {
    return std::nullopt;
  }
  return holder;
}

// Redisson's prefix rule P(prefix, n) (PROTOCOL.md, "Names").
std::string prefix_name(const std::string& prefix, const std::string& name) {
  return name.find('{') != std::string::npos ? prefix + ":" + name : prefix + ":{" + name + "}";
}

// Reads a hash as a lock when it has a lock's layout.
void classify_hash(Client& client, KeyReport& report) {
  if (!report.size || *report.size > kMaxLockFields) return;
  const Reply all = client.execute({"HGETALL", report.name});
  std::vector<LockHolder> holders;
  std::string mode;
  for (std::size_t i = 0; i + 1 < all.elements.size(); i += 2) {
    const auto& field = all.elements[i].str;
    const auto& value = all.elements[i + 1].str;
    if (field == "mode" && (value == "read" || value == "write")) {
      mode = value;
      continue;
    }
    auto holder = parse_holder(field, value);
    if (!holder) return;  // some other hash
    holders.push_back(std::move(*holder));
  }
  bool has_writer = false;
  for (const auto& holder : holders) has_writer = has_writer || holder.write;
  if (mode.empty() && (holders.empty() || has_writer)) return;
  report.kind = mode.empty() ? "lock" : "read_write_lock";
  report.mode = mode;
  report.holders = std::move(holders);
  if (report.kind == "lock") {
    report.fair_waiters =
        client.execute({"LLEN", prefix_name("redisson_lock_queue", report.name)}).integer;
  }
}

std::string json_string(std::string_view text) {
  std::string out = "\"";
  for (unsigned char c : text) {
    switch (c) {
      case '"':
        out += "\\\"";
        break;
      case '\\':
        out += "\\\\";
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
      default:
        if (c < 0x20) {
          char escaped[8];
          std::snprintf(escaped, sizeof escaped, "\\u%04x", c);
          out += escaped;
        } else {
          out += static_cast<char>(c);
        }
    }
  }
  return out + "\"";
}

std::string plural(std::int64_t count, const std::string& singular, const std::string& many) {
  return std::to_string(count) + " " + (count == 1 ? singular : many);
}

std::string expiry_text(const KeyReport& report, const char* label) {
  if (report.ttl_ms < 0)
    return report.kind == "lock" || report.kind == "read_write_lock"
               ? std::string("no lease: never expires")
               : std::string("no expiry");
  return std::string(label) + ": " + format_duration(std::chrono::milliseconds(report.ttl_ms));
}

}  // namespace

KeyReport inspect_key(Client& client, const std::string& name) {
  KeyReport report;
  report.name = name;
  report.type = client.execute({"TYPE", name}).str;
  report.exists = report.type != "none";
  if (!report.exists) return report;
  report.kind = report.type;
  report.ttl_ms = client.execute({"PTTL", name}).integer;

  static const std::map<std::string, std::pair<const char*, const char*>> kSizes = {
      {"string", {"STRLEN", "bytes"}}, {"hash", {"HLEN", "fields"}},
      {"list", {"LLEN", "elements"}},  {"set", {"SCARD", "members"}},
      {"zset", {"ZCARD", "members"}},  {"stream", {"XLEN", "entries"}},
  };
  if (const auto it = kSizes.find(report.type); it != kSizes.end()) {
    report.size = client.execute({it->second.first, name}).integer;
    report.size_unit = it->second.second;
  }
  if (report.type == "hash") classify_hash(client, report);
  return report;
}

std::string format_text(const KeyReport& report) {
  if (!report.exists) return report.name + ": no such key\n";
  std::string out = report.name + ": ";
  if (report.kind == "lock" || report.kind == "read_write_lock") {
    out +=
        report.kind == "lock" ? "Redisson lock" : "Redisson read-write lock, mode " + report.mode;
    out += ", held by " +
           plural(static_cast<std::int64_t>(report.holders.size()), "owner", "owners") + "\n";
    for (const auto& holder : report.holders) {
      out += "  holder " + holder.owner + "  hold count " + std::to_string(holder.hold_count);
      if (report.kind == "read_write_lock") out += holder.write ? " (write)" : " (read)";
      out += "\n";
    }
    out += "  " + expiry_text(report, "remaining lease") + "\n";
    if (report.fair_waiters > 0) {
      out += "  " + plural(report.fair_waiters, "owner", "owners") + " waiting (fair lock queue)\n";
    }
    return out;
  }
  out += report.type == "zset" ? "sorted set" : report.type;
  if (report.size) out += ", " + std::to_string(*report.size) + " " + report.size_unit;
  out += "\n  " + expiry_text(report, "expires in") + "\n";
  return out;
}

std::string format_json(const KeyReport& report) {
  std::string out = "{\"name\":" + json_string(report.name);
  out += ",\"exists\":" + std::string(report.exists ? "true" : "false");
  if (report.exists) {
    out += ",\"type\":" + json_string(report.type);
    out += ",\"kind\":" + json_string(report.kind);
    out += ",\"ttl_ms\":" + std::to_string(report.ttl_ms);
    if (report.size) {
      out += ",\"size\":" + std::to_string(*report.size);
      out += ",\"size_unit\":" + json_string(report.size_unit);
    }
    if (report.kind == "lock" || report.kind == "read_write_lock") {
      if (!report.mode.empty()) out += ",\"mode\":" + json_string(report.mode);
      out += ",\"holders\":[";
      for (std::size_t i = 0; i < report.holders.size(); ++i) {
        const auto& holder = report.holders[i];
        if (i > 0) out += ",";
        out += "{\"owner\":" + json_string(holder.owner);
        out += ",\"client_id\":" + json_string(holder.client_id);
        out += ",\"owner_id\":" + json_string(holder.owner_id);
        out += ",\"write\":" + std::string(holder.write ? "true" : "false");
        out += ",\"hold_count\":" + std::to_string(holder.hold_count) + "}";
      }
      out += "]";
      if (report.kind == "lock") out += ",\"fair_waiters\":" + std::to_string(report.fair_waiters);
    }
  }
  return out + "}\n";
}

}  // namespace redisson::cli
