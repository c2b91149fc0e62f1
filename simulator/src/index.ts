/**
 * `ofkit/simulator`: the simulator in process, on a socket (`startSimulator`) or without one
 * (`createSimulator`), or `ofkit exec`'s, attached to (`connectSimulator`, `startSimulator({ attach: true })`).
 */

export { DEFAULT_KEYS } from './config/simulator-config.js';
export type { JudgeOptions, SimulatorHandle } from './connect-simulator.js';
export { connectSimulator, execEnvironment, SimulatorAttachError } from './connect-simulator.js';
export type { SimRequest, SimResponse } from './core/http-types.js';
export type { ApiKey, Environment } from './core/keys.js';
export type { ClockStep, StandingSituation } from './core/standing-situation.js';
export type { Simulator, SimulatorOptions } from './simulator.js';
export { createSimulator } from './simulator.js';
export type {
  ClientJudgeReport,
  LoggedEventRecord,
  RecurrentLifeScript,
  SimulatorControl,
} from './simulator-control.js';
export type { StartedSimulator, StartSimulatorOptions } from './start-simulator.js';
export { DEFAULT_IN_PROCESS_SEED, startSimulator } from './start-simulator.js';
