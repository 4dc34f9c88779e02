#include "redisson/objects/collection_scan.hpp"

#include <string>
#include <utility>

#include "objects/send.hpp"

namespace redisson::detail {

struct CollectionScanState {
  const char* verb;
  std::int64_t count;
  std::string cursor = "0";
  bool finished = false;
};

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
  Command command{scan->verb, object->name, scan->cursor};
  command.arg("COUNT").arg(scan->count);
  submit_command(object, command,
                 [object, scan, done = std::move(done)](Status status, Reply reply) mutable {
                   if (status) return done(std::move(status), Reply{});
                   // [next cursor, [elements...]]
                   if (reply.elements.size() != 2 || !reply.elements[0].is_string() ||
                       reply.elements[1].type != ReplyType::array) {
                     return done(Status(make_error_code(errc::wrong_type),
                                        std::string(scan->verb) + ": not a scan page"),
                                 Reply{});
                   }
                   scan->cursor = reply.elements[0].str;
                   scan->finished = scan->cursor == "0";
                   Reply page = std::move(reply.elements[1]);
                   if (!page.elements.empty() || scan->finished) return done(Status{}, page);
                   start_collection_scan_next(object, scan, done);  // an empty page: ask again
                 });
}

}  // namespace redisson::detail
