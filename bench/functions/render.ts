/**
 * `npm run bench:report`: docs/benchmarks.md written again from the last run's figures
 * (docs/benchmarks.json) and bench/functions/notes.md, without measuring anything: after editing the
 * notes or the report's layout.
 */
import { readFileSync } from 'node:fs';
import { routesFor } from '../../functions/routes';
import type { FunctionsReport } from '../functions';
import { BENCHMARKS_JSON, writeBenchmarksMarkdown } from './report';

const report = JSON.parse(readFileSync(BENCHMARKS_JSON, 'utf8')) as FunctionsReport;
const measured = new Set(report.functions.map((f) => f.name));
writeBenchmarksMarkdown(
  report,
  routesFor(true).filter((route) => measured.has(route.name)),
);
console.log('Wrote docs/benchmarks.md from docs/benchmarks.json and bench/functions/notes.md');
