// A problem as the error panel shows it: made by nav/problems.ts from what failed, laid out by layout.ts,
// drawn by components/Panel.tsx. Its own module, below all three, so that none imports another for it.

export interface ErrorInfo {
  title: string;
  status?: number;
  lines: string[];
  hint?: string;
  tone: 'error' | 'warning';
}
