// What the session knows that makes a failure's hint useful: the resource and version asked for, the
// versions the index offers after a 406, and what is wrong with the token after a 401.
import { findResource, type Catalog } from '../hal/catalog.js';
import type { PreparedRequest } from '../hal/operation.js';
import { describeToken } from '../security/token.js';
import type { apiErrorFor } from '../wire/failure.js';

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
  if (status === 401 && known.token) {
    const problem = describeToken(known.token, known.baseUrl).warnings[0];
    if (problem) context.tokenProblem = problem;
  }
  return context;
}
