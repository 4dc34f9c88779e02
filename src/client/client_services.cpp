#include "client/client_services.hpp"

namespace redisson::detail {

void ClientService::owner_exited(OwnerId) {}
void ClientService::topology_changed() {}
void ClientService::shutdown_started(bool) noexcept {}
void ClientService::closing() noexcept {}
void ClientService::stopped() noexcept {}

ClientServices::~ClientServices() {
  // A use() from a destructor below finds what is left the slow way.
  for (auto& made : fast_) made.store(nullptr, std::memory_order_relaxed);
  // Newest first: a service may use one made before it until it is gone.
  while (!services_.empty()) services_.pop_back();
}

std::size_t ClientServices::next_slot() noexcept {
  static std::atomic<std::size_t> next{0};
  return next.fetch_add(1, std::memory_order_relaxed);
}

ClientService* ClientServices::find_locked(Key key) const noexcept {
  for (const auto& [service_key, service] : services_) {
    if (service_key == key) return service.get();
  }
  return nullptr;
}

std::shared_ptr<ClientService> ClientServices::at(std::size_t index) const {
  std::lock_guard lock(mutex_);
  return services_[index].second;
}

std::size_t ClientServices::size() const {
  std::lock_guard lock(mutex_);
  return services_.size();
}

// By index, one service at a time: a hook runs without the lock (services are only ever added,
// at the end, so the indices below the first size stay), and nothing is allocated.
template <class Hook>
void ClientServices::each_newest_first(const Hook& hook) const {
  for (std::size_t index = size(); index > 0; --index) hook(*at(index - 1));
}

void ClientServices::owner_exited(OwnerId owner) {
  each_newest_first([owner](ClientService& service) { service.owner_exited(owner); });
}

void ClientServices::topology_changed() {
  each_newest_first([](ClientService& service) { service.topology_changed(); });
}

void ClientServices::shutdown_started(bool can_wait) noexcept {
  each_newest_first([can_wait](ClientService& service) { service.shutdown_started(can_wait); });
}

void ClientServices::closing() noexcept {
  each_newest_first([](ClientService& service) { service.closing(); });
}

void ClientServices::stopped() noexcept {
  each_newest_first([](ClientService& service) { service.stopped(); });
}

}  // namespace redisson::detail
