// The document `dpx count … -o json` prints, as the tests that read it over HTTP see it.

export interface CountRow {
  profile: string | null;
  base_url: string;
  ou: string | null;
  ou_name: string | null;
  ou_path: string[];
  depth: number;
  counts: Record<string, number | null>;
  other: number | null;
  total: number | null;
  counted: boolean;
  changed_while_counting: boolean;
  error: string | null;
}

export interface CountDocument {
  by: string | null;
  columns: string[];
  values: { given: boolean; schema: boolean; pages_read: number; every_page: boolean; may_be_missing: boolean } | null;
  rows: CountRow[];
  requests: number;
  plan: { chosen: string; verification: string | null };
}
