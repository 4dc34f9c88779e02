#include "redisson/detail/transactional_object.hpp"

namespace redisson::detail {

TransactionalObject::TransactionalObject(const Transaction& transaction, std::string name,
                                         CodecPtr codec, const char* kind, const ObjectHooks* hooks,
                                         const MapLayout* layout)
    : transaction_(transaction.state()),
      object_(make_object(transaction.client(), std::move(name), std::move(codec), kind, hooks)),
      layout_(layout) {}

TransactionalObject::TransactionalObject(const Transaction& transaction, CodecPtr codec)
    : transaction_(transaction.state()),
      object_(make_keyless(transaction.client(), std::move(codec))),
      layout_(nullptr) {}

}  // namespace redisson::detail
