import type { FastifyInstance } from 'fastify';

/**
 * A switch that makes the next N requests of a simulator fail, so whole-stack tests can prove
 * retries and outage answers without stopping the simulator:
 * `POST /_sim/fail-next {"count": 2}` (count 1-100, default 1), `DELETE /_sim/fail-next` to reset.
 * Requests to the switch itself and to the probes never count.
 */
export class FailureSwitch {
  private remaining = 0;

  /** True when this request should fail (and counts it). */
  take(): boolean {
    if (this.remaining <= 0) return false;
    this.remaining -= 1;
    return true;
  }

  get pending(): number {
    return this.remaining;
  }

  register(app: FastifyInstance): void {
    app.post<{ Body: { count?: unknown } | undefined }>(
      '/_sim/fail-next',
      async (request, reply) => {
        const raw = request.body?.count ?? 1;
        if (typeof raw !== 'number' || !Number.isInteger(raw) || raw < 1 || raw > 100) {
          return reply.code(400).send({ message: 'count must be a whole number from 1 to 100' });
        }
        this.remaining = raw;
        return { failNext: this.remaining };
      },
    );
    app.delete('/_sim/fail-next', async (_request, reply) => {
      this.remaining = 0;
      return reply.code(204).send();
    });
  }
}
