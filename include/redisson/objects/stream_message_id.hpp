// redisson::StreamMessageId: the id of a Redis stream entry ("<ms>-<seq>"), Java Redisson's
// StreamMessageId, with the special ids the stream commands take (`*`, `$`, `>`, `-`, `+`).
#pragma once

#include <compare>
#include <cstdint>
#include <string>
#include <string_view>

namespace redisson {

/// A stream entry id: milliseconds and a sequence number, written "<ms>-<seq>", or one of the
/// special ids a command takes in its place. Ids order as the stream does (by ms, then seq);
/// the special ones order after every plain id, in the order of Kind.
class StreamMessageId {
 public:
  enum class Kind : std::uint8_t {
    id,               ///< a plain "<ms>-<seq>"
    auto_generated,   ///< `*`: the server picks the next id (add)
    newest,           ///< `$`: only entries added after the call (read)
    never_delivered,  ///< `>`: entries no consumer of the group got yet (read_group)
    min,              ///< `-`: the smallest id (range)
    max,              ///< `+`: the largest id (range)
  };

  /// 0-0: before every entry (read from it: the whole stream).
  constexpr StreamMessageId() noexcept = default;
  constexpr StreamMessageId(std::uint64_t ms, std::uint64_t seq = 0) noexcept  // NOLINT
      : ms_(ms), seq_(seq) {}

  static constexpr StreamMessageId auto_generated() noexcept {
    return StreamMessageId(Kind::auto_generated);
  }
  static constexpr StreamMessageId newest() noexcept { return StreamMessageId(Kind::newest); }
  static constexpr StreamMessageId never_delivered() noexcept {
    return StreamMessageId(Kind::never_delivered);
  }
  static constexpr StreamMessageId min() noexcept { return StreamMessageId(Kind::min); }
  static constexpr StreamMessageId max() noexcept { return StreamMessageId(Kind::max); }

  /// "<ms>-<seq>", "<ms>" (seq 0), or one of `* $ > - +`; anything else is
  /// errc::invalid_argument.
  static StreamMessageId parse(std::string_view text);

  constexpr Kind kind() const noexcept { return kind_; }
  constexpr bool is_special() const noexcept { return kind_ != Kind::id; }
  constexpr std::uint64_t ms() const noexcept { return ms_; }
  constexpr std::uint64_t seq() const noexcept { return seq_; }

  /// The id as the server reads it: "<ms>-<seq>" or the special id's character.
  std::string to_string() const;

  friend constexpr bool operator==(const StreamMessageId&, const StreamMessageId&) = default;
  friend constexpr std::strong_ordering operator<=>(const StreamMessageId& a,
                                                    const StreamMessageId& b) noexcept {
    if (auto order = a.kind_ <=> b.kind_; std::is_neq(order)) return order;
    if (auto order = a.ms_ <=> b.ms_; std::is_neq(order)) return order;
    return a.seq_ <=> b.seq_;
  }

 private:
  constexpr explicit StreamMessageId(Kind kind) noexcept : kind_(kind) {}

  Kind kind_ = Kind::id;
  std::uint64_t ms_ = 0;
  std::uint64_t seq_ = 0;
};

}  // namespace redisson
