// The tutorial's lessons against the engine (the rainet binary, RAINET_BIN or ../build/rainet):
// the generated lesson data is current, each step's goal, trap and scripted answer do what its text
// says, the check of the learner's action, whyNotMove's explanations agree with the engine's legal
// lists, and the progress kept in storage.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { applyOf, generateLessonData, LESSON_DATA_FILE, legalOf } from '../../scripts/lessons.ts';
import { judge, loadProgress, nextLesson, outcome, saveProgress, stepData } from '../../src/learncheck.ts';
import { LESSONS, setupView, startArrangement, whyNotMove } from '../../src/lessons.ts';
import { viewOf } from '../../scripts/lessons.ts';
import { cardAt, parseView, squareName } from '../../src/view.ts';

const lesson = (id: string) => LESSONS.find((l) => l.id === id)!;
const only = (id: string) => lesson(id).steps[0];

test('src/lessondata.ts is what scripts/lessons.ts makes from the engine today', () => {
  assert.equal(readFileSync(LESSON_DATA_FILE, 'utf8'), generateLessonData(), 'run: node --import tsx scripts/lessons.ts');
});

test('every step: side 1 to move, a legal goal, a legal trap; a scripted answer leads to the next step', () => {
  for (const l of LESSONS) {
    l.steps.forEach((s, i) => {
      assert.equal(s.position.split(' ')[1], '1', `${l.id}: the learner is side 1`);
      const legal = legalOf(s.position);
      assert.ok(legal.some((a) => s.goal(a)), `${l.id} step ${i}: a goal is legal`);
      assert.ok(legal.some((a) => !s.goal(a) && a !== s.trap?.action), `${l.id} step ${i}: a legal action is not the goal`);
      if (s.trap) assert.ok(legal.includes(s.trap.action) && !s.goal(s.trap.action), `${l.id}: the trap is legal and not a goal`);
      if (s.reply) {
        const goals = legal.filter((a) => s.goal(a));
        assert.equal(goals.length, 1, `${l.id}: a step with an answer has one goal`);
        assert.equal(applyOf(s.position, goals[0], s.reply), l.steps[i + 1].position, `${l.id}: the answer leads to the next step`);
      } else assert.equal(i, l.steps.length - 1, `${l.id}: only the last step has no answer`);
    });
  }
});

test('setup: the learner\'s view of its arrangement is the engine\'s view of that position', () => {
  assert.equal(setupView(startArrangement()), viewOf('lll2vvv/3lv3/8/8/8/8/3LV3/LLL2VVV 1 CNcn -/- 0 0'));
  const a = startArrangement();
  [a.a1, a.h1] = [a.h1, a.a1];
  assert.equal(setupView(a), viewOf('lll2vvv/3lv3/8/8/8/8/3LV3/VLL2VVL 1 CNcn -/- 0 0'));
  assert.deepEqual(Object.keys(a).sort(), ['a1', 'b1', 'c1', 'd2', 'e2', 'f1', 'g1', 'h1']);
});

test('judge: goal, wrong, trap and illegal actions', () => {
  const capture = only('capture');
  const g = judge(capture, 'd4-d5');
  assert.equal(g.kind, 'goal');
  assert.equal(judge(capture, 'a1-a2').kind, 'wrong');
  assert.deepEqual(judge(capture, 'a1-a2'), { kind: 'wrong', why: 'lesson.capture.wrong' });
  assert.equal(judge(capture, 'd4-d6').kind, 'illegal');
  assert.equal(judge(capture, 'nonsense').kind, 'illegal');
  const lose = only('lose');
  const trap = judge(lose, 'd4-d5');
  assert.equal(trap.kind, 'trap');
  assert.equal(trap.kind === 'trap' && outcome(trap.view), 'lose', 'capturing the fourth virus loses');
  assert.deepEqual(judge(lose, 'a1-a2'), { kind: 'wrong', why: 'lesson.lose.wrong' });
  const safe = judge(lose, 'd4-c4');
  assert.equal(safe.kind, 'goal');
  assert.equal(safe.kind === 'goal' && outcome(safe.view), null);
});

test('what each lesson says happens is what the engine does', () => {
  const view = (id: string, action: string) => {
    const v = judge(only(id), action);
    assert.equal(v.kind, 'goal', `${id}: ${action}`);
    return parseView((v as { view: string }).view);
  };
  // Capture: d5 was a link and is in the learner's stack, face up.
  assert.deepEqual(view('capture', 'd4-d5').stacks[0], [{ owner: 2, kind: 'L', escaped: false }]);
  // Exit: the link left the board into its owner's stack as an escape.
  const exit = view('exit', 'e8-srv');
  assert.equal(cardAt(exit, 'e8'), null);
  assert.deepEqual(exit.stacks[0], [{ owner: 1, kind: 'L', escaped: true }]);
  // LINE BOOST: after the answer, c3 carries the boost and reaches two squares away.
  const lb = lesson('lineboost').steps[1];
  assert.equal(cardAt(parseView(stepData(lb).view), 'c3')?.boost, true);
  const twoSquares = stepData(lb).legal.filter((a) => lb.goal(a));
  assert.deepEqual(twoSquares.sort(), ['c3-a3', 'c3-b2', 'c3-b4', 'c3-c1', 'c3-c5', 'c3-d4', 'c3-e3']);
  // FIRE WALL: e4 is the learner's firewall; the opponent on e5 can no longer enter it; the link may.
  const fw = lesson('firewall').steps[1];
  assert.equal(parseView(stepData(fw).view).squares[28].firewall, 1);
  assert.ok(!legalOf(fw.position.replace(' 1 CNcn -/- 8 8', ' 2 CNcn -/- 8 9')).includes('e5-e4'), 'side 2 cannot enter e4');
  const onWall = judge(fw, 'e3-e4');
  assert.equal(onWall.kind, 'goal');
  assert.equal(cardAt(parseView((onWall as { view: string }).view), 'e4')?.onFirewall, true);
  // VIRUS CHECKER: every goal reveals its target.
  for (const a of stepData(only('viruschecker')).legal.filter((x) => x.startsWith('VC+'))) {
    const c = cardAt(view('viruschecker', a), a.slice(3));
    assert.ok(c && c.kind !== 'X' && c.faceUp, `${a} reveals the card`);
  }
  // 404 NOT FOUND: d4 is face down again whatever the choice.
  for (const a of stepData(only('notfound')).legal.filter((x) => only('notfound').goal(x)))
    assert.equal(cardAt(view('notfound', a), 'd4')?.faceUp, false, a);
  // Win: four links.
  const win = judge(only('win'), 'd8-srv');
  assert.equal(win.kind === 'goal' && outcome(win.view), 'win');
});

test('view of a step: the learner sees its own cards and none of the opponent\'s hidden ones', () => {
  for (const l of LESSONS)
    for (const s of l.steps) {
      const v = parseView(stepData(s).view);
      for (const q of v.squares) {
        if (q.card?.owner === 1) assert.notEqual(q.card.kind, 'X');
        if (q.card?.owner === 2 && !q.card.faceUp) assert.equal(q.card.kind, 'X');
      }
    }
});

test('whyNotMove explains exactly the moves the engine refuses, on every lesson position', () => {
  let refused = 0;
  for (const l of LESSONS)
    for (const s of l.steps) {
      const d = stepData(s);
      const v = parseView(d.view);
      for (let i = 0; i < 64; i++) {
        const from = squareName(i);
        if (v.squares[i].card?.owner !== 1) continue;
        for (let j = 0; j < 64; j++) {
          if (j === i) continue;
          const to = squareName(j);
          const why = whyNotMove(v, from, to);
          assert.equal(why === null, d.legal.includes(`${from}-${to}`), `${l.id}: ${from}-${to} (${why})`);
          if (why) refused++;
        }
      }
    }
  assert.ok(refused > 1000);
});

test('whyNotMove names the rule', () => {
  const v = (id: string, step = 0) => parseView(stepData(lesson(id).steps[step]).view);
  assert.equal(whyNotMove(v('capture'), 'd4', 'e5'), 'why.diagonal');
  assert.equal(whyNotMove(v('capture'), 'd4', 'd6'), 'why.tooFar');
  assert.equal(whyNotMove(v('move'), 'd2', 'e2'), 'why.ownCard');
  assert.equal(whyNotMove(v('move'), 'c1', 'd1'), 'why.ownExit');
  assert.equal(whyNotMove(v('lineboost', 1), 'c3', 'c6'), 'why.tooFarBoost');
  assert.equal(whyNotMove(v('lineboost', 1), 'c3', 'd2'), 'why.ownCard');
  assert.equal(whyNotMove(v('capture'), 'a1', 'a3'), 'why.tooFar');
  // A boosted card cannot jump a card; a firewall of the opponent cannot be entered.
  const blocked = parseView('xxx2xx1/8/8/8/3x4/3L+4/8/LLL2VVV 1 CNcn -/- 6 6'.replace('LLL2VVV', 'LLL2VV1'));
  assert.equal(whyNotMove(blocked, 'd3', 'd5'), 'why.blocked');
  const wall = parseView('8/8/8/8/3f4/3L4/8/8 1 CNcn -/- 0 0');
  assert.equal(whyNotMove(wall, 'd3', 'd4'), 'why.firewall');
  const nearExit = parseView('2L+5/8/8/8/8/8/8/8 1 CNcn -/- 0 0');
  assert.equal(whyNotMove(nearExit, 'c8', 'e8'), 'why.exitStop', 'a boosted card stops on the opponent\'s exit');
});

test('progress: kept in lesson order, garbage and unknown ids dropped', () => {
  const store = new Map<string, string>();
  const s = { getItem: (k: string) => store.get(k) ?? null, setItem: (k: string, v: string) => void store.set(k, v) };
  assert.deepEqual(loadProgress(s), []);
  assert.equal(nextLesson([]), 0);
  saveProgress(s, ['capture', 'move', 'nonsense']);
  assert.deepEqual(loadProgress(s), ['move', 'capture']);
  assert.equal(nextLesson(loadProgress(s)), 0, 'the setup lesson is still to do');
  saveProgress(s, ['capture', 'setup', 'move']);
  assert.deepEqual(loadProgress(s), ['setup', 'move', 'capture']);
  assert.equal(nextLesson(loadProgress(s)), 3);
  store.set('rainet.learn', '{not json');
  assert.deepEqual(loadProgress(s), []);
  store.set('rainet.learn', '{"a":1}');
  assert.deepEqual(loadProgress(s), []);
  assert.equal(nextLesson(LESSONS.map((l) => l.id)), null);
  assert.deepEqual(loadProgress(null), []);
});
