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
    SeekQueue::Seek mine;
    mine.player = p;
    mine.client = c;
    mine.key = c.get();
    mine.preset = m.preset;
    if (m.clock) {
        mine.clockInitial = m.clock->initial;
        mine.clockIncrement = m.clock->increment;
    }
    mine.rated = m.rated.value_or(true);
    if (clusterSeeks_) return seekAcrossNodes(c, mine, m);
    // Never paired with a player it blocked or that blocked it (on the writer thread: a read).
    if (p.id) {
        auto blocked = store_.blockedBy(p.id);
        auto blockers = store_.blockersOf(p.id, kMaxBlockersAvoided);
        if (!blocked || !blockers) {
            metrics_.error(ErrorCode::Internal);
            return c->send(protocol::renderError(ErrorCode::Internal,
                                                 "the seek could not be checked; try again", m.id));
        }
        for (const auto& b : *blocked) mine.avoid.push_back(b.id);
        mine.avoid.insert(mine.avoid.end(), blockers->begin(), blockers->end());
    }
    // A correspondence seek waits for a person (the computer plays no games over days).
    const bool correspondence = protocol::isCorrespondence(mine.clockIncrement);
    const int after =
        correspondence ? 0 : m.computerAfter.value_or(p.kind == "guest" ? kGuestComputerAfterS : 0);
    if (after) mine.computerAtCs = time_.nowCs() + after * 100;
    auto [other, summary] = seeks_.place(mine);
    if (!other) {
        lobby_.setSeeks(std::move(summary));
        c->send(protocol::renderAck(m.id));
        if (mine.computerAtCs) armSeekTimer(mine.computerAtCs);
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

int Hub::computerLevel(double rating) {
    // Each level scores at least 70% against the one below (docs/ai.md), some 150 rating points:
    // a level per 200 points, a new player's 1500 meeting level 2.
    if (rating < 1350) return 1;
    if (rating < 1550) return 2;
    if (rating < 1750) return 3;
    if (rating < 1950) return 4;
    return 5;
}

void Hub::armSeekTimer(std::int64_t atCs) {
    if (time_.isManual()) return;  // advanceTime checks
    std::int64_t armed = seekTimerAtCs_.load();
    while (!armed || atCs < armed)
        if (seekTimerAtCs_.compare_exchange_weak(armed, atCs)) {
            seekTimer_.expires_after(std::chrono::milliseconds((atCs - time_.nowCs()) * 10));
            seekTimer_.async_wait([this, atCs](const boost::system::error_code& ec) {
                if (ec) return;
                std::int64_t mine = atCs;
                seekTimerAtCs_.compare_exchange_strong(mine, 0);
                seatComputerForDueSeeks();
            });
            return;
        }
}

void Hub::seatComputerForDueSeeks() {
    auto due = seeks_.takeDue(time_.nowCs());
    if (due.summary) lobby_.setSeeks(std::move(*due.summary));
    if (due.nextCs) armSeekTimer(due.nextCs);
    for (auto& s : due.seeks)
        // A new game is stored: on the writer thread.
        store_.write([this, waiting = std::move(s)] {
            auto c = waiting.client.lock();
            if (!c) return;
            store::GameRow row;
            row.preset = waiting.preset;
            row.clockInitial = waiting.clockInitial;
            row.clockIncrement = waiting.clockIncrement;
            row.clock[0] = row.clock[1] = row.clockInitial;
            row.opponent = "computer";
            row.level = computerLevel(waiting.player.rating);
            row.rated = false;  // against the computer: never rated
            row.sideWish = "random";
            row.creator = waiting.player.id;
            const int mine = static_cast<int>(ids_.seed() >> 63);
            row.player[mine] = waiting.player.id;
            row.status = GameStatus::Setup;
            auto room = launch(row, mine ? Side::One : Side::Two);
            if (!room) {
                metrics_.error(ErrorCode::Internal);
                return c->send(protocol::renderError(
                    ErrorCode::Internal, "the game against the computer could not be stored"));
            }
            logEvent("game_created", {{"game", row.id}, {"opponent", "computer"}, {"seek", true}});
            (*room)->run([](GameRoom& r) { r.activate(); });
            c->send(matched(row.id, mine));
        });
}

void Hub::unseek(const Client* c, std::int64_t player) {
    if (clusterSeeks_)
        // A Redis round trip: never on a network thread. On the writer thread, after the seek
        // this connection may have queued there.
        return store_.write([s = clusterSeeks_, c, player] { s->withdraw(c, player); });
    if (auto summary = seeks_.withdraw(c, player)) lobby_.setSeeks(std::move(*summary));
}

}  // namespace rainet::server
