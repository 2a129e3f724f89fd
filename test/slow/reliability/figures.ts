// The figures a reliability battery measures. Each battery runs at CI size in `npm test` and at
// full size in `npm run check:reliability` (RELIABILITY_SIZE=full), records what it measured here,
// and asserts each figure against its limit itself. check:reliability collects the records
// (RELIABILITY_REPORT names a JSON-lines file) and prints them as one table.
import { appendFileSync } from 'node:fs';
import { TEST_DIALECT } from '../../support/databases.js';

export const FULL_SIZE = process.env.RELIABILITY_SIZE === 'full';

/** How many rounds a battery runs: `ci` in `npm test`, `full` in check:reliability. */
export function batterySize(ci: number, full: number): number {
  return FULL_SIZE ? full : ci;
}

export interface Figure {
  /** e.g. "crash", "fuzz REST" */
  battery: string;
  /** what was run, e.g. "200 kills" or "1,000 requests per route" */
  size: string;
  /** e.g. "acknowledged writes lost" */
  figure: string;
  value: number;
  /** the worst acceptable value; a figure passes when value <= limit (or >= limit with atLeast) */
  limit: number;
  atLeast?: boolean;
}

export interface FigureRecord extends Figure {
  database: string;
  pass: boolean;
}

/** Records a figure (printed, and written to the report when one is being collected); returns whether it passes. */
export function recordFigure(figure: Figure): boolean {
  const pass = figure.atLeast ? figure.value >= figure.limit : figure.value <= figure.limit;
  const record: FigureRecord = { ...figure, database: TEST_DIALECT, pass };
  const report = process.env.RELIABILITY_REPORT;
  if (report) appendFileSync(report, `${JSON.stringify(record)}\n`);
  else
    console.log(
      `[${record.database}] ${figure.battery} (${figure.size}): ${figure.figure} = ${figure.value} (limit ${figure.atLeast ? '>=' : '<='} ${figure.limit})`,
    );
  return pass;
}
