// The field tables of server_messages.h: the values render as the server sends them today (the
// golden transcripts' bytes), every rendering passes the validator, the validator refuses each
// kind of defect by name, every message of the recorded transcripts is valid, and the checked-in
// web/src/protocol.gen.ts is what the tables generate.
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>

#include "protocol/server_messages.h"
#include "protocol/typescript.h"
#include "support/protocol_validate.h"

namespace rainet::protocol {
namespace {

std::string sourceDir() {
    const char* src = std::getenv("RAINET_SOURCE_DIR");
    return src ? src : "";
}

std::string readFile(const std::filesystem::path& p) {
    std::ifstream in(p, std::ios::binary);
    std::stringstream s;
    s << in.rdbuf();
    return s.str();
}

// The validator's verdict on one rendered value (nullopt: valid).
template <class T>
std::optional<std::string> verdict(const T& x) {
    return validateServerMessage(Json::parse(render(x)));
}

template <class T>
void expectDefaultValid() {
    EXPECT_EQ(verdict(T{}), std::nullopt) << T::kName;
}

template <class... T>
void expectDefaultsValid() {
    (expectDefaultValid<T>(), ...);
}

TEST(MessageSchema, EveryMessageHasItsOwnTypeAndKind) {
    std::set<std::pair<std::string_view, std::string_view>> seen;
    for (const MessageDef& d : serverMessages()) {
        EXPECT_FALSE(d.type.empty()) << d.schema->name;
        EXPECT_TRUE(seen.insert({d.type, d.kind}).second) << d.type << " " << d.kind;
        EXPECT_EQ(findMessage(d.type, d.kind), &d);
    }
    EXPECT_EQ(seen.size(), 34u);
    EXPECT_EQ(findMessage("event", "nonsense"), nullptr);
}

TEST(MessageSchema, DefaultValuesRenderValid) {
    expectDefaultsValid<WelcomeMessage, ErrorMessage, Snapshot, PresenceMessage, LobbyMessage,
                        ChatMessage, SpectatorsMessage, MatchedMessage, PongMessage, HiddenEvent,
                        JoinedEvent, SetupEvent, StartEvent, ActionEvent, DrawOfferEvent,
                        DrawDeclineEvent, RematchOfferEvent, RematchDeclineEvent, EndEvent,
                        RematchEvent, TournamentMessage, TournamentsMessage, NotificationMessage,
                        NotificationsMessage, UnreadMessage, BerserkMessage, MyGamesMessage,
                        BlockedMessage, ReportsMessage>();
    EXPECT_EQ(verdict(Ack{7, "g1", 3, std::nullopt, std::nullopt}), std::nullopt);
}

// The tournament message as docs/protocol.md shows it.
TEST(MessageSchema, TournamentRendersAsDocumented) {
    TournamentMessage m;
    m.now = 1765000000000;
    m.tournament = {"tR2K8QW1",
                    "Evening arena",
                    "arena",
                    "running",
                    Preset::Standard,
                    {18000, 200, std::nullopt},
                    true,
                    false,
                    1764999000000,
                    1765002600000,
                    4};
    StandingEntry e;
    e.rank = 1;
    e.player = Player{"pA1", "alice", {}, std::optional<std::int64_t>(1532), {}, {}, {}};
    e.points = 4;
    e.performance = 1900;
    e.games = 2;
    e.fire = true;
    e.berserks = 1;
    e.state = "active";
    e.sheet = {2, 2};
    e.game = "gK3P9QX2";
    m.standings.push_back(e);
    EXPECT_EQ(
        render(m),
        R"({"type":"tournament","tournament":{"id":"tR2K8QW1","name":"Evening arena","format":"arena","status":"running","preset":"standard","clock":{"initial":18000,"increment":200},"rated":true,"bots":false,"startsAt":1764999000000,"endsAt":1765002600000,"players":4},"now":1765000000000,"standings":[{"rank":1,"player":{"id":"pA1","name":"alice","rating":1532},"points":4,"performance":1900,"games":2,"fire":true,"berserks":1,"state":"active","sheet":[2,2],"game":"gK3P9QX2"}]})");
    EXPECT_EQ(verdict(m), std::nullopt);
    EXPECT_EQ(verdict(Ack{7, {}, std::nullopt, std::nullopt, std::string("tR2K8QW1")}),
              std::nullopt);
}

Player seat(std::string id, std::string name) {
    return Player{std::move(id), std::move(name), {}, std::optional<std::int64_t>(1500),
                  true,          false,           {}};
}

// Values built as the server builds them give the bytes of the committed transcripts.
TEST(MessageSchema, ValuesRenderAsTheGoldenTranscripts) {
    WelcomeMessage w{"ab8a83efb364bf3f6739348519b53c8e8e0f7b4c06b6eeb881ad73dcf0059107",
                     {"p2", "guest-2", PlayerKind::Guest, 1500, {}, {}, {}},
                     {},
                     {},
                     {}};
    EXPECT_EQ(
        render(w),
        R"({"type":"welcome","token":"ab8a83efb364bf3f6739348519b53c8e8e0f7b4c06b6eeb881ad73dcf0059107","player":{"id":"p2","name":"guest-2","kind":"guest","rating":1500},"games":[]})");
    EXPECT_EQ(render(PresenceMessage{"g1", Side::Two, true}),
              R"({"type":"presence","game":"g1","side":"2","connected":true})");
    EXPECT_EQ(render(SpectatorsMessage{"g1", 1}), R"({"type":"spectators","game":"g1","count":1})");
    Snapshot s;
    s.game = "g1";
    s.v = 1;
    s.you = Viewer::Side2;
    s.status = GameStatus::Setup;
    s.opponent = Opponent::Invite;
    s.rated = true;
    s.clock = ClockSetting{6000, 100, std::nullopt};
    s.clocks = Clocks{{6000, 6000}, std::nullopt, std::nullopt};
    s.players = {seat("p1", "guest-1"), seat("p2", "guest-2")};
    s.grace = 6000;
    s.spectators = 1;
    EXPECT_EQ(
        render(s),
        R"({"type":"snapshot","game":"g1","v":1,"you":"2","status":"setup","preset":"standard","opponent":"invite","level":null,"rated":true,"clock":{"initial":6000,"increment":100},"clocks":{"1":6000,"2":6000,"running":null},"players":{"1":{"id":"p1","name":"guest-1","rating":1500,"connected":true,"bot":false},"2":{"id":"p2","name":"guest-2","rating":1500,"connected":true,"bot":false}},"setup":{"1":false,"2":false},"view":null,"history":[],"draw_offer":null,"grace":6000,"spectators":1,"result":null})");
    EXPECT_EQ(
        render(JoinedEvent{"g1", 1, Side::Two, {"p2", "guest-2", {}, 1500, {}, {}, {}}}),
        R"({"type":"event","game":"g1","v":1,"kind":"joined","side":"2","player":{"id":"p2","name":"guest-2","rating":1500}})");
    EXPECT_EQ(
        render(SetupEvent{"g1", 2, Side::One, std::vector<std::string>{"a1", "b1", "c1", "d2"}}),
        R"({"type":"event","game":"g1","v":2,"kind":"setup","side":"1","links":["a1","b1","c1","d2"]})");
    EXPECT_EQ(render(SetupEvent{"g1", 3, Side::Two, {}}),
              R"({"type":"event","game":"g1","v":3,"kind":"setup","side":"2"})");
    EXPECT_EQ(
        render(StartEvent{"g1",
                          4,
                          "xxx2xxx/3xx3/8/8/8/8/3XX3/XXX2XXX 1 CNcn -/- 0 0",
                          {},
                          Clocks{{6000, 6000}, Side::One, std::nullopt}}),
        R"({"type":"event","game":"g1","v":4,"kind":"start","view":"xxx2xxx/3xx3/8/8/8/8/3XX3/XXX2XXX 1 CNcn -/- 0 0","clocks":{"1":6000,"2":6000,"running":"1"}})");
    EXPECT_EQ(render(DrawOfferEvent{"g1", 13, Side::One}),
              R"({"type":"event","game":"g1","v":13,"kind":"draw_offer","side":"1"})");
    EXPECT_EQ(render(DrawDeclineEvent{"g1", 14, Side::Two}),
              R"({"type":"event","game":"g1","v":14,"kind":"draw_decline","side":"2"})");
}

// The messages the golden transcripts do not hold, rendered with every optional field present,
// as docs/protocol.md shows them.
TEST(MessageSchema, FullValuesRenderAsDocumentedAndValid) {
    Result r{GameResult::OneWins,
             Side::One,
             GameEnd::FourLinks,
             std::string("P"),
             {{"a1", "b1", "c1", "d2"}, {"a8", "b8", "c8", "d7"}},
             SideRatings{{1500, 1662}, {1612, 1540}}};
    const EndEvent end{"gK3P9QX2", 40, r, Clocks{{12000, 8000}, std::nullopt, std::nullopt}};
    EXPECT_EQ(
        render(end),
        R"({"type":"event","game":"gK3P9QX2","v":40,"kind":"end","result":"1-0","winner":"1","reason":"four_links","position":"P","setups":{"1":["a1","b1","c1","d2"],"2":["a8","b8","c8","d7"]},"ratings":{"1":{"before":1500,"after":1662},"2":{"before":1612,"after":1540}},"clocks":{"1":12000,"2":8000,"running":null}})");
    EXPECT_EQ(verdict(end), std::nullopt);
    const ChatLine line{ChatChannel::Players,
                        4,
                        Player{"p4XQ2", "alice", {}, {}, {}, {}, {}},
                        Side::One,
                        "good luck, have fun",
                        1764669600000};
    const ChatMessage chat{"gK3P9QX2", line};
    EXPECT_EQ(
        render(chat),
        R"({"type":"chat","game":"gK3P9QX2","channel":"players","n":4,"from":{"id":"p4XQ2","name":"alice"},"side":"1","text":"good luck, have fun","at":1764669600000})");
    EXPECT_EQ(verdict(chat), std::nullopt);
    const LobbyMessage lobby{
        {LobbyEntry{"gK3P9QX2", Preset::Standard, ClockSetting{30000, 200, std::nullopt},
                    Player{"p4XQ2", "alice", {}, 1500, {}, true, {}}, SideWish::Random, true}},
        {SeekEntry{Preset::Official, std::nullopt, true, 1}}};
    EXPECT_EQ(
        render(lobby),
        R"({"type":"lobby","games":[{"game":"gK3P9QX2","preset":"standard","clock":{"initial":30000,"increment":200},"creator":{"id":"p4XQ2","name":"alice","rating":1500,"bot":true},"side":"random","rated":true}],"seeks":[{"preset":"official","clock":null,"rated":true,"players":1}]})");
    EXPECT_EQ(verdict(lobby), std::nullopt);
    Snapshot s;
    s.status = GameStatus::Finished;
    s.opponent = Opponent::Computer;
    s.level = 3;
    s.players = {Player{"p1", "a", {}, 1500, false, false, 700},
                 Player{"c", "computer", {}, std::optional<std::int64_t>(), true, true, {}}};
    s.links = std::vector<std::string>{"a8"};
    // A std::string, not a literal: gcc 12 reports a false -Wrestrict (GCC bug 105329) in
    // optional<string>::operator=(const char*) once inlined into this test at -O3.
    s.view = std::string("v");
    s.history = {HistoryEntry{0, Side::One, "VC+a8", Revealed::Virus}};
    s.legal = std::vector<std::string>{};
    s.drawOffer = Side::Two;
    s.result = r;
    s.rematch = RematchState{Side::One, std::nullopt};
    s.chat = std::vector<ChatLine>{line};
    EXPECT_EQ(verdict(s), std::nullopt);
    EXPECT_EQ(
        render(
            ErrorMessage{ErrorCode::IllegalAction, "d2-d4 is not legal here", Json(4), "gK3P9QX2"}),
        R"({"type":"error","code":"illegal_action","message":"d2-d4 is not legal here","id":4,"game":"gK3P9QX2"})");
    EXPECT_EQ(render(ErrorMessage{ErrorCode::BadJson, "x", std::nullopt, {}}),
              R"({"type":"error","code":"bad_json","message":"x"})");
    EXPECT_EQ(render(PongMessage{Json(7)}), R"({"type":"pong","id":7})");
    EXPECT_EQ(render(PongMessage{}), R"({"type":"pong","id":null})");
    EXPECT_EQ(render(MatchedMessage{"gR2K8QW1", Side::Two}),
              R"({"type":"matched","game":"gR2K8QW1","side":"2"})");
    EXPECT_EQ(render(RematchEvent{"g1", 9, "g2"}),
              R"({"type":"event","game":"g1","v":9,"kind":"rematch","next_game":"g2"})");
    EXPECT_EQ(render(HiddenEvent{"g1", 9}), R"({"type":"event","game":"g1","v":9})");
    const WelcomeMessage w{"t",
                           {"p1", "bob", PlayerKind::Account, 1500, {}, true, {}},
                           {PlayerGame{"g1", Side::Two, GameStatus::Playing}},
                           Json("L1"),
                           {}};
    EXPECT_EQ(
        render(w),
        R"({"type":"welcome","token":"t","player":{"id":"p1","name":"bob","kind":"account","rating":1500,"bot":true},"games":[{"game":"g1","side":"2","status":"playing"}],"id":"L1"})");
    EXPECT_EQ(verdict(w), std::nullopt);
}

// ---------------------------------------------------------------- the validator on bad input

std::string refusal(std::string_view text) {
    auto v = validateServerMessage(Json::parse(text));
    return v ? *v : "(valid)";
}

TEST(MessageValidator, RefusesAnUnknownTypeOrKind) {
    EXPECT_EQ(refusal(R"({"type":"welcom","token":"t"})"), R"(unknown message type "welcom")");
    EXPECT_EQ(refusal(R"({"type":"event","game":"g1","v":1,"kind":"explode"})"),
              R"(unknown message type "event" kind "explode")");
    EXPECT_EQ(refusal(R"({"game":"g1"})"), R"(no string field type: {"game":"g1"})");
    EXPECT_EQ(refusal(R"({"type":7})"), R"(no string field type: {"type":7})");
    EXPECT_EQ(refusal(R"(["type","ack"])"), R"(not a JSON object: ["type","ack"])");
    EXPECT_EQ(refusal(R"({"type":"event","game":"g1","v":1,"kind":3})"),
              "event: field kind: expected a string, got 3");
}

TEST(MessageValidator, RefusesAMissingRequiredField) {
    EXPECT_EQ(refusal(R"({"type":"presence","game":"g1","side":"2"})"),
              "PresenceMessage (presence): missing required field connected");
    // Nested: a seat's player without a name.
    EXPECT_EQ(
        refusal(
            R"({"type":"event","game":"g1","v":1,"kind":"joined","side":"2","player":{"id":"p2"}})"),
        "JoinedEvent (event joined): missing required field player.name");
}

TEST(MessageValidator, RefusesAWrongJsonType) {
    EXPECT_EQ(refusal(R"({"type":"spectators","game":"g1","count":"1"})"),
              R"(SpectatorsMessage (spectators): field count: expected an integer, got "1")");
    EXPECT_EQ(refusal(R"({"type":"spectators","game":"g1","count":1.5})"),
              "SpectatorsMessage (spectators): field count: expected an integer, got 1.5");
    EXPECT_EQ(refusal(R"({"type":"presence","game":"g1","side":"2","connected":1})"),
              "PresenceMessage (presence): field connected: expected a boolean, got 1");
    EXPECT_EQ(refusal(R"({"type":"ack","id":[1]})"),
              "AckMessage (ack): field id: expected a string or an integer, got [1]");
    // Inside an array element.
    EXPECT_EQ(
        refusal(R"({"type":"event","game":"g1","v":2,"kind":"setup","side":"1","links":["a1",2]})"),
        "SetupEvent (event setup): field links.1: expected a string, got 2");
    // Null where the table does not allow it.
    EXPECT_EQ(refusal(R"({"type":"presence","game":null,"side":"2","connected":true})"),
              "PresenceMessage (presence): field game: expected a string, got null");
    EXPECT_EQ(refusal(R"({"type":"matched","game":"g1","side":"2","x":1})"),
              "MatchedMessage (matched): unknown field x");
}

TEST(MessageValidator, RefusesAnUnknownExtraField) {
    EXPECT_EQ(refusal(R"({"type":"pong","id":7,"secret":"x"})"),
              "PongMessage (pong): unknown field secret");
    // Nested, as a hidden fact would leak: a card identity in a history entry.
    EXPECT_EQ(
        refusal(
            R"({"type":"snapshot","game":"g1","v":0,"you":"1","status":"open","preset":"standard","opponent":"invite","level":null,"rated":true,"clock":null,"clocks":null,"players":{"1":null,"2":null},"setup":{"1":false,"2":false},"view":null,"history":[{"ply":0,"side":"1","action":"d2-d3","card":"link"}],"draw_offer":null,"grace":6000,"spectators":0,"result":null})"),
        "SnapshotMessage (snapshot): unknown field history.0.card");
    // An event's fields belong to its kind: `links` is not a field of draw_offer.
    EXPECT_EQ(
        refusal(R"({"type":"event","game":"g1","v":3,"kind":"draw_offer","side":"1","links":[]})"),
        "DrawOfferEvent (event draw_offer): unknown field links");
    // The hidden event carries nothing but game and v.
    EXPECT_EQ(refusal(R"({"type":"event","game":"g1","v":3,"side":"1"})"),
              "HiddenEvent (event): unknown field side");
}

TEST(MessageValidator, RefusesAValueOutsideItsEnum) {
    EXPECT_EQ(refusal(R"({"type":"matched","game":"g1","side":"3"})"),
              R"(MatchedMessage (matched): field side: expected one of "1" "2", got "3")");
    EXPECT_EQ(refusal(R"({"type":"error","code":"oops","message":"m"})").substr(0, 50),
              R"(ErrorMessage (error): field code: expected one of )");
    EXPECT_EQ(
        refusal(
            R"({"type":"event","game":"g1","v":5,"kind":"action","ply":0,"side":"1","action":"d2-d3","revealed":"card","view":"v","clocks":null,"draw_offer":null})"),
        R"(ActionEvent (event action): field revealed: expected one of "link" "virus", got "card")");
}

// ---------------------------------------------------------------- recorded transcripts

TEST(MessageValidator, EveryMessageOfTheGoldenTranscriptsIsValid) {
    ASSERT_FALSE(sourceDir().empty()) << "RAINET_SOURCE_DIR is not set";
    const std::filesystem::path dir = sourceDir() + "/tests/server/golden";
    std::set<std::string> kinds;
    int messages = 0;
    for (const auto& entry : std::filesystem::directory_iterator(dir)) {
        if (entry.path().extension() != ".jsonl") continue;
        std::istringstream in(readFile(entry.path()));
        std::string line;
        for (int n = 1; std::getline(in, line); ++n) {
            const Json m = Json::parse(line, nullptr, false);
            ASSERT_FALSE(m.is_discarded()) << entry.path() << ":" << n << " is not JSON";
            EXPECT_EQ(validateServerMessage(m), std::nullopt) << entry.path() << ":" << n;
            kinds.insert(m.value("type", "") + " " + m.value("kind", ""));
            ++messages;
        }
    }
    // The transcripts hold welcome, ack, presence, snapshot, spectators and six event kinds.
    EXPECT_GT(messages, 60);
    EXPECT_GE(kinds.size(), 11u);
}

// ---------------------------------------------------------------- generated TypeScript

TEST(ProtocolTypeScript, CheckedInFileIsWhatTheTablesGenerate) {
    ASSERT_FALSE(sourceDir().empty()) << "RAINET_SOURCE_DIR is not set";
    const std::string path = sourceDir() + "/web/src/protocol.gen.ts";
    EXPECT_TRUE(readFile(path) == typescriptTypes())
        << path << " is out of date with src/protocol: run scripts/gen-protocol-ts.sh (or "
        << "`cmake --build --preset default --target gen-protocol-ts`) and commit the result";
}

TEST(ProtocolTypeScript, EveryMessageIsInTheUnion) {
    const std::string ts = typescriptTypes();
    for (const MessageDef& d : serverMessages()) {
        const std::string entry = "\n  | " + std::string(d.schema->name);
        EXPECT_TRUE(ts.find(entry + "\n") != std::string::npos ||
                    ts.find(entry + ";") != std::string::npos)
            << d.schema->name;
    }
    EXPECT_NE(ts.find("export type SideId = '1' | '2';"), std::string::npos);
    EXPECT_NE(ts.find("  rating?: number | null;"), std::string::npos);
    EXPECT_NE(ts.find("  '1': Player | null;"), std::string::npos);
}

}  // namespace
}  // namespace rainet::protocol
