// What `inspect` shows of a collection (a list, set, sorted set or hash that is no lock or rate
// limiter: a Redisson queue, list, set, sorted set or map): its first few entries, decoded with
// the codec their bytes match. Read with one bounded command (LRANGE 0 4, one SSCAN/HSCAN page,
// ZRANGE 0 4), never the whole collection.
#pragma once

#include "key_report.hpp"
#include "redisson/client.hpp"

namespace redisson::cli {

/// Sets report.redisson_type when a companion key names the Redisson type of a list, hash or
/// sorted set (a RingBuffer's capacity, a MapCache's timeout set, a multimap's values keys...),
/// with that companion's state as details (a bounded queue's capacity left). EXISTS and GET
/// of a few keys; a hash's first field from one HSCAN page.
void name_collection(Client& client, KeyReport& report);

/// Adds report.codec and a "first" detail (a JSON array: values; [key, value] pairs for a hash;
/// [value, score] pairs for a sorted set) when `report` is such a collection.
void preview_collection(Client& client, KeyReport& report);

}  // namespace redisson::cli
