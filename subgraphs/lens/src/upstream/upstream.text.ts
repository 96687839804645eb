import { HANDLE_CHARACTERS, LENS_LIMITS } from '@campaign/schema';

/** Text that the platform leaves to its clients to read: captions, month labels. */

/** Captions and guide descriptions are previewed to this many characters (graphemes). */
export const CAPTION_PREVIEW_LENGTH = 150;

const HASHTAG = /(?<![\p{L}\p{N}_&])#([\p{L}\p{N}_]+)/gu;
const { min, max } = LENS_LIMITS.handle;
/** `@` and a handle (lens spec 2.2), not inside a word, an e-mail address or another mention. */
const MENTION = new RegExp(`(?<![\\p{L}\\p{N}_.@])@([${HANDLE_CHARACTERS}]{${min},${max}})`, 'gu');

/** `#tags` of a caption, lower-cased, first occurrence order, without duplicates. */
export function parseHashtags(caption: string): string[] {
  return [...new Set([...caption.matchAll(HASHTAG)].map((m) => (m[1] as string).toLowerCase()))];
}

/** `@handles` of a caption, lower-cased, without a sentence's trailing dot, without duplicates. */
export function parseMentions(caption: string): string[] {
  const handles = [...caption.matchAll(MENTION)].map((m) =>
    (m[1] as string).replace(/\.+$/, '').toLowerCase(),
  );
  return [...new Set(handles.filter(Boolean))];
}

const graphemes = new Intl.Segmenter('en', { granularity: 'grapheme' });

/** At most CAPTION_PREVIEW_LENGTH characters (graphemes); a cut text ends with "…". */
export function preview(value: unknown): string | null {
  if (typeof value !== 'string') return null;
  const parts = Array.from(graphemes.segment(value), (s) => s.segment);
  if (parts.length <= CAPTION_PREVIEW_LENGTH) return value;
  return `${parts
    .slice(0, CAPTION_PREVIEW_LENGTH - 1)
    .join('')
    .trimEnd()}…`;
}

const MONTHS = [
  'january',
  'february',
  'march',
  'april',
  'may',
  'june',
  'july',
  'august',
  'september',
  'october',
  'november',
  'december',
];

/** "March 2016" (or a unix timestamp) → "2016-03": the platform tells the month only. */
export function monthOf(label: unknown, timestamp?: unknown): string | null {
  const match = typeof label === 'string' ? /^([A-Za-z]+)\s+(\d{4})$/.exec(label.trim()) : null;
  const month = match ? MONTHS.indexOf((match[1] as string).toLowerCase()) : -1;
  if (match && month >= 0) return `${match[2]}-${String(month + 1).padStart(2, '0')}`;
  const seconds = typeof timestamp === 'number' && timestamp >= 0 ? timestamp : null;
  if (seconds !== null) return new Date(seconds * 1000).toISOString().slice(0, 7);
  return typeof label === 'string' && label.trim() ? label : null;
}
