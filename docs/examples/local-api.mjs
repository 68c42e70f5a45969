// A script driving the app through its local API: start the demo phone, carry out a goal, print each turn.
//   npx amc serve                     # prints http://127.0.0.1:PORT/#token=TOKEN
//   node docs/examples/local-api.mjs 'http://127.0.0.1:PORT/#token=TOKEN' 'Turn on Bluetooth'
import WebSocket from 'ws';

const [address, goal = 'Turn on Bluetooth'] = process.argv.slice(2);
if (!address) {
  console.error('usage: node local-api.mjs ADDRESS_PRINTED_BY_AMC_SERVE [GOAL]');
  process.exit(2);
}
const page = new URL(address);
const token = /[#&]token=([^&]+)/.exec(page.hash)?.[1];
const socket = new WebSocket(`ws://${page.host}/ws?token=${token ?? ''}`, { origin: page.origin });

let nextId = 1;
const pending = new Map();
/** One request; resolves with its value, rejects with the error's plain-words message. */
function call(method, input = {}) {
  const id = nextId++;
  socket.send(JSON.stringify({ id, method, input }));
  return new Promise((resolve, reject) => pending.set(id, { resolve, reject }));
}

// Events may arrive before tasks.run answers with the task's id: keep them until it is known.
const taskEvents = [];
let taskId;
let finished;
const done = new Promise((resolve) => (finished = resolve));
function showTaskEvents() {
  if (taskId === undefined) return;
  for (const event of taskEvents.splice(0)) {
    if (event.taskId !== taskId) continue;
    if (event.type === 'step.planned') console.log(`step ${event.step}: ${event.tool} ${JSON.stringify(event.args)}`);
    if (event.type === 'task.finished') finished(event);
  }
}
socket.on('message', (data, isBinary) => {
  if (isBinary) return; // mirror frames, for windows that show the phone
  const message = JSON.parse(data.toString());
  if (message.type === 'result') {
    const request = pending.get(message.id);
    pending.delete(message.id);
    if (message.result.ok) request?.resolve(message.result.value);
    else request?.reject(new Error(message.result.error.message));
  } else if (message.name === 'task.event') {
    taskEvents.push(message.payload);
    showTaskEvents();
  }
});

socket.on('open', async () => {
  try {
    const { serial } = await call('devices.startDemo');
    console.log(`demo phone: ${serial}`);
    const task = await call('tasks.run', { serial, goal });
    taskId = task.id;
    showTaskEvents();
    const end = await done;
    console.log(`${end.status} after ${end.steps} steps${end.result ? `: ${end.result}` : ''}${end.failureReason ? `: ${end.failureReason}` : ''}`);
    process.exitCode = end.status === 'completed' ? 0 : 1;
  } catch (error) {
    console.error(error.message);
    process.exitCode = 1;
  } finally {
    socket.close();
  }
});
socket.on('error', (error) => {
  console.error(`Could not reach the app at ${page.host}: ${error.message}`);
  process.exitCode = 1;
});
