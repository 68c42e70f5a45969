/** Frames per second over a sliding window, from the times frames were delivered. */
export class FrameRateMeter {
  private readonly times: number[] = [];
  private readonly durations: number[] = [];

  constructor(private readonly windowMs = 2000) {}

  record(at: number, durationMs: number): void {
    this.times.push(at);
    this.durations.push(durationMs);
    this.trim(at);
  }

  reset(): void {
    this.times.length = 0;
    this.durations.length = 0;
  }

  fps(now: number): number {
    this.trim(now);
    if (this.times.length < 2) return 0;
    const span = Math.max(now - this.times[0]!, this.windowMs / 2);
    return Math.round((this.times.length / span) * 1000 * 10) / 10;
  }

  /** Mean capture time of the frames in the window, or null without any. */
  meanDurationMs(now: number): number | null {
    this.trim(now);
    if (this.durations.length === 0) return null;
    return Math.round((this.durations.reduce((a, b) => a + b, 0) / this.durations.length) * 10) / 10;
  }

  private trim(now: number): void {
    while (this.times.length && now - this.times[0]! > this.windowMs) {
      this.times.shift();
      this.durations.shift();
    }
  }
}
