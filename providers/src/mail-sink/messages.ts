import type { AddressObject, EmailAddress, ParsedMail } from 'mailparser';

/** One received e-mail as `GET /messages` shows it (DESIGN.md section 5, fixed). */
export interface SinkMessage {
  /** The Message-ID header with its angle brackets; null when the message carried none. */
  messageId: string | null;
  /** The bare address of From (the envelope sender when there is no From header). */
  from: string | null;
  /** Bare addresses of To and Cc (the envelope recipients when there is neither). */
  to: string[];
  subject: string | null;
  text: string | null;
  html: string | null;
  /** Every header, lower-case name → decoded value; a repeated header's values joined by ", ". */
  headers: Record<string, string>;
  /** ISO-8601 UTC. */
  receivedAt: string;
}

export interface Envelope {
  mailFrom: string | null;
  rcptTo: string[];
}

function addresses(list: readonly EmailAddress[]): string[] {
  // Groups ("Team: a@x, b@y;") are flattened: a test asks "did b@y get it", not "which group".
  return list.flatMap((entry) =>
    entry.group ? addresses(entry.group) : entry.address ? [entry.address] : [],
  );
}

function addressesOf(field: AddressObject | AddressObject[] | undefined): string[] {
  if (!field) return [];
  return (Array.isArray(field) ? field : [field]).flatMap((object) => addresses(object.value));
}

/** The text after "Name:" in a raw header line, unfolded. */
function rawValue(line: string): string {
  const colon = line.indexOf(':');
  return line
    .slice(colon + 1)
    .replace(/\r?\n[ \t]+/g, ' ')
    .trim();
}

/**
 * Header values as strings. Where mailparser decoded a plain string (encoded words in a Subject or
 * an X- header, say) its value is used; structured headers (addresses, dates, content types) keep
 * their raw text, which is what a reader expects to see, rather than a parsed object.
 */
function headersOf(parsed: ParsedMail): Record<string, string> {
  const values = new Map<string, string[]>();
  for (const { key, line } of parsed.headerLines) {
    const list = values.get(key) ?? [];
    list.push(rawValue(line));
    values.set(key, list);
  }
  const headers: Record<string, string> = {};
  for (const [key, raw] of values) {
    const decoded = parsed.headers.get(key);
    if (typeof decoded === 'string') headers[key] = decoded;
    else if (Array.isArray(decoded) && decoded.every((v) => typeof v === 'string'))
      headers[key] = decoded.join(', ');
    else headers[key] = raw.join(', ');
  }
  return headers;
}

export function toSinkMessage(
  parsed: ParsedMail,
  envelope: Envelope,
  receivedAt: Date,
): SinkMessage {
  const from = addressesOf(parsed.from)[0] ?? envelope.mailFrom;
  const to = [...addressesOf(parsed.to), ...addressesOf(parsed.cc)];
  return {
    messageId: parsed.messageId ?? null,
    from: from || null,
    to: to.length ? to : [...envelope.rcptTo],
    subject: parsed.subject ?? null,
    // A single-part body arrives with the line break that ends the DATA section; not the sender's.
    text: parsed.text === undefined ? null : parsed.text.replace(/\r?\n$/, ''),
    html: typeof parsed.html === 'string' ? parsed.html : null,
    headers: headersOf(parsed),
    receivedAt: receivedAt.toISOString(),
  };
}
