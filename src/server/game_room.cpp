// A game room's life: built new or restored from the store, the seats, the actor's strand
// (run, held work during a commit, failure), and the replies to one client.
#include "server/game_room_detail.h"

#include <algorithm>
#include <boost/asio/bind_executor.hpp>
#include <boost/asio/post.hpp>
#include <chrono>
#include <cmath>

#include "server/bot_workers.h"
#include "server/hub.h"
#include "server/tournaments.h"
#include "store/log.h"

namespace rainet::server {

using protocol::ErrorCode;
using protocol::MsgType;
using namespace room_detail;

GameRoom::GameRoom(Hub& hub, store::GameRow row)
    : hub_(hub),
      metrics_(hub.metrics()),
      strand_(asio::make_strand(hub.io())),
      timer_(strand_),
      botRetry_(strand_),
      id_(row.id),
      row_(std::move(row)),
      rng_(hub.ids().seed()) {
    ++metrics_.gamesLoaded[static_cast<int>(row_.status)];
    stateSince_ = hub_.time().nowCs();
    for (int i = 0; i < 2; ++i) {
        Seat& seat = seats_[i];
        seat.goneSince = hub_.time().nowCs();
        seat.player = row_.player[i];
        if (!seat.player) continue;
        auto p = hub_.store().playerById(seat.player);
        if (!p) {
            loadError_ = p.error();
        } else if (*p) {
            seat.publicId = (*p)->publicId;
            seat.name = (*p)->name;
            seat.rating = (*p)->rating;
            seat.botAccount = (*p)->bot;
        }
    }
}

GameRoom::~GameRoom() {
    --metrics_.gamesLoaded[static_cast<int>(row_.status)];
}

void GameRoom::setStatus(GameStatus status) {
    --metrics_.gamesLoaded[static_cast<int>(row_.status)];
    row_.status = status;
    ++metrics_.gamesLoaded[static_cast<int>(row_.status)];
    stateSince_ = hub_.time().nowCs();
    if (isCorrespondence()) {  // the new state's deadline (stored with the row)
        const bool running = status == GameStatus::Setup || status == GameStatus::Playing;
        row_.deadline = running ? hub_.time().unixMs() + perMoveMs() : 0;
        row_.toMove = status == GameStatus::Playing ? 1 : 0;
    }
}

Result<std::shared_ptr<GameRoom>> GameRoom::create(Hub& hub, store::GameRow row,
                                                   std::optional<Side> botSide) {
    std::shared_ptr<GameRoom> r(new GameRoom(hub, std::move(row)));
    if (r->loadError_) return *r->loadError_;  // its players could not be read
    if (botSide) {
        r->botSide_ = botSide;
        Seat& seat = r->seats_[index(*botSide)];
        seat.bot = true;
        seat.publicId = "computer";
        seat.name = botLabel(r->row_.level);
    }
    return r;
}

Result<std::shared_ptr<GameRoom>> GameRoom::restore(Hub& hub, const store::GameData& d) {
    std::optional<Side> botSide;
    if (d.game.opponent == "computer")
        botSide = d.game.player[0] == d.game.creator ? Side::Two : Side::One;
    auto created = create(hub, d.game, botSide);
    if (!created) return created;
    auto r = std::move(*created);
    r->setups_[0] = d.setup[0];
    r->setups_[1] = d.setup[1];
    r->ratings_ = d.ratings;
    // A tournament game: its tournament, and who berserked (their clock is stored; their lost
    // increment is not).
    if (d.game.opponent == "match") {
        auto t = hub.store().gameTournament(d.game.id);
        if (!t) return t.error();
        if (*t) {
            r->tournament_ = protocol::TournamentRef{(*t)->tournament, (*t)->name};
            for (int i = 0; i < 2; ++i) r->berserk_[i] = (*t)->berserk[i];
        }
    }
    // What the players wrote: chat, and the offers pending when the server stopped.
    for (const store::ChatRow& line : d.chat) {
        auto read = protocol::readChatLine(line.line);
        if (!read || line.channel < 0 || line.channel > 1) continue;
        r->chat_[line.channel].push_back(std::move(*read));
        r->chatSeq_ = std::max(r->chatSeq_, line.seq);
    }
    auto offerSide = [](int n) {
        return n == 1 || n == 2 ? std::optional<Side>(sideAt(n - 1)) : std::nullopt;
    };
    if (d.game.status == GameStatus::Playing) r->drawOffer_ = offerSide(d.game.drawOffer);
    r->nextGame_ = d.game.nextGame;
    if (r->nextGame_.empty()) r->rematchOffer_ = offerSide(d.game.rematchOffer);
    if (d.setup[0] < 0 || d.setup[1] < 0) return r;
    auto rules = Rules::byName(d.game.preset);
    if (!rules) return Error{"restore: unknown preset " + d.game.preset};
    auto p = Position::fromSetups(static_cast<std::uint8_t>(d.setup[0]),
                                  static_cast<std::uint8_t>(d.setup[1]), *rules);
    if (!p) return Error{"restore: " + p.error().message};
    r->start_ = r->pos_ = *p;
    if (botSide) r->botKnows_.emplace(View::of(*p, viewerOf(*botSide)));
    for (const auto& row : d.actions) {
        auto a = parseAction(row.action);
        if (!a || row.ply != r->pos_->ply() || !r->pos_->isLegal(*a))
            return Error{"restore: action " + std::to_string(row.ply) + " (" + row.action +
                         ") does not replay"};
        const Side mover = r->pos_->toMove();
        if (!row.clientId.empty())
            r->done_[index(mover)][row.clientId] =
                protocol::renderAck(protocol::Json::parse(row.clientId, nullptr, false), r->id_);
        if (botSide)
            if (auto e = r->botKnows_->observe(observe(*r->pos_, *a, viewerOf(*botSide))))
                return Error{"restore: the computer's knowledge of action " +
                             std::to_string(row.ply) + ": " + e->message};
        r->pos_->doAction(*a);
        r->actions_.push_back(*a);
    }
    r->turnStart_ = hub.time().nowCs();  // the downtime is not charged
    return r;
}

std::optional<Side> GameRoom::sideOf(std::int64_t player) const {
    for (int i = 0; i < 2; ++i)
        if (player && seats_[i].player == player) return sideAt(i);
    return std::nullopt;
}

Viewer GameRoom::roleOf(std::int64_t player) const {
    auto s = sideOf(player);
    return s ? viewerOf(*s) : Viewer::Spectator;
}

// ---------------------------------------------------------------- replies

void GameRoom::error(const std::shared_ptr<Client>& c, ErrorCode code, std::string message,
                     const protocol::ClientMessage& m) {
    metrics_.error(code);
    if (c) c->send(protocol::renderError(code, message, m.id, id_));
}

bool GameRoom::store(std::optional<Error> e, const std::shared_ptr<Client>& c,
                     const protocol::ClientMessage& m) {
    if (!e) return true;
    logEvent("store_error", {{"game", id_}, {"message", e->message}});
    if (store::commitUnknown(*e)) {
        // The write may be stored (the connection was lost before the commit's reply): this
        // room's memory can no longer be trusted. Evicted, unanswered: its clients reconnect
        // (1012) and resume from the store, which says whether the change was made; the next
        // open rebuilds the room from there.
        evict();
        return false;
    }
    error(c, ErrorCode::Internal, "the change could not be stored", m);
    return false;
}

void GameRoom::ack(const std::shared_ptr<Client>& c, Side s, const protocol::ClientMessage& m) {
    if (c) c->send(ackText(s, m));
}

std::string GameRoom::ackText(Side s, const protocol::ClientMessage& m) {
    std::string text = protocol::renderAck(m.id, id_, row_.version);
    done_[index(s)][m.id.dump()] = text;
    return text;
}

// ---------------------------------------------------------------- messages

void GameRoom::welcomeCreator(const std::shared_ptr<Client>& c, const store::PlayerRow& who,
                              const std::string& ackText) {
    c->send(ackText);
    const Viewer role = roleOf(who.id);
    subscribe(c, role, who.id);
    c->send(snapshot(role));
}

void GameRoom::handle(const std::shared_ptr<Client>& c, const store::PlayerRow& who,
                      const protocol::ClientMessage& m) {
    try {
        if (hub_.takeTestThrow(Hub::TestThrow::Game))
            throw std::runtime_error("test: thrown on demand in a game");
        dispatch(c, who, m);
    } catch (const std::exception& e) {
        error(c, ErrorCode::Internal, "the server failed handling this game; follow it again", m);
        fail(e.what());
    }
}

void GameRoom::enter(Task f) {
    if (broken()) return;
    if (committing_) return held_.push_back(std::move(f));
    guarded(f);
}

void GameRoom::guarded(const Task& f) {
    // A cluster node paused or cut off past its lease does nothing more for the game.
    if (!isOver(row_.status) && !hub_.leaseLive(id_)) return evict();
    try {
        f(*this);
    } catch (const std::exception& e) {
        fail(e.what());
    } catch (...) {
        fail("an exception that is not a std::exception");
    }
}

void GameRoom::resumeHeld() {
    while (!committing_ && !held_.empty() && !broken()) {
        Task f = std::move(held_.front());
        held_.pop_front();
        guarded(f);
    }
}

void GameRoom::fail(const std::string& what) {
    if (broken_.exchange(true)) return;
    ++metrics_.gamesFailed;
    logEvent("game_exception", {{"game", id_}, {"message", what}});
    const auto text = std::make_shared<const std::string>(protocol::renderError(
        ErrorCode::Internal, "the server failed handling this game; follow it again", nullptr,
        id_));
    shutDown([&](Client& c) { c.send(text); });
}

void GameRoom::evict() {
    if (broken_.exchange(true)) return;
    logEvent("game_evicted", {{"game", id_}});
    shutDown([](Client& c) { c.closeToReconnect(); });
}

void GameRoom::shutDown(const std::function<void(Client&)>& tell) {
    stop();
    // Out of the hub before anyone is told: a client that follows the game again at once, on
    // another thread, must find it gone and have it rebuilt, not reach this room (which would
    // ignore it: a follow left unanswered, seen once in ~30 runs of a test).
    const auto keep = shared_from_this();  // the hub may have held the last reference
    hub_.drop(id_, this);
    for (const Sub& sub : subs_)
        if (auto c = sub.client.lock()) tell(*c);
    subs_.clear();
}

}  // namespace rainet::server
