'use strict';
// Deterministic generator of realistic wiki pages: Markdown of several KB with headings,
// paragraphs, lists, task lists, code, tables, links to other pages, tags and a few rare
// words (code names, error codes) so that search has both rare and very common terms.

const COMMON =
  `the of and to a in is that for it as with was on be by this are or from at an have not which
you but can all will has one their more if there when use also new other may been these each any
into only should some than what about them most such its time how then out first must after before
while where because both over same see need make used using under through between without every
well however since still just like very many need within during against each system data page
service team user users process change changes access support update review note example set work
time information following example current version default server request`.split(/\s+/);

const DOMAIN =
  `deploy deployment release pipeline build cluster node database backup restore migration schema
index query cache latency throughput incident runbook alert monitoring dashboard metric log logs trace
config configuration secret token certificate network firewall proxy gateway endpoint api client
customer invoice billing payment account subscription plan report export import audit compliance
policy security encryption password rotation onboarding offboarding laptop vpn printer office
meeting agenda roadmap milestone sprint backlog ticket issue bug fix patch hotfix rollback canary
staging production environment region availability replica shard partition queue worker job cron
scheduler storage bucket volume snapshot retention archive document template checklist owner
reviewer approval workflow escalation oncall handover postmortem timeline impact mitigation root
cause action items service level objective budget forecast vendor contract license renewal
kubernetes docker terraform ansible nginx postgres mysql redis kafka elasticsearch grafana prometheus
python typescript golang java rust bash script library package dependency upgrade`.split(/\s+/);

const TAGS =
  `ops runbook security onboarding billing infra networking database incident howto policy hr
finance legal frontend backend mobile api release planning architecture decision testing qa support
customer compliance data analytics ml platform observability storage identity access devex docs
internal external draft archive meeting process tooling vendor budget roadmap design`.split(/\s+/);

const SECTIONS = [
  'Overview',
  'Background',
  'Prerequisites',
  'Steps',
  'Configuration',
  'Troubleshooting',
  'Rollback',
  'Monitoring',
  'Ownership',
  'References',
  'Open questions',
  'Decision',
  'Consequences',
  'FAQ',
];
const LANGS = ['bash', 'yaml', 'ts', 'sql', 'json', 'python'];

/**
 * Text without spaces between words, for the CJK search rows: Article 1 of the UDHR in Chinese,
 * Japanese and Korean (test/fixtures/search/udhr-article-1.json, source and licence there).
 * One page in CJK_EVERY gets one of them as a paragraph, chosen by the page's index (the
 * generator's random sequence, and so every other page, stays as it was).
 */
const UDHR = require('../test/fixtures/search/udhr-article-1.json').texts;
const CJK_TEXTS = [UDHR.zh, UDHR.ja, UDHR.ko];
const CJK_EVERY = 20;

/** mulberry32: small, fast, deterministic. */
function prng(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const SYLLABLES = [
  'ka',
  'zu',
  'mi',
  'tor',
  'vex',
  'lin',
  'qua',
  'dro',
  'pel',
  'nix',
  'sor',
  'yam',
  'bri',
  'gho',
  'fen',
  'ulm',
];

/** Rare words: code names and error codes, each used by a handful of pages. */
function rareWords(count, random) {
  const words = new Set();
  while (words.size < count) {
    const n = 2 + Math.floor(random() * 3);
    let w = '';
    for (let i = 0; i < n; i++) w += SYLLABLES[Math.floor(random() * SYLLABLES.length)];
    words.add(random() < 0.3 ? `${w}${Math.floor(random() * 900 + 100)}` : w);
  }
  return [...words];
}

class Corpus {
  constructor(seed = 42, rareCount = 20000) {
    this.random = prng(seed);
    this.vocabulary = [...COMMON, ...DOMAIN];
    this.rare = rareWords(rareCount, prng(seed + 1));
    // Zipf weights: the r-th word is 1/r as likely as the first.
    const weights = this.vocabulary.map((_, r) => 1 / (r + 1));
    const total = weights.reduce((a, b) => a + b, 0);
    let acc = 0;
    this.cumulative = weights.map((w) => (acc += w / total));
  }

  pick(list) {
    return list[Math.floor(this.random() * list.length)];
  }

  word() {
    if (this.random() < 0.01) return this.pick(this.rare);
    const x = this.random();
    let lo = 0;
    let hi = this.cumulative.length - 1;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (this.cumulative[mid] < x) lo = mid + 1;
      else hi = mid;
    }
    return this.vocabulary[lo];
  }

  sentence(min = 6, max = 18) {
    const n = min + Math.floor(this.random() * (max - min));
    const words = [];
    for (let i = 0; i < n; i++) words.push(this.word());
    if (this.random() < 0.2) words[Math.floor(this.random() * n)] = `**${this.word()}**`;
    if (this.random() < 0.2) words[Math.floor(this.random() * n)] = `\`${this.word()}\``;
    const s = words.join(' ');
    return s[0].toUpperCase() + s.slice(1) + '.';
  }

  paragraph(links) {
    const n = 3 + Math.floor(this.random() * 4);
    const sentences = [];
    for (let i = 0; i < n; i++) sentences.push(this.sentence());
    if (links.length > 0 && this.random() < 0.6) {
      const target = this.pick(links);
      sentences.push(`See [${target.title}](/${target.slug}) for details.`);
    }
    return sentences.join(' ');
  }

  title() {
    const n = 3 + Math.floor(this.random() * 4);
    const words = [];
    for (let i = 0; i < n; i++) words.push(this.random() < 0.5 ? this.pick(DOMAIN) : this.word());
    if (this.random() < 0.3) words.push(this.pick(this.rare));
    const t = words.join(' ');
    return t[0].toUpperCase() + t.slice(1);
  }

  /**
   * One page: `index` makes the slug unique; `links` are {slug, title} of earlier pages.
   * `targetBytes` is roughly the Markdown size.
   */
  page(index, links = [], targetBytes = 4000) {
    const title = this.title();
    const space = this.pick(['eng', 'ops', 'people', 'product', 'finance', 'security', 'support']);
    const slug = `${space}/${this.pick(DOMAIN)}/${title
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, '-')
      .replace(/^-|-$/g, '')
      .slice(0, 60)}-${index}`;
    const parts = [this.paragraph(links)];
    while (parts.join('\n\n').length < targetBytes) {
      parts.push(`## ${this.pick(SECTIONS)}`);
      parts.push(this.paragraph(links));
      const kind = this.random();
      if (kind < 0.3) {
        const items = [];
        for (let i = 0; i < 3 + Math.floor(this.random() * 4); i++)
          items.push(`- ${this.sentence(3, 9)}`);
        parts.push(items.join('\n'));
      } else if (kind < 0.45) {
        const items = [];
        for (let i = 0; i < 3; i++)
          items.push(`- [${this.random() < 0.5 ? 'x' : ' '}] ${this.sentence(3, 7)}`);
        parts.push(items.join('\n'));
      } else if (kind < 0.65) {
        const lines = [];
        for (let i = 0; i < 4 + Math.floor(this.random() * 6); i++)
          lines.push(`${this.word()}_${this.word()} = "${this.word()}-${i}"`);
        parts.push(`\`\`\`${this.pick(LANGS)}\n${lines.join('\n')}\n\`\`\``);
      } else if (kind < 0.8) {
        const rows = ['| Name | Owner | Status |', '|---|---|---|'];
        for (let i = 0; i < 3 + Math.floor(this.random() * 4); i++)
          rows.push(
            `| ${this.word()} ${this.word()} | ${this.word()} | ${this.pick(['ok', 'todo', 'blocked'])} |`,
          );
        parts.push(rows.join('\n'));
      } else {
        parts.push(`> ${this.sentence()}`);
      }
    }
    const tags = [
      ...new Set(
        [this.pick(TAGS), this.pick(TAGS), this.pick(TAGS)].slice(
          0,
          1 + Math.floor(this.random() * 3),
        ),
      ),
    ];
    if (index % CJK_EVERY === 7) parts.push(CJK_TEXTS[Math.floor(index / CJK_EVERY) % 3]);
    return { slug, title, content: `${parts.join('\n\n')}\n`, tags };
  }
}

module.exports = { Corpus, COMMON, DOMAIN, TAGS, CJK_EVERY, prng };
