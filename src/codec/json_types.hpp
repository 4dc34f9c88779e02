// Jackson's type information in JsonJacksonCodec JSON: which Java classes a ["<class>", value]
// wrapper and a {"@class": ...} object may name, and the Value each stands for. Shared by the
// JSON reader and the JSON struct bridge (redisson/codec_json_object.hpp).
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>

#include "redisson/value.hpp"

namespace redisson::detail {

/// The scalar classes a type wrapper may name.
enum class JsonScalarClass : std::uint8_t {
  none,
  long_int,    ///< java.lang.Long: a JSON integer
  integer,     ///< java.lang.Integer
  short_int,   ///< java.lang.Short
  byte,        ///< java.lang.Byte
  double_num,  ///< java.lang.Double: any JSON number
  float_num,   ///< java.lang.Float
  boolean,     ///< java.lang.Boolean
  string,      ///< java.lang.String
  character,   ///< java.lang.Character: a one-character string
  bytes,       ///< [B: a Base64 string
};

JsonScalarClass json_scalar_class(std::string_view java_class) noexcept;

/// The value of wrapper ["<class>", payload] for a scalar class, `payload` being what the JSON
/// payload reads as on its own (Integer, Long, Double, String, Boolean); nullopt when it does
/// not fit the class (a String for java.lang.Long, 300 for java.lang.Byte).
std::optional<Value> typed_scalar(JsonScalarClass java_class, const Value& payload);

}  // namespace redisson::detail
