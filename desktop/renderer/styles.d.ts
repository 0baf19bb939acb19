// esbuild bundles imported CSS into renderer.css; to TypeScript it is a side-effect import.
declare module '*.css';
