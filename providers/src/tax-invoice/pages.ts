import type { FastifyInstance } from 'fastify';
import type { IssuanceStore } from './store.js';

/**
 * The pages a person sees: the reverse-issuance approval page the partner's e-mail links to, and
 * the issued tax invoice's document. Plain HTML with no outside assets (works offline).
 */

const escape = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

const page = (title: string, body: string) =>
  `<!doctype html><html lang="ko"><head><meta charset="utf-8"><title>${escape(title)}</title>` +
  `<style>body{font-family:sans-serif;max-width:40rem;margin:2rem auto}td{padding:.2rem .6rem}` +
  `</style></head><body><h1>${escape(title)}</h1>${body}</body></html>`;

const row = ([key, value]: [string, string]) =>
  `<tr><td>${escape(key)}</td><td>${escape(value)}</td></tr>`;
const rows = (pairs: [string, string][]) => `<table>${pairs.map(row).join('')}</table>`;

export function registerPages(app: FastifyInstance, store: IssuanceStore, now: () => Date): void {
  // HTML forms post application/x-www-form-urlencoded; the pages need no field from the body.
  app.addContentTypeParser(
    'application/x-www-form-urlencoded',
    { parseAs: 'string' },
    (_request, _body, done) => done(null, {}),
  );

  const usable = (token: string) => {
    const record = store.byApprovalToken(token);
    if (!record || record.status !== 'PENDING' || !record.approvalUrlExpiresAt) return null;
    return record.approvalUrlExpiresAt.getTime() >= now().getTime() ? record : null;
  };
  const gone = page(
    '승인 링크가 만료되었습니다 (approval link expired)',
    '<p>This approval link has expired, was replaced by a newer one, or the request is no longer ' +
      'open. Ask for a new link from the partner console.</p>',
  );

  app.get<{ Params: { token: string } }>('/approve/:token', async (request, reply) => {
    const record = usable(request.params.token);
    if (!record) return reply.code(410).type('text/html').send(gone);
    const r = record.request;
    const action = `/approve/${encodeURIComponent(request.params.token)}`;
    return reply.type('text/html').send(
      page(
        '세금계산서 역발행 승인 (reverse issuance approval)',
        rows([
          ['공급자 (supplier)', `${r.supplier.name} (${r.supplier.businessNumber})`],
          ['공급받는자 (buyer)', r.buyer.name],
          ['공급가액 (supply amount)', r.supplyAmount],
          ['세액 (VAT)', r.vat],
          ['합계 (total)', r.total],
          ['발행키 (issuance key)', record.issuanceKey],
          ['링크 만료 (link expires)', record.approvalUrlExpiresAt!.toISOString()],
        ]) +
          `<form method="post" action="${action}/accept"><button>승인 (approve)</button></form>` +
          `<form method="post" action="${action}/reject"><button>거부 (reject)</button></form>`,
      ),
    );
  });

  for (const decision of ['accept', 'reject'] as const) {
    app.post<{ Params: { token: string } }>(
      `/approve/:token/${decision}`,
      async (request, reply) => {
        const record = usable(request.params.token);
        if (!record) return reply.code(410).type('text/html').send(gone);
        store.decide(record, decision === 'accept');
        const title =
          decision === 'accept' ? '승인되었습니다 (approved)' : '거부되었습니다 (rejected)';
        return reply.type('text/html').send(page(title, `<p>${escape(record.issuanceKey)}</p>`));
      },
    );
  }

  app.get<{ Params: { number: string } }>('/documents/:number', async (request, reply) => {
    const record = store.byInvoiceNumber(request.params.number);
    if (!record) return reply.code(404).type('text/html').send(page('Not found', ''));
    const r = record.request;
    return reply.type('text/html').send(
      page(
        `전자세금계산서 ${record.taxInvoiceNumber}`,
        rows([
          ['승인번호 (approval number)', record.taxInvoiceNumber ?? ''],
          ['상태 (status)', record.status],
          ['공급자 (supplier)', `${r.supplier.name} (${r.supplier.businessNumber})`],
          ['공급받는자 (buyer)', `${r.buyer.name} (${r.buyer.businessNumber ?? '-'})`],
          ['품목 (item)', r.description ?? ''],
          ['공급가액 (supply amount)', r.supplyAmount],
          ['세액 (VAT)', r.vat],
          ['합계 (total)', r.total],
        ]),
      ),
    );
  });
}
