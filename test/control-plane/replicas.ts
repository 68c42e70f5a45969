/** Control-plane replicas as deployed: separate `amc control-plane` processes sharing one Redis. */
import type { ChildProcess } from 'node:child_process';
import { startAmc } from '../support/cli';
import type { ProviderFake } from '../fakes/index';
import { decisionRequest } from './support';

export interface Replica {
  url: string;
  child: ChildProcess;
  output(): string;
  post(token: string): Promise<Response>;
  /** SIGTERM and wait for the exit. */
  stop(): Promise<void>;
}

export async function startReplica(options: {
  fake: ProviderFake;
  redisUrl?: string;
  workers?: number;
  env?: NodeJS.ProcessEnv;
  args?: string[];
}): Promise<Replica> {
  const { child, match, output } = await startAmc(
    ['control-plane', '--port', '0', '--host', '127.0.0.1', '--workers', String(options.workers ?? 1), ...(options.args ?? [])],
    /"msg":"listening","url":"(http:\/\/[^"]+)"/,
    {
      env: {
        ANTHROPIC_API_KEY: options.fake.apiKey,
        ANTHROPIC_BASE_URL: options.fake.baseURL,
        OPENAI_API_KEY: '',
        AMC_CP_SECRETS_FILE: '',
        AMC_CP_MODEL: 'fake-model',
        AMC_CP_PROVIDER: 'anthropic',
        ...(options.redisUrl ? { AMC_CP_REDIS_URL: options.redisUrl } : {}),
        ...options.env,
      },
    },
  );
  const url = match[1]!;
  const exited = new Promise<void>((resolve) => (child.exitCode !== null ? resolve() : child.once('exit', () => resolve())));
  return {
    url,
    child,
    output,
    post: (token) =>
      fetch(`${url}/v1/planner/decision`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: JSON.stringify(decisionRequest()),
      }),
    async stop() {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      await exited;
    },
  };
}

/** Polls until `check` holds (a condition, not a sleep); fails with `what` after `timeoutMs`. */
export async function until(check: () => boolean | Promise<boolean>, what: string, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}
