/**
 * An exchange on its way from the proxy's thread to the recording's worker. The answer's body chunks
 * that own their memory whole (node:http reads an answer into buffers of their own) travel as that
 * memory, moved rather than copied into the message and out of it again (two copies of a 134 KB
 * page), and become views again on arrival. They travel as the bare memory, never as views of moved
 * memory: in one test process, Node 20 delivered such views with a length of 0 over memory that
 * arrived whole. Once the answer went out nothing on the proxy's thread reads them, and they are left
 * empty there. A chunk that shares its memory (a pool, a view of a larger buffer, one another chunk
 * also views) is copied, as is the request's body, which the upstream may not have read whole when it
 * answered.
 */
import type { ProxiedExchange } from '../exchange/exchange.js';

/** A chunk as it travels: its bytes (copied), or the memory it covered whole (moved). */
export type TravellingChunk = Uint8Array | ArrayBuffer;

export interface TravellingExchange extends Omit<ProxiedExchange, 'response'> {
  response: Omit<ProxiedExchange['response'], 'bodyChunks'> & { bodyChunks?: readonly TravellingChunk[] };
}

/** The memory each chunk covers whole and alone: what may be moved. */
function movableMemory(chunks: readonly Uint8Array[]): Set<ArrayBuffer> {
  const views = new Map<ArrayBufferLike, number>();
  for (const chunk of chunks) views.set(chunk.buffer, (views.get(chunk.buffer) ?? 0) + 1);
  const movable = new Set<ArrayBuffer>();
  for (const chunk of chunks) {
    const { buffer } = chunk;
    if (
      buffer instanceof ArrayBuffer &&
      views.get(buffer) === 1 &&
      chunk.byteOffset === 0 &&
      chunk.byteLength === buffer.byteLength
    )
      movable.add(buffer);
  }
  return movable;
}

/** `exchange` as it travels, and the memory to move with it (postMessage's transfer list). */
export function travellingExchange(exchange: ProxiedExchange): {
  exchange: TravellingExchange;
  transfer: ArrayBuffer[];
} {
  const chunks = exchange.response.bodyChunks;
  if (chunks === undefined || chunks.length === 0) return { exchange, transfer: [] };
  const movable = movableMemory(chunks);
  if (movable.size === 0) return { exchange, transfer: [] };
  const travelling = chunks.map((chunk) =>
    chunk.buffer instanceof ArrayBuffer && movable.has(chunk.buffer) ? chunk.buffer : chunk,
  );
  return {
    exchange: { ...exchange, response: { ...exchange.response, bodyChunks: travelling } },
    transfer: [...movable],
  };
}

/** The exchange a travelling one stands for, every chunk a view again. */
export function arrivedExchange(exchange: TravellingExchange): ProxiedExchange {
  const chunks = exchange.response.bodyChunks;
  if (chunks === undefined || chunks.every((chunk) => !(chunk instanceof ArrayBuffer))) {
    return exchange as ProxiedExchange;
  }
  const views = chunks.map((chunk) => (chunk instanceof ArrayBuffer ? new Uint8Array(chunk) : chunk));
  return { ...exchange, response: { ...exchange.response, bodyChunks: views } };
}
