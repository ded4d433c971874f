/**
 * The rule of commit messages (tools/commit-messages.ts, CONTRIBUTING.md): a subject of at most 72
 * characters in the imperative, a blank line before the body; and this repository's commits since
 * the rule follow it.
 */
import { commitsToRead, MAX_SUBJECT, messageProblems } from '../../tools/commit-messages';

test('a subject in the imperative of at most 72 characters, and a body after a blank line, pass', () => {
  expect(messageProblems('Add the events list')).toEqual([]);
  expect(messageProblems('Pass the fault through\n\nWhy it matters.\nMore.\n')).toEqual([]);
  expect(messageProblems(`Fix ${'x'.repeat(MAX_SUBJECT - 4)}`)).toEqual([]);
  expect(messageProblems('Focus the field; Address it')).toEqual([]);
});

test('a long subject, a past tense or third person, a body without its blank line, no subject: refused', () => {
  expect(messageProblems(`Fix ${'x'.repeat(MAX_SUBJECT - 3)}`)).toEqual(['subject of 73 characters (at most 72)']);
  for (const word of ['Added', 'Adds', 'Adding']) {
    expect(messageProblems(`${word} the events list`)).toEqual([
      `"${word}" is not the imperative ("Add", not "Added", "Adds" or "Adding")`,
    ]);
  }
  expect(messageProblems('Add the list\nbecause it was missing')).toEqual([
    'no blank line between the subject and the body',
  ]);
  expect(messageProblems('')).toContain('no subject');
  // The style before the rule: a file name and a sentence of 152 characters.
  expect(
    messageProblems(
      "once-per-batch.test: a client's webhooks read once a batch, each client apart, afresh in each batch; a failed read not kept (the next event reads again)",
    ),
  ).toEqual(['subject of 152 characters (at most 72)']);
});

test("this repository's commits since the rule follow it", () => {
  const problems = commitsToRead().flatMap(({ hash, message }) =>
    messageProblems(message).map((problem) => `${hash.slice(0, 7)}: ${problem}`),
  );
  expect(problems).toEqual([]);
});
