// What `inspect` recognises beyond the locks: Redisson's objects by their layout, with their
// state. A string is a HyperLogLog ("HYLL" header), a Bloom filter (its {name}:config hash), an
// IdGenerator (its {name}:allocation key), or a bucket whose value is shown decoded with the codec
// its bytes match (kryo5, then json, then text); a hash with rate, interval and type is a rate
// limiter. Everything is read with read-only commands.
#pragma once

#include "key_report.hpp"
#include "redisson/client.hpp"

namespace redisson::cli {

/// Fills report.kind, report.codec, report.value_json and report.details when `report` (a string
/// or hash that is no lock) is one of Redisson's objects.
void recognise_object(Client& client, KeyReport& report);

}  // namespace redisson::cli
