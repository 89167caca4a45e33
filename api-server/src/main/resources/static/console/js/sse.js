// Server-Sent Events read from a fetch response (WHATWG parsing rules, reduced to id and data).

/**
 * Reads events until the stream ends; calls onEvent({id, data}) with data parsed as JSON. Resolves
 * when the server closes the stream, rejects when the connection breaks.
 */
export async function readEvents(response, onEvent) {
  const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
  let buffer = '';
  let id = null;
  let data = [];
  const dispatch = () => {
    if (data.length > 0) {
      const text = data.join('\n');
      let parsed;
      try {
        parsed = JSON.parse(text);
      } catch {
        parsed = { type: 'unparsable', text };
      }
      onEvent({ id, data: parsed });
    }
    data = [];
  };
  for (;;) {
    const { value, done } = await reader.read();
    if (done) break;
    buffer += value;
    let end;
    while ((end = buffer.search(/\r\n|\r|\n/)) >= 0) {
      const line = buffer.slice(0, end);
      buffer = buffer.slice(buffer[end] === '\r' && buffer[end + 1] === '\n' ? end + 2 : end + 1);
      if (line === '') {
        dispatch();
      } else if (!line.startsWith(':')) {
        const colon = line.indexOf(':');
        const name = colon < 0 ? line : line.slice(0, colon);
        let field = colon < 0 ? '' : line.slice(colon + 1);
        if (field.startsWith(' ')) field = field.slice(1);
        if (name === 'data') data.push(field);
        else if (name === 'id' && !field.includes('\0')) id = field;
      }
    }
  }
  dispatch();
}
