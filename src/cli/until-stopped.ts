/** Resolves when the process is asked to stop (Ctrl-C, SIGTERM), or when `ended` settles first. */
export function untilStopped(ended?: Promise<unknown>): Promise<void> {
  return new Promise((resolve) => {
    const stop = () => {
      process.off('SIGINT', stop);
      process.off('SIGTERM', stop);
      resolve();
    };
    process.on('SIGINT', stop);
    process.on('SIGTERM', stop);
    void ended?.finally(stop);
  });
}
