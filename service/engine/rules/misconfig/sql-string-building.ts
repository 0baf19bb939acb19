// SQL built from strings: a query or execute call whose SQL text is interpolated or concatenated
// with a value that is not a literal. Parameterised queries (placeholders and a values argument),
// tagged templates (sql`…${x}`, which the library parameterises) and query builders are fine.
// In the languages the structural stage parses, read from the syntax tree: the SQL may be built
// into a variable lines before the call (`syntax` below). Elsewhere (Kotlin, Scala, Vue…) one
// line at a time: a call whose SQL spans lines is not read there (precision first).
import { isCSharp, isGo, isJavaScript, isJvm, isPhp, isPython, isRuby, notTestCode } from '../files.ts';
import type { SyntaxLanguage } from '../../structure/languages.ts';
import type { LanguageSyntax, LineRule, SyntaxSink } from '../rule.ts';
import { isCodeAt } from '../rule.ts';

/** The calls that run SQL, as they are spelled in the languages read. */
const CALL_NAMES = [
  'query',
  'execute',
  'executemany',
  'exec',
  'raw',
  'Raw',
  'queryRawUnsafe',
  'executeRawUnsafe',
  'Query',
  'QueryRow',
  'QueryContext',
  'QueryRowContext',
  'Exec',
  'ExecContext',
  'executeQuery',
  'executeUpdate',
  'executeLargeUpdate',
  'prepareStatement',
  'createQuery',
  'createNativeQuery',
  'queryForObject',
  'queryForList',
  'queryForMap',
];
const CALL = new RegExp(`(?:\\.|\\b)(?:${CALL_NAMES.map((name) => name.replace('$', '\\$')).join('|')})\\(\\s*`, 'g');

/** An SQL statement's opening words, at the start of the string. */
const SQL_START =
  /^\s*(?:SELECT|INSERT\s+INTO|UPDATE|DELETE\s+FROM|MERGE\s+INTO|REPLACE\s+INTO|UPSERT|WITH\s+\w+\s+AS|CREATE|DROP|ALTER|TRUNCATE|GRANT|EXEC(?:UTE)?|CALL)\b/i;

/** What follows a string literal that builds SQL from a non-literal: `+ name`, `% name`, `.format(` (not `+ 42`, a literal). */
const BUILT_AFTER = /^\s*(?:\+\s*(?![\d"'`])[\w$.[\]()]|%\s*[\w(]|\.format\s*\()/;

/** Calls whose first argument is SQL text, and where the text is another argument. */
function sqlSinks(first: readonly string[], elsewhere: Record<number, readonly string[]> = {}): LanguageSyntax {
  const sinks: SyntaxSink[] = [{ calls: first, danger: 'sql' }];
  for (const [argument, calls] of Object.entries(elsewhere))
    sinks.push({ calls, argument: Number(argument), danger: 'sql' });
  return { sinks };
}

const JS_SQL = withFragments(
  sqlSinks([
    '.query',
    '.execute',
    '.exec',
    '.raw',
    '.prepare',
    '.run',
    '.all',
    '.get',
    '.$queryRawUnsafe',
    '.$executeRawUnsafe',
  ]),
  // knex's raw fragments: a condition or an ordering, not a whole statement
  ['.whereRaw', '.orWhereRaw', '.orderByRaw', '.havingRaw', '.joinRaw', '.selectRaw', '.fromRaw', '.groupByRaw'],
);

/** The sinks, and calls that take a fragment of SQL (a condition): any value built into it is injection. */
function withFragments(syntax: LanguageSyntax, fragments: readonly string[]): LanguageSyntax {
  return { ...syntax, sinks: [...(syntax.sinks ?? []), { calls: fragments, argument: 'any', danger: 'built-string' }] };
}

/** ActiveRecord's methods that take a fragment of SQL: any interpolation into it is injection. */
const RAILS_FRAGMENTS = [
  '.minimum',
  '.maximum',
  '.average',
  '.sum',
  '.where',
  '.order',
  '.reorder',
  '.group',
  '.having',
  '.joins',
  '.pluck',
  '.select',
  '.from',
  '.exists?',
  '.update_all',
  '.delete_all',
  '.calculate',
  '.lock',
];

const SQL_SYNTAX: Partial<Record<SyntaxLanguage, LanguageSyntax>> = {
  javascript: JS_SQL,
  typescript: JS_SQL,
  tsx: JS_SQL,
  python: sqlSinks([
    '.execute',
    '.executemany',
    // asyncpg, pg8000
    '.fetch',
    '.fetchrow',
    '.fetchval',
    '.run',
    '.executescript',
    '.exec_driver_sql',
    '.raw',
    '.read_sql',
    '.read_sql_query',
    '.mogrify',
  ]),
  go: withFragments(
    {
      sinks: [
        {
          // database/sql takes the query first, or after a context; pgx after a context
          calls: [
            '.Query',
            '.QueryRow',
            '.Exec',
            '.Prepare',
            '.Raw',
            '.Queryx',
            '.QueryRowx',
            '.Select',
            '.Get',
            '.MustExec',
            '.QueryEx',
            '.ExecEx',
            '.QueryContext',
            '.QueryRowContext',
            '.ExecContext',
            '.PrepareContext',
            '.QueryxContext',
            '.SelectContext',
            '.GetContext',
            '.QueryOne',
            '.ExecOne',
          ],
          argument: 'any',
          danger: 'sql',
        },
      ],
    },
    // gorm's and go-pg's conditions: a fragment of SQL
    ['.Where', '.Having', '.Order', '.Group', '.Joins', '.WhereOr'],
  ),
  java: withFragments(
    sqlSinks([
      '.executeQuery',
      '.executeUpdate',
      '.executeLargeUpdate',
      '.execute',
      '.addBatch',
      '.prepareStatement',
      '.prepareCall',
      '.createQuery',
      '.createNativeQuery',
      '.createSQLQuery',

      '.query',
      '.queryForObject',
      '.queryForList',
      '.queryForMap',
      '.queryForRowSet',
      '.update',
      '.batchUpdate',
      // Vert.x
      '.preparedQuery',
    ]),
    // JDO's and Hibernate's conditions
    ['.setFilter', '.setGrouping', '.setOrdering', '.newQuery', 'Restrictions.sqlRestriction'],
  ),
  ruby: {
    keywords: ['#{', '" +', "' +", '<<', '.concat('],
    sinks: [
      {
        calls: [
          '.execute',
          '.exec_query',
          '.exec_update',
          '.exec_delete',
          '.exec_insert',
          '.find_by_sql',
          '.select_all',
          '.select_one',
          '.select_value',
          '.select_values',
          '.select_rows',
          '.count_by_sql',
          // ruby-pg, mysql2
          '.exec',
          '.exec_params',
          '.async_exec',
          '.query',
        ],
        danger: 'sql',
      },
      { calls: RAILS_FRAGMENTS, danger: 'built-string' },
      // Rails 2's finder options: find(:all, conditions: "…#{x}")
      { calls: ['.find', '.find_by', '.first', '.last', '.count', '.all'], argument: 'any', danger: 'built-string' },
    ],
  },
  php: sqlSinks(
    [
      '.query',
      '.exec',
      '.prepare',
      '.mysql_query',
      'DB.select',
      'DB.insert',
      'DB.update',
      'DB.delete',
      'DB.statement',
      'DB.unprepared',
      '.whereRaw',
      '.selectRaw',
      '.orderByRaw',
      '.havingRaw',
      'DB.raw',
    ],
    {
      1: [
        'mysqli_query',
        'mysqli_real_query',
        'mysqli_multi_query',
        'pg_query',
        'mysqli_prepare',
        'pg_prepare',
        'sqlsrv_query',
      ],
    },
  ),
  csharp: {
    ...sqlSinks([
      'new SqlCommand',
      'new SqliteCommand',
      'new NpgsqlCommand',
      'new MySqlCommand',
      'new OracleCommand',
      'new OleDbCommand',
      '.ExecuteSqlRaw',
      '.ExecuteSqlRawAsync',
      '.FromSqlRaw',
      '.ExecuteSqlCommand',
      '.SqlQuery',
      '.Query',
      '.QueryAsync',
      '.QueryFirst',
      '.QueryFirstOrDefault',
      '.QuerySingle',
      '.Execute',
      '.ExecuteAsync',
      '.ExecuteScalar',
    ]),
    // cmd.CommandText = "SELECT … " + x
    query: `(assignment_expression
  left: (member_access_expression name: (identifier) @p (#eq? @p "CommandText"))
  right: (_) @value) @finding`,
    queryDanger: 'sql',
  },
};

export const noSqlStringBuilding: LineRule = {
  kind: 'line',
  id: 'no-sql-string-building',
  severity: 'warning',
  summary: 'SQL built by interpolating or concatenating a value into the query text (SQL injection).',
  help: 'Pass values as parameters: placeholders ($1, ?, %s, :name) and a values argument, a tagged template (sql`…`), or a query builder. Identifiers (table, column names) come from an allow-list.',
  message:
    'This query builds its SQL from a value: if the value comes from input, that is SQL injection; use placeholders and pass the values separately.',
  files: notTestCode(
    (path) =>
      isJavaScript(path) ||
      isPython(path) ||
      isGo(path) ||
      isJvm(path) ||
      isRuby(path) ||
      isPhp(path) ||
      isCSharp(path),
  ),
  keywords: CALL_NAMES.map((name) => `${name}(`),
  syntax: {
    // SQL text (what the sinks judge must be in the hunk), or a condition's sink
    keywords: [
      // the statement's first words, as SQL is written in code (upper case, or lower case where unmistakable)
      ...[
        'SELECT ',
        'INSERT INTO',
        'UPDATE ',
        'DELETE FROM',
        'MERGE INTO',
        'REPLACE INTO',
        'UPSERT',
        'CREATE ',
        'DROP ',
        'ALTER ',
        'TRUNCATE',
        'GRANT ',
        'EXEC ',
        'EXECUTE ',
        'CALL ',
        'WITH ',
      ],
      ...[
        'select ',
        'insert into',
        'delete from',
        'replace into',
        'merge into',
        'create table',
        'drop table',
        'alter table',
        'truncate table',
      ],
      // the calls that take a condition
      ...['whereRaw', 'orWhereRaw', 'orderByRaw', 'havingRaw', 'joinRaw', 'selectRaw', 'fromRaw', 'groupByRaw'],
      ...[
        'Where(',
        'Having(',
        'Order(',
        'Group(',
        'Joins(',
        'WhereOr(',
        'setFilter',
        'setGrouping',
        'setOrdering',
        'newQuery',
        'sqlRestriction',
        'CommandText',
      ],
    ],
    // update … set in any case (a word too common to be a keyword alone)
    hunkPattern: /\bupdate\s+[\w."`[\]]{1,100}\s+set\b/i,
    languages: SQL_SYNTAX,
  },
  reads: 'text',
  check(line) {
    const { text } = line;
    CALL.lastIndex = 0;
    for (let m = CALL.exec(text); m; m = CALL.exec(text)) {
      if (!isCodeAt(line, m.index + (m[0].startsWith('.') ? 1 : 0))) continue;
      const arg = m.index + m[0].length;
      const built = builtSql(text, arg, line.path);
      if (built) return { column: m.index + 1, endColumn: built + 1 };
    }
    return null;
  },
};

/** Where the SQL argument at `at` ends if it is built from a non-literal (a template with ${…}, an f-string, Sprintf, concatenation), else 0. */
function builtSql(text: string, at: number, path: string): number {
  let i = at;
  // Go: fmt.Sprintf("SELECT … %s", x); Python: f"SELECT … {x}".
  const sprintf = /^fmt\.Sprintf\(\s*/.exec(text.slice(i, i + 20));
  if (sprintf && isGo(path)) i += sprintf[0].length;
  // SQLAlchemy: execute(text(f"SELECT … {x}")).
  const textCall = isPython(path) ? /^(?:sa\.|sqlalchemy\.)?text\(\s*/.exec(text.slice(i, i + 30)) : null;
  if (textCall) i += textCall[0].length;
  const fString = isPython(path) && /^[fF][rR]?["']/.test(text.slice(i, i + 3));
  if (fString) i += text[i + 1] === '"' || text[i + 1] === "'" ? 1 : 2;
  const quote = text[i];
  if (quote !== '"' && quote !== "'" && quote !== '`') return 0;
  const close = closingQuote(text, i);
  if (close < 0) return 0;
  const body = text.slice(i + 1, close);
  if (!SQL_START.test(body)) return 0;
  if (quote === '`' && isJavaScript(path) && body.includes('${')) return close + 1;
  // [^{}]: from each `{` only up to the next brace, so a run of `{` costs linear time, not quadratic
  if (fString && /\{[^{}]+\}/.test(body)) return close + 1;
  if (sprintf && /%[sv]/.test(body)) return close + 1;
  return BUILT_AFTER.test(text.slice(close + 1, close + 40)) ? close + 1 : 0;
}

/** The index of the quote that closes the string opened at `open` (escapes skipped), or -1. */
function closingQuote(text: string, open: number): number {
  const quote = text[open];
  for (let i = open + 1; i < text.length; i++) {
    if (text[i] === '\\') i++;
    else if (text[i] === quote) return i;
  }
  return -1;
}
