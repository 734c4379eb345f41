import { Writable } from 'node:stream';

/** Keeps everything a logger writes, for tests that read the service's log. */
export class LogSink {
  private readonly chunks: string[] = [];
  /** The destination to give the logger. */
  readonly stream = new Writable({
    write: (chunk, _encoding, done) => {
      this.chunks.push(String(chunk));
      done();
    },
  });

  /** Everything written so far, as written. */
  text(): string {
    return this.chunks.join('');
  }

  /** Each line written so far, parsed (the logger must write JSON lines, the default format). */
  entries(): Array<Record<string, unknown>> {
    return this.text()
      .split('\n')
      .filter(Boolean)
      .map((line) => JSON.parse(line) as Record<string, unknown>);
  }
}
