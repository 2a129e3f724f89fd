// The administrator's plain text for a page (Privacy Policy, Terms) as blocks to render as React
// elements, never as HTML: a blank line ends a paragraph, a line starting with "## " is a heading,
// lines starting with "- " are the items of a list. A line break inside a paragraph is kept.
export type TextBlock =
  { kind: 'heading'; text: string } | { kind: 'paragraph'; lines: string[] } | { kind: 'list'; items: string[] };

export function textBlocks(text: string): TextBlock[] {
  const blocks: TextBlock[] = [];
  let open: TextBlock | null = null;
  for (const raw of text.replace(/\r\n?/g, '\n').split('\n')) {
    const line = raw.trim();
    if (!line) {
      open = null;
    } else if (line.startsWith('## ')) {
      blocks.push({ kind: 'heading', text: line.slice(3).trim() });
      open = null;
    } else if (line.startsWith('- ')) {
      if (open?.kind !== 'list') blocks.push((open = { kind: 'list', items: [] }));
      open.items.push(line.slice(2).trim());
    } else if (open?.kind === 'paragraph') {
      open.lines.push(line);
    } else {
      blocks.push((open = { kind: 'paragraph', lines: [line] }));
    }
  }
  return blocks;
}
