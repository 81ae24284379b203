// What a case holds once read (har.ts reads it): its requests and what came back, its pages (the
// commands of a dpx case), the control planes whose index it recorded, and how to read a recorded body.
import type { Catalog } from '../hal/catalog.js';

/** One request of the case and what came back, as recorded; its body is read with `RecordedTrail.text`. */
export interface RecordedExchange {
  /** Position in the file's entries, from 0. */
  position: number;
  /** The page (a dpx command, a browser's page) the entry belongs to. */
  pageref?: string;
  startedAt: string;
  method: string;
  /** Normalised (`..` resolved), without any user or password. */
  url: string;
  /** Header names in lower case; repeated headers joined with ", "; credentials masked. */
  requestHeaders: Record<string, string>;
  requestBody?: string;
  /** 0 when no response arrived (refused, timed out). */
  status: number;
  statusText: string;
  responseHeaders: Record<string, string>;
  contentType: string;
  /** The case holds the whole body. */
  hasText: boolean;
  /** The case kept only the start of the body. */
  truncated: boolean;
  /** Why no response arrived, or what went wrong, as recorded. */
  error?: string;
}

/** One command of a dpx case, or one page of a browser's export. */
export interface RecordedPage {
  id: string;
  /** dpx: the command line (secrets masked); a browser: the page's title. */
  title: string;
  startedAt: string;
  endedAt?: string;
  /** dpx: the arguments after `dpx`. */
  argv?: string[];
  profile?: string;
  baseUrl?: string;
  /** dpx: the organizational unit the command ran in. */
  unit?: string;
}

/** One control plane whose discovery index the case holds. */
export interface RecordedApi {
  baseUrl: string;
  vendor: string;
  catalog: Catalog;
  /** The unit the index was first asked for in, when it was asked for in one. */
  ou?: string;
}

export interface RecordedTrail {
  source: string;
  /** Who wrote the file: `dpx 0.1.0`, `WebInspector 537.36`. */
  creator: string;
  /** The API's base URL, from the recorded discovery index. */
  baseUrl: string;
  vendor: string;
  /** The recorded index, as the catalog it describes. */
  catalog: Catalog;
  /** The header that carried the organizational unit (the default for the vendor unless told otherwise). */
  ouHeader: string;
  /** The unit the index was asked for in, when it was asked for in one. */
  ou?: string;
  /** Every control plane whose index the case holds, the one above first. */
  apis: RecordedApi[];
  /** The requests to those control planes, in the order recorded. */
  exchanges: RecordedExchange[];
  /** The commands (dpx) or pages (a browser), in the order written. */
  pages: RecordedPage[];
  /** Credentials seen in recorded headers, cookies and URLs: mask them in anything shown. */
  credentials: string[];
  /** The file ended without its tail (a trail of an earlier dpx, killed): whether a torn last entry was dropped. */
  repaired?: { droppedTornEntry: boolean };
  warnings: string[];
  /** A recorded body, read from the file when asked; undefined when the case holds none, or only its start. */
  text(exchange: RecordedExchange): Promise<string | undefined>;
}

export interface TrailOptions {
  /** The organizational-unit header's name, when it is not the vendor's default. */
  ouHeader?: string;
}
