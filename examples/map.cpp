// A Map: a Redis hash shared with Java Redisson's RMap, read in pages, updated atomically.
//
//   map [redis://127.0.0.1:6379]
//
// Keeps a user's profile in a Map with the default codec (kryo5: a Java service doing
// redisson.getMap("example:profile").get("name") reads the same String), adds to per-page
// view counters kept as decimal text (a CompositeCodec of string keys and Long values, so
// HINCRBYFLOAT can add to them), and walks the counters with HSCAN pages.
#include <cstdint>
#include <cstdio>
#include <redisson/client.hpp>
#include <redisson/codec.hpp>
#include <redisson/objects/map.hpp>
#include <string>

int main(int argc, char** argv) {
  const std::string url = argc > 1 ? argv[1] : "redis://127.0.0.1:6379";
  try {
    redisson::Client client(url);

    redisson::Map<std::string, std::string> profile(client, "example:profile");
    profile.put_all({{"name", "Ada"}, {"lang", "en"}});
    // put answers what it replaced; put_if_absent leaves a present value alone.
    const auto old_lang = profile.put("lang", "fr");
    profile.put_if_absent("name", "someone else");
    std::printf("%s speaks %s (was %s)\n", profile.get("name")->c_str(),
                profile.get("lang")->c_str(), old_lang.value_or("?").c_str());

    namespace codecs = redisson::codecs;
    redisson::Map<std::string, std::int64_t> views(
        client, "example:views", codecs::composite(codecs::string(), codecs::long_text()));
    views.add_and_get("/home", std::int64_t{3});
    views.add_and_get("/about", std::int64_t{1});
    auto pages = views.entries(/*page_size=*/100);  // HSCAN, never one HGETALL
    for (const auto& [page, count] : pages) {
      std::printf("%s: %lld views\n", page.c_str(), static_cast<long long>(count));
    }

    profile.delete_object();
    views.delete_object();
  } catch (const redisson::error& e) {
    std::fprintf(stderr, "map: %s\n", e.what());
    return 1;
  }
  return 0;
}
