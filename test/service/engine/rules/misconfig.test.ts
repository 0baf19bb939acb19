// The misconfiguration families where the line's context decides: a `run: |` script block, a
// pull_request_target workflow, CORS settings over several lines. One-line cases of every family
// are in misconfig-cases.ts (run by families.test.ts).
import { describe, expect, it } from 'vitest';
import { findings, modifiedFileDiff, newFileDiff, reviewDiff } from '../review-helpers.ts';

const linesOf = async (rule: string, path: string, lines: string[]): Promise<number[]> =>
  (await findings(path, lines)).filter((f) => f.rule_id === rule).map((f) => f.line);

describe('no-actions-script-injection', () => {
  const workflow = [
    'on: issues',
    'jobs:',
    '  triage:',
    '    runs-on: ubuntu-latest',
    '    env:',
    '      TITLE: ${{ github.event.issue.title }}',
    '    steps:',
    '      - run: |',
    '          echo "triaging"',
    '          echo "${{ github.event.issue.body }}" | grep -q bug',
    '      - uses: actions/github-script@v7',
    '        with:',
    '          script: console.log("${{ github.event.issue.title }}")',
    '      - run: echo "$TITLE"',
  ];

  it("reports untrusted text inside a run: block and github-script's script:, not in env:", async () => {
    expect(await linesOf('no-actions-script-injection', '.github/workflows/triage.yml', workflow)).toEqual([10, 13]);
  });

  it("reads a github-script script: block, and not another action's script: input", async () => {
    const steps = (uses: string) => [
      '    steps:',
      `      - uses: ${uses}`,
      '        with:',
      '          script: |',
      '            const title = "${{ github.event.issue.title }}";',
    ];
    expect(
      await linesOf('no-actions-script-injection', '.github/workflows/t.yml', steps('actions/github-script@v7')),
    ).toEqual([5]);
    expect(await linesOf('no-actions-script-injection', '.github/workflows/t.yml', steps('acme/run-tool@v1'))).toEqual(
      [],
    );
  });

  it("climbs through a script's own nesting to its run: key, and stops at the step's other keys", async () => {
    const step = [
      '    steps:',
      '      - run: |',
      '          notes(',
      '              event=${{ toJSON(github.event) }},',
      '          )',
      '        env:',
      '          TITLE: ${{ github.event.issue.title }}',
    ];
    expect(await linesOf('no-actions-script-injection', '.github/workflows/t.yml', step)).toEqual([4]);
  });

  it('reads the workflow as YAML: a flow mapping, a folded script, a key that only looks like run:', async () => {
    const lines = [
      'jobs:',
      '  triage:',
      '    steps:',
      '      - { name: greet, run: \'echo "${{ github.event.issue.title }}"\' }',
      '      - run: >-',
      '          echo',
      '          "${{ github.event.comment.body }}"',
      '      - name: note',
      '        with:',
      '          body: "run: ${{ github.event.issue.body }}"',
    ];
    expect(await linesOf('no-actions-script-injection', '.github/workflows/t.yml', lines)).toEqual([4, 7]);
  });

  it('reads a hunk that starts inside a step, deeper than the lines after it', async () => {
    const diff = modifiedFileDiff(
      '.github/workflows/triage.yml',
      ['        run: |', '          echo "triaging"'],
      ['          echo "${{ github.event.issue.title }}"', '      - name: next', '        run: echo done'],
    );
    const found = (await reviewDiff(diff)).findings.filter((f) => f.rule_id === 'no-actions-script-injection');
    expect(found.map((f) => [f.line, f.start_column])).toEqual([[3, 17]]);
  });

  it('reads the script inputs of the actions that run one (PowerShell, the Azure CLI, yq), not their other inputs', async () => {
    const step = (uses: string, key: string) => [
      '    steps:',
      `      - uses: ${uses}`,
      '        with:',
      `          ${key}: |`,
      '            Write-Host "${{ github.event.pull_request.title }}"',
    ];
    const found = (uses: string, key: string) =>
      linesOf('no-actions-script-injection', '.github/workflows/t.yml', step(uses, key));
    expect(await found('Amadevus/pwsh-script@97a8b211', 'script')).toEqual([5]);
    expect(await found('azure/powershell@v2', 'inlineScript')).toEqual([5]);
    expect(await found('azure/cli@v2', 'inlineScript')).toEqual([5]);
    expect(await found('mikefarah/yq@v4', 'cmd')).toEqual([5]);
    expect(await found('azure/cli@v2', 'script')).toEqual([]);
    expect(await found('acme/deploy@v1', 'inlineScript')).toEqual([]);
  });

  it("reads the run: key above an added line of a block from the diff's context", async () => {
    const diff = modifiedFileDiff('.github/workflows/triage.yml', workflow.slice(0, 9), [
      '          echo "${{ github.event.comment.body }}"',
    ]);
    const found = (await reviewDiff(diff)).findings.filter((f) => f.rule_id === 'no-actions-script-injection');
    expect(found.map((f) => f.line)).toEqual([10]);
  });

  it('is not read outside workflow files', async () => {
    expect(
      await linesOf('no-actions-script-injection', 'docs/ci.yml', [
        '        run: echo "${{ github.event.issue.title }}"',
      ]),
    ).toEqual([]);
  });
});

describe('no-pull-request-target-checkout', () => {
  const workflow = (trigger: string) => [
    `on: ${trigger}`,
    'jobs:',
    '  test:',
    '    runs-on: ubuntu-latest',
    '    steps:',
    '      - uses: actions/checkout@v4',
    '        with:',
    '          ref: ${{ github.event.pull_request.head.sha }}',
    '      - run: npm ci && npm test',
  ];

  it('reports checking out the head in a pull_request_target workflow', async () => {
    expect(
      await linesOf('no-pull-request-target-checkout', '.github/workflows/pr.yml', workflow('pull_request_target')),
    ).toEqual([8]);
  });

  it('reports gh pr checkout and git fetch of pull/N/head, not gh pr view', async () => {
    const steps = [
      'on: pull_request_target',
      'jobs:',
      '  test:',
      '    steps:',
      '      - run: gh pr checkout ${{ github.event.pull_request.number }} && npm test',
      '      - run: git fetch origin pull/${{ github.event.number }}/head:pr && git checkout pr',
      '      - run: gh pr view ${{ github.event.pull_request.number }} --json title',
    ];
    expect(await linesOf('no-pull-request-target-checkout', '.github/workflows/pr.yml', steps)).toEqual([5, 6]);
  });

  it('finds the trigger in another hunk of the file; reports nothing when the diff does not show it', async () => {
    const step = ['      - uses: actions/checkout@v4', '        with:', '          ref: ${{ github.head_ref }}'];
    const twoHunks = [
      'diff --git a/.github/workflows/pr.yml b/.github/workflows/pr.yml',
      '--- a/.github/workflows/pr.yml',
      '+++ b/.github/workflows/pr.yml',
      '@@ -1,3 +1,3 @@',
      '-on: pull_request',
      '+on: pull_request_target',
      ' jobs:',
      '   test:',
      '@@ -40,2 +40,5 @@',
      '     steps:',
      ...step.map((l) => `+${l}`),
      '       - run: npm test',
      '',
    ].join('\n');
    const found = (await reviewDiff(twoHunks)).findings.filter((f) => f.rule_id === 'no-pull-request-target-checkout');
    expect(found.map((f) => f.line)).toEqual([43]);
    const stepOnly = modifiedFileDiff('.github/workflows/pr.yml', ['    steps:'], step);
    expect(
      (await reviewDiff(stepOnly)).findings.filter((f) => f.rule_id === 'no-pull-request-target-checkout'),
    ).toEqual([]);
  });

  it('does not report the same checkout under pull_request', async () => {
    expect(
      await linesOf('no-pull-request-target-checkout', '.github/workflows/pr.yml', workflow('pull_request')),
    ).toEqual([]);
  });
});

describe('no-cors-any-origin-credentials', () => {
  it('reads settings over several lines (Django, Express)', async () => {
    expect(
      await linesOf('no-cors-any-origin-credentials', 'mysite/settings.py', [
        'CORS_ALLOW_ALL_ORIGINS = True',
        'CORS_ALLOW_CREDENTIALS = True',
      ]),
    ).toEqual([2]);
    const express = ['app.use(', '  cors({', "    origin: '*',", '    credentials: true,', '  }),', ');'];
    expect(await linesOf('no-cors-any-origin-credentials', 'src/server.ts', express)).toEqual([4]);
    const listed = [
      'app.use(',
      '  cors({',
      "    origin: ['https://app.example.com'],",
      '    credentials: true,',
      '  }),',
      ');',
    ];
    expect(await linesOf('no-cors-any-origin-credentials', 'src/server.ts', listed)).toEqual([]);
  });
});

describe('no-cors-any-origin-credentials: FastAPI and Spring over several lines', () => {
  it('reads allow_origins and allowedOriginPatterns beside the credentials setting', async () => {
    const fastapi = [
      'app.add_middleware(',
      '    CORSMiddleware,',
      '    allow_origins=["*"],',
      '    allow_credentials=True,',
      ')',
    ];
    expect(await linesOf('no-cors-any-origin-credentials', 'app/main.py', fastapi)).toEqual([4]);
    const spring = [
      'registry.addMapping("/api/**")',
      '    .allowedOriginPatterns("*")',
      '    .allowCredentials(true);',
    ];
    expect(await linesOf('no-cors-any-origin-credentials', 'src/main/java/WebConfig.java', spring)).toEqual([3]);
  });
});

describe('no-sql-string-building', () => {
  it('is not read in tests', async () => {
    expect(
      await linesOf('no-sql-string-building', 'test/users.test.ts', [
        'await db.query(`SELECT * FROM users WHERE id = ${id}`);',
      ]),
    ).toEqual([]);
  });
});

describe('no-pipe-to-shell over continued lines', () => {
  it('reads a command over the lines its backslashes continue it to, and reports where it begins', async () => {
    const docker = newFileDiff('Dockerfile', [
      'FROM debian:12',
      'RUN curl -fsSL https://example.com/install.sh \\',
      '    | sudo /bin/bash -s -- --yes',
    ]);
    expect(
      (await reviewDiff(docker)).findings.filter((f) => f.rule_id === 'no-pipe-to-shell').map((f) => f.line),
    ).toEqual([2]);
    const saved = newFileDiff('scripts/install.sh', [
      'curl -fsSL https://example.com/install.sh \\',
      '  -o install.sh',
      'sha256sum -c install.sh.sha256',
    ]);
    expect((await reviewDiff(saved)).findings.map((f) => f.rule_id)).not.toContain('no-pipe-to-shell');
  });
});

describe('no-pipe-to-shell from the syntax of a script', () => {
  it('follows a download kept in a variable to the eval, source or shell that runs it', async () => {
    const lines = [
      'installer=$(curl -fsSL https://example.com/install.sh)',
      'echo "fetched"',
      'eval "$installer"',
      'greeting="echo hello"',
      'eval "$greeting"',
      'bash -c "${installer}"',
      'sha256sum -c install.sh.sha256 && sh install.sh',
    ];
    const found = (await reviewDiff(newFileDiff('scripts/install.sh', lines))).findings;
    expect(found.filter((f) => f.rule_id === 'no-pipe-to-shell').map((f) => f.line)).toEqual([3, 6]);
  });
});

describe('no-pipe-to-shell in CI scripts (the YAML parsed, then each script by the bash grammar)', () => {
  it("follows a download kept in a variable through a workflow's run: block, not one only printed", async () => {
    const lines = [
      'on: push',
      'jobs:',
      '  build:',
      '    runs-on: ubuntu-latest',
      '    steps:',
      '      - name: install',
      '        run: |',
      '          CONTENTS=$(curl -fsSL https://example.com/install.sh)',
      '          eval $CONTENTS',
      '      - run: |',
      '          VERSION=$(curl -s https://api.example.com/version)',
      '          echo "$VERSION"',
      '      - name: eval $CONTENTS',
    ];
    expect(await linesOf('no-pipe-to-shell', '.github/workflows/ci.yml', lines)).toEqual([9]);
  });

  it("reads a GitLab job's script list, and not a list under another key", async () => {
    const script = (key: string) => [
      'build:',
      `  ${key}:`,
      '    - INSTALLER=$(curl -fsSL https://get.example.com)',
      '    - \'bash -c "$INSTALLER"\'',
    ];
    expect(await linesOf('no-pipe-to-shell', '.gitlab-ci.yml', script('script'))).toEqual([4]);
    expect(await linesOf('no-pipe-to-shell', '.gitlab-ci.yml', script('variables'))).toEqual([]);
  });
});

describe("no-pipe-to-shell in a Dockerfile's shell (dockerfile-ast, then the bash grammar)", () => {
  const found = async (diff: string) =>
    (await reviewDiff(diff)).findings.filter((f) => f.rule_id === 'no-pipe-to-shell').map((f) => f.line);

  it('follows a download kept in a variable through RUN, its continued lines and a heredoc', async () => {
    const lines = [
      'FROM debian:12',
      'RUN --mount=type=cache,target=/var/cache/apt script=$(curl -fsSL https://example.com/i.sh) && \\',
      '    echo "fetched" && \\',
      '    eval "$script"',
      'ENV GREETING="echo hello"',
      'RUN eval "$GREETING"',
      'RUN <<EOF',
      'installer="$(wget -qO- https://example.com/i.sh)"',
      'sh -c "$installer"',
      'EOF',
      'COPY install.sh /tmp/',
      'RUN ["/bin/sh", "/tmp/install.sh"]',
    ];
    expect(await found(newFileDiff('Dockerfile', lines))).toEqual([4, 9]);
  });

  it('reads a hunk that starts inside a RUN: the lines before its first instruction are shell', async () => {
    const diff = modifiedFileDiff(
      'build/app.dockerfile',
      ['    apt-get install -y curl && \\'],
      ['    script=$(curl -fsSL https://example.com/i.sh) && \\', '    bash -c "$script"'],
    );
    expect(await found(diff)).toEqual([3]);
  });
});

describe('no-privileged-container in YAML, read parsed', () => {
  it('reads every document of a manifest, block and flow maps, and not comments or other values', async () => {
    const lines = [
      'apiVersion: apps/v1',
      'kind: Deployment',
      'spec:',
      '  template:',
      '    spec:',
      '      hostIPC: false',
      '---',
      'kind: Pod',
      'spec:',
      '  hostPID: true',
      '  containers:',
      '    - name: app',
      '      # securityContext: { privileged: true } was needed once',
      '      securityContext: { privileged: true, runAsNonRoot: true }',
      '      args: ["--privileged: true"]',
    ];
    expect(await linesOf('no-privileged-container', 'k8s/app.yaml', lines)).toEqual([10, 14]);
  });

  it("reads Compose's namespaces shared with the host", async () => {
    const lines = ['services:', '  agent:', '    image: agent:1', '    network_mode: host', '    pid: "service:db"'];
    expect(await linesOf('no-privileged-container', 'compose.yaml', lines)).toEqual([4]);
  });
});

describe('no-tls-verify-off in YAML, read parsed', () => {
  it('reads the switches of Kubernetes, Prometheus, Traefik and Ansible, in block and flow maps, not comments or text', async () => {
    const lines = [
      'apiVersion: apiregistration.k8s.io/v1',
      'kind: APIService',
      'spec:',
      '  insecureSkipTLSVerify: true',
      '  # insecureSkipTLSVerify: true for the demo',
      '  service: { name: metrics }',
      '---',
      'scrape_configs:',
      '  - job_name: nodes',
      '    tls_config: { insecure_skip_verify: true }',
      '  - job_name: pods',
      '    tls_config:',
      '      insecure_skip_verify: false',
      '      ca_file: /etc/ca.pem',
      '---',
      'serversTransport:',
      '  insecureSkipVerify: "true"',
      'description: "insecureSkipTLSVerify: true turns checks off"',
    ];
    expect(await linesOf('no-tls-verify-off', 'deploy/monitoring.yaml', lines)).toEqual([4, 10, 17]);
  });

  it("reports Ansible's validate_certs: no, not yes nor a template", async () => {
    const lines = [
      '- name: fetch the installer',
      '  ansible.builtin.get_url:',
      '    url: https://example.com/install.sh',
      '    validate_certs: no',
      '- name: call the API',
      '  ansible.builtin.uri:',
      '    url: https://api.example.com',
      '    validate_certs: yes',
      '- name: call it again',
      '  ansible.builtin.uri:',
      '    validate_certs: "{{ verify_tls }}"',
    ];
    expect(await linesOf('no-tls-verify-off', 'roles/web/tasks/main.yml', lines)).toEqual([4]);
  });

  it('still reads the setting written into a shell script', async () => {
    const lines = ['cat > apiservice.yaml <<EOF', 'spec:', '  insecureSkipTLSVerify: true', 'EOF'];
    expect(await linesOf('no-tls-verify-off', 'scripts/register.sh', lines)).toEqual([3]);
  });
});

describe('no-unsafe-yaml-load with ruamel.yaml', () => {
  it('leaves load() of a YAML() instance alone and reports the instance made unsafe', async () => {
    const lines = [
      'def read(path):',
      '    yaml = YAML(typ="rt")',
      '    return yaml.load(path)',
      '',
      'def read_objects(path):',
      '    yaml = YAML(typ="unsafe")',
      '    return yaml.load(path)',
      '',
      'def read_pyyaml(text):',
      '    import yaml',
      '    return yaml.load(text)',
    ];
    expect(await linesOf('no-unsafe-yaml-load', 'app/config.py', lines)).toEqual([6, 11]);
  });
});

describe('no-debug-in-production in Kubernetes manifests and web.config', () => {
  it("reads a workload's container env, parsed: the switch and its value, not another kind or a comment", async () => {
    const lines = [
      'apiVersion: apps/v1',
      'kind: Deployment',
      'spec:',
      '  template:',
      '    spec:',
      '      containers:',
      '        - name: backend',
      '          env:',
      '            - name: FLASK_ENV',
      '              value: development',
      '            # - name: FLASK_DEBUG',
      '            - { name: DJANGO_DEBUG, value: "True" }',
      '            - name: FLASK_DEBUG',
      '              value: "0"',
      '---',
      'apiVersion: v1',
      'kind: ConfigMap',
      'data:',
      '  env: [{ name: FLASK_ENV, value: development }]',
    ];
    expect(await linesOf('no-debug-in-production', 'k8s/backend.yaml', lines)).toEqual([9, 12]);
  });

  it('reads a <compilation> element whose debug attribute is on a line of its own', async () => {
    const lines = [
      '<system.web>',
      '  <compilation',
      '    debug="true"',
      '    targetFramework="4.8" />',
      '</system.web>',
    ];
    expect(await linesOf('no-debug-in-production', 'src/Site/Web.config', lines)).toEqual([3]);
    const other = ['<system.web>', '  <trace enabled="false"', '    debug="true" />', '</system.web>'];
    expect(await linesOf('no-debug-in-production', 'src/Site/Web.config', other)).toEqual([]);
  });
});

describe('no-jwt-verify-off from the syntax of Java', () => {
  it('reports a jjwt token built over several lines and never signed, not one signed with signWith', async () => {
    const lines = [
      'class Tokens {',
      '  String unsigned() {',
      '    return Jwts.builder()',
      '        .setSubject("bob")',
      '        .compact();',
      '  }',
      '  String signed(Key key) {',
      '    return Jwts.builder()',
      '        .setSubject("bob")',
      '        .signWith(key)',
      '        .compact();',
      '  }',
      '}',
    ];
    expect(await linesOf('no-jwt-verify-off', 'src/main/java/app/Tokens.java', lines)).toEqual([3]);
  });
});
