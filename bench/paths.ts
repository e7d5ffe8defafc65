import path from 'node:path';

/** dist/, where the build puts the service and this tool (dist/bench/). */
export const DIST = path.resolve(__dirname, '..');
/** The service of this build. */
export const BUILT_SERVICE = path.join(DIST, 'src', 'main.js');
/** BENCH_SERVICE_MAIN measures another build of the service, e.g. an older commit's dist/src/main.js. */
export const SERVICE = process.env.BENCH_SERVICE_MAIN ? path.resolve(process.env.BENCH_SERVICE_MAIN) : BUILT_SERVICE;
/** The floors, built beside this tool: raw node:http, and bare Express 5 with the same store and SQL (bench/baseline/). */
export const RAW_FLOOR_MAIN = path.join(__dirname, 'baseline', 'server.js');
export const EXPRESS_FLOOR_MAIN = path.join(__dirname, 'baseline', 'express-floor.js');
/** bench/results/ of the source tree (ignored by git), where the figures go. */
export const RESULTS = path.resolve(DIST, '..', 'bench', 'results');
