// Lock-shaped Lua scripts for the reference measurements: the same server-side work as the
// library's Lock acquire and unlock (PROTOCOL.md, "Lock"), written here so the benchmark can
// send them with plain EVALSHA (through redis-benchmark, or Client::execute) and so separate
// the scripts' own cost from the library's.
#pragma once

namespace redisson_bench {

/// KEYS[1] lock hash; ARGV[1] lease ms; ARGV[2] owner field. nil = acquired, else PTTL.
inline constexpr const char* kAcquireScript =
    "if redis.call('exists', KEYS[1]) == 0 or redis.call('hexists', KEYS[1], ARGV[2]) == 1 then "
    "redis.call('hincrby', KEYS[1], ARGV[2], 1); "
    "redis.call('pexpire', KEYS[1], ARGV[1]); "
    "return nil; end; "
    "return redis.call('pttl', KEYS[1]);";

/// KEYS[1] lock hash, KEYS[2] channel, KEYS[3] unlock latch; ARGV[1] message, ARGV[2] lease ms,
/// ARGV[3] owner field, ARGV[4] publish command, ARGV[5] latch ms. nil / 0 / 1 as Lock's unlock
/// on its first attempt (no latch read; src/sync/lua/lock_unlock.lua).
inline constexpr const char* kReleaseScript =
    "local holds = redis.call('hget', KEYS[1], ARGV[3]); "
    "if holds == false then return nil; end; "
    "if tonumber(holds) > 1 then "
    "redis.call('hincrby', KEYS[1], ARGV[3], -1); "
    "redis.call('pexpire', KEYS[1], ARGV[2]); "
    "redis.call('set', KEYS[3], 0, 'px', ARGV[5]); "
    "return 0; end; "
    "redis.call('del', KEYS[1]); "
    "redis.call(ARGV[4], KEYS[2], ARGV[1]); "
    "redis.call('set', KEYS[3], 1, 'px', ARGV[5]); "
    "return 1;";

}  // namespace redisson_bench
