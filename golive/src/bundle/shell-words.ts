/** A command line as a POSIX shell reads it back: a word with a space or a quote in it single-quoted. */
export const shellWord = (text: string) =>
  /^[\w@%+=:,./-]+$/.test(text) ? text : `'${text.replaceAll("'", `'\\''`)}'`;

export const shellLine = (words: readonly string[]) => words.map(shellWord).join(' ');
