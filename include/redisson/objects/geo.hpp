// redisson::Geo<T>: values with a position on the Earth in one Redis sorted set (the GEO
// commands), Java Redisson's RGeo.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "redisson/objects/scored_sorted_set.hpp"

namespace redisson {

/// The unit of a distance or a search radius (Java's GeoUnit): m, km, mi, ft.
enum class GeoUnit { meters, kilometers, miles, feet };

/// The order of search results by distance from the center (Java's GeoOrder): ASC or DESC.
enum class GeoOrder { asc, desc };

/// A longitude and latitude in degrees (Java's GeoPosition). The server stores a position as a
/// 52-bit geohash, so one read back differs from the one written by up to ~0.6 m.
struct GeoPosition {
  double longitude = 0;
  double latitude = 0;

  bool operator==(const GeoPosition&) const = default;
};

/// A member with its position (Java's GeoEntry), for the forms of add that take many.
template <class T>
struct GeoEntry {
  double longitude = 0;
  double latitude = 0;
  T member;

  bool operator==(const GeoEntry&) const = default;
};

/// What Geo's searches look for (Java's GeoSearchArgs): around a member or a position, within a
/// radius or a box (width x height, centered), with an order by distance and a count. Built as
/// Java's is:
///
///   auto near = GeoSearchArgs<std::string>::from(15, 37).radius(200, GeoUnit::kilometers)
///                   .order(GeoOrder::asc).count(10);
///
/// Each of radius, box, order and count returns a changed copy. Exactly one center and one shape; a
/// coordinate out of the server's range (longitude -180..180, latitude -85.05112878..85.05112878)
/// or NaN, a negative or infinite radius, a box side <= 0 and a count < 1 are
/// errc::invalid_argument when the search runs, nothing sent.
template <class T>
struct GeoSearchArgs {
  std::optional<T> center_member = std::nullopt;
  std::optional<GeoPosition> center_position = std::nullopt;
  std::optional<double> radius_size = std::nullopt;
  std::optional<std::pair<double, double>> box_size = std::nullopt;  // width, height
  GeoUnit unit = GeoUnit::meters;
  std::optional<GeoOrder> sort = std::nullopt;
  std::optional<std::int64_t> limit = std::nullopt;
  bool limit_any = false;

  /// Around the position of `member` (FROMMEMBER, GEORADIUSBYMEMBER_RO).
  static GeoSearchArgs from(T member) {
    GeoSearchArgs args;
    args.center_member = std::move(member);
    return args;
  }
  /// Around a longitude and latitude (FROMLONLAT, GEORADIUS_RO).
  static GeoSearchArgs from(double longitude, double latitude) {
    GeoSearchArgs args;
    args.center_position = GeoPosition{longitude, latitude};
    return args;
  }
  /// Within `size` of the center.
  GeoSearchArgs radius(double size, GeoUnit in) const {
    GeoSearchArgs args = *this;
    args.radius_size = size;
    args.unit = in;
    return args;
  }
  /// Within the box `width` x `height` centered on the center (GEOSEARCH BYBOX).
  GeoSearchArgs box(double width, double height, GeoUnit in) const {
    GeoSearchArgs args = *this;
    args.box_size = std::pair{width, height};
    args.unit = in;
    return args;
  }
  /// Nearest first (asc) or farthest first (desc); unset: the server's order.
  GeoSearchArgs order(GeoOrder by) const {
    GeoSearchArgs args = *this;
    args.sort = by;
    return args;
  }
  /// At most `n` results (COUNT n); `any`: the first n found, not the n nearest (COUNT n ANY).
  GeoSearchArgs count(std::int64_t n, bool any = false) const {
    GeoSearchArgs args = *this;
    args.limit = n;
    args.limit_any = any;
    return args;
  }
};

namespace detail {

/// A GeoSearchArgs with its member encoded: what src/objects/geo.cpp sends.
struct GeoSearchWire {
  std::optional<std::string> member;
  std::optional<GeoPosition> position;
  std::optional<double> radius;
  std::optional<std::pair<double, double>> box;
  GeoUnit unit = GeoUnit::meters;
  std::optional<GeoOrder> order;
  std::optional<std::int64_t> count;
  bool count_any = false;
};
/// What a search reads: the members, with their distance (WITHDIST), with their position
/// (WITHCOORD).
enum class GeoSearchReply { members, distances, positions };

template <class T>
GeoSearchWire geo_search_wire(const Codec& codec, const GeoSearchArgs<T>& args) {
  GeoSearchWire wire{std::nullopt, args.center_position, args.radius_size, args.box_size, args.unit,
                     args.sort,    args.limit,           args.limit_any};
  if (args.center_member) wire.member = encode_value(codec, *args.center_member);
  return wire;
}

/// GEOADD name [flag] lon lat member ...: positions checked first (errc::invalid_argument, nothing
/// sent); none: nothing sent, 0.
void start_geo_add(const ObjectPtr& object, const std::vector<std::string>& flags,
                   const std::vector<std::pair<GeoPosition, std::string>>& entries,
                   Done<Reply>& done);
/// geo_add_if_exists.lua: 1 if the member was there and moved, else 0.
void start_geo_add_if_exists(const ObjectPtr& object, GeoPosition position,
                             const std::string& member, Done<Reply>& done);
/// GEODIST name a b unit: the distance's text, or nil.
void start_geo_dist(const ObjectPtr& object, const std::vector<std::string>& members, GeoUnit unit,
                    Done<Reply>& done);
/// A search as Redisson sends it: a radius is GEORADIUS_RO (from a position) or
/// GEORADIUSBYMEMBER_RO (from a member), a box GEOSEARCH ... BYBOX; errc::invalid_argument for
/// bad arguments, nothing sent.
void start_geo_search(const ObjectPtr& object, const GeoSearchWire& search, GeoSearchReply reply,
                      Done<Reply>& done);
/// The search's results stored in the sorted set `destination` (GEORADIUS ... STORE, or
/// GEOSEARCHSTORE for a box; `distances`: STOREDIST); on a Cluster in this set's slot.
void start_geo_store(const ObjectPtr& object, const std::string& destination,
                     const GeoSearchWire& search, bool distances, Done<Reply>& done);

/// "lon lat" of a GEOPOS / WITHCOORD pair.
GeoPosition geo_position_of(const Reply& pair);

}  // namespace detail

/// A set of T with a position each, stored in the Redis sorted set `name` by the GEO commands
/// (the score of a member is its 52-bit geohash). The layout of Java Redisson's RGeo, so Java and
/// C++ share one set when they use the same codec; a Geo is a ScoredSortedSet (every sorted-set
/// operation works on it, scores being geohashes), as RGeo is an RScoredSortedSet.
///
/// Cost: each operation is one command, one round trip (GEOADD, GEODIST, GEOHASH, GEOPOS,
/// GEORADIUS_RO / GEORADIUSBYMEMBER_RO / GEOSEARCH, GEORADIUS STORE / GEOSEARCHSTORE);
/// add_if_exists of one member is one script (GEOPOS then GEOADD, as Redisson). A search is
/// O(n + log m) for n members in the area searched.
///
/// A key of another type is errc::wrong_type and is left untouched; a position out of range, a
/// bad radius, box or count is errc::invalid_argument before anything is sent. store_search_to
/// and store_sorted_search_to write another sorted set: on a Cluster it must share this set's
/// hash slot (one hash tag), else errc::invalid_argument, nothing sent. Needs Redis 6.2
/// (GEOADD NX/XX, GEOSEARCH, COUNT ANY). A handle: cheap to copy, sends nothing until called,
/// thread-safe.
template <JavaValue T>
class Geo : public ScoredSortedSet<T> {
  using Base = ScoredSortedSet<T>;

 public:
  // The sorted set's add, try_add and add_if_exists take a score; the geo ones a position.
  using Base::add;
  using Base::add_if_exists;
  using Base::async_add;
  using Base::async_add_if_exists;
  using Base::async_try_add;
  using Base::try_add;

  /// A handle on the geo set `name`; sends nothing. `codec` null: the client's default codec.
  Geo(const Client& client, std::string name, CodecPtr codec = nullptr)
      : Base(client, std::move(name), std::move(codec), "Geo") {}

  // ---- asynchronous forms: complete through any Asio completion token --------------------
  template <class CompletionToken>
  auto async_add(double longitude, double latitude, const T& member, CompletionToken&& token);
  template <class CompletionToken>
  auto async_add(const std::vector<GeoEntry<T>>& entries, CompletionToken&& token);
  template <class CompletionToken>
  auto async_try_add(double longitude, double latitude, const T& member, CompletionToken&& token);
  template <class CompletionToken>
  auto async_try_add(const std::vector<GeoEntry<T>>& entries, CompletionToken&& token);
  template <class CompletionToken>
  auto async_add_if_exists(double longitude, double latitude, const T& member,
                           CompletionToken&& token);
  template <class CompletionToken>
  auto async_add_if_exists(const std::vector<GeoEntry<T>>& entries, CompletionToken&& token);
  template <class CompletionToken>
  auto async_dist(const T& first, const T& second, GeoUnit unit, CompletionToken&& token) const;
  template <class CompletionToken>
  auto async_hash(const std::vector<T>& members, CompletionToken&& token) const;
  template <class CompletionToken>
  auto async_pos(const std::vector<T>& members, CompletionToken&& token) const;
  template <class CompletionToken>
  auto async_search(const GeoSearchArgs<T>& args, CompletionToken&& token) const;
  template <class CompletionToken>
  auto async_search_with_distance(const GeoSearchArgs<T>& args, CompletionToken&& token) const;
  template <class CompletionToken>
  auto async_search_with_position(const GeoSearchArgs<T>& args, CompletionToken&& token) const;
  template <class CompletionToken>
  auto async_store_search_to(const std::string& destination, const GeoSearchArgs<T>& args,
                             CompletionToken&& token);
  template <class CompletionToken>
  auto async_store_sorted_search_to(const std::string& destination, const GeoSearchArgs<T>& args,
                                    CompletionToken&& token);

  // ---- blocking forms: wait for the async form; throw redisson::error ---------------------
  /// Adds `member` at a position, or moves it there (GEOADD); returns 1 if it was new, else 0.
  std::int64_t add(double longitude, double latitude, const T& member) {
    return async_add(longitude, latitude, member, blocking("add"));
  }
  /// Adds or moves each entry (one GEOADD; nothing sent for none); returns how many were new.
  std::int64_t add(const std::vector<GeoEntry<T>>& entries) {
    return async_add(entries, blocking("add"));
  }
  /// Adds `member` only if absent (GEOADD NX); true if added. Java's addIfAbsent and tryAdd.
  bool try_add(double longitude, double latitude, const T& member) {
    return async_try_add(longitude, latitude, member, blocking("try_add"));
  }
  /// Adds each entry that is absent (GEOADD NX); returns how many were added.
  std::int64_t try_add(const std::vector<GeoEntry<T>>& entries) {
    return async_try_add(entries, blocking("try_add"));
  }
  /// Moves `member` to a position only if it is there (one script, Redisson's); true if it was.
  bool add_if_exists(double longitude, double latitude, const T& member) {
    return async_add_if_exists(longitude, latitude, member, blocking("add_if_exists"));
  }
  /// Moves each entry that is there (GEOADD XX CH); returns how many changed position (Java's
  /// sends no CH, and so always gets 0).
  std::int64_t add_if_exists(const std::vector<GeoEntry<T>>& entries) {
    return async_add_if_exists(entries, blocking("add_if_exists"));
  }
  /// The distance between two members in `unit` (GEODIST); nullopt when either is missing.
  std::optional<double> dist(const T& first, const T& second, GeoUnit unit) const {
    return async_dist(first, second, unit, blocking("dist"));
  }
  /// The 11-character geohash of each of `members` that is in the set (GEOHASH).
  std::map<T, std::string> hash(const std::vector<T>& members) const {
    return async_hash(members, blocking("hash"));
  }
  /// The position of each of `members` that is in the set (GEOPOS).
  std::map<T, GeoPosition> pos(const std::vector<T>& members) const {
    return async_pos(members, blocking("pos"));
  }
  /// The members in the area of `args`, in its order (unordered when it sets none).
  std::vector<T> search(const GeoSearchArgs<T>& args) const {
    return async_search(args, blocking("search"));
  }
  /// The members in the area with their distance from the center in the args' unit (WITHDIST),
  /// in the args' order.
  std::vector<std::pair<T, double>> search_with_distance(const GeoSearchArgs<T>& args) const {
    return async_search_with_distance(args, blocking("search_with_distance"));
  }
  /// The members in the area with their position (WITHCOORD), in the args' order.
  std::vector<std::pair<T, GeoPosition>> search_with_position(const GeoSearchArgs<T>& args) const {
    return async_search_with_position(args, blocking("search_with_position"));
  }
  /// Replaces the sorted set `destination` by the members in the area with their geohash scores
  /// (so it is a geo set too: GEORADIUS ... STORE, GEOSEARCHSTORE); returns how many. An empty
  /// result deletes `destination`.
  std::int64_t store_search_to(const std::string& destination, const GeoSearchArgs<T>& args) {
    return async_store_search_to(destination, args, blocking("store_search_to"));
  }
  /// The same, each scored by its distance from the center in the args' unit (STOREDIST).
  std::int64_t store_sorted_search_to(const std::string& destination,
                                      const GeoSearchArgs<T>& args) {
    return async_store_sorted_search_to(destination, args, blocking("store_sorted_search_to"));
  }

 private:
  detail::Blocking blocking(const char* operation) const {
    return detail::blocking(operation, this->name());
  }

  template <class R, class CompletionToken, class Convert>
  auto search_of(CompletionToken&& token, Convert convert, const GeoSearchArgs<T>& args,
                 detail::GeoSearchReply reply) const;
  template <class CompletionToken>
  auto store_of(CompletionToken&& token, const std::string& destination,
                const GeoSearchArgs<T>& args, bool distances);
  template <class R, class CompletionToken, class Convert>
  auto add_of(CompletionToken&& token, Convert convert, std::vector<std::string> flags,
              std::vector<GeoEntry<T>> entries);
};

}  // namespace redisson

#include "redisson/objects/impl/geo.hpp"
