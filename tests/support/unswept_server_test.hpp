// The fixture of the expiring collections' tests (MapCache, SetCache, TimeSeries): a server and
// a Client whose sweeper is off, so that expired entries stay until the test removes them (the
// sweeper's own tests make clients that sweep), and the clock the scripts are given.
#pragma once

#include <chrono>
#include <cstdint>

#include "redisson/client.hpp"
#include "support/client_config.hpp"
#include "support/server_test.hpp"

namespace redisson::test {

class UnsweptServerTest : public ServerTest {
 protected:
  Client client{unswept_config_for(server)};

  /// Milliseconds since the epoch: the client's clock, which the scripts compare scores with.
  static std::int64_t now_ms() {
    return std::chrono::duration_cast<std::chrono::milliseconds>(
               std::chrono::system_clock::now().time_since_epoch())
        .count();
  }
};

}  // namespace redisson::test
