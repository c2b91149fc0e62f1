/**
 * A command's process tree: its descendants, whether they still run, and ending them all. A test
 * runner, a shell or `npm` starts processes of its own; CI cancels a job with SIGTERM to the process
 * it started, and whatever that process leaves running holds ports and files after the job.
 */
import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { settledWithin } from '../../simulator/src/core/settled-within.js';

interface ProcessEntry {
  pid: number;
  ppid: number;
  state: string;
  /** When it started (Linux: clock ticks since boot), so that a reused PID is not taken for it; '' unknown. */
  started: string;
}

/** One line of /proc/PID/stat; undefined when the process is gone. */
function procEntry(pid: number): ProcessEntry | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // The command name sits in parentheses and may hold spaces and parentheses itself.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return { pid, ppid: Number(fields[1]), state: fields[0] ?? '', started: fields[19] ?? '' };
  } catch {
    return undefined;
  }
}

/** Every process of the machine with its parent: /proc on Linux, else `ps`; empty when neither answers. */
function processTable(): ProcessEntry[] {
  let names: string[];
  try {
    names = readdirSync('/proc').filter((name) => /^\d+$/.test(name));
  } catch {
    const listed = spawnSync('ps', ['-A', '-o', 'pid=,ppid=,stat='], { encoding: 'utf8' });
    return (listed.stdout ?? '').split('\n').flatMap((line) => {
      const [pid, ppid, state = ''] = line.trim().split(/\s+/);
      return pid && ppid
        ? [{ pid: Number(pid), ppid: Number(ppid), state: state.slice(0, 1), started: '' }]
        : [];
    });
  }
  return names.flatMap((name) => procEntry(Number(name)) ?? []);
}

/** Every process below `root` (children, their children...), not `root` itself: PID -> start. */
export function descendantsOf(root: number): Map<number, string> {
  const children = new Map<number, ProcessEntry[]>();
  for (const entry of processTable()) children.set(entry.ppid, [...(children.get(entry.ppid) ?? []), entry]);
  const found = new Map<number, string>();
  const queue = [...(children.get(root) ?? [])];
  for (let entry = queue.shift(); entry !== undefined; entry = queue.shift()) {
    found.set(entry.pid, entry.started);
    queue.push(...(children.get(entry.pid) ?? []));
  }
  return found;
}

/** Whether the process runs and is the one that started then (a zombie, ended but not reaped, does not run). */
export function isRunning(pid: number, started = ''): boolean {
  try {
    process.kill(pid, 0);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EPERM') return false;
  }
  const entry = procEntry(pid);
  if (entry === undefined) return process.platform !== 'linux'; // no /proc: kill(0) is all there is
  return entry.state !== 'Z' && entry.state !== 'X' && (started === '' || entry.started === started);
}

function signalEach(pids: Iterable<number>, signal: NodeJS.Signals): void {
  for (const pid of pids) {
    try {
      process.kill(pid, signal);
    } catch {} // already gone
  }
}

const pause = (ms: number) => new Promise((done) => setTimeout(done, ms));

export interface EndTreeOptions {
  /** Resolves when `root` has exited. */
  rootExited: Promise<unknown>;
  /** `root` leads its own process group (spawned detached): the group is signalled too. */
  ownGroup: boolean;
  /** How long each stage waits for the tree to end before the next, harder one. */
  graceMs?: number;
}

/**
 * Ends `root` and every process below it: `signal` to each now (and to `root`'s process group when it
 * leads one); once `root` has exited (or after the grace), SIGTERM to what is left, re-parented
 * descendants included; after another grace, SIGKILL.
 */
export async function endProcessTree(
  root: number,
  signal: NodeJS.Signals,
  { rootExited, ownGroup, graceMs = 3000 }: EndTreeOptions,
): Promise<void> {
  const members = new Map([[root, procEntry(root)?.started ?? ''], ...descendantsOf(root)]);
  const group = ownGroup ? [-root] : [];
  const running = () => [...members].filter(([pid, started]) => isRunning(pid, started)).map(([pid]) => pid);
  signalEach([...group, ...running()], signal);
  await settledWithin(rootExited, graceMs);
  for (const stage of ['SIGTERM', 'SIGKILL'] as const) {
    for (const pid of running())
      for (const [below, started] of descendantsOf(pid)) members.set(below, started);
    if (running().length === 0) return;
    signalEach([...group, ...running()], stage);
    for (let waited = 0; waited < graceMs && running().length > 0; waited += 50) await pause(50);
  }
}
