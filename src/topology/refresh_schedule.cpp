#include "topology/refresh_schedule.hpp"

#include <asio/post.hpp>

namespace redisson::detail {

RefreshSchedule::RefreshSchedule(asio::io_context& io, std::chrono::milliseconds interval)
    : io_(io), timer_(io), interval_(interval) {}

void RefreshSchedule::request(std::weak_ptr<Router> router) {
  asio::post(io_, [router = std::move(router)] {
    if (auto self = router.lock()) self->refresh(nullptr);
  });
}

void RefreshSchedule::request_asking(std::weak_ptr<Router> router, ServerAddress first) {
  asio::post(io_, [router = std::move(router), first = std::move(first)] {
    if (auto self = router.lock()) self->refresh_asking(first, nullptr);
  });
}

void RefreshSchedule::start(std::weak_ptr<Router> router) {
  timer_.expires_after(interval_);
  timer_.async_wait([this, router = std::move(router)](std::error_code ec) {
    if (ec) return;
    // `this` belongs to the router: touched only while the router is alive.
    if (auto self = router.lock()) {
      self->refresh(nullptr);
      start(router);
    }
  });
}

void RefreshSchedule::cancel() { timer_.cancel(); }

}  // namespace redisson::detail
