// redisson::ListMultimap<K, V>: keys with a list of values each, Java Redisson's RListMultimap.
#pragma once

#include "redisson/objects/multimap.hpp"

namespace redisson {

/// A map of K to a list of V: Java Redisson's RListMultimap layout (the index hash `name`, each
/// key's values in the Redis list `{name}:<hash128toBase64(key bytes)>`), so a Java service and
/// a C++ service share one multimap when they use the same codec. A key's values keep the order
/// they were put in, duplicates included; remove(key, value) takes the first equal one. The
/// operations, their costs and errors are MultimapBase's (this is MultimapBase, Kind = list).
///
///   ListMultimap<std::string, std::string> events(client, "events", codecs::string());
///   events.put("user:7", "login");
///   events.put_all("user:7", {"view", "login"});
///   events.get_all("user:7");                   // {"login", "view", "login"}
template <JavaValue K, JavaValue V>
using ListMultimap = MultimapBase<K, V, detail::MultimapKind::list>;

}  // namespace redisson
