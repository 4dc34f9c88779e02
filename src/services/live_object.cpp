// LiveObjectService's Redis layout (redisson/services/live_object.hpp): Redisson's key names and
// the index script; the templates encode, this file names and sends.
#include "redisson/services/live_object.hpp"

#include <string>

#include "codec/hex.hpp"
#include "hash/highway_hash.hpp"
#include "lua_scripts.hpp"

namespace redisson::detail {

std::string live_object_key(std::string_view id_bytes, std::string_view class_name) {
  return "redisson_live_object:{" + hex_lower(id_bytes) + "}:" + std::string(class_name);
}

std::string live_object_index(std::string_view class_name, std::string_view field) {
  return "redisson_live_object_index:{" + std::string(class_name) + "}:" + std::string(field);
}

std::string live_object_index_set(const std::string& index, std::string_view value_bytes) {
  return index + ":" + highway_hash128_base64(value_bytes);
}

void live_object_reindex(const Client& client, const std::string& index, const std::string& id,
                         const std::optional<std::string>& old_value,
                         const std::optional<std::string>& new_value) {
  static const Script script{std::string(lua::live_object_index.source)};
  if (old_value == new_value) return;
  const auto new_set = new_value ? live_object_index_set(index, *new_value) : index;
  client.async_eval(
      script, {index, new_set},
      {id, old_value.value_or(""), old_value ? "1" : "0", new_value.value_or(""),
       new_value ? "1" : "0", new_value ? highway_hash128_base64(*new_value) : std::string()},
      blocking("index", "LiveObjectService"));
}

}  // namespace redisson::detail
