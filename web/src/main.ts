import { parseView } from './view.ts';
import { renderBoard } from './board.ts';
const app = document.getElementById('app')!;
app.replaceChildren(renderBoard(parseView('lll2vvv/3lv3/8/8/8/8/3LV3/LLL2VVV 1 CNcn -/- 0 0'), { bottom: 1, me: 1 }));
