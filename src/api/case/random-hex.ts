// Random hex for names that must not collide between processes (temporary files, a trail's page id).
// From the global Web Crypto object, which Node loads on first use: a static import of node:crypto cost
// ≈ 4 ms of every command's start, and most commands never name a file.

/** `bytes` random bytes as lower-case hex. */
export function randomHex(bytes: number): string {
  return Buffer.from(globalThis.crypto.getRandomValues(new Uint8Array(bytes))).toString('hex');
}
