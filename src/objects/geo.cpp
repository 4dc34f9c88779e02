// Geo's commands (objects/geo.hpp): GEOADD, the add_if_exists script, GEODIST, and the searches
// as Redisson sends them, each argument checked before anything is sent.
#include "redisson/objects/geo.hpp"

#include <cmath>
#include <string>

#include "lua_scripts.hpp"
#include "objects/send.hpp"

namespace redisson::detail {

namespace {

// The server's range: GEOADD refuses positions outside it (Redis' GEO_LAT_MIN/MAX, which keep
// a geohash square).
constexpr double kGeoLatitudeLimit = 85.05112878;

const char* geo_unit_text(GeoUnit unit) {
  switch (unit) {
    case GeoUnit::meters:
      return "m";
    case GeoUnit::kilometers:
      return "km";
    case GeoUnit::miles:
      return "mi";
    case GeoUnit::feet:
      return "ft";
  }
  throw_invalid_argument("not a GeoUnit");
}

void check_geo_position(const char* verb, GeoPosition position) {
  if (!(position.longitude >= -180 && position.longitude <= 180) ||
      !(position.latitude >= -kGeoLatitudeLimit && position.latitude <= kGeoLatitudeLimit)) {
    throw_invalid_argument(std::string(verb) +
                           ": a position is longitude -180..180, latitude "
                           "-85.05112878..85.05112878 (got " +
                           std::to_string(position.longitude) + ", " +
                           std::to_string(position.latitude) + ")");
  }
}

/// A radius or box side as Redisson sends it (plain decimal text), checked.
std::string geo_size_argument(const char* verb, double size, bool zero_allowed) {
  if (!std::isfinite(size) || size < 0 || (size == 0 && !zero_allowed)) {
    throw_invalid_argument(std::string(verb) + (zero_allowed
                                                    ? ": a radius is finite and not negative"
                                                    : ": a box's sides are finite and positive"));
  }
  return plain_decimal_argument(size);
}

void check_geo_search(const char* verb, const GeoSearchWire& search) {
  if (search.member.has_value() == search.position.has_value()) {
    throw_invalid_argument(std::string(verb) + ": search from a member or from a position");
  }
  if (search.radius.has_value() == search.box.has_value()) {
    throw_invalid_argument(std::string(verb) + ": search within a radius or within a box");
  }
  if (search.position) check_geo_position(verb, *search.position);
  if (search.count && *search.count < 1) {
    throw_invalid_argument(std::string(verb) + ": the count must be at least 1");
  }
  if (search.count_any && !search.count) {
    throw_invalid_argument(std::string(verb) + ": ANY needs a count");
  }
}

/// The center, shape, order and count in Redisson's order: center, radius (GEORADIUS*) or BYBOX
/// with the order right after it (GEOSEARCH*), then COUNT [ANY], then the order for a radius.
void add_geo_area(Command& command, const char* verb, const GeoSearchWire& search) {
  const bool box = search.box.has_value();
  if (search.position) {
    if (box) command.arg("FROMLONLAT");
    command.arg(plain_decimal_argument(search.position->longitude))
        .arg(plain_decimal_argument(search.position->latitude));
  } else {
    if (box) command.arg("FROMMEMBER");
    command.arg(*search.member);
  }
  const char* order = nullptr;
  if (search.order) order = *search.order == GeoOrder::asc ? "ASC" : "DESC";
  if (box) {
    command.arg("BYBOX")
        .arg(geo_size_argument(verb, search.box->first, false))
        .arg(geo_size_argument(verb, search.box->second, false))
        .arg(geo_unit_text(search.unit));
    if (order) command.arg(order);
  } else {
    command.arg(geo_size_argument(verb, *search.radius, true)).arg(geo_unit_text(search.unit));
  }
  if (search.count) {
    command.arg("COUNT").arg(*search.count);
    if (search.count_any) command.arg("ANY");
  }
  if (!box && order) command.arg(order);
}

}  // namespace

void start_geo_add(const ObjectPtr& object, const std::vector<std::string>& flags,
                   const std::vector<std::pair<GeoPosition, std::string>>& entries,
                   Done<Reply>& done) {
  std::vector<std::string> args;
  if (!entries.empty()) {  // none: nothing sent, 0 (start_with_arguments)
    args = flags;
    args.reserve(flags.size() + entries.size() * 3);
    for (const auto& [position, member] : entries) {
      check_geo_position("GEOADD", position);
      args.push_back(plain_decimal_argument(position.longitude));
      args.push_back(plain_decimal_argument(position.latitude));
      args.push_back(member);
    }
  }
  start_with_arguments(object, "GEOADD", args, done);
}

void start_geo_add_if_exists(const ObjectPtr& object, GeoPosition position,
                             const std::string& member, Done<Reply>& done) {
  check_geo_position("add_if_exists", position);
  eval_reply(
      *object,
      lua::geo_add_if_exists({object->name}, {plain_decimal_argument(position.longitude),
                                              plain_decimal_argument(position.latitude), member}),
      std::move(done));
}

void start_geo_dist(const ObjectPtr& object, const std::vector<std::string>& members, GeoUnit unit,
                    Done<Reply>& done) {
  Command command{"GEODIST"};
  command.key(object->name).arg(members.at(0)).arg(members.at(1)).arg(geo_unit_text(unit));
  submit_command(object, command, std::move(done));
}

void start_geo_search(const ObjectPtr& object, const GeoSearchWire& search, GeoSearchReply reply,
                      Done<Reply>& done) {
  const bool box = search.box.has_value();
  const char* verb = box ? "GEOSEARCH" : search.member ? "GEORADIUSBYMEMBER_RO" : "GEORADIUS_RO";
  check_geo_search(verb, search);
  const char* with = reply == GeoSearchReply::distances   ? "WITHDIST"
                     : reply == GeoSearchReply::positions ? "WITHCOORD"
                                                          : nullptr;
  Command command{verb};
  command.key(object->name);
  // Redisson puts WITH* before COUNT for GEORADIUS*, last for GEOSEARCH; the server takes both.
  if (box) {
    add_geo_area(command, verb, search);
    if (with) command.arg(with);
  } else {
    GeoSearchWire center_only = search;
    center_only.count.reset();
    center_only.count_any = false;
    center_only.order.reset();
    add_geo_area(command, verb, center_only);
    if (with) command.arg(with);
    if (search.count) {
      command.arg("COUNT").arg(*search.count);
      if (search.count_any) command.arg("ANY");
    }
    if (search.order) command.arg(*search.order == GeoOrder::asc ? "ASC" : "DESC");
  }
  submit_command(object, command, std::move(done));
}

void start_geo_store(const ObjectPtr& object, const std::string& destination,
                     const GeoSearchWire& search, bool distances, Done<Reply>& done) {
  const bool box = search.box.has_value();
  const char* verb = box ? "GEOSEARCHSTORE" : search.member ? "GEORADIUSBYMEMBER" : "GEORADIUS";
  check_geo_search(verb, search);
  require_same_slot(*object, verb, {destination});
  Command command{verb};
  if (box) command.key(destination);
  command.key(object->name);
  add_geo_area(command, verb, search);
  if (box) {
    if (distances) command.arg("STOREDIST");
  } else {
    command.arg(distances ? "STOREDIST" : "STORE").key(destination);
  }
  submit_command(object, command, std::move(done));
}

GeoPosition geo_position_of(const Reply& pair) {
  if (!pair.is_aggregate() || pair.elements.size() != 2) {
    throw_unexpected_reply("[longitude, latitude]", pair);
  }
  return GeoPosition{reply_double(pair.elements[0]), reply_double(pair.elements[1])};
}

}  // namespace redisson::detail
