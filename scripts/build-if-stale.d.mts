export interface BuildTarget {
  name: string;
  cwd: string;
  sources: string[];
  stamp: string;
  command: string[];
  writesStamp?: boolean;
}

export const ROOT: string;
export const TARGETS: BuildTarget[];
export function newestChange(path: string): number;
export function isStale(target: BuildTarget, root?: string): boolean;
export function buildIfStale(targets?: BuildTarget[], root?: string, log?: (line: string) => void): string[];
