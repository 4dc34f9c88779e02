#include "object_report.hpp"

#include <cmath>
#include <map>
#include <optional>

#include "redisson/codec.hpp"
#include "redisson/error.hpp"

namespace redisson::cli {
namespace {

// Longer values are summarised, not decoded (a bucket holding a large blob).
constexpr std::int64_t kMaxDecodedBytes = 64 * 1024;
// The shown value is cut here (with a note), so a terminal is not flooded.
constexpr std::size_t kMaxShownChars = 2000;

std::string suffix_name(const std::string& name, const std::string& suffix) {
  return name.find('{') != std::string::npos ? name + ":" + suffix : "{" + name + "}:" + suffix;
}

std::map<std::string, std::string> read_hash(Client& client, const std::string& key) {
  std::map<std::string, std::string> fields;
  const Reply all = client.execute({"HGETALL", key});
  for (std::size_t i = 0; i + 1 < all.elements.size(); i += 2) {
    fields[all.elements[i].str] = all.elements[i + 1].str;
  }
  return fields;
}

bool valid_utf8(std::string_view text) {
  for (std::size_t i = 0; i < text.size();) {
    const auto c = static_cast<unsigned char>(text[i]);
    std::size_t length = c < 0x80           ? 1
                         : (c >> 5) == 0x6  ? 2
                         : (c >> 4) == 0xE  ? 3
                         : (c >> 3) == 0x1E ? 4
                                            : 0;
    if (length == 0 || i + length > text.size()) return false;
    for (std::size_t j = 1; j < length; ++j) {
      if ((static_cast<unsigned char>(text[i + j]) & 0xC0) != 0x80) return false;
    }
    i += length;
  }
  return true;
}

// "2.5", "-0.125", "1.0E10": what an AtomicDouble holds (an integer is read as such before).
bool is_decimal(std::string_view text) {
  if (text.empty() || text.size() > 40) return false;
  bool digit = false;
  for (const char c : text) {
    if (c >= '0' && c <= '9') {
      digit = true;
    } else if (c != '-' && c != '+' && c != '.' && c != 'E' && c != 'e') {
      return false;
    }
  }
  if (!digit) return false;
  try {
    std::size_t used = 0;
    std::stod(std::string(text), &used);
    return used == text.size();
  } catch (const std::exception&) {
    return false;
  }
}

void add(KeyReport& report, std::string label, std::string json_value) {
  report.details.emplace_back(std::move(label), std::move(json_value));
}

std::string json_string(const std::string& text) { return Value::string(text).to_display_json(); }

void bloom_filter(Client& client, KeyReport& report,
                  const std::map<std::string, std::string>& config) {
  report.kind = "bloom_filter";
  const auto field = [&](const char* name) {
    const auto it = config.find(name);
    return it == config.end() ? std::string() : it->second;
  };
  add(report, "expected_insertions", field("expectedInsertions"));
  add(report, "false_probability", field("falseProbability"));
  add(report, "size_bits", field("size"));
  add(report, "hash_iterations", field("hashIterations"));
  const auto bits = client.execute({"BITCOUNT", report.name}).integer;
  add(report, "bits_set", std::to_string(bits));
  // Redisson's count(): -m / k * ln(1 - bits / m).
  try {
    const double m = std::stod(field("size"));
    const double k = std::stod(field("hashIterations"));
    if (m > 0 && k > 0 && bits < m) {
      add(report, "approximate_count",
          std::to_string(std::llround(-m / k * std::log(1 - static_cast<double>(bits) / m))));
    }
  } catch (const std::exception&) {
    // A damaged config: the fields above show it.
  }
}

void bucket(KeyReport& report, const std::string& bytes) {
  if (auto decoded = decode_for_display(bytes)) {
    report.kind = "bucket";
    report.codec = decoded->codec;
    report.value_json = std::move(decoded->json);
    if (!decoded->java_type.empty()) add(report, "java_type", json_string(decoded->java_type));
    return;
  }
  // Bytes no codec reads: a BitSet, or a ByteArrayCodec value.
  report.kind = "binary";
}

}  // namespace

std::optional<DisplayedValue> decode_for_display(const std::string& bytes,
                                                 std::string_view preferred) {
  if (preferred == "string" && valid_utf8(bytes))
    return DisplayedValue{"string", json_string(bytes), ""};
  auto candidates = {codecs::kryo5(), codecs::json()};
  for (const bool preferred_pass : {true, false}) {
    for (const auto& codec : candidates) {
      if (!preferred.empty() && (codec->name() == preferred) != preferred_pass) continue;
      if (preferred.empty() && !preferred_pass) continue;
      try {
        const auto value = codec->decode(bytes);
        return DisplayedValue{
            std::string(codec->name()), value.to_display_json(),
            value.java_class().empty() ? std::string(kind_name(value.kind())) : value.java_class()};
      } catch (const redisson::error&) {
        // Not this codec's bytes: try the next.
      }
    }
  }
  if (valid_utf8(bytes)) return DisplayedValue{"string", json_string(bytes), ""};
  return std::nullopt;
}

void recognise_object(Client& client, KeyReport& report) {
  if (report.type == "hash") {
    if (report.kind != "hash" || !report.size || *report.size > 16) return;
    const auto fields = read_hash(client, report.name);
    if (fields.contains("rate") && fields.contains("interval") && fields.contains("type")) {
      report.kind = "rate_limiter";
      add(report, "rate", fields.at("rate"));
      add(report, "interval_ms", fields.at("interval"));
      add(report, "rate_type", json_string(fields.at("type") == "1" ? "PER_CLIENT" : "OVERALL"));
      if (const auto it = fields.find("keepAliveTime"); it != fields.end()) {
        add(report, "keep_alive_ms", it->second);
      }
      if (fields.at("type") != "1") {
        const auto value = client.execute({"GET", suffix_name(report.name, "value")});
        if (!value.is_null()) add(report, "available_permits", value.str);
      }
    }
    return;
  }
  if (report.type != "string" || !report.size) return;
  if (const auto config = read_hash(client, suffix_name(report.name, "config"));
      config.contains("hashIterations") && config.contains("size")) {
    return bloom_filter(client, report, config);
  }
  if (report.integer_value) {
    const auto allocation = client.execute({"GET", suffix_name(report.name, "allocation")});
    if (!allocation.is_null()) {
      report.kind = "id_generator";
      add(report, "next_block_start", std::to_string(*report.integer_value));
      add(report, "allocation_size", allocation.str);
    }
    return;
  }
  if (*report.size > kMaxDecodedBytes) return;
  const auto bytes = client.execute({"GET", report.name}).str;
  if (bytes.starts_with("HYLL")) {
    report.kind = "hyperloglog";
    add(report, "count", std::to_string(client.execute({"PFCOUNT", report.name}).integer));
    return;
  }
  if (is_decimal(bytes)) {
    report.kind = "decimal";
    add(report, "value", bytes);
    return;
  }
  bucket(report, bytes);
  if (report.kind == "binary") {
    add(report, "bits_set", std::to_string(client.execute({"BITCOUNT", report.name}).integer));
  }
  if (report.value_json.size() > kMaxShownChars) {
    report.value_json.resize(kMaxShownChars);
    report.value_truncated = true;
  }
}

}  // namespace redisson::cli
