// Sorted sets: a leaderboard in a ScoredSortedSet and an index of names in a LexSortedSet, the
// Redis layouts of Java Redisson's RScoredSortedSet and RLexSortedSet.
//
//   sorted_sets [redis://127.0.0.1:6379]
//
// Keeps players' points in a ScoredSortedSet with the default codec (kryo5: a Java service doing
// redisson.getScoredSortedSet("example:leaderboard").getScore("ada") reads the same score), prints
// the top three and who scored at least 50, then looks names up by prefix in a LexSortedSet.
#include <cstdint>
#include <cstdio>
#include <limits>
#include <redisson/client.hpp>
#include <redisson/objects/lex_sorted_set.hpp>
#include <redisson/objects/scored_sorted_set.hpp>
#include <string>

int main(int argc, char** argv) {
  const std::string url = argc > 1 ? argv[1] : "redis://127.0.0.1:6379";
  try {
    redisson::Client client(url);

    redisson::ScoredSortedSet<std::string> leaderboard(client, "example:leaderboard");
    leaderboard.add_all({{42, "ada"}, {57.5, "grace"}, {12, "linus"}, {73, "barbara"}});
    leaderboard.add_score("ada", 10);  // ZINCRBY: 52
    for (const auto& [player, points] : leaderboard.entry_range_reversed(0, 2)) {
      std::printf("%s: %g\n", player.c_str(), points);
    }
    constexpr double kInf = std::numeric_limits<double>::infinity();
    const auto at_least_50 = leaderboard.count(50, true, kInf, true);         // [50, +inf]
    const std::int64_t place = leaderboard.rev_rank("ada").value_or(-1) + 1;  // rev_rank 0: the top
    std::printf("%lld players have 50 points or more; ada is #%lld\n",
                static_cast<long long>(at_least_50), static_cast<long long>(place));

    redisson::LexSortedSet names(client, "example:names");  // always StringCodec, scores 0
    names.add_all({"alice", "alan", "albert", "bob", "carol"});
    for (const auto& name : names.range("al", true, "al\xff", false)) {  // prefix "al"
      std::printf("%s\n", name.c_str());
    }

    leaderboard.delete_object();
    names.delete_object();
  } catch (const redisson::error& e) {
    std::fprintf(stderr, "sorted_sets: %s\n", e.what());
    return 1;
  }
  return 0;
}
