/**
 * Reads a secret without it ever being a command-line argument (visible to every user in `ps`,
 * kept in shell history). On a terminal: a prompt on stderr, typed characters not echoed. Piped:
 * the first line of stdin (`printf '%s\n' "$PASSWORD" | npm run cli -- …`).
 */
export async function readSecret(prompt: string, input: NodeJS.ReadStream = process.stdin): Promise<string> {
  return input.isTTY ? readFromTerminal(prompt, input) : readFirstLine(input);
}

async function readFirstLine(input: NodeJS.ReadableStream): Promise<string> {
  let text = '';
  for await (const chunk of input) {
    text += chunk.toString();
    if (text.includes('\n')) break;
  }
  return text.split(/\r?\n/)[0] ?? '';
}

function readFromTerminal(prompt: string, input: NodeJS.ReadStream): Promise<string> {
  process.stderr.write(prompt);
  input.setRawMode(true);
  input.resume();
  input.setEncoding('utf8');
  let secret = '';
  return new Promise((resolve, reject) => {
    const done = (error?: Error) => {
      input.setRawMode(false);
      input.pause();
      input.off('data', onData);
      process.stderr.write('\n');
      if (error) reject(error);
      else resolve(secret);
    };
    const onData = (chunk: string) => {
      for (const char of chunk) {
        if (char === '\r' || char === '\n') return done();
        if (char === '\u0003') return done(new Error('cancelled'));
        if (char === '\u007f' || char === '\b') secret = [...secret].slice(0, -1).join('');
        else secret += char;
      }
    };
    input.on('data', onData);
  });
}
