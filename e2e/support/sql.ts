import { execFileSync } from 'node:child_process';
import { binaryPath } from './server';

/**
 * Runs SQL on a test's database beside the running server, through `perkdesk sql`: the sort
 * indexes are built in perkdesk's `az` collation, which the sqlite3 shell does not have. All the
 * statements in one transaction; returns the rows printed as `a|b|c` lines.
 */
export function runSql(dbPath: string, sql: string): string {
  return execFileSync(binaryPath(), ['sql', '--db', dbPath, sql], { encoding: 'utf8' });
}
