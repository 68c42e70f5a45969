import { runScrcpyServer, type ScrcpyHost } from '../scrcpy/server';
import { failure, output, type CommandHandler } from '../shell/interpreter';
import type { PhoneServices } from './context';
import { runYadb } from './yadb';

const SCRCPY_MAIN = 'com.genymobile.scrcpy.Server';
const YADB_MAIN = 'com.ysbing.yadb.Main';
/** The exit status of a process stopped by SIGTERM (128 + 15). */
const KILLED_STATUS = 143;

/** `app_process [-Djava.class.path=PATH] DIR [--option...] CLASS [args...]`: the VM options, then the class and its args. */
function parseCommandLine(args: readonly string[], env: ReadonlyMap<string, string>): { classPath: string | undefined; mainClass: string | undefined; classArgs: string[] } {
  let index = 0;
  let classPath = env.get('CLASSPATH');
  for (; index < args.length && args[index]!.startsWith('-'); index++) {
    const option = args[index]!;
    if (option.startsWith('-Djava.class.path=')) classPath = option.slice('-Djava.class.path='.length);
  }
  index++; // the parent directory
  while (index < args.length && args[index]!.startsWith('--')) index++;
  return { classPath, mainClass: args[index], classArgs: args.slice(index + 1) };
}

function classNotFound(mainClass: string, classPath: string | undefined): ReturnType<typeof failure> {
  const path = classPath ? `[zip file "${classPath}"]` : '[]';
  return failure(
    `Exception in thread "main" java.lang.ClassNotFoundException: Didn't find class "${mainClass}" on path: DexPathList[${path},nativeLibraryDirectories=[/system/lib64, /system_ext/lib64]]\n` +
      '\tat dalvik.system.BaseDexClassLoader.findClass(BaseDexClassLoader.java:259)\n',
    1,
  );
}

/**
 * `app_process` runs a Java main class from a pushed jar, as scrcpy and yadb are started. The class must come from
 * a file on the phone (CLASSPATH or -Djava.class.path); the run shows in `ps` as `app_process` until it ends.
 */
export function appProcessCommand(phone: PhoneServices, scrcpyHost: ScrcpyHost): CommandHandler {
  return async ({ args, env, signal, emit }) => {
    const { classPath, mainClass, classArgs } = parseCommandLine(args, env);
    if (mainClass === undefined) return failure('Error: no class name or --zygote supplied.\n', 1);
    const jarPresent = classPath !== undefined && classPath.split(':').some((path) => phone.fs.stat(path)?.isDirectory === false);
    if (!jarPresent || (mainClass !== SCRCPY_MAIN && mainClass !== YADB_MAIN)) return classNotFound(mainClass, classPath);
    const process = phone.helpers.start('app_process');
    const stopped = AbortSignal.any([signal, process.signal]);
    try {
      if (mainClass === SCRCPY_MAIN) {
        const status = await runScrcpyServer(scrcpyHost, classArgs, stopped, (line) => emit(line));
        return output('', '', process.signal.aborted ? KILLED_STATUS : status);
      }
      return await runYadb(phone, classArgs, stopped);
    } finally {
      process.exit();
    }
  };
}

/** `kill [-SIGNAL] PID...`: stops helpers the shell user started; other processes belong to other users. */
export function killCommand(phone: PhoneServices): CommandHandler {
  return ({ args }) => {
    const pids = args.filter((arg) => !arg.startsWith('-'));
    if (pids.length === 0) return failure('usage: kill [-s SIGNAL | -SIGNAL] PID...\n', 1);
    let stderr = '';
    for (const pid of pids) {
      if (phone.helpers.kill(Number(pid))) continue;
      stderr += /^\d+$/.test(pid) ? `kill: ${pid}: No such process\n` : `kill: ${pid}: bad pid\n`;
    }
    return output('', stderr, stderr === '' ? 0 : 1);
  };
}
