/**
 * What a store that counts limits offers (memory, PostgreSQL, Redis): per limit, a counter of
 * events per key in fixed windows. The first event of a key opens its window, and every event
 * in it (refused ones too) adds one, in one atomic step, so servers never act on a count that
 * another is about to change. What a limit does when its store fails is limit-store.ts's.
 */
import { createHash } from 'node:crypto';

/** One event counted: the key's events in its window so far, and the milliseconds it has left. */
export type Hit = { count: number; ttlMs: number };

/** A limit's counts as a store keeps them; both calls throw when the store cannot answer. */
export interface CounterBackend {
  hit(key: string, windowMs: number): Promise<Hit>;
  reset(key: string): Promise<void>;
}

export interface LimitBackend {
  readonly kind: 'memory' | 'postgres' | 'redis';
  /** The counter of limit `name`; a memory backend keeps at most `maxKeys` of its keys. */
  counter(name: string, maxKeys: number): CounterBackend;
  close(): Promise<void>;
}

/** The key as a shared store keeps it: the limit's name and a hash, never an e-mail or a secret. */
export const storedKey = (name: string, key: string): string =>
  `${name}:${createHash('sha256').update(key).digest('base64url')}`;
