/**
 * A fact about one exchange's object (a message's parsed body, the pieces its text was written in),
 * kept on the object itself under a symbol, not in a WeakMap beside it. A WeakMap that has lived long
 * enough to sit in V8's old generation keeps the values of its young keys alive through every
 * scavenge, until a full collection: each recorded page's pieces and parsed records were copied, then
 * promoted, then swept (the recording's GC fell from a fifth of its CPU to 2% without it). The fact
 * is not enumerable, so a spread or a JSON text of the object leaves it out, as a copy of a WeakMap's
 * key did: a copy has to be told its facts again.
 */
export interface AttachedFact<T> {
  get(holder: object): T | undefined;
  has(holder: object): boolean;
  set(holder: object, value: T): void;
}

/**
 * A fact kept on its holders under a symbol of its own (`name` says which, in a debugger). A holder
 * that takes no new property (frozen by its caller) keeps its fact in a WeakMap after all.
 */
export function attachedFact<T>(name: string): AttachedFact<T> {
  const key = Symbol(name);
  let closed: WeakMap<object, T> | undefined;
  return {
    get: (holder) => (closed?.has(holder) ? closed.get(holder) : (holder as { [key]?: T })[key]),
    has: (holder) => Object.hasOwn(holder, key) || closed?.has(holder) === true,
    set(holder, value) {
      const fresh = { value, configurable: true, writable: true };
      if (Reflect.defineProperty(holder, key, Object.hasOwn(holder, key) ? { value } : fresh)) return;
      closed ??= new WeakMap();
      closed.set(holder, value);
    },
  };
}
