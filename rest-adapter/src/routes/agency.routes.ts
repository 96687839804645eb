import { defineRoute, ok, params, type Route } from '../route.js';
import {
  action,
  create,
  getById,
  getOne,
  list,
  listVariables,
  noBody,
} from './settlement-fields.js';

const base = '/api/admin/agencies';

/** Spec 2.4's fields, then the default flag and the row's times. */
export const AGENCY_FIELDS = `id name code businessName businessNumber representativeName bankName
  accountNumber accountHolder email isActive isDefault createdAt updatedAt`;

const ACCOUNT_FIELDS = 'agencyId agencyName bankName accountNumber accountHolder';

/** `?isActive=true|false` as GraphQL's Boolean; any other text goes on to be refused (400). */
function agencyListVariables(request: Parameters<typeof listVariables>[0]) {
  const variables = listVariables(request);
  const filter = variables['filter'] as Record<string, unknown>;
  const flag = filter['isActive'];
  if (flag === 'true' || flag === 'false') filter['isActive'] = flag === 'true';
  return variables;
}

/** Spec section 4.4: the eight agency paths, each one GraphQL operation (DESIGN.md 5 names). */
export const agencyRoutes: Route<never>[] = [
  list(base, 'agencies', 'AgencyFilter', AGENCY_FIELDS, agencyListVariables),
  getOne(`${base}/default`, 'defaultAgency', AGENCY_FIELDS),
  defineRoute<Record<string, unknown>>({
    method: 'GET',
    path: `${base}/code/:code`,
    document: `query($code: String!) { result: agencyByCode(code: $code) { ${AGENCY_FIELDS} } }`,
    variables: (request) => ({ code: params(request)['code'] }),
    respond: (data) => ok(data['result']),
  }) as Route<never>,
  getById(`${base}/:id`, 'agency', AGENCY_FIELDS),
  getById(`${base}/:id/settlement-account`, 'agencySettlementAccount', ACCOUNT_FIELDS),
  create(base, 'createAgency', 'CreateAgencyInput', AGENCY_FIELDS),
  action('PUT', `${base}/:id`, 'updateAgency', 'UpdateAgencyInput', AGENCY_FIELDS, true),
  defineRoute<Record<string, unknown>>({
    method: 'DELETE',
    path: `${base}/:id`,
    document: `mutation($id: ID!) { result: deactivateAgency(id: $id) { ${AGENCY_FIELDS} } }`,
    variables: (request) => ({ id: params(request)['id'] }),
    respond: (data) => ok(data['result']),
    validateBody: noBody,
  }) as Route<never>,
];
