// The bodies of Object's templates (objects/object.hpp).
#pragma once

#include "redisson/objects/object.hpp"

namespace redisson {

template <class R, class CompletionToken, class Convert, class... Args>
auto Object::on_key(CompletionToken&& token, Convert&& convert, std::string_view verb,
                    const Args&... args) const {
  return detail::async_command<R>(
      object_, token,
      [&] {
        Command command{verb, name()};
        (command.arg(args), ...);
        return command;
      },
      std::forward<Convert>(convert));
}

template <class R, class CompletionToken, class Convert, class Start, class... Args>
auto Object::started(CompletionToken&& token, Convert&& convert, Start start, Args... args) const {
  return detail::async_started<R>(
      object_, token,
      [start, ... args = std::move(args)](const detail::ObjectPtr& object,
                                          detail::Done<Reply>& done) {
        start(object, args..., done);
      },
      std::forward<Convert>(convert));
}

template <class R, class CompletionToken, class Start, class... Args>
auto Object::run(CompletionToken&& token, Start start, Args... args) const {
  return detail::async_op<R>(
      object_->core, token,
      [object = object_, start, ... args = std::move(args)](detail::Done<R> done) {
        // Its own sequence of commands and waits: not one command to queue.
        if (object->batch) return detail::fail<R>(done, detail::batch_refusal("this operation"));
        start(object, args..., std::move(done));
      },
      object_->batch != nullptr);
}

template <class R, class CompletionToken, class Start, class... Args>
auto Object::run_cancellable(CompletionToken&& token, Start start, Args... args) const {
  return detail::async_op<R>(
      object_->core, token,
      [object = object_, start, ... args = std::move(args)](detail::Done<R> done,
                                                            const detail::CancellationPtr& cancel) {
        if (object->batch) {
          return detail::fail<R>(done, detail::batch_refusal("a waiting operation"));
        }
        start(object, args..., cancel, std::move(done));
      },
      object_->batch != nullptr);
}

template <class T>
auto Object::value_reader() const {
  return [codec = object_->codec](const Reply& reply) {
    return detail::decode_reply<T>(*codec, reply);
  };
}

template <class V>
auto Object::map_value_reader() const {
  return [codec = object_->codec](const Reply& reply) {
    return detail::decode_reply<V>(codec->map_value_codec(), reply);
  };
}

template <class T>
auto Object::values_reader() const {
  return [codec = object_->codec](const Reply& reply) {
    return detail::decode_elements<T>(*codec, reply);
  };
}

template <class CompletionToken>
auto Object::async_delete_object(CompletionToken&& token) {
  return started<bool>(token, &detail::reply_flag, &start_keys_command, "DEL");
}

template <class CompletionToken>
auto Object::async_exists(CompletionToken&& token) const {
  return on_key<bool>(token, &detail::reply_flag, "EXISTS");
}

template <class Rep, class Period, class CompletionToken>
auto Object::async_expire(std::chrono::duration<Rep, Period> ttl, CompletionToken&& token) {
  return started<bool>(token, &detail::reply_flag, &start_expire, "pexpire",
                       detail::saturating_ms(ttl).count());
}

template <class CompletionToken>
auto Object::async_expire_at(std::chrono::system_clock::time_point when, CompletionToken&& token) {
  const auto ms =
      std::chrono::duration_cast<std::chrono::milliseconds>(when.time_since_epoch()).count();
  return started<bool>(token, &detail::reply_flag, &start_expire, "pexpireat", ms);
}

template <class CompletionToken>
auto Object::async_clear_expire(CompletionToken&& token) {
  return started<bool>(token, &detail::reply_flag, &start_expire, "persist", std::int64_t{0});
}

template <class CompletionToken>
auto Object::async_remaining_time_to_live(CompletionToken&& token) const {
  return on_key<std::chrono::milliseconds>(token, &detail::reply_ms, "PTTL");
}

template <class CompletionToken>
auto Object::async_touch(CompletionToken&& token) {
  return started<bool>(token, &detail::reply_flag, &start_keys_command, "TOUCH");
}

template <class CompletionToken>
auto Object::async_size_in_memory(CompletionToken&& token) const {
  return started<std::int64_t>(token, &detail::reply_integer, &start_size_in_memory);
}

template <class CompletionToken>
auto Object::async_unlink(CompletionToken&& token) {
  return started<bool>(token, &detail::reply_flag, &start_keys_command, "UNLINK");
}

template <class Rep, class Period, class CompletionToken>
auto Object::async_expire(std::chrono::duration<Rep, Period> ttl, ExpireIf condition,
                          CompletionToken&& token) {
  return started<bool>(token, &detail::reply_flag, &start_expire_if, "pexpire",
                       detail::saturating_ms(ttl).count(), condition);
}

template <class CompletionToken>
auto Object::async_expire_at(std::chrono::system_clock::time_point when, ExpireIf condition,
                             CompletionToken&& token) {
  const auto ms =
      std::chrono::duration_cast<std::chrono::milliseconds>(when.time_since_epoch()).count();
  return started<bool>(token, &detail::reply_flag, &start_expire_if, "pexpireat", ms, condition);
}

template <class CompletionToken>
auto Object::async_expire_time(CompletionToken&& token) const {
  return on_key<std::optional<std::chrono::system_clock::time_point>>(
      token, &detail::reply_expire_time, "PEXPIRETIME");
}

template <class CompletionToken>
auto Object::async_idle_time(CompletionToken&& token) const {
  return started<std::optional<std::chrono::seconds>>(
      token,
      [](const Reply& reply) -> std::optional<std::chrono::seconds> {
        const auto seconds = detail::reply_optional_integer(reply);
        if (!seconds) return std::nullopt;
        return std::chrono::seconds{*seconds};
      },
      &start_object_subcommand, "IDLETIME");
}

template <class CompletionToken>
auto Object::async_reference_count(CompletionToken&& token) const {
  return started<std::optional<std::int64_t>>(token, &detail::reply_optional_integer,
                                              &start_object_subcommand, "REFCOUNT");
}

template <class CompletionToken>
auto Object::async_access_frequency(CompletionToken&& token) const {
  return started<std::optional<std::int64_t>>(token, &detail::reply_optional_integer,
                                              &start_object_subcommand, "FREQ");
}

template <class CompletionToken>
auto Object::async_internal_encoding(CompletionToken&& token) const {
  return started<std::optional<std::string>>(token, &detail::reply_optional_string,
                                             &start_object_subcommand, "ENCODING");
}

template <class CompletionToken>
auto Object::async_dump(CompletionToken&& token) const {
  return on_key<std::optional<Bytes>>(token, &detail::reply_optional_bytes, "DUMP");
}

template <class CompletionToken>
auto Object::async_restore(Bytes state, std::chrono::milliseconds ttl, CompletionToken&& token) {
  return started<void>(token, &detail::reply_ignore, &start_restore, std::move(state), ttl.count(),
                       false);
}

template <class CompletionToken>
auto Object::async_restore_and_replace(Bytes state, std::chrono::milliseconds ttl,
                                       CompletionToken&& token) {
  return started<void>(token, &detail::reply_ignore, &start_restore, std::move(state), ttl.count(),
                       true);
}

template <class CompletionToken>
auto Object::async_copy(std::string destination, CompletionToken&& token) const {
  return started<bool>(token, &detail::reply_flag, &start_copy, std::move(destination), false);
}

template <class CompletionToken>
auto Object::async_copy_and_replace(std::string destination, CompletionToken&& token) const {
  return started<bool>(token, &detail::reply_flag, &start_copy, std::move(destination), true);
}

template <class CompletionToken>
auto Object::async_move_to_database(std::int64_t database, CompletionToken&& token) {
  return started<bool>(token, &detail::reply_flag, &start_each_key, "move", database);
}

template <class CompletionToken>
auto Object::async_migrate(MigrateTarget target, CompletionToken&& token) {
  return started<bool>(token, &detail::reply_migrated, &start_migrate, std::move(target), false);
}

template <class CompletionToken>
auto Object::async_copy_to(MigrateTarget target, CompletionToken&& token) const {
  return started<bool>(token, &detail::reply_migrated, &start_migrate, std::move(target), true);
}

template <class CompletionToken>
auto Object::async_add_listener(ObjectEvent event, KeyListener listener,
                                CompletionToken&& token) const {
  return run<ListenerId>(token, &start_listen, event, std::move(listener));
}

template <class CompletionToken>
auto Object::async_remove_listener(ListenerId id, CompletionToken&& token) const {
  return run<bool>(token, &start_unlisten, id);
}

}  // namespace redisson
