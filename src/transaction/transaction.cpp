// Transaction, the handle (redisson/transaction.hpp); what it is inside: transaction_state.hpp.
#include "redisson/transaction.hpp"

#include "client/client_access.hpp"
#include "transaction/transaction_state.hpp"

namespace redisson {

Transaction::Transaction(const Client& client, TransactionOptions options)
    : client_(&client), core_(detail::ClientAccess::core(client)) {
  if (options.timeout.count() <= 0) {
    throw error(errc::invalid_argument, "TransactionOptions: the timeout must be positive");
  }
  if (options.response_timeout.count() < 0 || options.retry_attempts < 0 ||
      options.retry_interval.count() < 0 || options.sync_slaves < 0 ||
      options.sync_timeout.count() < 0) {
    throw error(errc::invalid_argument,
                "TransactionOptions: timeouts, retry attempts and interval, replicas must not be "
                "negative");
  }
  state_ = std::make_shared<detail::TransactionState>(core_, options);
}

Transaction::~Transaction() {
  if (state_) state_->abandon();
}

void Transaction::start_commit(const std::shared_ptr<detail::TransactionState>& state,
                               detail::Done<void> done) {
  state->commit(std::move(done));
}

void Transaction::start_rollback(const std::shared_ptr<detail::TransactionState>& state,
                                 detail::Done<void> done) {
  state->rollback(std::move(done));
}

void Transaction::commit() { async_commit(detail::blocking("transaction commit", id())); }

void Transaction::rollback() { async_rollback(detail::blocking("transaction rollback", id())); }

const std::string& Transaction::id() const { return state_->id; }

}  // namespace redisson
