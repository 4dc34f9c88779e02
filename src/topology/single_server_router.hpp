// The Router of a single server (or of a fixed master with replicas, where every command goes to
// the master): one pipelined Connection, nothing to route.
#pragma once

#include <asio/io_context.hpp>
#include <memory>
#include <string>

#include "topology/router.hpp"

namespace redisson::detail {

class SingleServerRouter : public Router, public std::enable_shared_from_this<SingleServerRouter> {
 public:
  SingleServerRouter(asio::io_context& io, ConnectionOptions options);

  void start(StartCallback done) override;
  void submit(const Command& command, Clock::time_point deadline, ReplyCallback callback,
              SentHook after_send = nullptr, ReadSlot* read = nullptr) override;
  std::vector<ServerAddress> masters() const override { return {server_}; }
  void submit_to(const ServerAddress& node, const Command& command, Clock::time_point deadline,
                 ReplyCallback callback) override;
  std::shared_ptr<Connection> connection_for(std::optional<std::string_view>) override {
    return connection_;
  }
  ServerAddress pubsub_node(std::string_view channel) const override;
  void set_change_handler(ChangeHandler) override {}  // one node: nothing ever moves
  void refresh(std::function<void()> done) override;
  bool connected() const override;
  void close() override;

 private:
  ServerAddress server_;
  std::string node_;  // "host:port", for SentHook
  std::shared_ptr<Connection> connection_;
};

}  // namespace redisson::detail
