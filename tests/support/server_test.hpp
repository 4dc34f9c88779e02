// The fixture most object tests need: a throwaway redis-server of their own and a Client on it.
#pragma once

#include <gtest/gtest.h>

#include "redisson/client.hpp"
#include "support/client_config.hpp"
#include "support/redis_server.hpp"

namespace redisson::test {

class ServerTest : public ::testing::Test {
 protected:
  RedisServer server;
  Client client{config_for(server)};
};

}  // namespace redisson::test
