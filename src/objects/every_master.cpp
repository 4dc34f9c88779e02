#include "redisson/detail/every_master.hpp"

#include "objects/send.hpp"
#include "topology/router.hpp"

namespace redisson::detail {

void start_on_every_master(const ObjectPtr& state, const Command& command, Done<Reply>& done) {
  if (state->batch) return done(batch_refusal("a command run on every master"), Reply{});
  std::vector<NodeCommand> commands;
  for (auto& master : state->core->router().masters()) commands.push_back({master, command});
  submit_all_to(state->core, std::move(commands),
                [done = std::move(done)](Status status, std::vector<Reply> replies) mutable {
                  Reply all;
                  all.type = ReplyType::array;
                  all.elements = std::move(replies);
                  done(std::move(status), std::move(all));
                });
}

}  // namespace redisson::detail
