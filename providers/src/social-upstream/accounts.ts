import { idOfHandle, isPlainHandle, scenarioOf, type Scenario } from './ids.js';
import { rng, type Rng } from './random.js';
import * as W from './words.js';

/** One account of the simulated platform: a pure function of its (normalised) handle. */
export interface SimAccount {
  id: string;
  handle: string;
  scenario: Scenario;
  fullName: string;
  biography: string;
  isPrivate: boolean;
  isVerified: boolean;
  followerCount: number;
  followingCount: number;
  postCount: number;
  category: string | null;
  externalUrl: string | null;
  isBusiness: boolean;
  businessEmail: string | null;
  businessPhone: string | null;
  pronouns: string[];
  highlightCount: number;
  profilePicUrl: string;
  /** Unix seconds. */
  joinedAt: number;
  country: string;
  formerHandleCount: number;
  sharedFollowerAccountCount: number;
  verifiedAt: number | null;
}

/** Every generated handle is at most this long, so its id stays reversible (see ids.ts). */
const GENERATED_HANDLE_MAX = 18;

const cache = new Map<string, SimAccount>();

export function account(handle: string): SimAccount {
  const cached = cache.get(handle);
  if (cached) return cached;
  const made = makeAccount(handle);
  if (cache.size >= 20_000) cache.clear();
  cache.set(handle, made);
  return made;
}

export function accountById(
  id: string,
  handleOf: (id: string) => string | null,
): SimAccount | null {
  const handle = handleOf(id);
  return handle ? account(handle) : null;
}

function makeAccount(handle: string): SimAccount {
  const r = rng('account', handle);
  const scenario = scenarioOf(handle);
  const id = idOfHandle(handle);
  const isVerified = scenario.verified;
  const followerCount = Math.round(10 ** (isVerified ? r.float(5.3, 7.1) : r.float(2.6, 6.1)));
  const category = r.chance(0.8) ? r.pick(W.CATEGORIES) : null;
  const isBusiness = category !== null && r.chance(0.6);
  const joinedAt = Date.UTC(r.int(2011, 2023), r.int(0, 11), 1) / 1000;
  return {
    id,
    handle,
    scenario,
    fullName: displayNameFor(handle, r),
    biography: biographyFor(r),
    isPrivate: scenario.private,
    isVerified,
    followerCount,
    followingCount: r.int(80, 1500),
    postCount: r.int(30, 60),
    category,
    externalUrl: r.chance(0.5) ? `https://linktr.ee/${handle.replace(/[._]/g, '')}` : null,
    isBusiness,
    businessEmail: isBusiness ? `hello@${handle.replace(/[._]/g, '')}.com` : null,
    businessPhone:
      isBusiness && r.chance(0.4) ? `+82 10-${r.int(1000, 9999)}-${r.int(1000, 9999)}` : null,
    pronouns: [...r.pick(W.PRONOUNS)],
    highlightCount: r.int(2, 9),
    profilePicUrl: `https://scontent.cdn.social.sim/v/t51.2885-19/${id}_${r.int(1e8, 9e8)}_n.jpg`,
    joinedAt,
    country: r.pick(W.COUNTRIES),
    formerHandleCount: r.chance(0.7) ? 0 : r.int(1, 4),
    sharedFollowerAccountCount: r.int(0, 12),
    verifiedAt: isVerified ? Date.UTC(r.int(2018, 2024), r.int(0, 11), 1) / 1000 : null,
  };
}

function title(word: string): string {
  return word.charAt(0).toUpperCase() + word.slice(1);
}

function displayNameFor(handle: string, r: Rng): string {
  const words = handle.split(/[._0-9]+/).filter((w) => w.length > 1);
  if (words.length === 0) return `${title(r.pick(W.FIRST_NAMES))} ${title(r.pick(W.LAST_NAMES))}`;
  return words.map(title).join(' ');
}

function biographyFor(r: Rng): string {
  const lines: string[] = r.sample(W.BIO_LINES, r.int(1, 3));
  if (r.chance(0.4)) lines.push(`@${r.pick(W.BRANDS)} ambassador`);
  if (r.chance(0.5)) lines.push(`#${r.pick(W.HASHTAGS)}`);
  return lines.join('\n');
}

/** A plausible handle that carries no scenario prefix and keeps a reversible id. */
export function generatedHandle(r: Rng): string {
  const first = r.pick(W.FIRST_NAMES);
  const patterns = [
    () => `${first}.${r.pick(W.LAST_NAMES)}`,
    () => `${first}_${r.pick(W.NOUNS)}`,
    () => `${first}${r.int(80, 99)}`,
    () => `${first}.${r.pick(W.LAST_NAMES)}_${r.int(1, 99)}`,
    () => `${r.pick(W.NOUNS)}.${r.pick(W.PLACES)}`,
    () => `${r.pick(W.PLACES)}_${r.pick(W.NOUNS)}`,
    () => `the.${first}.${r.pick(W.NOUNS)}`,
    () => `${first}${r.pick(W.NOUNS)}`,
  ];
  const handle = r
    .pick(patterns)()
    .slice(0, GENERATED_HANDLE_MAX)
    .replace(/[._]+$/, '');
  return isPlainHandle(handle) ? handle : `u${handle}`.slice(0, GENERATED_HANDLE_MAX);
}

/** `count` distinct generated accounts, never `exclude`. */
export function generatedAccounts(key: string, count: number, exclude: string): SimAccount[] {
  const r = rng('list', key);
  const seen = new Set<string>([exclude]);
  const out: SimAccount[] = [];
  for (let attempts = 0; out.length < count && attempts < count * 20; attempts++) {
    const handle = generatedHandle(r);
    if (seen.has(handle)) continue;
    seen.add(handle);
    out.push(account(handle));
  }
  return out;
}

export function followers(acc: SimAccount): SimAccount[] {
  if (acc.scenario.verified)
    return generatedAccounts(`followers-sample:${acc.handle}`, 100, acc.handle);
  const length = Math.min(acc.followerCount, rng('followers-length', acc.handle).int(250, 400));
  return generatedAccounts(`followers:${acc.handle}`, length, acc.handle);
}

export function following(acc: SimAccount): SimAccount[] {
  const length = Math.min(acc.followingCount, rng('following-length', acc.handle).int(250, 400));
  return generatedAccounts(`following:${acc.handle}`, length, acc.handle);
}

export function related(acc: SimAccount): SimAccount[] {
  return generatedAccounts(
    `related:${acc.handle}`,
    rng('related', acc.handle).int(10, 30),
    acc.handle,
  );
}

/** Up to 55 accounts matching a query (the platform answers a few more than most clients show). */
export function searchAccounts(query: string): SimAccount[] {
  const q = query
    .toLowerCase()
    .replace(/[^a-z0-9._]/g, '')
    .slice(0, 24)
    .replace(/[._]+$/, '');
  if (!q) return [];
  const r = rng('search', q);
  const handles = new Set<string>([q]);
  const suffixes = ['.official', '_', '.kr', '_daily', '.studio', '_shop', '.life', '_world'];
  for (const suffix of suffixes) handles.add(`${q}${suffix}`.slice(0, 30));
  for (const word of W.NOUNS) handles.add(`${q}.${word}`.slice(0, 30));
  for (let i = 0; handles.size < 55 && i < 200; i++) {
    handles.add(`${q}${r.pick(['', '.', '_'])}${r.pick(W.FIRST_NAMES)}`.slice(0, 30));
  }
  return [...handles].slice(0, 55).map(account);
}
