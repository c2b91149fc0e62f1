// Bench child (plain JavaScript, no tsx, as a user's test set-up file runs it): imports `ofkit/simulator`
// from the build (dist/), then times startSimulator() and the first answer; prints one JSON line.
import { request } from 'node:http';

const processToImportMs = performance.now();
const { startSimulator } = await import('../../dist/simulator/src/index.js');
const importedMs = performance.now();
const simulator = await startSimulator();
const startedMs = performance.now();
const authorization = `Basic ${Buffer.from('ofkit-key-a:ofkit-secret-a').toString('base64')}`;
const status = await new Promise((done, fail) => {
  const req = request(`${simulator.url}/api/`, { headers: { authorization } }, (response) => {
    response.resume();
    response.on('end', () => done(response.statusCode));
  });
  req.on('error', fail);
  req.end();
});
const answeredMs = performance.now();
await simulator.close();
console.log(
  JSON.stringify({
    status,
    processToImportMs,
    importMs: importedMs - processToImportMs,
    startSimulatorMs: startedMs - importedMs,
    firstAnswerMs: answeredMs - startedMs,
  }),
);
