/**
 * An eval's summary for the terminal (tier means, the language matrix, the CJK lane per language,
 * the preset order), printed by its task with the suite's name in front. Vitest relays an eval's
 * console line under a header naming a test, and for concurrent evals that header names the test
 * that started last, not the one that printed: the CJK lane's ja and ko lines came under "CJK lane
 * [zh-hans]". So the line names its suite itself (`pnpm eval` drops the header:
 * helpers/evalite-terminal.ts). A summary of several lines starts on the line after the name.
 */
export function summaryText(suite: string, text: string): string {
  return text.includes("\n") ? `${suite}:\n${text}` : `${suite}: ${text}`;
}

export function logSummary(suite: string, text: string): void {
  console.log(summaryText(suite, text));
}
