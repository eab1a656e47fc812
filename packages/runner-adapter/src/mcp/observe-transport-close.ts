import type { Transport } from "@modelcontextprotocol/server";

/**
 * Follows when `transport` closes, whoever installs its `onclose` later (the serving entry, then the
 * server it connects). The SDK chains its own handlers through that one property, so the watch sits
 * in the property itself: every handler set later still runs, and then the connection counts as closed.
 */
export function observeTransportClose(transport: Transport): { closed: Promise<void> } {
  let markClosed!: () => void;
  const closed = new Promise<void>((resolve) => (markClosed = resolve));
  let handler = transport.onclose;
  Object.defineProperty(transport, "onclose", {
    configurable: true,
    enumerable: true,
    get: () => () => {
      try {
        handler?.();
      } finally {
        markClosed();
      }
    },
    set: (next: (() => void) | undefined) => {
      handler = next;
    },
  });
  return { closed };
}
