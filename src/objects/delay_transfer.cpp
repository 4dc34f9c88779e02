#include "objects/delay_transfer.hpp"

#include <algorithm>
#include <asio/steady_timer.hpp>
#include <charconv>
#include <cstdint>
#include <optional>
#include <string_view>
#include <utility>

#include "client/client_core.hpp"
#include "client/wall_clock.hpp"
#include "lua_scripts.hpp"
#include "topology/router.hpp"

namespace redisson::detail {

namespace {

constexpr int kMovedPerRun = 100;  // Redisson's

std::optional<std::int64_t> parse_ms(std::string_view text) {
  std::int64_t value = 0;
  // A score may come back as "1795509755609" or, from a double, "1.795509755609e+12".
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (ec == std::errc{} && end == text.data() + text.size()) return value;
  try {
    return static_cast<std::int64_t>(std::stod(std::string(text)));
  } catch (const std::exception&) {
    return std::nullopt;
  }
}

}  // namespace

std::string delay_queue_list(const std::string& destination) {
  return "redisson_delay_queue:{" + destination + "}";
}
std::string delay_queue_timeouts(const std::string& destination) {
  return "redisson_delay_queue_timeout:{" + destination + "}";
}
std::string delay_queue_channel(const std::string& destination) {
  return "redisson_delay_queue_channel:{" + destination + "}";
}

class DelayTransfer::State : public std::enable_shared_from_this<State> {
 public:
  State(const std::shared_ptr<ClientCore>& core, std::string destination)
      : core_(*core),
        destination_(std::move(destination)),
        channel_(delay_queue_channel(destination_)),
        timer_(core->io()) {}

  // I/O thread.
  void start() {
    if (stopped_) return;
    std::weak_ptr<State> weak = weak_from_this();
    Listener listener;
    listener.on_message = [weak](std::string_view, std::string_view payload) {
      const auto self = weak.lock();
      const auto due = parse_ms(payload);
      if (self && due) self->arm_at(*due);
    };
    listener.on_resubscribed = [weak] {
      if (const auto self = weak.lock()) self->run();
    };
    listener_id_ = core_.subscriber().add(channel_, std::move(listener), [weak](std::error_code) {
      // Confirmed, or refused: either way the keys are looked at now.
      if (const auto self = weak.lock()) self->run();
    });
  }

  // I/O thread.
  void stop() {
    stopped_ = true;
    timer_.cancel();
    if (listener_id_ != 0) core_.subscriber().remove(listener_id_);
    listener_id_ = 0;
  }

 private:
  void run() {
    if (stopped_ || running_) return;
    running_ = true;
    armed_at_.reset();
    timer_.cancel();
    auto call = lua::delayed_queue_transfer(
        std::vector<std::string>{destination_, delay_queue_timeouts(destination_),
                                 delay_queue_list(destination_)},
        std::vector<std::string>{std::to_string(unix_time_ms()), std::to_string(kMovedPerRun)});
    core_.eval(std::move(call),
               [self = shared_from_this()](std::error_code ec, const Reply& reply) {
                 self->running_ = false;
                 if (self->stopped_) return;
                 if (ec) return self->arm_after(kRetry);
                 // A message about an element offered after the script read the zset: look again.
                 if (std::exchange(self->rerun_, false))
                   return self->arm_after(std::chrono::milliseconds{0});
                 if (reply.is_null()) return self->recheck_if_sharded();
                 const auto due = parse_ms(reply.text());
                 if (!due) return self->arm_after(kRetry);
                 self->arm_at(*due);
               });
  }

  /// Runs at `due` (epoch ms), unless an earlier run is already set.
  void arm_at(std::int64_t due) {
    if (stopped_) return;
    if (running_) {
      // The run under way answers the first due time itself; a message about an element that
      // arrived after it read the zset makes it run once more.
      rerun_ = true;
      return;
    }
    // Capped: a due time years ahead (any score a Java client wrote) would overflow the steady
    // clock's nanoseconds; the run at the cap finds nothing due and sets the next one.
    auto wait = std::chrono::milliseconds(
        std::clamp<std::int64_t>(due - unix_time_ms(), 0, kLongestWait.count()));
    if (core_.router().sharded_pubsub()) wait = std::min(wait, kShardedRecheck);
    arm_after(wait);
  }

  void recheck_if_sharded() {
    if (core_.router().sharded_pubsub()) arm_after(kShardedRecheck);
  }

  void arm_after(std::chrono::milliseconds wait) {
    const auto at = std::chrono::steady_clock::now() + wait;
    if (armed_at_ && *armed_at_ <= at) return;  // an earlier run is already set
    armed_at_ = at;
    timer_.expires_at(at);
    timer_.async_wait([weak = weak_from_this()](std::error_code ec) {
      const auto self = weak.lock();
      if (ec || !self) return;
      self->armed_at_.reset();
      self->run();
    });
  }

  // The state never outlives the core: it is held by the handle (which holds the core too) and
  // by handlers the core's io_context and connections own.
  ClientCore& core_;
  const std::string destination_;
  const std::string channel_;
  asio::steady_timer timer_;
  std::optional<std::chrono::steady_clock::time_point> armed_at_;
  std::uint64_t listener_id_ = 0;
  bool running_ = false;
  bool rerun_ = false;
  bool stopped_ = false;
};

DelayTransfer::DelayTransfer(const std::shared_ptr<ClientCore>& core, std::string destination)
    : core_(core), state_(std::make_shared<State>(core, std::move(destination))) {
  core->run_on_io([state = state_] { state->start(); });
}

DelayTransfer::~DelayTransfer() {
  // The state lives on in the handlers that hold it until they see it stopped.
  core_->run_on_io([state = std::move(state_)] { state->stop(); });
}

}  // namespace redisson::detail
