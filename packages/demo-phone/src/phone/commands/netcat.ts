import { ConnectionRefused, type LoopbackNetwork } from '../loopback';
import { failure, output, type CommandHandler } from '../shell/interpreter';

const LOCAL_HOSTS = new Set(['localhost', '127.0.0.1', '::1', 'ip6-localhost']);

/**
 * toybox `nc HOST PORT` on the phone's loopback: sends stdin, then prints what comes back until the other
 * side closes (or the command is stopped). Other hosts are unreachable: the phone has no outside network.
 */
export function netcatCommand(network: LoopbackNetwork): CommandHandler {
  return async ({ args, stdin, signal, emit }) => {
    const operands: string[] = [];
    for (let index = 0; index < args.length; index++) {
      const arg = args[index] as string;
      if (arg === '-q' || arg === '-w' || arg === '-W') index++;
      else if (!arg.startsWith('-')) operands.push(arg);
    }
    const [host, portText] = operands;
    const port = Number(portText);
    if (host === undefined || !Number.isInteger(port) || port <= 0 || port > 65535) {
      return failure('usage: nc [-46Ltlu] [-pqWw #] [-s addr] {IPADDR PORTNUM|-f FILENAME|COMMAND...}\n', 1);
    }
    if (!LOCAL_HOSTS.has(host)) return failure(`nc: connect: Network is unreachable\n`, 1);
    let socket;
    try {
      socket = await network.connect(port);
    } catch (error) {
      if (error instanceof ConnectionRefused) return failure('nc: connect: Connection refused\n', 1);
      throw error;
    }
    const stop = (): void => socket.close();
    signal.addEventListener('abort', stop, { once: true });
    try {
      const sending = (async () => {
        for await (const chunk of stdin.chunks()) await socket.write(chunk);
      })();
      for (let chunk = await socket.read(); chunk !== undefined; chunk = await socket.read()) await emit(chunk);
      socket.close();
      await sending;
      signal.throwIfAborted();
      return output();
    } finally {
      signal.removeEventListener('abort', stop);
    }
  };
}
