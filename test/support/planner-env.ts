import type { AdbHarness } from './adb-harness';
import { FAKE_ANTHROPIC_KEY } from '../fakes/index';

/**
 * Nothing learned from earlier runs: tests of other capabilities repeat a goal in one history, and with "Reuse
 * successful runs" on the second run would follow the first instead of asking their scripted model; with "Learn
 * notes per app" on, a scripted model reading the prompt would find an earlier run's answer in the notes. The
 * cache's and the notes' own tests turn them on.
 */
export const MODEL_PLANS_EVERY_STEP = { AI_PLANNER_REUSE_RUNS: 'false', AMC_APP_NOTES: 'false' } as const;

/**
 * The environment of a user whose AI planner talks to Anthropic directly (here: the loopback fake at
 * `anthropicUrl`), with the harness's adb server, HOME and its own data folder: for `amc` child processes.
 */
export function directAnthropicEnv(harness: AdbHarness, amcHome: string, anthropicUrl: string): Record<string, string> {
  return {
    ANDROID_ADB_SERVER_PORT: String(harness.adbPort),
    HOME: harness.env.HOME ?? '',
    AMC_HOME: amcHome,
    AI_PLANNER_ENABLED: 'true',
    AI_PLANNER_TRANSPORT: 'direct',
    AI_PLANNER_PROVIDER: 'anthropic',
    ANTHROPIC_API_KEY: FAKE_ANTHROPIC_KEY,
    ANTHROPIC_BASE_URL: anthropicUrl,
    ...MODEL_PLANS_EVERY_STEP,
  };
}
