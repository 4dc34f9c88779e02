// The bodies of TimeSeries's templates (objects/time_series.hpp).
#pragma once

#include "redisson/objects/time_series.hpp"

namespace redisson {

template <JavaValue V, JavaValue L>
template <class CompletionToken>
auto TimeSeries<V, L>::async_add(std::int64_t timestamp, const V& value, CompletionToken&& token) {
  return async_add_all({Entry{timestamp, value, std::nullopt}}, {}, token);
}

template <JavaValue V, JavaValue L>
template <class CompletionToken>
auto TimeSeries<V, L>::async_add(std::int64_t timestamp, const V& value,
                                 std::chrono::milliseconds ttl, CompletionToken&& token) {
  return async_add_all({Entry{timestamp, value, std::nullopt}}, ttl, token);
}

template <JavaValue V, JavaValue L>
template <class CompletionToken>
auto TimeSeries<V, L>::async_add(std::int64_t timestamp, const V& value, const L& label,
                                 CompletionToken&& token) {
  return async_add_all({Entry{timestamp, value, label}}, {}, token);
}

template <JavaValue V, JavaValue L>
template <class CompletionToken>
auto TimeSeries<V, L>::async_add(std::int64_t timestamp, const V& value, const L& label,
                                 std::chrono::milliseconds ttl, CompletionToken&& token) {
  return async_add_all({Entry{timestamp, value, label}}, ttl, token);
}

template <JavaValue V, JavaValue L>
template <class CompletionToken>
auto TimeSeries<V, L>::async_add_all(std::vector<Entry> entries, std::chrono::milliseconds ttl,
                                     CompletionToken&& token) {
  return detail::async_started<void>(
      object_, token,
      [entries = std::move(entries), ttl](const detail::ObjectPtr& object,
                                          detail::Done<Reply>& done) {
        std::vector<detail::TimeSeriesWrite> writes;
        writes.reserve(entries.size());
        for (const auto& entry : entries) {
          detail::TimeSeriesWrite write{
              entry.timestamp, detail::encode_value(*object->codec, entry.value), std::nullopt};
          if (entry.label) write.label = detail::encode_value(*object->codec, *entry.label);
          writes.push_back(std::move(write));
        }
        detail::start_time_series_add(object, writes, ttl, done);
      },
      &detail::reply_ignore);
}

template <JavaValue V, JavaValue L>
template <class CompletionToken>
auto TimeSeries<V, L>::async_get(std::int64_t timestamp, CompletionToken&& token) const {
  return started<std::optional<V>>(token, first_value(), &detail::start_time_series_get, timestamp,
                                   false);
}

template <JavaValue V, JavaValue L>
template <class CompletionToken>
auto TimeSeries<V, L>::async_get_entry(std::int64_t timestamp, CompletionToken&& token) const {
  return started<std::optional<Entry>>(token, first_entry_reader(), &detail::start_time_series_get,
                                       timestamp, false);
}

template <JavaValue V, JavaValue L>
template <class CompletionToken>
auto TimeSeries<V, L>::async_remove(std::int64_t timestamp, CompletionToken&& token) {
  return started<bool>(
      token, [](const Reply& reply) { return !reply.is_null(); }, &detail::start_time_series_get,
      timestamp, true);
}

template <JavaValue V, JavaValue L>
template <class CompletionToken>
auto TimeSeries<V, L>::async_get_and_remove(std::int64_t timestamp, CompletionToken&& token) {
  return started<std::optional<V>>(token, first_value(), &detail::start_time_series_get, timestamp,
                                   true);
}

template <JavaValue V, JavaValue L>
template <class CompletionToken>
auto TimeSeries<V, L>::async_get_and_remove_entry(std::int64_t timestamp, CompletionToken&& token) {
  return started<std::optional<Entry>>(token, first_entry_reader(), &detail::start_time_series_get,
                                       timestamp, true);
}

template <JavaValue V, JavaValue L>
template <class CompletionToken>
auto TimeSeries<V, L>::async_first_entries(std::int64_t count, CompletionToken&& token) const {
  return counted<std::vector<Entry>>(token, entries_reader(), count, false,
                                     detail::TimeSeriesAction::read);
}

template <JavaValue V, JavaValue L>
template <class CompletionToken>
auto TimeSeries<V, L>::async_last_entries(std::int64_t count, CompletionToken&& token) const {
  return counted<std::vector<Entry>>(token, entries_reader(), count, true,
                                     detail::TimeSeriesAction::read);
}

template <JavaValue V, JavaValue L>
template <class CompletionToken>
auto TimeSeries<V, L>::async_remove_range(std::int64_t from, std::int64_t to,
                                          CompletionToken&& token) {
  return range<std::int64_t>(token, &detail::reply_integer, bound(from), bound(to), -1, false,
                             detail::TimeSeriesAction::remove);
}

template <JavaValue V, JavaValue L>
template <class CompletionToken>
auto TimeSeries<V, L>::async_range(std::int64_t from, std::int64_t to, std::int64_t limit,
                                   CompletionToken&& token) const {
  return limited_range<std::vector<V>>(token, values_reader(), from, to, limit, false);
}

template <JavaValue V, JavaValue L>
template <class CompletionToken>
auto TimeSeries<V, L>::async_rev_range(std::int64_t from, std::int64_t to, std::int64_t limit,
                                       CompletionToken&& token) const {
  return limited_range<std::vector<V>>(token, values_reader(), from, to, limit, true);
}

template <JavaValue V, JavaValue L>
template <class CompletionToken>
auto TimeSeries<V, L>::async_entry_range(std::int64_t from, std::int64_t to, std::int64_t limit,
                                         CompletionToken&& token) const {
  return limited_range<std::vector<Entry>>(token, entries_reader(), from, to, limit, false);
}

template <JavaValue V, JavaValue L>
template <class CompletionToken>
auto TimeSeries<V, L>::async_entry_rev_range(std::int64_t from, std::int64_t to, std::int64_t limit,
                                             CompletionToken&& token) const {
  return limited_range<std::vector<Entry>>(token, entries_reader(), from, to, limit, true);
}

template <JavaValue V, JavaValue L>
template <class CompletionToken>
auto TimeSeries<V, L>::async_first(CompletionToken&& token) const {
  return range<std::optional<V>>(token, first_value(), "-inf", "+inf", 1, false,
                                 detail::TimeSeriesAction::read);
}

template <JavaValue V, JavaValue L>
template <class CompletionToken>
auto TimeSeries<V, L>::async_last(CompletionToken&& token) const {
  return range<std::optional<V>>(token, first_value(), "-inf", "+inf", 1, true,
                                 detail::TimeSeriesAction::read);
}

template <JavaValue V, JavaValue L>
template <class CompletionToken>
auto TimeSeries<V, L>::async_first_entry(CompletionToken&& token) const {
  return range<std::optional<Entry>>(token, first_entry_reader(), "-inf", "+inf", 1, false,
                                     detail::TimeSeriesAction::read);
}

template <JavaValue V, JavaValue L>
template <class CompletionToken>
auto TimeSeries<V, L>::async_last_entry(CompletionToken&& token) const {
  return range<std::optional<Entry>>(token, first_entry_reader(), "-inf", "+inf", 1, true,
                                     detail::TimeSeriesAction::read);
}

template <JavaValue V, JavaValue L>
template <class CompletionToken>
auto TimeSeries<V, L>::async_first(std::int64_t count, CompletionToken&& token) const {
  return counted<std::vector<V>>(token, values_reader(), count, false,
                                 detail::TimeSeriesAction::read);
}

template <JavaValue V, JavaValue L>
template <class CompletionToken>
auto TimeSeries<V, L>::async_last(std::int64_t count, CompletionToken&& token) const {
  return counted<std::vector<V>>(token, values_reader(), count, true,
                                 detail::TimeSeriesAction::read);
}

template <JavaValue V, JavaValue L>
template <class CompletionToken>
auto TimeSeries<V, L>::async_poll_first(CompletionToken&& token) {
  return range<std::optional<V>>(token, first_value(), "-inf", "+inf", 1, false,
                                 detail::TimeSeriesAction::poll);
}

template <JavaValue V, JavaValue L>
template <class CompletionToken>
auto TimeSeries<V, L>::async_poll_last(CompletionToken&& token) {
  return range<std::optional<V>>(token, first_value(), "-inf", "+inf", 1, true,
                                 detail::TimeSeriesAction::poll);
}

template <JavaValue V, JavaValue L>
template <class CompletionToken>
auto TimeSeries<V, L>::async_poll_first(std::int64_t count, CompletionToken&& token) {
  return counted<std::vector<V>>(token, values_reader(), count, false,
                                 detail::TimeSeriesAction::poll);
}

template <JavaValue V, JavaValue L>
template <class CompletionToken>
auto TimeSeries<V, L>::async_poll_last(std::int64_t count, CompletionToken&& token) {
  return counted<std::vector<V>>(token, values_reader(), count, true,
                                 detail::TimeSeriesAction::poll);
}

template <JavaValue V, JavaValue L>
template <class CompletionToken>
auto TimeSeries<V, L>::async_poll_first_entries(std::int64_t count, CompletionToken&& token) {
  return counted<std::vector<Entry>>(token, entries_reader(), count, false,
                                     detail::TimeSeriesAction::poll);
}

template <JavaValue V, JavaValue L>
template <class CompletionToken>
auto TimeSeries<V, L>::async_poll_last_entries(std::int64_t count, CompletionToken&& token) {
  return counted<std::vector<Entry>>(token, entries_reader(), count, true,
                                     detail::TimeSeriesAction::poll);
}

template <JavaValue V, JavaValue L>
template <class CompletionToken>
auto TimeSeries<V, L>::async_size(CompletionToken&& token) const {
  return started<std::int64_t>(token, &detail::reply_integer, &detail::start_time_series_size);
}

template <JavaValue V, JavaValue L>
template <class CompletionToken>
auto TimeSeries<V, L>::async_evict_expired(std::int64_t limit, CompletionToken&& token) {
  return started<std::int64_t>(token, &detail::reply_integer, &detail::start_time_series_sweep,
                               limit);
}

template <JavaValue V, JavaValue L>
template <class R, class CompletionToken, class Convert>
auto TimeSeries<V, L>::range(CompletionToken&& token, Convert convert, std::string from,
                             std::string to, std::int64_t limit, bool reverse,
                             detail::TimeSeriesAction action) const {
  return started<R>(token, std::move(convert), &detail::start_time_series_range, std::move(from),
                    std::move(to), limit, reverse, action);
}

template <JavaValue V, JavaValue L>
template <class R, class CompletionToken, class Convert>
auto TimeSeries<V, L>::limited_range(CompletionToken&& token, Convert convert, std::int64_t from,
                                     std::int64_t to, std::int64_t limit, bool reverse) const {
  return detail::async_started<R>(
      object_, token,
      [from, to, limit, reverse](const detail::ObjectPtr& object, detail::Done<Reply>& done) {
        detail::start_time_series_range(object, bound(from), bound(to),
                                        detail::time_series_range_limit(limit), reverse,
                                        detail::TimeSeriesAction::read, done);
      },
      std::move(convert));
}

template <JavaValue V, JavaValue L>
template <class R, class CompletionToken, class Convert>
auto TimeSeries<V, L>::counted(CompletionToken&& token, Convert convert, std::int64_t count,
                               bool reverse, detail::TimeSeriesAction action) const {
  return detail::async_started<R>(
      object_, token,
      [count, reverse, action](const detail::ObjectPtr& object, detail::Done<Reply>& done) {
        detail::start_time_series_range(object, "-inf", "+inf", detail::time_series_count(count),
                                        reverse, action, done);
      },
      std::move(convert));
}

}  // namespace redisson
