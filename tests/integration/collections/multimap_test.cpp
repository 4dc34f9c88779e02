// SetMultimap<K, V> and ListMultimap<K, V> against a real redis-server: the index hash and the
// values collections Java Redisson keeps, a key leaving the index with its last value, the object
// operations reaching every values key, wrong-type keys changing nothing, and Java's multimaps
// read and written byte for byte.
#include <gtest/gtest.h>

#include <algorithm>
#include <asio/use_future.hpp>
#include <chrono>
#include <string>
#include <vector>

#include "redisson/objects/list_multimap.hpp"
#include "redisson/objects/set_multimap.hpp"
#include "support/expect_error.hpp"
#include "support/java_fixtures.hpp"
#include "support/server_test.hpp"

namespace collections_multimap_test {

using namespace std::chrono_literals;
using redisson::errc;
using redisson::ListMultimap;
using redisson::SetMultimap;
using redisson::test::expect_error;
using redisson::test::from_hex;
using redisson::test::to_hex;
namespace codecs = redisson::codecs;

namespace {

using Strings = std::vector<std::string>;

Strings sorted(Strings values) {
  std::sort(values.begin(), values.end());
  return values;
}

class MultimapTest : public redisson::test::ServerTest {};

TEST_F(MultimapTest, SetMultimapKeepsEachValueOnceUnderItsKey) {
  SetMultimap<std::string, std::string> tags(client, "tags", codecs::string());
  EXPECT_TRUE(tags.put("a", "x"));
  EXPECT_FALSE(tags.put("a", "x"));
  EXPECT_TRUE(tags.put_all("a", {"y", "x", "z"}));
  EXPECT_FALSE(tags.put_all("a", {"y"}));
  EXPECT_FALSE(tags.put_all("b", {}));
  EXPECT_TRUE(tags.put("b", "x"));
  // The layout: index field = key bytes -> base64, values in the set {tags}:<base64>.
  const std::string a_values = tags.values_key("a");
  EXPECT_EQ(a_values.rfind("{tags}:", 0), 0u);
  EXPECT_EQ(a_values.size(), std::string("{tags}:").size() + 22);
  EXPECT_EQ(server.command({"HGET", "tags", "a"}), a_values.substr(7));
  EXPECT_EQ(server.command({"TYPE", a_values}), "set");
  EXPECT_EQ(sorted(tags.get_all("a")), (Strings{"x", "y", "z"}));
  EXPECT_EQ(tags.size(), 4);
  EXPECT_EQ(tags.key_size(), 2);
  EXPECT_TRUE(tags.contains_key("a"));
  EXPECT_FALSE(tags.contains_key("c"));
  EXPECT_TRUE(tags.contains_value("z"));
  EXPECT_FALSE(tags.contains_value("w"));
  EXPECT_TRUE(tags.contains_entry("b", "x"));
  EXPECT_FALSE(tags.contains_entry("b", "y"));
  Strings keys;
  for (const auto& key : tags.keys(1)) keys.push_back(key);
  EXPECT_EQ(sorted(keys), (Strings{"a", "b"}));
  Strings paged;
  for (const auto& value : tags.values("a", 1)) paged.push_back(value);
  EXPECT_EQ(sorted(paged), (Strings{"x", "y", "z"}));
  EXPECT_EQ(tags.lock_name("a"), a_values + ":lock");
  EXPECT_EQ(tags.semaphore_name("a"), a_values + ":semaphore");

  // Removing the last value of a key removes its index field.
  EXPECT_TRUE(tags.remove("b", "x"));
  EXPECT_FALSE(tags.remove("b", "x"));
  EXPECT_EQ(server.command({"HEXISTS", "tags", "b"}), "0");
  EXPECT_EQ(server.command({"EXISTS", tags.values_key("b")}), "0");
  EXPECT_EQ(sorted(tags.replace_values("a", {"p", "q"})), (Strings{"x", "y", "z"}));
  EXPECT_EQ(sorted(tags.get_all("a")), (Strings{"p", "q"}));
  EXPECT_EQ(sorted(tags.remove_all("a")), (Strings{"p", "q"}));
  EXPECT_TRUE(tags.remove_all("a").empty());
  EXPECT_EQ(server.command({"EXISTS", "tags", a_values}), "0");
  EXPECT_TRUE(tags.empty());
}

TEST_F(MultimapTest, ListMultimapKeepsOrderAndDuplicates) {
  ListMultimap<std::string, std::int64_t> events(client, "events", codecs::long_text());
  EXPECT_TRUE(events.put("u", 1));
  EXPECT_TRUE(events.put_all("u", {2, 1, 3}));
  EXPECT_TRUE(events.put("v", 9));
  EXPECT_EQ(server.command({"TYPE", events.values_key("u")}), "list");
  EXPECT_EQ(server.command({"LRANGE", events.values_key("u"), "0", "-1"}), "1\n2\n1\n3");
  EXPECT_EQ(events.get_all("u"), (std::vector<std::int64_t>{1, 2, 1, 3}));
  std::vector<std::int64_t> paged;
  for (auto value : events.values("u", 3)) paged.push_back(value);
  EXPECT_EQ(paged, (std::vector<std::int64_t>{1, 2, 1, 3}));
  EXPECT_EQ(events.size(), 5);
  EXPECT_EQ(events.key_size(), 2);
  EXPECT_TRUE(events.contains_entry("u", 1));  // at index 0
  EXPECT_TRUE(events.contains_entry("u", 3));
  EXPECT_FALSE(events.contains_entry("v", 1));
  EXPECT_TRUE(events.contains_value(9));
  EXPECT_FALSE(events.contains_value(7));
  EXPECT_TRUE(events.remove("u", 1));  // the first one
  EXPECT_EQ(events.get_all("u"), (std::vector<std::int64_t>{2, 1, 3}));
  EXPECT_EQ(events.replace_values("v", {}), (std::vector<std::int64_t>{9}));
  EXPECT_EQ(server.command({"HEXISTS", "events", "v"}), "0");
  EXPECT_EQ(events.fast_remove({"u", "v", "w"}), 1);
  EXPECT_EQ(events.fast_remove({}), 0);
  EXPECT_EQ(server.command({"EXISTS", "events", events.values_key("u")}), "0");
  EXPECT_TRUE(events.put("x", 4));
  EXPECT_TRUE(events.remove("x", 4));
  EXPECT_EQ(server.command({"EXISTS", "events"}), "0") << "the last value took the index along";
}

TEST_F(MultimapTest, WholeReadsAndFastRemoveValueAcrossKeys) {
  SetMultimap<std::string, std::string> tags(client, "tags", codecs::string());
  ListMultimap<std::string, std::string> log(client, "log", codecs::string());
  EXPECT_TRUE(tags.read_all_key_set().empty());
  EXPECT_TRUE(tags.read_all_entries().empty());
  tags.put_all("a", {"x", "y"});
  tags.put_all("b", {"y", "z"});
  log.put_all("a", {"x", "y", "x"});
  log.put_all("b", {"x"});
  auto keys = tags.read_all_key_set();
  std::sort(keys.begin(), keys.end());
  EXPECT_EQ(keys, (Strings{"a", "b"}));
  auto entries = tags.read_all_entries();
  std::sort(entries.begin(), entries.end());
  using Entries = std::vector<std::pair<std::string, std::string>>;
  EXPECT_EQ(entries, (Entries{{"a", "x"}, {"a", "y"}, {"b", "y"}, {"b", "z"}}));
  auto values = tags.read_all_values();
  std::sort(values.begin(), values.end());
  EXPECT_EQ(values, (Strings{"x", "y", "y", "z"}));
  const auto list_entries = log.read_all_entries();  // a list's values keep their order
  EXPECT_EQ(std::count(list_entries.begin(), list_entries.end(),
                       std::pair<std::string, std::string>{"a", "x"}),
            2);
  EXPECT_EQ(log.get_all("a"), (Strings{"x", "y", "x"}));

  EXPECT_EQ(tags.fast_remove_value({"y", "z", "none"}), 3);
  EXPECT_EQ(tags.read_all_key_set(), Strings{"a"});  // "b" had no values left: unindexed
  EXPECT_EQ(server.command({"EXISTS", tags.values_key("b")}), "0");
  EXPECT_EQ(tags.fast_remove_value({}), 0);
  EXPECT_EQ(log.fast_remove_value({"x"}), 2);  // the first "x" of each key, as Redisson
  EXPECT_EQ(log.get_all("a"), (Strings{"y", "x"}));
  EXPECT_FALSE(log.contains_key("b"));
  EXPECT_EQ(log.key_size(), 1);

  // A values key of another type: refused before anything is written.
  server.command({"DEL", tags.values_key("a")});
  server.command({"SET", tags.values_key("a"), "text"});
  tags.put("c", "x");
  expect_error(errc::wrong_type, [&] { tags.fast_remove_value({"x"}); });
  EXPECT_EQ(tags.get_all("c"), Strings{"x"});
  expect_error(errc::wrong_type, [&] { tags.read_all_entries(); });
}

TEST_F(MultimapTest, AsyncFormsCompleteThroughTokens) {
  SetMultimap<std::string, std::string> tags(client, "async", codecs::string());
  EXPECT_TRUE(tags.async_put("k", "v", asio::use_future).get());
  EXPECT_TRUE(tags.async_contains_entry("k", "v", asio::use_future).get());
  EXPECT_EQ(tags.async_size(asio::use_future).get(), 1);
  EXPECT_EQ(tags.async_remove_all("k", asio::use_future).get(), (Strings{"v"}));
  EXPECT_FALSE(tags.async_delete_object(asio::use_future).get());
}

TEST_F(MultimapTest, ObjectOperationsReachEveryValuesKey) {
  for (const std::string name : {"mm", "mm{tag}x"}) {
    SCOPED_TRACE(name);
    ListMultimap<std::string, std::string> multimap(client, name, codecs::string());
    multimap.put_all("a", {"1", "2"});
    multimap.put("b", "3");
    const auto a_values = multimap.values_key("a");
    const auto b_values = multimap.values_key("b");
    if (name == "mm{tag}x") {
      EXPECT_EQ(a_values.rfind("mm{tag}x:", 0), 0u);
    }

    EXPECT_TRUE(multimap.expire(100s));
    for (const auto& key : {name, a_values, b_values}) {
      EXPECT_NE(server.command({"PTTL", key}), "-1") << key;
    }
    EXPECT_TRUE(multimap.clear_expire());
    for (const auto& key : {name, a_values, b_values}) {
      EXPECT_EQ(server.command({"PTTL", key}), "-1") << key;
    }
    EXPECT_TRUE(multimap.expire_at(std::chrono::system_clock::now() + 100s));
    EXPECT_NE(server.command({"PTTL", b_values}), "-1");
    EXPECT_TRUE(multimap.touch());
    EXPECT_GT(multimap.size_in_memory(), 0);

    const std::string renamed = name + "-renamed";
    multimap.rename(renamed);
    EXPECT_EQ(multimap.name(), renamed);
    EXPECT_EQ(server.command({"EXISTS", name, a_values, b_values}), "0");
    EXPECT_EQ(multimap.get_all("a"), (Strings{"1", "2"}));
    EXPECT_EQ(multimap.get_all("b"), (Strings{"3"}));
    EXPECT_EQ(server.command({"EXISTS", multimap.values_key("a"), multimap.values_key("b")}), "2");

    const auto new_a = multimap.values_key("a");
    EXPECT_TRUE(multimap.delete_object());
    EXPECT_EQ(server.command({"EXISTS", renamed, new_a, multimap.values_key("b")}), "0");
    EXPECT_FALSE(multimap.delete_object());
    EXPECT_EQ(multimap.size_in_memory(), 0);
    expect_error(
        errc::server_error, [&] { multimap.rename(name); }, "rename of nothing");
    expect_error(
        errc::invalid_argument, [&] { multimap.rename(""); }, "rename to \"\"");
  }
}

// The object operations as any code holding an Object& calls them (a helper that expires or
// deletes "some object"): they reach the values keys too, not only the index.
void expire_through_object(redisson::Object& object) { EXPECT_TRUE(object.expire(100s)); }
void rename_through_object(redisson::Object& object, const std::string& to) { object.rename(to); }
bool delete_through_object(redisson::Object& object) { return object.delete_object(); }

TEST_F(MultimapTest, ObjectReferenceReachesEveryValuesKey) {
  SetMultimap<std::string, std::string> sets(client, "om-set", codecs::string());
  ListMultimap<std::string, std::string> lists(client, "om-list", codecs::string());
  for (redisson::Object* object :
       {static_cast<redisson::Object*>(&sets), static_cast<redisson::Object*>(&lists)}) {
    SCOPED_TRACE(object->name());
    auto& any = *object;
    const auto values_key = [&](const std::string& key) {
      return object == &sets ? sets.values_key(key) : lists.values_key(key);
    };
    const auto get_all = [&](const std::string& key) {
      return sorted(object == &sets ? sets.get_all(key) : lists.get_all(key));
    };
    if (object == &sets) {
      sets.put_all("a", {"1", "2"});
      sets.put("b", "3");
    } else {
      lists.put_all("a", {"1", "2"});
      lists.put("b", "3");
    }
    const std::string name = any.name();
    const std::vector<std::string> keys{name, values_key("a"), values_key("b")};

    expire_through_object(any);
    for (const auto& key : keys) EXPECT_NE(server.command({"PTTL", key}), "-1") << key;
    EXPECT_TRUE(any.clear_expire());
    for (const auto& key : keys) EXPECT_EQ(server.command({"PTTL", key}), "-1") << key;
    EXPECT_TRUE(any.expire_at(std::chrono::system_clock::now() + 100s));
    for (const auto& key : keys) EXPECT_NE(server.command({"PTTL", key}), "-1") << key;
    EXPECT_TRUE(any.touch());
    EXPECT_GT(any.size_in_memory(), std::stoll(server.command({"MEMORY", "USAGE", name})));

    rename_through_object(any, name + "-moved");
    EXPECT_EQ(any.name(), name + "-moved");
    EXPECT_EQ(server.command({"EXISTS", keys[0], keys[1], keys[2]}), "0");
    EXPECT_EQ(server.command({"EXISTS", name + "-moved", values_key("a"), values_key("b")}), "3");
    EXPECT_EQ(get_all("a"), (Strings{"1", "2"}));
    EXPECT_EQ(get_all("b"), (Strings{"3"}));
    // The TTLs moved with the keys.
    EXPECT_NE(server.command({"PTTL", values_key("b")}), "-1");

    const std::vector<std::string> moved{name + "-moved", values_key("a"), values_key("b")};
    EXPECT_TRUE(delete_through_object(any));
    EXPECT_EQ(server.command({"EXISTS", moved[0], moved[1], moved[2]}), "0");
    EXPECT_EQ(server.command({"DBSIZE"}), "0") << "no values key was left behind";
    EXPECT_FALSE(delete_through_object(any));
  }
}

TEST_F(MultimapTest, AWrongTypeKeyChangesNothing) {
  server.command({"SET", "str", "x"});
  SetMultimap<std::string, std::string> on_string(client, "str", codecs::string());
  expect_error(
      errc::wrong_type, [&] { on_string.put("k", "v"); }, "put");
  EXPECT_EQ(server.command({"EXISTS", on_string.values_key("k")}), "0");
  expect_error(
      errc::wrong_type, [&] { on_string.replace_values("k", {"v"}); }, "replace");
  expect_error(
      errc::wrong_type, [&] { on_string.remove("k", "v"); }, "remove");
  expect_error(
      errc::wrong_type, [&] { on_string.fast_remove({"k"}); }, "fast_remove");
  expect_error(
      errc::wrong_type, [&] { on_string.size(); }, "size");
  expect_error(
      errc::wrong_type, [&] { on_string.contains_value("v"); }, "contains_value");
  expect_error(
      errc::wrong_type, [&] { on_string.key_size(); }, "key_size");
  expect_error(
      errc::wrong_type, [&] { on_string.delete_object(); }, "delete_object");
  expect_error(
      errc::wrong_type, [&] { on_string.expire(10s); }, "expire");
  EXPECT_EQ(server.command({"GET", "str"}), "x");
  EXPECT_EQ(server.command({"PTTL", "str"}), "-1");

  // A values key of another type: nothing reaches the index either.
  ListMultimap<std::string, std::string> lists(client, "lists", codecs::string());
  server.command({"SET", lists.values_key("k"), "y"});
  expect_error(
      errc::wrong_type, [&] { lists.put("k", "v"); }, "put on a string values key");
  expect_error(
      errc::wrong_type, [&] { lists.remove_all("k"); }, "remove_all");
  expect_error(
      errc::wrong_type, [&] { lists.contains_entry("k", "v"); }, "contains_entry");
  EXPECT_EQ(server.command({"EXISTS", "lists"}), "0");
  EXPECT_EQ(server.command({"GET", lists.values_key("k")}), "y");

  expect_error(
      errc::invalid_argument, [&] { lists.values("k", 0); }, "page size 0");
}

class JavaMultimapTest : public redisson::test::ServerTest {
 protected:
  void SetUp() override { redisson::test::load_java_fixtures(server); }

  /// Java's index of `key`: (field hex, base64) pairs.
  static std::vector<std::pair<std::string, std::string>> java_index(const std::string& key) {
    std::vector<std::pair<std::string, std::string>> fields;
    for (const auto& entry : redisson::test::java_dump_entry(key).at("content")) {
      fields.emplace_back(entry.at(0).at("hex").get<std::string>(),
                          entry.at(1).at("text").get<std::string>());
    }
    return fields;
  }
  static Strings java_values_hex(const std::string& key) {
    Strings values;
    for (const auto& value : redisson::test::java_dump_entry(key).at("content")) {
      values.push_back(value.at("hex").get<std::string>());
    }
    return values;
  }

  /// Reads Java's multimap, writes the same calls from C++ under another name, and compares
  /// the index and every values collection byte for byte.
  template <class Multimap>
  void check_case(const char* name, bool is_list) {
    SCOPED_TRACE(name);
    const auto& fixture = redisson::test::java_case(name);
    const auto codec = redisson::test::codec_of_case(fixture);
    const std::string key = fixture["key"];
    Multimap java(client, key, codec);
    EXPECT_EQ(java.key_size(), 2);
    EXPECT_EQ(java.size(), 3);
    auto k1 = java.get_all("k1");
    if (!is_list) k1 = sorted(k1);
    EXPECT_EQ(k1, (Strings{"v1", "v2"}));
    EXPECT_EQ(java.get_all("k2"), (Strings{"v3"}));
    EXPECT_TRUE(java.contains_entry("k2", "v3"));
    EXPECT_EQ(java.values_key("k1"),
              "{" + key + "}:" + fixture["hash128toBase64_of_key"]["k1"].get<std::string>());
    Strings keys;
    for (const auto& k : java.keys()) keys.push_back(k);
    EXPECT_EQ(sorted(keys), (Strings{"k1", "k2"}));

    Multimap ours(client, std::string("ours:") + name, codec);
    ours.put("k1", "v1");
    ours.put("k1", "v2");
    ours.put("k2", "v3");
    const auto index = java_index(key);
    EXPECT_EQ(server.command({"HLEN", ours.name()}), std::to_string(index.size()));
    for (const auto& [field_hex, b64] : index) {
      EXPECT_EQ(server.command({"HGET", ours.name(), from_hex(field_hex)}), b64);
      const auto java_values = java_values_hex("{" + key + "}:" + b64);
      const auto our_values = "{" + ours.name() + "}:" + b64;
      if (is_list) {
        for (std::size_t i = 0; i < java_values.size(); ++i) {
          EXPECT_EQ(to_hex(server.command({"LINDEX", our_values, std::to_string(i)})),
                    java_values[i]);
        }
        EXPECT_EQ(server.command({"LLEN", our_values}), std::to_string(java_values.size()));
      } else {
        for (const auto& value_hex : java_values) {
          EXPECT_EQ(server.command({"SISMEMBER", our_values, from_hex(value_hex)}), "1");
        }
        EXPECT_EQ(server.command({"SCARD", our_values}), std::to_string(java_values.size()));
      }
    }
    // Java's multimap deleted from C++: every values key goes with the index.
    EXPECT_TRUE(java.delete_object());
    for (const auto& [field_hex, b64] : index) {
      EXPECT_EQ(server.command({"EXISTS", "{" + key + "}:" + b64}), "0");
    }
  }
};

TEST_F(JavaMultimapTest, ReadsJavasSetMultimapsAndWritesTheSameBytes) {
  check_case<SetMultimap<std::string, std::string>>("setmultimap_kryo", false);
  check_case<SetMultimap<std::string, std::string>>("setmultimap_string", false);
}

TEST_F(JavaMultimapTest, ReadsJavasListMultimapsAndWritesTheSameBytes) {
  check_case<ListMultimap<std::string, std::string>>("listmultimap_kryo", true);
  check_case<ListMultimap<std::string, std::string>>("listmultimap_string", true);
}

}  // namespace

}  // namespace collections_multimap_test
