/** Types of markdown.js, for its test (the dashboard's modules are plain JS). */
export function inline(text: string): unknown[];
export function Markdown(props: { text: string }): unknown[];
