#include "redisson/lock.hpp"

#include "client/client_access.hpp"
#include "sync/hash_lock_kind.hpp"

namespace redisson {

Lock::Lock(const Client& client, std::string name)
    : BasicLock(std::make_shared<detail::HashLockKind>(detail::ClientAccess::core(client),
                                                       std::move(name), /*reentrant=*/true,
                                                       /*waiters_take_turns=*/true)) {}

Lock::Lock(const Client& client, std::string name, NonReentrant)
    : BasicLock(std::make_shared<detail::HashLockKind>(detail::ClientAccess::core(client),
                                                       std::move(name), /*reentrant=*/false,
                                                       /*waiters_take_turns=*/true)) {}

}  // namespace redisson
