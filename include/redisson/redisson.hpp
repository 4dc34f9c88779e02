// Umbrella header: everything a user of redisson-cpp needs.
#pragma once

#include "redisson/client.hpp"
#include "redisson/command.hpp"
#include "redisson/config.hpp"
#include "redisson/count_down_latch.hpp"
#include "redisson/error.hpp"
#include "redisson/fair_lock.hpp"
#include "redisson/fenced_lock.hpp"
#include "redisson/lock.hpp"
#include "redisson/multi_lock.hpp"
#include "redisson/permit_expirable_semaphore.hpp"
#include "redisson/read_write_lock.hpp"
#include "redisson/red_lock.hpp"
#include "redisson/reply.hpp"
#include "redisson/script.hpp"
#include "redisson/semaphore.hpp"
#include "redisson/spin_lock.hpp"
