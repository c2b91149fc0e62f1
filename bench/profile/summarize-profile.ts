/**
 * Reads a V8 `.cpuprofile` and says where the time went: self time by group (a file of the repository,
 * a package, a node internal, GC, idle) and inclusive time by repository file and package, so a stage
 * of the pipeline shows with everything it calls.
 */

interface CallFrame {
  functionName: string;
  url: string;
  lineNumber: number;
}

interface ProfileNode {
  id: number;
  callFrame: CallFrame;
  children?: number[];
}

export interface CpuProfile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

export interface TimeShare {
  name: string;
  ms: number;
  /** Share of all sampled time, 0..1. */
  share: number;
}

export interface ProfileSummary {
  sampledMs: number;
  samples: number;
  /** Self time by group, largest first. */
  self: TimeShare[];
  /** Time with the group anywhere on the stack (repository files and packages), largest first. */
  inclusive: TimeShare[];
  /** Self time by function, largest first. */
  functions: TimeShare[];
}

const SPECIAL = new Set(['(idle)', '(program)', '(garbage collector)', '(root)']);
const PROFILER = 'bench/profile/';

/** `simulator/src/pipeline/validate.ts`, `pkg @stoplight/prism-http`, `node:_http_server`, `(native) stringify`. */
export function groupOf(frame: CallFrame, repoRoot: string): string {
  if (SPECIAL.has(frame.functionName)) return frame.functionName;
  const url = decodeURIComponent(frame.url.replace(/^file:\/\//, ''));
  if (url === '') return `(native) ${frame.functionName || '(anonymous)'}`;
  const modules = url.lastIndexOf('node_modules/');
  if (modules >= 0) {
    const [first = '', second = ''] = url.slice(modules + 'node_modules/'.length).split('/');
    return `pkg ${first.startsWith('@') ? `${first}/${second}` : first}`;
  }
  if (url.startsWith('node:')) return url;
  return url.startsWith(`${repoRoot}/`) ? url.slice(repoRoot.length + 1) : url;
}

/** Whether a group is worth an inclusive figure (own code and packages, not node internals). */
const isInclusiveGroup = (group: string) =>
  group.startsWith('pkg ') || group.startsWith('simulator/') || group.startsWith('openapi/');

/** `name group:line`; tsx-compiled code reports line 0 for every function, so no line then. */
function functionLabel(frame: CallFrame, group: string): string {
  const line = frame.lineNumber > 0 ? `:${frame.lineNumber + 1}` : '';
  return `${frame.functionName || '(anonymous)'} ${group}${line}`;
}

function parentsOf(nodes: readonly ProfileNode[]): Map<number, number> {
  const parents = new Map<number, number>();
  for (const node of nodes) for (const child of node.children ?? []) parents.set(child, node.id);
  return parents;
}

function add(totals: Map<string, number>, key: string, ms: number): void {
  totals.set(key, (totals.get(key) ?? 0) + ms);
}

function ranked(totals: Map<string, number>, sampledMs: number, limit: number): TimeShare[] {
  return [...totals]
    .map(([name, ms]) => ({ name, ms, share: sampledMs > 0 ? ms / sampledMs : 0 }))
    .sort((a, b) => b.ms - a.ms)
    .slice(0, limit);
}

export function summarizeProfile(profile: CpuProfile, repoRoot: string, limit = 15): ProfileSummary {
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const parents = parentsOf(profile.nodes);
  const self = new Map<string, number>();
  const inclusive = new Map<string, number>();
  const functions = new Map<string, number>();
  let sampledMs = 0;
  profile.samples.forEach((id, i) => {
    // timeDeltas[i] is the time elapsed before sample i; it is charged to that sample.
    const ms = (profile.timeDeltas[i] ?? 0) / 1000;
    const leaf = byId.get(id);
    if (leaf === undefined) return;
    const stack: string[] = [];
    for (let node: ProfileNode | undefined = leaf; node; node = byId.get(parents.get(node.id) ?? -1)) {
      stack.push(groupOf(node.callFrame, repoRoot));
    }
    // The profiler's own work (Profiler.stop serializing the profile) is not the server's.
    if (stack.some((group) => group.startsWith(PROFILER))) return;
    sampledMs += ms;
    add(self, stack[0] ?? '?', ms);
    add(functions, functionLabel(leaf.callFrame, stack[0] ?? '?'), ms);
    for (const name of new Set(stack.filter(isInclusiveGroup))) add(inclusive, name, ms);
  });
  return {
    sampledMs,
    samples: profile.samples.length,
    self: ranked(self, sampledMs, limit),
    inclusive: ranked(inclusive, sampledMs, limit),
    functions: ranked(functions, sampledMs, limit),
  };
}
