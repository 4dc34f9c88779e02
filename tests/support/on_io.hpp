// Runs a function on a client's I/O thread, where its private state lives (the release yield,
// the record of its own releases, the subscriber), and returns its result: for tests that look
// at or set that state.
#pragma once

#include <future>

#include "client/client_access.hpp"
#include "client/client_core.hpp"
#include "redisson/client.hpp"

namespace redisson::test {

template <class Fn>
auto on_io(const Client& client, Fn fn) {
  const auto& core = detail::ClientAccess::core(client);
  std::promise<decltype(fn(*core))> result;
  core->run_on_io([&] { result.set_value(fn(*core)); });
  return result.get_future().get();
}

}  // namespace redisson::test
