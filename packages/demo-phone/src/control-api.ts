import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { z } from 'zod';
import { PHONE_FAULT_KINDS, type PhoneFaultKind } from './phone/faults';
import type { LatencyProfileName } from './phone/latency';
import { USER_APP_PACKAGES, type PhoneState } from './phone/model';
import type { ControllablePhone } from './phone-contract';

/** The transport-level fault the adb side owns; every other fault belongs to the phone. */
export const CONNECTION_DROP = 'connection-drop';
export const FAULT_KINDS = [CONNECTION_DROP, ...PHONE_FAULT_KINDS] as const;
export type FaultKind = (typeof FAULT_KINDS)[number];

export const FaultRequestSchema = z.object({ kind: z.enum(FAULT_KINDS) }).strict();
export const ProfileRequestSchema = z.object({ profile: z.enum(['instant', 'realistic']) }).strict();
export const LoadingBarRequestSchema = z.object({ running: z.boolean() }).strict();
/** An app to bring to the front, or none for the home screen. */
export const ForegroundRequestSchema = z.object({ package: z.enum(USER_APP_PACKAGES).optional() }).strict();

/** What the control API needs of the adb endpoint. */
export interface ConnectionFaults {
  armConnectionDrop(): void;
  disarmConnectionDrop(): void;
  readonly connectionDropArmed: boolean;
}

export interface ControlApiOptions {
  phone: ControllablePhone;
  connection: ConnectionFaults;
  profile: LatencyProfileName;
}

export interface ControlApi {
  readonly url: string;
  readonly port: number;
  /** The same routes without HTTP, for a host in the phone's own process (the eval suite). Throws the 4xx reason as the error message. */
  call<Route extends ControlRoute>(route: Route, body?: unknown): ControlReplies[Route];
  close(): Promise<void>;
}

const MAX_BODY_BYTES = 1024 * 1024;

class HttpError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

type Handler = (body: unknown) => unknown;

export interface FaultList {
  faults: Array<{ kind: string }>;
}

/** What each route answers: the typed contract for clients (tests, benchmarks, the task suite). */
export interface ControlReplies {
  'GET /': { routes: string[] };
  'GET /state': PhoneState;
  'POST /reset': PhoneState;
  'GET /faults': FaultList;
  'POST /faults': FaultList;
  'GET /profile': { profile: LatencyProfileName };
  'POST /profile': { profile: LatencyProfileName };
  'POST /loading-bar': { running: boolean };
  'POST /foreground': { foreground: string };
}
export type ControlRoute = keyof ControlReplies;
type RouteTable = { [Route in ControlRoute]: (body: unknown) => ControlReplies[Route] };

/**
 * Loopback HTTP JSON API for tests, demos and benchmarks: read the phone's state, reset it, inject faults,
 * switch the latency profile, run the loading bar. Every reply is JSON; every bad request gets a 4xx with `{ error }`.
 */
export async function startControlApi(options: ControlApiOptions, port: number, host: string): Promise<ControlApi> {
  const { phone, connection } = options;
  let profile = options.profile;
  const listFaults = (): Array<{ kind: string }> => [
    ...(connection.connectionDropArmed ? [{ kind: CONNECTION_DROP }] : []),
    ...phone.faults(),
  ];

  const table: RouteTable = {
    'GET /': () => ({ routes: Object.keys(table) }),
    'GET /state': () => phone.state(),
    'POST /reset': (body) => {
      try {
        phone.reset(body);
      } catch (error) {
        throw new HttpError(400, error instanceof Error ? error.message : String(error));
      }
      connection.disarmConnectionDrop();
      return phone.state();
    },
    'GET /faults': () => ({ faults: listFaults() }),
    'POST /faults': (body) => {
      const { kind } = parseBody(FaultRequestSchema, body);
      if (kind === CONNECTION_DROP) connection.armConnectionDrop();
      else phone.injectFault({ kind: kind as PhoneFaultKind });
      return { faults: listFaults() };
    },
    'GET /profile': () => ({ profile }),
    'POST /profile': (body) => {
      profile = parseBody(ProfileRequestSchema, body).profile;
      phone.setProfile(profile);
      return { profile };
    },
    // A screen that changes every frame, for measuring the video mirror.
    'POST /loading-bar': (body) => {
      phone.setLoadingBar(parseBody(LoadingBarRequestSchema, body).running);
      return { running: phone.loadingBar };
    },
    // An app switch that leaves everything else as it is (a reset also ends the phone's helpers, a mirror's server
    // among them), timed from the request: for measuring how fast a change reaches a mirror.
    'POST /foreground': (body) => {
      phone.bringToFront(parseBody(ForegroundRequestSchema, body).package);
      return { foreground: phone.state().foreground };
    },
  };
  const routes = routesByPath(table);

  let allowedHosts: ReadonlySet<string> | null = null;
  const server = createServer((request, response) => {
    const refusal = allowedHosts && foreignRequest(request, allowedHosts);
    if (refusal) sendJson(response, 403, { error: refusal });
    else void respond(routes, request, response);
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const boundPort = (server.address() as { port: number }).port;
  const hostName = host.includes(':') ? `[${host}]` : host;
  allowedHosts = allowedHostsFor(hostName, boundPort);
  return {
    url: `http://${hostName}:${boundPort}`,
    port: boundPort,
    call: (route, body) => table[route](body) as ControlReplies[typeof route],
    close: () => closeServer(server),
  };
}

const LOOPBACK_NAMES = ['127.0.0.1', 'localhost', '[::1]'];
const ANY_ADDRESS = new Set(['0.0.0.0', '[::]']);

/** The Host values that name this server ("127.0.0.1:5602", "localhost:5602"...); null when bound to every address. */
function allowedHostsFor(hostName: string, port: number): ReadonlySet<string> | null {
  if (ANY_ADDRESS.has(hostName)) return null;
  return new Set([hostName, ...LOOPBACK_NAMES].map((name) => `${name}:${port}`));
}

/**
 * Why a request is refused before any route runs, as the app's web host does: a Host that is not this server
 * (DNS rebinding) or any Origin that is not this server itself (a web page's fetch, even a `no-cors` POST, which a
 * browser always sends with its page's Origin). Tests, benchmarks and `amc` send no Origin.
 */
function foreignRequest(request: IncomingMessage, allowedHosts: ReadonlySet<string>): string | null {
  const host = request.headers.host ?? '';
  if (!allowedHosts.has(host)) return `Forbidden host "${host}": the control API answers only on ${[...allowedHosts][0]}.`;
  const origin = request.headers.origin;
  if (origin !== undefined && !allowedHosts.has(origin.replace(/^http:\/\//, ''))) return 'Forbidden origin: web pages may not drive the demo phone.';
  return null;
}

/** `{ '/state': { GET: handler } }` from `{ 'GET /state': handler }`. */
function routesByPath(table: RouteTable): Record<string, Partial<Record<string, Handler>>> {
  const routes: Record<string, Partial<Record<string, Handler>>> = {};
  for (const [route, handler] of Object.entries(table) as Array<[string, Handler]>) {
    const [method = '', path = ''] = route.split(' ');
    (routes[path] ??= {})[method] = handler;
  }
  return routes;
}

async function respond(
  routes: Record<string, Partial<Record<string, Handler>>>,
  request: IncomingMessage,
  response: ServerResponse,
): Promise<void> {
  try {
    const path = new URL(request.url ?? '/', 'http://localhost').pathname;
    const methods = routes[path];
    if (!methods) throw new HttpError(404, `No such endpoint: ${path}. Try GET / for the list.`);
    const handler = methods[request.method ?? 'GET'];
    if (!handler) {
      response.setHeader('allow', Object.keys(methods).join(', '));
      throw new HttpError(405, `${request.method} is not allowed on ${path}; use ${Object.keys(methods).join(' or ')}.`);
    }
    const body = await readJsonBody(request);
    sendJson(response, 200, handler(body) ?? {});
  } catch (error) {
    if (error instanceof HttpError) sendJson(response, error.status, { error: error.message });
    else sendJson(response, 500, { error: error instanceof Error ? error.message : String(error) });
  }
}

function parseBody<T>(schema: z.ZodType<T>, body: unknown): T {
  const parsed = schema.safeParse(body ?? {});
  if (!parsed.success) throw new HttpError(400, `Invalid request body: ${z.prettifyError(parsed.error)}`);
  return parsed.data;
}

/** The parsed JSON body, or undefined when there is none. */
async function readJsonBody(request: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of request as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > MAX_BODY_BYTES) throw new HttpError(413, `Request body is larger than ${MAX_BODY_BYTES} bytes.`);
    chunks.push(chunk);
  }
  const text = Buffer.concat(chunks).toString('utf8').trim();
  if (text === '') return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch (error) {
    throw new HttpError(400, `Request body is not valid JSON: ${error instanceof Error ? error.message : String(error)}`);
  }
}

function sendJson(response: ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  // One request per connection: a kept-alive socket the server times out can reset the client's next request.
  response.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(text), connection: 'close' });
  response.end(text);
}

function closeServer(server: Server): Promise<void> {
  return new Promise((resolve) => {
    server.close(() => resolve());
    server.closeAllConnections();
  });
}
