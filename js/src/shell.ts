/** Command lines as the suite's `exec:` spec reads them (POSIX shell words, no shell run). */

const PLAIN = /^[A-Za-z0-9_@%+=:,./-]+$/;

/** `word` quoted for a POSIX shell (and for an `exec:` spec): as is when plain, else in single quotes. */
export function shellQuote(word: string): string {
  if (PLAIN.test(word)) return word;
  return "'" + word.replace(/'/g, `'"'"'`) + "'";
}

/** The words joined into one command line (Python's shlex.join). */
export function shellJoin(words: readonly string[]): string {
  return words.map(shellQuote).join(" ");
}

/**
 * A command line split into words as a POSIX shell would, without running
 * one: whitespace separates, '...' and "..." group, \ escapes. Throws a
 * TypeError for an unterminated quote.
 */
export function shellSplit(line: string): string[] {
  const words: string[] = [];
  let word = "";
  let inWord = false;
  for (let i = 0; i < line.length; i++) {
    const c = line[i] as string;
    if (c === "'") {
      const end = line.indexOf("'", i + 1);
      if (end < 0) throw new TypeError(`unterminated ' in ${JSON.stringify(line)}`);
      word += line.slice(i + 1, end);
      inWord = true;
      i = end;
    } else if (c === '"') {
      inWord = true;
      let j = i + 1;
      for (; j < line.length && line[j] !== '"'; j++) {
        if (line[j] === "\\" && j + 1 < line.length && '"\\$`\n'.includes(line[j + 1] as string)) j++;
        word += line[j];
      }
      if (j >= line.length) throw new TypeError(`unterminated " in ${JSON.stringify(line)}`);
      i = j;
    } else if (c === "\\" && i + 1 < line.length) {
      word += line[++i];
      inWord = true;
    } else if (/\s/.test(c)) {
      if (inWord) words.push(word);
      word = "";
      inWord = false;
    } else {
      word += c;
      inWord = true;
    }
  }
  if (inWord) words.push(word);
  return words;
}
