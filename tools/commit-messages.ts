/**
 * The rule of commit messages (CONTRIBUTING.md), read by `npm run lint:commits` (tools/lint-commits.ts,
 * part of `npm run lint`) over the commits since the last tag, or the last 50: a subject of at most 72 characters in the imperative ("Add",
 * not "Added" or "Adds"), and, when there is a body, a blank line between the two. Commits from before
 * the rule (RULE_SINCE and its ancestors) are not read: their subjects were written before it.
 */
import { execFileSync } from 'node:child_process';

/** The last commit written before the rule: it and its ancestors are left as they are. */
export const RULE_SINCE = '60fc9a41dd8ae04a320d2aa9e751e4fc021b2c61';

export const MAX_SUBJECT = 72;

/** How many commits are read when there is no tag. */
const LAST_COMMITS = 50;

/** What is wrong with one commit message (its subject, its first line); empty when nothing is. */
export function messageProblems(message: string): string[] {
  const [subject = '', second] = message.replace(/\n+$/, '').split('\n');
  const problems: string[] = [];
  if (subject.trim() === '') problems.push('no subject');
  if ([...subject].length > MAX_SUBJECT)
    problems.push(`subject of ${[...subject].length} characters (at most ${MAX_SUBJECT})`);
  const first = /^[A-Za-z][\w-]*/.exec(subject)?.[0] ?? '';
  // The imperative: a verb as a command gives ("Add"), not what was done ("Added") or does ("Adds",
  // "Adding"). A word in -ss (Pass, Address) or -us (Focus) is no third person.
  if (/(ed|ing)$/i.test(first) || (/[^su]s$/i.test(first) && first.length > 3)) {
    problems.push(`"${first}" is not the imperative ("Add", not "Added", "Adds" or "Adding")`);
  }
  if (second !== undefined && second.trim() !== '') problems.push('no blank line between the subject and the body');
  return problems;
}

/** The commits to read: since the last tag, or the last 50, and none from before the rule. */
export function commitsToRead(): { hash: string; message: string }[] {
  const git = (...args: string[]) =>
    execFileSync('git', args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] });
  let range: string[];
  try {
    range = [`${git('describe', '--tags', '--abbrev=0').trim()}..HEAD`];
  } catch {
    range = ['-n', String(LAST_COMMITS), 'HEAD'];
  }
  let ruleKnown = true;
  try {
    git('cat-file', '-e', `${RULE_SINCE}^{commit}`);
  } catch {
    // A shallow clone without the rule's first commit: every commit it has was written after it.
    ruleKnown = false;
  }
  const log = git('log', '--format=%H%x00%B%x1e', ...range, ...(ruleKnown ? [`^${RULE_SINCE}`] : []));
  return log
    .split('\x1e')
    .map((entry) => entry.replace(/^\n/, ''))
    .filter((entry) => entry.includes('\0'))
    .map((entry) => {
      const [hash = '', message = ''] = entry.split('\0');
      return { hash, message };
    });
}
