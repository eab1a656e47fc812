/** What a JSON-RPC message's top level says about it, read without keeping the message. */
export interface EnvelopeFields {
  /** The top-level `id` when it is a number, a string or null (`undefined`: none, or another type). */
  id?: string | number | null;
  /** The top-level `method` when it is a string. */
  method?: string;
}

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COLON = 0x3a;
const COMMA = 0x2c;
const OPEN_OBJECT = 0x7b;
const CLOSE_OBJECT = 0x7d;
const OPEN_ARRAY = 0x5b;
const CLOSE_ARRAY = 0x5d;
/** An id or method longer than this is not kept (a real one is a few bytes). */
const MAX_CAPTURED_BYTES = 1_024;

function isWhitespace(byte: number): boolean {
  return byte === 0x20 || byte === 0x09 || byte === 0x0a || byte === 0x0d;
}

function parseOrUndefined(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

/**
 * Reads the top-level `id` and `method` of one JSON object fed in pieces, byte by byte, keeping only
 * those few bytes: a message too large to hold can still be answered under its own id. Only the
 * top level counts (an `id` inside `params` is not the message's), and JSON's structural characters
 * are all ASCII, so scanning UTF-8 bytes never mistakes part of a multi-byte character for one.
 */
export class EnvelopeScanner {
  private depth = 0;
  private topIsObject = false;
  private inString = false;
  private escaped = false;
  /** What comes next at the top level of the object. */
  private expecting: "key" | "colon" | "value" | "comma" = "key";
  private key: string | undefined;
  /** The bytes of the top-level key or scalar value being read, or undefined when none is. */
  private captured: number[] | undefined;
  private capturing: "key" | "string" | "scalar" | undefined;
  private overflowed = false;
  private readonly found: EnvelopeFields = {};

  /** Feed the next bytes of the message. */
  feed(bytes: Uint8Array): void {
    for (const byte of bytes) this.step(byte);
  }

  /** The fields met so far (complete once the whole message was fed). */
  fields(): EnvelopeFields {
    // A number id at the very end of the message has no delimiter after it yet.
    if (this.capturing === "scalar") this.finishCapture();
    return { ...this.found };
  }

  private step(byte: number): void {
    if (this.inString) {
      if (this.escaped) {
        this.escaped = false;
      } else if (byte === BACKSLASH) {
        this.escaped = true;
      } else if (byte === QUOTE) {
        this.inString = false;
        if (this.capturing !== undefined) this.finishCapture();
        return;
      }
      this.keep(byte);
      return;
    }
    if (this.capturing === "scalar") {
      if (byte !== COMMA && byte !== CLOSE_OBJECT && byte !== CLOSE_ARRAY && !isWhitespace(byte))
        return this.keep(byte);
      this.finishCapture();
    }
    if (isWhitespace(byte)) return;
    const atTop = this.topIsObject && this.depth === 1;
    switch (byte) {
      case QUOTE:
        this.inString = true;
        if (atTop && this.expecting === "key") this.startCapture("key");
        else if (atTop && this.expecting === "value") this.startCapture("string");
        return;
      case OPEN_OBJECT:
      case OPEN_ARRAY:
        if (this.depth === 0) this.topIsObject = byte === OPEN_OBJECT;
        this.depth += 1;
        return;
      case CLOSE_OBJECT:
      case CLOSE_ARRAY:
        this.depth -= 1;
        if (this.topIsObject && this.depth === 1) this.expecting = "comma";
        return;
      case COLON:
        if (atTop) this.expecting = "value";
        return;
      case COMMA:
        if (atTop) this.expecting = "key";
        return;
      default:
        if (atTop && this.expecting === "value") {
          this.startCapture("scalar");
          this.keep(byte);
        }
    }
  }

  private startCapture(kind: "key" | "string" | "scalar"): void {
    this.capturing = kind;
    this.captured = [];
    this.overflowed = false;
  }

  private keep(byte: number): void {
    if (this.captured === undefined) return;
    if (this.captured.length < MAX_CAPTURED_BYTES) this.captured.push(byte);
    else this.overflowed = true;
  }

  private finishCapture(): void {
    const kind = this.capturing;
    const raw = this.overflowed ? undefined : Buffer.from(this.captured ?? []).toString("utf8");
    this.capturing = undefined;
    this.captured = undefined;
    if (kind === "key") {
      this.key = raw === undefined ? undefined : (parseOrUndefined(`"${raw}"`) as string | undefined);
      this.expecting = "colon";
      return;
    }
    this.expecting = "comma";
    if (raw === undefined) return;
    const value = parseOrUndefined(kind === "string" ? `"${raw}"` : raw);
    if (this.key === "id" && (typeof value === "string" || typeof value === "number" || value === null))
      this.found.id = value;
    if (this.key === "method" && typeof value === "string") this.found.method = value;
  }
}
