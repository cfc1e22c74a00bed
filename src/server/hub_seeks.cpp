// Quick pairing: a seek is paired with the oldest compatible one in a new game, or waits. On one
// node the seeks wait in its SeekQueue; in a cluster, in Redis (server/cluster_seeks.h).
#include <cctype>
#include <chrono>
#include <cmath>

#include "server/cluster_seeks.h"
#include "server/game_room.h"
#include "server/hub.h"
#include "store/log.h"

namespace rainet::server {

using protocol::ErrorCode;
using protocol::Json;

namespace {

std::string matched(const std::string& game, int side) {
    return protocol::render(protocol::MatchedMessage{game, side == 0 ? Side::One : Side::Two});
}

}  // namespace

std::optional<store::GameRow> Hub::launchMatch(const SeekQueue::Seek& mine, std::int64_t waiting,
                                               int& waitingSide) {
    store::GameRow row;
    row.preset = mine.preset;
    row.clockInitial = mine.clockInitial;
    row.clockIncrement = mine.clockIncrement;
    row.clock[0] = row.clock[1] = row.clockInitial;
    row.opponent = "match";  // paired by the server; never listed
    row.rated = mine.rated;
    row.creator = waiting;
    row.sideWish = "random";
    waitingSide = static_cast<int>(ids_.seed() >> 63);
    row.player[waitingSide] = waiting;
    row.player[1 - waitingSide] = mine.player.id;
    row.status = GameStatus::Setup;
    if (!launch(row, std::nullopt)) return std::nullopt;
    logEvent("game_created", {{"game", row.id}, {"opponent", row.opponent}});
    return row;
}

void Hub::seek(const std::shared_ptr<Client>& c, const store::PlayerRow& p,
               const protocol::ClientMessage& m) {
    SeekQueue::Seek mine{p, c, c.get(), m.preset};
    if (m.clock) {
        mine.clockInitial = m.clock->initial;
        mine.clockIncrement = m.clock->increment;
    }
    mine.rated = m.rated.value_or(true);
    if (clusterSeeks_) return seekAcrossNodes(c, mine, m);
    auto [other, summary] = seeks_.place(mine);
    if (!other) {
        lobby_.setSeeks(std::move(summary));
        c->send(protocol::renderAck(m.id));
        return;
    }
    int waiting = 0;
    auto row = launchMatch(mine, other->player.id, waiting);
    if (!row) {
        lobby_.setSeeks(seeks_.putBack(*other));  // it keeps its place
        metrics_.error(ErrorCode::Internal);
        c->send(protocol::renderError(ErrorCode::Internal, "the game could not be stored", m.id));
        return;
    }
    lobby_.setSeeks(std::move(summary));
    c->send(protocol::renderAck(m.id, row->id));
    c->send(matched(row->id, 1 - waiting));
    if (auto w = other->client.lock()) w->send(matched(row->id, waiting));
}

void Hub::seekAcrossNodes(const std::shared_ptr<Client>& c, const SeekQueue::Seek& mine,
                          const protocol::ClientMessage& m) {
    auto placed = clusterSeeks_->place(c, mine);  // the summary is applied by it
    if (!placed) {
        // Redis away: refused rather than queued on this node alone, where it could pair only
        // with this node's players and would be unknown to the cluster when Redis returns.
        metrics_.error(ErrorCode::Busy);
        c->send(protocol::renderError(ErrorCode::Busy,
                                      "quick pairing is unavailable right now; try again", m.id));
        return;
    }
    if (!*placed) {
        c->send(protocol::renderAck(m.id));
        return;
    }
    const ClusterSeeks::Waiting& other = **placed;
    int waiting = 0;
    auto row = launchMatch(mine, other.player, waiting);  // this node owns it (its lease)
    if (!row) {
        clusterSeeks_->putBack(other);  // it keeps its place
        metrics_.error(ErrorCode::Internal);
        c->send(protocol::renderError(ErrorCode::Internal, "the game could not be stored", m.id));
        return;
    }
    c->send(protocol::renderAck(m.id, row->id));
    c->send(matched(row->id, 1 - waiting));
    // The waiting player's node hands it the same message; its client then plays through
    // forwarding, the game being this node's.
    clusterSeeks_->notify(other, matched(row->id, waiting));
}

void Hub::unseek(const Client* c, std::int64_t player) {
    if (clusterSeeks_)
        // A Redis round trip: never on a network thread. On the writer thread, after the seek
        // this connection may have queued there.
        return store_.write([s = clusterSeeks_, c, player] { s->withdraw(c, player); });
    if (auto summary = seeks_.withdraw(c, player)) lobby_.setSeeks(std::move(*summary));
}

}  // namespace rainet::server
