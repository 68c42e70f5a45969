// Flow files as a careless or hostile author writes them, read by `amc flow check` and `amc flow run` as a person runs
// them and by the app's local API (`amc serve`): bounded in size, steps and nesting, every problem located and worded
// (never a library's own report), `check` refusing what `run` refuses, and the app answering while it reads one.
import type { ChildProcess } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { FLOW_MAX_STEPS } from '../../src/shared/flow';
import { largeFlowText } from '../support/large-flow';
import { interrupt, runAmc, startAmc } from '../support/cli';
import { requireBuiltRenderer } from '../support/build';

/** What a library prints of itself: a zod issue list, a stack frame, the JavaScript engine's own words. */
const LIBRARY_OUTPUT = /"code":|"path":|ZodError|^\s+at |call stack/m;

let dir: string;
let home: string;
const env = () => ({ AMC_HOME: home, ANDROID_ADB_SERVER_PORT: '1' });

const flowFile = async (name: string, text: string) => {
  const file = path.join(dir, name);
  await writeFile(file, text);
  return file;
};

/** `amc flow check` and `amc flow run` on the file: both must refuse it (exit 2) with the same words, before any phone. */
async function bothRefuse(file: string, extra: string[] = []): Promise<string> {
  const checked = await runAmc(['flow', 'check', file, ...extra], { env: env(), timeoutMs: 60_000 });
  const ran = await runAmc(['flow', 'run', file, '-s', '127.0.0.1:9', ...extra], { env: env(), timeoutMs: 60_000 });
  expect(checked.code, checked.stdout + checked.stderr).toBe(2);
  expect(ran.code, ran.stdout + ran.stderr).toBe(2);
  expect(checked.stderr + checked.stdout + ran.stderr).not.toMatch(LIBRARY_OUTPUT);
  expect(ran.stderr.replace('amc flow run: ', '')).toBe(checked.stderr.replace('amc flow check: ', ''));
  return checked.stderr;
}

beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'amc-flow-bounds-'));
  home = await mkdtemp(path.join(os.tmpdir(), 'amc-flow-bounds-home-'));
});

afterAll(async () => {
  for (const folder of [dir, home]) if (folder) await rm(folder, { recursive: true, force: true });
});

describe('flow files bounded and worded', { timeout: 120_000 }, () => {
  it('Scenario: A flow file too large, too long or nested too deep is refused in words before it is run', async () => {
    // 100 MB: refused from its size, without being read whole.
    const huge = path.join(dir, 'huge.yaml');
    await writeFile(huge, `goal: x\nsteps:\n${'  - press_key: back\n'.repeat(5_300_000)}`);
    expect(await bothRefuse(huge)).toMatch(/huge\.yaml has a problem:\n {2}it is 106\.0 MB, and a flow file is at most 1 MB\n$/);

    const long = await flowFile('long.yaml', `goal: x\nsteps:\n${'  - press_key: back\n'.repeat(FLOW_MAX_STEPS + 1)}`);
    expect(await bothRefuse(long)).toMatch(/line 3, column 3: it has 2001 steps, and a flow has at most 2000/);

    const deep = await flowFile('deep.yaml', `goal: x\nsteps:\n  - ai: ${'['.repeat(40_000)}${']'.repeat(40_000)}\n`);
    expect(await bothRefuse(deep)).toMatch(/it nests deeper than a flow file may \(at most 20 levels\)/);
    const nested = await flowFile('nested.yaml', `goal: x\nsteps:\n  - tap: {text: a, why: ${'{a: '.repeat(30)}b${'}'.repeat(30)}}\n`);
    expect(await bothRefuse(nested)).toMatch(/it nests deeper than a flow file may \(at most 20 levels\)/);
  });

  it("Scenario: A sub-goal too long is located and worded, never the schema library's raw report", async () => {
    const longSubGoal = await flowFile('long-ai.yaml', `goal: x\nsteps:\n  - press_key: back\n  - ai: "${'y'.repeat(5_000)}"\n`);
    expect(await bothRefuse(longSubGoal)).toMatch(/line 4, column 9: `ai` must be at most 4000 characters long/);
  });

  it('Scenario: Variable names every JavaScript object has are refused', async () => {
    const proto = await flowFile('proto.yaml', 'goal: Open ${__proto__}\nvars:\n  __proto__: x\nsteps:\n  - open_url: "https://example.com/${__proto__}"\n');
    expect(await bothRefuse(proto)).toMatch(/line 3, column 3: `__proto__` is a name every JavaScript object already has, so it cannot name a variable; pick another name/);
    const into = await flowFile('into.yaml', 'goal: x\nsteps:\n  - ask_ai: {question: "What is shown?", into: constructor}\n');
    expect(await bothRefuse(into)).toMatch(/`constructor` is a name every JavaScript object already has/);
    const given = await runAmc(['flow', 'check', await flowFile('plain.yaml', 'goal: x\nsteps:\n  - press_key: back\n'), '--var', '__proto__=x'], { env: env() });
    expect(given.code).toBe(2);
    expect(given.stderr).toMatch(/--var `__proto__` is a name every JavaScript object already has/);
  });

  it('Scenario: amc flow check refuses what amc flow run would refuse', async () => {
    const unset = await flowFile('unset.yaml', 'goal: Open the page\nsteps:\n  - open_url: "${u}"\n');
    expect(await bothRefuse(unset)).toMatch(/`\$\{u\}` has no value: set it under `vars:` or give `--var u=VALUE`/);
  });
});

describe('the app reads flow files off its main thread', { timeout: 120_000 }, () => {
  let serve: ChildProcess | undefined;
  afterAll(async () => {
    if (serve) await interrupt(serve);
  });

  it('Scenario: flows.check over the local API on a 1 MB flow leaves the app answering app.ping', async () => {
    requireBuiltRenderer();
    const started = await startAmc(['serve'], /serving at (http:\/\/127\.0\.0\.1:\d+\/#token=[\w-]+)/, { env: env() });
    serve = started.child;
    const page = new URL(started.match[1]!);
    const socket = new WebSocket(`ws://${page.host}/ws?token=${/token=([\w-]+)/.exec(page.hash)![1]}`, { origin: page.origin });
    await new Promise((resolve, reject) => socket.once('open', resolve).once('error', reject));
    const answered: string[] = [];
    const replies = new Map<number, (value: unknown) => void>();
    socket.on('message', (data, isBinary) => {
      if (isBinary) return;
      const message = JSON.parse(data.toString()) as { type: string; id: number; result: { ok: boolean; value?: unknown } };
      if (message.type !== 'result') return;
      answered.push(message.id === 1 ? 'flows.check' : 'app.ping');
      replies.get(message.id)?.(message.result);
    });
    const call = (id: number, method: string, input: unknown) =>
      new Promise<{ ok: boolean; value?: unknown }>((resolve) => {
        replies.set(id, resolve as (value: unknown) => void);
        socket.send(JSON.stringify({ id, method, input }));
      });
    try {
      const text = largeFlowText();
      expect(text.length).toBeGreaterThan(990_000);
      const checked = call(1, 'flows.check', { text });
      // Asked once the check is on its way: answered while the file is read, not after.
      const pinged = call(2, 'app.ping', { nonce: 'while-checking' });
      expect(await pinged).toMatchObject({ ok: true, value: { nonce: 'while-checking' } });
      expect(await checked).toMatchObject({ ok: true, value: { ok: true, steps: FLOW_MAX_STEPS } });
      expect(answered).toEqual(['app.ping', 'flows.check']);
    } finally {
      socket.close();
    }
  });
});
