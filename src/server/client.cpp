#include "server/client.h"

#include <utility>

namespace rainet::server {

void sendEach(const std::vector<std::shared_ptr<Client>>& clients,
              const std::shared_ptr<const std::string>& text) {
    // Few groups per broadcast (one per other node of the cluster): a flat list beats a map.
    std::vector<std::pair<ClientGroup*, std::vector<Client*>>> groups;
    for (const auto& c : clients) {
        ClientGroup* g = c->group();
        if (!g) {
            c->send(text);
            continue;
        }
        auto it = groups.begin();
        while (it != groups.end() && it->first != g) ++it;
        if (it == groups.end()) it = groups.insert(it, {g, {}});
        it->second.push_back(c.get());
    }
    for (auto& [g, members] : groups) g->send(members, text);
}

}  // namespace rainet::server
