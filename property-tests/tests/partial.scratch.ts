import { check } from '../../scripts/cli/check.js';
import { startPartialServer } from './partial-server.js';
import { startSimulatorTarget } from './simulator-target.js';
const sim = await startSimulatorTarget();
const partial = await startPartialServer(sim.baseUrl, { id: 'ofkit-key-a', secret: 'ofkit-secret-a' }, [
  ['GET', '/api/'], ['GET', '/api/institutions/'], ['GET', '/api/institutions/{id}/'],
]);
const started = performance.now();
const code = await check([partial.baseUrl, '--keys', 'ofkit-key-a:ofkit-secret-a', '--seed', '3', '--runs', '2', '--strict', '--min-coverage', 'operations=100', '--report', 'junit:/tmp/vd/partial.xml', ...process.argv.slice(2)]);
console.log('exit', code, Math.round(performance.now() - started), 'ms');
await partial.stop(); await sim.stop();
