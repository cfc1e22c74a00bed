// The direct serializers of server_messages.h against the tree-and-dump rendering they replace
// (kept here as the reference): the same bytes for every viewer class over many random games, so
// that the leak tests' byte-identical property cannot drift.
#include "protocol/server_messages.h"

#include <gtest/gtest.h>

#include "core/random.h"
#include "protocol/json_out.h"
#include "support/protocol_validate.h"

namespace rainet::protocol {
namespace {

constexpr Viewer kViewers[3] = {Viewer::Side1, Viewer::Side2, Viewer::Spectator};

// Four of a side's eight setup squares hold links (as ai::randomSetup, which this layer cannot
// link).
std::uint8_t randomLinks(Rng& rng) {
    std::uint8_t mask = 0;
    for (int n = 0; n < 4;) {
        const auto b = static_cast<std::uint8_t>(1u << rng.below(8));
        if (mask & b) continue;
        mask |= b;
        ++n;
    }
    return mask;
}

const char* sideText(Side s) {
    return s == Side::One ? "1" : "2";
}

// What GameRoom::acted sent before the direct serializer, built as it built it.
Json treeClocks(const std::optional<Clocks>& c) {
    if (!c) return nullptr;
    Json j;
    j["1"] = c->remaining[0];
    j["2"] = c->remaining[1];
    j["running"] = c->running ? Json(sideText(*c->running)) : Json(nullptr);
    return j;
}

std::string treeActionEvent(const std::string& game, std::int64_t v, const Position& before,
                            Action a, const Position& after, Viewer viewer, bool withLegal,
                            const std::optional<Clocks>& clocks) {
    Json j{{"type", "event"}, {"game", game}, {"v", v}};
    const Observation o = observe(before, a, viewer);
    j["kind"] = "action";
    j["ply"] = before.ply();
    j["side"] = sideText(before.toMove());
    j["action"] = toString(o.action, o.swapKnown ? Notation::Full : Notation::Public);
    if (o.revealedLink) j["revealed"] = *o.revealedLink ? "link" : "virus";
    j["view"] = View::of(after, viewer).toString();
    if (withLegal) {
        Json l = Json::array();
        for (Action x : View::of(after, viewer).legalActions()) l.push_back(toString(x));
        j["legal"] = l;
    }
    j["clocks"] = treeClocks(clocks);
    j["draw_offer"] = nullptr;
    return j.dump();
}

std::optional<Clocks> randomClocks(Rng& rng) {
    if (rng.below(3) == 0) return std::nullopt;
    Clocks c{{static_cast<std::int64_t>(rng.below(400000)),
              static_cast<std::int64_t>(rng.below(400000))},
             std::nullopt,
             std::nullopt};
    if (rng.below(3)) c.running = rng.below(2) ? Side::One : Side::Two;
    return c;
}

TEST(ServerMessages, ActionEventMatchesTheTreeRenderingOnRandomGames) {
    Rng rng(2026);
    int compared = 0, withLegal = 0, revealed = 0, swaps = 0;
    for (int game = 0; game < 150; ++game) {
        auto start =
            Position::fromSetups(randomLinks(rng), randomLinks(rng),
                                 game % 2 ? Rules::standard() : *Rules::byName("official"));
        ASSERT_TRUE(start);
        Position p = *start;
        std::string id = std::to_string(game * 7919);
        id.insert(0, 1, 'g');  // (not "g" + ...: GCC 12 warns falsely on that at -O3)
        for (std::int64_t v = 5; !p.isOver() && p.ply() < 400; ++v) {
            const ActionList legal = p.legalActions();
            const Action a =
                legal[static_cast<int>(rng.below(static_cast<std::uint32_t>(legal.size())))];
            const Position before = p;
            p.doAction(a);
            const auto clocks = randomClocks(rng);
            for (Viewer viewer : kViewers) {
                const View view = View::of(p, viewer);
                const std::string viewText = view.toString();
                const ActionList viewLegal = view.legalActions();
                ActionEvent e{
                    id,       v,       before.ply(), before.toMove(), observe(before, a, viewer),
                    viewText, nullptr, clocks,       std::nullopt};
                ASSERT_EQ(render(e), treeActionEvent(id, v, before, a, p, viewer, false, clocks));
                e.legal = &viewLegal;
                ASSERT_EQ(render(e), treeActionEvent(id, v, before, a, p, viewer, true, clocks));
                if (game < 10) {
                    ASSERT_EQ(validateServerMessage(Json::parse(render(e))), std::nullopt);
                }
                compared += 2;
                revealed += e.seen.revealedLink.has_value();
                swaps += e.seen.swapKnown;
                withLegal += !viewLegal.empty();
            }
        }
    }
    // The sample covers what the serializer branches on.
    EXPECT_GT(compared, 10000);
    EXPECT_GT(revealed, 100);
    EXPECT_GT(swaps, 10);
    EXPECT_GT(withLegal, 1000);
}

Json treeAck(const Json& id, std::string_view game, std::optional<std::int64_t> v) {
    Json j = {{"type", "ack"}, {"id", id}};
    if (!game.empty()) j["game"] = game;
    if (v) j["v"] = *v;
    return j.dump();
}

TEST(ServerMessages, AckMatchesTheTreeRendering) {
    const std::vector<Json> ids = {nullptr,
                                   0,
                                   1,
                                   -7,
                                   Json(std::numeric_limits<std::int64_t>::min()),
                                   Json(std::numeric_limits<std::uint64_t>::max()),
                                   "a",
                                   "with \"quotes\" and \\ slash /",
                                   "\x01\x1f\t\n\r\b\f\x7f",
                                   "é → 日本 🎲",
                                   Json::parse(R"({"odd":[1,2]})")};
    for (const Json& id : ids)
        for (std::string_view game : {"", "g12"})
            for (auto v : {std::optional<std::int64_t>(), std::optional<std::int64_t>(42)}) {
                EXPECT_EQ(render(Ack{id, game, v, std::nullopt, std::nullopt}),
                          treeAck(id, game, v))
                    << id.dump();
                EXPECT_EQ(renderAck(id, game, v), treeAck(id, game, v)) << id.dump();
            }
}

TEST(ServerMessages, StringsEscapeAsDumpDoes) {
    Rng rng(7);
    // Every byte below 0x80 alone, then random mixes of ASCII and multi-byte characters.
    for (int c = 0; c < 0x80; ++c) {
        const std::string s(1, static_cast<char>(c));
        std::string out;
        json_out::string(out, s);
        EXPECT_EQ(out, Json(s).dump()) << c;
    }
    const char* pieces[] = {"a", "\"", "\\", "\n", "\x02", "é", "日", "🎲", " ", "\x7f"};
    for (int i = 0; i < 2000; ++i) {
        std::string s;
        for (std::uint32_t n = rng.below(12); n > 0; --n) s += pieces[rng.below(10)];
        std::string out;
        json_out::string(out, s);
        ASSERT_EQ(out, Json(s).dump());
    }
}

TEST(ServerMessages, ClocksAreWrittenAsTheTreeDumps) {
    Rng rng(3);
    for (int i = 0; i < 200; ++i) {
        const auto c = randomClocks(rng);
        std::string text;
        write(text, c);
        EXPECT_EQ(text, treeClocks(c).dump());
    }
}

}  // namespace
}  // namespace rainet::protocol
