// Values by timestamp, each with an optional label and time to live: Java Redisson's
// RTimeSeries layout, so both sides read and write one series.
// Usage: example_time_series [redis://127.0.0.1:6379]
#include <chrono>
#include <cstdio>
#include <redisson/redisson.hpp>
#include <string>

using namespace std::chrono_literals;

int main(int argc, char** argv) {
  const std::string url = argc > 1 ? argv[1] : "redis://127.0.0.1:6379";
  try {
    redisson::Client client(url);
    redisson::TimeSeries<double> temperatures(client, "example:sensor:7");
    temperatures.add(1700000000000, 21.5);                     // never expires
    temperatures.add(1700000060000, 21.7, "calibrated", 24h);  // a label and a ttl
    auto first_hour = temperatures.range(1700000000000, 1700003600000, /*limit=*/100);
    std::printf("%zu value(s) in the first hour\n", first_hour.size());
    auto entry = temperatures.get_entry(1700000060000);  // value + label
    if (entry && entry->label) std::printf("%g (%s)\n", entry->value, entry->label->c_str());
    for (const auto& e : temperatures.entries()) {  // pages of 100, oldest first
      std::printf("%lld: %g\n", static_cast<long long>(e.timestamp), e.value);
    }
    temperatures.delete_object();
  } catch (const redisson::error& e) {
    std::fprintf(stderr, "time_series: %s\n", e.what());
    return 1;
  }
  return 0;
}
