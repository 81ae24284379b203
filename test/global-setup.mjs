// Before any test file: the precompiled schema validators (src/api/hal/schema-validators.generated.ts),
// which the build writes and nothing commits. `npm test` builds first; `npx vitest run FILE` on a fresh
// clone does not, and no install script writes them any more.
import { writeSchemaModule } from '../scripts/generate-schemas.mjs';

export default function setup() {
  writeSchemaModule();
}
