// Codecs: the bytes a value becomes, shared with Java Redisson. Encodes a few values with the
// kryo5 and json codecs (no server needed), stores a struct through the json codec, and defines
// a codec of its own.  Usage: example_codecs [redis://127.0.0.1:6379]
#include <cstdio>
#include <iostream>
#include <map>
#include <nlohmann/json.hpp>
#include <redisson/codec_json_object.hpp>
#include <redisson/redisson.hpp>
#include <string>
#include <vector>

// A struct Java knows as com.example.Person (a POJO Jackson maps).
struct Person {
  std::string name;
  int age = 0;
  std::vector<std::string> tags;
};
void to_json(nlohmann::json& j, const Person& p) {
  j = {{"name", p.name}, {"age", p.age}, {"tags", p.tags}};
}
void from_json(const nlohmann::json& j, Person& p) {
  j.at("name").get_to(p.name);
  j.at("age").get_to(p.age);
  p.tags = j.value("tags", std::vector<std::string>{});
}
template <>
struct redisson::JavaClass<Person> {
  static constexpr std::string_view name = "com.example.Person";
};

// A codec of one's own: Strings as "v1:" + UTF-8.
class VersionedStringCodec final : public redisson::Codec {
 public:
  std::string_view name() const noexcept override { return "versioned_string"; }
  void encode(const redisson::Value& value, std::string& out) const override {
    if (value.kind() != redisson::ValueKind::string) {
      throw redisson::error(redisson::errc::codec_error, "versioned_string writes Strings only");
    }
    out += "v1:";
    out += value.text();
  }
  redisson::Value decode(std::string_view bytes) const override {
    if (bytes.substr(0, 3) != "v1:") {
      throw redisson::error(redisson::errc::codec_error, "versioned_string: no v1: prefix");
    }
    return redisson::Value::string(std::string(bytes.substr(3)));
  }
};

std::string hex(const std::string& bytes) {
  std::string out;
  char digits[4];
  for (const unsigned char c : bytes) {
    std::snprintf(digits, sizeof digits, "%02x ", c);
    out += digits;
  }
  return out;
}

int main(int argc, char** argv) {
  const std::string url = argc > 1 ? argv[1] : "redis://127.0.0.1:6379";

  // The bytes Java Redisson writes for the same values.
  const auto kryo = redisson::codecs::kryo5();
  const auto json = redisson::codecs::json();
  const std::map<std::string, std::int64_t> scores{{"ann", 7}, {"bob", 9}};
  std::cout << "kryo5 \"hello\": " << hex(kryo->encode(redisson::to_value(std::string("hello"))))
            << "\n";
  std::cout << "json map: " << json->encode(redisson::to_value(scores)) << "\n";
  const Person ann{"Ann", 42, {"admin"}};
  std::cout << "json Person: " << json->encode(redisson::to_value(ann)) << "\n";

  try {
    redisson::Client client(url);

    // A Java service reads this with RBucket<Person> and JsonJacksonCodec.
    redisson::Bucket<Person> person(client, "example:person", redisson::codecs::json());
    person.set(ann);
    std::cout << "read back: " << person.get()->name << "\n";

    // The codec is per object; without one, Config::codec (kryo5, Java Redisson's default).
    redisson::Bucket<std::string> name(client, "example:user:1:name");  // kryo5
    redisson::Bucket<std::int64_t> hits(client, "example:hits",
                                        redisson::codecs::long_text());  // "42"
    name.set("Ann");
    hits.set(42);

    redisson::Bucket<std::string> note(client, "example:note",
                                       std::make_shared<VersionedStringCodec>());
    note.set("hello");
    std::cout << "stored bytes: " << client.execute({"GET", "example:note"}).str << "\n";
    person.delete_object();
    name.delete_object();
    hits.delete_object();
    note.delete_object();
  } catch (const redisson::error& e) {
    std::cerr << "error: " << e.what() << "\n";
    return 1;
  }
  return 0;
}
