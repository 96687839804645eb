import { hashDigits } from './random.js';

/**
 * Account ids of the simulated platform.
 *
 * A handle (lower-cased; the platform's handles are case-insensitive) is written as a number in
 * bijective base 38 over `a-z0-9._`, so every handle has exactly one id and every id exactly one
 * handle: an id lookup finds the account of the handle it came from, scenario prefix included,
 * and survives a restart of the simulator. Handles up to 18 characters fit in the 30 digits that
 * the lens specification allows for an id (all generated handles are that short). A longer handle
 * gets a hashed 30-digit id that is remembered in memory only: after a restart that id names
 * another account.
 */

const ALPHABET = 'abcdefghijklmnopqrstuvwxyz0123456789._';
const BASE = BigInt(ALPHABET.length);
const MAX_ID_DIGITS = 30;
const REGISTRY_LIMIT = 50_000;

const HANDLE = /^[a-z0-9._]{1,30}$/;
const ACCOUNT_ID = /^[1-9][0-9]{0,29}$/;

const longHandles = new Map<string, string>();

export function normalizeHandle(handle: string): string | null {
  const lower = handle.trim().toLowerCase();
  return HANDLE.test(lower) ? lower : null;
}

export function encodeHandle(handle: string): bigint {
  let n = 0n;
  for (const ch of handle) n = n * BASE + BigInt(ALPHABET.indexOf(ch) + 1);
  return n;
}

export function decodeId(id: bigint): string {
  let n = id;
  let out = '';
  while (n > 0n) {
    n -= 1n;
    out = ALPHABET[Number(n % BASE)] + out;
    n /= BASE;
  }
  return out;
}

/** The id of a (normalised) handle. */
export function idOfHandle(handle: string): string {
  const encoded = encodeHandle(handle).toString();
  if (encoded.length <= MAX_ID_DIGITS) return encoded;
  const id = `9${hashDigits(`long:${handle}`, MAX_ID_DIGITS - 1)}`;
  if (!longHandles.has(id)) {
    if (longHandles.size >= REGISTRY_LIMIT) longHandles.clear();
    longHandles.set(id, handle);
  }
  return id;
}

/** The handle an id stands for, or null when the text is not an id. */
export function handleOfId(id: string): string | null {
  if (!ACCOUNT_ID.test(id)) return null;
  return longHandles.get(id) ?? decodeId(BigInt(id));
}

/** What a handle's prefixes ask the simulator to do. Prefixes combine: `slow_private_x`. */
export interface Scenario {
  /** `private_`: profile answers with is_private; content answers "Not authorized to view user". */
  private: boolean;
  /** `missing_`: every endpoint answers 404. */
  missing: boolean;
  /** `slow_`: every endpoint answers correctly after `slowDelayMs`. */
  slow: boolean;
  /** `flaky_`: every endpoint answers 503. */
  flaky: boolean;
  /** `verified_`: a verified account whose follower list is a fixed sample of 100, one page. */
  verified: boolean;
  /** `noguides_`: the guides endpoint answers "This feature is not available". */
  noGuides: boolean;
}

const PREFIXES: [string, keyof Scenario][] = [
  ['private_', 'private'],
  ['missing_', 'missing'],
  ['slow_', 'slow'],
  ['flaky_', 'flaky'],
  ['verified_', 'verified'],
  ['noguides_', 'noGuides'],
];

export function scenarioOf(handle: string): Scenario {
  const scenario: Scenario = {
    private: false,
    missing: false,
    slow: false,
    flaky: false,
    verified: false,
    noGuides: false,
  };
  let rest = handle;
  for (let matched = true; matched;) {
    matched = false;
    for (const [prefix, key] of PREFIXES) {
      if (rest.startsWith(prefix)) {
        scenario[key] = true;
        rest = rest.slice(prefix.length);
        matched = true;
      }
    }
  }
  return scenario;
}

/** True when the handle carries no scenario prefix (generated accounts must not). */
export function isPlainHandle(handle: string): boolean {
  return !PREFIXES.some(([prefix]) => handle.startsWith(prefix));
}
