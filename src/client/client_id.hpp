#pragma once

#include <string>

namespace redisson::detail {

/// A random (version 4) UUID in its 36-character text form: a client's identity in lock
/// owner fields, as Redisson's ConnectionManager id.
std::string make_client_id();

/// 32 lowercase hex characters from 16 random bytes: unlock request ids, permit ids.
std::string make_request_id();

/// 16 random bytes as they are (Redisson's generateIdArray): a rate limiter permit's tag.
std::string make_id_bytes();

/// Appends a new request id (as make_request_id) to `out`, e.g. after an unlock latch's prefix.
void append_request_id(std::string& out);

}  // namespace redisson::detail
