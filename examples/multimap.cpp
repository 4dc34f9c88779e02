// A SetMultimap: several values per key, shared with Java Redisson's RSetMultimap.
//
//   multimap [redis://127.0.0.1:6379]
//
// Tags posts (the index hash "example:tags" plus a Redis set per post, Java's layout), reads one
// post's tags in SSCAN pages, and removes a post with all its tags.
#include <cstdio>
#include <redisson/client.hpp>
#include <redisson/codec.hpp>
#include <redisson/objects/set_multimap.hpp>
#include <string>

int main(int argc, char** argv) {
  const std::string url = argc > 1 ? argv[1] : "redis://127.0.0.1:6379";
  try {
    redisson::Client client(url);

    redisson::SetMultimap<std::string, std::string> tags(client, "example:tags",
                                                         redisson::codecs::string());
    tags.put("post:1", "cpp");
    tags.put_all("post:1", {"redis", "cpp"});  // true: "redis" was new
    tags.put("post:2", "java");
    for (const auto& tag : tags.get_all("post:1")) std::printf("post:1 %s\n", tag.c_str());
    std::printf("%lld tags on %lld posts\n", static_cast<long long>(tags.size()),
                static_cast<long long>(tags.key_size()));
    tags.remove("post:1", "cpp");
    const auto removed = tags.remove_all("post:1");  // {"redis"}; the key is gone
    std::printf("post:1 had %zu tag(s) left\n", removed.size());

    tags.delete_object();  // the index and every post's set
  } catch (const redisson::error& e) {
    std::fprintf(stderr, "multimap: %s\n", e.what());
    return 1;
  }
  return 0;
}
