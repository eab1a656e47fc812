/**
 * A cell's error stack without the kernel's own frames: what the cell's code called stays, the
 * kernel's dispatch below the cell and its helpers (`tool()`) above it go.
 */
export function stripKernelFrames(stack: string): string {
  // The kernel's program runs from `node --eval`, so V8 names its frames `[eval]`; a cell reaches V8
  // through the inspector session's post(), and every frame from there outwards is the kernel
  // dispatching the cell.
  const kernelFrame = /^\s+at .*(\[eval\]|\(node:inspector:)/;
  const dispatchFrame = /^\s+at Session\.post \(node:inspector:/;
  const kept: string[] = [];
  for (const line of stack.split("\n")) {
    if (dispatchFrame.test(line)) break;
    if (!kernelFrame.test(line)) kept.push(line);
  }
  return kept.join("\n");
}
