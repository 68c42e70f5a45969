import { shellLine } from './shell-line';

/** A Java program pushed to the phone (a helper's jar or dex) and the class that starts it. */
export interface PushedProgram {
  /** The file on the phone. */
  classPath: string;
  mainClass: string;
}

/** `app_process`, which runs a pushed helper program (yadb, scrcpy-server) with the shell's rights. */
export const appProcess = {
  /** `dir` is the program's working folder; `args` follow the main class as given. */
  run: (program: PushedProgram, dir: string, args: readonly (string | number)[]) =>
    shellLine(['app_process', `-Djava.class.path=${program.classPath}`, dir, program.mainClass, ...args]),
  /** The same through the CLASSPATH variable, the way scrcpy-server is started by scrcpy itself. */
  runWithClassPathVariable: (program: PushedProgram, dir: string, args: readonly (string | number)[]) =>
    shellLine([`CLASSPATH=${program.classPath}`, 'app_process', dir, program.mainClass, ...args]),
};
