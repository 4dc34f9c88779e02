#include "sync/lock_group.hpp"

#include <mutex>

#include "sync/lock_access.hpp"

namespace redisson::detail {

void unlock_group(const LockGroup& locks, std::size_t count, OwnerId owner, Done<void> done) {
  if (count == 0) return done({});
  struct Join {
    std::mutex mutex;
    std::size_t left;
    Status first;
    Done<void> done;
  };
  auto join = std::make_shared<Join>();
  join->left = count;
  join->done = std::move(done);
  for (std::size_t i = 0; i < count; ++i) {
    const auto& kind = LockAccess::kind((*locks)[i]);
    kind->release(owner, [join, name = kind->name](const Status& status) {
      Done<void> finish;
      Status first;
      {
        std::lock_guard lock(join->mutex);
        if (status && !join->first) {
          join->first =
              Status(status.code,
                     "member '" + name + "'" + (status.detail.empty() ? "" : ": " + status.detail));
        }
        if (--join->left == 0) {
          finish = std::move(join->done);
          first = std::move(join->first);
        }
      }
      if (finish) finish(std::move(first));
    });
  }
}

}  // namespace redisson::detail
