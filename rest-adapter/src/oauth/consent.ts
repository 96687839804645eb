import type { FastifyReply, FastifyRequest } from 'fastify';
import { REQUEST_ID_HEADER } from '@campaign/platform';
import type { GatewayClient } from '../gateway-client.js';
import { OPERATION_SCOPES } from './authorization-server.js';
import {
  consentPage,
  consentPageCsp,
  STALE_PAGE_CSP,
  staleConsentPage,
  type ConsentView,
} from './consent-page.js';
import type Provider from 'oidc-provider';
import type { McpAuthorization } from './mcp-authorization.js';

export const CONNECT_DOCUMENT = `mutation Connect($clientName: String!, $operations: [String!]!, $creditsCap: Int) {
  connectOAuthClient(clientName: $clientName, operations: $operations, creditsCap: $creditsCap) {
    credential { id } secret
  }
}`;

type Interaction = Awaited<ReturnType<Provider['interactionDetails']>>;

/** The interaction of this page, or the stale page already sent. */
async function interactionOf(auth: McpAuthorization, request: FastifyRequest, reply: FastifyReply) {
  try {
    const details = await (await auth.provider()).interactionDetails(request.raw, reply.raw);
    const { uid } = request.params as { uid: string };
    if (details.uid !== uid) throw new Error('this page belongs to another request');
    return details;
  } catch (error) {
    await reply
      .code(400)
      .header('content-security-policy', STALE_PAGE_CSP)
      .type('text/html; charset=utf-8')
      .send(staleConsentPage((error as Error).message));
    return undefined;
  }
}

async function viewOf(auth: McpAuthorization, details: Interaction): Promise<ConsentView> {
  const clientId = String(details.params['client_id']);
  const client = await (await auth.provider()).Client.find(clientId);
  const scopes = String(details.params['scope'] ?? '').split(' ');
  return {
    uid: details.uid,
    clientName: client?.clientName ?? clientId,
    redirectUri: String(details.params['redirect_uri']),
    resource: auth.resource,
    requested: OPERATION_SCOPES.filter((name) => scopes.includes(name)),
  };
}

function sendPage(reply: FastifyReply, view: ConsentView, status = 200) {
  return reply
    .code(status)
    .header('content-security-policy', consentPageCsp(view.redirectUri))
    .header('cache-control', 'no-store')
    .type('text/html; charset=utf-8')
    .send(consentPage(view));
}

export async function showConsent(
  auth: McpAuthorization,
  request: FastifyRequest,
  reply: FastifyReply,
) {
  const details = await interactionOf(auth, request, reply);
  if (!details) return reply;
  return sendPage(reply, await viewOf(auth, details));
}

/**
 * Approve: lens checks the credential and makes the connection (a credential of kind `oauth`
 * with the chosen operations and cap); its key is kept for the adapter, a grant of those
 * operations for the resource is saved, and the authorization request resumes, which sends the
 * code back to the client. Deny: the client gets `access_denied`. A refused credential shows
 * the page again with lens's reason.
 */
export async function handleConsent(
  auth: McpAuthorization,
  gateway: GatewayClient,
  request: FastifyRequest,
  reply: FastifyReply,
) {
  const details = await interactionOf(auth, request, reply);
  if (!details) return reply;
  const form = request.body instanceof URLSearchParams ? request.body : new URLSearchParams();
  const finish = async (result: Parameters<Provider['interactionResult']>[2]) =>
    reply
      .code(303)
      .redirect(
        await (await auth.provider()).interactionResult(request.raw, reply.raw, result),
        303,
      );
  if (form.get('decision') !== 'approve') {
    return finish({
      error: 'access_denied',
      error_description: 'The account holder denied the connection.',
    });
  }
  const view = await viewOf(auth, details);
  const operations = form.getAll('operation').filter((name) => OPERATION_SCOPES.includes(name));
  const creditsCap = form.get('creditsCap')?.trim() ?? '';
  const again = (error: string, status: number) =>
    sendPage(reply, { ...view, chosen: { operations, creditsCap }, error }, status);
  if (operations.length === 0) return again('Choose at least one operation, or deny.', 400);
  if (creditsCap && !/^[1-9]\d{0,15}$/.test(creditsCap)) {
    return again('The credits cap is a whole number of at least 1, or empty for none.', 400);
  }
  const credential = form.get('credential')?.trim() ?? '';
  const answer = await gateway
    .execute<{ connectOAuthClient: { credential: { id: string }; secret: string } }>(
      CONNECT_DOCUMENT,
      {
        clientName: view.clientName,
        operations,
        creditsCap: creditsCap ? Number(creditsCap) : null,
      },
      {
        authorization: `Bearer ${credential}`,
        requestId: String(request.headers[REQUEST_ID_HEADER] ?? request.id),
        clientIp: request.ip,
      },
    )
    .catch(() => undefined);
  const connected = answer?.data?.connectOAuthClient;
  if (!connected) {
    const reason = answer?.errors?.[0]?.message ?? 'The service is unavailable; try again.';
    return again(`Not connected: ${reason}`, 401);
  }
  await auth.remember(connected.credential.id, connected.secret);
  const grant = new (await auth.provider()).Grant({
    accountId: connected.credential.id,
    clientId: String(details.params['client_id']),
  });
  // What was asked and not chosen is refused, so the request does not come back for consent.
  // Operation scopes are known to the server as scopes of their own (clients register with
  // them) and as the resource's: both are granted, only the resource's reach a token.
  const refused = view.requested.filter((name) => !operations.includes(name)).join(' ');
  grant.addResourceScope(auth.resource, operations.join(' '));
  grant.addOIDCScope(operations.join(' '));
  if (refused) {
    grant.rejectResourceScope(auth.resource, refused);
    grant.rejectOIDCScope(refused);
  }
  const grantId = await grant.save();
  return finish({ login: { accountId: connected.credential.id }, consent: { grantId } });
}
