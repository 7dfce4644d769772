// Webview entry: mounts the chat UI. The transcript view model comes from src/protocol's reducer.
import { render } from 'preact';

function App() {
  return <main aria-label="RAWP chat">RAWP Agent Client</main>;
}

const root = document.getElementById('root');
if (root) render(<App />, root);
