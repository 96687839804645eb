import { createHash } from 'node:crypto';

/** A small seeded PRNG (sfc32) keyed by a string: the same key always yields the same sequence. */
export interface Rng {
  /** Uniform in [0, 1). */
  next(): number;
  /** Uniform integer in [min, max], both included. */
  int(min: number, max: number): number;
  /** Uniform float in [min, max). */
  float(min: number, max: number): number;
  chance(probability: number): boolean;
  pick<T>(items: readonly T[]): T;
  /** `count` distinct items (fewer when the list is shorter), in a random order. */
  sample<T>(items: readonly T[], count: number): T[];
}

export function rng(...key: (string | number | bigint)[]): Rng {
  const digest = createHash('sha256').update(key.join('\u0000')).digest();
  let a = digest.readUInt32LE(0);
  let b = digest.readUInt32LE(4);
  let c = digest.readUInt32LE(8);
  let d = digest.readUInt32LE(12);
  const next = (): number => {
    const t = (((a + b) | 0) + d) | 0;
    d = (d + 1) | 0;
    a = b ^ (b >>> 9);
    b = (c + (c << 3)) | 0;
    c = (c << 21) | (c >>> 11);
    c = (c + t) | 0;
    return (t >>> 0) / 4294967296;
  };
  for (let i = 0; i < 12; i++) next();
  const int = (min: number, max: number) => min + Math.floor(next() * (max - min + 1));
  return {
    next,
    int,
    float: (min, max) => min + next() * (max - min),
    chance: (probability) => next() < probability,
    pick: (items) => items[int(0, items.length - 1)] as (typeof items)[number],
    sample: (items, count) => {
      const copy = [...items];
      for (let i = copy.length - 1; i > 0; i--) {
        const j = int(0, i);
        [copy[i], copy[j]] = [copy[j] as (typeof copy)[number], copy[i] as (typeof copy)[number]];
      }
      return copy.slice(0, count);
    },
  };
}

/** `digits` decimal digits derived from the key (the first one is never 0). */
export function hashDigits(key: string, digits: number): string {
  const r = rng('digits', key);
  let out = String(r.int(1, 9));
  while (out.length < digits) out += String(r.int(0, 9));
  return out;
}
