// Transaction on a real Redis Cluster (3 masters, started once for the suite): a transaction
// whose names share one hash tag (its locks included) commits as one MULTI/EXEC on that master
// and conflicts with another transaction there; one whose names are on several masters is
// refused at commit, writes nothing and leaves no lock behind.
#include <gtest/gtest.h>

#include <chrono>
#include <map>
#include <optional>
#include <set>
#include <string>

#include "redisson/client.hpp"
#include "redisson/codec.hpp"
#include "redisson/transaction.hpp"
#include "support/cluster_suite.hpp"
#include "support/eventually.hpp"
#include "support/expect_error.hpp"
#include "support/redis_cluster.hpp"

namespace transaction_transaction_cluster_test {
namespace {

using namespace std::chrono_literals;
using redisson::errc;
using redisson::Transaction;
using redisson::TransactionalBucket;
using redisson::TransactionalBuckets;
using redisson::TransactionalMap;
using redisson::TransactionalSet;
using redisson::TransactionOptions;
using redisson::test::eventually;
using redisson::test::expect_error;
namespace codecs = redisson::codecs;

class TransactionOnCluster : public redisson::test::ClusterSuite {
 protected:
  /// The keys of every master whose name contains `part`, but the unlock latches (which expire
  /// by themselves).
  static std::set<std::string> keys_with(const std::string& part) {
    std::set<std::string> found;
    for (const int master : cluster().master_ports()) {
      const auto listed = cluster().command(master, {"KEYS", "*" + part + "*"});
      std::string::size_type start = 0;
      while (start < listed.size()) {
        auto end = listed.find('\n', start);
        if (end == std::string::npos) end = listed.size();
        const auto key = listed.substr(start, end - start);
        if (!key.empty() && key != "(empty array)" && key.rfind("redisson_unlock_latch:", 0) != 0) {
          found.insert(key);
        }
        start = end + 1;
      }
    }
    return found;
  }
};

TEST_F(TransactionOnCluster, NamesUnderOneHashTagCommitOnTheirMasterAndConflictThere) {
  Transaction tx(client());
  auto map = tx.get<TransactionalMap<std::string, std::string>>("{order}:items", codecs::string());
  auto bucket = tx.get<TransactionalBucket<std::string>>("{order}:state", codecs::string());
  auto buckets = tx.get<TransactionalBuckets>(codecs::string());
  auto set = tx.get<TransactionalSet<std::string>>("{order}:tags", codecs::string());
  EXPECT_EQ(map.put("tea", "2"), std::nullopt);
  bucket.set("open");
  buckets.set<std::string>({{"{order}:a", "1"}, {"{order}:b", "2"}});
  EXPECT_TRUE(buckets.try_set<std::string>({{"{order}:c", "3"}}));
  EXPECT_TRUE(set.add("urgent"));

  // Another transaction on the same key waits, then gives up: the conflict on this master.
  Transaction other(client(), TransactionOptions{}.timeout_after(300ms));
  expect_error(
      errc::timeout,
      [&] {
        other.get<TransactionalBuckets>(codecs::string())
            .set<std::string>({{"{order}:b", "other"}});
      },
      "a bucket the first transaction holds");
  other.rollback();

  tx.commit();
  EXPECT_EQ(get_on_master("{order}:state"), "open");
  EXPECT_EQ(get_on_master("{order}:a"), "1");
  EXPECT_EQ(get_on_master("{order}:b"), "2");
  EXPECT_EQ(get_on_master("{order}:c"), "3");
  EXPECT_EQ(cluster().command(master_of("{order}:items"), {"HGET", "{order}:items", "tea"}), "2");
  EXPECT_EQ(cluster().command(master_of("{order}:tags"), {"SISMEMBER", "{order}:tags", "urgent"}),
            "1");
  EXPECT_TRUE(eventually([] { return keys_with("lock").empty(); }));
}

TEST_F(TransactionOnCluster, NamesOnSeveralMastersAreRefusedAtCommitAndLeaveNothing) {
  const auto names = one_name_per_master("spread:");
  ASSERT_GE(names.size(), 2U);
  Transaction tx(client());
  auto buckets = tx.get<TransactionalBuckets>(codecs::string());
  std::map<std::string, std::string> values;
  for (const auto& name : names) values[name] = "v";
  buckets.set(values);  // the locks are taken on each master
  EXPECT_EQ(keys_with("transaction_lock").size(), names.size());
  expect_error(
      errc::invalid_argument, [&] { tx.commit(); }, "a commit spanning masters");
  EXPECT_TRUE(eventually([] { return keys_with("transaction_lock").empty(); }));
  EXPECT_TRUE(keys_with("spread:").empty());
}

}  // namespace
}  // namespace transaction_transaction_cluster_test
