/**
 * Bench child: the recording proxy (`ofkit record <upstream> --out <file>`'s library) in front of the
 * bench simulator, recording to a temporary HAR file, on 127.0.0.1 and an OS-chosen port. Beside it a
 * second listener answers `GET /idle` once every exchange so far is checked and recorded, so the runner
 * can let the checks catch up before it measures anything else. At the end it reports the CPU time it
 * used (both threads), once its checks caught up (at most 4 s: the runner stops a child after 5).
 * Run with `node --import tsx bench/proxy/recorder-server.ts --upstream URL --out FILE`.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { parseArgs } from 'node:util';
import { startRecorder } from '../../bridge/src/recording/recorder.js';
import { exitCleanly, reportLine, reportReady } from '../servers/child-protocol.js';

const { values } = parseArgs({ options: { upstream: { type: 'string' }, out: { type: 'string' } } });
if (values.upstream === undefined || values.out === undefined)
  throw new Error('--upstream and --out are required');
const recorder = await startRecorder({ upstream: values.upstream, harPath: values.out });
const idle = createServer((_request, response) => {
  void recorder.idle().then(() => response.end('idle'));
});
await new Promise<void>((resolve) => idle.listen(0, '127.0.0.1', resolve));
const start = process.cpuUsage();
exitCleanly(idle, async () => {
  const caughtUp = await Promise.race([recorder.idle().then(() => true), sleep(4_000).then(() => false)]);
  const { user, system } = process.cpuUsage(start);
  reportLine('CPU', { ms: (user + system) / 1000, caughtUp });
  if (caughtUp) await recorder.close();
});
reportReady({ url: recorder.url, idleUrl: `http://127.0.0.1:${(idle.address() as AddressInfo).port}/idle` });
