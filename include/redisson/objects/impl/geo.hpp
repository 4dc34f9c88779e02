// The bodies of Geo's templates (objects/geo.hpp).
#pragma once

#include "redisson/objects/geo.hpp"

namespace redisson {

template <JavaValue T>
template <class CompletionToken>
auto Geo<T>::async_add(double longitude, double latitude, const T& member,
                       CompletionToken&& token) {
  return add_of<std::int64_t>(token, &detail::reply_integer, {},
                              {GeoEntry<T>{longitude, latitude, member}});
}

template <JavaValue T>
template <class CompletionToken>
auto Geo<T>::async_add(const std::vector<GeoEntry<T>>& entries, CompletionToken&& token) {
  return add_of<std::int64_t>(token, &detail::reply_integer, {}, entries);
}

template <JavaValue T>
template <class CompletionToken>
auto Geo<T>::async_try_add(double longitude, double latitude, const T& member,
                           CompletionToken&& token) {
  return add_of<bool>(token, &detail::reply_flag, {"NX"},
                      {GeoEntry<T>{longitude, latitude, member}});
}

template <JavaValue T>
template <class CompletionToken>
auto Geo<T>::async_try_add(const std::vector<GeoEntry<T>>& entries, CompletionToken&& token) {
  return add_of<std::int64_t>(token, &detail::reply_integer, {"NX"}, entries);
}

template <JavaValue T>
template <class CompletionToken>
auto Geo<T>::async_add_if_exists(double longitude, double latitude, const T& member,
                                 CompletionToken&& token) {
  return detail::async_started<bool>(
      this->object_, token,
      [position = GeoPosition{longitude, latitude}, member](const detail::ObjectPtr& object,
                                                            detail::Done<Reply>& done) {
        detail::start_geo_add_if_exists(object, position,
                                        detail::encode_value(*object->codec, member), done);
      },
      &detail::reply_flag);
}

template <JavaValue T>
template <class CompletionToken>
auto Geo<T>::async_add_if_exists(const std::vector<GeoEntry<T>>& entries, CompletionToken&& token) {
  return add_of<std::int64_t>(token, &detail::reply_integer, {"XX", "CH"}, entries);
}

template <JavaValue T>
template <class CompletionToken>
auto Geo<T>::async_dist(const T& first, const T& second, GeoUnit unit,
                        CompletionToken&& token) const {
  return detail::async_with_encoded<std::optional<double>>(
      this->object_, token, std::vector<T>{first, second},
      [unit](const detail::ObjectPtr& object, const std::vector<std::string>& members,
             detail::Done<Reply>& done) { detail::start_geo_dist(object, members, unit, done); },
      [](const Reply& reply) -> std::optional<double> {
        if (reply.is_null()) return std::nullopt;
        return detail::reply_double(reply);
      });
}

template <JavaValue T>
template <class CompletionToken>
auto Geo<T>::async_hash(const std::vector<T>& members, CompletionToken&& token) const {
  return detail::async_with_encoded<std::map<T, std::string>>(
      this->object_, token, members,
      [](const detail::ObjectPtr& object, const std::vector<std::string>& encoded,
         detail::Done<Reply>& done) {
        detail::start_with_arguments(object, "GEOHASH", encoded, done);
      },
      [members](const Reply& reply) {
        std::map<T, std::string> hashes;
        if (reply.is_integer()) return hashes;  // no members: nothing was sent
        if (!reply.is_aggregate() || reply.elements.size() != members.size()) {
          detail::throw_unexpected_reply("a geohash per member", reply);
        }
        for (std::size_t i = 0; i < members.size(); ++i) {
          if (!reply.elements[i].is_null()) hashes[members[i]] = reply.elements[i].str;
        }
        return hashes;
      });
}

template <JavaValue T>
template <class CompletionToken>
auto Geo<T>::async_pos(const std::vector<T>& members, CompletionToken&& token) const {
  return detail::async_with_encoded<std::map<T, GeoPosition>>(
      this->object_, token, members,
      [](const detail::ObjectPtr& object, const std::vector<std::string>& encoded,
         detail::Done<Reply>& done) {
        detail::start_with_arguments(object, "GEOPOS", encoded, done);
      },
      [members](const Reply& reply) {
        std::map<T, GeoPosition> positions;
        if (reply.is_integer()) return positions;  // no members: nothing was sent
        if (!reply.is_aggregate() || reply.elements.size() != members.size()) {
          detail::throw_unexpected_reply("a position per member", reply);
        }
        for (std::size_t i = 0; i < members.size(); ++i) {
          if (!reply.elements[i].is_null()) {
            positions[members[i]] = detail::geo_position_of(reply.elements[i]);
          }
        }
        return positions;
      });
}

template <JavaValue T>
template <class CompletionToken>
auto Geo<T>::async_search(const GeoSearchArgs<T>& args, CompletionToken&& token) const {
  return search_of<std::vector<T>>(
      token,
      [codec = this->object_->codec](const Reply& reply) {
        return detail::decode_elements<T>(*codec, reply);
      },
      args, detail::GeoSearchReply::members);
}

template <JavaValue T>
template <class CompletionToken>
auto Geo<T>::async_search_with_distance(const GeoSearchArgs<T>& args,
                                        CompletionToken&& token) const {
  return search_of<std::vector<std::pair<T, double>>>(
      token,
      [codec = this->object_->codec](const Reply& reply) {
        std::vector<std::pair<T, double>> found;
        if (!reply.is_aggregate()) detail::throw_unexpected_reply("[member, distance]s", reply);
        for (const auto& row : reply.elements) {
          if (!row.is_aggregate() || row.elements.size() != 2) {
            detail::throw_unexpected_reply("[member, distance]", row);
          }
          if (auto value = detail::decode_reply<T>(*codec, row.elements[0])) {
            found.emplace_back(std::move(*value), detail::reply_double(row.elements[1]));
          }
        }
        return found;
      },
      args, detail::GeoSearchReply::distances);
}

template <JavaValue T>
template <class CompletionToken>
auto Geo<T>::async_search_with_position(const GeoSearchArgs<T>& args,
                                        CompletionToken&& token) const {
  return search_of<std::vector<std::pair<T, GeoPosition>>>(
      token,
      [codec = this->object_->codec](const Reply& reply) {
        std::vector<std::pair<T, GeoPosition>> found;
        if (!reply.is_aggregate()) detail::throw_unexpected_reply("[member, position]s", reply);
        for (const auto& row : reply.elements) {
          if (!row.is_aggregate() || row.elements.size() != 2) {
            detail::throw_unexpected_reply("[member, position]", row);
          }
          if (auto value = detail::decode_reply<T>(*codec, row.elements[0])) {
            found.emplace_back(std::move(*value), detail::geo_position_of(row.elements[1]));
          }
        }
        return found;
      },
      args, detail::GeoSearchReply::positions);
}

template <JavaValue T>
template <class CompletionToken>
auto Geo<T>::async_store_search_to(const std::string& destination, const GeoSearchArgs<T>& args,
                                   CompletionToken&& token) {
  return store_of(token, destination, args, false);
}

template <JavaValue T>
template <class CompletionToken>
auto Geo<T>::async_store_sorted_search_to(const std::string& destination,
                                          const GeoSearchArgs<T>& args, CompletionToken&& token) {
  return store_of(token, destination, args, true);
}

template <JavaValue T>
template <class R, class CompletionToken, class Convert>
auto Geo<T>::search_of(CompletionToken&& token, Convert convert, const GeoSearchArgs<T>& args,
                       detail::GeoSearchReply reply) const {
  return detail::async_started<R>(
      this->object_, token,
      [args, reply](const detail::ObjectPtr& object, detail::Done<Reply>& done) {
        detail::start_geo_search(object, detail::geo_search_wire(*object->codec, args), reply,
                                 done);
      },
      std::move(convert));
}

template <JavaValue T>
template <class CompletionToken>
auto Geo<T>::store_of(CompletionToken&& token, const std::string& destination,
                      const GeoSearchArgs<T>& args, bool distances) {
  return detail::async_started<std::int64_t>(
      this->object_, token,
      [destination, args, distances](const detail::ObjectPtr& object, detail::Done<Reply>& done) {
        detail::start_geo_store(object, destination, detail::geo_search_wire(*object->codec, args),
                                distances, done);
      },
      &detail::reply_integer);
}

template <JavaValue T>
template <class R, class CompletionToken, class Convert>
auto Geo<T>::add_of(CompletionToken&& token, Convert convert, std::vector<std::string> flags,
                    std::vector<GeoEntry<T>> entries) {
  return detail::async_started<R>(
      this->object_, token,
      [flags = std::move(flags), entries = std::move(entries)](const detail::ObjectPtr& object,
                                                               detail::Done<Reply>& done) {
        std::vector<std::pair<GeoPosition, std::string>> encoded;
        encoded.reserve(entries.size());
        for (const auto& entry : entries) {
          encoded.emplace_back(GeoPosition{entry.longitude, entry.latitude},
                               detail::encode_value(*object->codec, entry.member));
        }
        detail::start_geo_add(object, flags, encoded, done);
      },
      std::move(convert));
}

}  // namespace redisson
