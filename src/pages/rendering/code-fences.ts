/** An opening code fence (CommonMark §4.5): up to three spaces, then 3+ backticks or tildes. */
const FENCE = /^ {0,3}(`{3,}|~{3,})/;

/**
 * Follows fenced code through Markdown read line by line, for the text scanners that must
 * leave code alone. The returned function answers, for each line in order, whether it belongs
 * to fenced code (an opening fence, a line inside, or the closing fence). A fence closes only
 * on a line holding nothing but a run of the same character at least as long as the opener;
 * an unclosed fence runs to the end.
 */
export function codeFenceTracker(): (line: string) => boolean {
  let fence: string | undefined;
  return (line) => {
    const match = FENCE.exec(line);
    if (fence) {
      if (
        match &&
        match[1][0] === fence[0] &&
        match[1].length >= fence.length &&
        line.trim() === match[1]
      )
        fence = undefined;
      return true;
    }
    if (match) {
      fence = match[1];
      return true;
    }
    return false;
  };
}
