import type { PhoneLocalConnection } from '../../phone-contract';
import type { LocalSocketNamespace } from '../local-sockets';
import type { PhoneUi } from '../ui/phone-ui';
import { ControlMessageParser } from './control-messages';
import { ScrcpyController } from './controller';
import { parseScrcpyOptions, SCRCPY_SERVER_VERSION, ScrcpyOptionError, socketName, videoSize, type ScrcpyOptions } from './options';
import { EncoderCrash, ScreenVideoStream, type ScreenSource } from './video-stream';
import { rotatedSize, toNatural } from '../display-rotation';

const DEVICE_NAME_FIELD_LENGTH = 64;

/** What scrcpy's server uses of the phone. */
export interface ScrcpyHost extends ScreenSource {
  readonly ui: PhoneUi;
  /** Turns the display between portrait and landscape, freezing auto-rotate, as scrcpy's ROTATE_DEVICE does. */
  rotateDevice(): void;
  readonly localSockets: LocalSocketNamespace;
  /** Build.MANUFACTURER, Build.BRAND, Build.MODEL, Build.VERSION.RELEASE. */
  readonly build: { manufacturer: string; brand: string; model: string; release: string };
}

/** How the server's run ended: its exit status. */
export type ServerExit = 0 | 1;

/**
 * `app_process / com.genymobile.scrcpy.Server 3.3.3 key=value...` on the demo phone. With tunnel_forward the server
 * listens on `localabstract:scrcpy_<scid>` and accepts the video, audio and control sockets in that order (the
 * first gets the dummy byte and the device name), streams the screen and applies control messages until the
 * client closes a socket or `signal` aborts (the shell was closed or the process killed). Logs go to `print`.
 */
export async function runScrcpyServer(host: ScrcpyHost, args: readonly string[], signal: AbortSignal, print: (line: string) => Promise<void>): Promise<ServerExit> {
  const log = (level: string, message: string): Promise<void> => print(`[server] ${level}: ${message}\n`);
  const [clientVersion, ...rest] = args;
  if (clientVersion !== SCRCPY_SERVER_VERSION) {
    await log('ERROR', `The server version (${SCRCPY_SERVER_VERSION}) does not match the client (${clientVersion ?? ''})`);
    return 1;
  }
  let options: ScrcpyOptions;
  try {
    const parsed = parseScrcpyOptions(rest);
    options = parsed.options;
    for (const warning of parsed.warnings) await log('WARN', warning);
  } catch (error) {
    if (!(error instanceof ScrcpyOptionError)) throw error;
    await log('ERROR', `java.lang.IllegalArgumentException: ${error.message}`);
    return 1;
  }
  const { manufacturer, brand, model, release } = host.build;
  await log('INFO', `Device: [${manufacturer}] ${brand} ${model} (Android ${release})`);
  const problem = unsupported(options);
  if (problem) {
    await log('ERROR', problem);
    return 1;
  }
  const session = new AbortController();
  const stop = (): void => session.abort();
  signal.addEventListener('abort', stop, { once: true });
  const connections: PhoneLocalConnection[] = [];
  try {
    const sockets = await acceptSockets(host.localSockets, options, signal);
    if (!sockets) return 0;
    connections.push(...Object.values(sockets).filter((socket): socket is PhoneLocalConnection => socket !== undefined));
    // A client closing any socket ends the whole session, as on the phone.
    for (const connection of connections) connection.signal.addEventListener('abort', stop, { once: true });
    const first = connections[0];
    if (first && options.sendDeviceMeta) await first.write(deviceMeta(model));
    const rotation = host.displayRotation();
    const screen = rotatedSize(host.screenWidth, host.screenHeight, rotation);
    const size = videoSize(screen.width, screen.height, options.maxSize);
    let failure: unknown;
    // Any part stopping (a socket closed, bytes out of step, the encoder failing) stops the whole server.
    const runs: Array<Promise<void>> = [];
    const track = (run: Promise<void>): number =>
      runs.push(
        run
          .catch((error: unknown) => {
            failure ??= error;
          })
          .finally(stop),
      );
    let video: ScreenVideoStream | undefined;
    if (sockets.video) {
      video = new ScreenVideoStream(host, sockets.video, {
        maxSize: options.maxSize,
        rotation,
        sendCodecMeta: options.sendCodecMeta,
        sendFrameMeta: options.sendFrameMeta,
        maxFps: options.maxFps,
      });
      track(video.run(session.signal));
    }
    // No audio capture on the demo phone: the stream is disabled (code 0) and mirroring goes on without it.
    if (sockets.audio) await sockets.audio.write(Buffer.alloc(4));
    if (sockets.control) {
      const control = sockets.control;
      const controller = new ScrcpyController({
        ui: host.ui,
        screenWidth: screen.width,
        screenHeight: screen.height,
        toNatural: (x, y) => toNatural(x, y, rotation, host.screenWidth, host.screenHeight),
        videoWidth: size.width,
        videoHeight: size.height,
        log: (level, message) => void log(level, message),
        reply: (message) => control.write(message),
        resetVideo: () => video?.requestReset(),
        rotateDevice: () => host.rotateDevice(),
      });
      track(readControl(control, controller, log));
    }
    // A run may wait on a socket the client left open: the session's end is what counts.
    await Promise.race([Promise.all(runs), whenAborted(session.signal)]);
    if (failure instanceof EncoderCrash) {
      await log('ERROR', `Encoding error: ${failure.message}`);
      return 1;
    }
    if (failure !== undefined) throw failure;
    return 0;
  } finally {
    signal.removeEventListener('abort', stop);
    session.abort();
    for (const connection of connections) connection.close();
  }
}

function unsupported(options: ScrcpyOptions): string | undefined {
  if (!options.tunnelForward) return 'java.io.IOException: Connection refused (the demo phone serves scrcpy with tunnel_forward=true only)';
  if (options.videoCodec !== 'h264') return `Could not find video encoder for codec ${options.videoCodec} (the demo phone encodes h264 only)`;
  if (options.displayId !== 0) return `Display ${options.displayId} not found`;
  if (!options.video && !options.audio && !options.control) return 'java.lang.IllegalArgumentException: At least one of video, audio and control must be enabled';
  return undefined;
}

interface Sockets {
  video?: PhoneLocalConnection;
  audio?: PhoneLocalConnection;
  control?: PhoneLocalConnection;
}

/** Listens on the session's abstract socket until every enabled socket is connected; undefined when stopped first. */
async function acceptSockets(namespace: LocalSocketNamespace, options: ScrcpyOptions, signal: AbortSignal): Promise<Sockets | undefined> {
  const server = namespace.listen(socketName(options.scid));
  const sockets: Sockets = {};
  let dummyByteOwed = options.sendDummyByte;
  try {
    for (const kind of ['video', 'audio', 'control'] as const) {
      if (!options[kind]) continue;
      const socket = await server.accept(signal);
      sockets[kind] = socket;
      if (dummyByteOwed) {
        // One byte lets the client's first read() tell a live server from adb's forward with nothing behind it.
        await socket.write(Buffer.from([0]));
        dummyByteOwed = false;
      }
    }
    return sockets;
  } catch (error) {
    for (const socket of Object.values(sockets)) socket?.close();
    if (signal.aborted) return undefined;
    throw error;
  } finally {
    server.close();
  }
}

function whenAborted(signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal.aborted) resolve();
    else signal.addEventListener('abort', () => resolve(), { once: true });
  });
}

/** The device name in a 64-byte field, NUL padded, cut at a whole UTF-8 character. */
export function deviceMeta(name: string): Buffer {
  const field = Buffer.alloc(DEVICE_NAME_FIELD_LENGTH);
  let length = 0;
  for (const char of name) {
    const bytes = Buffer.from(char, 'utf8');
    if (length + bytes.length > DEVICE_NAME_FIELD_LENGTH - 1) break;
    length += bytes.copy(field, length);
  }
  return field;
}

async function readControl(socket: PhoneLocalConnection, controller: ScrcpyController, log: (level: string, message: string) => Promise<void>): Promise<void> {
  const parser = new ControlMessageParser();
  for (let chunk = await socket.read(); chunk !== undefined; chunk = await socket.read()) {
    let messages;
    try {
      messages = parser.push(chunk);
    } catch (error) {
      await log('ERROR', `Controller error: ${error instanceof Error ? error.message : String(error)}`);
      return;
    }
    for (const message of messages) await controller.apply(message);
  }
}
