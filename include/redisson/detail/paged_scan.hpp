// detail::PagedScan: the page-fetching cursor every paged read is made of (CollectionScan over
// the SCAN family and LRANGE windows, TimeSeriesScan over rank windows). A scan kind supplies
// its state and the function that starts the request for the next page; this holds the object,
// the state and the page decoder, and gives next_batch (async and blocking) and the iterator.
#pragma once

#include <iterator>
#include <memory>
#include <utility>
#include <vector>

#include "redisson/detail/object_op.hpp"
#include "redisson/detail/paged_iterator.hpp"

namespace redisson::detail {

template <class E, class State,
          void (*StartNext)(const ObjectPtr&, const std::shared_ptr<State>&, Done<Reply>&)>
class PagedScan {
 public:
  /// Turns one page (the reply StartNext completes with) into elements with the object's codec.
  using Decode = std::vector<E> (*)(const Codec& codec, const Reply& page);

  // ---- asynchronous form: completes through any Asio completion token --------------------
  template <class CompletionToken>
  auto async_next_batch(CompletionToken&& token) {
    return async_started<std::vector<E>>(
        object_, token,
        [scan = scan_](const ObjectPtr& object, Done<Reply>& done) {
          StartNext(object, scan, done);
        },
        [codec = object_->codec, decode = decode_](const Reply& page) {
          return decode(*codec, page);
        });
  }

  // ---- blocking forms: wait for the async form; throw redisson::error ---------------------
  /// The next elements (one page; more requests when a page held none); empty when it is over.
  std::vector<E> next_batch() { return async_next_batch(blocking("next_batch", object_->name)); }

  /// An input iterator over the elements, fetching pages with next_batch().
  using iterator = PagedIterator<PagedScan, E>;
  /// Starts reading (the first page is fetched here).
  iterator begin() { return iterator(*this); }
  std::default_sentinel_t end() const noexcept { return {}; }

 protected:
  PagedScan(ObjectPtr object, std::shared_ptr<State> scan, Decode decode)
      : object_(std::move(object)), scan_(std::move(scan)), decode_(decode) {}

 private:
  ObjectPtr object_;
  std::shared_ptr<State> scan_;
  Decode decode_;
};

}  // namespace redisson::detail
