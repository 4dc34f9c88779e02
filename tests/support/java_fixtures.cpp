#include "support/java_fixtures.hpp"

#include <fcntl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <stdexcept>

namespace redisson::test {
namespace {

struct Cases {
  nlohmann::json meta;
  std::vector<nlohmann::json> cases;
};

const Cases& all_cases() {
  static const Cases loaded = [] {
    Cases result;
    std::ifstream in(java_fixtures_dir() + "/cases.jsonl");
    std::string line;
    while (std::getline(in, line)) {
      if (line.empty()) continue;
      auto parsed = nlohmann::json::parse(line);
      if (parsed.value("case", "") == "_meta") {
        result.meta = std::move(parsed);
      } else {
        result.cases.push_back(std::move(parsed));
      }
    }
    if (result.cases.empty()) throw std::runtime_error("no cases in " + java_fixtures_dir());
    return result;
  }();
  return loaded;
}

// A Java type descriptor as the fixtures write it, split at its top level: the class, and the
// element types between [...] or the key=value types between {...}.
struct JavaType {
  std::string name;
  std::vector<std::string> parts;
};

JavaType parse_type(std::string_view text) {
  JavaType type;
  const auto open = text.find_first_of("[{");
  if (open == std::string_view::npos || text == "[B") {
    type.name = std::string(text);
    return type;
  }
  type.name = std::string(text.substr(0, open));
  const auto inner = text.substr(open + 1, text.size() - open - 2);
  int depth = 0;
  std::string part;
  for (std::size_t i = 0; i < inner.size(); ++i) {
    const char c = inner[i];
    if (c == '[' || c == '{') ++depth;
    if (c == ']' || c == '}') --depth;
    if (depth == 0 && (c == ',' || c == '=')) {
      type.parts.push_back(part);
      part.clear();
      if (c == ',' && i + 1 < inner.size() && inner[i + 1] == ' ') ++i;
      continue;
    }
    part += c;
  }
  if (!part.empty()) type.parts.push_back(part);
  return type;
}

Value value_of(const nlohmann::json& json, std::string_view java_type) {
  const auto type = parse_type(java_type);
  if (type.name == "java.lang.String") return Value::string(json.get<std::string>());
  if (type.name == "java.lang.Integer") return Value::integer(json.get<std::int32_t>());
  if (type.name == "java.lang.Long") return Value::long_int(json.get<std::int64_t>());
  if (type.name == "java.lang.Double") return Value::double_num(json.get<double>());
  if (type.name == "java.lang.Boolean") return Value::boolean(json.get<bool>());
  if (type.name == "[B")
    return Value::bytes_from(from_hex(json.at("bytes_hex").get<std::string>()));
  if (type.name == "java.util.ArrayList") {
    Value::List elements;
    for (std::size_t i = 0; i < json.size(); ++i) {
      elements.push_back(value_of(json[i], type.parts.at(i)));
    }
    return Value::list(std::move(elements), type.name);
  }
  if (type.name == "java.util.HashMap") {
    Value::Entries entries;
    for (const auto& [key, element] : json.items()) {
      entries.emplace_back(value_of(key, type.parts.at(0)), value_of(element, type.parts.at(1)));
    }
    return Value::map(std::move(entries), type.name);
  }
  throw std::runtime_error("java_fixtures: no Value for Java type " + std::string(java_type));
}

}  // namespace

std::string java_fixtures_dir() {
  const std::string dir = std::string(REDISSON_SOURCE_DIR) + "/tests/fixtures/redisson-3.52";
  if (!std::filesystem::exists(dir + "/cases.jsonl")) {
    throw std::runtime_error("the Java Redisson fixtures are missing: " + dir);
  }
  return dir;
}

std::string shared_java_fixtures_dir() {
  return std::string(REDISSON_SOURCE_DIR) + "/../shared/fixtures/redisson-3.52";
}

void load_java_fixtures(const RedisServer& server) {
  const std::string script = java_fixtures_dir() + "/load.py";
  const std::string url = "redis://127.0.0.1:" + std::to_string(server.port());
  const pid_t pid = ::fork();
  if (pid < 0) throw std::runtime_error("load_java_fixtures: fork failed");
  if (pid == 0) {
    const int null = ::open("/dev/null", O_WRONLY);
    if (null >= 0) ::dup2(null, STDOUT_FILENO);
    ::execlp("python3", "python3", script.c_str(), url.c_str(), "--shift-scores-to-now",
             static_cast<char*>(nullptr));
    ::_exit(127);
  }
  int status = 0;
  ::waitpid(pid, &status, 0);
  if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
    throw std::runtime_error("load_java_fixtures: python3 " + script + " " + url + " failed");
  }
}

const std::vector<nlohmann::json>& java_cases() { return all_cases().cases; }

const nlohmann::json& java_dump_entry(std::string_view key) {
  static const nlohmann::json dump = [] {
    std::ifstream in(java_fixtures_dir() + "/dump.json");
    return nlohmann::json::parse(in);
  }();
  for (const auto& entry : dump) {
    if (entry.at("key").get<std::string>() == key) return entry;
  }
  throw std::runtime_error("no key '" + std::string(key) + "' in the Java fixtures' dump");
}

const nlohmann::json& java_service_dump_entry(std::string_view key) {
  static const nlohmann::json dump = [] {
    std::ifstream in(java_fixtures_dir() + "/services/dump.json");
    return nlohmann::json::parse(in);
  }();
  for (const auto& entry : dump) {
    if (entry.at("key").get<std::string>() == key) return entry;
  }
  throw std::runtime_error("no key '" + std::string(key) + "' in the Java services dump");
}

std::string java_string_hex(std::string_view key) {
  return java_dump_entry(key).at("content").at("hex").get<std::string>();
}

std::vector<std::string> java_zset_members_hex(std::string_view key) {
  std::vector<std::string> members;
  for (const auto& pair : java_dump_entry(key).at("content")) {
    members.push_back(pair.at(0).at("hex").get<std::string>());
  }
  return members;
}

std::vector<std::pair<std::string, std::string>> java_hash_fields(std::string_view key) {
  std::vector<std::pair<std::string, std::string>> fields;
  for (const auto& pair : java_dump_entry(key).at("content")) {
    fields.emplace_back(pair.at(0).at("text").get<std::string>(),
                        pair.at(1).at("text").get<std::string>());
  }
  return fields;
}

const nlohmann::json& java_fixtures_meta() { return all_cases().meta; }

namespace {
std::vector<nlohmann::json> read_jsonl(const std::string& path) {
  std::ifstream in(path);
  if (!in) throw std::runtime_error("cannot read " + path);
  std::vector<nlohmann::json> rows;
  std::string line;
  while (std::getline(in, line)) {
    if (!line.empty()) rows.push_back(nlohmann::json::parse(line));
  }
  return rows;
}

const std::vector<nlohmann::json>& service_cases() {
  static const auto rows = read_jsonl(java_fixtures_dir() + "/services/cases.jsonl");
  return rows;
}
}  // namespace

const nlohmann::json& java_service_meta() {
  for (const auto& row : service_cases()) {
    if (row.value("case", "") == "_meta") return row;
  }
  throw std::runtime_error("no _meta line in the services fixtures");
}

const nlohmann::json& java_service_case(std::string_view name) {
  for (const auto& row : service_cases()) {
    if (row.value("case", "") == name) return row;
  }
  throw std::runtime_error("no Java services fixture case '" + std::string(name) + "'");
}

std::vector<nlohmann::json> java_service_monitor(std::string_view name) {
  static const auto rows = read_jsonl(java_fixtures_dir() + "/services/monitor.jsonl");
  std::vector<nlohmann::json> selected;
  for (const auto& row : rows) {
    if (row.value("case", "") == name) selected.push_back(row);
  }
  if (selected.empty()) {
    throw std::runtime_error("no MONITOR rows for services case '" + std::string(name) + "'");
  }
  return selected;
}

std::vector<std::string> monitor_args_text(const nlohmann::json& row) {
  std::vector<std::string> args;
  if (!row.contains("args")) return args;
  for (const auto& arg : row.at("args")) args.push_back(arg.at("text").get<std::string>());
  return args;
}

const nlohmann::json& java_case(std::string_view name) {
  for (const auto& c : java_cases()) {
    if (c.at("case").get<std::string>() == name) return c;
  }
  throw std::runtime_error("no Java fixture case '" + std::string(name) + "'");
}

CodecPtr codec_of_case(const nlohmann::json& java_case) {
  const auto codec = java_case.at("codec").get<std::string>();
  const auto starts = [&](std::string_view prefix) { return codec.rfind(prefix, 0) == 0; };
  if (starts("CompositeCodec(")) {
    // "CompositeCodec(StringCodec, LongCodec)": map keys, map values.
    const auto inner = codec.substr(15, codec.size() - 16);
    const auto comma = inner.find(", ");
    const auto part = [](std::string name) { return codec_of_case({{"codec", std::move(name)}}); };
    return codecs::composite(part(inner.substr(0, comma)), part(inner.substr(comma + 2)));
  }
  if (starts("Kryo5Codec")) return codecs::kryo5();
  if (starts("JsonJacksonCodec")) return codecs::json();
  if (starts("TypedJsonJacksonCodec")) return codecs::typed_json();
  if (starts("StringCodec")) return codecs::string();
  if (starts("LongCodec")) return codecs::long_text();
  if (starts("IntegerCodec")) return codecs::integer_text();
  if (starts("DoubleCodec")) return codecs::double_text();
  if (starts("ByteArrayCodec")) return codecs::bytes();
  throw std::runtime_error("java_fixtures: unknown codec '" + codec + "'");
}

Value readback_value(const nlohmann::json& java_case) {
  return value_of(java_case.at("readback"), java_case.at("readback_java").get<std::string>());
}

std::string from_hex(std::string_view hex) {
  std::string bytes;
  for (std::size_t i = 0; i + 1 < hex.size(); i += 2) {
    bytes += static_cast<char>(std::stoi(std::string(hex.substr(i, 2)), nullptr, 16));
  }
  return bytes;
}

std::string to_hex(std::string_view bytes) {
  constexpr std::string_view kDigits = "0123456789abcdef";
  std::string hex;
  for (const char c : bytes) {
    hex += kDigits[(static_cast<unsigned char>(c) >> 4) & 0xF];
    hex += kDigits[static_cast<unsigned char>(c) & 0xF];
  }
  return hex;
}

}  // namespace redisson::test
