import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { gzipSync } from 'node:zlib';
import { afterEach, describe, expect, it } from 'vitest';
import { createBufferedFetch, type BufferedFetch } from '../../src/control-plane/buffered-fetch';

interface Loopback {
  url: string;
  connections: number;
  requests: Array<{ method: string; headers: http.IncomingHttpHeaders; body: string }>;
  close(): Promise<void>;
}

async function loopback(handle: (request: http.IncomingMessage, response: http.ServerResponse) => void): Promise<Loopback> {
  const server = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      state.requests.push({ method: request.method ?? '', headers: request.headers, body: Buffer.concat(chunks).toString() });
      handle(request, response);
    });
  });
  server.on('connection', () => (state.connections += 1));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const state: Loopback = {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    connections: 0,
    requests: [],
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
  return state;
}

const opened: Array<{ close(): unknown }> = [];
function track<T extends { close(): unknown }>(thing: T): T {
  opened.push(thing);
  return thing;
}
afterEach(async () => {
  for (const thing of opened.splice(0)) await thing.close();
});

function transport(fallback?: BufferedFetch['fetch']): BufferedFetch {
  return track(createBufferedFetch(fallback));
}

describe('buffered fetch (the provider SDKs transport in the control plane)', () => {
  it('sends method, headers and body, and answers a standard Response with status, headers and body', async () => {
    const server = track(
      await loopback((_request, response) => {
        response.writeHead(201, 'Made', { 'content-type': 'application/json', 'request-id': 'req_1' });
        response.end(JSON.stringify({ ok: true }));
      }),
    );
    const { fetch } = transport();
    const response = await fetch(`${server.url}/v1/messages`, {
      method: 'POST',
      headers: new Headers({ 'x-api-key': 'k', 'content-type': 'application/json' }),
      body: '{"model":"m","note":"é"}',
    });
    expect(response).toBeInstanceOf(Response);
    expect(response.status).toBe(201);
    expect(response.statusText).toBe('Made');
    expect(response.headers.get('request-id')).toBe('req_1');
    expect(await response.json()).toEqual({ ok: true });
    expect(server.requests[0]).toMatchObject({ method: 'POST', body: '{"model":"m","note":"é"}' });
    expect(server.requests[0]!.headers['x-api-key']).toBe('k');
    expect(server.requests[0]!.headers['content-length']).toBe(String(Buffer.byteLength('{"model":"m","note":"é"}')));
  });

  it('keeps the connection alive between calls', async () => {
    const server = track(await loopback((_request, response) => response.end('{}')));
    const { fetch } = transport();
    for (let i = 0; i < 3; i++) await (await fetch(server.url, { method: 'POST', body: '{}' })).text();
    expect(server.requests).toHaveLength(3);
    expect(server.connections).toBe(1);
  });

  it('hands back a gzip-encoded answer decoded, as the built-in fetch does', async () => {
    const server = track(
      await loopback((_request, response) => {
        response.writeHead(200, { 'content-type': 'application/json', 'content-encoding': 'gzip' });
        response.end(gzipSync(JSON.stringify({ packed: 'yes' })));
      }),
    );
    const response = await transport().fetch(server.url);
    expect(await response.json()).toEqual({ packed: 'yes' });
  });

  it('rejects with an AbortError when the signal fires mid-call, and drops the connection', async () => {
    let closed!: () => void;
    const serverSawClose = new Promise<void>((resolve) => (closed = resolve));
    const server = track(await loopback((request) => request.socket.once('close', closed)));
    const controller = new AbortController();
    const pending = transport().fetch(server.url, { method: 'POST', body: '{}', signal: controller.signal });
    await expect.poll(() => server.requests.length).toBe(1);
    controller.abort();
    await expect(pending).rejects.toMatchObject({ name: 'AbortError' });
    await serverSawClose;
  });

  it('rejects at once for a signal that has already fired', async () => {
    const controller = new AbortController();
    controller.abort();
    await expect(transport().fetch('http://127.0.0.1:9/', { signal: controller.signal })).rejects.toMatchObject({ name: 'AbortError' });
  });

  it('reports a refused connection as the built-in fetch does ("fetch failed" with the cause)', async () => {
    const server = await loopback(() => undefined);
    const { url } = server;
    await server.close();
    const error = (await transport()
      .fetch(url, { method: 'POST', body: '{}' })
      .catch((e: unknown) => e)) as TypeError & { cause?: NodeJS.ErrnoException };
    expect(error).toBeInstanceOf(TypeError);
    expect(error.message).toBe('fetch failed');
    expect(error.cause?.code).toBe('ECONNREFUSED');
  });

  it('leaves what it does not handle (a streamed body) to the fallback fetch', async () => {
    const seen: unknown[] = [];
    const fallback: BufferedFetch['fetch'] = async (input) => {
      seen.push(input);
      return new Response('from fallback');
    };
    const stream = new ReadableStream({ start: (c) => c.close() });
    const response = await transport(fallback).fetch('http://127.0.0.1:9/', { method: 'POST', body: stream });
    expect(await response.text()).toBe('from fallback');
    expect(seen).toEqual(['http://127.0.0.1:9/']);
  });
});
