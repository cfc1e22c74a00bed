#include "tournament/arena_scoring.h"

namespace rainet::tournament {

ArenaMark addArenaGame(ArenaSheet& sheet, const ArenaGame& game) {
    ArenaMark mark;
    const int base = game.outcome == Outcome::Win ? 2 : game.outcome == Outcome::Draw ? 1 : 0;
    mark.doubled = sheet.onFire() && base > 0;
    mark.points = mark.doubled ? 2 * base : base;
    if (game.berserk && game.outcome == Outcome::Win && game.ownActions >= kBerserkMinActions) {
        mark.berserkBonus = true;
        mark.points += 1;
    }
    switch (game.outcome) {
        case Outcome::Win:
            ++sheet.wins;
            ++sheet.winStreak;
            break;
        case Outcome::Draw:
            ++sheet.draws;
            sheet.winStreak = 0;
            break;
        case Outcome::Loss:
            ++sheet.losses;
            sheet.winStreak = 0;
            break;
    }
    if (game.berserk) ++sheet.berserks;
    sheet.points += mark.points;
    sheet.marks.push_back(mark);
    return mark;
}

}  // namespace rainet::tournament
