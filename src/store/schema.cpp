#include "store/schema.h"

#include <iterator>

namespace rainet::store {

namespace {

// Append a step for every schema change, in both dialects; never edit a step that has shipped.
// The dialects differ only in types: PostgreSQL needs BIGINT where SQLite's INTEGER holds 64 bits,
// an identity column for INTEGER PRIMARY KEY, DOUBLE PRECISION for REAL, and byte order ("C") for
// the game ids that listings sort by.
// Migration 3, the same in both dialects.
constexpr const char* kListingIndexes = R"sql(
DROP INDEX games_status;
DROP INDEX games_player1;
DROP INDEX games_player2;
DROP INDEX players_rated;
CREATE INDEX games_created ON games(created DESC, id);
CREATE INDEX games_status_created ON games(status, created DESC, id);
CREATE INDEX games_player1_created ON games(player1, created DESC, id);
CREATE INDEX games_player2_created ON games(player2, created DESC, id);
CREATE INDEX players_ranked ON players(rating DESC, rated_games DESC, id) WHERE rated_games > 0;
)sql";

// Migration 5, the same in both dialects.
constexpr const char* kBotFlag = "ALTER TABLE players ADD COLUMN bot INTEGER NOT NULL DEFAULT 0;";

// Migration 6: which node owns each live game in a cluster (store/game_lease.h).
// The games row is not touched, so a game's writes and its lease's renewals never contend.
#define RAINET_GAME_LEASES(collate)        \
    "CREATE TABLE game_leases (\n"         \
    "  game TEXT " collate                 \
    " PRIMARY KEY REFERENCES games(id),\n" \
    "  owner TEXT NOT NULL,\n"             \
    "  epoch BIGINT NOT NULL,\n"           \
    "  expires BIGINT NOT NULL\n"          \
    ");\n"                                 \
    "CREATE INDEX game_leases_expires ON game_leases(expires);\n"
constexpr const char* kGameLeasesSqlite = RAINET_GAME_LEASES("");
constexpr const char* kGameLeasesPostgres = RAINET_GAME_LEASES("COLLATE \"C\"");
#undef RAINET_GAME_LEASES

// Tournaments (store/tournament_rows.h): the tournament, who joined it, and its games. A
// tournament's game is an ordinary games row; tournament_games names its tournament, with what
// the standings need (the players, their ratings at the pairing, berserk, actions, the result),
// so that the standings are rebuilt from these rows after a restart. Self-contained: it only
// references players and games.
#define RAINET_TOURNAMENTS(collate)                                                             \
    "CREATE TABLE tournaments (\n"                                                              \
    "  id TEXT " collate                                                                        \
    " PRIMARY KEY,\n"                                                                           \
    "  format TEXT NOT NULL,\n"                                                                 \
    "  name TEXT NOT NULL,\n"                                                                   \
    "  creator BIGINT REFERENCES players(id),\n"                                                \
    "  schedule TEXT NOT NULL DEFAULT '',\n"                                                    \
    "  preset TEXT NOT NULL,\n"                                                                 \
    "  clock_initial BIGINT NOT NULL,\n"                                                        \
    "  clock_increment BIGINT NOT NULL,\n"                                                      \
    "  rated INTEGER NOT NULL,\n"                                                               \
    "  bots INTEGER NOT NULL,\n"                                                                \
    "  starts BIGINT NOT NULL,\n"                                                               \
    "  duration BIGINT NOT NULL,\n"                                                             \
    "  legs INTEGER NOT NULL,\n"                                                                \
    "  max_players INTEGER NOT NULL,\n"                                                         \
    "  status TEXT NOT NULL,\n"                                                                 \
    "  created BIGINT NOT NULL,\n"                                                              \
    "  ended BIGINT NOT NULL DEFAULT 0\n"                                                       \
    ");\n"                                                                                      \
    "CREATE INDEX tournaments_status_starts ON tournaments(status, starts, id);\n"              \
    "CREATE INDEX tournaments_creator ON tournaments(creator, status);\n"                       \
    "CREATE UNIQUE INDEX tournaments_schedule ON tournaments(schedule) WHERE schedule <> '';\n" \
    "CREATE TABLE tournament_players (\n"                                                       \
    "  tournament TEXT " collate                                                                \
    " NOT NULL REFERENCES tournaments(id),\n"                                                   \
    "  player BIGINT NOT NULL REFERENCES players(id),\n"                                        \
    "  joined BIGINT NOT NULL,\n"                                                               \
    "  state INTEGER NOT NULL DEFAULT 0,\n"                                                     \
    "  seed INTEGER NOT NULL DEFAULT 0,\n"                                                      \
    "  PRIMARY KEY (tournament, player)\n"                                                      \
    ");\n"                                                                                      \
    "CREATE INDEX tournament_players_player ON tournament_players(player);\n"                   \
    "CREATE TABLE tournament_games (\n"                                                         \
    "  game TEXT " collate                                                                      \
    " PRIMARY KEY REFERENCES games(id),\n"                                                      \
    "  tournament TEXT " collate                                                                \
    " NOT NULL REFERENCES tournaments(id),\n"                                                   \
    "  round INTEGER NOT NULL DEFAULT 0,\n"                                                     \
    "  player1 BIGINT NOT NULL REFERENCES players(id),\n"                                       \
    "  player2 BIGINT NOT NULL REFERENCES players(id),\n"                                       \
    "  rating1 INTEGER NOT NULL,\n"                                                             \
    "  rating2 INTEGER NOT NULL,\n"                                                             \
    "  started BIGINT NOT NULL,\n"                                                              \
    "  berserk1 INTEGER NOT NULL DEFAULT 0,\n"                                                  \
    "  berserk2 INTEGER NOT NULL DEFAULT 0,\n"                                                  \
    "  actions1 INTEGER NOT NULL DEFAULT 0,\n"                                                  \
    "  actions2 INTEGER NOT NULL DEFAULT 0,\n"                                                  \
    "  result TEXT NOT NULL DEFAULT '',\n"                                                      \
    "  ended BIGINT NOT NULL DEFAULT 0\n"                                                       \
    ");\n"                                                                                      \
    "CREATE INDEX tournament_games_tournament ON tournament_games(tournament, started, game);\n"
constexpr const char* kTournamentsSqlite = RAINET_TOURNAMENTS("");
constexpr const char* kTournamentsPostgres = RAINET_TOURNAMENTS("COLLATE \"C\"");
#undef RAINET_TOURNAMENTS
// Migration 8: each player's inbox (store/notification_store.cpp), read newest first by
// (player_id, id); the id increases with every notification.
#define RAINET_NOTIFICATIONS(id, big)                                      \
    "CREATE TABLE notifications (\n"                                       \
    "  id " id                                                             \
    ",\n"                                                                  \
    "  player_id " big                                                     \
    " NOT NULL REFERENCES players(id),\n"                                  \
    "  kind TEXT NOT NULL,\n"                                              \
    "  data TEXT NOT NULL,\n"                                              \
    "  created_ms " big                                                    \
    " NOT NULL,\n"                                                         \
    "  read INTEGER NOT NULL DEFAULT 0\n"                                  \
    ");\n"                                                                 \
    "CREATE INDEX notifications_player ON notifications(player_id, id);\n" \
    "CREATE INDEX notifications_created ON notifications(created_ms);\n"
constexpr const char* kNotificationsSqlite =
    RAINET_NOTIFICATIONS("INTEGER PRIMARY KEY AUTOINCREMENT", "INTEGER");
constexpr const char* kNotificationsPostgres =
    RAINET_NOTIFICATIONS("BIGINT GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY", "BIGINT");
#undef RAINET_NOTIFICATIONS

// Migration 9: who follows whom, challenges between named players, and each player's choice of
// who may challenge it (store/social_store.cpp).
#define RAINET_SOCIAL(big)                                                              \
    "CREATE TABLE follows (\n"                                                          \
    "  follower " big                                                                   \
    " NOT NULL REFERENCES players(id),\n"                                               \
    "  followed " big                                                                   \
    " NOT NULL REFERENCES players(id),\n"                                               \
    "  created " big                                                                    \
    " NOT NULL,\n"                                                                      \
    "  PRIMARY KEY (follower, followed)\n"                                              \
    ");\n"                                                                              \
    "CREATE INDEX follows_followed ON follows(followed);\n"                             \
    "CREATE TABLE challenges (\n"                                                       \
    "  id TEXT PRIMARY KEY,\n"                                                          \
    "  challenger " big                                                                 \
    " NOT NULL REFERENCES players(id),\n"                                               \
    "  challenged " big                                                                 \
    " NOT NULL REFERENCES players(id),\n"                                               \
    "  preset TEXT NOT NULL,\n"                                                         \
    "  clock_initial INTEGER NOT NULL,\n"                                               \
    "  clock_increment INTEGER NOT NULL,\n"                                             \
    "  rated INTEGER NOT NULL,\n"                                                       \
    "  side TEXT NOT NULL,\n"                                                           \
    "  status TEXT NOT NULL,\n"                                                         \
    "  reason TEXT NOT NULL DEFAULT '',\n"                                              \
    "  game TEXT NOT NULL DEFAULT '',\n"                                                \
    "  created " big                                                                    \
    " NOT NULL,\n"                                                                      \
    "  expires " big                                                                    \
    " NOT NULL\n"                                                                       \
    ");\n"                                                                              \
    "CREATE INDEX challenges_challenged ON challenges(challenged, status);\n"           \
    "CREATE INDEX challenges_challenger ON challenges(challenger, status);\n"           \
    "CREATE INDEX challenges_expires ON challenges(status, expires);\n"                 \
    "ALTER TABLE players ADD COLUMN challenge_from TEXT NOT NULL DEFAULT 'everyone';\n" \
    "ALTER TABLE players ADD COLUMN challenge_bots INTEGER NOT NULL DEFAULT 1;\n"
constexpr const char* kSocialSqlite = RAINET_SOCIAL("INTEGER");
constexpr const char* kSocialPostgres = RAINET_SOCIAL("BIGINT");
#undef RAINET_SOCIAL

// Moderation (store/moderation_store.cpp): who blocked whom; players' reports, open until a
// moderator closes them; moderator and admin roles; the current ban and mute of a player (one of
// each at most; `until_ms` 0 = with no end; `by` 0 = the operator); and the moderation log, every
// action with who, whom, why and when (`actor` 0 = the operator, through `rainet admin`).
// Self-contained: it only references players.
#define RAINET_MODERATION(id, big)                                   \
    "CREATE TABLE blocks (\n"                                        \
    "  player " big                                                  \
    " NOT NULL REFERENCES players(id),\n"                            \
    "  blocked " big                                                 \
    " NOT NULL REFERENCES players(id),\n"                            \
    "  created " big                                                 \
    " NOT NULL,\n"                                                   \
    "  PRIMARY KEY (player, blocked)\n"                              \
    ");\n"                                                           \
    "CREATE INDEX blocks_blocked ON blocks(blocked);\n"              \
    "CREATE TABLE reports (\n"                                       \
    "  id " id                                                       \
    ",\n"                                                            \
    "  reporter " big                                                \
    " NOT NULL REFERENCES players(id),\n"                            \
    "  target " big                                                  \
    " NOT NULL REFERENCES players(id),\n"                            \
    "  game TEXT NOT NULL DEFAULT '',\n"                             \
    "  reason TEXT NOT NULL,\n"                                      \
    "  text TEXT NOT NULL,\n"                                        \
    "  created " big                                                 \
    " NOT NULL,\n"                                                   \
    "  state TEXT NOT NULL DEFAULT 'open'\n"                         \
    ");\n"                                                           \
    "CREATE INDEX reports_state ON reports(state, id);\n"            \
    "CREATE INDEX reports_reporter ON reports(reporter, created);\n" \
    "CREATE TABLE roles (\n"                                         \
    "  player " big                                                  \
    " NOT NULL REFERENCES players(id),\n"                            \
    "  role TEXT NOT NULL,\n"                                        \
    "  PRIMARY KEY (player, role)\n"                                 \
    ");\n"                                                           \
    "CREATE TABLE sanctions (\n"                                     \
    "  player " big                                                  \
    " NOT NULL REFERENCES players(id),\n"                            \
    "  kind TEXT NOT NULL,\n"                                        \
    "  until_ms " big                                                \
    " NOT NULL,\n"                                                   \
    "  by_player " big                                               \
    " NOT NULL,\n"                                                   \
    "  reason TEXT NOT NULL,\n"                                      \
    "  created " big                                                 \
    " NOT NULL,\n"                                                   \
    "  PRIMARY KEY (player, kind)\n"                                 \
    ");\n"                                                           \
    "CREATE TABLE moderation_log (\n"                                \
    "  id " id                                                       \
    ",\n"                                                            \
    "  actor " big                                                   \
    " NOT NULL,\n"                                                   \
    "  action TEXT NOT NULL,\n"                                      \
    "  target " big                                                  \
    " NOT NULL,\n"                                                   \
    "  reason TEXT NOT NULL,\n"                                      \
    "  at " big                                                      \
    " NOT NULL\n"                                                    \
    ");\n"
constexpr const char* kModerationSqlite =
    RAINET_MODERATION("INTEGER PRIMARY KEY AUTOINCREMENT", "INTEGER");
constexpr const char* kModerationPostgres =
    RAINET_MODERATION("BIGINT GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY", "BIGINT");
#undef RAINET_MODERATION

constexpr Migration kMigrations[] = {
    // 1: players, games, setups, actions. SQLite databases made before migrations existed hold
    // exactly these tables at user_version 0, hence IF NOT EXISTS.
    {R"sql(
CREATE TABLE IF NOT EXISTS players (
  id INTEGER PRIMARY KEY,
  public_id TEXT NOT NULL UNIQUE,
  token_hash TEXT NOT NULL UNIQUE,
  name TEXT NOT NULL,
  kind TEXT NOT NULL DEFAULT 'guest',
  created INTEGER NOT NULL DEFAULT (CAST(strftime('%s','now') AS INTEGER) * 1000)
);
CREATE TABLE IF NOT EXISTS games (
  id TEXT PRIMARY KEY,
  preset TEXT NOT NULL,
  clock_initial INTEGER NOT NULL,
  clock_increment INTEGER NOT NULL,
  opponent TEXT NOT NULL,
  level INTEGER NOT NULL,
  side_wish TEXT NOT NULL,
  creator INTEGER NOT NULL REFERENCES players(id),
  player1 INTEGER REFERENCES players(id),
  player2 INTEGER REFERENCES players(id),
  status TEXT NOT NULL,
  result TEXT NOT NULL DEFAULT '',
  reason TEXT NOT NULL DEFAULT '',
  version INTEGER NOT NULL,
  clock1 INTEGER NOT NULL,
  clock2 INTEGER NOT NULL,
  created INTEGER NOT NULL,
  ended INTEGER NOT NULL DEFAULT 0
);
CREATE INDEX IF NOT EXISTS games_status ON games(status);
CREATE INDEX IF NOT EXISTS games_player1 ON games(player1);
CREATE INDEX IF NOT EXISTS games_player2 ON games(player2);
CREATE TABLE IF NOT EXISTS setups (
  game TEXT NOT NULL REFERENCES games(id),
  side INTEGER NOT NULL,
  links INTEGER NOT NULL,
  PRIMARY KEY (game, side)
);
CREATE TABLE IF NOT EXISTS actions (
  game TEXT NOT NULL REFERENCES games(id),
  ply INTEGER NOT NULL,
  action TEXT NOT NULL,
  client_id TEXT NOT NULL,
  clock_after INTEGER NOT NULL,
  version INTEGER NOT NULL,
  PRIMARY KEY (game, ply)
) WITHOUT ROWID;
)sql",
     R"sql(
CREATE TABLE players (
  id BIGINT GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY,
  public_id TEXT NOT NULL UNIQUE,
  token_hash TEXT NOT NULL UNIQUE,
  name TEXT NOT NULL,
  kind TEXT NOT NULL DEFAULT 'guest',
  created BIGINT NOT NULL DEFAULT (CAST(floor(EXTRACT(EPOCH FROM now())) AS BIGINT) * 1000)
);
CREATE TABLE games (
  id TEXT COLLATE "C" PRIMARY KEY,
  preset TEXT NOT NULL,
  clock_initial INTEGER NOT NULL,
  clock_increment INTEGER NOT NULL,
  opponent TEXT NOT NULL,
  level INTEGER NOT NULL,
  side_wish TEXT NOT NULL,
  creator BIGINT NOT NULL REFERENCES players(id),
  player1 BIGINT REFERENCES players(id),
  player2 BIGINT REFERENCES players(id),
  status TEXT NOT NULL,
  result TEXT NOT NULL DEFAULT '',
  reason TEXT NOT NULL DEFAULT '',
  version BIGINT NOT NULL,
  clock1 BIGINT NOT NULL,
  clock2 BIGINT NOT NULL,
  created BIGINT NOT NULL,
  ended BIGINT NOT NULL DEFAULT 0
);
CREATE INDEX games_status ON games(status);
CREATE INDEX games_player1 ON games(player1);
CREATE INDEX games_player2 ON games(player2);
CREATE TABLE setups (
  game TEXT COLLATE "C" NOT NULL REFERENCES games(id),
  side INTEGER NOT NULL,
  links INTEGER NOT NULL,
  PRIMARY KEY (game, side)
);
CREATE TABLE actions (
  game TEXT COLLATE "C" NOT NULL REFERENCES games(id),
  ply INTEGER NOT NULL,
  action TEXT NOT NULL,
  client_id TEXT NOT NULL,
  clock_after BIGINT NOT NULL,
  version BIGINT NOT NULL,
  PRIMARY KEY (game, ply)
);
)sql"},
    // 2: accounts; several tokens per player (every guest token is carried over, so existing
    // browsers keep their identity; players.token_hash is no longer read); Glicko-2 ratings.
    {R"sql(
CREATE TABLE tokens (
  hash TEXT PRIMARY KEY,
  player INTEGER NOT NULL REFERENCES players(id),
  created INTEGER NOT NULL DEFAULT (CAST(strftime('%s','now') AS INTEGER) * 1000)
) WITHOUT ROWID;
CREATE INDEX tokens_player ON tokens(player);
INSERT INTO tokens (hash, player, created) SELECT token_hash, id, created FROM players;
CREATE TABLE accounts (
  player INTEGER PRIMARY KEY REFERENCES players(id),
  username TEXT NOT NULL,
  username_key TEXT NOT NULL UNIQUE,
  password_hash TEXT NOT NULL,
  created INTEGER NOT NULL DEFAULT (CAST(strftime('%s','now') AS INTEGER) * 1000)
);
ALTER TABLE players ADD COLUMN rating REAL NOT NULL DEFAULT 1500;
ALTER TABLE players ADD COLUMN rating_rd REAL NOT NULL DEFAULT 350;
ALTER TABLE players ADD COLUMN rating_volatility REAL NOT NULL DEFAULT 0.06;
ALTER TABLE players ADD COLUMN rated_games INTEGER NOT NULL DEFAULT 0;
CREATE INDEX players_rated ON players(rating DESC) WHERE rated_games > 0;
ALTER TABLE games ADD COLUMN rated INTEGER NOT NULL DEFAULT 0;
CREATE TABLE game_ratings (
  game TEXT NOT NULL REFERENCES games(id),
  side INTEGER NOT NULL,
  player INTEGER NOT NULL REFERENCES players(id),
  before REAL NOT NULL,
  after REAL NOT NULL,
  rd_before REAL NOT NULL,
  rd_after REAL NOT NULL,
  PRIMARY KEY (game, side)
) WITHOUT ROWID;
)sql",
     R"sql(
CREATE TABLE tokens (
  hash TEXT PRIMARY KEY,
  player BIGINT NOT NULL REFERENCES players(id),
  created BIGINT NOT NULL DEFAULT (CAST(floor(EXTRACT(EPOCH FROM now())) AS BIGINT) * 1000)
);
CREATE INDEX tokens_player ON tokens(player);
INSERT INTO tokens (hash, player, created) SELECT token_hash, id, created FROM players;
CREATE TABLE accounts (
  player BIGINT PRIMARY KEY REFERENCES players(id),
  username TEXT NOT NULL,
  username_key TEXT NOT NULL UNIQUE,
  password_hash TEXT NOT NULL,
  created BIGINT NOT NULL DEFAULT (CAST(floor(EXTRACT(EPOCH FROM now())) AS BIGINT) * 1000)
);
ALTER TABLE players ADD COLUMN rating DOUBLE PRECISION NOT NULL DEFAULT 1500;
ALTER TABLE players ADD COLUMN rating_rd DOUBLE PRECISION NOT NULL DEFAULT 350;
ALTER TABLE players ADD COLUMN rating_volatility DOUBLE PRECISION NOT NULL DEFAULT 0.06;
ALTER TABLE players ADD COLUMN rated_games INTEGER NOT NULL DEFAULT 0;
CREATE INDEX players_rated ON players(rating DESC) WHERE rated_games > 0;
ALTER TABLE games ADD COLUMN rated INTEGER NOT NULL DEFAULT 0;
CREATE TABLE game_ratings (
  game TEXT COLLATE "C" NOT NULL REFERENCES games(id),
  side INTEGER NOT NULL,
  player BIGINT NOT NULL REFERENCES players(id),
  before DOUBLE PRECISION NOT NULL,
  after DOUBLE PRECISION NOT NULL,
  rd_before DOUBLE PRECISION NOT NULL,
  rd_after DOUBLE PRECISION NOT NULL,
  PRIMARY KEY (game, side)
);
)sql"},
    // 3: the listings' indexes, each in the order its keyset pagination reads (newest games
    // first, ties by id; the leaderboard best first): a page is one range scan, whatever its depth.
    {kListingIndexes, kListingIndexes},
    // 4: what players wrote survives a restart: pending draw and rematch offers and the link to
    // the rematch (games), chat lines (chat, numbered per game); the start of each player's
    // rating period (players.rated_at, unix ms; 0 = never rated), from which an idle player's
    // rating deviation grows (store/glicko2.h).
    {R"sql(
ALTER TABLE games ADD COLUMN draw_offer INTEGER NOT NULL DEFAULT 0;
ALTER TABLE games ADD COLUMN rematch_offer INTEGER NOT NULL DEFAULT 0;
ALTER TABLE games ADD COLUMN next_game TEXT NOT NULL DEFAULT '';
CREATE TABLE chat (
  game TEXT NOT NULL REFERENCES games(id),
  seq INTEGER NOT NULL,
  channel INTEGER NOT NULL,
  line TEXT NOT NULL,
  PRIMARY KEY (game, seq)
) WITHOUT ROWID;
ALTER TABLE players ADD COLUMN rated_at INTEGER NOT NULL DEFAULT 0;
)sql",
     R"sql(
ALTER TABLE games ADD COLUMN draw_offer INTEGER NOT NULL DEFAULT 0;
ALTER TABLE games ADD COLUMN rematch_offer INTEGER NOT NULL DEFAULT 0;
ALTER TABLE games ADD COLUMN next_game TEXT NOT NULL DEFAULT '';
CREATE TABLE chat (
  game TEXT COLLATE "C" NOT NULL REFERENCES games(id),
  seq BIGINT NOT NULL,
  channel INTEGER NOT NULL,
  line TEXT NOT NULL,
  PRIMARY KEY (game, seq)
);
ALTER TABLE players ADD COLUMN rated_at BIGINT NOT NULL DEFAULT 0;
)sql"},
    // 5: bot accounts (players.bot = 1): accounts played by a program through `rainet bot`,
    // flagged in every player object of the protocol (docs/bot.md).
    {kBotFlag, kBotFlag},
    // 6: game leases for a cluster of nodes.
    {kGameLeasesSqlite, kGameLeasesPostgres},
    // 7: tournaments, their players and their games.
    {kTournamentsSqlite, kTournamentsPostgres},
    // 8: notifications, a stored inbox per player (docs/protocol.md, "Notifications").
    {kNotificationsSqlite, kNotificationsPostgres},
    // 9: follows, challenges, who may challenge a player (docs/protocol.md, "Challenges").
    {kSocialSqlite, kSocialPostgres},
    // 10: correspondence games (days per move): the deadline of the state in progress (unix ms;
    // the side to move's move, or the setup) and the side to move, so that a restart keeps them
    // and the "your turn" list reads them with the player's games in play; whether a follower is
    // told when the followed player starts a game (follows.notify_starts, off by default).
    {R"sql(
ALTER TABLE games ADD COLUMN deadline INTEGER NOT NULL DEFAULT 0;
ALTER TABLE games ADD COLUMN to_move INTEGER NOT NULL DEFAULT 0;
CREATE INDEX games_correspondence1 ON games(player1, deadline) WHERE clock_increment = -1 AND status = 'playing';
CREATE INDEX games_correspondence2 ON games(player2, deadline) WHERE clock_increment = -1 AND status = 'playing';
ALTER TABLE follows ADD COLUMN notify_starts INTEGER NOT NULL DEFAULT 0;
)sql",
     R"sql(
ALTER TABLE games ADD COLUMN deadline BIGINT NOT NULL DEFAULT 0;
ALTER TABLE games ADD COLUMN to_move INTEGER NOT NULL DEFAULT 0;
CREATE INDEX games_correspondence1 ON games(player1, deadline) WHERE clock_increment = -1 AND status = 'playing';
CREATE INDEX games_correspondence2 ON games(player2, deadline) WHERE clock_increment = -1 AND status = 'playing';
ALTER TABLE follows ADD COLUMN notify_starts INTEGER NOT NULL DEFAULT 0;
)sql"},
    // 11: blocks, reports, roles, bans and mutes, the moderation log (docs/deploy.md,
    // "Moderation").
    {kModerationSqlite, kModerationPostgres},
};

}  // namespace

std::span<const Migration> migrations() {
    return kMigrations;
}

}  // namespace rainet::store
