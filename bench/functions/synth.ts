/**
 * A child process of bench/functions/builds.ts: synthesizes the stack with bundling for some routes
 * (BENCH_SYNTH: `{"routes": [names], "outdir": path}`) and sends back their bundles over IPC.
 */
import { routesFor } from '../../functions/routes';
import { synthesizeBundles } from './builds';

const { routes, outdir } = JSON.parse(process.env['BENCH_SYNTH'] ?? '{}') as { routes: string[]; outdir: string };
const bundles = synthesizeBundles(
  routesFor(true).filter((route) => routes.includes(route.name)),
  outdir,
);
process.send?.([...bundles], () => process.disconnect());
