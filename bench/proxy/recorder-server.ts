/**
 * Bench child: the recording proxy (`ofkit record <upstream> --out <file>`'s library) in front of the
 * bench simulator, recording to a temporary HAR file, on 127.0.0.1 and an OS-chosen port. At the end it
 * reports the CPU time it used (both threads), once its checks caught up (at most 4 s: the runner stops a child after 5).
 * Run with `node --import tsx bench/proxy/recorder-server.ts --upstream URL --out FILE`.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { parseArgs } from 'node:util';
import { startRecorder } from '../../bridge/src/recording/recorder.js';
import { exitCleanly, reportLine, reportReady } from '../servers/child-protocol.js';

const { values } = parseArgs({ options: { upstream: { type: 'string' }, out: { type: 'string' } } });
if (values.upstream === undefined || values.out === undefined)
  throw new Error('--upstream and --out are required');
const recorder = await startRecorder({ upstream: values.upstream, harPath: values.out });
const start = process.cpuUsage();
exitCleanly({ close: async () => undefined }, async () => {
  const caughtUp = await Promise.race([recorder.idle().then(() => true), sleep(4_000).then(() => false)]);
  const { user, system } = process.cpuUsage(start);
  reportLine('CPU', { ms: (user + system) / 1000, caughtUp });
  if (caughtUp) await recorder.close();
});
reportReady({ url: recorder.url });
