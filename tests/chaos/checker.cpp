// The chaos checker: reads only the run directories (worker logs, fault log, final counters) and
// counts, per configuration:
//   overlap        two holders' critical sections of one lock overlapping in time;
//   lost_update    an acknowledged increment missing from the counter (two acknowledged writes
//                  of the same value, or a final counter below the highest acknowledged write);
//   token_order    a later holder of the fenced lock with a token not above the earlier one's;
//   late_wakeup    the lock stayed free longer than kWakeBound while a waiter that was already
//                  waiting at the release went on sleeping, with no fault nearby to explain it;
//   left_behind    a lock key, queue entry or semaphore permit still wrong one lease after every
//                  worker stopped.
// For the failover configuration it also measures each failover's outage: the longest stretch
// with no acquisition at all (any lock, any worker) from the fault's start until 10 s after its
// end. Recovery times, in every configuration:
//   holder_crash       a lock holder SIGKILLed -> the next holder of that lock, counted only when
//                      that holder was waiting before the lock could first have come free
//                      (otherwise the gap measures nobody wanting the lock); it should be about
//                      what was left of the dead holder's lease (2/3 to 3/3 of it) plus a
//                      wake-up;
//   <fault> (client_kill_normal, proxy_reset, redis_restart)
//                      the fault's end (every connection gone, or the server back) -> the first
//                      acquisition of any lock by any worker: a client that had to reconnect,
//                      succeeding again.
// Starved waits, per lock kind: a waiter gave up (its 10 s wait) while others took that lock
// kStarvedAfter times or more. Measured, never failed on: a non-fair lock lets newcomers barge in.
// Writes the summary table to stdout and JSON to the summary path; exits 1 when a configuration
// that promises safety broke it (pause and failover promise nothing: their figures are reported).
#include <algorithm>
#include <filesystem>
#include <fstream>
#include <iomanip>
#include <iostream>
#include <iterator>
#include <map>
#include <set>
#include <sstream>
#include <vector>

#include "chaos/chaos.hpp"

namespace redisson::chaos {

namespace {

constexpr std::int64_t kWakeBoundUs = 1'000'000;
constexpr std::int64_t kOutageWindowUs = 10'000'000;
constexpr std::int64_t kRecoveryWindowUs = 30'000'000;
constexpr std::int64_t kStarvedAfter = 10;

bool is_failover(const std::string& fault) {
  return fault == "sentinel_failover" || fault == "master_kill" || fault == "cluster_failover";
}

struct Section {
  std::string kind, owner, status;
  std::int64_t token = 0, wait_start = 0, start = 0, end = 0, read = 0, wrote = 0;
};

// A waiter that gave up: "T <kind> <wait_start> <now>".
struct GaveUp {
  std::string kind;
  std::int64_t wait_start = 0, end = 0;
};

struct Fault {
  std::string kind, detail;
  std::int64_t start = 0, end = 0;
};

/// Faults after which every client must reconnect before it succeeds again. (A killed pub/sub
/// connection does not stop acquisitions; what it can delay is a wake-up: late_wakeup.)
bool breaks_connections(const std::string& fault) {
  return fault == "client_kill_normal" || fault == "proxy_reset" || fault == "redis_restart";
}

/// The worker a fault's detail names ("worker3" or "worker3:..."), or -1.
int worker_in(const std::string& detail) {
  if (detail.rfind("worker", 0) != 0) return -1;
  try {
    return std::stoi(detail.substr(6));
  } catch (const std::exception&) {
    return -1;
  }
}

struct Result {
  std::string name, mode;
  std::int64_t lease_ms = 0;
  std::int64_t acquisitions = 0, killed_in_section = 0, timeouts = 0, errors = 0, fenced_out = 0,
               unknown_writes = 0, late_explained = 0;
  std::map<std::string, std::int64_t> faults;
  std::map<std::string, std::int64_t> violations{{"overlap", 0},
                                                 {"lost_update", 0},
                                                 {"token_order", 0},
                                                 {"late_wakeup", 0},
                                                 {"left_behind", 0}};
  std::int64_t duration_s = 0;
  std::vector<std::string> notes;
  /// Per failover fault kind: each failover's longest stretch without an acquisition, in ms.
  std::map<std::string, std::vector<std::int64_t>> outages_ms;
  /// holder_crash and the connection faults: see the file comment, in ms.
  std::map<std::string, std::vector<std::int64_t>> recovery_ms;
  /// Per lock kind: waits given up, and those given up while others took that lock
  /// kStarvedAfter times or more.
  std::map<std::string, std::int64_t> gave_up, starved;

  bool promises_safety() const { return mode == "safe"; }
  /// pause: holders stopped past their lease; failover: asynchronous replication. Neither
  /// configuration promises safety, so its violations are measured, never failed on.
  bool measured_only() const { return mode == "pause" || mode == "failover"; }
  bool passed() const {
    if (mode == "safe") {
      return violations.at("overlap") == 0 && violations.at("lost_update") == 0 &&
             violations.at("token_order") == 0 && violations.at("left_behind") == 0;
    }
    if (mode == "fenced") {
      return violations.at("lost_update") == 0 && violations.at("token_order") == 0 &&
             violations.at("left_behind") == 0;
    }
    return true;  // pause, failover: measured, not promised
  }
};

// Recovery times (see the file comment): what a user waits for after a holder dies or the
// connections go.
void measure_recovery(
    const std::vector<Fault>& faults,
    const std::map<int, std::vector<std::pair<std::int64_t, std::string>>>& held_by_worker,
    const std::vector<std::int64_t>& acquired_at, std::vector<Section> sections, Result& result) {
  std::sort(sections.begin(), sections.end(),
            [](const Section& a, const Section& b) { return a.start < b.start; });
  // A killed holder's lock lives on for what was left of its lease: at least two thirds of it
  // (the watchdog renews every third).
  const std::int64_t earliest_free_us = result.lease_ms * 1000 * 2 / 3;
  for (const auto& fault : faults) {
    if (fault.kind == "sigkill_holder") {
      const auto held = held_by_worker.find(worker_in(fault.detail));
      if (held == held_by_worker.end()) continue;
      // The victim's last acquisition before the kill is the lock it held.
      auto it = std::lower_bound(held->second.begin(), held->second.end(),
                                 std::make_pair(fault.start, std::string()));
      if (it == held->second.begin()) continue;
      const auto& kind = std::prev(it)->second;
      // The next holder of that lock, counted when it was already waiting by the time the lock
      // could first have come free: otherwise the gap says nobody wanted the lock.
      auto next = std::upper_bound(sections.begin(), sections.end(), fault.start,
                                   [](std::int64_t t, const Section& s) { return t < s.start; });
      while (next != sections.end() && next->kind != kind) ++next;
      if (next == sections.end() || next->start > fault.start + kRecoveryWindowUs) continue;
      if (next->wait_start > fault.start + earliest_free_us) continue;
      result.recovery_ms["holder_crash"].push_back((next->start - fault.start) / 1000);
    } else if (breaks_connections(fault.kind)) {
      // Every worker's connection broke, so the first acquisition after the fault went through a
      // new one.
      const auto next = std::upper_bound(acquired_at.begin(), acquired_at.end(), fault.end);
      if (next == acquired_at.end() || *next > fault.end + kRecoveryWindowUs) continue;
      result.recovery_ms[fault.kind].push_back((*next - fault.end) / 1000);
    }
  }
}

Result check(const std::string& dir) {
  Result result;
  result.name = std::filesystem::path(dir).filename().string();
  std::map<std::string, std::int64_t> counters;
  {
    std::ifstream in(dir + "/final.txt");
    for (std::string line; std::getline(in, line);) {
      std::istringstream fields(line);
      std::string tag;
      fields >> tag;
      if (tag == "mode") fields >> result.mode;
      if (tag == "lease_ms") fields >> result.lease_ms;
      if (tag == "counter") {
        std::string kind;
        std::int64_t value = 0;
        fields >> kind >> value;
        counters[kind] = value;
      }
      if (tag == "left") {
        ++result.violations["left_behind"];
        result.notes.push_back("left behind: " + line.substr(5));
      }
    }
  }
  std::vector<Fault> faults;
  {
    std::ifstream in(dir + "/faults.log");
    for (std::string line; std::getline(in, line);) {
      std::istringstream fields(line);
      std::string tag;
      Fault fault;
      fields >> tag >> fault.kind >> fault.start >> fault.end >> fault.detail;
      faults.push_back(fault);
      ++result.faults[fault.kind];
    }
  }
  std::vector<Section> sections;
  std::vector<GaveUp> gave_ups;           // "T" lines
  std::vector<std::int64_t> acquired_at;  // every "A" line's time, all workers
  // Per worker index: its "A" lines as (time, kind), in order: what a killed worker held.
  std::map<int, std::vector<std::pair<std::int64_t, std::string>>> held_by_worker;
  std::int64_t first = INT64_MAX, last = 0;
  for (const auto& entry : std::filesystem::directory_iterator(dir)) {
    const auto file = entry.path().filename().string();
    if (file.rfind("worker-", 0) != 0) continue;
    const int worker = std::stoi(file.substr(7));
    std::ifstream in(entry.path());
    std::string open_acquire;  // an "A" line not yet followed by its "E"
    for (std::string line; std::getline(in, line);) {
      std::istringstream fields(line);
      std::string tag;
      fields >> tag;
      if (tag == "A") {
        if (!open_acquire.empty()) ++result.killed_in_section;
        open_acquire = line;
        ++result.acquisitions;
        std::string kind;
        std::int64_t start = 0;
        fields >> kind >> start;
        acquired_at.push_back(start);
        held_by_worker[worker].emplace_back(start, kind);
      } else if (tag == "E") {
        open_acquire.clear();
        Section s;
        std::string unlock;
        fields >> s.kind >> s.owner >> s.token >> s.wait_start >> s.start >> s.end >> s.read >>
            s.wrote >> s.status >> unlock;
        first = std::min(first, s.wait_start);
        last = std::max(last, s.end);
        if (s.status == "fenced_out") ++result.fenced_out;
        if (s.status == "unknown") ++result.unknown_writes;
        sections.push_back(s);
      } else if (tag == "T") {
        ++result.timeouts;
        GaveUp gave_up;
        fields >> gave_up.kind >> gave_up.wait_start >> gave_up.end;
        gave_ups.push_back(gave_up);
      } else if (tag == "X") {
        ++result.errors;
      }
    }
    if (!open_acquire.empty()) ++result.killed_in_section;
  }
  result.duration_s = last > first ? (last - first) / 1'000'000 : 0;

  std::sort(acquired_at.begin(), acquired_at.end());
  for (const auto& fault : faults) {
    if (!is_failover(fault.kind)) continue;
    auto it = std::upper_bound(acquired_at.begin(), acquired_at.end(), fault.start);
    std::int64_t previous = it == acquired_at.begin() ? fault.start : *std::prev(it);
    std::int64_t longest = 0;
    for (; it != acquired_at.end() && *it <= fault.end + kOutageWindowUs; ++it) {
      longest = std::max(longest, *it - previous);
      previous = *it;
    }
    // No acquisition at all within the window: the outage lasted at least that long.
    if (previous < fault.start) longest = fault.end + kOutageWindowUs - previous;
    result.outages_ms[fault.kind].push_back(longest / 1000);
  }

  std::map<std::string, std::vector<Section>> by_kind;
  for (const auto& s : sections) by_kind[s.kind].push_back(s);
  const std::int64_t explain_us = (result.lease_ms + 1000) * 1000;
  for (auto& [kind, list] : by_kind) {
    std::sort(list.begin(), list.end(),
              [](const Section& a, const Section& b) { return a.start < b.start; });
    // Overlaps: a section starting before an earlier one (of another owner) ended.
    std::int64_t max_end = 0;
    std::string max_owner;
    for (const auto& s : list) {
      if (s.start < max_end && s.owner != max_owner) {
        ++result.violations["overlap"];
      }
      if (s.end > max_end) {
        max_end = s.end;
        max_owner = s.owner;
      }
    }
    // Fencing tokens rise with the order of acquisition.
    if (kind == "fenced") {
      for (std::size_t i = 1; i < list.size(); ++i) {
        if (list[i].token <= list[i - 1].token) ++result.violations["token_order"];
      }
    }
    // Late wake-ups: a gap between one section's end and the next one's start, while the next
    // holder was already waiting when the lock was released.
    for (std::size_t i = 1; i < list.size(); ++i) {
      const auto& before = list[i - 1];
      const auto& after = list[i];
      const auto gap = after.start - before.end;
      if (gap <= kWakeBoundUs || after.wait_start > before.end) continue;
      const bool explained = std::any_of(faults.begin(), faults.end(), [&](const Fault& f) {
        return f.start <= after.start && f.end + explain_us >= before.end;
      });
      if (explained) {
        ++result.late_explained;
      } else {
        ++result.violations["late_wakeup"];
        result.notes.push_back("late wakeup on " + kind + ": " + std::to_string(gap / 1000) +
                               " ms after a release");
      }
    }
    // Lost updates: acknowledged writes of one counter must all differ, and the last survives.
    const bool fenced_counter = result.mode == "fenced" && kind == "fenced";
    std::map<std::int64_t, int> writes;
    std::int64_t highest = 0;
    for (const auto& s : list) {
      if (s.status != "ok") continue;
      ++writes[s.wrote];
      highest = std::max(highest, s.wrote);
    }
    for (const auto& [value, count] : writes) {
      result.violations["lost_update"] += count - 1;
    }
    const auto counter = counters[fenced_counter ? "resource" : kind];
    if (counter < highest) {
      ++result.violations["lost_update"];
      result.notes.push_back(kind + " counter " + std::to_string(counter) +
                             " below the highest acknowledged write " + std::to_string(highest));
    }
  }
  measure_recovery(faults, held_by_worker, acquired_at, sections, result);
  // Starved waits: a waiter gave up while others took that lock again and again. A non-fair
  // lock lets newcomers barge in, so a few are normal under contention; many, or on the fair
  // lock, mean a waiter was not woken or a hold nobody could release kept coming back.
  for (const auto& gave_up : gave_ups) {
    const auto others = std::count_if(sections.begin(), sections.end(), [&](const Section& s) {
      return s.kind == gave_up.kind && s.start >= gave_up.wait_start && s.start <= gave_up.end;
    });
    if (others >= kStarvedAfter) ++result.starved[gave_up.kind];
    ++result.gave_up[gave_up.kind];
  }
  return result;
}

std::string json_map(const std::map<std::string, std::int64_t>& values) {
  std::ostringstream out;
  out << '{';
  bool comma = false;
  for (const auto& [key, value] : values) {
    out << (comma ? ", " : "") << '"' << key << "\": " << value;
    comma = true;
  }
  out << '}';
  return out.str();
}

std::string json_lists(const std::map<std::string, std::vector<std::int64_t>>& values) {
  std::ostringstream out;
  out << '{';
  bool comma = false;
  for (const auto& [key, list] : values) {
    out << (comma ? ", " : "") << '"' << key << "\": [";
    for (std::size_t i = 0; i < list.size(); ++i) out << (i ? ", " : "") << list[i];
    out << ']';
    comma = true;
  }
  out << '}';
  return out.str();
}

// "n=5 p50=2710 max=2980 ms".
std::string describe_times(std::vector<std::int64_t> times) {
  if (times.empty()) return "n=0";
  std::sort(times.begin(), times.end());
  return "n=" + std::to_string(times.size()) + " p50=" + std::to_string(times[times.size() / 2]) +
         " max=" + std::to_string(times.back()) + " ms";
}

}  // namespace

int run_checker(const std::vector<std::string>& dirs, const std::string& summary_path) {
  std::vector<Result> results;
  for (const auto& dir : dirs) results.push_back(check(dir));

  std::cout << '\n'
            << std::left << std::setw(14) << "config" << std::right << std::setw(6) << "secs"
            << std::setw(8) << "acquire" << std::setw(8) << "faults" << std::setw(9) << "overlap"
            << std::setw(6) << "lost" << std::setw(7) << "token" << std::setw(6) << "late"
            << std::setw(6) << "left" << std::setw(8) << "fenced" << std::setw(8) << "killed"
            << "  verdict\n";
  std::int64_t acquisitions = 0;
  std::map<std::string, std::int64_t> faults, violations;
  bool ok = true;
  for (const auto& r : results) {
    std::int64_t fault_count = 0;
    for (const auto& [kind, n] : r.faults) {
      fault_count += n;
      faults[kind] += n;
    }
    for (const auto& [kind, n] : r.violations) violations[kind] += n;
    acquisitions += r.acquisitions;
    const char* verdict = r.measured_only() ? "measured (no promise)"
                          : r.passed()      ? "PASS"
                                            : "FAIL";
    ok = ok && r.passed();
    std::cout << std::left << std::setw(14) << r.name << std::right << std::setw(6) << r.duration_s
              << std::setw(8) << r.acquisitions << std::setw(8) << fault_count << std::setw(9)
              << r.violations.at("overlap") << std::setw(6) << r.violations.at("lost_update")
              << std::setw(7) << r.violations.at("token_order") << std::setw(6)
              << r.violations.at("late_wakeup") << std::setw(6) << r.violations.at("left_behind")
              << std::setw(8) << r.fenced_out << std::setw(8) << r.killed_in_section << "  "
              << verdict << '\n';
  }
  for (const auto& r : results) {
    std::cout << r.name << " faults: " << json_map(r.faults) << '\n';
    for (const auto& [kind, outages] : r.outages_ms) {
      std::cout << r.name << " " << kind << " outages (ms without any acquisition):";
      for (const auto ms : outages) std::cout << ' ' << ms;
      std::cout << '\n';
    }
    if (!r.gave_up.empty()) {
      std::cout << r.name << " waits given up: " << json_map(r.gave_up)
                << ", of which starved (others took the lock " << kStarvedAfter
                << "+ times meanwhile): " << json_map(r.starved) << '\n';
    }
    for (const auto& [kind, times] : r.recovery_ms) {
      std::cout << r.name << " recovery " << kind << ": " << describe_times(times) << '\n';
    }
    for (const auto& note : r.notes) std::cout << "  " << r.name << ": " << note << '\n';
  }

  std::ofstream out(summary_path);
  out << "{\n  \"acquisitions\": " << acquisitions << ",\n  \"faults\": " << json_map(faults)
      << ",\n  \"violations\": " << json_map(violations)
      << ",\n  \"passed\": " << (ok ? "true" : "false") << ",\n  \"configs\": {\n";
  for (std::size_t i = 0; i < results.size(); ++i) {
    const auto& r = results[i];
    out << "    \"" << r.name << "\": {\"mode\": \"" << r.mode
        << "\", \"seconds\": " << r.duration_s << ", \"lease_ms\": " << r.lease_ms
        << ", \"acquisitions\": " << r.acquisitions
        << ", \"killed_in_critical_section\": " << r.killed_in_section
        << ", \"acquire_timeouts\": " << r.timeouts << ", \"acquire_errors\": " << r.errors
        << ", \"fenced_out\": " << r.fenced_out << ", \"unknown_writes\": " << r.unknown_writes
        << ", \"late_wakeups_explained_by_faults\": " << r.late_explained
        << ", \"faults\": " << json_map(r.faults) << ", \"violations\": " << json_map(r.violations)
        << ", \"failover_outages_ms\": " << json_lists(r.outages_ms)
        << ", \"recovery_ms\": " << json_lists(r.recovery_ms)
        << ", \"waits_given_up\": " << json_map(r.gave_up)
        << ", \"starved_waits\": " << json_map(r.starved)
        << ", \"passed\": " << (r.passed() ? "true" : "false") << "}"
        << (i + 1 < results.size() ? "," : "") << '\n';
  }
  out << "  }\n}\n";
  std::cout << "summary: " << summary_path << '\n';
  return ok ? 0 : 1;
}

}  // namespace redisson::chaos
