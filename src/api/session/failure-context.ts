// What the session knows that makes a failure's hint useful: the resource and version asked for, the
// versions the index offers after a 406, and what is wrong with the token after a 401.
import { findResource, type Catalog } from '../hal/catalog.js';
import { pagingParameters, type PreparedRequest } from '../hal/operation.js';
import { describeToken } from '../security/token.js';
import type { apiErrorFor, SentParts } from '../wire/failure.js';

type FailureContext = Parameters<typeof apiErrorFor>[1];

export function failureContext(
  request: PreparedRequest,
  status: number,
  known: { catalog: Catalog | undefined; token: string | undefined; baseUrl: string },
): FailureContext {
  const context: FailureContext = {};
  if (request.resource) context.resource = request.resource;
  if (request.version) context.version = request.version;
  if (status === 406 && known.catalog && request.resource) {
    const resource = findResource(known.catalog, request.resource);
    if (resource) context.supportedVersions = resource.versions.map((version) => version.version);
  }
  if (status === 400) context.sent = sentParts(request, known.catalog);
  if (status === 401 && known.token) {
    const problem = describeToken(known.token, known.baseUrl).warnings[0];
    if (problem) context.tokenProblem = problem;
  }
  return context;
}

/** What a request carried that a 400 may be about: its body, its unit, and its filter and paging parameters. */
function sentParts(request: PreparedRequest, catalog: Catalog | undefined): SentParts {
  const sent: SentParts = { body: request.body !== undefined };
  if (request.operationId) sent.operationId = request.operationId;
  if (request.ou) sent.ou = request.ou;
  let query: URLSearchParams;
  try {
    query = new URL(request.url).searchParams;
  } catch {
    return sent;
  }
  const operation =
    catalog && request.resource
      ? findResource(catalog, request.resource)
          ?.versions.find((version) => version.version === request.version)
          ?.operations.find((op) => op.id === request.operationId)
      : undefined;
  const names = operation ? pagingParameters(operation) : { pageSize: 'limit', page: 'start', filter: 'filter' };
  const filter = query.get(names.filter);
  const pageSize = query.get(names.pageSize);
  const page = query.get(names.page);
  if (filter !== null) sent.filter = filter;
  if (pageSize !== null) sent.pageSize = pageSize;
  if (page !== null) sent.page = page;
  return sent;
}
