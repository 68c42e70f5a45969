// Notes per app: the prompt tokens the notes of the app in front add to a turn, with 10 / 100 / 500 notes kept for
// that app (goal: bounded by the notes budget, whatever the count), and the time to pick them per turn (read from
// the notes file as a turn does, then ranked by the goal's words and cut to the budget).
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { estimateTokens } from '../../src/core/perception/scene-budget';
import { APP_NOTES_TOKEN_BUDGET, pickNotes } from '../../src/core/runtime/notes/pick-notes';
import { turnText } from '../../src/core/runtime/prompt';
import type { PlanInput } from '../../src/core/runtime/planner';
import { createNotesStore } from '../../src/core/storage/notes-store';
import type { BenchCase, BenchRow } from '../types';

const APP = 'com.android.settings';
const GOAL = 'Turn off Wi-Fi';
const COUNTS = [10, 100, 500];
const PICKS = 200;

/** Routes like the ones runs leave: a few steps of Settings names, some about Wi-Fi. */
const routeOf = (index: number) =>
  index % 25 === 3 ? { goal: `Turn off Wi-Fi ${index}`, route: 'Settings > Network & internet > Wi-Fi' } : { goal: `Open setting ${index} of section ${index % 13}`, route: `Settings > Section ${index % 13} > Item ${index} > Details` };

const base: PlanInput = { goal: GOAL, step: 2, scene: null, sceneError: 'not read' };

const appNotesBench: BenchCase = {
  name: 'app-notes',
  async run(): Promise<BenchRow[]> {
    const home = await mkdtemp(path.join(tmpdir(), 'amc-bench-notes-'));
    const rows: BenchRow[] = [];
    const name = 'notes per app';
    try {
      const store = createNotesStore(home, { now: (() => { let t = 0; return () => ++t; })() });
      let kept = 0;
      const without = estimateTokens(turnText(base));
      for (const count of COUNTS) {
        // One note per task, as runs leave them.
        for (; kept < count; kept++) await store.keep(`task-${kept}`, [{ app: APP, ...routeOf(kept) }]);
        const notes = await store.notesFor(APP);
        if (notes.length !== count) throw new Error(`expected ${count} notes, the store holds ${notes.length}`);
        const picked = pickNotes(notes, GOAL);
        const added = estimateTokens(turnText({ ...base, appNotes: { app: APP, ...picked } })) - without;
        rows.push({ case: name, metric: `${count} notes: prompt tokens added (${picked.notes.length} sent)`, value: added, unit: 'tokens', goal: `<= ${APP_NOTES_TOKEN_BUDGET} + header (~60)` });
        const started = performance.now();
        for (let i = 0; i < PICKS; i++) pickNotes(await store.notesFor(APP), GOAL);
        rows.push({ case: name, metric: `${count} notes: time to pick a turn's notes`, value: (performance.now() - started) / PICKS, unit: 'ms', goal: '< 5 ms' });
      }
    } finally {
      await rm(home, { recursive: true, force: true });
    }
    return rows;
  },
};

export default appNotesBench;
