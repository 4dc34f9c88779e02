// LiveObjectService: a C++ struct stored as Java Redisson's live object (one hash per object,
// an index for lookups by name), so a Java service with the entity class com.example.Person
// (@REntity(codec = JsonJacksonCodec.class), @RId id, @RIndex name) reads and writes the same
// objects.
//
//   live_objects [redis://127.0.0.1:6379]
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <redisson/client.hpp>
#include <redisson/services/live_object.hpp>
#include <string>
#include <tuple>

struct Person {
  std::string id;
  std::string name;
  std::int32_t age = 0;
};

// Described once: the Java class name, the id, and the fields (name is indexed).
template <>
struct redisson::LiveObjectTraits<Person> {
  static constexpr std::string_view class_name = "com.example.Person";
  static constexpr auto id = redisson::live_field("id", &Person::id);
  static constexpr auto fields =
      std::make_tuple(redisson::live_field("name", &Person::name, redisson::live_indexed),
                      redisson::live_field("age", &Person::age));
};

int main(int argc, char** argv) {
  using namespace std::chrono_literals;
  const std::string url = argc > 1 ? argv[1] : "redis://127.0.0.1:6379";
  try {
    redisson::Client client(url);
    redisson::LiveObjectService people(client, redisson::codecs::json());

    people.persist(Person{"p1", "Ada", 36});
    people.set_field<Person>(std::string("p1"), &Person::age, 37);  // one HSET
    for (const auto& person : people.find(&Person::name, std::string("Ada"))) {
      std::printf("%s: %s, %d\n", person.id.c_str(), person.name.c_str(), person.age);
    }
    people.expire<Person>(std::string("p1"), 1h);
    people.delete_object<Person>(std::string("p1"));
    return 0;
  } catch (const redisson::error& failure) {
    std::fprintf(stderr, "live_objects: %s\n", failure.what());
    return 1;
  }
}
