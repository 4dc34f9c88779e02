// What `inspect` recognises beyond the locks: Redisson's objects by their layout, with their
// state. A string is a HyperLogLog ("HYLL" header), a Bloom filter (its {name}:config hash), an
// IdGenerator (its {name}:allocation key), or a bucket whose value is shown decoded with the codec
// its bytes match (kryo5, then json, then text); a hash with rate, interval and type is a rate
// limiter. Everything is read with read-only commands.
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "key_report.hpp"
#include "redisson/client.hpp"

namespace redisson::cli {

/// A value's bytes as inspect shows them: decoded with the first codec that reads them.
struct DisplayedValue {
  std::string codec;      ///< "kryo5", "json" or "string"
  std::string json;       ///< the value as display JSON
  std::string java_type;  ///< the Java class (kryo5/json), empty for text
};
/// Tries `preferred` (a codec name, when an earlier value of the same collection was read with
/// it), then kryo5, json and UTF-8 text; nullopt for bytes none of them reads.
std::optional<DisplayedValue> decode_for_display(const std::string& bytes,
                                                 std::string_view preferred = {});

/// Fills report.kind, report.codec, report.value_json and report.details when `report` (a string
/// or hash that is no lock) is one of Redisson's objects.
void recognise_object(Client& client, KeyReport& report);

}  // namespace redisson::cli
