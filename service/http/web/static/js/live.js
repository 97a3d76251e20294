// Live events of a game over server-sent events (GET /games/{id}/stream).
//
// Without a token the page reads as a spectator through an EventSource. With a token the stream
// must carry the Authorization header, which an EventSource cannot send: it is read with fetch
// and a ReadableStream instead (the token never goes into a URL), resuming after the last version
// seen with Last-Event-ID, as an EventSource would.

const RETRY_MS = 2000;

export function follow(gameId, token, { after = 0, onEvent, onStatus = () => {} }) {
  return token ? followWithFetch(gameId, token, after, onEvent, onStatus) : followWithEventSource(gameId, onEvent, onStatus);
}

function followWithEventSource(gameId, onEvent, onStatus) {
  const source = new EventSource(`/games/${gameId}/stream`);
  source.onopen = () => onStatus("live");
  source.onerror = () => onStatus(source.readyState === EventSource.CLOSED ? "ended" : "reconnecting");
  source.addEventListener("event", (message) => {
    const event = JSON.parse(message.data);
    onEvent(event);
    if (event.type === "GameEnded") { source.close(); onStatus("ended"); }
  });
  return { close: () => source.close() };
}

function followWithFetch(gameId, token, after, onEvent, onStatus) {
  let last = after;
  let closed = false;
  let controller = null;

  async function run() {
    while (!closed) {
      controller = new AbortController();
      let ended = false;
      try {
        const headers = { Accept: "text/event-stream", Authorization: `Bearer ${token}` };
        if (last > 0) headers["Last-Event-ID"] = String(last);
        const response = await fetch(`/games/${gameId}/stream`, { headers, signal: controller.signal, cache: "no-store" });
        if (response.status === 204) { onStatus("ended"); return; }
        if (!response.ok || !response.body) throw new Error(`stream: HTTP ${response.status}`);
        onStatus("live");
        const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
        let buffer = "";
        for (;;) {
          const { value, done } = await reader.read();
          if (done) break;
          buffer += value.replace(/\r\n?/g, "\n");
          let cut;
          while ((cut = buffer.indexOf("\n\n")) >= 0) {
            const block = buffer.slice(0, cut);
            buffer = buffer.slice(cut + 2);
            const message = parse(block);
            if (message.id) last = Number(message.id) || last;
            if (message.event === "event" && message.data) {
              const event = JSON.parse(message.data);
              onEvent(event);
              if (event.type === "GameEnded") ended = true;
            }
          }
        }
      } catch (error) {
        if (closed) return;
      }
      if (ended) { onStatus("ended"); return; }
      if (closed) return;
      onStatus("reconnecting");
      await new Promise((resolve) => setTimeout(resolve, RETRY_MS));
    }
  }

  run();
  return { close: () => { closed = true; if (controller) controller.abort(); } };
}

function parse(block) {
  const message = { data: "" };
  const data = [];
  for (const line of block.split("\n")) {
    if (!line || line.startsWith(":")) continue;
    const colon = line.indexOf(":");
    const field = colon < 0 ? line : line.slice(0, colon);
    let value = colon < 0 ? "" : line.slice(colon + 1);
    if (value.startsWith(" ")) value = value.slice(1);
    if (field === "data") data.push(value);
    else if (field === "id" || field === "event") message[field] = value;
  }
  message.data = data.join("\n");
  return message;
}
