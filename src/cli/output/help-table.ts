/**
 * A two-column table for a command's --help (a name, then what it is), its text wrapped so that
 * no line is wider than a terminal of 100 columns: a long description goes on under itself.
 */

/** The widest a line of help may be. */
export const HELP_WIDTH = 100;

/** `  name  text` rows, the texts in one column after the longest name, each wrapped at `HELP_WIDTH`. */
export function helpTable(rows: ReadonlyArray<readonly [name: string, text: string]>): string {
  const column = 2 + Math.max(0, ...rows.map(([name]) => name.length)) + 2;
  return rows.map(([name, text]) => `  ${name.padEnd(column - 4)}  ${wrapWords(text, HELP_WIDTH - column).join(`\n${" ".repeat(column)}`)}`).join("\n");
}

/** `text` in lines of at most `width` characters, broken between words (a longer word stands alone). */
function wrapWords(text: string, width: number): string[] {
  const lines: string[] = [];
  let line = "";
  for (const word of text.split(" ")) {
    if (line !== "" && line.length + 1 + word.length > width) {
      lines.push(line);
      line = word;
    } else line = line === "" ? word : `${line} ${word}`;
  }
  lines.push(line);
  return lines;
}
