import type { TaskEvent } from '../shared/task';
import { ENGLISH, type Words } from '../shared/i18n/translate';

const FRAMES = ['⠋', '⠙', '⠹', '⠸', '⠼', '⠴', '⠦', '⠧', '⠇', '⠏'];
const TICK_MS = 100;

/**
 * A live "planning step N… 4.2 s" line while the model decides (a terminal only: the caller passes the status
 * writer, which exists only when stderr is a terminal). Listen to events with it before anything prints, so the
 * line is cleared before the turn's own lines appear.
 */
export function planningSpinner(status: (line: string | null) => void, now: () => number = Date.now, words: Words = ENGLISH): { onEvent(event: TaskEvent): void; stop(): void } {
  let timer: NodeJS.Timeout | undefined;
  const stop = () => {
    if (timer === undefined) return;
    clearInterval(timer);
    timer = undefined;
    status(null);
  };
  const start = (step: number) => {
    stop();
    const since = now();
    let frame = 0;
    const draw = () => {
      const seconds = ((now() - since) / 1000).toLocaleString(words.locale, { minimumFractionDigits: 1, maximumFractionDigits: 1 });
      status(`${FRAMES[frame++ % FRAMES.length]} ${words.t('cli:run.planning', { step, seconds })}`);
    };
    draw();
    timer = setInterval(draw, TICK_MS);
    timer.unref();
  };
  return {
    onEvent(event) {
      if (event.type === 'step.observed') start(event.step);
      else stop();
    },
    stop,
  };
}
