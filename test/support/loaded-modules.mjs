// Runs `amc` (src/cli/main.ts through tsx, as bin/amc.mjs does) with the given arguments and prints, one a line, every
// module of src/ the start loaded: what a start costs, without timing it. Usage: node loaded-modules.mjs ARGS...
import { register } from 'node:module';
import { setTimeout as sleep } from 'node:timers/promises';
import { MessageChannel } from 'node:worker_threads';

const { port1, port2 } = new MessageChannel();
const loaded = [];
port1.on('message', (url) => loaded.push(url));
port1.unref();
// Module hooks run on their own thread in Node 20: each loaded URL comes back over the port.
const hooks = 'let port; export function initialize(data) { port = data.port; } export async function load(url, context, next) { port.postMessage(url); return next(url, context); }';
register(`data:text/javascript,${encodeURIComponent(hooks)}`, { data: { port: port2 }, transferList: [port2] });
const { register: registerTsx } = await import('tsx/esm/api');
registerTsx();
const { main } = await import(new URL('../../src/cli/main.ts', import.meta.url).href);
await main(process.argv.slice(2), { out: () => undefined, err: () => undefined });
// The port's last messages arrive after main returns.
await sleep(200);
const src = new URL('../../src/', import.meta.url).href;
console.log(loaded.filter((url) => url.startsWith(src)).map((url) => url.slice(src.length)).join('\n'));
