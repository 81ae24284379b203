// The lightest GET of JSON a Node program can make: node:http over one kept-alive agent, no fetch (whose
// undici costs more CPU per request and time to load). The baselines of the export and the count use it.
import http from 'node:http';

const agent = new http.Agent({ keepAlive: true, maxSockets: 64 });

/** GETs `url` with `headers` and resolves with the parsed JSON body; a non-2xx status rejects. */
export function getJson(url, headers) {
  return new Promise((resolve, reject) => {
    const request = http.get(url, { agent, headers }, (response) => {
      const chunks = [];
      response.on('data', (chunk) => chunks.push(chunk));
      response.on('end', () => {
        if (response.statusCode < 200 || response.statusCode >= 300)
          return reject(new Error(`HTTP ${response.statusCode} from ${url}`));
        try {
          resolve(JSON.parse(Buffer.concat(chunks).toString('utf8')));
        } catch (error) {
          reject(error);
        }
      });
      response.on('error', reject);
    });
    request.on('error', reject);
  });
}

/** Ends the agent's kept-alive sockets, so the process can exit. */
export function closeAgent() {
  agent.destroy();
}
