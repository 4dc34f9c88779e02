// redisson::CollectionScan: a cursor over the elements of one hash, set or sorted set (HSCAN,
// SSCAN, ZSCAN) or list (LRANGE windows), read page by page: what every collection's iteration
// is made of.
#pragma once

#include <cstdint>
#include <iterator>
#include <memory>
#include <utility>
#include <vector>

#include "redisson/detail/object_op.hpp"
#include "redisson/detail/paged_iterator.hpp"

namespace redisson {

namespace detail {
/// Where a scan is (collection_scan.cpp): the command, its COUNT and the cursor.
struct CollectionScanState;
/// `verb` is "HSCAN", "SSCAN", "ZSCAN" or "LRANGE"; `count` (>= 1, else invalid_argument) its
/// COUNT (for LRANGE, the window's length).
std::shared_ptr<CollectionScanState> make_collection_scan(const char* verb, std::int64_t count);
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
class CollectionScan {
 public:
  /// Turns one page (the flat reply) into elements with the object's codec.
  using Decode = std::vector<E> (*)(const Codec& codec, const Reply& page);

  CollectionScan(detail::ObjectPtr object, const char* verb, std::int64_t count, Decode decode)
      : object_(std::move(object)),
        scan_(detail::make_collection_scan(verb, count)),
        decode_(decode) {}

  // ---- asynchronous form: completes through any Asio completion token --------------------
  template <class CompletionToken>
  auto async_next_batch(CompletionToken&& token) {
    return detail::async_started<std::vector<E>>(
        object_, token,
        [scan = scan_](const detail::ObjectPtr& object, detail::Done<Reply>& done) {
          detail::start_collection_scan_next(object, scan, done);
        },
        [codec = object_->codec, decode = decode_](const Reply& page) {
          return decode(*codec, page);
        });
  }

  // ---- blocking forms: wait for the async form; throw redisson::error ---------------------
  /// The next elements (one page, more requests when a page is empty); empty when it is over.
  std::vector<E> next_batch() {
    return async_next_batch(detail::blocking("next_batch", object_->name));
  }

  /// An input iterator over the elements, fetching pages with next_batch().
  using iterator = detail::PagedIterator<CollectionScan, E>;
  /// Starts reading (the first page is fetched here).
  iterator begin() { return iterator(*this); }
  std::default_sentinel_t end() const noexcept { return {}; }

 private:
  detail::ObjectPtr object_;
  std::shared_ptr<detail::CollectionScanState> scan_;
  Decode decode_;
};

}  // namespace redisson
