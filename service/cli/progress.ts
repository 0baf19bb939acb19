// Progress on stderr when a review takes more than a moment (stdout carries only the format).
// The engine's work is synchronous, so no timer can fire while it runs: the engine's control hook,
// asked between its stages and files, reports then (`tick`); a timer covers the waits on git, on
// stdin and on the service.

/** After this long, the run says what it is doing. */
const DEFAULT_AFTER_MS = 1000;

/** setTimeout's longest delay; a longer one would fire at once. */
const MAX_TIMER_MS = 2 ** 31 - 1;

export interface ProgressOptions {
  afterMs?: number;
  write?: (line: string) => void;
  /** Milliseconds since some fixed moment; tests give a clock of their own. */
  now?: () => number;
}

export class Progress {
  readonly #afterMs: number;
  readonly #write: (line: string) => void;
  readonly #now: () => number;
  readonly #started: number;
  #stage: string | undefined;
  #said = false;
  #timer: NodeJS.Timeout | undefined;

  constructor(options: ProgressOptions = {}) {
    this.#afterMs = options.afterMs ?? DEFAULT_AFTER_MS;
    this.#write = options.write ?? ((line) => process.stderr.write(line));
    this.#now = options.now ?? (() => performance.now());
    this.#started = this.#now();
  }

  /** From now on the run is doing `what` ("reviewing stdin (12 KB)"); said once the run has taken long. */
  stage(what: string): void {
    this.end();
    this.#stage = what;
    this.#said = false;
    const left = this.#afterMs - (this.#now() - this.#started);
    if (left <= 0) this.tick();
    else this.#timer = setTimeout(this.tick, Math.min(left, MAX_TIMER_MS)).unref();
  }

  /** Says the stage if the run has taken long and it was not said yet. As the engine's `stopped` hook, never stops it. */
  readonly tick = (): false => {
    if (!this.#said && this.#stage !== undefined && this.#now() - this.#started >= this.#afterMs) {
      this.#said = true;
      this.#write(`diff-review: ${this.#stage}…\n`);
    }
    return false;
  };

  end(): void {
    clearTimeout(this.#timer);
  }
}

/** The threshold: DIFF_REVIEW_PROGRESS_AFTER_MS (for tests, so a small review reports too), else a second. */
export function progressAfterMs(env: NodeJS.ProcessEnv): number {
  const text = env['DIFF_REVIEW_PROGRESS_AFTER_MS'] ?? '';
  const value = Number(text);
  return text.trim() !== '' && Number.isFinite(value) && value >= 0 ? value : DEFAULT_AFTER_MS;
}
