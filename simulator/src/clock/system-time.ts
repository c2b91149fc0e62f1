/** The one place the simulator reads the machine's time (STYLE.md: Date.now only in clock/). */
export const systemTime = (): number => Date.now();
