// The services the layers above the client add to it: the lock watchdog (watchdog/), the
// synchronizers' memory of their own releases (sync/) and of the releases to send again after a
// failover. As Asio's execution_context does with
// use_service, a ClientCore creates each service on its first use, by type, keeps it until the
// core is destroyed, and calls its lifecycle hooks without knowing its type; so the client layer
// includes nothing of the layers that build on it.
//
// Threading: use() may be called from any thread and creates a service once. Its constructor
// runs under the registry's lock and may use another service, which is then created first (and
// so stopped after it); it must not wait for another thread that uses a service. Hooks run
// outside the lock (a hook may wait for replies whose handlers use services), on each service
// that exists when the hook begins, newest first. Cost: a service that exists is found with one
// atomic load (a lock takes a few lookups per acquisition and release); only the first use of a
// type takes the mutex.
#pragma once

#include <array>
#include <atomic>
#include <cstddef>
#include <memory>
#include <mutex>
#include <type_traits>
#include <utility>
#include <vector>

#include "redisson/owner_id.hpp"

namespace redisson::detail {

class ClientCore;

/// A part of a client that a layer above it adds (ClientCore::service<T>()). Every hook does
/// nothing unless overridden. The shutdown hooks run once, in this order.
class ClientService {
 public:
  virtual ~ClientService() = default;
  ClientService(const ClientService&) = delete;
  ClientService& operator=(const ClientService&) = delete;

  /// The thread whose owner is `owner` exited (client/live_cores.hpp). I/O thread.
  virtual void owner_exited(OwnerId owner);
  /// The node serving some slots, or the master, changed (a failover, a resharding): commands go
  /// to the new one from now on. I/O thread.
  virtual void topology_changed();
  /// The client begins to shut down; its connections still carry commands. `can_wait`: this is
  /// not the I/O thread and that thread runs, so replies arrive while the hook waits for them.
  /// The thread that shuts the client down.
  virtual void shutdown_started(bool can_wait) noexcept;
  /// The connections close right after. I/O thread (the shutting-down thread when none runs).
  virtual void closing() noexcept;
  /// Every I/O thread has ended: nothing of the client runs any more. The shutting-down thread.
  virtual void stopped() noexcept;

 protected:
  ClientService() = default;
};

/// The services of one ClientCore, oldest first.
class ClientServices {
 public:
  ClientServices() = default;
  ClientServices(const ClientServices&) = delete;
  ClientServices& operator=(const ClientServices&) = delete;
  /// Destroys the services, newest first.
  ~ClientServices();

  /// The `Service` of this client, made on first use as `Service(core)`, or `Service()` when it
  /// takes no core. Any thread.
  template <class Service>
  Service& use(ClientCore& core);

  /// Runs the hook of the same name of every service, newest first.
  void owner_exited(OwnerId owner);
  void topology_changed();
  void shutdown_started(bool can_wait) noexcept;
  void closing() noexcept;
  void stopped() noexcept;

  /// Services made so far.
  std::size_t size() const;

 private:
  using Key = const void*;
  template <class Service>
  static Key key_of() noexcept {
    static constexpr char kKey = 0;  // one address per service type
    return &kKey;
  }
  // Each service type's place in fast_, given on its first use in the process. The library has
  // three service types; a type past kFastSlots is still found, under the mutex.
  static constexpr std::size_t kFastSlots = 8;
  static std::size_t next_slot() noexcept;
  template <class Service>
  static std::size_t slot_of() noexcept {
    static const std::size_t slot = next_slot();
    return slot;
  }
  ClientService* find_locked(Key key) const noexcept;
  std::shared_ptr<ClientService> at(std::size_t index) const;
  template <class Hook>
  void each_newest_first(const Hook& hook) const;

  mutable std::recursive_mutex mutex_;  // recursive: a service's constructor may use() another
  std::vector<std::pair<Key, std::shared_ptr<ClientService>>> services_;  // oldest first
  std::array<std::atomic<ClientService*>, kFastSlots> fast_{};  // by slot_of(); set once made
};

template <class Service>
Service& ClientServices::use(ClientCore& core) {
  static_assert(std::is_base_of_v<ClientService, Service>, "a service derives from ClientService");
  const std::size_t slot = slot_of<Service>();
  if (slot < kFastSlots) {
    if (auto* made = fast_[slot].load(std::memory_order_acquire))
      return static_cast<Service&>(*made);
  }
  const Key key = key_of<Service>();
  std::lock_guard lock(mutex_);
  if (auto* found = find_locked(key)) return static_cast<Service&>(*found);
  // Made by make_shared, so a service may hand out weak_from_this() to its handlers.
  std::shared_ptr<Service> made;
  if constexpr (std::is_constructible_v<Service, ClientCore&>) {
    made = std::make_shared<Service>(core);
  } else {
    made = std::make_shared<Service>();
  }
  auto& service = *made;
  services_.emplace_back(key, std::move(made));
  if (slot < kFastSlots) fast_[slot].store(&service, std::memory_order_release);
  return service;
}

}  // namespace redisson::detail
