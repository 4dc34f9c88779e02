#include "collection_report.hpp"

#include <cstdint>
#include <string>
#include <vector>

#include "object_report.hpp"
#include "redisson_names.hpp"

namespace redisson::cli {
namespace {

// Entries shown, and the longest decoded entry shown whole.
constexpr int kShown = 5;
constexpr std::size_t kMaxEntryChars = 200;

char hex_digit(int nibble) { return "0123456789abcdef"[nibble & 0xF]; }

/// One element as JSON: decoded, or its bytes in hex when no codec reads them. The codec of the
/// first decoded element is the collection's (Redisson writes one codec per collection).
std::string shown(const std::string& bytes, std::string& codec) {
  if (const auto decoded = decode_for_display(bytes, codec)) {
    if (codec.empty()) codec = decoded->codec;
    if (decoded->json.size() <= kMaxEntryChars) return decoded->json;
    return "\"" + decoded->json.substr(0, kMaxEntryChars / 2) + "... (cut)\"";
  }
  std::string hex = "\"0x";
  for (std::size_t i = 0; i < bytes.size() && i < kMaxEntryChars / 2; ++i) {
    const auto c = static_cast<unsigned char>(bytes[i]);
    hex += hex_digit(c >> 4);
    hex += hex_digit(c);
  }
  return hex + "\"";
}

/// A score as JSON: the number, or the text of an infinity (which JSON has no number for).
std::string score_json(const std::string& text) {
  const bool finite =
      !text.empty() && text.find_first_not_of("0123456789.-+eE") == std::string::npos;
  return finite ? text : "\"" + text + "\"";
}

/// The elements of a scan reply ([cursor, [elements...]]).
Reply scan_page(Reply reply) {
  if (reply.elements.size() != 2) return Reply{};
  return std::move(reply.elements[1]);
}

/// The elements of a reply, flat: an array (LRANGE, ZRANGE WITHSCORES on RESP2), or the page of
/// a scan reply, or the pairs RESP3 gives ZRANGE WITHSCORES.
std::vector<std::string> flat_strings(const Reply& reply) {
  std::vector<std::string> out;
  for (const auto& element : reply.elements) {
    if (element.is_aggregate()) {
      for (const auto& inner : element.elements) out.emplace_back(inner.text());
    } else {
      out.emplace_back(element.text());
    }
  }
  return out;
}

/// A stream's first entries: [["<id>",[[field,value],...]],...], decoded as a map's are.
void preview_stream(Client& client, KeyReport& report) {
  const auto reply =
      client.execute({"XRANGE", report.name, "-", "+", "COUNT", std::to_string(kShown)});
  std::string codec;
  std::string first = "[";
  for (const auto& entry : reply.elements) {
    if (entry.elements.size() != 2) continue;
    if (first.size() > 1) first += ",";
    first += "[\"" + std::string(entry.elements[0].text()) + "\",[";
    const auto& fields = entry.elements[1].elements;
    for (std::size_t i = 0; i + 1 < fields.size(); i += 2) {
      if (i > 0) first += ",";
      const auto field = shown(std::string(fields[i].text()), codec);
      const auto value = shown(std::string(fields[i + 1].text()), codec);
      first.append("[").append(field).append(",").append(value).append("]");
    }
    first += "]]";
  }
  if (first.size() == 1) return;
  report.codec = codec;
  report.details.emplace_back("first", first + "]");
}

bool exists(Client& client, const std::string& key) {
  return client.execute({"EXISTS", key}).integer == 1;
}

/// A list's companions: a bounded queue's capacity left, a ring buffer's capacity, a sorted
/// list's comparator (Java's priority queues and RSortedSet keep the same one).
void name_list(Client& client, KeyReport& report) {
  const auto& name = report.name;
  if (name.starts_with("redisson_delay_queue:")) {
    report.redisson_type = "DelayedQueue (its elements, with their due times)";
    return;
  }
  const auto capacity_left = client.execute({"GET", prefix_name("redisson_bqs", name)});
  if (capacity_left.is_string()) {
    report.redisson_type = "BoundedBlockingQueue";
    report.details.emplace_back("capacity left", "\"" + capacity_left.str + "\"");
    return;
  }
  const auto capacity = client.execute({"GET", "redisson_rb:{" + name + "}"});
  if (capacity.is_string()) {
    report.redisson_type = "RingBuffer";
    report.details.emplace_back("capacity", "\"" + capacity.str + "\"");
    return;
  }
  for (const auto& key : {suffix_name(name, "redisson_sortedset_comparator"),
                          prefix_name("redisson_sortedset_comparator", name)}) {
    if (exists(client, key)) {
      report.redisson_type = "PriorityQueue, PriorityDeque or SortedSet (a sorted list)";
      return;
    }
  }
}

/// A hash's companions: a MapCache's timeout/idle sets or options, or a multimap's index (its
/// fields' values name the values keys S(n, value)).
void name_hash(Client& client, KeyReport& report) {
  const auto& name = report.name;
  if (name.starts_with("redisson_live_object:{")) {
    // redisson_live_object:{<hex of the id's bytes>}:<class>
    const auto close = name.find("}:");
    report.redisson_type = "LiveObject";
    if (close != std::string::npos) {
      report.details.emplace_back("class", "\"" + name.substr(close + 2) + "\"");  // JSON text
    }
    return;
  }
  if (name.starts_with("redisson_live_object_index:{")) {
    report.redisson_type = "LiveObject index (value -> hash of the value's ids set)";
    return;
  }
  // A local cached map: its near caches listen on {name}:topic; under the load strategy its
  // writers keep an updates log.
  const auto topic = suffix_name(name, "topic");
  const auto listening = client.execute({"PUBSUB", "NUMSUB", topic});
  const std::int64_t caches = listening.elements.size() == 2 ? listening.elements[1].integer : 0;
  if (caches > 0 || exists(client, prefix_name("redisson__cache_updates_log", name))) {
    report.redisson_type = "LocalCachedMap";
    report.details.emplace_back("near caches subscribed", std::to_string(caches));
    return;
  }
  for (const auto& key :
       {prefix_name("redisson__timeout__set", name), prefix_name("redisson__idle__set", name),
        suffix_name(name, "redisson_options")}) {
    if (exists(client, key)) {
      report.redisson_type = "MapCache";
      return;
    }
  }
  const auto page = scan_page(client.execute({"HSCAN", name, "0", "COUNT", "1"}));
  if (page.elements.size() < 2) return;
  const auto values_type = client.execute({"TYPE", suffix_name(name, page.elements[1].str)}).str;
  if (values_type == "set") report.redisson_type = "SetMultimap";
  if (values_type == "list") report.redisson_type = "ListMultimap";
}

/// A sorted set's companions: a TimeSeries' TTL hash, a DelayedQueue's due times.
void name_sorted_set(Client& client, KeyReport& report) {
  const auto& name = report.name;
  if (name.starts_with("redisson_delay_queue_timeout:")) {
    report.redisson_type = "DelayedQueue (its due times)";
    return;
  }
  const auto braced = name.find('{') != std::string::npos ? name : "{" + name + "}";
  if (exists(client, "redisson__ts_ttl:" + braced)) report.redisson_type = "TimeSeries";
}

/// An executor's request list, tasks hash or schedule:
/// {<name>:org.redisson.executor.RemoteExecutorService}[:tasks|:scheduler].
bool name_executor(KeyReport& report) {
  constexpr std::string_view kMarker = ":org.redisson.executor.RemoteExecutorService}";
  const auto& name = report.name;
  const auto at = name.find(kMarker);
  if (!name.starts_with("{") || at == std::string::npos) return false;
  const auto part = std::string_view(name).substr(at + kMarker.size());
  if (part.empty() && report.type == "list") {
    report.redisson_type = "ExecutorService queue (the ids of due tasks)";
  } else if (part == ":tasks" && report.type == "hash") {
    report.redisson_type = "ExecutorService tasks (id -> task)";
  } else if (part == ":scheduler" && report.type == "zset") {
    report.redisson_type = "ExecutorService schedule (id -> start ms; ff:<id> -> retry)";
  } else {
    return false;
  }
  report.details.emplace_back("executor", "\"" + name.substr(1, at - 1) + "\"");  // JSON text
  return true;
}

}  // namespace

void name_collection(Client& client, KeyReport& report) {
  if (name_executor(report)) return;
  if (report.type == "list") return name_list(client, report);
  if (report.type == "hash") return name_hash(client, report);
  if (report.type == "zset") return name_sorted_set(client, report);
}

void preview_collection(Client& client, KeyReport& report) {
  const auto& type = report.type;
  if (type == "stream") return preview_stream(client, report);
  Reply reply;
  int per_entry = 1;
  if (type == "list") {
    reply = client.execute({"LRANGE", report.name, "0", std::to_string(kShown - 1)});
  } else if (type == "set") {
    reply = scan_page(client.execute({"SSCAN", report.name, "0", "COUNT", std::to_string(kShown)}));
  } else if (type == "hash") {
    reply = scan_page(client.execute({"HSCAN", report.name, "0", "COUNT", std::to_string(kShown)}));
    per_entry = 2;
  } else if (type == "zset") {
    reply = client.execute({"ZRANGE", report.name, "0", std::to_string(kShown - 1), "WITHSCORES"});
    per_entry = 2;
  } else {
    return;
  }
  const auto strings = flat_strings(reply);
  std::string codec;
  std::string first = "[";
  int entries = 0;
  for (std::size_t i = 0; i + per_entry <= strings.size() && entries < kShown;
       i += static_cast<std::size_t>(per_entry), ++entries) {
    if (entries > 0) first += ",";
    // One statement per shown() call: the first element read sets the codec for the rest.
    const auto head = shown(strings[i], codec);
    if (per_entry == 1) {
      first += head;
    } else if (type == "zset") {
      first += "[" + head + "," + score_json(strings[i + 1]) + "]";
    } else {
      const auto tail = shown(strings[i + 1], codec);
      first += "[" + head + "," + tail + "]";
    }
  }
  if (entries == 0) return;
  report.codec = codec;
  report.details.emplace_back("first", first + "]");
}

}  // namespace redisson::cli
