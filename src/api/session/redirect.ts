// A redirect followed within the session's origin: never to another origin (the token would follow it),
// at most MAX_REDIRECTS times, and a 303 (or a 301/302 answering a POST) continues as a GET.
import { ProtocolError, SafetyError } from '../errors.js';
import { serverUrl } from '../hal/links.js';

const MAX_REDIRECTS = 5;
const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308]);

export interface RedirectStep {
  url: string;
  /** The request becomes a GET without a body. */
  asGet: boolean;
}

/** Where an answer redirects to, or undefined when it is not a redirect to follow. */
export function redirectStep(
  answer: { status: number; headers: Record<string, string> },
  from: { url: string; method: string; origin: string; redirects: number },
): RedirectStep | undefined {
  const location = answer.headers['location'];
  if (!REDIRECT_STATUSES.has(answer.status) || !location) return undefined;
  const target = serverUrl(location, from.url);
  if (target.origin !== from.origin) {
    throw new SafetyError(
      `refused to follow a redirect from ${from.origin} to ${target.origin}`,
      "the token is only ever sent to the control plane it was issued for; use that control plane's base URL directly",
    );
  }
  if (from.redirects + 1 > MAX_REDIRECTS)
    throw new ProtocolError(`more than ${MAX_REDIRECTS} redirects from ${from.url}`, 'the server redirects in a loop');
  const asGet = answer.status === 303 || ((answer.status === 301 || answer.status === 302) && from.method === 'POST');
  return { url: target.toString(), asGet };
}
