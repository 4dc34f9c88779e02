#include "redisson/objects/collection_scan.hpp"

#include <string>
#include <string_view>
#include <utility>

#include "lua_scripts.hpp"
#include "objects/send.hpp"

namespace redisson::detail {

struct CollectionScanState {
  const char* verb = "";
  std::int64_t count = 0;
  std::string cursor = "0";
  bool finished = false;
  /// A distributed scan's cursor key (its cursor lives in Redis); empty for a scan of one's own.
  std::string cursor_key;
  std::string pattern;  // a distributed SSCAN/ZSCAN's MATCH pattern, or ""
};

namespace {

/// A list has no cursor: its pages are index windows, LRANGE start start+count-1, and a page
/// shorter than COUNT is the last.
void start_list_page(const ObjectPtr& object, const std::shared_ptr<CollectionScanState>& scan,
                     Done<Reply>& done) {
  const std::int64_t first = std::stoll(scan->cursor);
  Command command{"LRANGE", object->name};
  command.arg(first).arg(first + scan->count - 1);
  submit_command(
      object, command, [scan, done = std::move(done)](Status status, const Reply& page) mutable {
        if (status) return done(std::move(status), Reply{});
        if (page.type != ReplyType::array) {
          return done(Status(make_error_code(errc::wrong_type), "LRANGE: not a list page"),
                      Reply{});
        }
        const auto got = static_cast<std::int64_t>(page.elements.size());
        scan->cursor = std::to_string(std::stoll(scan->cursor) + got);
        scan->finished = got < scan->count;
        done(Status{}, page);
      });
}

/// A distributed scan's next page (distributed_scan.lua), in the shape of a SCAN reply.
void start_distributed_page(const ObjectPtr& object, const CollectionScanState& scan,
                            Done<Reply> done) {
  const std::string_view verb = scan.verb;
  const char* mode = verb == "SSCAN" ? "sscan" : verb == "ZSCAN" ? "zscan" : "lrange";
  eval_reply(*object,
             lua::distributed_scan({object->name, scan.cursor_key},
                                   {mode, std::to_string(scan.count), scan.pattern}),
             std::move(done));
}

}  // namespace

std::shared_ptr<CollectionScanState> make_distributed_scan(const char* verb, std::int64_t count,
                                                           std::string cursor_key,
                                                           std::string pattern) {
  auto scan = make_collection_scan(verb, count);
  if (cursor_key.empty()) throw_invalid_argument("the iterator's name must not be empty");
  scan->cursor_key = std::move(cursor_key);
  scan->pattern = std::move(pattern);
  return scan;
}

std::shared_ptr<CollectionScanState> make_collection_scan(const char* verb, std::int64_t count) {
  if (count < 1) throw_invalid_argument("the page size must be at least 1");
  auto scan = std::make_shared<CollectionScanState>();
  scan->verb = verb;
  scan->count = count;
  return scan;
}

void start_collection_scan_next(const ObjectPtr& object,
                                const std::shared_ptr<CollectionScanState>& scan,
                                Done<Reply>& done) {
  if (scan->finished) {
    Reply empty;
    empty.type = ReplyType::array;
    return done(Status{}, empty);
  }
  const bool distributed = !scan->cursor_key.empty();
  if (!distributed && std::string_view(scan->verb) == "LRANGE") {
    return start_list_page(object, scan, done);
  }
  Done<Reply> on_page = [object, scan, done = std::move(done)](Status status, Reply reply) mutable {
    if (status) return done(std::move(status), Reply{});
    // [next cursor, [elements...]]
    if (reply.elements.size() != 2 || !reply.elements[0].is_string() ||
        reply.elements[1].type != ReplyType::array) {
      return done(
          Status(make_error_code(errc::wrong_type), std::string(scan->verb) + ": not a scan page"),
          Reply{});
    }
    scan->cursor = reply.elements[0].str;
    // A distributed list's last window says -1 (Redisson's script).
    scan->finished = scan->cursor == "0" || scan->cursor == "-1";
    Reply page = std::move(reply.elements[1]);
    if (!page.elements.empty() || scan->finished) return done(Status{}, page);
    start_collection_scan_next(object, scan, done);  // an empty page: ask again
  };
  if (distributed) return start_distributed_page(object, *scan, std::move(on_page));
  if (std::string_view(scan->verb) == kMapCacheScanVerb) {
    return start_map_cache_scan_page(object, scan->cursor, scan->count, std::move(on_page));
  }
  Command command{scan->verb, object->name, scan->cursor};
  command.arg("COUNT").arg(scan->count);
  submit_command(object, command, std::move(on_page));
}

}  // namespace redisson::detail
