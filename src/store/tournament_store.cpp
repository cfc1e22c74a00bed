// The store's tournaments (store/tournament_rows.h): rows of tournaments, tournament_players and
// tournament_games (schema step 7).
#include "store/pool_lease.h"
#include "store/store.h"

namespace rainet::store {
namespace {

constexpr const char* kTournamentColumns =
    "t.id, t.format, t.name, t.creator, t.schedule, t.preset, t.clock_initial, t.clock_increment, "
    "t.rated, t.bots, t.starts, t.duration, t.legs, t.max_players, t.status, t.created, t.ended";

TournamentRow readTournament(const Statement& st) {
    TournamentRow t;
    t.id = st.text(0);
    t.format = st.text(1);
    t.name = st.text(2);
    t.creator = st.integer(3);
    t.schedule = st.text(4);
    t.preset = st.text(5);
    t.clockInitial = st.integer(6);
    t.clockIncrement = st.integer(7);
    t.rated = st.integer(8) != 0;
    t.bots = st.integer(9) != 0;
    t.starts = st.integer(10);
    t.duration = st.integer(11);
    t.legs = static_cast<int>(st.integer(12));
    t.maxPlayers = static_cast<int>(st.integer(13));
    t.status = st.text(14);
    t.created = st.integer(15);
    t.ended = st.integer(16);
    return t;
}

std::int64_t flag(bool b) {
    return b ? 1 : 0;
}

// Runs a one-statement write in its own transaction.
std::optional<Error> writeOne(Database& db, Statement& st) {
    if (auto e = db.begin()) return e;
    if (auto e = done(st)) {
        db.rollback();
        return e;
    }
    return db.commit();
}

}  // namespace

std::optional<Error> Store::insertTournament(const TournamentRow& t) {
    auto db = lease();
    auto st = db->prepare(
        "INSERT INTO tournaments (id, format, name, creator, schedule, preset, clock_initial, "
        "clock_increment, rated, bots, starts, duration, legs, max_players, status, created, "
        "ended) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)");
    st->bind(1, t.id);
    st->bind(2, t.format);
    st->bind(3, t.name);
    st->bindPlayer(4, t.creator);
    st->bind(5, t.schedule);
    st->bind(6, t.preset);
    st->bind(7, t.clockInitial);
    st->bind(8, t.clockIncrement);
    st->bind(9, flag(t.rated));
    st->bind(10, flag(t.bots));
    st->bind(11, t.starts);
    st->bind(12, t.duration);
    st->bind(13, t.legs);
    st->bind(14, t.maxPlayers);
    st->bind(15, t.status);
    st->bind(16, t.created);
    st->bind(17, t.ended);
    return writeOne(*db, *st);
}

std::optional<Error> Store::updateTournamentStatus(const std::string& id, const std::string& status,
                                                   std::int64_t ended) {
    auto db = lease();
    auto st = db->prepare("UPDATE tournaments SET status = ?, ended = ? WHERE id = ?");
    st->bind(1, status);
    st->bind(2, ended);
    st->bind(3, id);
    return writeOne(*db, *st);
}

Result<bool> Store::joinTournament(const std::string& id, std::int64_t player, std::int64_t now,
                                   int seed) {
    auto db = lease();
    if (auto e = db->begin()) return *e;
    // New: inserted active. Paused: active again. Withdrawn: untouched, no row returned.
    auto st = db->prepare(
        "INSERT INTO tournament_players (tournament, player, joined, state, seed) "
        "VALUES (?1, ?2, ?3, 0, ?4) ON CONFLICT (tournament, player) DO UPDATE SET state = 0 "
        "WHERE tournament_players.state <> 2 RETURNING player");
    st->bind(1, id);
    st->bind(2, player);
    st->bind(3, now);
    st->bind(4, seed);
    const Step s = st->step();
    if (s == Step::Failed) {
        Error e{st->error()};
        db->rollback();
        return e;
    }
    const bool joined = s == Step::Row;
    if (joined) {
        if (auto e = done(*st)) {
            db->rollback();
            return *e;
        }
    }
    if (auto e = db->commit()) return *e;
    return joined;
}

std::optional<Error> Store::setEntrant(const std::string& id, std::int64_t player, Entrant state) {
    auto db = lease();
    auto st =
        db->prepare("UPDATE tournament_players SET state = ? WHERE tournament = ? AND player = ?");
    st->bind(1, static_cast<int>(state));
    st->bind(2, id);
    st->bind(3, player);
    return writeOne(*db, *st);
}

std::optional<Error> Store::addTournamentGame(const std::string& id, const TournamentGameRow& g) {
    auto db = lease();
    auto st = db->prepare(
        "INSERT INTO tournament_games (game, tournament, round, player1, player2, rating1, "
        "rating2, started, berserk1, berserk2, actions1, actions2, result, ended) "
        "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)");
    st->bind(1, g.game);
    st->bind(2, id);
    st->bind(3, g.round);
    st->bind(4, g.player[0]);
    st->bind(5, g.player[1]);
    st->bind(6, g.rating[0]);
    st->bind(7, g.rating[1]);
    st->bind(8, g.started);
    st->bind(9, flag(g.berserk[0]));
    st->bind(10, flag(g.berserk[1]));
    st->bind(11, g.actions[0]);
    st->bind(12, g.actions[1]);
    st->bind(13, g.result);
    st->bind(14, g.ended);
    return writeOne(*db, *st);
}

std::optional<Error> Store::finishTournamentGame(const TournamentGameRow& g) {
    auto db = lease();
    auto st = db->prepare(
        "UPDATE tournament_games SET berserk1 = ?, berserk2 = ?, actions1 = ?, actions2 = ?, "
        "result = ?, ended = ? WHERE game = ?");
    st->bind(1, flag(g.berserk[0]));
    st->bind(2, flag(g.berserk[1]));
    st->bind(3, g.actions[0]);
    st->bind(4, g.actions[1]);
    st->bind(5, g.result);
    st->bind(6, g.ended);
    st->bind(7, g.game);
    return writeOne(*db, *st);
}

Lookup<TournamentData> Store::loadTournament(const std::string& id) {
    auto db = readLease();
    if (auto e = db->beginRead()) return *e;
    struct End {
        Database& db;
        ~End() { db.endRead(); }
    } end{*db};
    TournamentData out;
    {
        auto st = db->prepare(
            (std::string("SELECT ") + kTournamentColumns + " FROM tournaments t WHERE t.id = ?")
                .c_str());
        st->bind(1, id);
        const Step s = st->step();
        if (s == Step::Failed) return Error{st->error()};
        if (s == Step::Done) return std::nullopt;
        out.tournament = readTournament(*st);
    }
    {
        auto st = db->prepare(
            "SELECT tp.player, tp.joined, tp.state, tp.seed, p.public_id, p.name, p.kind, "
            "p.rating, p.bot FROM tournament_players tp JOIN players p ON p.id = tp.player "
            "WHERE tp.tournament = ? ORDER BY tp.joined, tp.player");
        st->bind(1, id);
        Step s;
        while ((s = st->step()) == Step::Row) {
            TournamentPlayerRow p;
            p.player = st->integer(0);
            p.joined = st->integer(1);
            const auto state = st->integer(2);
            p.state = state == 1   ? Entrant::Paused
                      : state == 2 ? Entrant::Withdrawn
                                   : Entrant::Active;
            p.seed = static_cast<int>(st->integer(3));
            p.publicId = st->text(4);
            p.name = st->text(5);
            p.kind = st->text(6);
            p.rating = st->real(7);
            p.bot = st->integer(8) != 0;
            out.players.push_back(std::move(p));
        }
        if (s == Step::Failed) return Error{st->error()};
    }
    {
        auto st = db->prepare(
            "SELECT game, round, player1, player2, rating1, rating2, started, berserk1, berserk2, "
            "actions1, actions2, result, ended FROM tournament_games WHERE tournament = ? "
            "ORDER BY started, game");
        st->bind(1, id);
        Step s;
        while ((s = st->step()) == Step::Row) {
            TournamentGameRow g;
            g.game = st->text(0);
            g.round = static_cast<int>(st->integer(1));
            g.player[0] = st->integer(2);
            g.player[1] = st->integer(3);
            g.rating[0] = static_cast<int>(st->integer(4));
            g.rating[1] = static_cast<int>(st->integer(5));
            g.started = st->integer(6);
            g.berserk[0] = st->integer(7) != 0;
            g.berserk[1] = st->integer(8) != 0;
            g.actions[0] = static_cast<int>(st->integer(9));
            g.actions[1] = static_cast<int>(st->integer(10));
            g.result = st->text(11);
            g.ended = st->integer(12);
            out.games.push_back(std::move(g));
        }
        if (s == Step::Failed) return Error{st->error()};
    }
    return out;
}

Result<std::string> Store::tournamentOfGame(const std::string& game) {
    auto db = readLease();
    auto st = db->prepare("SELECT tournament FROM tournament_games WHERE game = ?");
    st->bind(1, game);
    const Step s = st->step();
    if (s == Step::Failed) return Error{st->error()};
    return s == Step::Row ? st->text(0) : std::string();
}

Lookup<GameTournamentRow> Store::gameTournament(const std::string& game) {
    auto db = readLease();
    auto st = db->prepare(
        "SELECT t.id, t.name, g.berserk1, g.berserk2 FROM tournament_games g "
        "JOIN tournaments t ON t.id = g.tournament WHERE g.game = ?");
    st->bind(1, game);
    const Step s = st->step();
    if (s == Step::Failed) return Error{st->error()};
    if (s == Step::Done) return std::nullopt;
    GameTournamentRow r;
    r.tournament = st->text(0);
    r.name = st->text(1);
    r.berserk[0] = st->integer(2) != 0;
    r.berserk[1] = st->integer(3) != 0;
    return r;
}

Result<std::vector<Store::TournamentListing>> Store::listTournaments(const std::string& status,
                                                                     int limit) {
    auto db = readLease();
    std::string sql = std::string("SELECT ") + kTournamentColumns +
                      ", (SELECT COUNT(*) FROM tournament_players tp WHERE tp.tournament = t.id) "
                      "FROM tournaments t";
    if (!status.empty()) sql += " WHERE t.status = ?1";
    sql += status == "finished" ? " ORDER BY t.starts DESC, t.id" : " ORDER BY t.starts, t.id";
    sql += status.empty() ? " LIMIT ?1" : " LIMIT ?2";
    auto st = db->prepare(sql.c_str());
    if (!status.empty()) {
        st->bind(1, status);
        st->bind(2, limit);
    } else {
        st->bind(1, limit);
    }
    std::vector<TournamentListing> out;
    Step s;
    while ((s = st->step()) == Step::Row) {
        out.push_back({readTournament(*st), static_cast<int>(st->integer(17))});
    }
    if (s == Step::Failed) return Error{st->error()};
    return out;
}

Result<int> Store::openTournamentsBy(std::int64_t creator) {
    auto db = readLease();
    auto st =
        db->prepare("SELECT COUNT(*) FROM tournaments WHERE creator = ? AND status <> 'finished'");
    st->bind(1, creator);
    if (st->step() != Step::Row) return Error{st->error()};
    return static_cast<int>(st->integer(0));
}

}  // namespace rainet::store
