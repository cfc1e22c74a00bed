// A full game record (docs/record-format.md) of a game played in the browser: what the engine's
// analysis reads and what the player downloads. Reveals are left out: readers skip comments and
// replay the actions.
export interface LocalRecord {
  rules: 'standard' | 'official';
  setup1: string; // "LLLVVVLV"
  setup2: string;
  actions: string[]; // full notation
  result: string; // "1-0", "0-1", "1/2-1/2", "*"
  termination?: string; // "four-links", "resignation", ...
  side1?: string;
  side2?: string;
  date?: Date;
}

const tag = (name: string, value: string) => `[${name} "${value.replace(/[\\"]/g, (c) => `\\${c}`)}"]`;

export function writeRecord(r: LocalRecord): string {
  const lines = [tag('Event', 'rainet game on this device')];
  if (r.date) {
    const d = r.date;
    lines.push(tag('Date', `${d.getFullYear()}.${String(d.getMonth() + 1).padStart(2, '0')}.${String(d.getDate()).padStart(2, '0')}`));
  }
  if (r.side1) lines.push(tag('Side1', r.side1));
  if (r.side2) lines.push(tag('Side2', r.side2));
  lines.push(tag('Preset', r.rules), tag('Result', r.result));
  if (r.termination) lines.push(tag('Termination', r.termination));
  lines.push(tag('Setup1', r.setup1), tag('Setup2', r.setup2), '');
  const words: string[] = [];
  r.actions.forEach((a, i) => words.push(i % 2 === 0 ? `${i / 2 + 1}. ${a}` : a));
  words.push(r.result);
  let line = '';
  for (const w of words) {
    if (line && line.length + 1 + w.length > 80) {
      lines.push(line);
      line = w;
    } else line = line ? `${line} ${w}` : w;
  }
  lines.push(line);
  return lines.join('\n') + '\n';
}
