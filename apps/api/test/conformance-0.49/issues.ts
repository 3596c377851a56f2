interface Issue {
  path: PropertyKey[];
  code: string;
  message?: string;
  /** An `invalid_union`'s issues, one list per member tried. */
  errors?: Issue[][];
}

/** One line per issue, a union's members' issues indented under it. */
function describeIssues(issues: Issue[], depth = 0): string[] {
  return issues.flatMap((issue) => [
    `${'  '.repeat(depth)}${issue.path.map(String).join('.')}: ${issue.code} ${issue.message ?? ''}`,
    ...(issue.errors ?? []).flatMap((member, i) => [
      `${'  '.repeat(depth + 1)}member ${i}:`,
      ...describeIssues(member, depth + 2),
    ]),
  ]);
}

/**
 * Runs an SDK call; a ResponseValidationError is rethrown with the zod issues of its `cause` in the
 * message, so a failing conformance test says which field is off.
 */
export async function withZodIssues<T>(call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (error) {
    const issues = (error as { cause?: { issues?: Issue[] } }).cause?.issues;
    if (!issues) throw error;
    throw new Error(`${(error as Error).message}\n${describeIssues(issues).join('\n')}`, { cause: error });
  }
}
