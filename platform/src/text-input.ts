import { PlatformError } from '@campaign/schema';

/**
 * The one rule for text that enters the platform (issue 9, item 4): no string may hold U+0000
 * or a UTF-16 surrogate without its partner. PostgreSQL refuses U+0000 in `text` and `jsonb`
 * (the write failed as a 500 after the request had been accepted), and a lone surrogate has no
 * UTF-8 form: Node silently writes U+FFFD instead, so what is stored is not what was sent, and
 * `encodeURIComponent` throws on it. Both subgraphs apply it to every GraphQL argument
 * (federation.ts) and the REST adapter to every body, query and path parameter.
 */

export interface UnsafeText {
  /** Where the text is, e.g. `input.search`, `body.accountRefs[0].handle`. */
  path: string;
  reason: string;
}

/**
 * The same rule as a JSON Schema pattern (ECMA-262 with the `u` flag, as JSON Schema validators
 * read it: a lone surrogate is then a code point of its own, a pair is one astral code point),
 * for the published documents; text-input.test.ts proves it agrees with {@link unsafeTextReason}.
 */
export const SAFE_TEXT_PATTERN = '^[^\\u0000\\uD800-\\uDFFF]*$';

/** Why `text` is refused, or null when it is well-formed Unicode without U+0000. */
export function unsafeTextReason(text: string): string | null {
  for (let i = 0; i < text.length; i++) {
    const unit = text.charCodeAt(i);
    if (unit === 0) return 'contains a NUL character (U+0000)';
    if (unit < 0xd800 || unit > 0xdfff) continue;
    const next = i + 1 < text.length ? text.charCodeAt(i + 1) : 0;
    if (unit <= 0xdbff && next >= 0xdc00 && next <= 0xdfff) {
      i++; // a well-formed pair
      continue;
    }
    return `contains an unpaired UTF-16 surrogate (\\u${unit.toString(16)})`;
  }
  return null;
}

interface Node {
  value: unknown;
  /** The property name or index that leads here from `parent`. */
  key: string | number | null;
  parent: Node | null;
}

function pathOf(node: Node, root: string): string {
  const parts: string[] = [];
  for (let at: Node | null = node; at?.parent; at = at.parent) {
    const key = at.key!;
    parts.push(
      typeof key === 'number'
        ? `[${key}]`
        : /^[A-Za-z_$][\w$]*$/.test(key)
          ? `.${key}`
          : // JSON.stringify escapes U+0000 and lone surrogates, so the name prints safely.
            `[${JSON.stringify(key)}]`,
    );
  }
  const tail = parts.reverse().join('');
  return root ? `${root}${tail}` : tail.replace(/^\./, '');
}

/**
 * The first string (or property name) under `value` that breaks the rule, with its path from
 * `root` (`''` for GraphQL arguments, whose first level is the argument name). Iterative, so a
 * deeply nested JSON body cannot overflow the stack.
 */
export function findUnsafeText(value: unknown, root = ''): UnsafeText | null {
  const stack: Node[] = [{ value, key: null, parent: null }];
  while (stack.length) {
    const node = stack.pop()!;
    const current = node.value;
    if (typeof current === 'string') {
      const reason = unsafeTextReason(current);
      if (reason) return { path: pathOf(node, root) || 'argument', reason };
    } else if (Array.isArray(current)) {
      for (let i = current.length - 1; i >= 0; i--) {
        stack.push({ value: current[i], key: i, parent: node });
      }
    } else if (current !== null && typeof current === 'object') {
      const keys = Object.keys(current);
      for (let i = keys.length - 1; i >= 0; i--) {
        const key = keys[i]!;
        const child: Node = { value: (current as Record<string, unknown>)[key], key, parent: node };
        const reason = unsafeTextReason(key);
        if (reason) return { path: pathOf(child, root), reason: `has a name that ${reason}` };
        stack.push(child);
      }
    }
  }
  return null;
}

/** The catalogue's INVALID_REQUEST for a finding, naming the field. */
export function unsafeTextMessage(found: UnsafeText): string {
  return `${found.path}: ${found.reason}; text must be well-formed Unicode without NUL characters.`;
}

export function unsafeTextError(found: UnsafeText): PlatformError {
  return new PlatformError('INVALID_REQUEST', unsafeTextMessage(found), { field: found.path });
}
