// The whole cloud-proxy path as a person runs it: `amc run` (a real host process, no provider key) on the
// virtual device over the real adb server, deciding through the control plane, which calls the provider fake.
import { MODEL_PLANS_EVERY_STEP } from '../support/planner-env';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startAdbHarness, type AdbHarness } from '../support/adb-harness';
import { runAmc } from '../support/cli';
import { finish, scriptedPolicy, tapLabel, type FakeReply, type ScriptStep } from '../fakes/index';
import { startTestControlPlane } from './support';

let harness: AdbHarness;
let amcHome: string;

beforeAll(async () => {
  harness = await startAdbHarness();
  amcHome = await mkdtemp(path.join(tmpdir(), 'amc-cp-e2e-home-'));
});

afterAll(async () => {
  await harness?.stop();
  if (amcHome) await rm(amcHome, { recursive: true, force: true });
});

/** Reasoning the provider sends along (OpenAI-compatible servers as `reasoning_content`): it must not reach the host. */
const PROVIDER_REASONING = 'Private reasoning of the provider';
const reasoned = (reply: FakeReply): FakeReply => (reply.kind === 'call' ? { ...reply, thinking: PROVIDER_REASONING } : reply);
const withReasoning = (step: ScriptStep): ScriptStep => (turn) => {
  const reply = step(turn);
  return reply && reasoned(reply);
};

describe('end to end through the control plane', () => {
  it.each(['anthropic', 'openai'] as const)(
    'Scenario: Task completes through host, control plane and provider (%s)',
    async (provider) => {
      await harness.control('/reset', { method: 'POST', body: {} });
      expect((await harness.state()).settings.wifi).toBe(true);
      const cp = await startTestControlPlane({
        provider,
        policy: scriptedPolicy([tapLabel('Settings'), tapLabel(/^Network & internet/), tapLabel(/^Wi-Fi \|/)].map(withReasoning), reasoned(finish(true, 'Wi-Fi is off'))),
      });
      try {
        const result = await runAmc(
          ['run', '-s', harness.serial, '--goal', 'Turn off Wi-Fi', '--planner', 'ai', '--transport', 'cloud-proxy', '--json'],
          {
            env: {
              ...harness.env,
              AMC_HOME: amcHome,
              AI_PLANNER_PROVIDER: provider,
              CONTROL_PLANE_URL: cp.service.url,
              CONTROL_PLANE_TOKEN: cp.token,
              // The host holds no provider key: the control plane does.
              ANTHROPIC_API_KEY: '',
              OPENAI_API_KEY: '',
              ...MODEL_PLANS_EVERY_STEP,
            },
            timeoutMs: 90_000,
          },
        );
        expect(result.code, result.stderr + result.stdout).toBe(0);
        const events = result.stdout.trim().split('\n').map((line) => JSON.parse(line) as Record<string, unknown>);
        const planned = events.filter((e) => e.type === 'step.planned');
        expect(planned.map((e) => e.tool)).toEqual(['tap', 'tap', 'tap', 'finish_task']);
        // The proxy surface carries no text and no thinking, though the provider sent both (reasoning when it can:
        // the OpenAI fake always, the Anthropic fake only with thinking on).
        expect(result.stdout).not.toContain(PROVIDER_REASONING);
        expect(result.stdout).not.toContain('Tapping');
        for (const step of planned) {
          expect(step.rationale ?? null).toBeNull();
          expect(step.thinking ?? null).toBeNull();
        }
        expect(events.at(-1)).toMatchObject({ type: 'task.finished', status: 'completed' });

        // Every decision went host -> control plane -> provider, with the service's model.
        expect(cp.fake.requests).toHaveLength(4);
        const models = cp.fake.bodies().map((body) => (body as { model: string }).model);
        expect(new Set(models)).toEqual(new Set([`fake-${provider}-model`]));
        const answered = cp.logs.filter((line) => line.msg === 'request' && line.path === '/v1/planner/decision');
        expect(answered.map((line) => line.status)).toEqual([200, 200, 200, 200]);
        expect(answered.every((line) => line.tokenId === cp.tokenId)).toBe(true);

        // And the phone really changed.
        expect((await harness.state()).settings.wifi).toBe(false);
      } finally {
        await cp.stop();
      }
    },
    120_000,
  );
});
