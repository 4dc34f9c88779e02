// A Lua script identified by its SHA-1, sent with EVALSHA (SCRIPT LOAD + retry on NOSCRIPT).
#pragma once

#include <memory>
#include <string>
#include <string_view>

namespace redisson {

/// A Lua script. Cheap to copy (shared, immutable); the SHA-1 is computed once.
class Script {
 public:
  explicit Script(std::string source);
  const std::string& source() const noexcept { return data_->source; }
  /// 40 lowercase hex characters, as SCRIPT LOAD returns.
  const std::string& sha1() const noexcept { return data_->sha1; }

 private:
  struct Data {
    std::string source;
    std::string sha1;
  };
  std::shared_ptr<const Data> data_;
};

}  // namespace redisson
