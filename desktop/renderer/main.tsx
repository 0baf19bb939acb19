/** @jsxImportSource preact */
// The renderer's entry. It runs sandboxed, with no Node and no network: everything goes through
// window.diffReview (the preload's bridge).
import { render } from 'preact';
import { App } from './app.tsx';
import './styles.css';

render(<App />, document.getElementById('app')!);
