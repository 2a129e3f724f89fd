// A progress bar on a terminal (stderr), redrawn at most ten times a second; nothing otherwise.
import type { PassProgress } from './collect.js';

export class TerminalProgress implements PassProgress {
  private label = '';
  private passLabel = '';
  private lastDraw = 0;

  constructor(private readonly stream: NodeJS.WriteStream = process.stderr) {}

  start(label: string): void {
    this.label = label;
  }

  pass(number: number, of: number): void {
    this.passLabel = `pass ${number}/${of}`;
    this.lastDraw = 0;
    this.update(0, 1);
  }

  update(done: number, total: number): void {
    const now = Date.now();
    if (now - this.lastDraw < 100 && done < total) return;
    this.lastDraw = now;
    const fraction = total > 0 ? Math.min(1, done / total) : 0;
    const width = 30;
    const filled = Math.round(fraction * width);
    const bar = '#'.repeat(filled) + '-'.repeat(width - filled);
    const name = this.label.length > 40 ? `...${this.label.slice(-37)}` : this.label;
    this.stream.write(
      `\r[${bar}] ${String(Math.round(fraction * 100)).padStart(3)}%  ${this.passLabel}  ${name}\x1b[K`,
    );
  }

  finish(): void {
    this.stream.write('\r\x1b[K');
  }
}
