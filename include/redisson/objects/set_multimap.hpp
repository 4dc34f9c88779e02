// redisson::SetMultimap<K, V>: keys with a set of values each, Java Redisson's RSetMultimap.
#pragma once

#include "redisson/objects/multimap.hpp"

namespace redisson {

/// A map of K to a set of V: Java Redisson's RSetMultimap layout (the index hash `name`, each
/// key's values in the Redis set `{name}:<hash128toBase64(key bytes)>`), so a Java service and a
/// C++ service share one multimap when they use the same codec. A key holds each value once
/// (compared as encoded bytes); values(key) and get_all(key) come in no particular order. The
/// operations, their costs and errors are MultimapBase's (this is MultimapBase, Kind = set).
///
///   SetMultimap<std::string, std::string> tags(client, "tags", codecs::string());
///   tags.put("post:1", "cpp");
///   tags.put_all("post:1", {"redis", "cpp"});   // true: "redis" was new
///   tags.get_all("post:1");                     // {"cpp", "redis"} in some order
template <JavaValue K, JavaValue V>
using SetMultimap = MultimapBase<K, V, detail::MultimapKind::set>;

}  // namespace redisson
