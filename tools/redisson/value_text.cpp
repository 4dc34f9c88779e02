#include "value_text.hpp"

#include <charconv>
#include <nlohmann/json.hpp>

#include "exit_status.hpp"
#include "redisson/error.hpp"

namespace redisson::cli {
namespace {

[[noreturn]] void bad(std::string_view text, std::string_view type, std::string_view why = {}) {
  std::string message = "'" + std::string(text) + "' is not a " + std::string(type);
  if (!why.empty()) message += " (" + std::string(why) + ")";
  throw ToolError(kExitUsage, message);
}

template <class Int>
Int parse_int(std::string_view text, std::string_view type) {
  Int n = 0;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), n);
  if (ec != std::errc{} || end != text.data() + text.size() || text.empty()) bad(text, type);
  return n;
}

Value from_json(const nlohmann::json& json) {
  switch (json.type()) {
    case nlohmann::json::value_t::null:
      return Value{};
    case nlohmann::json::value_t::boolean:
      return Value::boolean(json.get<bool>());
    case nlohmann::json::value_t::number_integer:
      return Value::long_int(json.get<std::int64_t>());
    case nlohmann::json::value_t::number_unsigned: {
      const auto n = json.get<std::uint64_t>();
      if (n > static_cast<std::uint64_t>(INT64_MAX))
        return Value::double_num(static_cast<double>(n));
      return Value::long_int(static_cast<std::int64_t>(n));
    }
    case nlohmann::json::value_t::number_float:
      return Value::double_num(json.get<double>());
    case nlohmann::json::value_t::string:
      return Value::string(json.get<std::string>());
    case nlohmann::json::value_t::array: {
      Value::List elements;
      for (const auto& element : json) elements.push_back(from_json(element));
      return Value::list(std::move(elements));
    }
    case nlohmann::json::value_t::object: {
      Value::Entries entries;
      for (const auto& [key, element] : json.items()) {
        entries.emplace_back(Value::string(key), from_json(element));
      }
      return Value::map(std::move(entries));
    }
    default:
      return Value{};
  }
}

}  // namespace

Value parse_value(std::string_view text, std::string_view type) {
  if (type == "string") return Value::string(std::string(text));
  if (type == "long") return Value::long_int(parse_int<std::int64_t>(text, "long"));
  if (type == "integer") return Value::integer(parse_int<std::int32_t>(text, "integer"));
  if (type == "double") {
    double x = 0;
    const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), x);
    if (ec != std::errc{} || end != text.data() + text.size() || text.empty()) bad(text, "double");
    return Value::double_num(x);
  }
  if (type == "boolean") {
    if (text == "true") return Value::boolean(true);
    if (text == "false") return Value::boolean(false);
    bad(text, "boolean", "true or false");
  }
  if (type == "json") {
    try {
      return from_json(nlohmann::json::parse(text));
    } catch (const nlohmann::json::exception& e) {
      bad(text, "JSON value", e.what());
    }
  }
  throw ToolError(kExitUsage,
                  "--type " + std::string(type) + ": expected one of " + std::string(kValueTypes));
}

std::string print_value(const Value& value) {
  if (value.kind() == ValueKind::string) return value.text();
  return value.to_display_json();
}

}  // namespace redisson::cli

namespace redisson::cli {

CodecPtr codec_option(const std::optional<std::string>& name) {
  if (!name) return nullptr;
  try {
    return codecs::by_name(*name);
  } catch (const redisson::error& e) {
    throw ToolError(kExitUsage, "--codec: " + std::string(e.what()));
  }
}

}  // namespace redisson::cli
