// Geo: shops with a position in a Geo set, the Redis layout of Java Redisson's RGeo, and the
// searches around a point or a shop, by radius or by box.
//
//   geo [redis://127.0.0.1:6379]
//
// Adds three shops with the default codec (kryo5: a Java service doing
// redisson.getGeo("example:shops").search(GeoSearchArgs.from(15, 37).radius(200, KILOMETERS))
// finds the same ones), prints the distance between two, the shops within 200 km of a point,
// nearest first, the ones in a box around a shop, and stores the nearest with their distances.
#include <cstdio>
#include <redisson/client.hpp>
#include <redisson/objects/geo.hpp>
#include <string>

int main(int argc, char** argv) {
  const std::string url = argc > 1 ? argv[1] : "redis://127.0.0.1:6379";
  try {
    redisson::Client client(url);

    using redisson::GeoOrder;
    using redisson::GeoUnit;
    using Search = redisson::GeoSearchArgs<std::string>;
    redisson::Geo<std::string> shops(client, "example:shops");
    shops.add({{13.361389, 38.115556, "Palermo"},  // longitude, latitude, member
               {15.087269, 37.502669, "Catania"},
               {12.496366, 41.902782, "Rome"}});
    const auto km = shops.dist("Palermo", "Catania", GeoUnit::kilometers);  // nullopt if missing
    std::printf("Palermo-Catania: %.1f km\n", km.value_or(-1));
    const auto near = Search::from(15, 37).radius(200, GeoUnit::kilometers).order(GeoOrder::asc);
    for (const auto& [shop, distance] : shops.search_with_distance(near)) {
      std::printf("%s: %.1f km\n", shop.c_str(), distance);
    }
    for (const auto& shop :
         shops.search(Search::from("Rome").box(1200, 800, GeoUnit::kilometers))) {
      std::printf("in the box around Rome: %s\n", shop.c_str());
    }
    // The nearest two, scored by their distance, in a sorted set of their own.
    const auto stored = shops.store_sorted_search_to("example:nearest", near.count(2));
    std::printf("stored %lld\n", static_cast<long long>(stored));

    shops.delete_object();
    redisson::ScoredSortedSet<std::string>(client, "example:nearest").delete_object();
  } catch (const std::exception& e) {
    std::fprintf(stderr, "geo: %s\n", e.what());
    return 1;
  }
  return 0;
}
