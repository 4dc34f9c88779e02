// An input iterator over what a cursor hands out page by page (Keys::scan, a Map's entries): the
// one iterator every paged read of the library shares.
#pragma once

#include <cstddef>
#include <iterator>
#include <vector>

namespace redisson::detail {

/// Walks `Source::next_batch()` (a std::vector<E>; empty when the cursor is done), one element
/// at a time. next_batch() throws from begin() and operator++, as the blocking forms do.
template <class Source, class E>
class PagedIterator {
 public:
  using iterator_category = std::input_iterator_tag;
  using value_type = E;
  using difference_type = std::ptrdiff_t;
  using reference = const E&;
  using pointer = const E*;

  PagedIterator() = default;
  explicit PagedIterator(Source& source) : source_(&source) { fetch(); }
  reference operator*() const { return batch_[at_]; }
  pointer operator->() const { return &batch_[at_]; }
  PagedIterator& operator++() {
    if (++at_ >= batch_.size()) fetch();
    return *this;
  }
  void operator++(int) { ++*this; }
  friend bool operator==(const PagedIterator& it, std::default_sentinel_t) {
    return it.at_ >= it.batch_.size();
  }

 private:
  void fetch() {
    batch_ = source_->next_batch();
    at_ = 0;
  }
  Source* source_ = nullptr;
  std::vector<E> batch_;
  std::size_t at_ = 0;
};

}  // namespace redisson::detail
