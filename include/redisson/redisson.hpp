// Umbrella header: everything a user of redisson-cpp needs.
#pragma once

#include "redisson/client.hpp"
#include "redisson/command.hpp"
#include "redisson/config.hpp"
#include "redisson/error.hpp"
#include "redisson/lock.hpp"
#include "redisson/reply.hpp"
#include "redisson/script.hpp"
