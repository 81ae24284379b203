// A request body checked against the schema dpx ships for its operation. Its validators are a module of
// their own (body-validators.generated.ts): only a command or screen that sends a body loads them.
import { bodyValidatorsByFile } from './body-validators.generated.js';
import { bodyFile, describeSchemaErrors, type Validator } from './schemas.js';

const validators = bodyValidatorsByFile as Record<string, Validator>;

/** The check of a body against the schema dpx ships for the operation; undefined when it ships none. */
export function bodyCheckFor(
  resource: string,
  version: string,
  operationId: string,
): ((body: unknown) => string[]) | undefined {
  const validator = validators[bodyFile(resource, version, operationId)];
  return validator
    ? (body) => (validator(body) ? [] : describeSchemaErrors(validator.errors ?? [], 'body'))
    : undefined;
}
