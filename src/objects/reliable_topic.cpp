// The reliable topic's operations: publish and count_subscribers are scripts; the listeners'
// run on the I/O thread, where the client's reliable topic subscribers live
// (pubsub/reliable_topics.hpp).
#include "redisson/objects/reliable_topic.hpp"

#include <asio/post.hpp>

#include "client/client_core.hpp"
#include "lua_scripts.hpp"
#include "objects/send.hpp"
#include "pubsub/reliable_topics.hpp"

namespace redisson::detail {

namespace {
// Runs `work(subscribers, done)` on the I/O thread; `done` fails with errc::shutdown once the
// client is shutting down (work posted then may never run).
template <class R, class Work>
void on_reliable_topics(const ObjectPtr& topic, Done<R> done, Work work) {
  const auto& core = topic->core;
  if (topic->batch) return fail<R>(done, batch_refusal("a reliable topic's listeners"));
  if (core->stopping()) return fail<R>(done, Status(errc::shutdown));
  asio::post(core->io(), [core, done = std::move(done), work = std::move(work)]() mutable {
    work(core->service<ReliableTopics>(), std::move(done));
  });
}
}  // namespace

void start_reliable_listen(const ObjectPtr& topic, const std::string& subscriber,
                           TopicCallbacks callbacks, Done<ListenerId> done) {
  on_reliable_topics<ListenerId>(
      topic, std::move(done),
      [name = topic->name, subscriber, callbacks = std::move(callbacks)](
          ReliableTopics& topics, Done<ListenerId> done) mutable {
        topics.add(name, subscriber, std::move(callbacks),
                   [done = std::move(done)](std::error_code ec, std::uint64_t id) mutable {
                     done(ec, id);
                   });
      });
}

void start_reliable_remove(const ObjectPtr& topic, ListenerId id, Done<bool> done) {
  on_reliable_topics<bool>(topic, std::move(done), [id](ReliableTopics& topics, Done<bool> done) {
    topics.remove(id, [done = std::move(done)](std::error_code ec, bool removed) mutable {
      done(ec, removed);
    });
  });
}

void start_reliable_remove_all(const ObjectPtr& topic, Done<std::int64_t> done) {
  on_reliable_topics<std::int64_t>(
      topic, std::move(done),
      [name = topic->name](ReliableTopics& topics, Done<std::int64_t> done) {
        topics.remove_all(
            name, [done = std::move(done)](std::error_code ec, std::int64_t removed) mutable {
              done(ec, removed);
            });
      });
}

void start_reliable_count_listeners(const ObjectPtr& topic, Done<std::int64_t> done) {
  on_reliable_topics<std::int64_t>(
      topic, std::move(done),
      [name = topic->name](ReliableTopics& topics, Done<std::int64_t> done) {
        done(Status{}, topics.count(name));
      });
}

void start_reliable_publish(const ObjectPtr& topic, const std::string& payload, Done<Reply>& done) {
  eval_reply(*topic, lua::reliable_topic_publish({topic->name}, {payload}), std::move(done));
}

void start_reliable_count_subscribers(const ObjectPtr& topic, Done<Reply>& done) {
  eval_reply(*topic, lua::reliable_topic_count_subscribers({topic->name}, {}), std::move(done));
}

}  // namespace redisson::detail
