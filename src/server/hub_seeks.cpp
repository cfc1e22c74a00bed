// Quick pairing: a seek is paired with the oldest compatible one in a new game, or waits.
#include "server/hub.h"

#include <cctype>
#include <chrono>
#include <cmath>

#include "server/game_room.h"
#include "store/log.h"

namespace rainet::server {

using protocol::ErrorCode;
using protocol::Json;

std::vector<protocol::SeekEntry> Hub::seekSummary() const {
    std::vector<protocol::SeekEntry> out;
    for (const Seek& s : seeks_) {
        const protocol::SeekEntry kind{
            protocol::enumFromName<protocol::Preset>(s.preset).value_or(protocol::Preset{}),
            protocol::clockSetting(s.clockInitial, s.clockIncrement), s.rated, 0};
        auto same = std::find_if(out.begin(), out.end(), [&](const protocol::SeekEntry& e) {
            return e.preset == kind.preset && e.clock == kind.clock && e.rated == kind.rated;
        });
        if (same == out.end()) same = out.insert(out.end(), kind);
        ++same->players;
    }
    return out;
}

void Hub::seek(const std::shared_ptr<Client>& c, const store::PlayerRow& p,
               const protocol::ClientMessage& m) {
    Seek mine{p, c, c.get(), m.preset};
    if (m.clock) {
        mine.clockInitial = m.clock->initial;
        mine.clockIncrement = m.clock->increment;
    }
    mine.rated = m.rated.value_or(true);
    std::optional<Seek> other;
    std::vector<protocol::SeekEntry> summary;
    {
        std::lock_guard lock(seeksMu_);
        std::erase_if(seeks_, [&](const Seek& s) {  // a new seek replaces the player's last one
            return s.player.id == p.id || s.client.expired();
        });
        for (auto it = seeks_.begin(); it != seeks_.end(); ++it)
            if (it->preset == mine.preset && it->clockInitial == mine.clockInitial &&
                it->clockIncrement == mine.clockIncrement && it->rated == mine.rated) {
                other = std::move(*it);
                seeks_.erase(it);
                break;
            }
        if (!other) seeks_.push_back(mine);
        summary = seekSummary();
    }
    if (!other) {
        setSeekSummary(std::move(summary));
        c->send(protocol::renderAck(m.id));
        return;
    }
    store::GameRow row;
    row.preset = mine.preset;
    row.clockInitial = mine.clockInitial;
    row.clockIncrement = mine.clockIncrement;
    row.clock[0] = row.clock[1] = row.clockInitial;
    row.opponent = "match";  // paired by the server; never listed
    row.rated = mine.rated;
    row.creator = other->player.id;
    row.sideWish = "random";
    const int waiting = static_cast<int>(ids_.seed() >> 63);  // the side of the one who waited
    row.player[waiting] = other->player.id;
    row.player[1 - waiting] = p.id;
    row.status = GameStatus::Setup;
    auto room = launch(row, std::nullopt);
    if (!room) {
        {
            std::lock_guard lock(seeksMu_);
            seeks_.insert(seeks_.begin(), *other);  // it keeps its place
            summary = seekSummary();
        }
        setSeekSummary(std::move(summary));
        metrics_.error(ErrorCode::Internal);
        c->send(protocol::renderError(ErrorCode::Internal, "the game could not be stored", m.id));
        return;
    }
    setSeekSummary(std::move(summary));
    logEvent("game_created", {{"game", row.id}, {"opponent", row.opponent}});
    auto matched = [&](int side) {
        return protocol::render(
            protocol::MatchedMessage{row.id, side == 0 ? Side::One : Side::Two});
    };
    c->send(protocol::renderAck(m.id, row.id));
    c->send(matched(1 - waiting));
    if (auto w = other->client.lock()) w->send(matched(waiting));
}

void Hub::unseek(const Client* c, std::int64_t player) {
    std::vector<protocol::SeekEntry> summary;
    {
        std::lock_guard lock(seeksMu_);
        const auto before = seeks_.size();
        std::erase_if(seeks_, [&](const Seek& s) {
            return (player ? s.player.id == player : s.key == c) || s.client.expired();
        });
        if (seeks_.size() == before) return;
        summary = seekSummary();
    }
    setSeekSummary(std::move(summary));
}

}  // namespace rainet::server
