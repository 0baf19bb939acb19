// Deterministic random numbers and text for test secrets (mulberry32): realistic in shape, the same
// on every run, and no one's.

/** Numbers in [0, 1) from a seed. */
export function randomNumbers(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export function randomSource(seed: number): (alphabet: string, length: number) => string {
  const next = randomNumbers(seed);
  return (alphabet, length) => Array.from({ length }, () => alphabet[Math.floor(next() * alphabet.length)]).join('');
}
