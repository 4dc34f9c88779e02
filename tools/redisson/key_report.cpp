#include "key_report.hpp"

#include <chrono>
#include <cstdio>
#include <map>

#include "collection_report.hpp"
#include "duration.hpp"
#include "object_report.hpp"
#include "redisson_names.hpp"

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
}

std::int64_t server_now_ms(Client& client) {
  const Reply time = client.execute({"TIME"});
  if (time.elements.size() < 2) return 0;
  return std::stoll(time.elements[0].str) * 1000 + std::stoll(time.elements[1].str) / 1000;
}

std::string hex(std::string_view bytes) {
  static constexpr char kDigits[] = "0123456789abcdef";
  std::string out;
  for (unsigned char c : bytes) {
    out += kDigits[c >> 4];
    out += kDigits[c & 15];
  }
  return out;
}

std::optional<std::int64_t> parse_integer(const std::string& text) {
  std::string_view digits = text;
  if (digits.starts_with('-')) digits.remove_prefix(1);
  if (!all_digits(digits) || digits.size() > 18) return std::nullopt;
  return std::stoll(text);
}

// A sorted-set score: a RESP3 double or a RESP2 bulk string; nullopt when absent.
std::optional<std::int64_t> score_of(const Reply& reply) {
  if (reply.type == ReplyType::double_value) return static_cast<std::int64_t>(reply.number);
  if (reply.str.empty()) return std::nullopt;
  try {
    return static_cast<std::int64_t>(std::stod(reply.str));
  } catch (const std::exception&) {
    return std::nullopt;
  }
}

// The companion keys of the lock, semaphore and latch layouts.
void read_companions(Client& client, KeyReport& report) {
  const auto queue_key = prefix_name("redisson_lock_queue", report.name);
  const auto queue = client.execute({"LRANGE", queue_key, "0", "99"});
  if (!queue.elements.empty()) {
    report.fair_waiters = client.execute({"LLEN", queue_key}).integer;
    const auto timeout_key = prefix_name("redisson_lock_timeout", report.name);
    const auto now = server_now_ms(client);
    std::int64_t position = 0;
    for (const auto& entry : queue.elements) {
      FairWaiter waiter;
      waiter.owner = entry.str;
      waiter.position = ++position;
      const auto score = score_of(client.execute({"ZSCORE", timeout_key, entry.str}));
      if (score) waiter.timeout_in = *score - now;
      report.fair_queue.push_back(std::move(waiter));
    }
  }
  const auto token = client.execute({"GET", prefix_name("redisson_lock_token", report.name)});
  if (!token.str.empty()) report.fencing_token = parse_integer(token.str);
  if (report.type == "string") {
    const auto permits_key = suffix_name(report.name, "timeout");
    const auto permits = client.execute({"ZRANGE", permits_key, "0", "99", "WITHSCORES"});
    // RESP2: member, score, member, score...; RESP3: [member, score] pairs.
    std::vector<std::pair<const Reply*, const Reply*>> pairs;
    for (std::size_t i = 0; i < permits.elements.size(); ++i) {
      const auto& element = permits.elements[i];
      if (element.elements.size() == 2) {
        pairs.emplace_back(&element.elements[0], &element.elements[1]);
      } else if (i + 1 < permits.elements.size()) {
        pairs.emplace_back(&element, &permits.elements[i + 1]);
        ++i;
      }
    }
    if (!pairs.empty()) {
      const auto now = server_now_ms(client);
      for (const auto& [member, score] : pairs) {
        ExpirablePermit permit;
        permit.id = hex(member->str);
        if (const auto at = score_of(*score)) permit.expires_in = *at - now;
        report.expirable_permits.push_back(std::move(permit));
      }
    }
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

std::string signed_duration(std::int64_t ms) {
  if (ms < 0) return "overdue by " + format_duration(std::chrono::milliseconds(-ms));
  return "in " + format_duration(std::chrono::milliseconds(ms));
}

std::string companions_text(const KeyReport& report) {
  std::string out;
  if (report.fair_waiters > 0) {
    out += "  " + plural(report.fair_waiters, "owner", "owners") + " waiting (fair lock queue)\n";
    for (const auto& waiter : report.fair_queue) {
      out += "    #" + std::to_string(waiter.position) + " " + waiter.owner;
      if (waiter.timeout_in) out += "  slot times out " + signed_duration(*waiter.timeout_in);
      out += "\n";
    }
  }
  for (const auto& permit : report.expirable_permits) {
    out += "  permit " + permit.id + "  expires " + signed_duration(permit.expires_in) + "\n";
  }
  if (report.fencing_token) {
    out += "  fencing token counter " + std::to_string(*report.fencing_token) + "\n";
  }
  return out;
}

// "sorted set", or "Redisson TimeSeries (sorted set)" when its layout names the type.
std::string collection_text(const KeyReport& report) {
  const std::string type = report.type == "zset" ? "sorted set" : report.type;
  if (report.redisson_type.empty()) return type;
  return "Redisson " + report.redisson_type + " (" + type + ")";
}

// "Redisson bucket (kryo5), 6 bytes: "hello"" and one "  label: value" line per detail.
std::string object_text(const KeyReport& report) {
  static const std::map<std::string, std::string> kNames = {
      {"bucket", "Redisson bucket"},
      {"bloom_filter", "Redisson Bloom filter"},
      {"rate_limiter", "Redisson rate limiter"},
      {"id_generator", "Redisson id generator"},
      {"hyperloglog", "HyperLogLog"},
      {"binary", "binary string"},
      {"decimal", "decimal number (a Redisson AtomicDouble, or a number as text)"},
  };
  const auto name = kNames.find(report.kind);
  std::string out = name != kNames.end() ? name->second : collection_text(report);
  if (!report.codec.empty()) out += " (" + report.codec + ")";
  if (report.size) out += ", " + std::to_string(*report.size) + " " + report.size_unit;
  if (!report.value_json.empty()) {
    out += ": " + report.value_json + (report.value_truncated ? " ... (cut)" : "");
  }
  for (const auto& [label, value] : report.details) {
    std::string shown = value;
    if (shown.size() >= 2 && shown.front() == '"') shown = shown.substr(1, shown.size() - 2);
    out += "\n  " + label + ": " + shown;
  }
  return out;
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
  if (report.type == "string" && report.size && *report.size <= 20) {
    // Only a short value is read, and only shown when it is an integer (permits or a count).
    report.integer_value = parse_integer(client.execute({"GET", name}).str);
    if (report.integer_value) report.kind = "integer";
  }
  read_companions(client, report);
  if (report.kind == report.type || report.kind == "integer") recognise_object(client, report);
  if (report.kind == report.type) {
    name_collection(client, report);
    preview_collection(client, report);
  }
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
    out += companions_text(report);
    return out;
  }
  if (!report.details.empty() || !report.value_json.empty()) {
    out += object_text(report);
  } else if (report.integer_value) {
    // A fenced lock keeps its token counter in redisson_lock_token:{name}.
    out += "integer value " + std::to_string(*report.integer_value) +
           (report.name.starts_with("redisson_lock_token:")
                ? " (a fenced lock's token counter: the last token handed out)"
                : " (an AtomicLong, a semaphore's permits or a latch's count)");
    if (!report.expirable_permits.empty()) {
      out +=
          "\n  permit-expirable semaphore: " + std::to_string(*report.integer_value) +
          " available, " +
          plural(static_cast<std::int64_t>(report.expirable_permits.size()), "permit", "permits") +
          " held";
    }
  } else {
    out += collection_text(report);
    if (report.size) out += ", " + std::to_string(*report.size) + " " + report.size_unit;
  }
  out += "\n  " + expiry_text(report, "expires in") + "\n";
  out += companions_text(report);
  return out;
}

std::string format_json(const KeyReport& report) {
  std::string out = "{\"name\":" + json_string(report.name);
  out += ",\"exists\":" + std::string(report.exists ? "true" : "false");
  if (report.exists) {
    out += ",\"type\":" + json_string(report.type);
    out += ",\"kind\":" + json_string(report.kind);
    if (!report.redisson_type.empty()) {
      out += ",\"redisson_type\":" + json_string(report.redisson_type);
    }
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
    if (report.integer_value) out += ",\"integer_value\":" + std::to_string(*report.integer_value);
    if (!report.fair_queue.empty()) {
      out += ",\"fair_queue\":[";
      for (std::size_t i = 0; i < report.fair_queue.size(); ++i) {
        const auto& waiter = report.fair_queue[i];
        if (i > 0) out += ",";
        out += "{\"owner\":" + json_string(waiter.owner);
        out += ",\"position\":" + std::to_string(waiter.position);
        if (waiter.timeout_in) out += ",\"timeout_in_ms\":" + std::to_string(*waiter.timeout_in);
        out += "}";
      }
      out += "]";
    }
    if (!report.expirable_permits.empty()) {
      out += ",\"expirable_permits\":[";
      for (std::size_t i = 0; i < report.expirable_permits.size(); ++i) {
        if (i > 0) out += ",";
        out += "{\"id\":" + json_string(report.expirable_permits[i].id);
        out += ",\"expires_in_ms\":" + std::to_string(report.expirable_permits[i].expires_in) + "}";
      }
      out += "]";
    }
    if (report.fencing_token) out += ",\"fencing_token\":" + std::to_string(*report.fencing_token);
    if (!report.codec.empty()) out += ",\"codec\":" + json_string(report.codec);
    if (!report.value_json.empty() && !report.value_truncated) {
      out += ",\"value\":" + report.value_json;
    }
    if (report.value_truncated) out += ",\"value_truncated\":true";
    for (const auto& [label, value] : report.details) {
      out += "," + json_string(label) + ":" + (value.empty() ? std::string("null") : value);
    }
  }
  return out + "}\n";
}

}  // namespace redisson::cli
