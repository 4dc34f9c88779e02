#include "fifo_check.hpp"

#include <algorithm>
#include <deque>
#include <optional>
#include <sstream>
#include <vector>

namespace redisson_bench {
namespace {

// The quoted arguments of one MONITOR line: `1700000000.123 [0 lua] "cmd" "key" "arg" ...`.
// Only lines from scripts count (the clients send nothing but EVALSHA here).
std::vector<std::string> script_call(const std::string& line) {
  std::vector<std::string> words;
  if (line.find(" lua] ") == std::string::npos) return words;
  std::size_t i = line.find('"');
  while (i != std::string::npos && i < line.size()) {
    std::string word;
    std::size_t j = i + 1;
    for (; j < line.size() && line[j] != '"'; ++j) {
      if (line[j] == '\\' && j + 1 < line.size()) ++j;
      word.push_back(line[j]);
    }
    words.push_back(std::move(word));
    i = line.find('"', j + 1);
  }
  return words;
}

}  // namespace

FifoCheck check_fifo(const std::string& monitor_output, const std::string& name) {
  const std::string queue_key = "redisson_lock_queue:{" + name + "}";
  std::deque<std::string> queue;
  std::optional<std::string> just_popped;
  FifoCheck result;
  std::istringstream lines(monitor_output);
  std::string line;
  while (std::getline(lines, line)) {
    const auto call = script_call(line);
    if (call.size() < 2) continue;
    std::string command = call[0];
    std::transform(command.begin(), command.end(), command.begin(), ::tolower);
    const std::string& key = call[1];
    if (key == queue_key) {
      if (command == "rpush" && call.size() >= 3) {
        queue.push_back(call[2]);
        ++result.enqueued;
      } else if (command == "lpop" && !queue.empty()) {
        just_popped = queue.front();
        queue.pop_front();
      } else if (command == "lrem" && call.size() >= 4) {
        const auto it = std::find(queue.begin(), queue.end(), call[3]);
        if (it != queue.end()) queue.erase(it);
      }
    } else if (key == name && call.size() >= 4 &&
               ((command == "hincrby" && call[3] == "1") || command == "hset")) {
      // A grant: HSET when the acquisition creates the hash (or sets a reconciled count),
      // HINCRBY 1 for a re-entry.
      ++result.grants;
      if (just_popped && *just_popped == call[2]) {
        ++result.from_queue;
      } else if (!queue.empty()) {
        ++result.violations;
      }
      just_popped.reset();
    }
  }
  return result;
}

}  // namespace redisson_bench
