// Maps shared with Java Redisson 3.52: the RMap fixture cases (Kryo5Codec, StringCodec and
// CompositeCodec(StringCodec, LongCodec)) read through Map from the hashes Java wrote, and written
// by C++ to the very fields and values Java wrote.
#include <gtest/gtest.h>

#include <cstdint>
#include <map>
#include <set>
#include <string>
#include <utility>

#include "redisson/objects/map.hpp"
#include "support/java_fixtures.hpp"
#include "support/server_test.hpp"

namespace collections_java_map_interop_test {

using redisson::Map;
using redisson::test::codec_of_case;
using redisson::test::from_hex;
using redisson::test::java_case;
using redisson::test::java_dump_entry;
using redisson::test::load_java_fixtures;
using redisson::test::to_hex;

namespace {

class JavaMapInterop : public redisson::test::ServerTest {
 protected:
  // The hash as (field hex, value hex) pairs: Java's from the dump, ours from the server.
  static std::set<std::pair<std::string, std::string>> java_hash(const std::string& key) {
    std::set<std::pair<std::string, std::string>> fields;
    for (const auto& entry : java_dump_entry(key).at("content")) {
      fields.emplace(entry.at(0).at("hex").get<std::string>(),
                     entry.at(1).at("hex").get<std::string>());
    }
    return fields;
  }
  // Our hash, read field by field with the fields Java wrote (HGET is binary-safe; the test
  // server's HGETALL text is not).
  std::set<std::pair<std::string, std::string>> our_hash(
      const std::string& key, const std::set<std::pair<std::string, std::string>>& java) const {
    std::set<std::pair<std::string, std::string>> fields;
    for (const auto& [field, value] : java) {
      const auto ours = server.command({"HGET", key, from_hex(field)});
      if (ours != "(nil)") fields.emplace(field, to_hex(ours));
    }
    EXPECT_EQ(server.command({"HLEN", key}), std::to_string(java.size()));
    return fields;
  }

  template <class V>
  void check_case(const std::string& name) {
    SCOPED_TRACE(name);
    const auto& java = java_case(name);
    const auto key = java.at("key").get<std::string>();
    const auto codec = codec_of_case(java);
    std::map<std::string, V> expected;
    for (const auto& [k, v] : java.at("value").items()) expected[k] = v.template get<V>();

    const Map<std::string, V> theirs(client, key, codec);
    std::map<std::string, V> read;
    auto scan = theirs.entries();
    for (const auto& [k, v] : scan) read[k] = v;
    EXPECT_EQ(read, expected) << "C++ reads what Java wrote";
    for (const auto& [k, v] : expected) EXPECT_EQ(theirs.get(k), v);

    Map<std::string, V> ours(client, "cpp:" + key, codec);
    for (const auto& [k, v] : expected) ours.put(k, v);
    const auto javas = java_hash(key);
    EXPECT_EQ(our_hash("cpp:" + key, javas), javas) << "C++ writes the bytes Java wrote";
  }
};

TEST_F(JavaMapInterop, EveryMapCaseBothWays) {
  load_java_fixtures(server);
  check_case<std::string>("map_kryo");
  check_case<std::string>("map_string");
  check_case<std::int64_t>("map_long_kryo");
  check_case<std::int64_t>("map_long_string");
}

}  // namespace

}  // namespace collections_java_map_interop_test
