#include "server/client.h"

namespace rainet::server {

void Broadcast::add(const std::shared_ptr<Client>& c) {
    ClientGroup* g = c->group();
    if (!g) return c->send(text_);
    auto it = groups_.begin();
    while (it != groups_.end() && it->first != g) ++it;
    if (it == groups_.end()) it = groups_.insert(it, {g, {}});
    it->second.push_back(c.get());
}

void Broadcast::flush() {
    for (auto& [g, members] : groups_) g->send(members, text_);
    groups_.clear();
}

}  // namespace rainet::server
