// Firing and not-firing cases of the rules the structural stage reads, written here: whole new
// files of several lines, each with the lines the rule must report (none: it must stay quiet).
// Read by syntax-rules.test.ts.
export interface SyntaxCase {
  path: string;
  code: string;
  /** New-file lines the rule reports. */
  lines: number[];
}

export const SYNTAX_CASES: Record<string, SyntaxCase[]> = {
  'no-sql-string-building': [
    // text appended to a builder or a string the query is later read from
    {
      path: 'src/main/java/app/Users.java',
      code: `class Users {\n  ResultSet find(Statement stmt, String name) throws Exception {\n    StringBuilder sql = new StringBuilder("SELECT * FROM users WHERE name = ");\n    sql.append(name);\n    return stmt.executeQuery(sql.toString());\n  }\n}`,
      lines: [5],
    },
    {
      path: 'src/main/java/app/Users.java',
      code: `class Users {\n  ResultSet find(Statement stmt) throws Exception {\n    StringBuilder sql = new StringBuilder("SELECT * FROM users WHERE name = ");\n    sql.append("?");\n    return stmt.executeQuery(sql.toString());\n  }\n}`,
      lines: [],
    },
    {
      path: 'store/users.go',
      code: `package store\n\nfunc remove(db *sql.DB, id string) {\n\tvar sb strings.Builder\n\tsb.WriteString("DELETE FROM users WHERE id = ")\n\tsb.WriteString(id)\n\tdb.Exec(sb.String())\n}`,
      lines: [7],
    },
    {
      path: 'app/models/report.rb',
      code: `def by_age(age)\n  query = "SELECT name FROM users WHERE age = "\n  query << params[:age]\n  con.exec(query)\nend`,
      lines: [4],
    },
    {
      path: 'src/Reports.cs',
      code: `class Reports {\n  void Run(SqlCommand command, string table) {\n    var sb = new StringBuilder("SELECT Id FROM ");\n    sb.AppendFormat("{0} WHERE 1 = 1", table);\n    command.CommandText = sb.ToString();\n  }\n}`,
      lines: [5],
    },
    // built into a variable, executed later: reported on the call
    {
      path: 'app/users.py',
      code: `def find(cur, name):
    q = "SELECT * FROM users WHERE name = '%s'" % name
    log.debug("finding")
    cur.execute(q)`,
      lines: [4],
    },
    {
      path: 'app/users.py',
      code: `def find(cur, name):
    sql = f"""
        SELECT *
        FROM users
        WHERE name = '{name}'
    """
    return cur.execute(sql).fetchall()`,
      lines: [7],
    },
    {
      path: 'app/report.py',
      code: `def report(cur, table):
    query = "SELECT count(*) FROM {}".format(table)
    cur.execute(query)`,
      lines: [3],
    },
    {
      path: 'src/users.ts',
      code: `export async function find(db: Pool, id: string) {
  const sql = \`SELECT *
    FROM users
    WHERE id = \${id}\`;
  return db.query(sql);
}`,
      lines: [5],
    },
    {
      path: 'src/list.js',
      code: `async function list(knex, sort) {
  return knex.raw("SELECT * FROM items ORDER BY " + sort);
}`,
      lines: [2],
    },
    {
      path: 'pkg/users/find.go',
      code: `func Find(ctx context.Context, db *sql.DB, id string) (*sql.Rows, error) {
	q := fmt.Sprintf("SELECT * FROM users WHERE id = '%s'", id)
	return db.QueryContext(ctx, q)
}`,
      lines: [3],
    },
    {
      path: 'src/main/java/app/Users.java',
      code: `class Users {
  ResultSet find(Statement stmt, String name) throws SQLException {
    String q = "SELECT * FROM users WHERE name = '";
    q += name + "'";
    return stmt.executeQuery(q);
  }
}`,
      lines: [5],
    },
    {
      path: 'src/main/java/app/Orders.java',
      code: `class Orders {
  List<Order> byStatus(JdbcTemplate jdbc, String status) {
    return jdbc.query(String.format("SELECT * FROM orders WHERE status = '%s'", status), mapper);
  }
}`,
      lines: [3],
    },
    {
      path: 'app/models/user.rb',
      code: `class User < ApplicationRecord
  def self.named(name)
    where("name = '#{name}'")
  end
end`,
      lines: [3],
    },
    {
      path: 'app/controllers/search_controller.rb',
      code: `class SearchController < ApplicationController
  def index
    sql = "SELECT * FROM posts WHERE title LIKE '%#{params[:q]}%'"
    @posts = ActiveRecord::Base.connection.execute(sql)
  end
end`,
      lines: [4],
    },
    {
      path: 'public/user.php',
      code: `<?php
$id = $_GET['id'];
$sql = "SELECT * FROM users WHERE id = " . $id;
$result = mysqli_query($conn, $sql);`,
      lines: [4],
    },
    {
      path: 'src/Data/Users.cs',
      code: `class Users {
  public SqlDataReader Find(SqlConnection conn, string name) {
    var cmd = new SqlCommand($"SELECT * FROM users WHERE name = '{name}'", conn);
    return cmd.ExecuteReader();
  }
}`,
      lines: [3],
    },
    // parameterised, constant, allow-listed, numeric: quiet
    {
      path: 'app/users.py',
      code: `def find(cur, name):
    cur.execute("SELECT * FROM users WHERE name = %s", (name,))`,
      lines: [],
    },
    {
      path: 'app/users.py',
      code: `def find_many(cur, ids):
    marks = ",".join(["%s"] * len(ids))
    cur.execute("SELECT * FROM users WHERE id IN (" + marks + ")", ids)`,
      lines: [],
    },
    {
      path: 'app/users.py',
      code: `SORTABLE = ("name", "created_at")

def listed(cur, sort):
    if sort not in SORTABLE:
        raise ValueError(sort)
    cur.execute("SELECT * FROM users ORDER BY " + sort)`,
      lines: [],
    },
    {
      path: 'src/users.ts',
      code: `export async function find(db: Pool, id: string) {
  const sql = 'SELECT * FROM users WHERE id = $1';
  return db.query(sql, [id]);
}`,
      lines: [],
    },
    {
      path: 'src/users.ts',
      code: `export function sorted(db: Pool, column: string) {
  if (!['name', 'age'].includes(column)) throw new Error('bad column');
  return db.query(\`SELECT * FROM users ORDER BY \${column}\`);
}`,
      lines: [],
    },
    {
      path: 'src/search.ts',
      code: `export function search(index: Index, term: string) {
  return index.query(\`\${term}*\`);
}`,
      lines: [],
    },
    {
      path: 'pkg/users/find.go',
      code: `func Find(ctx context.Context, db *sql.DB, id string) (*sql.Rows, error) {
	return db.QueryContext(ctx, "SELECT * FROM users WHERE id = $1", id)
}`,
      lines: [],
    },
    {
      path: 'pkg/users/page.go',
      code: `func Page(db *sql.DB, limit int) (*sql.Rows, error) {
	q := "SELECT * FROM users LIMIT " + strconv.Itoa(limit)
	return db.Query(q)
}`,
      lines: [],
    },
    {
      path: 'src/main/java/app/Users.java',
      code: `class Users {
  ResultSet find(Connection conn, String name) throws SQLException {
    PreparedStatement ps = conn.prepareStatement("SELECT * FROM users WHERE name = ?");
    ps.setString(1, name);
    return ps.executeQuery();
  }
}`,
      lines: [],
    },
    {
      path: 'app/models/user.rb',
      code: `class User < ApplicationRecord
  def self.named(name)
    where(name: name).or(where("nickname = ?", name))
  end
end`,
      lines: [],
    },
    {
      path: 'public/user.php',
      code: `<?php
$stmt = $pdo->prepare("SELECT * FROM users WHERE id = ?");
$stmt->execute([$_GET['id']]);`,
      lines: [],
    },
    {
      path: 'src/Data/Users.cs',
      code: `class Users {
  public SqlDataReader Find(SqlConnection conn, string name) {
    var cmd = new SqlCommand("SELECT * FROM users WHERE name = @name", conn);
    cmd.Parameters.AddWithValue("@name", name);
    return cmd.ExecuteReader();
  }
}`,
      lines: [],
    },
    // tests are not read
    {
      path: 'tests/test_users.py',
      code: `def test_find(cur):
    cur.execute("SELECT * FROM users WHERE name = '%s'" % "x")`,
      lines: [],
    },
  ],
  'no-eval': [
    { path: 'src/calc.js', code: `export function calc(expr) {\n  return eval(expr);\n}`, lines: [2] },
    { path: 'src/tpl.ts', code: `const render = new Function('data', \`return \\\`\${source}\\\`\`);`, lines: [1] },
    { path: 'src/sandbox.js', code: `const vm = require('vm');\nvm.runInNewContext(code, { console });`, lines: [2] },
    { path: 'tools/run.py', code: `def run(source):\n    exec(source, {})`, lines: [2] },
    { path: 'tools/calc.py', code: `def calc(expr):\n    return eval(expr)`, lines: [2] },
    {
      path: 'app/views.py',
      code: `async def run(request):\n    loop = asyncio.get_running_loop()\n    await loop.run_in_executor(None, exec, request.POST["code"])\n    await loop.run_in_executor(None, exec, "print('ready')")\n    await loop.run_in_executor(None, render, request.POST["code"])`,
      lines: [3],
    },
    {
      path: 'app/batch.py',
      code: `def run_all(pool, exprs):\n    return [pool.submit(eval, e) for e in exprs] + [pool.submit(len, e) for e in exprs]`,
      lines: [2],
    },
    { path: 'lib/dsl.rb', code: `class Dsl\n  def load(text)\n    instance_eval(text)\n  end\nend`, lines: [3] },
    {
      path: 'lib/dsl.rb',
      code: `def run(source)\n  RubyVM::InstructionSequence.compile(source).eval\n  RubyVM::InstructionSequence.compile("1 + 2").eval\nend`,
      lines: [2],
    },
    { path: 'lib/calc.rb', code: `def calc(expr)\n  eval(expr)\nend`, lines: [2] },
    {
      path: 'lib/calc.php',
      code: `<?php\nfunction calc($expr) {\n  return eval('return ' . $expr . ';');\n}`,
      lines: [3],
    },
    {
      path: 'src/run.ts',
      code: `export function run(code: string) {\n  const script = code.trim();\n  return eval(script);\n}`,
      lines: [3],
    },
    {
      path: 'tools/run.py',
      code: `def run(path):\n    with open(path) as f:\n        code = f.read()\n    exec(compile(code, path, "exec"))`,
      lines: [4],
    },
    { path: 'src/calc.js', code: `const two = eval("1 + 1");`, lines: [] },
    { path: 'src/redis.js', code: `await redis.eval(script, 1, key);`, lines: [] },
    { path: 'src/page.ts', code: `await page.evaluate(() => document.title);`, lines: [] },
    { path: 'tools/run.py', code: `exec("import sys")`, lines: [] },
    { path: 'tools/model.py', code: `model.eval()`, lines: [] },
    {
      path: 'lib/dsl.rb',
      code: `class Dsl\n  def configure(&block)\n    instance_eval(&block)\n  end\nend`,
      lines: [],
    },
    { path: 'lib/dsl.rb', code: `Foo.class_eval do\n  attr_reader :x\nend`, lines: [] },
    { path: 'lib/calc.php', code: `<?php\n$r = $this->evaluate($expr);`, lines: [] },
    { path: 'src/fn.ts', code: `const f = new Function('a', 'b', 'return a + b');`, lines: [] },
    { path: 'src/cursor.py', code: `cursor.execute("SELECT 1")`, lines: [] },
  ],
  'no-pickle-loads': [
    { path: 'app/cache.py', code: `import pickle\n\ndef load(blob):\n    return pickle.loads(blob)`, lines: [4] },
    { path: 'app/cache.py', code: `import cPickle\nobj = cPickle.load(open(path, "rb"))`, lines: [2] },
    { path: 'app/store.py', code: `import shelve\ndb = shelve.open(path)`, lines: [2] },
    { path: 'app/frame.py', code: `import pandas as pd\ndf = pd.read_pickle(upload)`, lines: [2] },
    { path: 'app/session.rb', code: `def restore(cookie)\n  Marshal.load(Base64.decode64(cookie))\nend`, lines: [2] },
    // the program's own data file, and Ruby's deep copy, are not input; a path from a variable may be
    {
      path: 'app/novels.py',
      code: `import pickle\nnovels = pickle.load(open("./novel/list.dat", "rb"))\nother = pickle.load(open(path, "rb"))`,
      lines: [3],
    },
    { path: 'app/copy.rb', code: `copy = Marshal.load(Marshal.dump(template))\nobj = Marshal.load(data)`, lines: [2] },
    {
      path: 'app/import.rb',
      code: `rows = CSV.load(params[:file].read)\nprefs = Oj.load(cookies[:prefs])\nsafe = Oj.load(body, mode: :strict)\nalso = Oj.load(body, :mode => :compat)`,
      lines: [1, 2],
    },
    { path: 'public/session.php', code: `<?php\n$prefs = unserialize($_COOKIE['prefs']);`, lines: [2] },
    {
      path: 'src/Session.cs',
      code: `class S {\n  object Read(Stream s) {\n    var f = new BinaryFormatter();\n    return f.Deserialize(s);\n  }\n}`,
      lines: [3],
    },
    {
      path: 'src/main/java/app/Session.java',
      code: `class Session {\n  Object read(InputStream in) throws Exception {\n    ObjectInputStream ois = new ObjectInputStream(in);\n    return ois.readObject();\n  }\n}`,
      lines: [3],
    },
    {
      path: 'src/main/java/app/Config.java',
      code: `class Config {\n  Object read(String xml) {\n    return xstream.fromXML(xml);\n  }\n}`,
      lines: [3],
    },
    { path: 'app/model.py', code: `import dill\nmodel = dill.loads(payload)`, lines: [2] },
    { path: 'app/cache.py', code: `import json\nobj = json.loads(blob)`, lines: [] },
    { path: 'app/store.py', code: `data = yaml.safe_load(stream)`, lines: [] },
    { path: 'app/cache.py', code: `blob = pickle.dumps(obj)`, lines: [] },
    { path: 'app/session.rb', code: `data = JSON.parse(cookie)`, lines: [] },
    { path: 'app/session.rb', code: `blob = Marshal.dump(obj)`, lines: [] },
    { path: 'app/rows.rb', code: `def copy(o)\n  data = CSV.dump(o)\n  CSV.load(data)\nend`, lines: [] },
    { path: 'public/session.php', code: `<?php\n$prefs = json_decode($_COOKIE['prefs'], true);`, lines: [] },
    { path: 'public/session.php', code: `<?php\n$defaults = unserialize('a:0:{}');`, lines: [] },
    {
      path: 'src/Session.cs',
      code: `class S {\n  T Read<T>(string s) => JsonSerializer.Deserialize<T>(s);\n}`,
      lines: [],
    },
    {
      path: 'src/main/java/app/Session.java',
      code: `class Session {\n  Object read(String s) throws Exception {\n    return mapper.readValue(s, Session.class);\n  }\n}`,
      lines: [],
    },
    { path: 'tests/fixtures/cache.py', code: `obj = pickle.loads(blob)`, lines: [] },
  ],
};

SYNTAX_CASES['no-shell-injection'] = [
  {
    path: 'app/run.py',
    code: `import os\n\ndef archive(name):\n    os.system("tar czf /tmp/" + name + ".tgz data")`,
    lines: [4],
  },
  {
    path: 'app/run.py',
    code: `def grep(pattern):\n    cmd = f"grep -r {pattern} ."\n    return subprocess.check_output(cmd, shell=True)`,
    lines: [3],
  },
  { path: 'app/run.py', code: `def ls(path):\n    return os.popen("ls -l %s" % path).read()`, lines: [2] },
  {
    path: 'src/run.js',
    code: `const { exec } = require('child_process');\nfunction ping(host) {\n  exec(\`ping -c 1 \${host}\`, done);\n}`,
    lines: [3],
  },
  {
    path: 'src/run.ts',
    code: `export function run(dir: string) {\n  return spawnSync('sh', ['-c', 'ls ' + dir]);\n}`,
    lines: [2],
  },
  {
    path: 'src/run.ts',
    code: `export function run(cmd: string) {\n  return spawn(cmd, { shell: true });\n}`,
    lines: [2],
  },
  {
    path: 'public/ping.php',
    code: `<?php\n$host = $_GET['host'];\n$out = shell_exec("ping -c 1 " . $host);`,
    lines: [3],
  },
  { path: 'public/ls.php', code: `<?php\n$out = \`ls {$_GET['dir']}\`;`, lines: [2] },
  { path: 'lib/backup.rb', code: `def backup(dir)\n  system("tar czf backup.tgz #{dir}")\nend`, lines: [2] },
  { path: 'lib/ls.rb', code: 'def ls(dir)\n  `ls #{dir}`\nend', lines: [2] },
  {
    path: 'src/main/java/app/Ping.java',
    code: `class Ping {\n  void ping(String host) throws Exception {\n    Runtime.getRuntime().exec("ping -c 1 " + host);\n  }\n}`,
    lines: [3],
  },
  {
    path: 'cmd/run.go',
    code: `func run(arg string) error {\n\treturn exec.Command("sh", "-c", "ls "+arg).Run()\n}`,
    lines: [2],
  },
  { path: 'app/run.py', code: `def archive():\n    os.system("tar czf /tmp/data.tgz data")`, lines: [] },
  {
    path: 'app/run.py',
    code: `def grep(pattern):\n    return subprocess.check_output(["grep", "-r", pattern, "."])`,
    lines: [],
  },
  { path: 'app/run.py', code: `def ls(path):\n    return os.popen("ls -l " + shlex.quote(path)).read()`, lines: [] },
  {
    path: 'src/run.js',
    code: `const { execFile } = require('child_process');\nexecFile('ping', ['-c', '1', host], done);`,
    lines: [],
  },
  { path: 'src/run.ts', code: `const match = pattern.exec(input);`, lines: [] },
  { path: 'src/run.ts', code: `export function run(dir: string) {\n  return spawnSync('ls', [dir]);\n}`, lines: [] },
  {
    path: 'public/ping.php',
    code: `<?php\n$out = shell_exec("ping -c 1 " . escapeshellarg($_GET['host']));`,
    lines: [],
  },
  { path: 'lib/backup.rb', code: `def backup(dir)\n  system("tar", "czf", "backup.tgz", dir)\nend`, lines: [] },
  { path: 'lib/ls.rb', code: 'def version\n  `git rev-parse HEAD`.strip\nend', lines: [] },
  {
    path: 'src/main/java/app/Ping.java',
    code: `class Ping {\n  void ping() throws Exception {\n    Runtime.getRuntime().exec(new String[] {"ping", "-c", "1", "localhost"});\n  }\n}`,
    lines: [],
  },
  { path: 'cmd/run.go', code: `func run(arg string) error {\n\treturn exec.Command("ls", arg).Run()\n}`, lines: [] },
];

SYNTAX_CASES['no-inner-html'] = [
  {
    path: 'src/page.ts',
    code: `export function page(props: Props) {\n  const attrs = { id: 'page', dangerouslySetInnerHTML: { __html: props.body } };\n  const fixed = { dangerouslySetInnerHTML: { __html: '<hr>' } };\n  return React.createElement('div', attrs);\n}`,
    lines: [2],
  },
  { path: 'src/view.js', code: `function show(el, html) {\n  el.innerHTML = html;\n}`, lines: [2] },
  {
    path: 'src/view.js',
    code: `function show(el, name) {\n  const html = '<b>' + name + '</b>';\n  el.innerHTML = html;\n}`,
    lines: [3],
  },
  {
    path: 'src/view.ts',
    code: 'export function row(el: HTMLElement, r: Row) {\n  el.innerHTML += `<tr><td>${r.name}</td></tr>`;\n}',
    lines: [2],
  },
  { path: 'src/view.ts', code: `export function write(s: string) {\n  document.write(s);\n}`, lines: [2] },
  {
    path: 'src/view.ts',
    code: `export function add(el: Element, s: string) {\n  el.insertAdjacentHTML('beforeend', s);\n}`,
    lines: [2],
  },
  {
    path: 'src/Bio.tsx',
    code: `export function Bio({ bio }: { bio: string }) {\n  return <div dangerouslySetInnerHTML={{ __html: bio }} />;\n}`,
    lines: [2],
  },
  {
    path: 'src/Bio.jsx',
    code: `export function Bio({ md }) {\n  return <div dangerouslySetInnerHTML={{ __html: marked(md) }} />;\n}`,
    lines: [2],
  },
  { path: 'src/view.js', code: `el.outerHTML = template(data);`, lines: [1] },
  {
    path: 'src/view.ts',
    code: 'export function greet(el: HTMLElement, user: User) {\n  const html = `<p>Hello ${user.name}</p>`;\n  el.innerHTML = html;\n}',
    lines: [3],
  },
  {
    path: 'src/Note.tsx',
    code: 'export const Note = ({ text }: { text: string }) => (\n  <p dangerouslySetInnerHTML={{ __html: `<i>${text}</i>` }} />\n);',
    lines: [2],
  },
  { path: 'src/view.js', code: `el.innerHTML = '';`, lines: [] },
  { path: 'src/view.js', code: `el.innerHTML = '<br>';`, lines: [] },
  { path: 'src/view.js', code: `function show(el, html) {\n  el.innerHTML = DOMPurify.sanitize(html);\n}`, lines: [] },
  {
    path: 'src/view.ts',
    code: `const SPINNER = '<div class="spinner"></div>';\nexport function wait(el: HTMLElement) {\n  el.innerHTML = SPINNER;\n}`,
    lines: [],
  },
  { path: 'src/view.ts', code: `el.textContent = name;`, lines: [] },
  { path: 'src/view.ts', code: `document.write('<p>Loading…</p>');`, lines: [] },
  {
    path: 'src/Logo.tsx',
    code: `export const Logo = () => <span dangerouslySetInnerHTML={{ __html: '<svg></svg>' }} />;`,
    lines: [],
  },
  {
    path: 'src/Bio.jsx',
    code: `export function Bio({ html }) {\n  return <div dangerouslySetInnerHTML={{ __html: sanitizeHtml(html) }} />;\n}`,
    lines: [],
  },
  { path: 'src/view.js', code: `const html = el.innerHTML;`, lines: [] },
  { path: 'src/view.ts', code: `if (el.innerHTML === '') el.append(child);`, lines: [] },
];

SYNTAX_CASES['no-tls-verify-off'] = [
  {
    path: 'src/main/java/app/TrustAll.java',
    code: `class TrustAll implements X509TrustManager {\n  @Override\n  public void checkServerTrusted(X509Certificate[] chain, String authType) {\n  }\n}`,
    lines: [3],
  },
  {
    path: 'src/main/java/app/TrustAll.java',
    // asked only of a server checking its clients' certificates: a client's trust manager leaves it empty
    code: `class TrustAll implements X509TrustManager {\n  public void checkClientTrusted(X509Certificate[] chain, String authType)\n      throws CertificateException {}\n  public void checkServerTrusted(X509Certificate[] chain, String authType)\n      throws CertificateException {}\n}`,
    lines: [4],
  },
  {
    path: 'src/main/java/app/AnyHost.java',
    code: `class AnyHost implements HostnameVerifier {\n  public boolean verify(String host, SSLSession session) {\n    return true;\n  }\n}`,
    lines: [2],
  },
  { path: 'src/Http.php', code: `<?php\ncurl_setopt($ch, CURLOPT_SSL_VERIFYPEER, false);`, lines: [2] },
  { path: 'lib/http.rb', code: `http.verify_mode = OpenSSL::SSL::VERIFY_NONE`, lines: [1] },
  {
    path: 'src/client.rs',
    code: `let client = reqwest::Client::builder().danger_accept_invalid_certs(true).build()?;`,
    lines: [1],
  },
  { path: 'app/mail.py', code: `conn = ssl.wrap_socket(sock, cert_reqs="CERT_NONE")`, lines: [1] },
  { path: '.npmrc', code: `registry=https://npm.internal/\nstrict-ssl=false`, lines: [2] },
  {
    path: 'src/agent.ts',
    code: `export const agent = new https.Agent({\n  keepAlive: true,\n  rejectUnauthorized: false,\n});`,
    lines: [3],
  },
  { path: 'pkg/client.go', code: `var cfg = &tls.Config{\n\tInsecureSkipVerify: true,\n}`, lines: [2] },
  {
    path: 'src/main/java/app/Pinned.java',
    code: `class Pinned implements X509TrustManager {\n  public void checkServerTrusted(X509Certificate[] chain, String authType) throws CertificateException {\n    delegate.checkServerTrusted(chain, authType);\n  }\n}`,
    lines: [],
  },
  {
    path: 'src/main/java/app/Host.java',
    code: `class Host implements HostnameVerifier {\n  public boolean verify(String host, SSLSession session) {\n    return ALLOWED.contains(host);\n  }\n}`,
    lines: [],
  },
  {
    path: 'src/main/java/app/Sig.java',
    code: `class Sig {\n  boolean verify(byte[] data) {\n    return signature.verify(data);\n  }\n}`,
    lines: [],
  },
  { path: 'src/Http.php', code: `<?php\ncurl_setopt($ch, CURLOPT_SSL_VERIFYPEER, true);`, lines: [] },
  { path: 'lib/http.rb', code: `http.verify_mode = OpenSSL::SSL::VERIFY_PEER`, lines: [] },
  {
    path: 'src/client.rs',
    code: `let client = reqwest::Client::builder().add_root_certificate(cert).build()?;`,
    lines: [],
  },
  { path: 'app/mail.py', code: `conn = ssl.wrap_socket(sock, cert_reqs=ssl.CERT_REQUIRED)`, lines: [] },
  { path: '.npmrc', code: `registry=https://npm.internal/\nstrict-ssl=true`, lines: [] },
  {
    path: 'src/agent.ts',
    code: `export const agent = new https.Agent({\n  keepAlive: true,\n  ca: readFileSync('ca.pem'),\n});`,
    lines: [],
  },
  { path: 'pkg/client_test.go', code: `var cfg = &tls.Config{\n\tInsecureSkipVerify: true,\n}`, lines: [] },
];

SYNTAX_CASES['no-weak-hash'] = [
  {
    path: 'app/users.py',
    code: `def save(user, pw):\n    h = hashlib.md5()\n    h.update(pw.encode())\n    user.set_password(h.hexdigest())`,
    lines: [4],
  },
  {
    path: 'app/users.py',
    code: `def save(user, pw):\n    digest = hashlib.sha1(pw.encode()).hexdigest()\n    user.setPassword(digest)`,
    lines: [3],
  },
  {
    path: 'src/users.js',
    code: `function save(user, pw) {\n  const digest = crypto.createHash('md5').update(pw).digest('hex');\n  user.setPassword(digest);\n}`,
    lines: [3],
  },
  {
    path: 'src/users.ts',
    code: `export function save(user: User, pw: string) {\n  user.setPassword(createHash('sha1').update(pw).digest('hex'));\n}`,
    lines: [2],
  },
  {
    path: 'pkg/users/save.go',
    code: `func Save(u *User, pw string) {\n\th := md5.New()\n\th.Write([]byte(pw))\n\tu.SetPassword(h.Sum(nil))\n}`,
    lines: [4],
  },
  {
    path: 'src/main/java/app/Users.java',
    code: `class Users {\n  void save(User u, String pw) throws Exception {\n    MessageDigest md = MessageDigest.getInstance("MD5");\n    md.update(pw.getBytes());\n    u.setPassword(md.digest());\n  }\n}`,
    lines: [5],
  },
  {
    path: 'app/models/user.rb',
    code: `def save(user, pw)\n  dig = Digest::MD5.hexdigest(pw)\n  user.set_password dig\nend`,
    lines: [3],
  },
  {
    path: 'public/users.php',
    code: `<?php\nfunction save($user, $pw) {\n  $pass = md5($pw);\n  $user->setPassword($pass);\n}`,
    lines: [4],
  },
  {
    path: 'public/users.php',
    code: `<?php\nfunction save($user, $pw) {\n  $pass = hash('sha1', $pw);\n  $user->setPassword($pass);\n}`,
    lines: [4],
  },
  {
    path: 'src/Users.cs',
    code: `class Users {\n  void Save(User u, string pw) {\n    var md5 = MD5.Create();\n    u.SetPassword(md5.ComputeHash(Encoding.UTF8.GetBytes(pw)));\n  }\n}`,
    lines: [4],
  },
  {
    path: 'app/users.py',
    code: `def save(user, pw):\n    user.set_password(bcrypt.hashpw(pw.encode(), bcrypt.gensalt()))`,
    lines: [],
  },
  {
    path: 'app/users.py',
    code: `def save(user, pw):\n    h = hashlib.sha256(pw.encode())\n    user.set_password(h.hexdigest())`,
    lines: [],
  },
  {
    path: 'src/users.js',
    code: `function save(user, pw) {\n  const digest = crypto.createHash('sha256').update(pw).digest('hex');\n  user.setPassword(digest);\n}`,
    lines: [],
  },
  {
    path: 'src/users.ts',
    code: `export async function save(user: User, pw: string) {\n  user.setPassword(await argon2.hash(pw));\n}`,
    lines: [],
  },
  {
    path: 'pkg/users/save.go',
    code: `func Save(u *User, pw string) {\n\thash, _ := bcrypt.GenerateFromPassword([]byte(pw), 12)\n\tu.SetPassword(hash)\n}`,
    lines: [],
  },
  {
    path: 'src/main/java/app/Users.java',
    code: `class Users {\n  void save(User u, String pw) {\n    u.setPassword(encoder.encode(pw));\n  }\n}`,
    lines: [],
  },
  {
    path: 'app/models/user.rb',
    code: `def save(user, pw)\n  user.set_password BCrypt::Password.create(pw)\nend`,
    lines: [],
  },
  {
    path: 'public/users.php',
    code: `<?php\nfunction save($user, $pw) {\n  $user->setPassword(password_hash($pw, PASSWORD_DEFAULT));\n}`,
    lines: [],
  },
  {
    path: 'public/users.php',
    code: `<?php\nfunction etag($body) {\n  $tag = md5($body);\n  header('ETag: ' . $tag);\n}`,
    lines: [],
  },
  {
    path: 'src/Users.cs',
    code: `class Users {\n  void Save(User u, string pw) {\n    u.SetPassword(hasher.HashPassword(u, pw));\n  }\n}`,
    lines: [],
  },
];
