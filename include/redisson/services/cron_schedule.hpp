// redisson::CronSchedule: Java Redisson's CronSchedule, a Quartz cron expression
// (org.redisson.executor.CronExpression) read in a zone. Pure computation: it parses the
// expression once and answers "when is the next run after T" with no clock of its own and no I/O.
//
//   auto schedule = redisson::CronSchedule::of("0 15 10 ? * MON-FRI", redisson::CronZone::utc());
//   auto next = schedule.next_after(std::chrono::system_clock::now());  // 10:15:00 UTC, weekdays
#pragma once

#include <bitset>
#include <chrono>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace redisson {

namespace detail {
/// A parsed cron expression (CronSchedule's; users never name it).
struct CronFields {
  enum class DayOfMonthRule : std::uint8_t {
    listed,           ///< days in days_of_month
    last,             ///< L, L-n: the last day minus last_offset
    last_weekday,     ///< LW, L-nW: the weekday nearest to (last day - last_offset)
    nearest_weekday,  ///< nW: the weekday nearest to day `weekday_day`, in the same month
    any,              ///< `?`: the day of week decides
  };
  enum class DayOfWeekRule : std::uint8_t {
    listed,  ///< days in days_of_week
    last,    ///< nL: the last day `day_of_week` of the month
    nth,     ///< n#k: the k-th day `day_of_week` of the month
    any,     ///< `?`: the day of month decides
  };
  std::bitset<60> seconds;
  std::bitset<60> minutes;
  std::bitset<24> hours;
  std::bitset<32> days_of_month;  // 1..31
  std::bitset<13> months;         // 1..12
  std::bitset<8> days_of_week;    // 1..7, 1 = Sunday
  std::bitset<130> years;         // 1970 + i
  DayOfMonthRule day_of_month_rule = DayOfMonthRule::listed;
  DayOfWeekRule day_of_week_rule = DayOfWeekRule::listed;
  int last_offset = 0;  // L-n
  int weekday_day = 0;  // nW
  int day_of_week = 0;  // nL, n#k
  int nth = 0;          // n#k
};
}  // namespace detail

/// The zone a cron schedule's fields are read in: the machine's local zone (with its daylight
/// saving rules, through the C library), UTC, or a fixed offset from UTC.
class CronZone {
 public:
  /// The zone of the machine computing the time (localtime_r/mktime, so TZ when it is set).
  static CronZone local();
  static CronZone utc();
  /// A fixed offset east of UTC (+02:00 is fixed(120min)); |offset| <= 18h else
  /// errc::invalid_argument.
  static CronZone fixed(std::chrono::minutes offset);
  /// "local", "UTC", or "+hh:mm"/"-hh:mm" (fixed(0) is "UTC"); parse(name()) gives an equal zone.
  std::string name() const;
  /// Reads what name() writes; errc::invalid_argument on anything else.
  static CronZone parse(std::string_view name);
  friend bool operator==(const CronZone&, const CronZone&) = default;

  /// Whether this is local() (otherwise a fixed offset, UTC being offset 0).
  bool is_local() const noexcept { return local_; }
  /// The fixed offset east of UTC (0 for local()).
  std::chrono::minutes offset() const noexcept { return offset_; }

 private:
  CronZone(bool local, std::chrono::minutes offset) : local_(local), offset_(offset) {}
  bool local_ = false;
  std::chrono::minutes offset_{0};
};

/// A Quartz cron expression in a zone (Java Redisson's CronSchedule). Fields, separated by
/// spaces: "sec min hour day-of-month month day-of-week [year]", with Quartz's `* ? , - /`,
/// wrapping ranges (FRI-MON, 22-2), `L`, `L-n`, `LW`, `nW` in the day of month and `L`, `nL`,
/// `n#k` in the day of week (1 = Sunday ... 7 = Saturday). Exactly one of the two day fields is
/// `?`. Years run 1970-2099: next_after finds nothing later. Copyable and immutable, so any
/// thread may share one.
class CronSchedule {
 public:
  /// Quartz syntax: "sec min hour day-of-month month day-of-week [year]". Throws
  /// redisson::error(errc::invalid_argument, "cron expression '<expr>': <what is wrong>") on bad
  /// input.
  static CronSchedule of(std::string_view expression, CronZone zone = CronZone::local());
  /// "0 <minute> <hour> ? * *": every day at hour:minute.
  static CronSchedule daily_at_hour_and_minute(int hour, int minute,
                                               CronZone zone = CronZone::local());
  /// "0 <minute> <hour> ? * <days>": days_of_week are Quartz numbers, 1 = Sunday ... 7 = Saturday
  /// (at least one, else errc::invalid_argument).
  static CronSchedule weekly_on_day_and_hour_and_minute(int hour, int minute,
                                                        const std::vector<int>& days_of_week,
                                                        CronZone zone = CronZone::local());
  /// "0 <minute> <hour> <day_of_month> * ?": months without that day are skipped.
  static CronSchedule monthly_on_day_and_hour_and_minute(int day_of_month, int hour, int minute,
                                                         CronZone zone = CronZone::local());

  /// The expression as Quartz keeps it: upper-cased (Java's getCronExpression()).
  const std::string& expression() const noexcept { return expression_; }
  const CronZone& zone() const noexcept { return zone_; }

  /// The first instant strictly after `after` (whole seconds: the fraction of `after` is dropped
  /// first, as Quartz) that the expression matches; nullopt when there is none (e.g. only past
  /// years). In local(), a time of day that a daylight saving change skips is skipped, and one
  /// it repeats runs once, at its second occurrence (standard time), as Quartz in Java does.
  std::optional<std::chrono::system_clock::time_point> next_after(
      std::chrono::system_clock::time_point after) const;

 private:
  CronSchedule(std::string expression, CronZone zone, detail::CronFields fields)
      : expression_(std::move(expression)), zone_(zone), fields_(fields) {}
  std::string expression_;
  CronZone zone_;
  detail::CronFields fields_;
};

}  // namespace redisson
