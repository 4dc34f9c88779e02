// CronSchedule: Quartz cron expressions (Java Redisson's CronSchedule) at fixed instants, in UTC
// and fixed-offset zones; one test reads the local zone under a POSIX TZ rule set in the test
// (no tz database needed) for daylight saving gaps and repeats. Expected instants are what
// Quartz's CronExpression.getTimeAfter (Redisson 3.52's copy, run in Java) gives for the same
// expression, zone and instant, and the executor fixture's "0/5 * * * * ?" run times
// (tests/fixtures/redisson-3.52/services/cases.jsonl, case executor_kryo). Where Quartz accepts
// nonsense (W or # in a list, MONDAY read as MON, step 0, empty list items) we refuse it.
#include "redisson/services/cron_schedule.hpp"

#include <gtest/gtest.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "redisson/error.hpp"

namespace unit_services_cron_schedule_test {

namespace {

using redisson::CronSchedule;
using redisson::CronZone;
using Clock = std::chrono::system_clock;
using namespace std::chrono_literals;

/// "2026-11-27T10:00:03Z" or "2026-11-27T10:00:03.250Z" as an instant.
Clock::time_point at(const char* iso) {
  int y = 0, mo = 0, d = 0, h = 0, mi = 0, s = 0, ms = 0;
  const int n = std::sscanf(iso, "%d-%d-%dT%d:%d:%d.%dZ", &y, &mo, &d, &h, &mi, &s, &ms);
  EXPECT_GE(n, 6) << iso;
  const std::chrono::sys_days day = std::chrono::year(y) / mo / d;
  return day + std::chrono::hours(h) + std::chrono::minutes(mi) + std::chrono::seconds(s) +
         std::chrono::milliseconds(ms);
}

std::string iso(std::optional<Clock::time_point> t) {
  if (!t) return "none";
  const auto day = std::chrono::floor<std::chrono::days>(*t);
  const std::chrono::year_month_day ymd(day);
  const std::chrono::hh_mm_ss hms(std::chrono::floor<std::chrono::milliseconds>(*t - day));
  char out[40];
  std::snprintf(out, sizeof out, "%04d-%02u-%02uT%02d:%02d:%02d", static_cast<int>(ymd.year()),
                static_cast<unsigned>(ymd.month()), static_cast<unsigned>(ymd.day()),
                static_cast<int>(hms.hours().count()), static_cast<int>(hms.minutes().count()),
                static_cast<int>(hms.seconds().count()));
  std::string text = out;
  if (hms.subseconds().count() != 0) text += "." + std::to_string(hms.subseconds().count());
  return text + "Z";
}

/// The next run of `expression` (read in `zone`) after `after`, as ISO text.
std::string next(std::string_view expression, const char* after, CronZone zone = CronZone::utc()) {
  return iso(CronSchedule::of(expression, zone).next_after(at(after)));
}

/// The runs after `after`, each found from the one before.
std::vector<std::string> runs(std::string_view expression, const char* after, int count,
                              CronZone zone = CronZone::utc()) {
  const CronSchedule schedule = CronSchedule::of(expression, zone);
  std::vector<std::string> out;
  std::optional<Clock::time_point> t = at(after);
  for (int i = 0; i < count && t; ++i) {
    t = schedule.next_after(*t);
    out.push_back(iso(t));
  }
  return out;
}

using Runs = std::vector<std::string>;

TEST(CronSchedule, EveryFiveSecondsIsStrictlyAfter) {
  EXPECT_EQ(next("0/5 * * * * ?", "2026-11-27T10:00:03Z"), "2026-11-27T10:00:05Z");
  EXPECT_EQ(next("0/5 * * * * ?", "2026-11-27T10:00:05.000Z"), "2026-11-27T10:00:10Z");
  EXPECT_EQ(next("0/5 * * * * ?", "2026-11-27T23:59:55Z"), "2026-11-28T00:00:00Z");
}

TEST(CronSchedule, FractionOfAfterIsDroppedFirst) {
  EXPECT_EQ(next("0/5 * * * * ?", "2026-11-27T10:00:04.999Z"), "2026-11-27T10:00:05Z");
  EXPECT_EQ(next("0/5 * * * * ?", "2026-11-27T10:00:05.001Z"), "2026-11-27T10:00:10Z");
  EXPECT_EQ(next("0/5 * * * * ?", "2026-11-27T10:00:05.999Z"), "2026-11-27T10:00:10Z");
  // Before 1970 the fraction is dropped toward the past too (floor, as Java's Date).
  EXPECT_EQ(next("0/5 * * * * ?", "1969-12-31T23:59:59.500Z"), "1970-01-01T00:00:00Z");
}

TEST(CronSchedule, MatchesJavaExecutorFixture) {
  // Java Redisson 3.52 scheduled CronSchedule.of("0/5 * * * * ?") at 1795792423436 ms: the task
  // ran at 1795792425000, then was due again at 1795792430000.
  const CronSchedule schedule = CronSchedule::of("0/5 * * * * ?", CronZone::utc());
  const Clock::time_point scheduled_at{1795792423436ms};
  const auto first = schedule.next_after(scheduled_at);
  ASSERT_TRUE(first);
  EXPECT_EQ(std::chrono::duration_cast<std::chrono::milliseconds>(first->time_since_epoch()),
            1795792425000ms);
  const auto second = schedule.next_after(*first);
  ASSERT_TRUE(second);
  EXPECT_EQ(std::chrono::duration_cast<std::chrono::milliseconds>(second->time_since_epoch()),
            1795792430000ms);
  EXPECT_EQ(schedule.expression(), "0/5 * * * * ?");  // as Java stored it in the task
}

TEST(CronSchedule, ListsRangesAndSteps) {
  EXPECT_EQ(runs("10,20,30 * * * * ?", "2026-11-27T10:00:25Z", 3),
            (Runs{"2026-11-27T10:00:30Z", "2026-11-27T10:01:10Z", "2026-11-27T10:01:20Z"}));
  EXPECT_EQ(next("0 */20 * * * ?", "2026-11-27T10:41:00Z"), "2026-11-27T11:00:00Z");
  EXPECT_EQ(runs("0 5-50/15 * * * ?", "2026-11-27T10:35:00Z", 3),
            (Runs{"2026-11-27T10:50:00Z", "2026-11-27T11:05:00Z", "2026-11-27T11:20:00Z"}));
  EXPECT_EQ(runs("0 0 8-10 * * ?", "2026-11-27T09:30:00Z", 3),
            (Runs{"2026-11-27T10:00:00Z", "2026-11-28T08:00:00Z", "2026-11-28T09:00:00Z"}));
  EXPECT_EQ(next("30 10 * * * ?", "2026-11-27T10:10:30Z"), "2026-11-27T11:10:30Z");
  // `/n` alone is `*/n`; a list mixes single values, ranges and steps.
  EXPECT_EQ(next("/30 * * * * ?", "2026-11-27T10:00:00Z"), "2026-11-27T10:00:30Z");
  EXPECT_EQ(runs("0 0 1,3-4,20/2 * * ?", "2026-11-27T02:00:00Z", 4),
            (Runs{"2026-11-27T03:00:00Z", "2026-11-27T04:00:00Z", "2026-11-27T20:00:00Z",
                  "2026-11-27T22:00:00Z"}));
  // Days of the month a month lacks are skipped: the 31st after November 30.
  EXPECT_EQ(next("0 0 0 31 * ?", "2026-11-01T00:00:00Z"), "2026-12-31T00:00:00Z");
  EXPECT_EQ(next("0 0 0 1/10 * ?", "2026-11-27T00:00:00Z"), "2026-12-01T00:00:00Z");
}

TEST(CronSchedule, MonthAndDayNamesInAnyCase) {
  // 2026-11-27 is a Friday; January 2027 starts on a Friday.
  EXPECT_EQ(next("0 0 12 ? JAN,jul MON", "2026-11-27T00:00:00Z"), "2027-01-04T12:00:00Z");
  EXPECT_EQ(next("0 0 12 ? * sun", "2026-11-27T00:00:00Z"), "2026-11-29T12:00:00Z");
  EXPECT_EQ(next("0 0 12 ? * Tue-Thu", "2026-11-27T00:00:00Z"), "2026-12-01T12:00:00Z");
  EXPECT_EQ(next("0 0 0 1 mar-may ?", "2026-11-27T00:00:00Z"), "2027-03-01T00:00:00Z");
  EXPECT_EQ(CronSchedule::of("0 0 12 ? jan,Jul mon", CronZone::utc()).expression(),
            "0 0 12 ? JAN,JUL MON");
}

TEST(CronSchedule, RangesWrapAroundTheirMaximum) {
  EXPECT_EQ(runs("0 0 22-2 * * ?", "2026-11-27T02:00:00Z", 6),
            (Runs{"2026-11-27T22:00:00Z", "2026-11-27T23:00:00Z", "2026-11-28T00:00:00Z",
                  "2026-11-28T01:00:00Z", "2026-11-28T02:00:00Z", "2026-11-28T22:00:00Z"}));
  // Friday to Monday.
  EXPECT_EQ(runs("0 0 12 ? * FRI-MON", "2026-11-27T12:00:00Z", 4),
            (Runs{"2026-11-28T12:00:00Z", "2026-11-29T12:00:00Z", "2026-11-30T12:00:00Z",
                  "2026-12-04T12:00:00Z"}));
  EXPECT_EQ(runs("0 0 0 1 NOV-FEB ?", "2026-11-27T00:00:00Z", 4),
            (Runs{"2026-12-01T00:00:00Z", "2027-01-01T00:00:00Z", "2027-02-01T00:00:00Z",
                  "2027-11-01T00:00:00Z"}));
  EXPECT_EQ(runs("0 0 0 30-2 * ?", "2027-01-31T00:00:00Z", 4),
            (Runs{"2027-02-01T00:00:00Z", "2027-02-02T00:00:00Z", "2027-03-01T00:00:00Z",
                  "2027-03-02T00:00:00Z"}));
  // With a step: 22, 0, 2.
  EXPECT_EQ(runs("0 0 22-2/2 * * ?", "2026-11-27T21:00:00Z", 4),
            (Runs{"2026-11-27T22:00:00Z", "2026-11-28T00:00:00Z", "2026-11-28T02:00:00Z",
                  "2026-11-28T22:00:00Z"}));
}

TEST(CronSchedule, LastDayOfMonth) {
  EXPECT_EQ(runs("0 0 0 L * ?", "2026-11-27T00:00:00Z", 4),
            (Runs{"2026-11-30T00:00:00Z", "2026-12-31T00:00:00Z", "2027-01-31T00:00:00Z",
                  "2027-02-28T00:00:00Z"}));
  EXPECT_EQ(next("0 0 0 L 2 ?", "2027-03-01T00:00:00Z"), "2028-02-29T00:00:00Z");
  // L-3: three days before the last.
  EXPECT_EQ(next("0 0 0 L-3 * ?", "2026-11-26T00:00:00Z"), "2026-11-27T00:00:00Z");
  EXPECT_EQ(next("0 0 0 L-3 * ?", "2026-11-27T00:00:00Z"), "2026-12-28T00:00:00Z");
  EXPECT_EQ(next("0 0 0 L-3 2 ?", "2027-03-01T00:00:00Z"), "2028-02-26T00:00:00Z");
}

TEST(CronSchedule, LastWeekdayOfMonth) {
  // November 30, 2026 is a Monday; December 31 a Thursday; January 31, 2027 a Sunday (-> Friday
  // 29th); October 31, 2026 a Saturday (-> Friday 30th).
  EXPECT_EQ(runs("0 0 0 LW * ?", "2026-11-27T00:00:00Z", 3),
            (Runs{"2026-11-30T00:00:00Z", "2026-12-31T00:00:00Z", "2027-01-29T00:00:00Z"}));
  EXPECT_EQ(next("0 0 0 LW * ?", "2026-10-01T00:00:00Z"), "2026-10-30T00:00:00Z");
  // L-1W: the weekday nearest to the day before the last (Nov 29, 2026, a Sunday -> Monday 30).
  EXPECT_EQ(next("0 0 0 L-1W * ?", "2026-11-01T00:00:00Z"), "2026-11-30T00:00:00Z");
}

TEST(CronSchedule, NearestWeekdayStaysInItsMonth) {
  // 15th a Sunday (Nov 15, 2026) -> Monday 16th.
  EXPECT_EQ(next("0 0 0 15W * ?", "2026-11-01T00:00:00Z"), "2026-11-16T00:00:00Z");
  // 15th a Saturday (Aug 15, 2026) -> Friday 14th.
  EXPECT_EQ(next("0 0 0 15W * ?", "2026-08-01T00:00:00Z"), "2026-08-14T00:00:00Z");
  // 15th a weekday (Dec 15, 2026, a Tuesday).
  EXPECT_EQ(next("0 0 0 15W * ?", "2026-11-16T00:00:00Z"), "2026-12-15T00:00:00Z");
  // 1st a Saturday (May 1, 2027) -> Monday 3rd, not Friday April 30th.
  EXPECT_EQ(next("0 0 0 1W * ?", "2027-04-02T00:00:00Z"), "2027-05-03T00:00:00Z");
  // 1st a Sunday (Nov 1, 2026) -> Monday 2nd.
  EXPECT_EQ(next("0 0 0 1W * ?", "2026-10-02T00:00:00Z"), "2026-11-02T00:00:00Z");
  // 31st a Sunday, the month's last day (Jan 31, 2027) -> Friday 29th, not Monday Feb 1st.
  EXPECT_EQ(next("0 0 0 31W * ?", "2027-01-01T00:00:00Z"), "2027-01-29T00:00:00Z");
  // Months without a 31st have no run.
  EXPECT_EQ(next("0 0 0 31W * ?", "2026-11-01T00:00:00Z"), "2026-12-31T00:00:00Z");
}

TEST(CronSchedule, LastAndNthDayOfWeek) {
  // 5L: the last Thursday (5 = Thursday). November 26, December 31 2026, January 28 2027.
  EXPECT_EQ(runs("0 0 0 ? * 5L", "2026-11-01T00:00:00Z", 3),
            (Runs{"2026-11-26T00:00:00Z", "2026-12-31T00:00:00Z", "2027-01-28T00:00:00Z"}));
  EXPECT_EQ(next("0 0 0 ? * THUL", "2026-11-27T00:00:00Z"), "2026-12-31T00:00:00Z");
  // 6#3: the third Friday. November 20, December 18 2026.
  EXPECT_EQ(runs("0 0 0 ? * 6#3", "2026-11-01T00:00:00Z", 2),
            (Runs{"2026-11-20T00:00:00Z", "2026-12-18T00:00:00Z"}));
  EXPECT_EQ(next("0 0 0 ? * FRI#3", "2026-11-20T00:00:00Z"), "2026-12-18T00:00:00Z");
  // 6#5: only months with five Fridays (not November 2026, whose 27th is the fourth; January
  // and April 2027).
  EXPECT_EQ(runs("0 0 0 ? * 6#5", "2026-11-01T00:00:00Z", 2),
            (Runs{"2027-01-29T00:00:00Z", "2027-04-30T00:00:00Z"}));
  EXPECT_EQ(next("0 0 0 ? * 6#4", "2026-11-21T00:00:00Z"), "2026-11-27T00:00:00Z");
  // L alone in the day of week is 7, every Saturday.
  EXPECT_EQ(runs("0 0 0 ? * L", "2026-11-27T00:00:00Z", 2),
            (Runs{"2026-11-28T00:00:00Z", "2026-12-05T00:00:00Z"}));
}

TEST(CronSchedule, FebruaryTwentyNinthOnlyInLeapYears) {
  EXPECT_EQ(runs("0 0 0 29 2 ?", "2026-01-01T00:00:00Z", 3),
            (Runs{"2028-02-29T00:00:00Z", "2032-02-29T00:00:00Z", "2036-02-29T00:00:00Z"}));
  // 2100 is not a leap year, and past 2099 there is nothing anyway.
  EXPECT_EQ(next("0 0 0 29 2 ?", "2096-02-29T00:00:00Z"), "none");
}

TEST(CronSchedule, YearField) {
  EXPECT_EQ(next("0 0 0 1 1 ? 2020", "2026-11-27T00:00:00Z"), "none");
  EXPECT_EQ(next("0 0 0 1 1 ? 2020-2030", "2026-11-27T00:00:00Z"), "2027-01-01T00:00:00Z");
  EXPECT_EQ(next("0 0 0 1 1 ? 2020-2026", "2026-11-27T00:00:00Z"), "none");
  EXPECT_EQ(runs("0 0 0 1 1 ? 2030/5,2028", "2026-11-27T00:00:00Z", 3),
            (Runs{"2028-01-01T00:00:00Z", "2030-01-01T00:00:00Z", "2035-01-01T00:00:00Z"}));
  EXPECT_EQ(next("0 0 0 1 1 ? *", "2026-11-27T00:00:00Z"), "2027-01-01T00:00:00Z");
  // Nothing after 2099.
  EXPECT_EQ(next("* * * * * ?", "2099-12-31T23:59:58Z"), "2099-12-31T23:59:59Z");
  EXPECT_EQ(next("* * * * * ?", "2099-12-31T23:59:59Z"), "none");
  EXPECT_EQ(next("* * * * * ?", "2200-01-01T00:00:00Z"), "none");
}

TEST(CronSchedule, FixedOffsetShiftsTheFields) {
  const CronZone india = CronZone::fixed(5h + 30min);
  EXPECT_EQ(next("0 0 9 * * ?", "2026-11-27T00:00:00Z", india), "2026-11-27T03:30:00Z");
  EXPECT_EQ(next("0 0 9 * * ?", "2026-11-27T03:30:00Z", india), "2026-11-28T03:30:00Z");
  // The day fields are read in the zone too: the last day of November at 00:00 +05:30.
  EXPECT_EQ(next("0 0 0 L * ?", "2026-11-01T00:00:00Z", india), "2026-11-29T18:30:00Z");
  // West of UTC: 20:00 -08:00 on Friday Nov 27 is Saturday 04:00 UTC.
  EXPECT_EQ(next("0 0 20 ? * FRI", "2026-11-27T00:00:00Z", CronZone::fixed(-8h)),
            "2026-11-28T04:00:00Z");
  // 2100-01-01 in +01:00 is still 2099 in UTC, but the fields are read in the zone.
  EXPECT_EQ(next("* * * * * ?", "2099-12-31T22:59:58Z", CronZone::fixed(1h)),
            "2099-12-31T22:59:59Z");
  EXPECT_EQ(next("* * * * * ?", "2099-12-31T22:59:59Z", CronZone::fixed(1h)), "none");
}

TEST(CronSchedule, HelperConstructorsBuildJavasExpressions) {
  const CronZone utc = CronZone::utc();
  const CronSchedule daily = CronSchedule::daily_at_hour_and_minute(9, 30, utc);
  EXPECT_EQ(daily.expression(), "0 30 9 ? * *");
  EXPECT_EQ(daily.zone(), utc);
  EXPECT_EQ(iso(daily.next_after(at("2026-11-27T09:30:00Z"))), "2026-11-28T09:30:00Z");

  // 2 = Monday, 4 = Wednesday; 2026-11-27 is a Friday.
  const CronSchedule weekly = CronSchedule::weekly_on_day_and_hour_and_minute(9, 30, {2, 4}, utc);
  EXPECT_EQ(weekly.expression(), "0 30 9 ? * 2,4");
  EXPECT_EQ(iso(weekly.next_after(at("2026-11-27T00:00:00Z"))), "2026-11-30T09:30:00Z");
  EXPECT_EQ(iso(weekly.next_after(at("2026-11-30T09:30:00Z"))), "2026-12-02T09:30:00Z");

  const CronSchedule monthly = CronSchedule::monthly_on_day_and_hour_and_minute(31, 8, 0, utc);
  EXPECT_EQ(monthly.expression(), "0 0 8 31 * ?");
  EXPECT_EQ(iso(monthly.next_after(at("2026-11-27T00:00:00Z"))), "2026-12-31T08:00:00Z");

  // The zone parameter defaults to local().
  EXPECT_EQ(CronSchedule::daily_at_hour_and_minute(1, 2).zone(), CronZone::local());
  EXPECT_EQ(CronSchedule::of("0 0 0 * * ?").zone(), CronZone::local());
}

TEST(CronSchedule, HelperConstructorsRejectBadValues) {
  try {
    CronSchedule::daily_at_hour_and_minute(24, 0, CronZone::utc());
    FAIL() << "no error";
  } catch (const redisson::error& e) {
    EXPECT_EQ(e.code(), redisson::errc::invalid_argument);
    EXPECT_NE(std::string(e.what()).find("cron expression '0 0 24 ? * *'"), std::string::npos)
        << e.what();
  }
  try {
    CronSchedule::weekly_on_day_and_hour_and_minute(9, 30, {}, CronZone::utc());
    FAIL() << "no error";
  } catch (const redisson::error& e) {
    EXPECT_EQ(e.code(), redisson::errc::invalid_argument);
  }
  EXPECT_THROW(CronSchedule::weekly_on_day_and_hour_and_minute(9, 30, {0}, CronZone::utc()),
               redisson::error);
  EXPECT_THROW(CronSchedule::monthly_on_day_and_hour_and_minute(32, 9, 30, CronZone::utc()),
               redisson::error);
  EXPECT_THROW(CronSchedule::daily_at_hour_and_minute(9, -1, CronZone::utc()), redisson::error);
}

TEST(CronZone, NamesAndParseRoundTrip) {
  EXPECT_EQ(CronZone::utc().name(), "UTC");
  EXPECT_EQ(CronZone::fixed(0min).name(), "UTC");
  EXPECT_EQ(CronZone::fixed(0min), CronZone::utc());
  EXPECT_EQ(CronZone::fixed(5h + 30min).name(), "+05:30");
  EXPECT_EQ(CronZone::fixed(-8h).name(), "-08:00");
  EXPECT_EQ(CronZone::fixed(18h).name(), "+18:00");
  EXPECT_EQ(CronZone::fixed(-18h).name(), "-18:00");
  EXPECT_EQ(CronZone::fixed(-45min).name(), "-00:45");
  for (const CronZone& zone :
       {CronZone::utc(), CronZone::local(), CronZone::fixed(5h + 30min), CronZone::fixed(-8h),
        CronZone::fixed(-45min), CronZone::fixed(18h), CronZone::fixed(-18h)}) {
    EXPECT_EQ(CronZone::parse(zone.name()), zone) << zone.name();
  }
  EXPECT_EQ(CronZone::parse("+00:00"), CronZone::utc());
  EXPECT_EQ(CronZone::parse("-00:00"), CronZone::utc());
  EXPECT_NE(CronZone::fixed(1h), CronZone::fixed(-1h));
  EXPECT_NE(CronZone::utc(), CronZone::local());
}

TEST(CronZone, RejectsBadOffsetsAndNames) {
  for (std::string_view bad : {"", "utc", "Local", "Z", "+5:30", "+05:3", "+0530", "05:30",
                               "+18:01", "-19:00", "+05:60", "+05:30 ", "GMT", "Europe/Berlin"}) {
    try {
      CronZone::parse(bad);
      ADD_FAILURE() << "no error for '" << bad << "'";
    } catch (const redisson::error& e) {
      EXPECT_EQ(e.code(), redisson::errc::invalid_argument) << bad;
    }
  }
  EXPECT_THROW(CronZone::fixed(18h + 1min), redisson::error);
  EXPECT_THROW(CronZone::fixed(-18h - 1min), redisson::error);
}

TEST(CronZone, LocalRoundTripsWithoutSettingAZone) {
  const CronZone local = CronZone::local();
  EXPECT_EQ(local.name(), "local");
  EXPECT_EQ(CronZone::parse(local.name()), local);
  EXPECT_TRUE(local.is_local());
}

/// Sets TZ for one test and puts the old value back.
class ScopedTz {
 public:
  explicit ScopedTz(const char* tz) {
    if (const char* old = std::getenv("TZ")) old_ = old;
    ::setenv("TZ", tz, 1);
    ::tzset();
  }
  ~ScopedTz() {
    if (old_) {
      ::setenv("TZ", old_->c_str(), 1);
    } else {
      ::unsetenv("TZ");
    }
    ::tzset();
  }
  ScopedTz(const ScopedTz&) = delete;
  ScopedTz& operator=(const ScopedTz&) = delete;

 private:
  std::optional<std::string> old_;
};

TEST(CronSchedule, LocalZoneSkipsDaylightSavingGapsAndRunsRepeatedTimesOnce) {
  // US Eastern as a POSIX rule (no tz database): in 2026 clocks go 02:00 -> 03:00 on March 8
  // and 02:00 -> 01:00 on November 1.
  const ScopedTz tz("EST5EDT,M3.2.0,M11.1.0");
  const CronZone local = CronZone::local();
  // An ordinary day: 02:30 EST is 07:30 UTC.
  EXPECT_EQ(next("0 30 2 * * ?", "2026-03-07T00:00:00Z", local), "2026-03-07T07:30:00Z");
  // 02:30 does not exist on March 8: the next run is 02:30 EDT on March 9.
  EXPECT_EQ(next("0 30 2 * * ?", "2026-03-07T07:30:00Z", local), "2026-03-09T06:30:00Z");
  EXPECT_EQ(runs("0 0/30 * * * ?", "2026-03-08T06:00:00Z", 3, local),
            (Runs{"2026-03-08T06:30:00Z", "2026-03-08T07:00:00Z", "2026-03-08T07:30:00Z"}));
  // 01:30 happens twice on November 1: it runs once, at the second (EST, 06:30 UTC), as Quartz
  // does (Java's calendar reads a repeated wall time as standard time).
  EXPECT_EQ(runs("0 30 1 * * ?", "2026-11-01T04:00:00Z", 2, local),
            (Runs{"2026-11-01T06:30:00Z", "2026-11-02T06:30:00Z"}));
  // Every half hour from 00:30 EDT: the first pass of the repeated hour is skipped, its second
  // pass runs.
  EXPECT_EQ(runs("0 0/30 * * * ?", "2026-11-01T04:30:00Z", 4, local),
            (Runs{"2026-11-01T06:00:00Z", "2026-11-01T06:30:00Z", "2026-11-01T07:00:00Z",
                  "2026-11-01T07:30:00Z"}));
  // Asked from inside either pass (01:10 EDT, 01:10 EST), the next run is 01:30 EST.
  EXPECT_EQ(next("0 0/30 * * * ?", "2026-11-01T05:10:00Z", local), "2026-11-01T06:30:00Z");
  EXPECT_EQ(next("0 0/30 * * * ?", "2026-11-01T06:10:00Z", local), "2026-11-01T06:30:00Z");
}

/// The expression's error: errc::invalid_argument with a message naming the expression.
void expect_rejected(std::string_view expression, std::string_view because) {
  try {
    CronSchedule::of(expression, CronZone::utc());
    ADD_FAILURE() << "no error for '" << expression << "'";
  } catch (const redisson::error& e) {
    EXPECT_EQ(e.code(), redisson::errc::invalid_argument) << expression;
    const std::string what = e.what();
    EXPECT_NE(what.find("cron expression '" + std::string(expression) + "': "), std::string::npos)
        << what;
    EXPECT_NE(what.find(because), std::string::npos) << what;
  }
}

TEST(CronSchedule, RejectsWrongFieldCount) {
  expect_rejected("", "expected 6 or 7 fields");
  expect_rejected("* * * * ?", "got 5");
  expect_rejected("0 0 0 1 1 ? 2027 x", "got 8");
}

TEST(CronSchedule, RejectsOutOfRangeValues) {
  expect_rejected("60 * * * * ?", "second value '60' is not in 0-59");
  expect_rejected("0 60 * * * ?", "minute value");
  expect_rejected("0 0 24 * * ?", "hour value '24'");
  expect_rejected("0 0 0 32 * ?", "day-of-month value '32'");
  expect_rejected("0 0 0 0 * ?", "day-of-month value '0'");
  expect_rejected("0 0 0 1 13 ?", "month value '13'");
  expect_rejected("0 0 0 ? * 8", "day-of-week value '8'");
  expect_rejected("0 0 0 ? * 0", "day-of-week value '0'");
  expect_rejected("0 0 0 1 1 ? 1969", "year value '1969'");
  expect_rejected("0 0 0 1 1 ? 2100", "year value '2100'");
  expect_rejected("0 0 1-24 * * ?", "hour value '24'");
  expect_rejected("0 0 0 1 1 ? 2030-2020", "ends before it starts");
  expect_rejected("0 0 0 L-31 * ?", "after 'L'");
  expect_rejected("0 0 0 32W * ?", "day-of-month value '32'");
}

TEST(CronSchedule, RejectsBothOrNeitherDayField) {
  expect_rejected("0 0 0 1 * MON", "must be '?'");
  expect_rejected("0 0 0 * * *", "must be '?'");
  expect_rejected("0 0 0 ? * ?", "cannot both be '?'");
  expect_rejected("? 0 0 1 * ?", "only for the day-of-month or day-of-week");
  expect_rejected("0 0 0 1,? * ?", "must stand alone");
}

TEST(CronSchedule, RejectsGarbage) {
  expect_rejected("a b c d e f", "'A' is not a second value");
  expect_rejected("0 0 0 FOO * ?", "'FOO' is not a day-of-month value");
  expect_rejected("0 0 0 1 JANUARY ?", "'JANUARY' is not a month value");
  expect_rejected("0 0 0 ? * MONDAY", "'MONDAY' is not a day-of-week value");
  expect_rejected("0 0 0 ? JAN MON-", "value is missing");
  expect_rejected("0 0 0 1,,2 * ?", "empty day-of-month value");
  expect_rejected("0 0 0 1, * ?", "empty day-of-month value");
  expect_rejected("0 -5 0 1 * ?", "value is missing");
  expect_rejected("0 0 0 1 * ? x", "'X' is not a year value");
  expect_rejected("L 0 0 1 * ?", "'L' is not a second value");
  expect_rejected("0 0 0 ? * 5W", "'5W' is not a day-of-week value");
  expect_rejected("0 0 0 L,15 * ?", "cannot be combined");
  expect_rejected("0 0 0 15W,20 * ?", "cannot be combined");
  expect_rejected("0 0 0 ? * 5L,6", "cannot be combined");
  expect_rejected("0 0 0 ? * 6#3,2", "cannot be combined");
  expect_rejected("0 0 0 ? * L-2", "not a day-of-week value");
  expect_rejected("0 0 0 1-5W * ?", "'W' must follow one day");
}

TEST(CronSchedule, RejectsBadStepsAndNth) {
  expect_rejected("0/0 * * * * ?", "second step '0' is not in 1-59");
  expect_rejected("*/0 * * * * ?", "step '0'");
  expect_rejected("0/60 * * * * ?", "second step '60'");
  expect_rejected("0 0 0/24 * * ?", "hour step '24'");
  expect_rejected("0/ * * * * ?", "'/' must be followed by a number");
  expect_rejected("0/x * * * * ?", "'/' must be followed by a number");
  expect_rejected("0 0 0 ? * 6#6", "'#' must be followed by a number in 1-5");
  expect_rejected("0 0 0 ? * 6#0", "'#' must be followed by a number in 1-5");
  expect_rejected("0 0 0 ? * 6#", "'#' must be followed by a number in 1-5");
  expect_rejected("0 0 0 ? * #6", "day-of-week value is missing");
  expect_rejected("0 0 0 ? * 8#2", "day-of-week value '8'");
}

}  // namespace

}  // namespace unit_services_cron_schedule_test
