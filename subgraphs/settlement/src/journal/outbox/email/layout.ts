import { escapeHtml } from './format.js';

/** A label and its value, already formatted for people. */
export type Fact = readonly [label: string, value: string];

/** What one notification says, independent of the format it is sent in. */
export interface EmailContent {
  subject: string;
  greeting: string;
  paragraphs: readonly string[];
  facts: readonly Fact[];
  /** Further titled groups of facts (a bank account, the buyer of a tax invoice). */
  sections?: readonly { title: string; facts: readonly Fact[] }[];
  /** A link the recipient must follow (the reverse-issuance approval). */
  action?: { label: string; url: string; note: string };
  /** The settlement the message is about, for the footer. */
  settlementId: string;
}

const FOOTER = 'Campaign Platform · settlement';

/** The plain-text part: aligned facts, the link on a line of its own. */
export function renderText(content: EmailContent): string {
  const block = (facts: readonly Fact[], indent = '') => {
    const width = Math.max(...facts.map(([label]) => label.length)) + 2;
    return facts.map(([label, value]) => `${indent}${`${label}:`.padEnd(width)}${value}`);
  };
  const lines = [content.greeting, '', ...content.paragraphs.flatMap((p) => [p, ''])];
  if (content.facts.length) lines.push(...block(content.facts), '');
  for (const section of content.sections ?? []) {
    if (section.facts.length) lines.push(section.title, ...block(section.facts, '  '), '');
  }
  if (content.action) {
    lines.push(`${content.action.label}: ${content.action.url}`, content.action.note, '');
  }
  lines.push('--', `${FOOTER} ${content.settlementId}`);
  return lines.join('\n');
}

/** The HTML part: the same content, every value escaped. */
export function renderHtml(content: EmailContent): string {
  const e = escapeHtml;
  const table = (facts: readonly Fact[]) =>
    `<table cellpadding="4" cellspacing="0" style="border-collapse:collapse">${facts
      .map(
        ([label, value]) =>
          `<tr><th align="left" style="padding-right:16px;color:#555">${e(label)}</th>` +
          `<td>${e(value)}</td></tr>`,
      )
      .join('')}</table>`;
  const parts = [
    `<p>${e(content.greeting)}</p>`,
    ...content.paragraphs.map((p) => `<p>${e(p)}</p>`),
  ];
  if (content.facts.length) parts.push(table(content.facts));
  for (const section of content.sections ?? []) {
    if (section.facts.length) parts.push(`<h3>${e(section.title)}</h3>`, table(section.facts));
  }
  if (content.action) {
    parts.push(
      `<p><a href="${e(content.action.url)}">${e(content.action.label)}</a></p>`,
      `<p>${e(content.action.note)}</p>`,
    );
  }
  parts.push(`<hr><p style="color:#888">${e(FOOTER)} ${e(content.settlementId)}</p>`);
  return (
    `<!doctype html><html><head><meta charset="utf-8"><title>${e(content.subject)}</title>` +
    `</head><body style="font-family:sans-serif">${parts.join('')}</body></html>`
  );
}
