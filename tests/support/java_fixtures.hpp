// Bytes Java Redisson 3.52 wrote into Redis (tests/fixtures/redisson-3.52, the repository's copy
// of the team's ../shared/fixtures/redisson-3.52; see its README.md): its cases (what each Java
// call stored, with the values it read back) and its dump, loaded into a throwaway server byte
// for byte by the fixtures' own load.py.
//
//   load_java_fixtures(server);                    // every key of dump.json, scores made current
//   const auto& c = java_case("kryo_str_hello");   // c["key"], c["encoded_hex"], c["readback"]
//   Bucket<Value> bucket(client, c["key"], codec_of_case(c));
//   EXPECT_EQ(bucket.get(), expected_value(c));
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <string_view>
#include <vector>

#include "redisson/codec.hpp"
#include "redisson/value.hpp"
#include "support/redis_server.hpp"

namespace redisson::test {

/// The fixtures directory (the repository's copy); throws std::runtime_error naming the path
/// when it is missing.
std::string java_fixtures_dir();
/// Where the fixtures come from: ../shared/fixtures/redisson-3.52 beside the repository (may be
/// absent: a clone on its own has only the copy).
std::string shared_java_fixtures_dir();

/// Writes every key of dump.json into `server` (load.py --shift-scores-to-now: zset scores that
/// are times after the run move to now, so entries that expired since are alive again).
void load_java_fixtures(const RedisServer& server);

/// Every case of cases.jsonl but the _meta line, in file order.
const std::vector<nlohmann::json>& java_cases();
/// The case named `name`; throws when there is none.
const nlohmann::json& java_case(std::string_view name);
/// The _meta line (client ids, at_ms).
const nlohmann::json& java_fixtures_meta();

/// The codec a case names ("Kryo5Codec (default)", "StringCodec", "TypedJsonJacksonCodec(...)").
CodecPtr codec_of_case(const nlohmann::json& java_case);

/// The value Java read back, as a Value of the Java type the case records ("readback_java":
/// java.lang.Long, [B, java.util.ArrayList[java.lang.String, java.lang.Long], java.util.HashMap{
/// java.lang.String=java.lang.Long}).
Value readback_value(const nlohmann::json& java_case);

/// The dump.json entry of `key` ({"key","type","pttl","content"}); throws when there is none.
const nlohmann::json& java_dump_entry(std::string_view key);
/// The hex of a string key's bytes in the dump.
std::string java_string_hex(std::string_view key);
/// The hex of a sorted set's members in the dump, in rank order.
std::vector<std::string> java_zset_members_hex(std::string_view key);
/// A hash of the dump as field -> value text.
std::vector<std::pair<std::string, std::string>> java_hash_fields(std::string_view key);

// The services part (services/: messaging, batches, transactions, scripts, functions; its
// README in ../shared says how to read it). Cases are named "fx2:<case>" keys; `case` drops it.
/// The services case named `name` ("topic_kryo"); throws when there is none.
const nlohmann::json& java_service_case(std::string_view name);
/// The services _meta line (client UUIDs by client name, main thread id).
const nlohmann::json& java_service_meta();
/// The MONITOR rows of the services case `name`, in server order (markers included: a row with
/// "marker": true opens each step).
std::vector<nlohmann::json> java_service_monitor(std::string_view name);
/// The entry of `key` in the services dump.json ({key, type, pttl, content}); throws when absent.
const nlohmann::json& java_service_dump_entry(std::string_view key);
/// The arguments of a MONITOR row as text (each argument's "text").
std::vector<std::string> monitor_args_text(const nlohmann::json& row);

/// Bytes from lowercase or uppercase hex.
std::string from_hex(std::string_view hex);
std::string to_hex(std::string_view bytes);

}  // namespace redisson::test
