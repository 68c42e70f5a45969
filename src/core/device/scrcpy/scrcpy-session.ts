import { randomInt } from 'node:crypto';
import type { Duplex } from 'node:stream';
import type { AdbClient } from '../adb-client';
import { SCRCPY_SERVER } from '../helpers/catalog';
import { VideoStreamError, VideoStreamParser, type ScrcpyCodec, type VideoStreamEvent } from './video-stream-parser';
import { appProcess } from '../android/app-process';

export interface ScrcpyStartOptions {
  adb: Pick<AdbClient, 'push' | 'openStream' | 'shell'>;
  serial: string;
  /** The scrcpy-server 3.3.3 file. */
  server: Buffer;
  /** Longest edge of the video in pixels (the mirror's size on screen); 0 keeps the phone's size. */
  maxSize: number;
  maxFps?: number;
  /** How long the server may take to listen after it was started. */
  connectTimeoutMs?: number;
  signal?: AbortSignal;
}

export interface VideoPacket {
  config: boolean;
  keyFrame: boolean;
  pts: bigint | null;
  data: Uint8Array;
}

export interface ScrcpyVideo {
  codec: ScrcpyCodec;
  width: number;
  height: number;
  deviceName: string;
}

const CONNECT_TIMEOUT_MS = 5000;
const CONNECT_RETRY_MS = 100;

/** The server's command line (3.3.3): video only plus control, over a forward tunnel, nothing left behind. */
export function serverCommand(scid: string, maxSize: number, maxFps: number): string {
  const options = [
    `scid=${scid}`,
    'log_level=info',
    'video=true',
    'video_codec=h264',
    `max_size=${maxSize}`,
    `max_fps=${maxFps}`,
    'audio=false',
    'control=true',
    'tunnel_forward=true',
    'send_dummy_byte=true',
    'cleanup=true',
    'clipboard_autosync=false',
    'power_off_on_close=false',
  ];
  return appProcess.runWithClassPathVariable({ classPath: SCRCPY_SERVER.devicePath, mainClass: SCRCPY_SERVER.mainClass }, '/', [SCRCPY_SERVER.version, ...options]);
}

/** A fresh 31-bit session id as the server expects it: 8 lowercase hex digits. */
export const newScid = (): string => randomInt(0, 0x7fffffff).toString(16).padStart(8, '0');

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * One running scrcpy-server on a phone and its two sockets, read through the adb server. Video packets and the
 * end of the stream are reported through callbacks; `close` ends the server (its sockets close, so it exits,
 * and the shell that runs it is closed too).
 */
export class ScrcpySession {
  private closed = false;
  private onPacket: (packet: VideoPacket) => void = () => {};
  private onEnd: (reason: string) => void = () => {};

  private constructor(
    readonly scid: string,
    readonly video: ScrcpyVideo,
    private readonly process: Duplex,
    private readonly videoSocket: Duplex,
    private readonly controlSocket: Duplex,
    private readonly parser: VideoStreamParser,
    private readonly early: VideoStreamEvent[],
  ) {}

  /** Pushes the server, starts it and waits for its video header; throws with a plain reason when it cannot. */
  static async start(options: ScrcpyStartOptions): Promise<ScrcpySession> {
    const { adb, serial, signal } = options;
    await adb.push(serial, options.server, SCRCPY_SERVER.devicePath, { signal, timeoutMs: 15_000 });
    const scid = newScid();
    const process = await adb.openStream(serial, { shell: serverCommand(scid, options.maxSize, options.maxFps ?? 60) });
    const log: string[] = [];
    let exited = false;
    process.on('data', (chunk: Buffer) => log.push(chunk.toString('utf8')));
    process.on('error', () => {});
    process.once('close', () => (exited = true));
    const opened: Duplex[] = [process];
    const abandon = () => opened.forEach((stream) => stream.destroy());
    try {
      const socketName = `localabstract:scrcpy_${scid}`;
      const deadline = Date.now() + (options.connectTimeoutMs ?? CONNECT_TIMEOUT_MS);
      const parser = new VideoStreamParser({ dummyByte: true });
      const server = { log: () => log.join(''), exited: () => exited };
      const { socket: videoSocket, events } = await connectVideo(adb, serial, socketName, parser, deadline, server, signal);
      opened.push(videoSocket);
      const controlSocket = await adb.openStream(serial, { socket: socketName });
      opened.push(controlSocket);
      const header = await readHeader(videoSocket, parser, events, deadline);
      // The control socket carries device messages (clipboard, acks) this client does not use: drain them.
      controlSocket.on('data', () => {});
      controlSocket.on('error', () => {});
      return new ScrcpySession(scid, header.video, process, videoSocket, controlSocket, parser, header.rest);
    } catch (error) {
      abandon();
      throw error;
    }
  }

  /** Starts delivering packets (the ones read with the header first) and the stream's end. */
  listen(onPacket: (packet: VideoPacket) => void, onEnd: (reason: string) => void): void {
    this.onPacket = onPacket;
    this.onEnd = onEnd;
    const deliver = (events: VideoStreamEvent[]) => {
      for (const event of events) if (event.kind === 'packet') this.onPacket(event);
    };
    deliver(this.early);
    this.videoSocket.on('data', (chunk: Buffer) => {
      try {
        deliver(this.parser.push(chunk));
      } catch (error) {
        this.end(error instanceof Error ? error.message : String(error));
      }
    });
    this.videoSocket.once('close', () => this.end('the video stream ended'));
    this.videoSocket.on('error', () => {});
    this.process.once('close', () => this.end('the scrcpy server on the phone stopped'));
    this.videoSocket.resume();
  }

  /** Writes control messages; false when the session is over. */
  send(...messages: Uint8Array[]): boolean {
    if (this.closed || this.controlSocket.destroyed) return false;
    for (const message of messages) this.controlSocket.write(message);
    return true;
  }

  get isOpen(): boolean {
    return !this.closed;
  }

  /** Closes both sockets and the server's shell: the server exits when its client goes. */
  close(): void {
    if (this.closed) return;
    this.closed = true;
    this.videoSocket.destroy();
    this.controlSocket.destroy();
    this.process.destroy();
  }

  private end(reason: string): void {
    if (this.closed) return;
    this.close();
    this.onEnd(reason);
  }
}

/**
 * Opens the video socket once the server listens. Until then the phone accepts and at once closes the
 * connection (as a real adbd does for an abstract socket nobody listens on), so a socket counts only once
 * its first byte arrived.
 */
async function connectVideo(
  adb: Pick<AdbClient, 'openStream'>,
  serial: string,
  socketName: string,
  parser: VideoStreamParser,
  deadline: number,
  server: { log(): string; exited(): boolean },
  signal: AbortSignal | undefined,
): Promise<{ socket: Duplex; events: VideoStreamEvent[] }> {
  let lastProblem = 'it did not start listening';
  const said = () => server.log().trim().split('\n').find(Boolean);
  while (Date.now() < deadline) {
    if (signal?.aborted) throw new Error('the mirror was stopped');
    if (server.exited()) throw new Error(`the scrcpy server stopped at once${said() ? ` (it said: ${said()!.trim().slice(0, 200)})` : ''}`);
    let socket: Duplex | null = null;
    try {
      socket = await adb.openStream(serial, { socket: socketName });
      const first = await firstChunk(socket, Math.max(0, deadline - Date.now()));
      if (first) return { socket, events: parser.push(first) };
    } catch (error) {
      lastProblem = error instanceof Error ? error.message : String(error);
    }
    socket?.destroy();
    await sleep(CONNECT_RETRY_MS);
  }
  throw new Error(`the scrcpy server did not answer (${said() ? `it said: ${said()!.trim().slice(0, 200)}` : lastProblem})`);
}

/** The first bytes of a socket, or null when it closed without any. */
function firstChunk(socket: Duplex, timeoutMs: number): Promise<Buffer | null> {
  return new Promise((resolve) => {
    const done = (value: Buffer | null) => {
      clearTimeout(timer);
      socket.off('data', onData);
      socket.off('close', onClose);
      socket.off('error', onClose);
      socket.pause();
      resolve(value);
    };
    const onData = (chunk: Buffer) => done(chunk);
    const onClose = () => done(null);
    const timer = setTimeout(onClose, timeoutMs);
    socket.on('data', onData);
    socket.once('close', onClose);
    socket.once('error', onClose);
    socket.resume();
  });
}

/** Reads until the device name and codec meta have arrived; any packets read with them are kept. */
async function readHeader(
  socket: Duplex,
  parser: VideoStreamParser,
  already: VideoStreamEvent[],
  deadline: number,
): Promise<{ video: ScrcpyVideo; rest: VideoStreamEvent[] }> {
  const events = [...already];
  const header = () => {
    const device = events.find((event) => event.kind === 'device');
    const codec = events.find((event) => event.kind === 'codec');
    return device && codec ? { device, codec } : null;
  };
  while (!header()) {
    const chunk = await firstChunk(socket, Math.max(0, deadline - Date.now()));
    if (!chunk) throw new VideoStreamError('the scrcpy server closed the video stream before its header');
    events.push(...parser.push(chunk));
  }
  const { device, codec } = header()!;
  const video: ScrcpyVideo = { codec: codec.codec, width: codec.width, height: codec.height, deviceName: device.name };
  return { video, rest: events.filter((event) => event.kind === 'packet') };
}
