#include "redisson/objects/collection_scan.hpp"

#include <string>
#include <string_view>
#include <utility>

#include "objects/send.hpp"

namespace redisson::detail {

struct CollectionScanState {
  const char* verb;
  std::int64_t count;
  std::string cursor = "0";
  bool finished = false;
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

}  // namespace

std::shared_ptr<CollectionScanState> make_collection_scan(const char* verb, std::int64_t count) {
  if (count < 1) throw_invalid_argument("the page size must be at least 1");
  return std::make_shared<CollectionScanState>(CollectionScanState{verb, count});
}

void start_collection_scan_next(const ObjectPtr& object,
                                const std::shared_ptr<CollectionScanState>& scan,
                                Done<Reply>& done) {
  if (scan->finished) {
    Reply empty;
    empty.type = ReplyType::array;
    return done(Status{}, empty);
  }
  if (std::string_view(scan->verb) == "LRANGE") return start_list_page(object, scan, done);
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
    scan->finished = scan->cursor == "0";
    Reply page = std::move(reply.elements[1]);
    if (!page.elements.empty() || scan->finished) return done(Status{}, page);
    start_collection_scan_next(object, scan, done);  // an empty page: ask again
  };
  if (std::string_view(scan->verb) == kMapCacheScanVerb) {
    return start_map_cache_scan_page(object, scan->cursor, scan->count, std::move(on_page));
  }
  Command command{scan->verb, object->name, scan->cursor};
  command.arg("COUNT").arg(scan->count);
  submit_command(object, command, std::move(on_page));
}

}  // namespace redisson::detail
