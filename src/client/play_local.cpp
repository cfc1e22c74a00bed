#include "client/play_local.h"

#include <iostream>
#include <random>

#include "ai/bot.h"
#include "client/play_input.h"
#include "client/play_render.h"
#include "core/view.h"
#include "protocol/messages.h"

namespace rainet::client::play {
namespace {

std::string sideText(Side s) {
    return s == Side::One ? "1" : "2";
}

std::vector<std::string> linkSquares(Side s, std::uint8_t links) {
    std::vector<std::string> out;
    for (int i = 0; i < 8; ++i)
        if (links & (1u << i)) out.push_back(squareName(setupSquare(s, i)));
    return out;
}

std::string localHelp() {
    return std::string(R"(commands (pass and play):
  setup random                arrange your cards at random
)") + gameCommandsHelp() +
           R"(  resign                      give up the game
  help                        this list
  quit                        leave (the game is not kept)
)" + boardLegendHelp();
}

}  // namespace

LocalGame::LocalGame(Rules rules, std::array<std::string, 2> names)
    : rules_(rules), names_(std::move(names)) {}

std::optional<Error> LocalGame::setUp(Side s, std::uint8_t links) {
    if (pos_ || over()) return Error{"the setup is over"};
    if (setups_[index(s)]) return Error{"side " + sideText(s) + " has arranged its cards already"};
    if (std::popcount(links) != 4) return Error{"a setup has four links"};
    setups_[index(s)] = links;
    if (setups_[0] && setups_[1]) {
        auto p = Position::fromSetups(*setups_[0], *setups_[1], rules_);
        if (!p) return p.error();
        start_ = *p;
        pos_ = *p;
    }
    return std::nullopt;
}

std::optional<Error> LocalGame::act(const std::string& text) {
    if (!pos_ || over()) return Error{"the game is not being played: no actions"};
    auto a = parseAction(text);
    if (!a) return a.error();
    if (!pos_->isLegal(*a)) return Error{text + " is not legal here (legal lists your actions)"};
    pos_->doAction(*a);
    actions_.push_back(*a);
    switch (pos_->outcome()) {
        case Outcome::Ongoing:
            break;
        case Outcome::Draw:
            finish("1/2-1/2", "", "no_progress");
            break;
        case Outcome::Side1Wins:
        case Outcome::Side2Wins: {
            const bool one = pos_->outcome() == Outcome::Side1Wins;
            finish(one ? "1-0" : "0-1", one ? "1" : "2",
                   pos_->endReason() == EndReason::FourLinks ? "four_links" : "four_viruses");
            break;
        }
    }
    return std::nullopt;
}

void LocalGame::resign(Side s) {
    if (over()) return;
    finish(s == Side::One ? "0-1" : "1-0", s == Side::One ? "2" : "1", "resign");
}

void LocalGame::finish(std::string result, std::string winner, std::string reason) {
    Ending e;
    e.result = std::move(result);
    e.winner = std::move(winner);
    e.reason = std::move(reason);
    if (pos_) e.position = pos_->toString();
    for (Side s : {Side::One, Side::Two})
        if (setups_[index(s)]) e.setups[index(s)] = linkSquares(s, *setups_[index(s)]);
    ending_ = std::move(e);
}

std::optional<Side> LocalGame::due() const {
    if (over()) return std::nullopt;
    if (!setups_[0]) return Side::One;
    if (!setups_[1]) return Side::Two;
    return pos_->toMove();
}

GameState LocalGame::stateFor(Viewer viewer) const {
    GameState s;
    s.game = "local";
    s.v = static_cast<long>(actions_.size());
    s.you = viewerName(viewer);
    s.status = over() ? "finished" : pos_ ? "playing" : "setup";
    s.preset = rules_.name();
    s.opponent = "local";
    s.rated = false;
    for (int i = 0; i < 2; ++i) {
        s.seats[i] = Seat{"", names_[i], true, false, std::nullopt};
        s.setupDone[i] = setups_[i].has_value();
    }
    if (viewer != Viewer::Spectator) {
        const Side me = viewer == Viewer::Side1 ? Side::One : Side::Two;
        if (setups_[index(me)]) s.links = linkSquares(me, *setups_[index(me)]);
    }
    if (pos_ && !over()) {
        s.view = View::of(*pos_, viewer).toString();
        if (viewerOf(pos_->toMove()) == viewer)
            for (Action a : pos_->legalActions()) s.legal.push_back(toString(a));
    }
    if (start_) {
        Position p = *start_;
        for (Action a : actions_) {
            // The history as this viewer observed it (an opponent's NF without its swap bit);
            // after the end, as everyone may see it: in full.
            const Observation o = observe(p, a, over() ? viewerOf(p.toMove()) : viewer);
            s.history.push_back(
                {static_cast<int>(p.ply()), sideText(p.toMove()),
                 toString(o.action, o.swapKnown ? Notation::Full : Notation::Public),
                 o.revealedLink ? (*o.revealedLink ? "link" : "virus") : ""});
            p.doAction(a);
        }
    }
    s.ending = ending_;
    return s;
}

std::string LocalGame::resultLine() const {
    if (!ending_) return "";
    std::string out;
    for (int i = 0; i < 2; ++i) {
        const std::string side = std::to_string(i + 1);
        const std::string outcome = ending_->winner.empty()   ? "draw"
                                    : ending_->winner == side ? "won"
                                                              : "lost";
        out += (i ? ", " : "") + names_[i] + " (side " + side + "): " + outcome;
    }
    return out;
}

int runLocal(std::istream& in, std::ostream& out, const LocalOptions& o) {
    LocalGame game(o.rules, o.names);
    Rng rng(o.seed ? o.seed : std::random_device{}());
    RenderOptions ro;
    ro.color = o.color;
    std::string line;
    const auto readLine = [&] {
        if (!std::getline(in, line)) return false;
        if (!line.empty() && line.back() == '\r') line.pop_back();
        return true;
    };
    const auto left = [&] {
        out << "\nthe local game is left unfinished\n" << std::flush;
        return 0;
    };
    out << "pass and play: two players at this terminal; each setup and each turn begins with a\n"
           "hand-over prompt on a cleared screen (help lists the commands)\n";
    while (const auto due = game.due()) {
        const Side side = *due;
        const int i = index(side);
        const bool setup = game.stateFor(Viewer::Spectator).status == "setup";
        // The board of the side before is gone before the prompt, and the prompt is gone before
        // this side's board is drawn.
        out << kClearScreen << "Pass to " << o.names[i] << " (side " << i + 1 << ")"
            << (setup ? " for the setup" : "") << ", press Enter" << std::flush;
        if (!readLine()) return left();
        out << kClearScreen;
        out << renderGame(game.stateFor(viewerOf(side)), ro) << std::flush;
        while (game.due() == side) {
            if (o.interactive) out << o.names[i] << "> " << std::flush;
            if (!readLine()) return left();
            auto input = parseInput(line);
            if (!input) {
                out << input.error().message << "\n";
                continue;
            }
            const GameState s = game.stateFor(viewerOf(side));
            std::optional<Error> err;
            using K = Input::Kind;
            switch (input->kind) {
                case K::Empty:
                    break;
                case K::Help:
                    out << localHelp();
                    break;
                case K::Quit:
                    return left();
                case K::Board:
                    out << renderGame(s, ro);
                    break;
                case K::Legal:
                    out << (s.myTurn() ? renderLegal(s) : "no legal actions: arrange your cards\n");
                    break;
                case K::History:
                    out << renderHistory(s);
                    break;
                case K::SetupRandom:
                    err = game.setUp(side, ai::randomSetup(rng));
                    break;
                case K::SetupLinks: {
                    std::vector<Square> squares;
                    for (const std::string& t : input->links)
                        if (auto sq = parseSquare(t)) squares.push_back(*sq);
                    const auto mask = protocol::setupMask(side, squares);
                    if (!mask)
                        err = Error{"links go on four different setup squares of side " +
                                    sideText(side) + ": " +
                                    (side == Side::One ? "a1 b1 c1 f1 g1 h1 d2 e2"
                                                       : "a8 b8 c8 f8 g8 h8 d7 e7")};
                    else
                        err = game.setUp(side, *mask);
                    break;
                }
                case K::Act:
                    err = game.act(input->action);
                    break;
                case K::Resign:
                    game.resign(side);
                    break;
                default:
                    out << "not in a local game (help lists the commands)\n";
                    break;
            }
            if (err) out << err->message << "\n";
        }
        out << std::flush;
    }
    // The end shows everything to both players: the full position and every setup.
    out << "\n"
        << renderGame(game.stateFor(Viewer::Spectator), ro) << game.resultLine() << "\n"
        << std::flush;
    return 0;
}

}  // namespace rainet::client::play
