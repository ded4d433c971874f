/**
 * `npm run lint:commits` (part of `npm run lint`): every commit since the last tag, or of the last 50,
 * written since the rule, follows CONTRIBUTING.md (tools/commit-messages.ts); exits 1 naming those
 * that do not.
 */
import { commitsToRead, messageProblems } from './commit-messages';

const found = commitsToRead().flatMap(({ hash, message }) =>
  messageProblems(message).map((problem) => `${hash.slice(0, 7)} ${message.split('\n')[0]}\n  ${problem}`),
);
if (found.length > 0) {
  console.error(`Commit messages that do not follow CONTRIBUTING.md:\n${found.join('\n')}`);
  process.exit(1);
}
