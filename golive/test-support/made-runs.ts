/**
 * Situation runs made by hand for the verdicts' and the bundle's tests: a small catalogue (two items,
 * three situations) and runs whose verdicts, conditions and exit codes a test chooses.
 */
import type { Catalogue, Situation } from '../src/catalogue/catalogue-types.js';
import type { SituationRun } from '../src/run/run-situation.js';

const CONFIG = {
  environment: 'production',
  faults: [],
  scenarios: [],
  webhooks: { duplicates: false, forged: false },
  clock: [],
} as const;

function situation(id: string, bearsOn: string[]): Situation {
  return {
    id,
    title: `the ${id} situation`,
    description: `what ${id} arms`,
    simulator: { ...CONFIG, seed: `golive-${id}` },
    bears_on: bearsOn,
    met_when: [{ exercised: 'CLIENT-RETRY-5XX' }],
    client_must: `handle ${id}`,
    to_meet: `provoke ${id} by doing this`,
  };
}

export const MADE_CATALOGUE: Catalogue = {
  situations: [
    situation('failing', ['RETRY']),
    situation('quiet', ['RETRY', 'PAGES']),
    situation('pages', []),
  ],
  items: [
    {
      id: 'RETRY',
      title: 'Retries',
      asks: 'retry right',
      rules: ['CLIENT-RETRY-5XX', 'CLIENT-NO-RETRY-4XX'],
      situations: ['failing'],
    },
    {
      id: 'PAGES',
      title: 'Pages',
      asks: 'read every page',
      rules: ['CLIENT-PAGINATION-NEXT'],
      situations: ['pages'],
    },
  ],
};

export type Verdicts = Readonly<Record<string, 'followed' | 'warning' | 'violated' | 'not_exercised'>>;

/** A run of `id`: every rule of `verdicts` judged so, met or not, with the command's exit code. */
export function madeRun(id: string, verdicts: Verdicts, met = true, exitCode = 0): SituationRun {
  const found = MADE_CATALOGUE.situations.find((entry) => entry.id === id) as Situation;
  return {
    situation: id,
    title: found.title,
    simulator: found.simulator,
    exitCode,
    durationMs: 10,
    requests: 3,
    deliveries: 0,
    met,
    conditions: [{ condition: 'the client judge exercised CLIENT-RETRY-5XX', holds: met }],
    evidence: {
      verdicts: Object.entries(verdicts).map(([rule, verdict]) => ({
        rule: rule as never,
        title: rule,
        section: '§',
        verdict,
        summary: `${rule} ${verdict}`,
        evidence:
          verdict === 'violated' || verdict === 'warning'
            ? [`curl -u $OFKIT_KEY:$OFKIT_SECRET 'http://127.0.0.1/api/links/' # ${rule}`]
            : [],
      })),
      matchedLines: [],
      outputTail: exitCode === 0 ? [] : ['Error: <boom> & "quoted"'],
      deliveries: [],
    },
  };
}

/** Every rule of the made catalogue followed, every situation met, every command exit 0. */
export const GOOD: Verdicts = {
  'CLIENT-RETRY-5XX': 'followed',
  'CLIENT-NO-RETRY-4XX': 'followed',
  'CLIENT-PAGINATION-NEXT': 'followed',
};
export const goodRuns = (): SituationRun[] => ['failing', 'quiet', 'pages'].map((id) => madeRun(id, GOOD));
