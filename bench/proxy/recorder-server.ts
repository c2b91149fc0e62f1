/**
 * Bench child: the recording proxy (`ofkit record <upstream> --out <file>`'s library) in front of the
 * bench simulator, recording to a temporary HAR file, on 127.0.0.1 and an OS-chosen port.
 * Run with `node --import tsx bench/proxy/recorder-server.ts --upstream URL --out FILE`.
 */
import { parseArgs } from 'node:util';
import { startRecorder } from '../../bridge/src/recording/recorder.js';
import { exitCleanly, reportReady } from '../servers/child-protocol.js';

const { values } = parseArgs({ options: { upstream: { type: 'string' }, out: { type: 'string' } } });
if (values.upstream === undefined || values.out === undefined)
  throw new Error('--upstream and --out are required');
const recorder = await startRecorder({ upstream: values.upstream, harPath: values.out });
// The recording is finished (the worker's backlog written) before the child exits.
exitCleanly({ close: async () => undefined }, async () => void (await recorder.close()));
reportReady({ url: recorder.url });
