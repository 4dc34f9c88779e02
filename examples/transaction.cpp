// A client-side transaction over a map and a bucket (Java Redisson's RTransaction): reads see
// the transaction's own writes, nothing is written before commit(), and a Java RTransaction on
// the same keys waits for this one (the same lock names).
// Usage: example_transaction [redis://127.0.0.1:6379]
#include <iostream>
#include <redisson/redisson.hpp>
#include <string>

int main(int argc, char** argv) {
  const std::string url = argc > 1 ? argv[1] : "redis://127.0.0.1:6379";
  try {
    redisson::Client client(url);

    redisson::Transaction tx(client);
    auto stock = tx.get<redisson::TransactionalMap<std::string, int>>("example:stock");
    auto last_order = tx.get<redisson::TransactionalBucket<std::string>>("example:last-order");
    stock.put("tea", 10);       // locks the key, reads its value, records the write
    last_order.set("tea x 2");  // locks the bucket, records the write
    std::cout << "tea in stock (own write): " << stock.get("tea").value_or(0) << "\n";
    tx.commit();  // one MULTI/EXEC: each write, then its unlock

    // A transaction that is not committed changes nothing.
    redisson::Transaction cancelled(client);
    cancelled.get<redisson::TransactionalMap<std::string, int>>("example:stock").put("tea", 0);
    cancelled.rollback();  // only the locks are released
    std::cout << "tea in stock: "
              << redisson::Map<std::string, int>(client, "example:stock").get("tea").value_or(0)
              << "\n";

    redisson::Keys(client).delete_by_pattern("example:*");
  } catch (const redisson::error& e) {
    std::cerr << "error: " << e.what() << "\n";
    return 1;
  }
  return 0;
}
