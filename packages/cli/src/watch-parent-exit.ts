/**
 * Call `onExit` once the process that started this one has exited. Its child is then adopted by
 * another process, so the parent id this process sees changes; that is polled every `intervalMs`
 * (the same check language servers make on the client's `processId`). The timer does not keep the
 * process alive.
 *
 * @returns a function that stops watching.
 */
export function watchParentExit(onExit: () => void, intervalMs = 200): () => void {
  const parent = process.ppid;
  const timer = setInterval(() => {
    if (process.ppid === parent) return;
    clearInterval(timer);
    onExit();
  }, intervalMs);
  timer.unref();
  return () => clearInterval(timer);
}
