// Jackson's type information for the JSON struct bridge (redisson/codec_json_object.hpp), kept
// free of any JSON library: what a ["<class>", value] wrapper and an object's "@class" stand for.
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "redisson/value.hpp"

namespace redisson::detail {

/// The value of the type wrapper ["<java_class>", payload] as JsonJacksonCodec reads it:
/// java.lang.Long/Integer/Short/Byte/Double/Float/Boolean/String/Character and [B (Base64) from a
/// scalar payload, a known list or set class from a list payload. nullopt for any other class
/// or a payload that does not fit.
std::optional<Value> java_typed_value(std::string_view java_class, const Value& payload);

/// An object with "@class": `java_class`: a Map (its fields as String keys) for the map classes
/// the codecs know (java.util.HashMap, ...), otherwise Value::object(java_class, fields).
Value java_object_value(std::string java_class, Value::Entries fields);

}  // namespace redisson::detail
