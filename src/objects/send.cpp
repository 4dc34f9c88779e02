#include "objects/send.hpp"

#include <mutex>

#include "net/reply_error.hpp"

namespace redisson::detail {
namespace {

struct Gather {
  std::mutex mutex;
  std::vector<Reply> replies;
  std::size_t pending = 0;
  Status failure;
  RepliesDone done;
};

}  // namespace

void eval_reply(const std::shared_ptr<ClientCore>& core, ScriptCall call, Done<Reply> done) {
  core->eval(std::move(call), [done = std::move(done)](std::error_code ec, Reply reply) mutable {
    // The status first: the order in which arguments are evaluated is unspecified.
    const Status status = status_of(ec, reply);
    done(status, std::move(reply));
  });
}

void submit_all(const std::shared_ptr<ClientCore>& core, std::vector<Command> commands,
                RepliesDone done) {
  if (commands.empty()) return done(Status{}, {});
  auto gather = std::make_shared<Gather>();
  gather->replies.resize(commands.size());
  gather->pending = commands.size();
  gather->done = std::move(done);
  for (std::size_t i = 0; i < commands.size(); ++i) {
    core->submit(commands[i], [gather, i](std::error_code ec, Reply reply) {
      RepliesDone finish;
      {
        std::lock_guard lock(gather->mutex);
        if (ec && !gather->failure) gather->failure = status_of(ec, reply);
        gather->replies[i] = std::move(reply);
        if (--gather->pending == 0) finish = std::move(gather->done);
      }
      if (finish) {
        if (gather->failure) return finish(std::move(gather->failure), {});
        finish(Status{}, std::move(gather->replies));
      }
    });
  }
}

}  // namespace redisson::detail
