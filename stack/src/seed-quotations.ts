import pg from 'pg';
import type { Principal } from '@campaign/platform';
import { createSettlementServices, initSettlementOrm } from '@campaign/settlement';

const admin: Principal = {
  subject: 'demo-seed',
  role: 'SUPER_ADMIN',
  agencyId: null,
  partnerId: null,
};

type Line = [partnerId: number, deliverable: string, price: string, commissionRate?: string];

const demo: {
  advertiserId: number;
  agencyId: number | null;
  title: string;
  lines: Line[];
  status: 'DRAFT' | 'SENT' | 'ACCEPTED' | 'EXECUTED' | 'CANCELLED';
}[] = [
  {
    // QUO1: DRAFT, can still be edited (PUT) or sent.
    advertiserId: 1,
    agencyId: null,
    title: 'Winter skincare teasers',
    lines: [
      [1, '2 reels and 3 stories', '2400000.00', '15.00'],
      [3, '1 reel', '650000.00'],
    ],
    status: 'DRAFT',
  },
  {
    // QUO2: SENT to the advertiser; ACCEPTED next.
    advertiserId: 2,
    agencyId: 2,
    title: 'Holiday cup launch',
    lines: [[2, 'Unboxing video', '1100000.00']],
    status: 'SENT',
  },
  {
    // QUO3: ACCEPTED; execute creates one campaign per line.
    advertiserId: 1,
    agencyId: null,
    title: 'Lipstick shade week',
    lines: [
      [1, 'Live try-on', '3000000.00', '12.50'],
      [2, 'Swatch carousel', '800000.00'],
      [3, 'Get-ready-with-me reel', '500000.00'],
    ],
    status: 'ACCEPTED',
  },
  {
    // QUO4: EXECUTED: its campaigns exist (CREATED), linked back through campaignIds.
    advertiserId: 2,
    agencyId: 2,
    title: 'Roastery tour',
    lines: [
      [3, 'Vlog', '700000.00'],
      [2, 'Photo series', '450000.00'],
    ],
    status: 'EXECUTED',
  },
  {
    // QUO5: CANCELLED.
    advertiserId: 1,
    agencyId: null,
    title: 'Cancelled pop-up booth',
    lines: [[1, 'Booth live stream', '900000.00']],
    status: 'CANCELLED',
  },
];

const MOVES = {
  DRAFT: [],
  SENT: ['SENT'],
  ACCEPTED: ['SENT', 'ACCEPTED'],
  EXECUTED: ['SENT', 'ACCEPTED', 'EXECUTED'],
  CANCELLED: ['CANCELLED'],
} as const;

/**
 * Demo quotations QUO1-QUO5, one in each status, made through the real services (amounts,
 * audit, the executed one's campaigns). Runs once, on the demo database only (its last demo
 * campaign exists) and when no quotation exists yet.
 */
export async function seedQuotations(url: string): Promise<void> {
  if (!(await demoWithout(url, 'quotation'))) return;
  const orm = await initSettlementOrm(url, 2);
  try {
    const { quotationChanges } = createSettlementServices();
    // A year ahead of the day the demo is seeded: a past validUntil is refused (issue 23).
    const validUntil = new Date(Date.now() + 365 * 86_400_000).toISOString().slice(0, 10);
    for (const q of demo) {
      const created = await quotationChanges.create(orm.em.fork(), admin, {
        advertiserId: q.advertiserId,
        agencyId: q.agencyId,
        title: q.title,
        validUntil,
        lines: q.lines.map(([partnerId, deliverable, price, commissionRate]) => ({
          partnerId,
          deliverable,
          price,
          commissionRate: commissionRate ?? null,
        })),
      });
      for (const to of MOVES[q.status])
        await quotationChanges.changeStatus(orm.em.fork(), admin, created.id, to);
    }
  } finally {
    await orm.close();
  }
}

/**
 * True on the demo database (its last demo campaign exists) while `table` has no row yet: the
 * condition under which a demo seeding step runs, so that each runs once.
 */
export async function demoWithout(
  url: string,
  table: 'settlement' | 'quotation',
): Promise<boolean> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const { rowCount: found } = await client.query(`select 1 from ${table} limit 1`);
    const { rowCount: isDemo } = await client.query(
      `select 1 from campaign where id = 'CAM11' and title = 'Cancelled pop-up'`,
    );
    return !found && Boolean(isDemo);
  } finally {
    await client.end();
  }
}
