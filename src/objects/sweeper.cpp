#include "objects/sweeper.hpp"

#include <asio/post.hpp>
#include <asio/steady_timer.hpp>
#include <string>
#include <utility>

#include "client/client_core.hpp"
#include "objects/eviction_schedule.hpp"

namespace redisson::detail {

namespace {

class Sweeper {
 public:
  Sweeper(const std::shared_ptr<ClientCore>& core, SweepStep step);
  ~Sweeper();
  Sweeper(const Sweeper&) = delete;
  Sweeper& operator=(const Sweeper&) = delete;

 private:
  class State;
  std::shared_ptr<ClientCore> core_;
  std::shared_ptr<State> state_;
};

class Sweeper::State : public std::enable_shared_from_this<State> {
 public:
  State(ClientCore& core, SweepStep step)
      : step_(std::move(step)), schedule_(core.config().eviction), timer_(core.io()) {}

  // I/O thread.
  void arm() {
    if (stopped_) return;
    timer_.expires_after(schedule_.delay());
    timer_.async_wait([weak = weak_from_this()](std::error_code ec) {
      const auto self = weak.lock();
      if (!ec && self) self->run();
    });
  }

  // I/O thread.
  void stop() {
    stopped_ = true;
    timer_.cancel();
  }

 private:
  void run() {
    if (stopped_) return;
    step_(schedule_.keys_limit(), schedule_.latch_seconds(),
          [self = shared_from_this()](const Status& status, const Reply& reply) {
            if (!status && reply.is_integer()) self->schedule_.record(reply.integer);
            self->arm();
          });
  }

  SweepStep step_;
  EvictionSchedule schedule_;
  asio::steady_timer timer_;
  bool stopped_ = false;
};

Sweeper::Sweeper(const std::shared_ptr<ClientCore>& core, SweepStep step)
    : core_(core), state_(std::make_shared<State>(*core, std::move(step))) {
  core->run_on_io([state = state_] { state->arm(); });
}

Sweeper::~Sweeper() {
  // The state lives on in the handlers that hold it until they see it stopped.
  core_->run_on_io([state = std::move(state_)] { state->stop(); });
}

}  // namespace

std::shared_ptr<void> sweeper_of(const ObjectPtr& object, const char* kind, SweepStep step) {
  const auto& core = object->core;
  if (!core->config().eviction.enabled) return nullptr;
  return core->shared_task(
      std::string("sweeper:") + kind + ":" + object->name,
      [&]() -> std::shared_ptr<void> { return std::make_shared<Sweeper>(core, std::move(step)); });
}

}  // namespace redisson::detail
