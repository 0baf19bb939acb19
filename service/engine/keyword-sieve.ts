// The engine's one pass over a diff: which lines may contain one of the rules' keywords.
//
// A regex alternation of ~150 keywords costs V8 about 10 ns a character; this costs about one
// (a single-keyword regex, the benchmark's baseline, costs about as much). The text is read as bytes (Latin-1, so byte offset = string index) in 4-byte blocks at
// every even offset, and each block is looked up in a hash set. For every keyword and each
// parity of its start, the set holds one block that an occurrence there must produce: a block
// inside the keyword, or one that overlaps it by three characters and has any byte in the fourth
// place (256 entries). Of the possible blocks the rarest in source code is chosen, so that few
// blocks are found by accident; a found block is checked against the keywords it stands for.

/**
 * How rare a block is in source code, from character statistics of JavaScript and TypeScript
 * (node_modules sources and this repository): costs in half-bits (-2·log2 of the probability),
 * base 36. CHAR_COST: each of ASCII 32..126 on its own. PAIR_COST: the 400 most frequent pairs
 * (76% of all), each followed by the cost of its second character after its first.
 * Made by test/bench/sieve-cost-tables.ts (which also checks them); they steer speed, not results.
 */
const CHAR_COST = '4kfnkpjeccgjdgcehhikklkmklfeldiklgighgilkgmliiihhlhggjklonmhjhqgiafbc8dddaigbd9aci998bffgejejeu';
const PAIR_COST_TABLE =
  '  2on4re4er6st5in4, 1es7 =at 6th6or5te6 ta= 1e 7en7ti6at5 {bse6et7de4co4al6 cbis6nt6ns6: 1 ible5ar6ro7) 3io6 }bn 6 rbs 7ct5s.7pe4he4);4 (ctr8 aced9ri7it7 scas7ng7me4nd7ur5ta8ra8 fcec9rt8od7ue6ex9ne8hi5an8if8ch6f 5li6nc8un6to9po6r 8 edd 6rr8pa6==4rn8 ndtu9am8ge4 \'d od pdma5ce7t.9ul6ss8//3 *dut6eaafi5il8ve3yp4op9 "eac9va3rs9om9ca7ll7tyae.b--2()6e(bemb deelbpt7qu0na9* 2tsaefbou9la8lo8ke3pr7t(ano9lu8si9 befo6 /e vead9/ 5ic9xp3id9Re2suafa7 lfha7eqbota})5y 5ieamp7 mfsoa> 1Co3.s7lt8e,cus8ola\',5fu7imae)cpl8owa{ 5))7.p8iga wf ufnuah 7apaagaosaaiadi8ira} 6ck9ls9St4.c8\\u1In4xt4s)bje2scb=>7e:c\')6ofbr(b.t8w 5",5ryb(t8t,cm 8eydum9(\'8be5o bmi8rubho8ewda bPa3pu9da9g 7ld9bj6ocbepds,bl a.a9aybokbshb hg 0gPr4spbclan(bui9izbcrar.cttcTy5nibbl6t)ciab |h] 4gi8abbrmc(e9rgcl(a +hze2rccoocEr5),9.e9 [h.i9 `hwa6.l9(c9gt8).9nfc 1h| 3uaa(p9auc(r9tcd(s9..9fe9bo7&&2.r9/*7*/5fr9 Thobc @hId5 &hvi6mo9sac gheveppa")7${2doabu7ff9s(c !hs:cwi6 Shba7r)djs4mb9y.8(i9},8ms9& 3+ 3t:de;eyn8.da||3 -hivc("a.oadsaeee _ilybMa4y(8 ?i**6d.b};8 ki.maoidogd? 2d,begeAr7r,dd)bNa5piaupbcubTo6hraDe5ePf Ci\' 8./a006fya__60,6({aawds[dc b Iirdd AiuDbn.dipd._bEx7(nags9syd!=3rld $iOp5Va3ddbd(bnpdeofSe7nvdh(agn9";8 :iLi4wo7.fbZo1Ob5Fi5(fa. btpe';
/** A pair not in the table is rarer than the rarest one there (p = 0.0004), by a margin. */
const UNLISTED_PAIR = 26;
const pairCost = new Map<string, number>();
for (let i = 0; i + 2 < PAIR_COST_TABLE.length; i += 3)
  pairCost.set(PAIR_COST_TABLE.slice(i, i + 2), parseInt(PAIR_COST_TABLE[i + 2]!, 36));

function charCost(code: number): number {
  if (code >= 32 && code < 127) return parseInt(CHAR_COST[code - 32]!, 36);
  return code === 10 ? 11 : 40;
}

/**
 * Words source code is full of. A pair model cannot see that "unct" is frequent (function) while
 * its pairs are not: a block inside one of these counts as common whatever the model says.
 */
const COMMON_WORDS = (
  'function const return import export default this that true false null undefined await async string number ' +
  'boolean object array value type options option error name index length result response request data file path ' +
  'line text token access context content table test only describe expect before after extends class interface ' +
  'module require process exit start create update delete read write list item message source target event params ' +
  'args config state status code version node child parent input output secret account execute format match parse ' +
  'replace split slice join push call apply then catch throw else case break while filter find includes info debug ' +
  'warn trace window document element query select search header body method public private protected static ' +
  'readonly void unknown never promise resolve reject buffer stream signal timeout credential authentication ' +
  'authorization property properties instance service client server'
).split(' ');

/** Every piece of one to four characters of a common word: what rarity() asks about, in one lookup. */
const COMMON_PIECES = new Set(
  COMMON_WORDS.flatMap((word) =>
    Array.from(word, (_, start) => [1, 2, 3, 4].map((length) => word.slice(start, start + length))).flat(),
  ),
);

function isInCommonWord(block: string): boolean {
  return COMMON_PIECES.has(block);
}

/** What a block inside a common word loses of its rarity. */
const COMMON_WORD_PENALTY = 30;

/** The cost of `text` under a first-order Markov model of source code: higher is rarer. */
function rarity(text: string): number {
  let cost = isInCommonWord(text) ? -COMMON_WORD_PENALTY : 0;
  cost += charCost(text.charCodeAt(0));
  for (let i = 1; i < text.length; i++) {
    cost += pairCost.get(text.slice(i - 1, i + 1)) ?? Math.max(4, UNLISTED_PAIR - charCost(text.charCodeAt(i - 1)));
  }
  return cost;
}

/**
 * What a block that reaches past its keyword loses of its rarity (half-bits): it takes 256 table
 * entries (any byte there), and hundreds of keywords with such blocks double the table, which
 * then no longer stays in the cache. 8 keeps the table of ~1,000 keywords at the size of ~200.
 */
const EDGE_PENALTY = 8;

/** Multipliers of the three hashes of a block: the table's two halves and the filter. */
const HASH = 0x9e3779b1;
const HASH_2 = 0x85ebca6b;
const HASH_FILTER = 0x2545f491;
/** log2 of the filter's size in bits (128 KiB): about one block in sixty passes it. */
const FILTER_BITS = 20;

export class KeywordSieve {
  readonly keywords: readonly string[];
  /**
   * The blocks, in a cuckoo hash table of two halves: a block is at its slot in the first half
   * or at its slot in the second, so a lookup is two loads and no loop (a probing loop costs
   * several times more here: its branches cannot be predicted).
   */
  private readonly first: Int32Array;
  private readonly second: Int32Array;
  /** For each slot: where its block's postings start in `postings`, or -1. */
  private readonly firstPostings: Int32Array;
  private readonly secondPostings: Int32Array;
  /** Per block: a count, then that many (keyword index, offset of the block in the keyword) pairs. */
  private readonly postings: Int32Array;
  private readonly shift: number;
  /** A bit set where some block hashes to: one load rejects most blocks before the two of the table. */
  private readonly filter: Int32Array;
  private readonly scratch: ScanScratch;

  /** `scratch`: the bytes a scan reads the text into, shared by the sieves of one engine. */
  constructor(keywords: Iterable<string>, scratch = new ScanScratch()) {
    this.scratch = scratch;
    this.keywords = [...new Set(keywords)].sort();
    // Each (block, keyword, offset) entry, chained per block (tens of thousands of entries, most
    // from blocks that reach past their keyword: one array per block would cost more than the rest).
    const blocks = this.keywords.map(blocksOf);
    const size = blocks.reduce((sum, both) => sum + both[0]!.values.length + both[1]!.values.length, 0);
    const entryKeyword = new Int32Array(size);
    const entryAt = new Int32Array(size);
    const entryNext = new Int32Array(size);
    // Blocks by their order of first appearance: their value, their last entry, their entry count.
    const ordinalOf = new Map<number, number>();
    const blockValue = new Int32Array(size);
    const lastEntry = new Int32Array(size);
    const entryCount = new Int32Array(size);
    let e = 0;
    blocks.forEach((both, index) => {
      for (const { at, values } of both) {
        for (const block of values) {
          let b = ordinalOf.get(block);
          if (b === undefined) {
            b = ordinalOf.size;
            ordinalOf.set(block, b);
            blockValue[b] = block;
            lastEntry[b] = -1;
          }
          entryKeyword[e] = index;
          entryAt[e] = at;
          entryNext[e] = lastEntry[b]!;
          lastEntry[b] = e++;
          entryCount[b]!++;
        }
      }
    });
    // Per block: a count, then its (keyword, offset) pairs in the order they were added.
    const distinct = blockValue.subarray(0, ordinalOf.size);
    const postingAt = new Int32Array(distinct.length);
    this.postings = new Int32Array(distinct.length + 2 * size);
    let p = 0;
    for (let b = 0; b < distinct.length; b++) {
      const count = entryCount[b]!;
      postingAt[b] = p;
      this.postings[p] = count;
      let at = p + 2 * count - 1;
      for (let entry = lastEntry[b]!; entry >= 0; entry = entryNext[entry]!, at -= 2) {
        this.postings[at] = entryKeyword[entry]!;
        this.postings[at + 1] = entryAt[entry]!;
      }
      p += 1 + 2 * count;
    }
    this.filter = new Int32Array(1 << (FILTER_BITS - 5));
    for (const block of distinct) {
      const bit = Math.imul(block, HASH_FILTER) >>> (32 - FILTER_BITS);
      this.filter[bit >>> 5]! |= 1 << (bit & 31);
    }
    // Each half at most half full: small enough for the cache, and cuckoo insertion still easy.
    let bits = 10;
    while (1 << bits < distinct.length) bits++;
    for (;;) {
      this.shift = 32 - bits;
      this.first = new Int32Array(1 << bits);
      this.second = new Int32Array(1 << bits);
      this.firstPostings = new Int32Array(1 << bits).fill(-1);
      this.secondPostings = new Int32Array(1 << bits).fill(-1);
      if (distinct.every((block, b) => this.insert(block, postingAt[b]!))) break;
      bits++;
    }
  }

  /** Cuckoo insertion; false when it runs in a cycle (the caller grows the table). */
  private insert(block: number, posting: number): boolean {
    let key = block;
    let value = posting;
    for (let kicks = 0; kicks < 64; kicks++) {
      const h1 = Math.imul(key, HASH) >>> this.shift;
      if (this.firstPostings[h1] === -1) {
        this.first[h1] = key;
        this.firstPostings[h1] = value;
        return true;
      }
      const h2 = Math.imul(key, HASH_2) >>> this.shift;
      if (this.secondPostings[h2] === -1) {
        this.second[h2] = key;
        this.secondPostings[h2] = value;
        return true;
      }
      // Both taken: evict the block of the first half and place it in its other slot.
      const evicted = this.first[h1]!;
      const evictedValue = this.firstPostings[h1]!;
      this.first[h1] = key;
      this.firstPostings[h1] = value;
      const e2 = Math.imul(evicted, HASH_2) >>> this.shift;
      if (this.secondPostings[e2] === -1) {
        this.second[e2] = evicted;
        this.secondPostings[e2] = evictedValue;
        return true;
      }
      key = this.second[e2]!;
      value = this.secondPostings[e2]!;
      this.second[e2] = evicted;
      this.secondPostings[e2] = evictedValue;
    }
    return false;
  }

  /**
   * Every occurrence of a keyword in `text[from .. to)`, as pairs in one array: its offset in
   * `text`, then the index of the keyword in `keywords`. Roughly in text order.
   */
  scan(text: string, from = 0, to = text.length): number[] {
    const n = to - from;
    const found: number[] = [];
    if (n < 3) return found;
    const words = (n >> 2) + 2;
    const bytes = this.scratch.bytes(words * 4);
    // Word j holds text[from + 4j .. from + 4j + 3] (little-endian); the block at 4j + 2 is the
    // high half of word j and the low half of word j + 1.
    bytes.fill(0, Math.max(0, n - 4), words * 4);
    bytes.write(text.slice(from, to), 0, 'latin1');
    const word = new Int32Array(bytes.buffer, bytes.byteOffset, words);
    const last = (n + 3) >> 2;
    const hits = this.scratch.hits;
    // A chunk's words can find at most two blocks each: `hits` never overflows.
    const chunk = hits.length >> 2;
    const { first, second, firstPostings, secondPostings, shift, filter } = this;
    if (n >= PRELOAD_FROM) this.scratch.preloaded = preload(filter, first, second);
    for (let j = 0; j < last; j += chunk) {
      const count = findBlocks(
        word,
        j,
        Math.min(last, j + chunk),
        filter,
        first,
        second,
        firstPostings,
        secondPostings,
        shift,
        hits,
      );
      for (let h = 0; h < count; h += 2) this.verify(text, from, to, from + hits[h]!, hits[h + 1]!, found);
    }
    return found;
  }

  /** The keywords whose block was found at `p`: those that really start where it says. */
  private verify(text: string, from: number, to: number, p: number, posting: number, found: number[]): void {
    const postings = this.postings;
    let i = posting;
    const end = i + 1 + 2 * postings[i]!;
    for (i++; i < end; i += 2) {
      const keyword = this.keywords[postings[i]!]!;
      const start = p - postings[i + 1]!;
      if (start >= from && start + keyword.length <= to && text.startsWith(keyword, start))
        found.push(start, postings[i]!);
    }
  }
}

/**
 * The engine's hot loop: the blocks of `word[j .. end)` that are in the table, two a word, as
 * (offset in the scanned text, postings) pairs in `hits`; returns how many numbers it wrote.
 *
 * A function apart, over typed arrays and numbers only. Inside scan() with the calls to verify(),
 * the loop ran at 1.3 ms/MB in one process and 2.1 in the next, depending on how V8 had tiered
 * it up (on-stack replacement, deoptimizations on paths not taken yet); here it runs at 1.0 in
 * every process. A block costs one load; one in sixty passes the filter and costs two more.
 * The two blocks' look-ups are written out, not shared in a function: with one, the engine was
 * 5% slower and some processes' loops slow again (1.9 ms/MB).
 */
function findBlocks(
  word: Int32Array,
  j: number,
  end: number,
  filter: Int32Array,
  first: Int32Array,
  second: Int32Array,
  firstPostings: Int32Array,
  secondPostings: Int32Array,
  shift: number,
  hits: Int32Array,
): number {
  const filterShift = 32 - FILTER_BITS;
  let count = 0;
  let next = word[j]!;
  for (; j < end; j++) {
    const blockA = next;
    next = word[j + 1]!;
    const bitA = Math.imul(blockA, HASH_FILTER) >>> filterShift;
    if ((filter[bitA >>> 5]! & (1 << (bitA & 31))) !== 0) {
      let h = Math.imul(blockA, HASH) >>> shift;
      let posting = -1;
      if (first[h] === blockA) posting = firstPostings[h]!;
      else {
        h = Math.imul(blockA, HASH_2) >>> shift;
        if (second[h] === blockA) posting = secondPostings[h]!;
      }
      // An empty slot matches a block of four NUL bytes: no postings.
      if (posting >= 0) {
        hits[count] = 4 * j;
        hits[count + 1] = posting;
        count += 2;
      }
    }
    const blockB = (blockA >>> 16) | (next << 16);
    const bitB = Math.imul(blockB, HASH_FILTER) >>> filterShift;
    if ((filter[bitB >>> 5]! & (1 << (bitB & 31))) !== 0) {
      let h = Math.imul(blockB, HASH) >>> shift;
      let posting = -1;
      if (first[h] === blockB) posting = firstPostings[h]!;
      else {
        h = Math.imul(blockB, HASH_2) >>> shift;
        if (second[h] === blockB) posting = secondPostings[h]!;
      }
      if (posting >= 0) {
        hits[count] = 4 * j + 2;
        hits[count + 1] = posting;
        count += 2;
      }
    }
  }
  return count;
}

/**
 * A scan of this many characters or more first reads its tables from end to end. Its look-ups
 * land anywhere in them, and whatever ran before the review (parsing a request, another review)
 * has pushed them out of the caches, and fetched one by one at random they cost more than read in
 * order first: a 1 MB review after the benchmark's baseline, 3% less time (0.07-0.09 ms).
 */
const PRELOAD_FROM = 1 << 18;

/** Reads one number of each cache line (64 bytes) of the arrays, in order; returns a number so that the reads stay. */
function preload(...arrays: Int32Array[]): number {
  let sum = 0;
  for (const array of arrays) for (let i = 0; i < array.length; i += 16) sum ^= array[i]!;
  return sum;
}

/**
 * Bytes a scan reads the text into, reused from scan to scan (a scan is synchronous, so sieves
 * can share one): a whole ArrayBuffer, not a pooled slice, for 4-byte alignment.
 */
export class ScanScratch {
  private buffer: Buffer | null = null;
  /** Where findBlocks() writes the blocks it finds (2^12 words' worth: 16 KB of text a call). */
  readonly hits = new Int32Array(1 << 14);
  /** What preload() read, kept so that the reads are not optimized away. */
  preloaded = 0;

  bytes(size: number): Buffer {
    if (this.buffer === null || this.buffer.length < size)
      this.buffer = Buffer.from(new ArrayBuffer(Math.max(size, 1 << 16)));
    return this.buffer;
  }
}

/** The blocks of `keyword`: for each parity of its start, the rarest block an occurrence there produces. */
function blocksOf(keyword: string): { at: number; values: Int32Array }[] {
  if (keyword.length < 3) throw new Error(`A sieve keyword needs three characters at least: "${keyword}".`);
  for (let i = 0; i < keyword.length; i++) {
    if (keyword.charCodeAt(i) > 127) throw new Error(`A sieve keyword must be ASCII: "${keyword}".`);
  }
  const out: { at: number; values: Int32Array }[] = [];
  for (const parity of [0, 1]) {
    // Blocks start at even offsets: relative to the keyword at offsets -1, 1, 3, ... or 0, 2, 4, ...
    let best = Number.NaN;
    let bestScore = Number.NEGATIVE_INFINITY;
    for (let at = parity === 0 ? 0 : -1; at <= keyword.length - 3; at += 2) {
      const edge = at < 0 || at + 4 > keyword.length;
      const score = rarity(keyword.slice(Math.max(0, at), at + 4)) - (edge ? EDGE_PENALTY : 0);
      if (score > bestScore) {
        bestScore = score;
        best = at;
      }
    }
    out.push({ at: best, values: expand(keyword, best) });
  }
  return out;
}

/** The block values of `keyword[at .. at + 3]`, any byte where the block reaches past the keyword. */
function expand(keyword: string, at: number): Int32Array {
  let values = Int32Array.of(0);
  for (let k = 0; k < 4; k++) {
    const index = at + k;
    const shift = 8 * k;
    if (index >= 0 && index < keyword.length) {
      const code = keyword.charCodeAt(index) << shift;
      for (let i = 0; i < values.length; i++) values[i]! |= code;
    } else {
      const wider = new Int32Array(values.length * 256);
      for (let i = 0; i < values.length; i++)
        for (let byte = 0; byte < 256; byte++) wider[i * 256 + byte] = values[i]! | (byte << shift);
      values = wider;
    }
  }
  return values;
}
