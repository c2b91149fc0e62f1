/**
 * In-process V8 CPU profiling for a bench child: started once the server is ready, so the profile
 * holds the load only, not start-up and seeding (which `node --cpu-prof` would record too).
 */
import { writeFile } from 'node:fs/promises';
import { Session } from 'node:inspector';

function post(session: Session, method: string, params: object = {}): Promise<unknown> {
  return new Promise((resolve, reject) => {
    session.post(method, params, (error, result) => (error ? reject(error) : resolve(result)));
  });
}

/** Starts sampling every `intervalUs`; the returned function stops and writes the `.cpuprofile`. */
export async function startCpuProfile(file: string, intervalUs = 250): Promise<() => Promise<void>> {
  const session = new Session();
  session.connect();
  await post(session, 'Profiler.enable');
  await post(session, 'Profiler.setSamplingInterval', { interval: intervalUs });
  await post(session, 'Profiler.start');
  return async () => {
    const { profile } = (await post(session, 'Profiler.stop')) as { profile: object };
    await writeFile(file, JSON.stringify(profile));
    session.disconnect();
  };
}
