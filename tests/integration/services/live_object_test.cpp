// LiveObjectService against a real redis-server: a flat struct persisted, changed, found by an
// indexed field and deleted, leaving exactly the keys and bytes Java Redisson 3.52 left for the
// same steps (fixture case liveobject_json), and Java's stored objects read back.
#include "redisson/services/live_object.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <map>
#include <nlohmann/json.hpp>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "redisson/client.hpp"
#include "support/expect_error.hpp"
#include "support/java_fixtures.hpp"
#include "support/server_test.hpp"

namespace services_live_object_test {

struct Person {
  std::string id;
  std::string name;
  std::int32_t age = 0;
};

}  // namespace services_live_object_test

template <>
struct redisson::LiveObjectTraits<services_live_object_test::Person> {
  using Person = services_live_object_test::Person;
  static constexpr std::string_view class_name = "ServiceFixtures$PersonJson";
  static constexpr auto id = redisson::live_field("id", &Person::id);
  static constexpr auto fields =
      std::make_tuple(redisson::live_field("name", &Person::name, redisson::live_indexed),
                      redisson::live_field("age", &Person::age));
};

namespace services_live_object_test {

using namespace std::chrono_literals;
using redisson::Client;
using redisson::Command;
using redisson::errc;
using redisson::LiveObjectService;
using redisson::test::config_for;
using redisson::test::expect_error;
using redisson::test::java_service_case;
namespace codecs = redisson::codecs;

namespace {

std::string hex(std::string_view bytes) {
  static constexpr char kDigits[] = "0123456789abcdef";
  std::string out;
  for (const char c : bytes) {
    out.push_back(kDigits[static_cast<unsigned char>(c) >> 4]);
    out.push_back(kDigits[static_cast<unsigned char>(c) & 0xF]);
  }
  return out;
}

/// Every live-object key: name -> its content as sorted hex (hash: "field=value"; set: members).
using State = std::map<std::string, std::vector<std::string>>;

State state_of(Client& client) {
  State state;
  for (const auto& key : client.execute(Command{"KEYS", "redisson_live_object*"}).elements) {
    const auto type = client.execute(Command{"TYPE", key.str}).str;
    std::vector<std::string> content;
    if (type == "hash") {
      const auto all = client.execute(Command{"HGETALL", key.str});
      for (std::size_t i = 0; i + 1 < all.elements.size(); i += 2) {
        content.push_back(hex(all.elements[i].str) + "=" + hex(all.elements[i + 1].str));
      }
    } else {
      for (const auto& member : client.execute(Command{"SMEMBERS", key.str}).elements) {
        content.push_back(hex(member.str));
      }
    }
    std::sort(content.begin(), content.end());
    state[key.str] = std::move(content);
  }
  return state;
}

State fixture_state(const nlohmann::json& snapshot) {
  State state;
  for (const auto& key : snapshot) {
    std::vector<std::string> content;
    for (const auto& item : key["content"]) {
      if (key["type"] == "hash") {
        content.push_back(item[0]["hex"].get<std::string>() + "=" +
                          item[1]["hex"].get<std::string>());
      } else {
        content.push_back(item["hex"].get<std::string>());
      }
    }
    std::sort(content.begin(), content.end());
    state[key["key"].get<std::string>()] = std::move(content);
  }
  return state;
}

class LiveObjectTest : public redisson::test::ServerTest {
 protected:
  LiveObjectService service{client, codecs::json()};
};

TEST_F(LiveObjectTest, JavasStepsLeaveJavasBytes) {
  const auto& java = java_service_case("liveobject_json");
  EXPECT_TRUE(service.persist(Person{"p1", "alice", 30}));
  EXPECT_TRUE(service.persist(Person{"p2", "bob", 40}));
  EXPECT_FALSE(service.persist(Person{"p2", "robert", 41})) << "exists: nothing changes";
  EXPECT_EQ(state_of(client), fixture_state(java["state_after_persist"]));

  service.set_field<Person>(std::string("p1"), &Person::age, 31);
  EXPECT_EQ(service.find(&Person::name, std::string("alice")).size(), 1U);
  EXPECT_EQ(service.get_field<Person>(std::string("p1"), &Person::name), "alice");
  service.set_field<Person>(std::string("p1"), &Person::name, std::string("alicia"));
  EXPECT_EQ(service.count(&Person::name, std::string("alicia")), 1);
  EXPECT_EQ(service.count(&Person::name, std::string("alice")), 0) << "the index moved";
  EXPECT_TRUE(service.is_exists<Person>(std::string("p1")));
  EXPECT_EQ(state_of(client), fixture_state(java["state_before_delete"]));

  EXPECT_TRUE(service.delete_object<Person>(std::string("p2")));
  EXPECT_FALSE(service.delete_object<Person>(std::string("p2")));
  EXPECT_EQ(state_of(client), fixture_state(java["state_after"]));
}

TEST_F(LiveObjectTest, JavasObjectsReadBackFieldByFieldInANewClient) {
  // Java's stored state, written byte for byte, then read by a client that knew nothing of it.
  const auto& java = java_service_case("liveobject_json");
  for (const auto& key : java["state_before_delete"]) {
    for (const auto& item : key["content"]) {
      if (key["type"] == "hash") {
        client.execute(Command{"HSET", key["key"].get<std::string>()}
                           .arg(redisson::test::from_hex(item[0]["hex"].get<std::string>()))
                           .arg(redisson::test::from_hex(item[1]["hex"].get<std::string>())));
      } else {
        client.execute(Command{"SADD", key["key"].get<std::string>()}.arg(
            redisson::test::from_hex(item["hex"].get<std::string>())));
      }
    }
  }
  Client restarted(config_for(server));
  LiveObjectService again(restarted, codecs::json());
  const auto p1 = again.get<Person>(std::string("p1"));
  ASSERT_TRUE(p1);
  EXPECT_EQ(p1->name, "alicia");
  EXPECT_EQ(p1->age, 31);
  EXPECT_EQ(again.get_field<Person>(std::string("p2"), &Person::age), 40);
  const auto found = again.find(&Person::name, std::string("bob"));
  ASSERT_EQ(found.size(), 1U);
  EXPECT_EQ(found[0].id, "p2");
  EXPECT_EQ(again.get<Person>(std::string("nobody")), std::nullopt);
}

TEST_F(LiveObjectTest, ExpiryAndMerge) {
  service.merge(Person{"p3", "cy", 20});
  service.merge(Person{"p3", "cyd", 21});  // overwrites, the index follows
  EXPECT_EQ(service.find_ids(&Person::name, std::string("cy")).size(), 0U);
  EXPECT_EQ(service.find_ids(&Person::name, std::string("cyd")).size(), 1U);
  EXPECT_TRUE(service.expire<Person>(std::string("p3"), 1h));
  const auto ttl = client.execute(Command{"PTTL", service.key<Person>(std::string("p3"))}).integer;
  EXPECT_GT(ttl, 3500 * 1000);
  // The object gone (as when its time to live ends): find() skips its stale index entry.
  client.execute(Command{"DEL", service.key<Person>(std::string("p3"))});
  EXPECT_TRUE(service.find(&Person::name, std::string("cyd")).empty());
}

TEST_F(LiveObjectTest, FindReadsManyObjectsAtOnceAndSkipsTheGoneOnes) {
  for (int i = 0; i < 20; ++i) {
    service.persist(Person{"d" + std::to_string(i), "dee", i});
  }
  for (int i = 0; i < 20; i += 3) {
    client.execute(Command{"DEL", service.key<Person>("d" + std::to_string(i))});
  }
  std::map<std::string, std::int32_t> found;
  for (const auto& person : service.find(&Person::name, std::string("dee"))) {
    EXPECT_EQ(person.name, "dee");
    found.emplace(person.id, person.age);
  }
  std::map<std::string, std::int32_t> expected;
  for (int i = 0; i < 20; ++i) {
    if (i % 3 != 0) expected.emplace("d" + std::to_string(i), i);
  }
  EXPECT_EQ(found, expected) << "each object with its own fields";
  EXPECT_EQ(service.count(&Person::name, std::string("dee")), 13);

  // An index entry whose key holds another type: the read fails as a single get() does.
  client.execute(Command{"SET", service.key<Person>(std::string("d1")), "text"});
  expect_error(errc::wrong_type, [&] { service.find(&Person::name, std::string("dee")); });
}

TEST_F(LiveObjectTest, BadCallsChangeNothing) {
  expect_error(errc::invalid_argument,
               [&] { service.set_field<Person>(std::string("ghost"), &Person::age, 1); });
  expect_error(errc::invalid_argument,
               [&] { service.find_ids(&Person::age, std::int32_t{1}); });  // not indexed
  EXPECT_EQ(client.execute(Command{"KEYS", "*"}).elements.size(), 0U);
  const auto key = service.key<Person>(std::string("p9"));
  client.execute(Command{"SET", key, "text"});
  expect_error(errc::wrong_type, [&] { service.get<Person>(std::string("p9")); });
  EXPECT_EQ(client.execute(Command{"GET", key}).str, "text");
}

}  // namespace

}  // namespace services_live_object_test
