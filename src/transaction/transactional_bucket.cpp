// TransactionalBucket's operations (Redisson's RedissonTransactionalBucket): the lock is the
// bucket's `<name>:transaction_lock`; commit() sends what Bucket<T> sends for the same write.
#include "redisson/objects/bucket.hpp"
#include "transaction/transactional_op.hpp"

namespace redisson::detail {
namespace {

/// SET name value [extra] [PX ttl]: args = value [, ttl ms].
Command bucket_set_command(const std::string& name, const std::vector<std::string>& args,
                           const char* extra) {
  Command command{"SET", name, args.at(0)};
  if (extra != nullptr) command.arg(extra);
  if (args.size() > 1) command.arg("PX").arg(args[1]);
  return command;
}

}  // namespace

void start_bucket_op(const TransactionPtr& transaction, const ObjectPtr& object, TxOp op,
                     const std::vector<std::string>& args, Done<Reply> done) {
  const auto& name = object->name;
  const OwnEntries entries = &TransactionState::buckets;
  const TxRead get = tx_read_command(Command{"GET", name});
  auto write = [&](std::optional<TxRead> read, TxDecide decide) {
    tx_write(transaction, object, entries, std::string(), bucket_transaction_lock(name),
             std::move(read), std::move(decide), std::move(done));
  };
  switch (op) {
    case TxOp::bucket_get:
      return tx_read(transaction, object, entries, std::string(),
                     tx_read_command(Command{"GET", name}), false, std::move(done));
    case TxOp::bucket_is_exists:
      return tx_read(transaction, object, entries, std::string(),
                     tx_read_command(Command{"EXISTS", name}), true, std::move(done));
    case TxOp::bucket_set:
      // No read: the value replaced is not asked for.
      return write(std::nullopt, [name, args](const std::optional<std::string>&) {
        return TxDecision{Reply{}, std::optional<std::string>(args.at(0)),
                          tx_queue_command(bucket_set_command(name, args, nullptr))};
      });
    case TxOp::bucket_try_set:
      return write(get, [name, args](const std::optional<std::string>& current) {
        TxDecision decision{tx_flag_reply(!current), std::nullopt,
                            tx_queue_command(bucket_set_command(name, args, "NX"))};
        if (!current) decision.own = std::optional<std::string>(args.at(0));
        return decision;
      });
    case TxOp::bucket_get_and_set:
      return write(get, [name, args](const std::optional<std::string>& current) {
        return TxDecision{tx_value_reply(current), std::optional<std::string>(args.at(0)),
                          tx_queue_command(bucket_set_command(name, args, "GET"))};
      });
    case TxOp::bucket_get_and_delete:
      return write(get, [name](const std::optional<std::string>& current) {
        return TxDecision{tx_value_reply(current), std::optional<std::string>(),
                          tx_queue_command(Command{"GETDEL", name})};
      });
    case TxOp::bucket_delete:
      return write(tx_read_command(Command{"EXISTS", name}, true),
                   [name](const std::optional<std::string>& current) {
                     return TxDecision{tx_flag_reply(current.has_value()),
                                       std::optional<std::string>(),
                                       tx_queue_command(Command{"DEL", name})};
                   });
    case TxOp::bucket_compare_and_set:
      return write(get, [args](const std::optional<std::string>& current) {
        // args: "1"|"0", expected, "1"|"0", update.
        std::optional<std::string> expect;
        std::optional<std::string> update;
        if (args.at(0) == "1") expect = args.at(1);
        if (args.at(2) == "1") update = args.at(3);
        const bool equal = expect == current;
        TxDecision decision{tx_flag_reply(equal), std::nullopt,
                            [expect, update](const ObjectPtr& bound) {
                              Done<Reply> ignore = [](const Status&, const Reply&) {};
                              start_bucket_compare_and_set(bound, expect, update, ignore);
                            }};
        if (equal) decision.own = update;
        return decision;
      });
    default:
      return done(Status(make_error_code(errc::invalid_argument), "not a bucket operation"),
                  Reply{});
  }
}

}  // namespace redisson::detail
