import { type FormEvent, useState } from 'react';
import { Page } from '../components/Page.tsx';
import { useChat } from '../state/chat.ts';

export const ChatScreen = () => {
  const { turns, last, sending, error, send, clear } = useChat();
  const [endpoint, setEndpoint] = useState('');
  const [model, setModel] = useState('');
  const [piiFilter, setPiiFilter] = useState<'' | 'off' | 'redact' | 'block'>('');
  const [draft, setDraft] = useState('');
  const submit = (event: FormEvent): void => {
    event.preventDefault();
    if (draft.trim() === '') return;
    void send(draft, { endpoint, model, ...(piiFilter ? { piiFilter } : {}) });
    setDraft('');
  };
  return (
    <Page
      title="Chat"
      description="Send a prompt to an OpenAI-compatible provider. The API key is kept by the core (Settings), never in this page."
      error={error}
    >
      <div className="toolbar">
        <label>
          Endpoint
          <input value={endpoint} onChange={(e) => setEndpoint(e.target.value)} placeholder="from Settings" />
        </label>
        <label>
          Model
          <input value={model} onChange={(e) => setModel(e.target.value)} placeholder="from Settings" />
        </label>
        <label>
          PII filter
          <select value={piiFilter} onChange={(e) => setPiiFilter(e.target.value as typeof piiFilter)}>
            <option value="">from Settings</option>
            <option value="off">off</option>
            <option value="redact">redact</option>
            <option value="block">block</option>
          </select>
        </label>
        <button type="button" onClick={clear}>
          New conversation
        </button>
      </div>
      <ol className="chat-log" aria-label="Conversation">
        {turns.map((turn, index) => (
          // biome-ignore lint/suspicious/noArrayIndexKey: turns are append-only and never reordered
          <li key={index} className={`turn ${turn.role}`}>
            <span className="turn-role">{turn.role}</span>
            <p>{turn.content}</p>
          </li>
        ))}
      </ol>
      <form onSubmit={submit} className="stack">
        <label htmlFor="chat-input">Message</label>
        <textarea id="chat-input" rows={3} value={draft} onChange={(e) => setDraft(e.target.value)} />
        <button type="submit" className="primary" disabled={sending}>
          {sending ? 'Sending…' : 'Send'}
        </button>
      </form>
      {last ? (
        <p role="status" className="muted">
          {last.ok ? 'Reply' : 'Failed'} in {Math.round(last.latency_ms)} ms · tokens {last.prompt_tokens} + {last.completion_tokens} ={' '}
          {last.total_tokens}
        </p>
      ) : null}
    </Page>
  );
};
