/** The one place the simulator reads the machine's time (Date.now only in clock/, so tests control time). */
export const systemTime = (): number => Date.now();
