// Compiles a JSON schema that dpx does not ship (a profile's schema folder) into a body check. Loaded
// only when such a schema is read: ajv's compiler costs tens of milliseconds that no start-up should pay.
import { Ajv } from 'ajv';
import ajvFormats from 'ajv-formats';
import { describeSchemaErrors, type Validator } from './schemas.js';

// ajv-formats is CommonJS: depending on the loader, the default import is the plugin or its module object.
const addFormats = (typeof ajvFormats === 'function' ? ajvFormats : (ajvFormats as { default: unknown }).default) as (
  ajv: Ajv,
) => void;

export function compileBodyCheck(schema: object): (body: unknown) => string[] {
  const ajv = new Ajv({ allErrors: true, strict: false });
  addFormats(ajv);
  const validator = ajv.compile(schema) as Validator;
  return (body) => (validator(body) ? [] : describeSchemaErrors(validator.errors ?? [], 'body'));
}
