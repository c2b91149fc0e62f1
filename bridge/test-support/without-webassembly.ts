/**
 * Runs `make` as on a Node without WebAssembly (`node --jitless`): the global is taken away while it
 * runs, and put back whatever happens.
 */
export async function withoutWebAssembly<T>(make: () => T | Promise<T>): Promise<T> {
  const scope = globalThis as { WebAssembly?: unknown };
  const saved = scope.WebAssembly;
  Reflect.deleteProperty(scope, 'WebAssembly');
  try {
    return await make();
  } finally {
    scope.WebAssembly = saved;
  }
}
