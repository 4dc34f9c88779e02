// CronSchedule: Quartz cron expressions, as Java Redisson's CronSchedule reads them
// (org.redisson.executor.CronExpression is Quartz's CronExpression), so that a task scheduled
// with one expression runs at the same instants from a C++ or a Java executor. Our own code,
// written from Quartz's semantics:
//   - the parser turns each field into the set of values it allows (bitsets), plus the day rules
//     Quartz keeps beside the sets (L, L-n, LW, nW in the day of month; nL, n#k in the day of
//     week);
//   - the search walks calendar days forward from `after` in the schedule's zone (skipping
//     whole years and months that cannot match) and takes the first matching time of day on the
//     first matching day. It stops after 2099, so it always ends.
// Checked against Quartz itself (Redisson 3.52's CronExpression run in Java on ~2,400
// expression/zone/instant cases, New York's daylight saving changes included): same instants.
// Where Quartz accepts input by accident we refuse it: L/W/# items inside a list (Quartz keeps one
// rule for the whole field), names longer than three letters (Quartz reads MONDAY as MON), step 0,
// steps beyond Quartz's limits after a start value (0/60; Quartz checks them only after `*`),
// empty list items, years outside 1970-2099. A day rule naming a day the month lacks (31W in
// April, L-30W in a 30-day month) matches nothing in that month (Quartz loops forever on L-30W).
#include "redisson/services/cron_schedule.hpp"

#include <algorithm>
#include <array>
#include <cctype>
#include <charconv>
#include <chrono>
#include <cstdlib>
#include <ctime>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "redisson/error.hpp"

namespace redisson {
namespace {
namespace cron_parse {

using detail::CronFields;

/// What is wrong with an expression; CronSchedule::of adds the expression to it.
struct Bad {
  std::string what;
};

enum class Field { second, minute, hour, day_of_month, month, day_of_week, year };

struct FieldSpec {
  std::string_view name;
  int min;
  int max;
  int max_step;  // Quartz refuses larger increments
};

constexpr std::array<FieldSpec, 7> kFieldSpecs{{
    {"second", 0, 59, 59},
    {"minute", 0, 59, 59},
    {"hour", 0, 23, 23},
    {"day-of-month", 1, 31, 31},
    {"month", 1, 12, 12},
    {"day-of-week", 1, 7, 7},
    {"year", 1970, 2099, 129},
}};

constexpr std::array<std::string_view, 12> kMonthNames{"JAN", "FEB", "MAR", "APR", "MAY", "JUN",
                                                       "JUL", "AUG", "SEP", "OCT", "NOV", "DEC"};
constexpr std::array<std::string_view, 7> kDayNames{"SUN", "MON", "TUE", "WED",
                                                    "THU", "FRI", "SAT"};

const FieldSpec& spec(Field field) { return kFieldSpecs[static_cast<std::size_t>(field)]; }

std::string quoted(std::string_view text) { return "'" + std::string(text) + "'"; }

std::optional<int> parse_number(std::string_view text) {
  int value = 0;
  if (text.empty() || text.size() > 9) return std::nullopt;
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (ec != std::errc{} || end != text.data() + text.size()) return std::nullopt;
  return value;
}

/// A number, or in the month and day-of-week fields a three-letter name; within the field's range.
int parse_value(std::string_view text, Field field) {
  const FieldSpec& s = spec(field);
  if (text.empty()) throw Bad{"a " + std::string(s.name) + " value is missing"};
  std::optional<int> value = parse_number(text);
  if (!value && field == Field::month) {
    auto it = std::find(kMonthNames.begin(), kMonthNames.end(), text);
    if (it != kMonthNames.end()) value = static_cast<int>(it - kMonthNames.begin()) + 1;
  } else if (!value && field == Field::day_of_week) {
    auto it = std::find(kDayNames.begin(), kDayNames.end(), text);
    if (it != kDayNames.end()) value = static_cast<int>(it - kDayNames.begin()) + 1;
  }
  if (!value) throw Bad{quoted(text) + " is not a " + std::string(s.name) + " value"};
  if (*value < s.min || *value > s.max) {
    throw Bad{std::string(s.name) + " value " + quoted(text) + " is not in " +
              std::to_string(s.min) + "-" + std::to_string(s.max)};
  }
  return *value;
}

int parse_step(std::string_view text, Field field) {
  const FieldSpec& s = spec(field);
  std::optional<int> step = parse_number(text);
  if (!step) throw Bad{"'/' must be followed by a number, not " + quoted(text)};
  if (*step < 1 || *step > s.max_step) {
    throw Bad{std::string(s.name) + " step " + quoted(text) + " is not in 1-" +
              std::to_string(s.max_step)};
  }
  return *step;
}

/// One list item without L/W/#: `*`, `v`, `a-b`, each optionally `/step` (`/n` alone is `*/n`).
/// A range whose end is before its start wraps past the field's maximum (FRI-MON, 22-2), as in
/// Quartz; years do not wrap.
template <std::size_t N>
void add_item(std::string_view item, Field field, std::bitset<N>& set) {
  const FieldSpec& s = spec(field);
  std::string_view base = item;
  int step = 0;
  if (auto slash = item.find('/'); slash != std::string_view::npos) {
    base = item.substr(0, slash);
    step = parse_step(item.substr(slash + 1), field);
  }
  int first = s.min;
  int last = s.max;
  if (base.empty() && step == 0) throw Bad{"an empty " + std::string(s.name) + " value"};
  if (!base.empty() && base != "*") {
    if (auto dash = base.find('-'); dash != std::string_view::npos) {
      first = parse_value(base.substr(0, dash), field);
      last = parse_value(base.substr(dash + 1), field);
    } else {
      first = parse_value(base, field);
      last = step == 0 ? first : s.max;  // `a/n` runs from a to the maximum
    }
  }
  if (step == 0) step = 1;
  const int span = s.max - s.min + 1;
  if (last < first) {
    if (field == Field::year) throw Bad{"year range " + quoted(base) + " ends before it starts"};
    last += span;
  }
  for (int i = first; i <= last; i += step) {
    const int value = s.min + (i - s.min) % span;
    set.set(static_cast<std::size_t>(value - (field == Field::year ? s.min : 0)));
  }
}

template <std::size_t N>
void parse_list(std::string_view text, Field field, std::bitset<N>& set) {
  std::size_t begin = 0;
  while (true) {
    const std::size_t comma = text.find(',', begin);
    add_item(text.substr(begin,
                         comma == std::string_view::npos ? std::string_view::npos : comma - begin),
             field, set);
    if (comma == std::string_view::npos) return;
    begin = comma + 1;
  }
}

/// L, L-n, LW, L-nW, nW (alone in the field), else a list.
void parse_day_of_month(std::string_view text, CronFields& fields) {
  using Rule = CronFields::DayOfMonthRule;
  const bool special = text.find_first_of("LW") != std::string_view::npos;
  if (special && text.find(',') != std::string_view::npos) {
    throw Bad{"'L' and 'W' cannot be combined with other days of the month"};
  }
  if (text.starts_with('L')) {
    std::string_view rest = text.substr(1);
    fields.day_of_month_rule = Rule::last;
    if (rest.ends_with('W')) {
      fields.day_of_month_rule = Rule::last_weekday;
      rest.remove_suffix(1);
    }
    if (!rest.empty()) {
      std::optional<int> offset =
          rest.starts_with('-') ? parse_number(rest.substr(1)) : std::nullopt;
      if (!offset || *offset > 30) {
        throw Bad{"after 'L' expected -n (n up to 30) or W, not " + quoted(rest)};
      }
      fields.last_offset = *offset;
    }
  } else if (text.ends_with('W')) {
    std::string_view day = text.substr(0, text.size() - 1);
    if (!parse_number(day)) throw Bad{"'W' must follow one day of the month, not " + quoted(day)};
    fields.day_of_month_rule = Rule::nearest_weekday;
    fields.weekday_day = parse_value(day, Field::day_of_month);
  } else {
    parse_list(text, Field::day_of_month, fields.days_of_month);
  }
}

/// L (Saturday), nL, n#k (alone in the field), else a list.
void parse_day_of_week(std::string_view text, CronFields& fields) {
  using Rule = CronFields::DayOfWeekRule;
  const bool special = text.find_first_of("L#") != std::string_view::npos;  // no name has L
  if (special && text.find(',') != std::string_view::npos) {
    throw Bad{"'L' and '#' cannot be combined with other days of the week"};
  }
  if (text == "L") {
    fields.days_of_week.set(7);  // Quartz: L alone in the day of week is 7, Saturday
  } else if (text.ends_with('L')) {
    fields.day_of_week_rule = Rule::last;
    fields.day_of_week = parse_value(text.substr(0, text.size() - 1), Field::day_of_week);
  } else if (auto hash = text.find('#'); hash != std::string_view::npos) {
    fields.day_of_week_rule = Rule::nth;
    fields.day_of_week = parse_value(text.substr(0, hash), Field::day_of_week);
    std::optional<int> nth = parse_number(text.substr(hash + 1));
    if (!nth || *nth < 1 || *nth > 5) {
      throw Bad{"'#' must be followed by a number in 1-5, not " + quoted(text.substr(hash + 1))};
    }
    fields.nth = *nth;
  } else {
    parse_list(text, Field::day_of_week, fields.days_of_week);
  }
}

CronFields parse(std::string_view expression) {
  std::vector<std::string> tokens;
  std::string token;
  for (char c : expression) {
    if (c == ' ' || c == '\t') {
      if (!token.empty()) tokens.push_back(std::move(token));
      token.clear();
    } else {
      token += static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
    }
  }
  if (!token.empty()) tokens.push_back(std::move(token));
  if (tokens.size() != 6 && tokens.size() != 7) {
    throw Bad{
        "expected 6 or 7 fields (second minute hour day-of-month month day-of-week [year]), "
        "got " +
        std::to_string(tokens.size())};
  }
  for (const std::string& field : tokens) {
    if (field != "?" && field.find('?') != std::string::npos) {
      throw Bad{"'?' must stand alone in the day-of-month or day-of-week field"};
    }
  }
  for (std::size_t i : {0U, 1U, 2U, 4U, 6U}) {
    if (i < tokens.size() && tokens[i] == "?") {
      throw Bad{"'?' is only for the day-of-month or day-of-week field"};
    }
  }
  const bool day_of_month_any = tokens[3] == "?";
  const bool day_of_week_any = tokens[5] == "?";
  CronFields fields;
  parse_list(tokens[0], Field::second, fields.seconds);
  parse_list(tokens[1], Field::minute, fields.minutes);
  parse_list(tokens[2], Field::hour, fields.hours);
  if (day_of_month_any) {
    fields.day_of_month_rule = CronFields::DayOfMonthRule::any;
  } else {
    parse_day_of_month(tokens[3], fields);
  }
  parse_list(tokens[4], Field::month, fields.months);
  if (day_of_week_any) {
    fields.day_of_week_rule = CronFields::DayOfWeekRule::any;
  } else {
    parse_day_of_week(tokens[5], fields);
  }
  parse_list(tokens.size() == 7 ? std::string_view(tokens[6]) : "*", Field::year, fields.years);
  // Checked last, as Quartz does, so that a typo in a field is reported as such.
  if (day_of_month_any && day_of_week_any) {
    throw Bad{"day-of-month and day-of-week cannot both be '?'"};
  }
  if (!day_of_month_any && !day_of_week_any) {
    throw Bad{"one of day-of-month and day-of-week must be '?' (Quartz does not support both)"};
  }
  return fields;
}

std::string upper(std::string_view text) {
  std::string out(text);
  for (char& c : out) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  return out;
}

}  // namespace cron_parse

namespace cron_search {

using detail::CronFields;
using std::chrono::sys_days;
using std::chrono::sys_seconds;
using std::chrono::year_month_day;

constexpr int kFirstYear = 1970;
constexpr int kLastYear = 2099;
constexpr int kSecondsPerDay = 86400;

/// A wall-clock time in the schedule's zone.
struct Wall {
  year_month_day date;
  int second_of_day = 0;
};

int last_day_of_month(const year_month_day& date) {
  return static_cast<int>(
      static_cast<unsigned>((date.year() / date.month() / std::chrono::last).day()));
}

/// Quartz numbering: 1 = Sunday ... 7 = Saturday.
int day_of_week(const year_month_day& date) {
  return static_cast<int>(std::chrono::weekday(sys_days(date)).c_encoding()) + 1;
}

/// Quartz's W: the weekday nearest to `day` in the same month. A Saturday moves to the Friday
/// before it (to Monday the 3rd when it is the 1st), a Sunday to the Monday after it (to the
/// Friday before when it is the month's last day).
int nearest_weekday(const year_month_day& month, int day) {
  const int weekday = day_of_week(month.year() / month.month() / day);
  if (weekday == 7) return day == 1 ? 3 : day - 1;
  if (weekday == 1) return day == last_day_of_month(month) ? day - 2 : day + 1;
  return day;
}

bool day_matches(const CronFields& f, const year_month_day& date) {
  using DomRule = CronFields::DayOfMonthRule;
  using DowRule = CronFields::DayOfWeekRule;
  const int day = static_cast<int>(static_cast<unsigned>(date.day()));
  const int last = last_day_of_month(date);
  bool by_month = true;
  switch (f.day_of_month_rule) {
    case DomRule::listed:
      by_month = f.days_of_month.test(static_cast<std::size_t>(day));
      break;
    case DomRule::last:
      by_month = day == last - f.last_offset;
      break;
    case DomRule::last_weekday:
      by_month = last - f.last_offset >= 1 && day == nearest_weekday(date, last - f.last_offset);
      break;
    case DomRule::nearest_weekday:
      by_month = f.weekday_day <= last && day == nearest_weekday(date, f.weekday_day);
      break;
    case DomRule::any:
      break;
  }
  const int weekday = day_of_week(date);
  bool by_week = true;
  switch (f.day_of_week_rule) {
    case DowRule::listed:
      by_week = f.days_of_week.test(static_cast<std::size_t>(weekday));
      break;
    case DowRule::last:
      by_week = weekday == f.day_of_week && day + 7 > last;
      break;
    case DowRule::nth:
      by_week = weekday == f.day_of_week && (day - 1) / 7 + 1 == f.nth;
      break;
    case DowRule::any:
      break;
  }
  return by_month && by_week;
}

/// The first second of the day at or after `from` that the time fields allow.
std::optional<int> time_of_day_at_or_after(const CronFields& f, int from) {
  const int from_hour = from / 3600;
  const int from_minute = from / 60 % 60;
  for (int hour = from_hour; hour < 24; ++hour) {
    if (!f.hours.test(static_cast<std::size_t>(hour))) continue;
    for (int minute = hour == from_hour ? from_minute : 0; minute < 60; ++minute) {
      if (!f.minutes.test(static_cast<std::size_t>(minute))) continue;
      const bool same = hour == from_hour && minute == from_minute;
      for (int second = same ? from % 60 : 0; second < 60; ++second) {
        if (f.seconds.test(static_cast<std::size_t>(second)))
          return hour * 3600 + minute * 60 + second;
      }
    }
  }
  return std::nullopt;
}

std::optional<Wall> to_wall(const CronZone& zone, sys_seconds instant) {
  if (!zone.is_local()) {
    const sys_seconds wall = instant + zone.offset();
    const sys_days date = std::chrono::floor<std::chrono::days>(wall);
    return Wall{year_month_day(date), static_cast<int>((wall - date).count())};
  }
  const std::time_t t = static_cast<std::time_t>(instant.time_since_epoch().count());
  std::tm tm{};
  if (localtime_r(&t, &tm) == nullptr) return std::nullopt;
  const year_month_day date{std::chrono::year(tm.tm_year + 1900),
                            std::chrono::month(static_cast<unsigned>(tm.tm_mon + 1)),
                            std::chrono::day(static_cast<unsigned>(tm.tm_mday))};
  // A leap second (tm_sec 60) reads as the last second of its minute.
  return Wall{date, tm.tm_hour * 3600 + tm.tm_min * 60 + std::min(tm.tm_sec, 59)};
}

/// The instant of a wall-clock time; nullopt when the zone skips it (a daylight saving gap, as
/// Quartz skips it). In local(), a wall time the zone repeats (the hour after daylight saving
/// ends) gives its second, later instant: Java's calendar reads a repeated wall time as standard
/// time, so Quartz runs such a time once, in the second pass, and skips the first pass; doing the
/// same keeps a C++ and a Java executor in step. mktime is asked with each daylight saving hint,
/// a result counts only if localtime_r reads it back as the same wall time, and the latest wins.
std::optional<sys_seconds> to_instant(const CronZone& zone, const Wall& wall) {
  if (!zone.is_local()) {
    return sys_seconds(sys_days(wall.date)) + std::chrono::seconds(wall.second_of_day) -
           zone.offset();
  }
  std::tm want{};
  want.tm_year = static_cast<int>(wall.date.year()) - 1900;
  want.tm_mon = static_cast<int>(static_cast<unsigned>(wall.date.month())) - 1;
  want.tm_mday = static_cast<int>(static_cast<unsigned>(wall.date.day()));
  want.tm_hour = wall.second_of_day / 3600;
  want.tm_min = wall.second_of_day / 60 % 60;
  want.tm_sec = wall.second_of_day % 60;
  std::optional<std::time_t> latest;
  for (int dst_hint : {0, 1, -1}) {
    std::tm tm = want;
    tm.tm_isdst = dst_hint;
    const std::time_t t = std::mktime(&tm);
    std::tm back{};
    if (localtime_r(&t, &back) == nullptr) continue;
    if (back.tm_year != want.tm_year || back.tm_mon != want.tm_mon ||
        back.tm_mday != want.tm_mday || back.tm_hour != want.tm_hour ||
        back.tm_min != want.tm_min || back.tm_sec != want.tm_sec) {
      continue;
    }
    if (!latest || t > *latest) latest = t;
  }
  if (!latest) return std::nullopt;
  return sys_seconds(std::chrono::seconds(*latest));
}

std::optional<sys_seconds> next_at_or_after(const CronFields& f, const CronZone& zone,
                                            sys_seconds start) {
  const std::optional<Wall> start_wall = to_wall(zone, start);
  if (!start_wall) return std::nullopt;
  year_month_day date = start_wall->date;
  int from = start_wall->second_of_day;
  const auto next_month = [&] {
    date = year_month_day(date.year() / date.month() / 1) + std::chrono::months(1);
    from = 0;
  };
  // Each turn moves `date` or `from` forward, and the year is bounded: the loop ends.
  while (true) {
    const int year = static_cast<int>(date.year());
    if (year > kLastYear) return std::nullopt;
    if (year < kFirstYear || !f.years.test(static_cast<std::size_t>(year - kFirstYear))) {
      date = std::chrono::year(std::max(year + 1, kFirstYear)) / std::chrono::January / 1;
      from = 0;
      continue;
    }
    if (!f.months.test(static_cast<unsigned>(date.month()))) {
      next_month();
      continue;
    }
    std::optional<int> second_of_day;
    if (day_matches(f, date)) second_of_day = time_of_day_at_or_after(f, from);
    if (!second_of_day) {
      date = year_month_day(sys_days(date) + std::chrono::days(1));
      from = 0;
      continue;
    }
    const std::optional<sys_seconds> instant = to_instant(zone, Wall{date, *second_of_day});
    if (instant && *instant >= start) return instant;
    from = *second_of_day + 1;  // skipped (a gap)
    if (from == kSecondsPerDay) {
      date = year_month_day(sys_days(date) + std::chrono::days(1));
      from = 0;
    }
  }
}

}  // namespace cron_search
}  // namespace

CronZone CronZone::local() { return CronZone(true, std::chrono::minutes(0)); }

CronZone CronZone::utc() { return CronZone(false, std::chrono::minutes(0)); }

CronZone CronZone::fixed(std::chrono::minutes offset) {
  if (offset > std::chrono::hours(18) || offset < -std::chrono::hours(18)) {
    throw error(errc::invalid_argument, "cron zone offset of " + std::to_string(offset.count()) +
                                            " minutes is beyond +-18:00");
  }
  return CronZone(false, offset);
}

std::string CronZone::name() const {
  if (local_) return "local";
  if (offset_.count() == 0) return "UTC";
  const int minutes = static_cast<int>(std::abs(offset_.count()));
  std::string out = offset_.count() < 0 ? "-" : "+";
  out += static_cast<char>('0' + minutes / 60 / 10);
  out += static_cast<char>('0' + minutes / 60 % 10);
  out += ':';
  out += static_cast<char>('0' + minutes % 60 / 10);
  out += static_cast<char>('0' + minutes % 60 % 10);
  return out;
}

CronZone CronZone::parse(std::string_view name) {
  if (name == "local") return local();
  if (name == "UTC") return utc();
  const auto digit = [&](std::size_t i) {
    return std::isdigit(static_cast<unsigned char>(name[i])) != 0;
  };
  if (name.size() == 6 && (name[0] == '+' || name[0] == '-') && digit(1) && digit(2) &&
      name[3] == ':' && digit(4) && digit(5)) {
    const int hours = (name[1] - '0') * 10 + (name[2] - '0');
    const int minutes = (name[4] - '0') * 10 + (name[5] - '0');
    if (minutes < 60 && hours * 60 + minutes <= 18 * 60) {
      const std::chrono::minutes offset(hours * 60 + minutes);
      return fixed(name[0] == '-' ? -offset : offset);
    }
  }
  throw error(errc::invalid_argument, "cron zone '" + std::string(name) +
                                          "': expected \"local\", \"UTC\", +hh:mm or -hh:mm");
}

CronSchedule CronSchedule::of(std::string_view expression, CronZone zone) {
  try {
    return CronSchedule(cron_parse::upper(expression), zone, cron_parse::parse(expression));
  } catch (const cron_parse::Bad& bad) {
    throw error(errc::invalid_argument,
                "cron expression '" + std::string(expression) + "': " + bad.what);
  }
}

CronSchedule CronSchedule::daily_at_hour_and_minute(int hour, int minute, CronZone zone) {
  return of("0 " + std::to_string(minute) + " " + std::to_string(hour) + " ? * *", zone);
}

CronSchedule CronSchedule::weekly_on_day_and_hour_and_minute(int hour, int minute,
                                                             const std::vector<int>& days_of_week,
                                                             CronZone zone) {
  if (days_of_week.empty()) {
    throw error(errc::invalid_argument,
                "cron schedule: weekly_on_day_and_hour_and_minute needs at least one day of week");
  }
  std::string days;
  for (int day : days_of_week) {
    if (!days.empty()) days += ',';
    days += std::to_string(day);
  }
  return of("0 " + std::to_string(minute) + " " + std::to_string(hour) + " ? * " + days, zone);
}

CronSchedule CronSchedule::monthly_on_day_and_hour_and_minute(int day_of_month, int hour,
                                                              int minute, CronZone zone) {
  return of("0 " + std::to_string(minute) + " " + std::to_string(hour) + " " +
                std::to_string(day_of_month) + " * ?",
            zone);
}

std::optional<std::chrono::system_clock::time_point> CronSchedule::next_after(
    std::chrono::system_clock::time_point after) const {
  // Quartz: one second later, then the fraction dropped (floor, also before 1970).
  const std::chrono::sys_seconds start =
      std::chrono::floor<std::chrono::seconds>(after) + std::chrono::seconds(1);
  std::optional<std::chrono::sys_seconds> next =
      cron_search::next_at_or_after(fields_, zone_, start);
  if (!next) return std::nullopt;
  return std::chrono::time_point_cast<std::chrono::system_clock::duration>(*next);
}

}  // namespace redisson
