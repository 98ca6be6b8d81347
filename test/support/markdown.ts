/**
 * Reads the fenced code blocks of a Markdown page, for the tests that run a page's commands as
 * written (the README, the tutorials).
 */

/** FencedBlock is one ``` block: its language tag, the nearest heading above it and its lines. */
export interface FencedBlock {
  /** The tag after the opening fence (`sh`, `text`, `ts`; '' when there is none). */
  lang: string;
  heading: string;
  lines: string[];
}

/** fencedBlocks lists the fenced blocks of `markdown`, in order. */
export function fencedBlocks(markdown: string): FencedBlock[] {
  const blocks: FencedBlock[] = [];
  let heading = '';
  let open: FencedBlock | undefined;
  for (const line of markdown.split('\n')) {
    if (open) {
      if (line.startsWith('```')) {
        blocks.push(open);
        open = undefined;
      } else open.lines.push(line);
    } else if (line.startsWith('```')) open = { lang: line.slice(3).trim(), heading, lines: [] };
    else if (line.startsWith('#')) heading = line.replace(/^#+\s*/, '');
  }
  return blocks;
}
