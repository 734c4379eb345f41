/**
 * Progress of a long command on stderr: a redrawn bar with rate and ETA on a terminal,
 * a plain line every few seconds otherwise (logs, CI, `nohup`), and a final summary.
 */
import { say } from './messages.js';

export interface ProgressSink {
  write(text: string): unknown;
  isTTY?: boolean;
  columns?: number;
}

const PLAIN_EVERY_MS = 5000;
const TTY_EVERY_MS = 100;

function duration(seconds: number): string {
  if (!Number.isFinite(seconds) || seconds < 0) return '--:--';
  const s = Math.round(seconds);
  const h = Math.floor(s / 3600);
  const mm = String(Math.floor((s % 3600) / 60)).padStart(2, '0');
  const ss = String(s % 60).padStart(2, '0');
  return h > 0 ? `${h}:${mm}:${ss}` : `${mm}:${ss}`;
}

const count = (n: number) => n.toLocaleString('en-US');

export class Progress {
  private readonly started = Date.now();
  private lastDraw = this.started;
  private drawn = false;

  /** `total` is in the same unit as `done` (bytes of the input file for an import). */
  constructor(
    private readonly sink: ProgressSink,
    private readonly label: string,
    private readonly total: number,
  ) {}

  /** `rows` processed so far, `done` of `total`. Cheap to call often: it draws at most every 100 ms. */
  update(rows: number, done: number, force = false): void {
    const now = Date.now();
    const tty = this.sink.isTTY === true;
    if (!force && now - this.lastDraw < (tty ? TTY_EVERY_MS : PLAIN_EVERY_MS))
      return;
    this.lastDraw = now;
    const elapsed = (now - this.started) / 1000;
    const rate = elapsed > 0 ? rows / elapsed : 0;
    const fraction = this.total > 0 ? Math.min(1, done / this.total) : 0;
    const eta = fraction > 0 ? (elapsed / fraction) * (1 - fraction) : NaN;
    const pct = `${(fraction * 100).toFixed(1)}%`;
    const stats = say('progressStats', {
      rows: count(rows),
      rate: count(Math.round(rate)),
      eta: duration(eta),
    });
    if (tty) {
      const width = Math.max(
        10,
        Math.min(
          40,
          (this.sink.columns ?? 80) - stats.length - this.label.length - 12,
        ),
      );
      const filled = Math.round(fraction * width);
      this.sink.write(
        `\r${this.label} [${'#'.repeat(filled)}${'.'.repeat(width - filled)}] ${pct.padStart(6)}  ${stats}\x1b[K`,
      );
      this.drawn = true;
    } else {
      this.sink.write(`${this.label}: ${pct} ${stats}\n`);
    }
  }

  /** Ends the bar's line so what follows starts on a fresh one. */
  finish(): void {
    if (this.drawn) this.sink.write('\n');
    this.drawn = false;
  }
}
