// The least any Node proxy does per decision, as a reference for the control plane's scale-out rows: read the JSON
// body, send the provider its request on a kept-alive connection, read the JSON answer, answer with the tool call.
// No auth, limits, validation, SDK, framework, logs or metrics. Run as `node --import tsx bare-forwarder.ts
// --workers N` with ANTHROPIC_BASE_URL set; it prints the same "listening" line as `amc control-plane`.
import cluster from 'node:cluster';
import http from 'node:http';

const workers = Number(process.argv[process.argv.indexOf('--workers') + 1]);
const upstream = new URL(process.env.ANTHROPIC_BASE_URL ?? '');
const agent = new http.Agent({ keepAlive: true });

interface DecisionBody {
  system: string;
  messages: unknown[];
  tools: Array<{ name: string; description: string; inputSchema: unknown }>;
  maxOutputTokens: number;
}
interface ProviderAnswer {
  content: Array<{ name: string; input: unknown }>;
  usage: { input_tokens: number; output_tokens: number };
}

function readJson<T>(stream: http.IncomingMessage, then: (value: T) => void): void {
  const chunks: Buffer[] = [];
  stream.on('data', (chunk: Buffer) => chunks.push(chunk));
  stream.on('end', () => then(JSON.parse(Buffer.concat(chunks).toString()) as T));
}

function forward(request: http.IncomingMessage, response: http.ServerResponse): void {
  readJson<DecisionBody>(request, (decision) => {
    const body = JSON.stringify({
      model: 'bench-model',
      max_tokens: decision.maxOutputTokens,
      system: decision.system,
      messages: decision.messages,
      tools: decision.tools.map((tool) => ({ name: tool.name, description: tool.description, input_schema: tool.inputSchema })),
    });
    const headers = { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body), 'x-api-key': 'bench' };
    const call = http.request({ host: upstream.hostname, port: upstream.port, path: '/v1/messages', method: 'POST', agent, headers }, (answer) =>
      readJson<ProviderAnswer>(answer, (message) => {
        const [toolUse] = message.content;
        const usage = { inputTokens: message.usage.input_tokens, outputTokens: message.usage.output_tokens };
        const text = JSON.stringify({ tool_name: toolUse?.name, arguments: toolUse?.input, usage });
        response.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) });
        response.end(text);
      }),
    );
    call.end(body);
  });
}

const announce = (url: string) => console.log(JSON.stringify({ msg: 'listening', url }));

if (workers > 1 && cluster.isPrimary) {
  let listening = 0;
  cluster.on('message', (_worker, message: { url: string }) => {
    listening += 1;
    if (listening === workers) announce(message.url);
  });
  for (let i = 0; i < workers; i++) cluster.fork();
  process.on('SIGTERM', () => {
    for (const worker of Object.values(cluster.workers ?? {})) worker?.kill();
    process.exit(0);
  });
} else {
  const server = http.createServer(forward);
  server.listen(0, '127.0.0.1', () => {
    const url = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
    if (cluster.isWorker) process.send!({ url });
    else announce(url);
  });
  process.on('SIGTERM', () => process.exit(0));
}
