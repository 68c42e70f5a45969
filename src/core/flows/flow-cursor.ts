import { REPEAT_TIMES_MAX, type FlowStep, type RepeatStep, type RetryStep, type RunFlowStep, type StepCondition } from '../../shared/flow';

/** Where a replay is in its flow: the top-level step, and the blocks (run_flow, repeat, retry) it is inside. */

/** Where the flow is inside a block step: its steps, the next one, and which round this is. */
export interface Frame {
  block: RunFlowStep | RepeatStep | RetryStep;
  steps: FlowStep[];
  next: number;
  round: number;
}

/** The steps inside a block, and how it goes round. */
export const blockSteps = (block: Frame['block']): FlowStep[] => ('run_flow' in block ? block.run_flow.steps : 'repeat' in block ? block.repeat.steps : block.retry.steps);
export const isBlock = (step: FlowStep): step is Frame['block'] => 'run_flow' in step || 'repeat' in step || 'retry' in step;

/** Where the flow was: the top-level step and a copy of each block's place in it. */
export interface CursorPlace {
  next: number;
  frames: Frame[];
}

export class FlowCursor {
  /** The top-level step the flow is at. */
  next = 0;
  /** The blocks the flow is in, innermost last (empty: at a top-level step, `next`). */
  frames: Frame[] = [];

  constructor(private readonly steps: readonly FlowStep[]) {}

  /** The step the flow is at: the innermost block's next step, else the top-level one. */
  current(): FlowStep {
    const frame = this.frames.at(-1);
    return frame?.steps[frame.next] ?? this.steps[this.next]!;
  }

  /** Whether the step the flow is at is inside a block (whose own line says how it went, once it is done). */
  get inBlock(): boolean {
    return this.frames.length > 0;
  }

  enter(block: Frame['block']): void {
    this.frames.push({ block, steps: blockSteps(block), next: 0, round: 0 });
  }

  /** On at `index` (a step after a failure, the steps that always run): out of every block. */
  jump(index: number): void {
    this.next = index;
    this.frames = [];
  }

  /**
   * Past the current step: the next one in its block, a `repeat`'s next round (while its `times` and `while` allow,
   * `holds` judging the condition), or out of the finished block (`topDone` hears a finished top-level block).
   */
  advance(holds: (condition: StepCondition) => boolean | string, topDone: (index: number, frame: Frame) => void): void {
    for (;;) {
      const frame = this.frames.at(-1);
      if (!frame) {
        this.next += 1;
        return;
      }
      frame.next += 1;
      if (frame.next < frame.steps.length) return;
      if ('repeat' in frame.block) {
        const { times, while: condition } = frame.block.repeat;
        frame.round += 1;
        const more = frame.round < (times ?? REPEAT_TIMES_MAX) && (!condition || holds(condition) === true);
        if (more) {
          frame.next = 0;
          return;
        }
      }
      this.frames.pop();
      if (!this.frames.length) topDone(this.next, frame);
    }
  }

  /**
   * A step inside a `retry` failed: its steps start again from their first, while the retry has tries left; the try
   * that failed (from 1), or null when no retry is around the step or its tries are used up.
   */
  retry(): number | null {
    const at = this.frames.findLastIndex((frame) => 'retry' in frame.block);
    const frame = this.frames[at];
    if (!frame || !('retry' in frame.block)) return null;
    if (frame.round >= frame.block.retry.max) {
      this.frames.length = 0;
      return null;
    }
    this.frames.length = at + 1;
    frame.round += 1;
    frame.next = 0;
    return frame.round;
  }

  /** Where the flow is now, to come back to (an action planned as a block's last step closes the block). */
  place(): CursorPlace {
    return { next: this.next, frames: this.frames.map((frame) => ({ ...frame })) };
  }

  /** Back to a place taken before. */
  restore(place: CursorPlace): void {
    this.next = place.next;
    this.frames = place.frames.map((frame) => ({ ...frame }));
  }

  /** Whether a `retry` is around the step the flow is at (a failure there is taken in stride). */
  get inRetry(): boolean {
    return this.frames.some((frame) => 'retry' in frame.block);
  }
}
