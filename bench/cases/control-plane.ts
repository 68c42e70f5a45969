// Control plane: 2,000 decisions at concurrency 50 through host client -> control plane (its own process, as
// deployed) -> instant fake provider, next to the same decisions sent straight to the fake with the same provider
// client, in the same run. Load generator and fake share this process; on a small machine the numbers at
// concurrency 50 include CPU queueing, so the one-at-a-time rows show the hop's own cost.
// Scale-out rows: the same load against 1 and 2 workers (`--workers`) side by side in alternating rounds, with the
// file store and with Redis (a real redis-server), and against a reference forwarder that does nothing else; there
// the load generator and the provider are raw sockets with canned bytes, cheap enough that the workers get the
// machine's cores (their CPU per decision is a row of its own).
import { spawn } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { availableParallelism, tmpdir } from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { createToken } from '../../src/control-plane/token-store';
import {
  CONTROL_PLANE_DECISION_PATH,
  createCloudProxyClient,
  createProviderClient,
  type DecisionRequest,
  type ProviderName,
  type ToolCallingClient,
} from '@amc/provider-clients';
import { RedisStore } from '../../src/control-plane/redis-store';
import { sequencePolicy, startProviderFake } from '../../test/fakes/index';
import { startTestRedis } from '../../test/support/redis-server';
import { childrenOf, cpuMsOf, cpuSnapshot } from '../support/process-cpu';
import { runLoad, startCannedServer } from '../support/raw-http';
import { percentile, type BenchCase, type BenchRow } from '../types';

const DECISIONS = 2_000;
const CONCURRENCY = 50;
const WARMUP = 200;
const SEQUENTIAL = 300;
const ROUNDS = 4;
const PACED_PROVIDER_MS = 200;
const PACED_DECISIONS = 1_000;
const AMC_CONTROL_PLANE = [path.resolve('bin/amc.mjs'), 'control-plane', '--port', '0', '--host', '127.0.0.1'];
const BARE_FORWARDER = ['--import', 'tsx', path.resolve('bench/support/bare-forwarder.ts')];

const request: DecisionRequest = {
  system: 'You operate an Android phone. Call exactly one tool.',
  messages: [
    {
      role: 'user',
      content: [
        {
          type: 'text',
          text: `<goal>Open Settings</goal>\n<scene>${JSON.stringify({
            elements: Array.from({ length: 30 }, (_, i) => ({ id: `e${i}`, type: 'text', text: `Item ${i}`, bounds: [0, i * 60, 1080, i * 60 + 60] })),
          })}</scene>`,
        },
      ],
    },
  ],
  tools: [
    { name: 'tap', description: 'Tap an element', inputSchema: { type: 'object', properties: { element_id: { type: 'string' } } } },
    { name: 'finish_task', description: 'End the task', inputSchema: { type: 'object', properties: { success: { type: 'boolean' } } } },
  ],
  maxOutputTokens: 1024,
};

type Run = Awaited<ReturnType<typeof load>>;
const emptyRun = (): Run => ({ latencies: [], errors: 0, firstError: undefined, seconds: 0 });
function addRun(total: Run, round: Run): void {
  total.latencies.push(...round.latencies);
  total.errors += round.errors;
  total.firstError ??= round.firstError;
  total.seconds += round.seconds;
}

/** Runs `count` decisions with `concurrency` workers; returns each call's latency and the number of failures. */
async function load(client: ToolCallingClient, count: number, concurrency: number) {
  const latencies: number[] = [];
  let errors = 0;
  let firstError: string | undefined;
  let next = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < count) {
        next += 1;
        const t0 = performance.now();
        try {
          await client.decide(request, {});
          latencies.push(performance.now() - t0);
        } catch (error) {
          errors += 1;
          firstError ??= error instanceof Error ? error.message : String(error);
        }
      }
    }),
  );
  return { latencies, errors, firstError, seconds: (performance.now() - started) / 1000 };
}

interface ServiceProcess {
  url: string;
  /** Forgets the log read so far. */
  clearLog(): void;
  /**
   * latencyMs - upstreamLatencyMs of every decision answered since `clearLog()`, from the service's own request
   * logs; parsed when asked (after a load), so reading the log costs the load nothing.
   */
  overheads(): number[];
  rssMiB(): Promise<number>;
  /** CPU time (user + system) the service process has used so far. */
  cpuMs(): Promise<number>;
  /** The service's processes: its cluster primary and workers, or the one process that is both. */
  processes(): Promise<Array<{ role: string; pid: number }>>;
  stop(): Promise<void>;
}

/** Runs the service as production does, in its own process (`amc control-plane`), so its CPU and memory are its own. */
async function startServiceProcess(env: NodeJS.ProcessEnv, workers = 1, program = AMC_CONTROL_PLANE): Promise<ServiceProcess> {
  const child = spawn(process.execPath, [...program, '--workers', String(workers)], {
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let log: string[] = [];
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const lines = createInterface({ input: child.stdout });
  const url = await new Promise<string>((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`amc control-plane exited with ${code} before listening`)));
    lines.on('line', (line) => {
      const entry = JSON.parse(line) as { msg?: string; url?: string };
      if (entry.msg === 'listening' && entry.url && !('worker' in entry)) resolve(entry.url);
    });
  });
  lines.close();
  child.stdout.on('data', (chunk: Buffer) => log.push(chunk.toString()));
  child.stdout.resume();
  return {
    url,
    clearLog: () => {
      log = [];
    },
    overheads: () =>
      log
        .join('')
        .split('\n')
        .filter((line) => line.includes('"msg":"request"'))
        .map((line) => JSON.parse(line) as { status: number; latencyMs: number; upstreamLatencyMs?: number })
        .filter((entry) => entry.status === 200 && entry.upstreamLatencyMs !== undefined)
        .map((entry) => entry.latencyMs - entry.upstreamLatencyMs!),
    async rssMiB() {
      const status = await readFile(`/proc/${child.pid}/status`, 'utf8').catch(() => '');
      const kib = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1]);
      return Number.isFinite(kib) ? kib / 1024 : Number.NaN;
    },
    cpuMs: () => cpuMsOf(child.pid!),
    async processes() {
      const workerProcesses = workers > 1 ? (await childrenOf(child.pid!)).filter((p) => p.command.startsWith('node')) : [];
      return workers > 1
        ? [{ role: 'primary', pid: child.pid! }, ...workerProcesses.map((p, i) => ({ role: `worker ${i + 1}`, pid: p.pid }))]
        : [{ role: 'worker 1', pid: child.pid! }];
    },
    async stop() {
      child.kill('SIGTERM');
      await exited;
    },
  };
}

async function measure(provider: ProviderName): Promise<BenchRow[]> {
  const dir = await mkdtemp(path.join(tmpdir(), 'amc-bench-cp-'));
  const fake = await startProviderFake(provider, sequencePolicy({ kind: 'call', tool: 'tap', args: { element_id: 'e1' } }));
  const tokensFile = path.join(dir, 'tokens.json');
  const { token } = await createToken(tokensFile, { name: 'bench' });
  const service = await startServiceProcess({
    AMC_CP_PROVIDER: provider,
    AMC_CP_MODEL: 'bench-model',
    AMC_CP_TOKENS_FILE: tokensFile,
    AMC_CP_RATE_LIMIT_PER_MINUTE: '1000000',
    AMC_CP_RATE_LIMIT_BURST: '100000',
    AMC_CP_SECRETS_FILE: '',
    ANTHROPIC_API_KEY: provider === 'anthropic' ? fake.apiKey : '',
    OPENAI_API_KEY: provider === 'openai' ? fake.apiKey : '',
    [provider === 'anthropic' ? 'ANTHROPIC_BASE_URL' : 'OPENAI_BASE_URL']: fake.baseURL,
  });
  try {
    const direct = createProviderClient({ provider, apiKey: fake.apiKey, baseURL: fake.baseURL, model: 'bench-model', timeoutMs: 30_000 });
    const proxied = createCloudProxyClient({ url: service.url, token, timeoutMs: 30_000 });
    await load(direct, WARMUP, CONCURRENCY);
    await load(proxied, WARMUP, CONCURRENCY);
    const sequentialDirect = await load(direct, SEQUENTIAL, 1);
    const sequentialService = await load(proxied, SEQUENTIAL, 1);
    service.clearLog();
    // Alternating rounds, so a neighbour's burst of CPU use on a shared machine hits both paths alike.
    const viaDirect = emptyRun();
    const viaService = emptyRun();
    let directCpuMs = 0;
    let serviceCpuMs = 0;
    for (let round = 0; round < ROUNDS; round++) {
      const before = process.cpuUsage();
      addRun(viaDirect, await load(direct, DECISIONS / ROUNDS, CONCURRENCY));
      const used = process.cpuUsage(before);
      directCpuMs += (used.user + used.system) / 1000;
      const serviceBefore = await service.cpuMs();
      addRun(viaService, await load(proxied, DECISIONS / ROUNDS, CONCURRENCY));
      serviceCpuMs += (await service.cpuMs()) - serviceBefore;
    }
    if (viaService.firstError) process.stderr.write(`  control plane (${provider}) first error: ${viaService.firstError}\n`);
    const name = `control-plane (${provider})`;
    const p = percentile;
    const overheads = service.overheads();
    const at = `@${CONCURRENCY}`;
    return [
      { case: name, metric: `errors, ${DECISIONS} decisions ${at}`, value: viaService.errors + viaDirect.errors, unit: '', goal: '0' },
      { case: name, metric: `direct p50 / p99 ${at}`, value: p(viaDirect.latencies, 50), unit: `ms / ${p(viaDirect.latencies, 99).toFixed(1)} ms` },
      { case: name, metric: `via service p50 / p99 ${at}`, value: p(viaService.latencies, 50), unit: `ms / ${p(viaService.latencies, 99).toFixed(1)} ms` },
      { case: name, metric: `added p50 ${at}`, value: p(viaService.latencies, 50) - p(viaDirect.latencies, 50), unit: 'ms' },
      { case: name, metric: `added p99 ${at}`, value: p(viaService.latencies, 99) - p(viaDirect.latencies, 99), unit: 'ms', goal: '< 10 ms' },
      { case: name, metric: `in-service overhead p50 ${at}`, value: p(overheads, 50), unit: 'ms' },
      { case: name, metric: `in-service overhead p99 ${at}`, value: p(overheads, 99), unit: 'ms' },
      { case: name, metric: 'added p50, one at a time', value: p(sequentialService.latencies, 50) - p(sequentialDirect.latencies, 50), unit: 'ms' },
      { case: name, metric: 'added p99, one at a time', value: p(sequentialService.latencies, 99) - p(sequentialDirect.latencies, 99), unit: 'ms', goal: '< 10 ms' },
      { case: name, metric: 'CPU per decision: direct (client + fake)', value: directCpuMs / DECISIONS, unit: 'ms' },
      { case: name, metric: 'CPU per decision: service process', value: serviceCpuMs / DECISIONS, unit: 'ms' },
      { case: name, metric: `throughput direct / via service ${at}`, value: DECISIONS / viaDirect.seconds, unit: `/s / ${(DECISIONS / viaService.seconds).toFixed(0)} /s` },
      { case: name, metric: 'service RSS after run', value: await service.rssMiB(), unit: 'MiB' },
    ];
  } finally {
    await service.stop();
    await fake.close();
    await rm(dir, { recursive: true, force: true });
  }
}

interface ScaleOutRun {
  label: string;
  throughput: number;
  /** p50 of the same load sent straight to the canned provider. */
  directP50: number;
  addedP50: number;
  addedP99: number;
  /** latency minus upstream latency inside the service, from its request logs (NaN for the reference forwarder). */
  overheadP50: number;
  /** CPU this process (load generator and canned provider) spent per decision sent through the service. */
  harnessCpuMs: number;
  /** CPU per decision of each of the service's processes (its workers, and its primary when clustered). */
  serviceCpuMs: Array<{ role: string; ms: number }>;
  /** CPU per decision of the redis-server (null with the file store). */
  redisCpuMs: number | null;
  /** CPU time of service, Redis and harness together over the wall time: how many of the machine's cores were busy. */
  coresBusy: number;
  errors: number;
}

/** What an instant Anthropic answers: one tool call. */
const CANNED_ANTHROPIC_MESSAGE = {
  id: 'msg_bench',
  type: 'message',
  role: 'assistant',
  model: 'bench-model',
  content: [{ type: 'tool_use', id: 'toolu_bench', name: 'tap', input: { element_id: 'e1' } }],
  stop_reason: 'tool_use',
  stop_sequence: null,
  usage: { input_tokens: 1200, output_tokens: 30 },
};

interface Configuration {
  label: string;
  workers: number;
  redisUrl: string | null;
  /** Runs the reference forwarder (bench/support/bare-forwarder.ts) instead of `amc control-plane`. */
  forwarder?: boolean;
}

/** One configuration's service (N workers, a store) in front of the canned provider, measured round by round. */
async function startConfiguration(configuration: Configuration, providerUrl: string, dir: string) {
  const { label, workers, redisUrl } = configuration;
  let token: string;
  const tokensFile = path.join(dir, `tokens-${workers}-${redisUrl ? 'redis' : 'file'}.json`);
  if (redisUrl) {
    const store = new RedisStore(redisUrl);
    token = (await store.create({ name: `bench-${label}` })).token;
    await store.close();
  } else {
    token = (await createToken(tokensFile, { name: 'bench' })).token;
  }
  const service = await startServiceProcess(
    {
      AMC_CP_PROVIDER: 'anthropic',
      AMC_CP_MODEL: 'bench-model',
      AMC_CP_TOKENS_FILE: tokensFile,
      AMC_CP_REDIS_URL: redisUrl ?? '',
      AMC_CP_RATE_LIMIT_PER_MINUTE: '1000000',
      AMC_CP_RATE_LIMIT_BURST: '100000',
      AMC_CP_SECRETS_FILE: '',
      ANTHROPIC_API_KEY: 'sk-ant-bench-key-0123456789',
      OPENAI_API_KEY: '',
      ANTHROPIC_BASE_URL: providerUrl,
    },
    workers,
    configuration.forwarder ? BARE_FORWARDER : AMC_CONTROL_PLANE,
  );
  const proxied = { url: service.url, path: CONTROL_PLANE_DECISION_PATH, headers: { authorization: `Bearer ${token}` }, body: request };
  await runLoad(proxied, 2_500 * workers, CONCURRENCY);
  service.clearLog();
  const processes = await service.processes();
  const redisPid = redisUrl ? (await childrenOf(process.pid)).find((p) => p.command === 'redis-server')?.pid : undefined;
  const pids = [...processes.map((p) => p.pid), ...(redisPid ? [redisPid] : [])];
  const cpuMs = pids.map(() => 0);
  const viaService = emptyRun();
  let harnessCpuMs = 0;
  return {
    service,
    /** One round of `decisions` through the service, with the CPU every process spent on it. */
    async round(decisions: number) {
      const before = process.cpuUsage();
      const processesBefore = await cpuSnapshot(pids);
      addRun(viaService, await runLoad(proxied, decisions, CONCURRENCY));
      const processesAfter = await cpuSnapshot(pids);
      const used = process.cpuUsage(before);
      harnessCpuMs += (used.user + used.system) / 1000;
      processesAfter.forEach((after, i) => (cpuMs[i]! += after - processesBefore[i]!));
    },
    result(viaDirect: Run): ScaleOutRun {
      if (viaService.firstError) process.stderr.write(`  control plane (${label}) first error: ${viaService.firstError}\n`);
      const decisions = viaService.latencies.length + viaService.errors;
      const totalCpuMs = harnessCpuMs + cpuMs.reduce((sum, ms) => sum + ms, 0);
      return {
        label,
        throughput: decisions / viaService.seconds,
        directP50: percentile(viaDirect.latencies, 50),
        addedP50: percentile(viaService.latencies, 50) - percentile(viaDirect.latencies, 50),
        addedP99: percentile(viaService.latencies, 99) - percentile(viaDirect.latencies, 99),
        overheadP50: percentile(service.overheads(), 50),
        harnessCpuMs: harnessCpuMs / decisions,
        serviceCpuMs: processes.map((p, i) => ({ role: p.role, ms: cpuMs[i]! / decisions })),
        redisCpuMs: redisPid ? cpuMs.at(-1)! / decisions : null,
        coresBusy: totalCpuMs / 1000 / viaService.seconds,
        errors: viaService.errors,
      };
    },
  };
}

/**
 * Configurations side by side, each its own service between the raw load generator and one canned provider
 * (bench/support/raw-http.ts): rounds alternate between them and the same load sent straight to the provider, so
 * a neighbour's burst on this shared machine hits every configuration alike and their ratios compare like with
 * like. Only the configuration under load uses the CPU; the others sit idle. Both ends cost this process a few
 * hundredths of a millisecond a decision, so the service's workers, not the harness, get the cores.
 */
async function measureSideBySide(
  configurations: Configuration[],
  { providerDelayMs = 0, decisions = DECISIONS } = {},
): Promise<ScaleOutRun[]> {
  const dir = await mkdtemp(path.join(tmpdir(), 'amc-bench-cp-scale-'));
  const fake = await startCannedServer(CANNED_ANTHROPIC_MESSAGE, providerDelayMs);
  const started: Array<Awaited<ReturnType<typeof startConfiguration>>> = [];
  try {
    for (const configuration of configurations) started.push(await startConfiguration(configuration, fake.url, dir));
    const direct = { url: fake.url, path: '/v1/messages', headers: {}, body: request };
    await runLoad(direct, WARMUP, CONCURRENCY);
    const viaDirect = emptyRun();
    for (let round = 0; round < ROUNDS; round++) {
      addRun(viaDirect, await runLoad(direct, decisions / ROUNDS, CONCURRENCY));
      for (const configuration of started) await configuration.round(decisions / ROUNDS);
    }
    return started.map((configuration) => configuration.result(viaDirect));
  } finally {
    await Promise.all(started.map((configuration) => configuration.service.stop()));
    await fake.close();
    await rm(dir, { recursive: true, force: true });
  }
}

const serviceCpu = (run: ScaleOutRun) => run.serviceCpuMs.reduce((sum, p) => sum + p.ms, 0);
/** Everything this machine's cores spent per decision sent through the service. */
const machineCpu = (run: ScaleOutRun) => serviceCpu(run) + (run.redisCpuMs ?? 0) + run.harnessCpuMs;
/**
 * The 2-worker / 1-worker ratio if a decision cost two workers no more CPU than it costs one: the cores divided by
 * all the CPU of one decision at 1 worker (service, Redis, harness), over what 1 worker reached. One worker already
 * has the second core's help (its GC threads, the harness), so this is below 2 even when nothing is lost to scaling.
 */
const equalCostCeiling = (one: ScaleOutRun) => availableParallelism() / (machineCpu(one) / 1000) / one.throughput;

async function measureScaleOut(): Promise<BenchRow[]> {
  const redis = await startTestRedis();
  try {
    // One group, so that the Redis-minus-file rows, too, compare rounds taken under the same conditions.
    const [fileOne, fileTwo, redisOne, redisTwo] = await measureSideBySide([
      { label: 'file store, 1 worker', workers: 1, redisUrl: null },
      { label: 'file store, 2 workers', workers: 2, redisUrl: null },
      { label: 'Redis, 1 worker', workers: 1, redisUrl: redis.url },
      { label: 'Redis, 2 workers', workers: 2, redisUrl: redis.url },
    ]);
    // What a proxy doing nothing but forwarding reaches here: the harness's own share of the cores bounds the ratio.
    const [bareOne, bareTwo] = await measureSideBySide([
      { label: 'reference forwarder, 1 worker', workers: 1, redisUrl: null, forwarder: true },
      { label: 'reference forwarder, 2 workers', workers: 2, redisUrl: null, forwarder: true },
    ]);
    // Fifty hosts whose provider takes a while, as real ones do: the service's own share of each decision's time,
    // without the queueing that an instant provider at full load adds.
    const [paced] = await measureSideBySide([{ label: `file store, 2 workers, provider answering in ${PACED_PROVIDER_MS / 2}–${(PACED_PROVIDER_MS * 3) / 2} ms`, workers: 2, redisUrl: null }], {
      providerDelayMs: PACED_PROVIDER_MS,
      decisions: PACED_DECISIONS,
    });
    const name = 'control-plane scale-out (anthropic)';
    const at = `@${CONCURRENCY}`;
    const rows: BenchRow[] = [fileOne!, fileTwo!, redisOne!, redisTwo!].flatMap((run) => [
      { case: name, metric: `${run.label}: decisions/s ${at}`, value: run.throughput, unit: '/s' },
      { case: name, metric: `${run.label}: added p50 / p99 ${at}`, value: run.addedP50, unit: `ms / ${run.addedP99.toFixed(1)} ms`, ...(run.label.includes('2 workers') ? { goal: 'p50 < 10 ms' } : {}) },
      { case: name, metric: `${run.label}: in-service overhead p50 ${at}`, value: run.overheadP50, unit: 'ms' },
      { case: name, metric: `${run.label}: service CPU per decision (all its processes)`, value: serviceCpu(run), unit: `ms (${run.serviceCpuMs.map((p) => `${p.role} ${p.ms.toFixed(3)}`).join(', ')})` },
      ...(run.redisCpuMs === null ? [] : [{ case: name, metric: `${run.label}: redis-server CPU per decision`, value: run.redisCpuMs, unit: 'ms' }]),
      { case: name, metric: `${run.label}: load generator + provider CPU per decision`, value: run.harnessCpuMs, unit: 'ms' },
      { case: name, metric: `${run.label}: cores busy (service, Redis, harness)`, value: run.coresBusy, unit: `of ${availableParallelism()}` },
      { case: name, metric: `${run.label}: errors`, value: run.errors, unit: '', goal: '0' },
    ]);
    rows.push(
      { case: name, metric: 'throughput 2 workers / 1 worker (file store)', value: fileTwo!.throughput / fileOne!.throughput, unit: 'x', goal: '>= 1.6x' },
      { case: name, metric: 'throughput 2 workers / 1 worker (Redis)', value: redisTwo!.throughput / redisOne!.throughput, unit: 'x', goal: '>= 1.6x' },
      { case: name, metric: 'ceiling of that ratio at equal CPU per decision (file store)', value: equalCostCeiling(fileOne!), unit: 'x' },
      { case: name, metric: 'ceiling of that ratio at equal CPU per decision (Redis)', value: equalCostCeiling(redisOne!), unit: 'x' },
      { case: name, metric: 'CPU per decision, 2 workers / 1 worker (file store; service + harness)', value: machineCpu(fileTwo!) / machineCpu(fileOne!), unit: 'x' },
      { case: name, metric: 'CPU per decision, 2 workers / 1 worker (Redis; service + Redis + harness)', value: machineCpu(redisTwo!) / machineCpu(redisOne!), unit: 'x' },
      {
        case: name,
        metric: `reference forwarder (node:http only): decisions/s ${at}, 1 worker / 2 workers`,
        value: bareOne!.throughput,
        unit: `/s / ${bareTwo!.throughput.toFixed(0)} /s (${(bareTwo!.throughput / bareOne!.throughput).toFixed(2)}x; added p50 with 2 workers ${bareTwo!.addedP50.toFixed(1)} ms)`,
      },
      { case: name, metric: 'reference forwarder: CPU per decision, 2 workers (forwarder + harness)', value: machineCpu(bareTwo!), unit: `ms (harness ${bareTwo!.harnessCpuMs.toFixed(3)} ms)` },
      {
        case: name,
        // Little's law: at a fixed concurrency the mean latency is concurrency / throughput, so the goal on added
        // latency is a goal on throughput, and on a machine of N cores a goal on the CPU everything spends per decision.
        metric: `CPU budget per decision for added p50 < 10 ms ${at} on ${availableParallelism()} cores (service + harness)`,
        value: (availableParallelism() * (fileTwo!.directP50 + 10)) / CONCURRENCY,
        unit: `ms (spent: ${machineCpu(fileTwo!).toFixed(3)} ms with 2 workers)`,
      },
      { case: name, metric: 'added p50: Redis minus file store, 1 worker', value: redisOne!.addedP50 - fileOne!.addedP50, unit: 'ms', goal: '< 1 ms' },
      { case: name, metric: 'in-service overhead p50: Redis minus file store, 1 worker', value: redisOne!.overheadP50 - fileOne!.overheadP50, unit: 'ms', goal: '< 1 ms' },
      { case: name, metric: `${paced!.label}: decisions/s ${at}`, value: paced!.throughput, unit: '/s' },
      { case: name, metric: `${paced!.label}: added p50 / p99 ${at}`, value: paced!.addedP50, unit: `ms / ${paced!.addedP99.toFixed(1)} ms` },
      { case: name, metric: `${paced!.label}: in-service overhead p50 ${at}`, value: paced!.overheadP50, unit: 'ms' },
      { case: name, metric: `${paced!.label}: errors`, value: paced!.errors, unit: '', goal: '0' },
    );
    return rows;
  } finally {
    await redis.dispose();
  }
}

const controlPlaneBench: BenchCase = {
  name: 'control-plane',
  async run() {
    return [...(await measure('anthropic')), ...(await measure('openai')), ...(await measureScaleOut())];
  },
};
export default controlPlaneBench;
