// The .cpp side of the object listeners (src/objects/object_listeners.cpp): what Object, the
// locks and Keys call from their add_listener / remove_listener templates.
#pragma once

#include <memory>
#include <string>

#include "redisson/detail/status.hpp"
#include "redisson/listener.hpp"

namespace redisson::detail {

class ClientCore;

/// Listens to `event` on the key `name` of an object of type `kind` (ObjectState::kind; "Keys"
/// with an empty name: every key): checks the event is one the type hears, makes sure the
/// server announces it (Config::keyspace_notifications), then subscribes its keyevent channel.
/// Completes with the listener's id once the server confirmed the subscription.
void start_object_listen(const std::shared_ptr<ClientCore>& core, const char* kind,
                         const std::string& name, ObjectEvent event, KeyListener listener,
                         Done<ListenerId> done);

/// Removes a listener of the client's registry (topic or object); false when not registered.
void start_listener_remove(const std::shared_ptr<ClientCore>& core, ListenerId id, Done<bool> done);

}  // namespace redisson::detail
