// The diffs the benchmarks send: many findings in one small file, or a large pull request's worth
// of code-like lines of an exact size.

/** A git diff adding one file whose `count` added lines each hold a debugger statement. */
export function debuggerDiff(count: number, file = 'src/app.js'): string {
  const lines = Array.from({ length: count }, (_, i) => `+  if (step === ${i}) debugger;`);
  return [
    `diff --git a/${file} b/${file}`,
    'new file mode 100644',
    '--- /dev/null',
    `+++ b/${file}`,
    `@@ -0,0 +1,${count} @@`,
    ...lines,
    '',
  ].join('\n');
}

/**
 * A diff of exactly `bytes` bytes made of new JavaScript files of varied, code-like lines (a few of
 * which trip rules), the kind of input a large pull request brings.
 */
export function codeDiff(bytes: number, seed = 1): string {
  let state = seed >>> 0 || 1;
  const rand = () => (state = (Math.imul(state, 1103515245) + 12345) >>> 0) / 2 ** 32;
  const pick = <T>(items: T[]) => items[Math.floor(rand() * items.length)]!;
  const templates = [
    (n: number) => `  const value${n} = compute(input.field${n % 17}, ${n});`,
    (n: number) => `  if (value${n} > limit) { return format("item ${n}", value${n}); }`,
    (n: number) => `  // keep the order of the ${n} entries stable for the cache`,
    (n: number) => `  for (let i = 0; i < list${n}.length; i++) total += list${n}[i].size;`,
    (n: number) => `  logger.info({ id: ${n}, name }, 'processed');`,
    (n: number) => `export function handler${n}(request, reply) { return reply.send({ ok: true }); }`,
    (n: number) => `  await fetch(\`https://api.example.com/items/\${id}/${n}\`);`,
  ];
  // About one line in 500 trips a rule, as in real code: a 1 MB diff gets ~50 comments.
  const tripping = [
    (n: number) => `  console.log('debug ${n}', state);`,
    (n: number) => `  // TODO: split this function (${n})`,
    (n: number) => `  const hash${n} = crypto.createHash('md5').update(data).digest('hex');`,
  ];
  const files: string[] = [];
  let size = 0;
  let file = 0;
  while (true) {
    const name = `src/module${file++}/index.js`;
    const lines: string[] = [];
    let body = 0;
    const header = (count: number) =>
      `diff --git a/${name} b/${name}\nnew file mode 100644\n--- /dev/null\n+++ b/${name}\n@@ -0,0 +1,${count} @@\n`;
    const room = bytes - size - header(99999).length - 200;
    if (room < 500) break;
    const want = Math.min(room, 20_000 + Math.floor(rand() * 20_000));
    for (let n = 0; body < want; n++) {
      const line = `+${pick(rand() < 0.002 ? tripping : templates)(n)}\n`;
      lines.push(line);
      body += line.length;
    }
    const text = header(lines.length) + lines.join('');
    files.push(text);
    size += text.length;
  }
  // Pad to the exact size in a last small file.
  const padHeader =
    'diff --git a/pad.txt b/pad.txt\nnew file mode 100644\n--- /dev/null\n+++ b/pad.txt\n@@ -0,0 +1 @@\n+';
  const pad = bytes - size - padHeader.length - 1;
  files.push(`${padHeader}${'x'.repeat(Math.max(0, pad))}\n`);
  const diff = files.join('');
  if (Buffer.byteLength(diff) !== bytes) throw new Error(`codeDiff: ${Buffer.byteLength(diff)} bytes, wanted ${bytes}`);
  return diff;
}
