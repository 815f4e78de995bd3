/**
 * Confluence's emoticons as emoji: by the storage format's `ac:name` (XML export), and by the
 * file and alt-text names its HTML export draws them with
 * (`images/icons/emoticons/check.svg`, `alt="(/)"`), which Markdown converters keep.
 */
export const EMOTICONS: Record<string, string> = {
  smile: '🙂',
  sad: '🙁',
  cheeky: '😛',
  laugh: '😀',
  wink: '😉',
  'thumbs-up': '👍',
  'thumbs-down': '👎',
  information: 'ℹ️',
  tick: '✅',
  cross: '❌',
  warning: '⚠️',
  plus: '➕',
  minus: '➖',
  question: '❓',
  'light-on': '💡',
  'light-off': '💡',
  'yellow-star': '⭐',
  'red-star': '⭐',
  'green-star': '⭐',
  'blue-star': '⭐',
  heart: '❤️',
  'broken-heart': '💔',
};

/** The HTML export's file names and wiki-markup shortcuts, by the emoticon they draw. */
const ALIASES: Record<string, string> = {
  tongue: 'cheeky',
  biggrin: 'laugh',
  thumbs_up: 'thumbs-up',
  thumbs_down: 'thumbs-down',
  check: 'tick',
  error: 'cross',
  add: 'plus',
  forbidden: 'minus',
  help_16: 'question',
  help: 'question',
  lightbulb_on: 'light-on',
  lightbulb: 'light-off',
  star_yellow: 'yellow-star',
  star_red: 'red-star',
  star_green: 'green-star',
  star_blue: 'blue-star',
  broken_heart: 'broken-heart',
  ':)': 'smile',
  ':(': 'sad',
  ':p': 'cheeky',
  ':d': 'laugh',
  ';)': 'wink',
  '(y)': 'thumbs-up',
  '(n)': 'thumbs-down',
  '(i)': 'information',
  '(/)': 'tick',
  '(x)': 'cross',
  '(!)': 'warning',
  '(+)': 'plus',
  '(-)': 'minus',
  '(?)': 'question',
  '(on)': 'light-on',
  '(off)': 'light-off',
  '(*)': 'yellow-star',
  '(*y)': 'yellow-star',
  '(*r)': 'red-star',
  '(*g)': 'green-star',
  '(*b)': 'blue-star',
  '<3': 'heart',
  '</3': 'broken-heart',
};

/** The emoji of an emoticon named any of these ways (`smile`, `check`, `(/)`, `(tick)`), or undefined. */
export function emoticonEmoji(...names: (string | undefined)[]): string | undefined {
  for (const raw of names) {
    const name = raw?.trim().toLowerCase();
    if (!name) continue;
    const bare = /^\((.+)\)$/.exec(name)?.[1];
    for (const key of [name, bare]) {
      if (!key) continue;
      const emoji = EMOTICONS[key] ?? EMOTICONS[ALIASES[key] ?? ''];
      if (emoji) return emoji;
    }
  }
  return undefined;
}
