/** An error the demo control plane answers with: an HTTP status and one entry of the `errors` envelope. */
export class DemoError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
  }
}

export interface ErrorEnvelope {
  errors: { error_code: string; error_message: string }[];
}

export function errorEnvelope(error: DemoError): ErrorEnvelope {
  return { errors: [{ error_code: error.code, error_message: error.message }] };
}
