// redisson::CollectionScan: a cursor over the elements of one hash, set or sorted set (HSCAN,
// SSCAN, ZSCAN) or list (LRANGE windows), read page by page: what every collection's iteration
// is made of.
#pragma once

#include <cstdint>
#include <iterator>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "redisson/detail/object_op.hpp"
#include "redisson/detail/paged_scan.hpp"

namespace redisson {

namespace detail {
/// Where a scan is (collection_scan.cpp): the command, its COUNT and the cursor.
struct CollectionScanState;
/// `verb` is "HSCAN", "SSCAN", "ZSCAN" or "LRANGE"; `count` (>= 1, else invalid_argument) its
/// COUNT (for LRANGE, the window's length).
std::shared_ptr<CollectionScanState> make_collection_scan(const char* verb, std::int64_t count);
/// A scan whose cursor lives in Redis under `cursor_key` (Redisson's distributedIterator):
/// every handle, in any process, that scans with the same cursor key takes the next page.
/// `verb` SSCAN, ZSCAN (members only) or LRANGE; `pattern` a MATCH for the SCAN verbs ("" none).
/// An empty cursor key or a count below 1 is invalid_argument.
std::shared_ptr<CollectionScanState> make_distributed_scan(const char* verb, std::int64_t count,
                                                           std::string cursor_key,
                                                           std::string pattern);
/// Redisson's default cursor key of a distributed scan: `__redisson_<kind>_cursor_{name}`.
inline std::string distributed_cursor_key(const char* kind, const std::string& name) {
  return std::string("__redisson_") + kind + "_cursor_{" + name + "}";
}
/// The verb of a MapCache's entries(): pages of its live entries (map_cache_scan.lua).
inline constexpr const char* kMapCacheScanVerb = "MAPCACHE_SCAN";
/// One page of a MapCache's live entries (map_cache.cpp), in the shape of an HSCAN reply.
void start_map_cache_scan_page(const ObjectPtr& object, const std::string& cursor,
                               std::int64_t count, Done<Reply> done);
/// The next non-empty page of the object's elements as the command returns them, flat (HSCAN:
/// field, value, field, value...); an empty array when the scan is over.
void start_collection_scan_next(const ObjectPtr& object,
                                const std::shared_ptr<CollectionScanState>& scan,
                                Done<Reply>& done);
}  // namespace detail

/// A cursor over the elements of one collection, made by its `entries()`/`values()` call: memory
/// stays at one page however large the collection.
///
/// The SCAN family's guarantees hold: an element present for the whole scan is returned at least
/// once (it may be returned twice: a map's entries are then the same key twice); elements added
/// or removed meanwhile may or may not be. A list is read in index windows (LRANGE): elements
/// pushed at its tail meanwhile are read too; removing from its head meanwhile shifts the
/// windows, so elements may then be skipped (a list read while it is consumed as a queue). Not
/// thread-safe (one reader at a time), like an iterator; call next_batch() again only once the
/// previous call has completed.
template <class E>
class CollectionScan : public detail::PagedScan<E, detail::CollectionScanState,
                                                &detail::start_collection_scan_next> {
  using Base =
      detail::PagedScan<E, detail::CollectionScanState, &detail::start_collection_scan_next>;

 public:
  using typename Base::Decode;

  CollectionScan(detail::ObjectPtr object, const char* verb, std::int64_t count, Decode decode)
      : Base(std::move(object), detail::make_collection_scan(verb, count), decode) {}
  /// A scan whose state was made already (detail::make_distributed_scan).
  CollectionScan(detail::ObjectPtr object, std::shared_ptr<detail::CollectionScanState> scan,
                 Decode decode)
      : Base(std::move(object), std::move(scan), decode) {}
};

}  // namespace redisson
