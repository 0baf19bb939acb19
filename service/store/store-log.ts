// What the store says about its files (damage found, data dropped, leftovers swept): a structural
// slice of pino's logger, so the store needs neither pino nor Fastify. Diffs and secrets never go
// in: only file names, counts, ids.
export interface StoreLog {
  info(details: object, message: string): void;
  warn(details: object, message: string): void;
  error(details: object, message: string): void;
}

/** For a store opened without a logger (the CLI's one-off commands, tests): warnings and errors to stderr. */
export const stderrLog: StoreLog = {
  info() {},
  warn: (details, message) => process.stderr.write(`${JSON.stringify({ level: 'warn', msg: message, ...details })}\n`),
  error: (details, message) =>
    process.stderr.write(`${JSON.stringify({ level: 'error', msg: message, ...details })}\n`),
};
