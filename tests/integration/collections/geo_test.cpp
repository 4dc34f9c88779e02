// Geo<T> against a real redis-server: adds (plain, NX, XX, the add_if_exists script), distances,
// geohashes, positions, the searches by radius and by box with their orders and counts, storing
// a search, the sorted-set operations a Geo inherits, Java Redisson's geo sets read and written
// byte for byte (services fixtures fx2:geo_kryo, fx2:geo_string), and bad input that changes
// nothing.
#include "redisson/objects/geo.hpp"

#include <gtest/gtest.h>

#include <asio/use_future.hpp>
#include <cmath>
#include <cstdint>
#include <functional>
#include <limits>
#include <map>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "support/expect_error.hpp"
#include "support/java_fixtures.hpp"
#include "support/monitor.hpp"
#include "support/server_test.hpp"

namespace collections_geo_test {

using redisson::errc;
using redisson::Geo;
using redisson::GeoEntry;
using redisson::GeoOrder;
using redisson::GeoPosition;
using redisson::GeoSearchArgs;
using redisson::GeoUnit;
using redisson::test::command_calls;
using redisson::test::expect_error;
using redisson::test::from_hex;
using redisson::test::Monitor;
namespace codecs = redisson::codecs;

namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

using Strings = std::vector<std::string>;
using Args = GeoSearchArgs<std::string>;

// The Redis documentation's cities.
constexpr GeoPosition kPalermo{13.361389, 38.115556};
constexpr GeoPosition kCatania{15.087269, 37.502669};
constexpr GeoPosition kRome{12.496366, 41.902782};

void expect_near(GeoPosition got, GeoPosition want) {
  // A geohash keeps a position to ~0.6 m: well under 1e-5 degrees.
  EXPECT_NEAR(got.longitude, want.longitude, 1e-5);
  EXPECT_NEAR(got.latitude, want.latitude, 1e-5);
}

class GeoTest : public redisson::test::ServerTest {
 protected:
  Geo<std::string> sicily(const std::string& name) {
    Geo<std::string> geo(client, name, codecs::string());
    geo.add({{kPalermo.longitude, kPalermo.latitude, "Palermo"},
             {kCatania.longitude, kCatania.latitude, "Catania"}});
    return geo;
  }
  // Every GEO command the server ran (the searches, the stores, GEOADD and the reads).
  std::int64_t geo_calls() const {
    std::int64_t calls = 0;
    for (const char* verb :
         {"geoadd", "geodist", "geohash", "geopos", "georadius_ro", "georadiusbymember_ro",
          "georadius", "georadiusbymember", "geosearch", "geosearchstore", "eval", "evalsha"}) {
      calls += command_calls(server, verb);
    }
    return calls;
  }
};

TEST_F(GeoTest, AddsPositionsAndReadsThemBack) {
  Geo<std::string> geo(client, "g", codecs::string());
  EXPECT_EQ(geo.add(kPalermo.longitude, kPalermo.latitude, "Palermo"), 1);
  EXPECT_EQ(geo.add(kPalermo.longitude, kPalermo.latitude, "Palermo"), 0) << "present: moved";
  EXPECT_EQ(geo.add({{kCatania.longitude, kCatania.latitude, "Catania"},
                     {kRome.longitude, kRome.latitude, "Rome"},
                     {kPalermo.longitude, kPalermo.latitude, "Palermo"}}),
            2);
  const auto adds = command_calls(server, "geoadd");
  EXPECT_EQ(geo.add(std::vector<GeoEntry<std::string>>{}), 0);
  EXPECT_EQ(command_calls(server, "geoadd"), adds) << "nothing sent for none";
  EXPECT_EQ(geo.size(), 3) << "a sorted set underneath";

  const auto positions = geo.pos({"Palermo", "Rome", "Atlantis"});
  ASSERT_EQ(positions.size(), 2U) << "a missing member is left out, as Java's map does";
  expect_near(positions.at("Palermo"), kPalermo);
  expect_near(positions.at("Rome"), kRome);
  EXPECT_TRUE(geo.pos({}).empty());

  const auto hashes = geo.hash({"Palermo", "Catania", "Atlantis"});
  EXPECT_EQ(hashes, (std::map<std::string, std::string>{{"Palermo", "sqc8b49rny0"},
                                                        {"Catania", "sqdtr74hyu0"}}));
  EXPECT_TRUE(geo.hash({}).empty());

  EXPECT_NEAR(*geo.dist("Palermo", "Catania", GeoUnit::meters), 166274.1516, 1e-3);
  EXPECT_NEAR(*geo.dist("Palermo", "Catania", GeoUnit::kilometers), 166.2742, 1e-4);
  EXPECT_NEAR(*geo.dist("Palermo", "Catania", GeoUnit::miles), 103.3182, 1e-4);
  EXPECT_NEAR(*geo.dist("Palermo", "Catania", GeoUnit::feet), 545518.8700, 1e-3);
  EXPECT_EQ(geo.dist("Palermo", "Atlantis", GeoUnit::meters), std::nullopt);
  EXPECT_EQ(geo.dist("Palermo", "Palermo", GeoUnit::meters), 0.0);

  // The inherited sorted-set operations see geohash scores.
  EXPECT_TRUE(geo.contains("Rome"));
  EXPECT_EQ(geo.score("Palermo"), 3479099956230698.0);
  EXPECT_TRUE(geo.remove("Rome"));
  EXPECT_EQ(geo.pos({"Rome"}).size(), 0U);
  EXPECT_EQ(geo.value_range(0, -1), (Strings{"Palermo", "Catania"}));

  // The async form completes through any token.
  auto future = geo.async_dist("Palermo", "Catania", GeoUnit::kilometers, asio::use_future);
  EXPECT_NEAR(*future.get(), 166.2742, 1e-4);
}

TEST_F(GeoTest, ConditionalAddsOnlyAddOrOnlyMove) {
  Geo<std::string> geo(client, "g", codecs::string());
  EXPECT_TRUE(geo.try_add(kPalermo.longitude, kPalermo.latitude, "Palermo"));
  EXPECT_FALSE(geo.try_add(kRome.longitude, kRome.latitude, "Palermo")) << "present: not moved";
  expect_near(geo.pos({"Palermo"}).at("Palermo"), kPalermo);
  EXPECT_EQ(geo.try_add({{kRome.longitude, kRome.latitude, "Palermo"},
                         {kCatania.longitude, kCatania.latitude, "Catania"}}),
            1);
  expect_near(geo.pos({"Palermo"}).at("Palermo"), kPalermo);

  // One member: Redisson's script (GEOPOS, then GEOADD when it is there).
  const auto evals = command_calls(server, "eval") + command_calls(server, "evalsha");
  EXPECT_FALSE(geo.add_if_exists(kRome.longitude, kRome.latitude, "Rome"));
  EXPECT_EQ(geo.pos({"Rome"}).size(), 0U) << "absent: not added";
  EXPECT_TRUE(geo.add_if_exists(kRome.longitude, kRome.latitude, "Palermo"));
  expect_near(geo.pos({"Palermo"}).at("Palermo"), kRome);
  EXPECT_GT(command_calls(server, "eval") + command_calls(server, "evalsha"), evals);

  // Many: GEOADD XX CH, counting those that moved.
  EXPECT_EQ(geo.add_if_exists({{kPalermo.longitude, kPalermo.latitude, "Palermo"},
                               {kCatania.longitude, kCatania.latitude, "Catania"},
                               {kRome.longitude, kRome.latitude, "Rome"}}),
            1)
      << "Palermo moved back, Catania stayed, Rome is absent";
  expect_near(geo.pos({"Palermo"}).at("Palermo"), kPalermo);
  EXPECT_EQ(geo.size(), 2);

  // The sorted set's own forms stay: a score, not a position.
  EXPECT_TRUE(geo.try_add(1.0, "scored"));
  EXPECT_EQ(geo.score("scored"), 1.0);
  EXPECT_TRUE(geo.add_if_exists(2.0, "scored"));
  EXPECT_TRUE(geo.add_if_greater(3.0, "scored"));
  EXPECT_FALSE(geo.add_if_less(4.0, "scored"));
  EXPECT_EQ(geo.score("scored"), 3.0);
}

TEST_F(GeoTest, SearchesByRadiusFromAPositionOrAMember) {
  auto geo = sicily("g");
  geo.add(kRome.longitude, kRome.latitude, "Rome");

  const auto near = geo.search(Args::from(15, 37).radius(200, GeoUnit::kilometers));
  EXPECT_EQ(std::set<std::string>(near.begin(), near.end()),
            (std::set<std::string>{"Palermo", "Catania"}));
  EXPECT_EQ(geo.search(Args::from(15, 37).radius(200, GeoUnit::kilometers).order(GeoOrder::asc)),
            (Strings{"Catania", "Palermo"}));
  EXPECT_EQ(geo.search(Args::from(15, 37).radius(200, GeoUnit::kilometers).order(GeoOrder::desc)),
            (Strings{"Palermo", "Catania"}));
  EXPECT_EQ(geo.search(
                Args::from(15, 37).radius(2000, GeoUnit::kilometers).order(GeoOrder::asc).count(2)),
            (Strings{"Catania", "Palermo"}));
  EXPECT_EQ(geo.search(Args::from(15, 37).radius(2000, GeoUnit::kilometers).count(1, true)).size(),
            1U);
  EXPECT_TRUE(geo.search(Args::from(0, 0).radius(10, GeoUnit::meters)).empty());
  EXPECT_EQ(geo.search(Args::from("Palermo").radius(100, GeoUnit::miles)), (Strings{"Palermo"}));
  EXPECT_EQ(
      geo.search(Args::from("Palermo").radius(200, GeoUnit::kilometers).order(GeoOrder::desc)),
      (Strings{"Catania", "Palermo"}));

  const auto distances = geo.search_with_distance(
      Args::from(15, 37).radius(200, GeoUnit::kilometers).order(GeoOrder::asc));
  ASSERT_EQ(distances.size(), 2U);
  EXPECT_EQ(distances[0].first, "Catania");
  EXPECT_NEAR(distances[0].second, 56.4413, 1e-4);
  EXPECT_EQ(distances[1].first, "Palermo");
  EXPECT_NEAR(distances[1].second, 190.4424, 1e-4);
  const auto from_member = geo.search_with_distance(
      Args::from("Rome").radius(1000, GeoUnit::kilometers).order(GeoOrder::asc).count(2));
  ASSERT_EQ(from_member.size(), 2U);
  EXPECT_EQ(from_member[0], (std::pair<std::string, double>{"Rome", 0.0}));
  EXPECT_EQ(from_member[1].first, "Palermo");

  const auto positions = geo.search_with_position(
      Args::from(15, 37).radius(200, GeoUnit::kilometers).order(GeoOrder::desc));
  ASSERT_EQ(positions.size(), 2U);
  EXPECT_EQ(positions[0].first, "Palermo");
  expect_near(positions[0].second, kPalermo);
  EXPECT_EQ(positions[1].first, "Catania");
  expect_near(positions[1].second, kCatania);
  EXPECT_EQ(geo.search_with_position(Args::from("Catania").radius(1, GeoUnit::feet)).size(), 1U);

  EXPECT_GT(command_calls(server, "georadius_ro"), 0);
  EXPECT_GT(command_calls(server, "georadiusbymember_ro"), 0);
  EXPECT_EQ(command_calls(server, "geosearch"), 0) << "a radius is sent as Redisson sends it";
}

TEST_F(GeoTest, SearchesByBox) {
  auto geo = sicily("g");
  geo.add(kRome.longitude, kRome.latitude, "Rome");
  EXPECT_EQ(geo.search(Args::from(15, 37).box(400, 400, GeoUnit::kilometers).order(GeoOrder::asc)),
            (Strings{"Catania", "Palermo"}));
  EXPECT_EQ(geo.search(Args::from(15, 37).box(150, 150, GeoUnit::kilometers)),
            (Strings{"Catania"}));
  EXPECT_EQ(
      geo.search(Args::from("Palermo").box(2000, 2000, GeoUnit::kilometers).order(GeoOrder::desc)),
      (Strings{"Rome", "Catania", "Palermo"}));
  EXPECT_EQ(
      geo.search(
          Args::from("Palermo").box(2000, 2000, GeoUnit::kilometers).order(GeoOrder::asc).count(2)),
      (Strings{"Palermo", "Catania"}));
  const auto distances = geo.search_with_distance(
      Args::from(15, 37).box(400, 400, GeoUnit::kilometers).order(GeoOrder::asc));
  ASSERT_EQ(distances.size(), 2U);
  EXPECT_EQ(distances[0].first, "Catania");
  EXPECT_NEAR(distances[0].second, 56.4413, 1e-4);
  const auto positions =
      geo.search_with_position(Args::from("Rome").box(10, 10, GeoUnit::miles).count(1, true));
  ASSERT_EQ(positions.size(), 1U);
  EXPECT_EQ(positions[0].first, "Rome");
  expect_near(positions[0].second, kRome);
  EXPECT_GT(command_calls(server, "geosearch"), 0);
}

TEST_F(GeoTest, StoresASearchWithGeohashesOrDistances) {
  auto geo = sicily("g");
  geo.add(kRome.longitude, kRome.latitude, "Rome");
  EXPECT_EQ(geo.store_search_to("near", Args::from(15, 37).radius(200, GeoUnit::kilometers)), 2);
  Geo<std::string> near(client, "near", codecs::string());
  EXPECT_EQ(near.score("Palermo"), geo.score("Palermo")) << "a geo set too";
  expect_near(near.pos({"Catania"}).at("Catania"), kCatania);

  EXPECT_EQ(geo.store_sorted_search_to(
                "by_distance",
                Args::from(15, 37).radius(200, GeoUnit::kilometers).order(GeoOrder::asc).count(1)),
            1);
  Geo<std::string> by_distance(client, "by_distance", codecs::string());
  EXPECT_EQ(by_distance.value_range(0, -1), (Strings{"Catania"}));
  EXPECT_NEAR(*by_distance.score("Catania"), 56.4413, 1e-3);

  EXPECT_EQ(geo.store_search_to("box", Args::from("Palermo").box(2000, 2000, GeoUnit::kilometers)),
            3);
  EXPECT_EQ(geo.store_sorted_search_to("box_distance",
                                       Args::from(15, 37).box(400, 400, GeoUnit::kilometers)),
            2);
  Geo<std::string> box_distance(client, "box_distance", codecs::string());
  EXPECT_NEAR(*box_distance.score("Palermo"), 190.4424, 1e-3);
  EXPECT_EQ(geo.store_search_to("from_member", Args::from("Rome").radius(10, GeoUnit::kilometers)),
            1);
  EXPECT_EQ(geo.store_sorted_search_to("from_member",
                                       Args::from("Rome").radius(1000, GeoUnit::kilometers)),
            3);

  // Nothing found: the destination is deleted, as the server does.
  EXPECT_EQ(geo.store_search_to("near", Args::from(0, 0).radius(1, GeoUnit::meters)), 0);
  EXPECT_EQ(server.command({"EXISTS", "near"}), "0");
}

TEST_F(GeoTest, BadArgumentsAreRefusedBeforeSendingAndChangeNothing) {
  auto geo = sicily("g");
  const auto before = geo_calls();
  const std::vector<std::pair<std::string, std::function<void()>>> calls = {
      {"NaN longitude", [&] { geo.add(kNaN, 1, "x"); }},
      {"longitude 181", [&] { geo.add(181, 1, "x"); }},
      {"latitude 86", [&] { geo.add(1, 86, "x"); }},
      {"one bad of many",
       [&] {
         geo.add({{1, 1, "x"}, {1, -90, "y"}});
       }},
      {"try_add NaN", [&] { geo.try_add(1, kNaN, "x"); }},
      {"add_if_exists -181", [&] { geo.add_if_exists(-181, 0, "Palermo"); }},
      {"add_if_exists many",
       [&] {
         geo.add_if_exists({{200, 0, "Palermo"}});
       }},
      {"negative radius",
       [&] { (void)geo.search(Args::from(15, 37).radius(-1, GeoUnit::meters)); }},
      {"NaN radius", [&] { (void)geo.search(Args::from(15, 37).radius(kNaN, GeoUnit::meters)); }},
      {"infinite radius",
       [&] {
         (void)geo.search(
             Args::from(15, 37).radius(std::numeric_limits<double>::infinity(), GeoUnit::meters));
       }},
      {"zero box", [&] { (void)geo.search(Args::from(15, 37).box(0, 10, GeoUnit::meters)); }},
      {"count 0",
       [&] { (void)geo.search(Args::from(15, 37).radius(10, GeoUnit::meters).count(0)); }},
      {"center out of range",
       [&] { (void)geo.search_with_distance(Args::from(15, 89).radius(10, GeoUnit::meters)); }},
      {"no shape", [&] { (void)geo.search(Args::from(15, 37)); }},
      {"no center", [&] { (void)geo.search_with_position(Args{}.radius(10, GeoUnit::meters)); }},
      {"two shapes",
       [&] {
         (void)geo.search(
             Args::from(15, 37).radius(10, GeoUnit::meters).box(1, 1, GeoUnit::meters));
       }},
      {"ANY without a count",
       [&] {
         auto args = Args::from(15, 37).radius(10, GeoUnit::meters);
         args.limit_any = true;
         (void)geo.search(args);
       }},
      {"store count -1",
       [&] { geo.store_search_to("d", Args::from(15, 37).radius(10, GeoUnit::meters).count(-1)); }},
      {"store_sorted NaN",
       [&] { geo.store_sorted_search_to("d", Args::from(kNaN, 37).radius(10, GeoUnit::meters)); }},
  };
  for (const auto& [what, call] : calls) expect_error(errc::invalid_argument, call, what);
  auto refused = geo.async_add(1, 91, "x", asio::use_future);
  expect_error(
      errc::invalid_argument, [&] { refused.get(); }, "async add");
  EXPECT_EQ(geo_calls(), before) << "nothing sent";
  EXPECT_EQ(geo.size(), 2);
  EXPECT_EQ(server.command({"EXISTS", "d"}), "0");

  // What only the server knows: a center member that is not there.
  expect_error(errc::server_error,
               [&] { (void)geo.search(Args::from("Atlantis").radius(10, GeoUnit::meters)); });
  expect_error(errc::server_error, [&] {
    geo.store_search_to("d", Args::from("Atlantis").box(10, 10, GeoUnit::meters));
  });
  EXPECT_EQ(server.command({"EXISTS", "d"}), "0");
}

TEST_F(GeoTest, WrongTypeKeyFailsAndIsLeftAlone) {
  server.command({"SET", "s", "a string"});
  Geo<std::string> geo(client, "s", codecs::string());
  sicily("g");
  Geo<std::string> good(client, "g", codecs::string());
  const std::vector<std::pair<std::string, std::function<void()>>> calls = {
      {"add", [&] { geo.add(1, 1, "x"); }},
      {"add many",
       [&] {
         geo.add({{1, 1, "x"}, {2, 2, "y"}});
       }},
      {"try_add", [&] { geo.try_add(1, 1, "x"); }},
      {"add_if_exists script", [&] { geo.add_if_exists(1, 1, "x"); }},
      {"add_if_exists many",
       [&] {
         geo.add_if_exists({{1, 1, "x"}});
       }},
      {"dist", [&] { (void)geo.dist("a", "b", GeoUnit::meters); }},
      {"hash", [&] { (void)geo.hash({"a"}); }},
      {"pos", [&] { (void)geo.pos({"a"}); }},
      {"search", [&] { (void)geo.search(Args::from(1, 1).radius(1, GeoUnit::meters)); }},
      {"search box",
       [&] { (void)geo.search_with_distance(Args::from(1, 1).box(1, 1, GeoUnit::meters)); }},
      {"search_with_position",
       [&] { (void)geo.search_with_position(Args::from(1, 1).radius(1, GeoUnit::meters)); }},
      {"store from a string",
       [&] { geo.store_search_to("d", Args::from(1, 1).radius(1, GeoUnit::meters)); }},
      {"store_sorted from a string",
       [&] { geo.store_sorted_search_to("d", Args::from(1, 1).box(1, 1, GeoUnit::meters)); }},
  };
  for (const auto& [what, call] : calls) expect_error(errc::wrong_type, call, what);
  EXPECT_EQ(server.command({"GET", "s"}), "a string");
  EXPECT_EQ(server.command({"EXISTS", "d"}), "0");
  // GEORADIUS ... STORE onto a string key replaces it, as the server's STORE does for any type.
  EXPECT_EQ(good.store_search_to("s", Args::from(15, 37).radius(200, GeoUnit::kilometers)), 2);
  EXPECT_EQ(server.command({"TYPE", "s"}), "zset");
}

TEST_F(GeoTest, ListenersAreTheSortedSetsOnes) {
  Geo<std::string> geo(client, "g", codecs::string());
  const auto id = geo.add_listener(redisson::ObjectEvent::added, [](std::string_view) {});
  EXPECT_TRUE(geo.remove_listener(id));
  expect_error(errc::invalid_argument, [&] {
    (void)geo.add_listener(redisson::ObjectEvent::put, [](std::string_view) {});
  });
}

// Java Redisson 3.52's calls of fx2:geo_kryo and fx2:geo_string (services fixtures): its key read
// by C++, and the same calls made by C++, which send the same bytes and leave the same key.
TEST_F(GeoTest, SharesJavaRedissonsGeoSets) {
  for (const char* name : {"geo_kryo", "geo_string"}) {
    SCOPED_TRACE(name);
    const auto& java = redisson::test::java_service_case(name);
    const auto key = java.at("key").get<std::string>();
    const auto codec = redisson::test::codec_of_case(java);
    const auto& dump = redisson::test::java_service_dump_entry(key);
    ASSERT_EQ(dump.at("type"), "zset");
    for (const auto& row : dump.at("content")) {
      server.command({"ZADD", key, row.at(1).get<std::string>(),
                      from_hex(row.at(0).at("hex").get<std::string>())});
    }

    const Geo<std::string> theirs(client, key, codec);
    EXPECT_NEAR(*theirs.dist("Palermo", "Catania", GeoUnit::kilometers),
                java.at("dist_km").get<double>(), 1e-9);
    const auto positions = theirs.pos({"Palermo", "Catania"});
    ASSERT_EQ(positions.size(), 2U);
    for (const auto& [member, lon_lat] : java.at("pos").items()) {
      EXPECT_EQ(positions.at(member),
                (GeoPosition{lon_lat.at(0).get<double>(), lon_lat.at(1).get<double>()}))
          << member;
    }
    using Hashes = std::map<std::string, std::string>;
    EXPECT_EQ(theirs.hash({"Palermo", "Catania"}), java.at("hash").get<Hashes>());
    EXPECT_EQ(theirs.search(Args::from(15, 37).radius(200, GeoUnit::kilometers)),
              java.at("search").get<Strings>());
    std::map<std::string, double> distances;
    for (const auto& [member, distance] : theirs.search_with_distance(
             Args::from(15, 37).radius(200, GeoUnit::kilometers).order(GeoOrder::asc))) {
      distances[member] = distance;
    }
    using Distances = std::map<std::string, double>;
    EXPECT_EQ(distances, java.at("searchWithDistance").get<Distances>());

    // The same calls from C++ onto a fresh key: Java's commands, byte for byte, and Java's key.
    server.command({"DEL", key});
    Monitor monitor(server);
    Geo<std::string> ours(client, key, codec);
    const auto& values = java.at("values");
    std::vector<std::int64_t> added;
    for (const char* city : {"Palermo", "Catania"}) {
      added.push_back(
          ours.add(values.at(city).at(0).get<double>(), values.at(city).at(1).get<double>(), city));
    }
    EXPECT_EQ(added, java.at("add_returns").get<std::vector<std::int64_t>>());
    (void)ours.dist("Palermo", "Catania", GeoUnit::kilometers);
    (void)ours.pos({"Palermo", "Catania"});
    (void)ours.hash({"Palermo", "Catania"});
    (void)ours.search(Args::from(15, 37).radius(200, GeoUnit::kilometers));
    (void)ours.search_with_distance(
        Args::from(15, 37).radius(200, GeoUnit::kilometers).order(GeoOrder::asc));
    redisson::test::SentCommands sent;
    for (auto& command : redisson::test::sent_by_clients(monitor.take(server))) {
      if (command.front().rfind("GEO", 0) == 0) sent.push_back(std::move(command));
    }
    EXPECT_EQ(sent, redisson::test::java_sent_commands(name));

    const auto& content = dump.at("content");
    EXPECT_EQ(server.command({"ZCARD", key}), std::to_string(content.size()));
    for (const auto& row : content) {
      const auto member = from_hex(row.at(0).at("hex").get<std::string>());
      EXPECT_EQ(server.command({"ZSCORE", key, member}), row.at(1).get<std::string>())
          << row.at(0).at("text");
    }
  }
}

}  // namespace

}  // namespace collections_geo_test
