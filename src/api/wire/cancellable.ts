// One attempt's way to be given up on (its timeout, or the caller cancelling), at whatever stage it is:
// waiting for a connection, waiting for the answer, or reading it. Destroying the request closes its
// connection, so nothing of a given-up request goes on arriving.

/** The part of a request being sent that giving it up needs (Node's ClientRequest has it). */
interface Destroyable {
  destroy(error: Error): unknown;
}

export class Cancellable {
  private request: Destroyable | undefined;
  private reasonGiven: Error | undefined;

  /** Why the attempt was given up on; undefined while it goes on. */
  get reason(): Error | undefined {
    return this.reasonGiven;
  }

  /** The request this attempt sends: destroyed at once when the attempt is already given up on. */
  attach(request: Destroyable): void {
    this.request = request;
    if (this.reasonGiven) request.destroy(this.reasonGiven);
  }

  /** Gives the attempt up: its request, if any yet, fails with `reason`. */
  cancel(reason: Error): void {
    if (this.reasonGiven) return;
    this.reasonGiven = reason;
    this.request?.destroy(reason);
  }
}
