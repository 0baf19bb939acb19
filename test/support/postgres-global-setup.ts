// vitest globalSetup of the test project that runs the API suites in PostgreSQL mode: one
// throwaway cluster for the whole run (each test service takes a fresh database of its own).
import type { TestProject } from 'vitest/node';
import { startPostgres } from './postgres.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    postgresAdminUrl: string;
  }
}

export default async function setup(project: TestProject) {
  const cluster = await startPostgres();
  // With a password (trust auth ignores it) that closeHealthy() checks no log line shows.
  project.provide('postgresAdminUrl', cluster.adminUrl.replace('postgres@', 'postgres:pw-never-logged-7c1e@'));
  return () => cluster.destroy();
}
