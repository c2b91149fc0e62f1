/**
 * golive's side of a recurrent link's life (a situation with `recurrent_life`): while the client runs, it
 * waits for the client to register a recurrent link (the simulator gives it its life script), then
 * moves the tenant's clock a day at a time, each time once the client has been quiet for a moment (no
 * delivery in flight, no API request nor delivery for `QUIET_MS`) so that it can answer what the day
 * brought, until every script has finished; then it creates the file the client was told of
 * (LIFE_ENDED_VARIABLE), the client's signal to finish and exit. It plays them as a user's test would, through the control API
 * (the lives read, the clock moved). The waits are golive's own on the machine's time: the API's days
 * are the virtual clock's.
 */
import { writeFileSync } from 'node:fs';
import type { SimulatorControl } from '../../../simulator/src/index.js';

/** The variable naming the file golive creates once the life script has ended. */
export const LIFE_ENDED_VARIABLE = 'OFKIT_LIFE_ENDED_FILE';

/**
 * How long nothing must have happened before the next day comes: time for the client to read what it
 * heard (a receiver that gathers a burst of events for half a second before reading still does).
 */
const QUIET_MS = 600;
/** The longest a day waits for the client to be quiet: a worker that polls the API still lives its days. */
const LONGEST_DAY_MS = 5000;
/** How often golive looks for the first life script while the client has none yet. */
const POLL_MS = 100;
const DAY_SECONDS = 86_400;

export interface LifePlayerOptions {
  /** The control API as the client's tenant (the situation's first key). */
  readonly control: SimulatorControl;
  /** Resolves once no delivery is in flight. */
  readonly deliveriesIdle: () => Promise<void>;
  /** When (performance.now()) the client's last API request or delivery attempt was. */
  readonly lastActivityAt: () => number;
  /** The file to create when the script has ended. */
  readonly endFile: string;
}

export interface LifePlayer {
  /** Stops playing (the client has ended); resolves to whether the script had been played to its end. */
  stop(): Promise<boolean>;
}

const pause = (ms: number) => new Promise<void>((wake) => setTimeout(wake, ms));

export function playRecurrentLives(options: LifePlayerOptions): LifePlayer {
  const { control, endFile } = options;
  let stopped = false;
  let ended = false;

  /**
   * Until the client has answered what came: its deliveries done and `QUIET_MS` without activity, or
   * `LONGEST_DAY_MS` gone by.
   */
  async function clientQuiet(): Promise<void> {
    const began = performance.now();
    for (;;) {
      await options.deliveriesIdle();
      const silent = performance.now() - options.lastActivityAt();
      if (stopped || silent >= QUIET_MS || performance.now() - began >= LONGEST_DAY_MS) return;
      await pause(Math.min(QUIET_MS - silent, 100));
    }
  }

  async function play(): Promise<void> {
    while (!stopped) {
      if ((await control.recurrentLives()).length === 0) {
        await pause(POLL_MS);
        continue;
      }
      await clientQuiet();
      if (stopped) return;
      // Read again after the quiet: the client may have moved the clock itself, or reset the tenant.
      const lives = await control.recurrentLives();
      if (lives.length === 0) continue;
      if (lives.every((life) => life.finished)) {
        writeFileSync(endFile, `${lives.map((life) => life.link).join('\n')}\n`);
        ended = true;
        return;
      }
      await control.advanceClock(DAY_SECONDS);
    }
  }

  let failure: unknown;
  const playing = play().catch((error: unknown) => {
    failure = error;
  });
  return {
    async stop() {
      stopped = true;
      await playing;
      if (failure !== undefined) throw failure;
      return ended;
    },
  };
}
