import { write, writeSync } from 'node:fs';

const CHUNK_BYTES = 64 * 1024;
/** How long a line may wait for others to share its write(2); a full chunk goes at once. */
const FLUSH_AFTER_MS = 25;
/** Above this much unwritten output (a reader that stopped reading) new lines are dropped. */
const MAX_PENDING_BYTES = 32 * 1024 * 1024;
const RETRY_MS = 10;

/**
 * Log lines to a file descriptor, written asynchronously in batches. Lines are encoded into
 * reused fixed buffers as they come; a buffer is written when it is full or 25 ms after its
 * first line. sonic-boom, pino's own destination, measures the byte length of its whole pending
 * string on every line and hands a write to the thread pool about every event-loop turn: under
 * load the request line cost 4–5 µs of CPU, a fifth of a `me` request. Nothing blocks the event
 * loop; what is still unwritten when the process exits is written synchronously then.
 */
export class BatchedLineWriter {
  private current: Buffer = Buffer.allocUnsafeSlow(CHUNK_BYTES);
  private used = 0;
  private readonly sealed: Buffer[] = [];
  private readonly spare: Buffer[] = [];
  private pendingBytes = 0;
  private writing = false;
  private scheduled = false;
  private dropped = 0;

  constructor(private readonly fd: number) {}

  write(line: string): boolean {
    // A UTF-8 character takes at most 3 bytes per UTF-16 unit: the exact length is only
    // worked out when the cheap bound does not fit.
    if (this.used + line.length * 3 > this.current.length) {
      const bytes = Buffer.byteLength(line);
      if (this.pendingBytes + this.used + bytes > MAX_PENDING_BYTES) {
        this.dropped += 1;
        return false;
      }
      if (this.used + bytes > this.current.length) {
        this.seal();
        if (bytes > this.current.length) this.current = Buffer.allocUnsafeSlow(bytes);
        if (!this.writing) this.pump();
      }
    }
    this.used += this.current.write(line, this.used);
    if (!this.scheduled) {
      this.scheduled = true;
      setTimeout(() => {
        this.scheduled = false;
        this.seal();
        this.pump();
      }, FLUSH_AFTER_MS).unref();
    }
    return true;
  }

  /** Writes everything not yet handed to the kernel, now; for process exit and fatal lines. */
  flushSync(): void {
    this.noteDropped();
    this.seal();
    for (let chunk = this.sealed.shift(); chunk !== undefined; chunk = this.sealed.shift()) {
      this.pendingBytes -= chunk.length;
      let tries = 0;
      while (chunk.length > 0) {
        try {
          chunk = chunk.subarray(writeSync(this.fd, chunk));
        } catch (err) {
          // A non-blocking pipe that is full: wait briefly for the reader, but never forever.
          if ((err as NodeJS.ErrnoException).code !== 'EAGAIN' || ++tries > 100) break;
          Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, RETRY_MS);
        }
      }
    }
  }

  private seal(): void {
    if (this.used === 0) return;
    this.sealed.push(this.current.subarray(0, this.used));
    this.pendingBytes += this.used;
    this.current = this.spare.pop() ?? Buffer.allocUnsafeSlow(CHUNK_BYTES);
    this.used = 0;
  }

  /** Writes the sealed buffers one after another; the one being filled waits its turn. */
  private pump(): void {
    if (this.writing) return;
    this.noteDropped();
    const chunk = this.sealed.shift();
    if (chunk === undefined) return;
    this.writing = true;
    write(this.fd, chunk, 0, chunk.length, null, (err, written) => {
      if (err && err.code === 'EAGAIN') {
        this.sealed.unshift(chunk);
        setTimeout(() => this.resume(), RETRY_MS);
        return;
      }
      // Any other failure (the reader went away) loses this chunk rather than the process.
      this.pendingBytes -= chunk.length;
      if (!err && written < chunk.length) {
        this.sealed.unshift(chunk.subarray(written));
        this.pendingBytes += chunk.length - written;
      } else {
        this.recycle(chunk);
      }
      this.resume();
    });
  }

  /** A written standard-size buffer is used again, so steady logging allocates nothing. */
  private recycle(chunk: Buffer): void {
    if (chunk.buffer.byteLength === CHUNK_BYTES && chunk.byteOffset === 0 && this.spare.length < 4) {
      this.spare.push(Buffer.from(chunk.buffer, 0, CHUNK_BYTES));
    }
  }

  private resume(): void {
    this.writing = false;
    this.pump();
  }

  /** Lines dropped while the reader was stuck are owned up to in the output itself. */
  private noteDropped(): void {
    if (this.dropped === 0) return;
    const line = `{"level":40,"time":${Date.now()},"pid":${process.pid},"msg":"log lines dropped: output was not being read","dropped":${this.dropped}}\n`;
    this.dropped = 0;
    this.write(line);
  }
}

let stdoutWriter: BatchedLineWriter | undefined;

/** The process's one writer for standard output, flushed when the process exits. */
export function stdoutLines(): BatchedLineWriter {
  if (stdoutWriter === undefined) {
    const writer = new BatchedLineWriter(1);
    process.on('exit', () => writer.flushSync());
    stdoutWriter = writer;
  }
  return stdoutWriter;
}
