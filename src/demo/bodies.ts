import { Ajv, type ValidateFunction } from 'ajv';
import createUserV2 from '../../fixtures/schemas/bodies/users.v2.create_user.json' with { type: 'json' };
import updateUserV2 from '../../fixtures/schemas/bodies/users.v2.update_user.json' with { type: 'json' };
import createPolicyV1 from '../../fixtures/schemas/bodies/policies.v1.create_policy.json' with { type: 'json' };
import updatePolicyV1 from '../../fixtures/schemas/bodies/policies.v1.update_policy.json' with { type: 'json' };
import createGroupV1 from '../../fixtures/schemas/bodies/protection-groups.v1.create_protection_group.json' with {
  type: 'json',
};
import updateGroupV1 from '../../fixtures/schemas/bodies/protection-groups.v1.update_protection_group.json' with {
  type: 'json',
};
import createRestoreV1 from '../../fixtures/schemas/bodies/restores.v1.create_restore.json' with { type: 'json' };
import { DemoError } from './errors.js';

/**
 * Request body schemas by `<resource>.<version>.<operation_id>`, the file names under
 * fixtures/schemas/bodies/ (imported, not read from disk, so the bundle stays one file).
 */
const bodySchemas: Record<string, object> = {
  'users.v2.create_user': createUserV2,
  'users.v2.update_user': updateUserV2,
  'policies.v1.create_policy': createPolicyV1,
  'policies.v1.update_policy': updatePolicyV1,
  'protection-groups.v1.create_protection_group': createGroupV1,
  'protection-groups.v1.update_protection_group': updateGroupV1,
  'restores.v1.create_restore': createRestoreV1,
};

// Compiled on first use: most demo sessions never write, and compiling costs start-up time.
let ajv: Ajv | undefined;
const compiled = new Map<string, ValidateFunction>();

export function hasBodySchema(key: string): boolean {
  return key in bodySchemas;
}

/** Checks a request body against its schema; a 400 `invalid_body` names the first problem's JSON pointer. */
export function validateBody(key: string, body: unknown): Record<string, unknown> {
  const schema = bodySchemas[key];
  if (!schema) {
    if (body !== undefined) throw new DemoError(400, 'invalid_body', `This operation takes no request body`);
    return {};
  }
  if (body === undefined) throw new DemoError(400, 'invalid_body', 'This operation needs a JSON request body');
  let validate = compiled.get(key);
  if (!validate) {
    ajv ??= new Ajv({ allErrors: false, strict: false });
    validate = ajv.compile(schema);
    compiled.set(key, validate);
  }
  if (!validate(body)) {
    const problem = validate.errors?.[0];
    const where = problem?.instancePath || '/';
    const allowed =
      problem?.keyword === 'enum' ? (problem.params['allowedValues'] as unknown[] | undefined) : undefined;
    const detail =
      problem?.keyword === 'additionalProperties'
        ? `unknown field '${String(problem.params['additionalProperty'])}'`
        : allowed
          ? `must be one of: ${allowed.map(String).join(', ')}`
          : (problem?.message ?? 'invalid');
    throw new DemoError(400, 'invalid_body', `Request body at ${where}: ${detail}`);
  }
  return body as Record<string, unknown>;
}
