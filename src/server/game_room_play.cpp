// The game's changes of state: a seat taken, an arrangement set, play started, an action, the
// end. Each is stored first, then acknowledged and broadcast.
#include "server/game_room_detail.h"

#include <algorithm>
#include <boost/asio/bind_executor.hpp>
#include <boost/asio/post.hpp>
#include <chrono>
#include <cmath>

#include "server/bot_workers.h"
#include "server/hub.h"
#include "server/player_object.h"
#include "server/tournaments.h"
#include "store/log.h"

namespace rainet::server {

using protocol::ErrorCode;
using protocol::MsgType;
using namespace room_detail;

void GameRoom::join(const std::shared_ptr<Client>& c, const store::PlayerRow& who,
                    const protocol::ClientMessage& m) {
    if (auto s = sideOf(who.id)) {
        c->send(protocol::renderAck(m.id, id_));
        subscribe(c, viewerOf(*s), who.id);
        c->send(snapshot(viewerOf(*s)));
        return;
    }
    if (row_.status != GameStatus::Open)
        return error(c, ErrorCode::WrongStatus, "the game is not open", m);
    const int i = row_.player[0] ? 1 : 0;
    const store::GameRow saved = row_;
    row_.player[i] = who.id;
    setStatus(GameStatus::Setup);
    ++row_.version;
    commit(
        [row = row_, player = who.id](store::Store& st,
                                      const Fence& f) -> Result<std::optional<double>> {
            if (auto e = st.updateGame(row, f)) return *e;
            auto fresh = st.playerById(player);  // who's rating may be older
            if (fresh && *fresh) return std::optional<double>((*fresh)->rating);
            return std::optional<double>();
        },
        [c, who, m, i, saved](GameRoom& r, const Result<std::optional<double>>& stored) {
            if (!r.store(stored ? std::nullopt : std::optional<Error>(stored.error()), c, m)) {
                r.setStatus(saved.status);
                r.row_ = saved;
                return;
            }
            r.joined(c, who, m, i, *stored);
        });
}

void GameRoom::joined(const std::shared_ptr<Client>& c, const store::PlayerRow& who,
                      const protocol::ClientMessage& m, int i, std::optional<double> rating) {
    Seat& seat = seats_[i];
    seat.player = who.id;
    seat.publicId = who.publicId;
    seat.name = who.name;
    seat.rating = rating.value_or(who.rating);
    seat.botAccount = who.bot;
    seat.goneSince = hub_.time().nowCs();
    hub_.setLobbyEntry(id_, std::nullopt);
    c->send(protocol::renderAck(m.id, id_, row_.version));
    PlayerFacts facts = factsOf(who);
    facts.rating = seat.rating;
    const protocol::JoinedEvent e{id_, row_.version, sideAt(i),
                                  playerObject(facts, PlayerPlace::Public)};
    emit([&](Viewer) { return e; });
    subscribe(c, viewerOf(sideAt(i)), who.id);
    c->send(snapshot(viewerOf(sideAt(i))));
}

void GameRoom::setup(const std::shared_ptr<Client>& c, Side s, std::uint8_t links,
                     const protocol::ClientMessage& m) {
    const store::GameRow saved = row_;
    ++row_.version;
    commit([row = row_, side = sideNumber(s), links](
               store::Store& st, const Fence& f) { return st.saveSetup(row, side, links, f); },
           [c, s, links, m, saved](GameRoom& r, std::optional<Error> e) {
               if (!r.store(e, c, m)) {
                   r.row_ = saved;
                   return;
               }
               r.setups_[index(s)] = links;
               r.ack(c, s, m);
               r.emit([&](Viewer v) {
                   protocol::SetupEvent ev{r.id_, r.row_.version, s, std::nullopt};
                   if (v == viewerOf(s)) ev.links = protocol::setupSquares(s, links);
                   return ev;
               });
               if (r.setups_[0] >= 0 && r.setups_[1] >= 0) r.startPlay();
           });
}

void GameRoom::startPlay() {
    auto p = Position::fromSetups(static_cast<std::uint8_t>(setups_[0]),
                                  static_cast<std::uint8_t>(setups_[1]),
                                  Rules::byName(row_.preset).value_or(Rules::standard()));
    if (!p) {
        logEvent("start_error", {{"game", id_}, {"message", p.error().message}});
        return;
    }
    const store::GameRow saved = row_;
    setStatus(GameStatus::Playing);
    ++row_.version;
    row_.clock[0] = row_.clock[1] = row_.clockInitial;
    for (int i = 0; i < 2; ++i)
        if (berserk_[i]) row_.clock[i] = berserkCs(row_.clockInitial);
    commit([row = row_](store::Store& st, const Fence& f) { return st.updateGame(row, f); },
           [saved, p = *p](GameRoom& r, std::optional<Error> e) {
               if (e) {
                   logEvent("store_error", {{"game", r.id_}, {"message", e->message}});
                   r.setStatus(saved.status);
                   r.row_ = saved;
                   return;
               }
               r.started(p);
           });
}

void GameRoom::started(const Position& p) {
    start_ = pos_ = p;
    turnStart_ = hub_.time().nowCs();
    if (botSide_) botKnows_.emplace(View::of(*start_, viewerOf(*botSide_)));
    const auto clockNow = clocks();
    emit([&](Viewer v) {
        protocol::StartEvent e{id_, row_.version, View::of(*pos_, v).toString(), std::nullopt,
                               clockNow};
        if (viewerOf(pos_->toMove()) == v) e.legal = legal(v);
        return e;
    });
    logEvent("game_start", {{"game", id_}});
    for (const Seat& seat : seats_)
        if (seat.player && !seat.bot)
            hub_.notifyGameStarted(seat.player, seat.publicId, seat.name, id_);
    armTimer();
    botThink();
}

void GameRoom::act(const std::shared_ptr<Client>& c, Side s, Action a,
                   const protocol::ClientMessage& m) {
    const std::int64_t now = hub_.time().nowCs();
    const int i = index(s);
    const store::GameRow saved = row_;
    if (isTimed()) {
        const std::int64_t left = remaining(s);
        if (left <= 0) {
            error(c, ErrorCode::WrongStatus, "your time is up", m);
            return checkClock();
        }
        if (isCorrespondence()) {  // a full move's time again, and the opponent's deadline
            row_.deadline = hub_.time().unixMs() + perMoveMs();
            row_.toMove = 2 - i;
        } else {
            row_.clock[i] = left + (berserk_[i] ? 0 : row_.clockIncrement);
        }
    }
    ++row_.version;
    store::ActionRow ar{pos_->ply(), toString(a), c ? m.id.dump() : std::string(), row_.clock[i],
                        row_.version};
    // In a cluster the write is fenced by the game's lease: it fails once another node owns it.
    std::optional<store::GameLease> fence = hub_.fence(id_);
    if (hub_.cluster() && !fence) {
        row_ = saved;
        return evict();
    }
    committing_ = true;
    auto done = [self = shared_from_this(), c = c, s, a, m = m, saved = saved,
                 now](std::optional<Error> e) mutable {
        // On the store's writer thread: back to the strand, ahead of what was held. Moved,
        // not copied (init-captures, not const): each copy of a shared pointer here is an
        // atomic operation on a cache line that the network threads own (it showed in the
        // server's profile).
        GameRoom& room = *self;
        room.afterCommit(std::move(self),
                         [c = std::move(c), s, a, m = std::move(m), saved = std::move(saved), now,
                          e = std::move(e)](GameRoom& r) { r.acted(c, s, a, m, saved, now, e); });
    };
    if (!isCorrespondence())
        return hub_.store().saveActionBatched(row_, ar, std::move(done), std::move(fence));
    // The deadline is written with the action (not by group commit: a few moves a day).
    hub_.store().write(
        [&st = hub_.store(), row = row_, ar, fence = std::move(fence),
         done = std::move(done)]() mutable { done(st.saveCorrespondenceAction(row, ar, fence)); });
}

void GameRoom::acted(const std::shared_ptr<Client>& c, Side s, Action a,
                     const protocol::ClientMessage& m, const store::GameRow& saved,
                     std::int64_t now, std::optional<Error> stored) {
    if (stored && hub_.cluster() && !hub_.leaseLive(id_)) {
        row_ = saved;  // fenced out: the game is another node's now
        return evict();
    }
    if (!store(stored, c, m)) {
        row_ = saved;
        if (!c && botSide_ && s == *botSide_ && !broken()) botRetryLater();
        return;
    }
    const Position before = *pos_;
    pos_->doAction(a);
    actions_.push_back(a);
    turnStart_ = now;
    drawOffer_.reset();
    ++metrics_.actions;
    if (botKnows_)
        if (auto e = botKnows_->observe(observe(before, a, viewerOf(*botSide_))))
            logEvent("bot_knowledge_error", {{"game", id_}, {"message", e->message}});
    // Sent with the mover's event (publish).
    auto ack = c ? std::make_shared<const std::string>(ackText(s, m)) : nullptr;
    const bool over = pos_->isOver();
    // Written directly (protocol/server_messages.h), once per viewer class; the viewer to move
    // gets its legal actions live, the held copy goes without them as in emit().
    protocol::ActionEvent e{id_, row_.version, before.ply(), s,           {},
                            {},  nullptr,      clocks(),     std::nullopt};
    // Whether the sides may abort changes only here in play (the second action ends it).
    const bool abortEnds =
        canAbort(GameStatus::Playing, before.ply()) && !canAbort(GameStatus::Playing, pos_->ply());
    Texts live, held;
    for (Viewer v : kViewers) {
        const int i = static_cast<int>(v);
        e.abortable = abortEnds && isSide(v) ? std::optional(false) : std::nullopt;
        const View view = View::of(*pos_, v);
        const std::string viewText = view.toString();
        e.seen = observe(before, a, v);
        e.view = viewText;
        e.legal = nullptr;
        held[i] = std::make_shared<const std::string>(protocol::render(e));
        live[i] = held[i];
        if (!over && viewerOf(pos_->toMove()) == v) {
            const ActionList legal = view.legalActions();
            e.legal = &legal;
            live[i] = std::make_shared<const std::string>(protocol::render(e));
        }
    }
    publish(live, held, c, std::move(ack));
    if (over) {
        const Outcome o = pos_->outcome();
        std::optional<Side> winner;
        if (o == Outcome::Side1Wins) winner = Side::One;
        if (o == Outcome::Side2Wins) winner = Side::Two;
        return end(winner, gameEnd(pos_->endReason()));
    }
    notifyTurn();
    armTimer();
    botThink();
}

void GameRoom::notifyTurn() {
    // A correspondence game's next mover, when no connection of theirs follows the game.
    if (!isCorrespondence() || !pos_) return;
    const std::size_t i = static_cast<std::size_t>(index(pos_->toMove()));
    const Seat& me = seats_[i];
    const Seat& other = seats_[1 - i];
    if (!me.player || me.bot || me.connections > 0) return;
    hub_.notify(me.player, "your_turn",
                {{"game", id_},
                 {"opponent", protocol::Json{{"id", other.publicId}, {"name", other.name}}},
                 {"deadline", row_.deadline}});
}

int GameRoom::actionsOf(Side s) const {
    const int n = static_cast<int>(actions_.size());
    return s == Side::One ? (n + 1) / 2 : n / 2;
}

void GameRoom::berserk(const std::shared_ptr<Client>& c, Side s, const protocol::ClientMessage& m) {
    if (!isUnderWay(row_.status)) return error(c, ErrorCode::BerserkRefused, "the game is over", m);
    const auto why = hub_.tournaments().berserk(id_, seats_[index(s)].player, actionsOf(s));
    if (why == "not_tournament")
        return error(c, ErrorCode::BadMessage, "berserk is for tournament games", m);
    if (why == "berserk_too_late")
        return error(c, ErrorCode::BerserkRefused, "berserk only before your first action", m);
    if (why == "already_berserk")
        return error(c, ErrorCode::BerserkRefused, "you have already berserked", m);
    if (why) return error(c, ErrorCode::BerserkRefused, "the game is over", m);
    berserk_[index(s)] = true;
    if (row_.status != GameStatus::Playing) {  // applied when play starts
        ack(c, s, m);
        return announceBerserk(s);
    }
    const store::GameRow saved = row_;
    row_.clock[index(s)] = berserkCs(row_.clockInitial);
    commit([row = row_](store::Store& st, const Fence& f) { return st.updateGame(row, f); },
           [c, s, m, saved](GameRoom& r, std::optional<Error> e) {
               if (!r.store(e, c, m)) {
                   r.row_ = saved;
                   return;
               }
               r.ack(c, s, m);
               r.announceBerserk(s);
           });
}

void GameRoom::announceBerserk(Side s) {
    sendAll(protocol::BerserkMessage{id_, s, clocks().value_or(protocol::Clocks{})});
}

void GameRoom::end(std::optional<Side> winner, GameEnd reason, Task beforeBroadcast) {
    const store::GameRow saved = row_;
    const bool aborted = reason == GameEnd::Aborted;
    if (isTimed() && row_.status == GameStatus::Playing && pos_)
        row_.clock[index(pos_->toMove())] = remaining(pos_->toMove());
    const GameStatus oldStatus = row_.status;
    setStatus(aborted ? GameStatus::Aborted : GameStatus::Finished);
    row_.result = resultOf(winner, reason);
    row_.reason = toString(reason);
    row_.ended = hub_.time().unixMs();
    ++row_.version;
    // The result and the ratings it changes are stored together (store::Store::finishGame).
    commit([row = row_](store::Store& st, const Fence& f) { return st.finishGame(row, f); },
           [saved, oldStatus, before = std::move(beforeBroadcast)](
               GameRoom& r, const Result<std::vector<store::RatingChange>>& rated) {
               if (!rated) {
                   logEvent("store_error", {{"game", r.id_}, {"message", rated.error().message}});
                   r.setStatus(oldStatus);
                   r.row_ = saved;
                   // Perhaps ended in the store after all: resumed from there (GameRoom::store).
                   if (store::commitUnknown(rated.error())) return r.evict();
                   r.armTimer(kEndRetryMs);  // the game goes on: its clock too
                   return;
               }
               r.ended(*rated, before);
           });
}

void GameRoom::notifyEnded() {
    // Only a finished game, to a person who was not there to see it end.
    if (row_.status != GameStatus::Finished) return;
    for (std::size_t i = 0; i < 2; ++i) {
        const Seat& me = seats_[i];
        const Seat& other = seats_[1 - i];
        if (!me.player || me.bot || me.connections > 0) continue;
        hub_.notify(me.player, "game_ended",
                    {{"game", id_},
                     {"result", row_.result},
                     {"reason", row_.reason},
                     {"opponent",
                      other.bot ? protocol::Json{{"id", nullptr}, {"name", other.name}}
                                : protocol::Json{{"id", other.publicId}, {"name", other.name}}}});
    }
}

void GameRoom::ended(std::vector<store::RatingChange> ratings, const Task& beforeBroadcast) {
    ratings_ = std::move(ratings);
    for (std::size_t i = 0; i < ratings_.size() && i < 2; ++i) seats_[i].rating = ratings_[i].after;
    drawOffer_.reset();
    ++timerGeneration_;
    timer_.cancel();
    // What only play needs goes now: an ended room is kept only while someone follows it.
    botKnows_.reset();
    chatBuckets_.clear();
    if (beforeBroadcast) beforeBroadcast(*this);
    const protocol::EndEvent e{id_, row_.version, result().value_or(protocol::Result{}), clocks()};
    emit([&](Viewer) { return e; });
    // An ended room keeps only the events from its end on (a resume from before gets a
    // snapshot): most of a room's memory, and ended rooms live as long as someone follows them.
    while (events_.size() > 1) events_.pop_front();
    events_.shrink_to_fit();
    notifyEnded();
    hub_.setLobbyEntry(id_, std::nullopt);
    hub_.retire(id_);
    const int actions[2] = {actionsOf(Side::One), actionsOf(Side::Two)};
    hub_.tournaments().gameEnded(row_, actions);
    logEvent("game_end", {{"game", id_},
                          {"result", row_.result},
                          {"reason", row_.reason},
                          {"plies", actions_.size()}});
}

}  // namespace rainet::server
